//! The agent protocol's pure parts (protocol.md §3-4): the V-ICAL conversation text and
//! the reply parser. The browser and the command line only add the HTTP layer.

pub mod parse;
pub mod prompt;
