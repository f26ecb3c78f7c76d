//! GameVerse's reflect-and-retry (`docs/gameverse.md`, "Reflect and retry"; the
//! GameVerse paper §3.2, §4.3): after a failed attempt the model that played studies
//! its failure and an expert tutorial, and what it writes fills the experience slot of
//! its next attempt. `prompts` holds the two requests, `experience` the conditions and
//! how replies become the experience, `run` the state machine the browser and the
//! command line drive.

pub mod experience;
pub mod import;
pub mod prompts;
pub mod run;

pub use experience::Condition;
pub use run::{ReflectConfig, ReflectRun};

#[cfg(test)]
mod tests;
