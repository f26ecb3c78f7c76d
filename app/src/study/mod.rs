//! Human studies: the organiser's draft (kept across reloads) that becomes a study
//! link, and a participant's progress through it (saved after every episode, resumed
//! after a reload) ending in a results file.

pub mod draft;
pub mod participation;
