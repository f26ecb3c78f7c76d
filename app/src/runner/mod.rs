//! Model runs: endpoint profiles and keys ([`profiles`]), how a run is conducted
//! ([`settings`]), start / pause / stop and the worker count ([`control`]),
//! whole-suite runs that survive reloads ([`suite_run`]) and what network failures
//! mean ([`diagnose`]), what a run will send ([`estimate`]), a real-time run's latency mode and thinking
//! times ([`latency_view`]), the first request prepared ahead ([`ahead`]). One model episode is `bench::model_episode`,
//! shared with the command line. No IO here: the pages fetch, store and draw.

pub mod ahead;
pub mod control;
pub mod diagnose;
pub mod estimate;
pub mod latency_view;
pub mod profiles;
pub mod settings;
pub mod suite_run;
pub mod tokens;
pub mod unfinished;
