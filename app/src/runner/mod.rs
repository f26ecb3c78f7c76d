//! Model runs: endpoint profiles and keys ([`profiles`]), how a run is conducted
//! ([`settings`]), one model episode as a state machine the page drives ([`episode`]),
//! whole-suite runs that survive reloads ([`suite_run`]) and what network failures mean
//! ([`diagnose`]). No IO here: the pages do the fetching, storing and drawing.

pub mod diagnose;
pub mod episode;
pub mod profiles;
pub mod settings;
pub mod suite_run;
