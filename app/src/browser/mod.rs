//! Browser IO for the pages (wasm32 only): storage, HTTP, timers, downloads and
//! demonstration video. Frames sent to models are encoded in Rust
//! (`bench::encode::ImageEncoder`), the same bytes as the command line. Thin wrappers that turn JavaScript failures into `String` errors.

pub mod download;
pub mod drive;
pub mod http;
pub mod keys;
pub mod storage;
pub mod time;
pub mod video;
