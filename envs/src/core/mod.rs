//! The environment interface (`Env`), actions and their text forms, input maps, the
//! virtual clock for real-time play, oracles, frames, errors, kwargs, the `gym.make`
//! wrappers, specs and the registry-wide environment checker.

pub mod action;
pub mod check;
pub mod clock;
pub mod env;
pub mod error;
pub mod frame;
pub mod input;
pub mod kwargs;
pub mod oracle;
pub mod spec;
pub mod wrappers;
