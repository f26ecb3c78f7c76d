//! Playbench environments: ports of the Gymnasium reference environments that reproduce
//! them seed for seed, with rendering into caller-owned RGB frames.
//!
//! Pure Rust with no web dependency: the same code runs natively and as WebAssembly, and
//! a seed gives bit-identical episodes on both. All randomness goes through
//! [`rng::NpRandom`] (numpy's generator) and all transcendental math through `libm`.

pub mod atari;
pub mod classic_control;
pub mod core;
pub mod minigrid;
pub mod protocol;
pub mod registry;
pub mod render;
pub mod rng;
pub mod solvers;
pub mod tasks;
pub mod toy_text;

pub use crate::core::env::{Action, ActionSpace, Env, Info, KeyBinding, Observation, Reset, Step};
pub use crate::core::error::EnvError;
pub use crate::core::frame::Frame;
pub use registry::{make, make_default, spec, specs, EnvSpec, Family};
