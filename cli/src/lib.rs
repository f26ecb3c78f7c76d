//! IO around the `envs` crate for native tools: the JSON-lines driver, PNG files and the
//! benchmark. Kept out of `envs` so the library's wasm build carries none of it.

pub mod commands;
pub mod driver;
pub mod endpoint;
pub mod png_out;
pub mod verify;
