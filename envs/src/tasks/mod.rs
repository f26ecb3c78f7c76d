//! The benchmark on top of the environments: tasks and suites, the episode engine,
//! scoring, agents and demonstration clips (protocol.md §1, §2, §4, §5).

pub mod agents;
pub mod core_suite;
pub mod demo;
pub mod episode;
pub mod link_codec;
pub mod report;
pub mod results;
pub mod scoring;
pub mod share;
pub mod study;
pub mod task;

pub use episode::{run_episode, Agent, Decision, EpisodeRecord, EpisodeRunner, FailureMode, Reply};
pub use task::{DemoClip, PassCondition, ScoreRule, Suite, Task, TaskError};
