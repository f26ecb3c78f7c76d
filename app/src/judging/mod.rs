//! The `/judge` page's logic (`docs/judge.md`, "In the browser"): what is judged — a
//! results file, or episode files and share links — and reading dropped files
//! ([`input`]), keeping the judging across reloads ([`stored`]) and what the page shows
//! of a judge file ([`view`]). The judging itself is `bench::judge::run::JudgeRun`,
//! shared with `playbench judge`. No IO here.

pub mod input;
pub mod stored;
pub mod view;
