//! The Playbench benchmark over the environments of `envs`: tasks and suites, the
//! episode engine, scoring, agents, demonstration clips, the model protocols and
//! sessions, episode files and share links, human studies and results files.
//!
//! Pure Rust with no web dependency: the browser app and the command line are adapters
//! over the same types (see `docs/architecture.md`).

pub mod agents;
pub mod attempts;
pub mod audit;
pub mod demo;
pub mod encode;
pub mod episode;
pub mod exchange;
pub mod first_request;
pub mod judge;
/// Pillow's Lanczos resize (it lives with the environments, whose frames use it too).
pub use envs::render::lanczos;
pub mod latency;
pub mod link_codec;
pub mod model_episode;
pub mod protocol;
pub mod reflect;
pub mod report;
pub mod results;
pub mod scoring;
pub mod share;
pub mod step_video;
pub mod study;
pub mod suites;
pub mod task;
#[cfg(test)]
mod testing;
pub mod video;

pub use episode::{run_episode, Agent, Decision, EpisodeRecord, EpisodeRunner, FailureMode, Reply};
pub use task::{DemoClip, PassCondition, ScoreRule, Suite, Task, TaskError};
