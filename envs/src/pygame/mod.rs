//! The parts of pygame (2.6, SDL 2) that the third-party games' frames and geometry depend
//! on, reproduced exactly: integer rectangles and line clipping, surface rotation and
//! flipping, colour-keyed blits, `Vector2.rotate`, and PNG decoding for user-supplied
//! sprites.

mod png;
mod rect;
mod sprite_image;
mod vector;

pub use png::{decode_png, DecodedPng};
pub use rect::IntRect;
pub use sprite_image::SpriteImage;
pub use vector::rotate_vector;
