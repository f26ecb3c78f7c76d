//! One module per page.

pub mod home;
pub mod play;
pub mod suite;
pub mod task;
pub mod task_play;
