//! GameVerse's milestone judge (`docs/judge.md`; the GameVerse spec's §9): a judge
//! model watches an episode's step frames and marks each milestone of the game's list
//! completed or not with its evidence; the score is completed / total. For games whose
//! milestones carry exact predicates (Playbench's open GameVerse games), the episode is
//! also replayed and each milestone decided from the environment's own events, and a
//! report shows where the judge and the exact answer disagree. Pure: the browser and
//! the command line drive [`run::JudgeRun`] and do the HTTP.

pub mod agreement;
pub mod exact;
pub mod file;
pub mod milestones;
pub mod prompts;
pub mod report;
pub mod run;
pub mod verdict;

#[cfg(test)]
mod tests;
