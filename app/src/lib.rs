//! Playbench in the browser: the environments of `envs`, played client-side.
//!
//! The logic lives in plain types that native `cargo test -p playbench-app` reaches:
//! [`url`] (the play page's query), [`play_state`] (an episode being played) and
//! [`catalog`] (what the home page lists). The Leptos views, compiled for wasm32 only,
//! draw them and forward clicks and key presses.

pub mod catalog;
pub mod play_state;
pub mod url;

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod components;
#[cfg(target_arch = "wasm32")]
mod pages;

#[cfg(target_arch = "wasm32")]
pub use app::{start, App};
