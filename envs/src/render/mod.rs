//! Drawing helpers shared by the environments' renderers.

pub mod font;
pub mod lanczos;
pub mod png;
pub mod raster;
pub mod sprite;
