//! Browser IO for the pages (wasm32 only): storage, HTTP, timers, downloads and frame
//! encoding. Thin wrappers that turn JavaScript failures into `String` errors.

pub mod download;
pub mod drive;
pub mod encode;
pub mod http;
pub mod keys;
pub mod storage;
pub mod time;
pub mod video;
