//! The agent protocols' pure parts (`docs/vical-protocol.md`): the V-ICAL conversation
//! text, the reply parser, the provider request/response shapes, retry timing and the
//! session state machine; and VisGym's and GameVerse's harnesses (`visgym`,
//! `gameverse`), protocols a run chooses instead. The browser and the command line only
//! add the HTTP layer.

pub mod body_text;
pub mod endpoint;
pub mod gameverse;
pub mod parse;
pub mod prompt;
pub mod providers;
pub mod retry;
pub mod session;
pub mod transport;
pub mod visgym;
