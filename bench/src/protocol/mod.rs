//! The agent protocols' pure parts (protocol.md §3-4, §6): the V-ICAL conversation
//! text, the reply parser, the provider request/response shapes, retry timing and the
//! session state machine; and VisGym's harness (`visgym`), a protocol a run chooses
//! instead. The browser and the command line only add the HTTP layer.

pub mod endpoint;
pub mod parse;
pub mod prompt;
pub mod providers;
pub mod retry;
pub mod session;
pub mod visgym;
