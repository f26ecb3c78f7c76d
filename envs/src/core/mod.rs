//! The environment interface, frames, errors, kwargs and the `gym.make` wrappers.

pub mod env;
pub mod error;
pub mod frame;
pub mod kwargs;
pub mod wrappers;
