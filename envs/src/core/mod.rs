//! The environment interface (`Env`), the milestones a step reports, actions and their text forms, agent prompts, input
//! maps, the virtual clock for real-time play, oracles, frames, errors, kwargs, the
//! `gym.make` wrappers, specs, the registry-wide environment checker, and a zip reader for
//! the wheels users' assets come in.

pub mod action;
pub mod agent_prompts;
pub mod check;
pub mod clock;
pub mod env;
pub mod error;
pub mod events;
pub mod floats;
pub mod frame;
pub mod input;
pub mod kwargs;
pub mod oracle;
pub mod package_port;
pub mod spec;
pub mod wrappers;
pub mod zip;
