//! One module per page.

pub mod attempts;
pub mod audit;
pub mod compare;
pub mod episode;
pub mod home;
pub mod judge;
pub mod models;
pub mod play;
pub mod reflect;
pub mod roms;
pub mod run;
pub mod study;
pub mod study_take;
pub mod suite;
pub mod suite_run;
pub mod task;
pub mod task_play;
