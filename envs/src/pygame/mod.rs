//! The parts of pygame (2.6, SDL 2) that the third-party games' frames and geometry depend
//! on, reproduced exactly: integer rectangles and line clipping, surface rotation and
//! flipping, colour-keyed blits and `Vector2.rotate`; user-supplied sprites are decoded by
//! `render::png`.

mod rect;
mod sprite_image;
mod vector;

pub use crate::render::png::{decode_png, DecodedPng};
pub use rect::IntRect;
pub use sprite_image::SpriteImage;
pub use vector::rotate_vector;
