//! The trajectory auditor (`docs/audit.md`; the V-ICAL paper, §4.3 and Appendix C):
//! an auditor model reads a finished episode's complete interaction log, the task's
//! rules and a demonstration-derived reference built once per task, and answers two
//! independent requests — information transfer (rules and strategies induced and used)
//! and sequential failure attribution (the most upstream deficient stage of knowledge
//! induction, state grounding, planning and action commitment) — as JSON under a
//! contract that is validated here. Pure: the browser and the command line drive
//! [`run::AuditRun`] and do the HTTP.

pub mod contract;
pub mod evidence;
pub mod file;
pub mod prompts;
pub mod report;
pub mod request;
pub mod run;

#[cfg(test)]
mod tests;
