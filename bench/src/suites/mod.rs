//! The built-in suites.

pub mod core;
