//! Small view pieces shared by the pages.

pub mod action_buttons;
pub mod action_input;
pub mod asset_gate;
pub mod demo_clip;
pub mod episode_run;
pub mod error_box;
pub mod file_drop;
pub mod frame_view;
pub mod keys;
pub mod latency_line;
pub mod loading;
pub mod needs_suites;
pub mod physics;
pub mod pictures;
pub mod realtime;
pub mod reflection_turns;
pub mod results_view;
pub mod rom_drop;
pub mod run_setup;
pub mod share_box;
pub mod study_demos;
pub mod study_task;
pub mod turn_log;
