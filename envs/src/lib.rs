//! Playbench environments: ports of the reference environments that reproduce them seed
//! for seed, with rendering into caller-owned RGB frames, input maps and oracles. Each
//! family lives in its own folder; `registry` lists the families (see
//! `docs/architecture.md` and `docs/adding-an-environment.md`).
//!
//! Pure Rust with no web dependency: the same code runs natively and as WebAssembly, and
//! a seed gives bit-identical episodes on both. All randomness goes through
//! [`rng::NpRandom`] (numpy's generator) and all transcendental math through `libm`.

pub mod classic_control;
pub mod core;
pub mod flappy_bird;
pub mod highway;
pub mod minigrid;
pub mod pygame;
pub mod registry;
pub mod render;
pub mod rng;
pub mod tetris;
pub mod toy_text;

pub use crate::core::action::{ActionError, ArgKind, ArgValue, Call};
pub use crate::core::env::{
    Action, ActionSpace, Env, Info, KeyBinding, Observation, Reset, Signals, Step,
};
pub use crate::core::error::EnvError;
pub use crate::core::frame::Frame;
pub use registry::{make, make_default, spec, specs, EnvSpec, Family};
