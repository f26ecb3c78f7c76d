//! Comparing results files: the imported files (kept across reloads), the rows shown
//! (each file, plus the pooled human baseline), per environment and per tag estimates
//! with bootstrap confidence intervals, paired differences on shared tasks and seeds,
//! and the links from every number to its episodes' replays; for runs of attempts, the
//! gain per reflect-and-retry condition.

pub mod bootstrap;
pub mod entries;
#[cfg(test)]
mod fixtures;
pub mod gains;
pub mod imports;
pub mod paired;
pub mod table;
