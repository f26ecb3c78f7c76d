//! Exact integer drawing for GameVerse's frames: the reference paints flat rectangles and
//! blends translucent overlays with pygame, and these reproduce those pixels; text uses
//! our own 5×7 font ([`crate::render::font`]).

use crate::core::frame::Rgb;
use crate::render::font;
use crate::Frame;

/// Fills the rectangle with top-left (x, y) and size w×h, clipped to the frame.
pub fn fill_rect(frame: &mut Frame, x: i64, y: i64, w: i64, h: i64, color: Rgb) {
    frame.fill_rect(x, y, w, h, color);
}

/// The outline of a rectangle, `width` pixels inwards (pygame's `draw.rect` with a width).
pub fn stroke_rect(frame: &mut Frame, x: i64, y: i64, w: i64, h: i64, width: i64, color: Rgb) {
    fill_rect(frame, x, y, w, width, color);
    fill_rect(frame, x, y + h - width, w, width, color);
    fill_rect(frame, x, y, width, h, color);
    fill_rect(frame, x + w - width, y, width, h, color);
}

/// pygame's blend of a colour with alpha `a` (0-255) over a pixel without alpha:
/// `d + (((s - d) * a + s) >> 8)` per channel.
pub fn blend_channel(src: u8, dst: u8, a: u8) -> u8 {
    let (s, d, a) = (i32::from(src), i32::from(dst), i32::from(a));
    (d + (((s - d) * a + s) >> 8)).clamp(0, 255) as u8
}

/// Blends `color` at alpha `a` over a rectangle, as blitting a translucent surface does.
/// (The blend of a channel depends on its old value alone: three tables of 256.)
pub fn blend_rect(frame: &mut Frame, x: i64, y: i64, w: i64, h: i64, color: Rgb, a: u8) {
    if color[0] == color[1] && color[1] == color[2] {
        // The same arithmetic on every byte, which the compiler vectorises.
        frame.map_rect_bytes(x, y, w, h, |d| blend_channel(color[0], d, a));
        return;
    }
    let table = |c: u8| -> [u8; 256] { std::array::from_fn(|d| blend_channel(c, d as u8, a)) };
    let (r, g, b) = (table(color[0]), table(color[1]), table(color[2]));
    frame.map_rect(x, y, w, h, |old| {
        [
            r[usize::from(old[0])],
            g[usize::from(old[1])],
            b[usize::from(old[2])],
        ]
    });
}

/// Width of `text` in our font at `scale`, drawn bold (one extra pixel column).
pub fn bold_text_width(text: &str, scale: u32) -> i64 {
    i64::from(font::text_width(text, scale)) + 1
}

/// Draws `text` with its top-left at (x, y), thickened by a second pass one pixel right
/// (the reference's fonts are bold).
pub fn draw_bold_text(frame: &mut Frame, x: i64, y: i64, text: &str, scale: u32, color: Rgb) {
    font::draw_text(frame, x, y, text, scale, color);
    font::draw_text(frame, x + 1, y, text, scale, color);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blend_matches_pygame_arithmetic() {
        // (238,228,218) at alpha 200 over the 2048 background (187,173,160).
        assert_eq!(
            i32::from(blend_channel(238, 187, 200)),
            187 + ((51 * 200 + 238) >> 8)
        );
        assert_eq!(
            i32::from(blend_channel(0, 146, 180)),
            146 + ((-146 * 180) >> 8)
        );
    }
}
