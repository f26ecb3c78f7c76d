//! Playbench in the browser: the environments of `envs`, played client-side.
//!
//! The logic lives in plain types that native `cargo test -p playbench-app` reaches:
//! [`url`] (the pages' queries), [`play_state`] (an episode being played) and
//! [`catalog`] (what the home page lists); for the benchmark, [`bench`] (the built-in
//! suite and its baselines), [`suite_filter`] (the suite page's filters and groups),
//! [`task_text`] (a task's rules in plain words), [`demo_player`] (demonstration
//! playback) and [`task_session`] (a person playing a task as an agent would); [`rom_shelf`]
//! (the Atari ROMs people supply, kept on their device); [`auditor`] (the trajectory
//! auditor's page: dropped files, the stored audit, its report and verdicts);
//! [`reflector`] (reflect-and-retry runs and runs of attempts on `/reflect`, `/attempts`);
//! [`judging`] (the milestone judge's page: what is judged, the stored judging, its
//! report). The
//! Leptos views, compiled for wasm32 only, draw them and forward clicks and key presses.

pub mod action_form;
pub mod auditor;
pub mod catalog;
pub mod compare;
pub mod demo_player;
pub mod first_load;
pub mod image_sets;
pub mod judging;
pub mod physics;
pub mod play_state;
pub mod pointer;
pub mod realtime;
pub mod reflector;
pub mod replay;
pub mod rom_shelf;
pub mod routes;
pub mod runner;
pub mod storage;
pub mod storage_keys;
pub mod study;
pub mod suite_data;
pub mod suite_filter;
pub mod task_session;
pub mod task_text;
#[cfg(test)]
mod test_envs;
pub mod url;

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod browser;
#[cfg(target_arch = "wasm32")]
mod components;
#[cfg(target_arch = "wasm32")]
mod pages;

#[cfg(target_arch = "wasm32")]
pub use app::{start, start_first, App};
