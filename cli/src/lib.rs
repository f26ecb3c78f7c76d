//! The native adapters over `envs` and `bench`: the JSON-lines driver (`envs-driver`)
//! and the benchmark's command line (`playbench`). Kept out of the libraries so their
//! wasm builds carry none of it. Reference: `docs/cli.md`, `docs/driver.md`.

pub mod args;
pub mod audit;
pub mod commands;
pub mod driver;
pub mod endpoint;
pub mod error;
pub mod image_folder;
pub mod judge;
pub mod mujoco_node;
pub mod png_out;
pub mod reflect;
pub mod rom_folder;
pub mod runs;
pub mod verify;
