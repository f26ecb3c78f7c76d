//! Playbench environments: ports of the reference environments that reproduce them seed
//! for seed, with rendering into caller-owned RGB frames, input maps and oracles. Each
//! family lives in its own folder, named once in `families!` below (see
//! `docs/architecture.md` and `docs/adding-an-environment.md`).
//!
//! Pure Rust with no web dependency: the same code runs natively and as WebAssembly, and
//! a seed gives bit-identical episodes on both. All randomness goes through our ports of
//! the reference generators (`rng`) and all transcendental math through `libm` or a
//! ported kernel.

pub mod core;
pub mod pygame;
pub mod registry;
pub mod render;
pub mod rng;

/// Declares each family's folder as a module and lists the families for the registry:
/// adding a family is adding its name here (see `docs/adding-an-environment.md`).
macro_rules! families {
    ($($family:ident),* $(,)?) => {
        $(pub mod $family;)*
        /// Every family, in display order.
        pub(crate) static FAMILY_LIST: &[&core::spec::Family] = &[$(&$family::FAMILY),*];
    };
}

families!(
    toy_text,
    classic_control,
    minigrid,
    gameverse,
    tetris,
    flappy_bird,
    highway,
    visgym,
    atari,
);

pub use crate::core::action::{ActionError, ArgKind, ArgValue, Call};
pub use crate::core::env::{
    Action, ActionSpace, Env, Floats, Info, KeyBinding, Observation, Reset, Signals, Step,
};
pub use crate::core::error::EnvError;
pub use crate::core::events::Events;
pub use crate::core::frame::Frame;
pub use registry::{make, make_default, spec, specs, EnvSpec, Family};
