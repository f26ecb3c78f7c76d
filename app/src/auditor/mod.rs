//! The `/audit` page's logic (`docs/audit.md`, "In the browser"): reading the dropped
//! file ([`input`]), keeping the audit across reloads ([`stored`]) and what the page
//! shows of an audit file ([`view`]). The audit itself is `bench::audit`, shared with
//! the command line. No IO here.

pub mod input;
pub mod stored;
pub mod view;
