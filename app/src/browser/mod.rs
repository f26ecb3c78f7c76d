//! Browser IO for the pages (wasm32 only): storage, HTTP, timers and files (through
//! `gloo`) and the loops that drive model runs (one episode, the
//! run controller, the suite runner). Thin wrappers that turn JavaScript failures into
//! errors. Frames sent to models are encoded in Rust (`bench::encode::ImageEncoder`),
//! the same bytes as the command line.

pub mod ahead;
pub mod drive;
pub mod files;
pub mod full_app;
pub mod http;
pub mod image_sets;
pub mod keys;
pub mod mujoco;
pub mod run_controller;
pub mod storage;
pub mod suite_files;
pub mod suite_runner;
pub mod tab_lock;
pub mod time;
