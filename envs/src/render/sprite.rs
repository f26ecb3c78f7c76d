//! Pre-rendered pieces of a picture: a shape drawn once into an RGBA patch, then copied
//! into frames. Backgrounds and sprites that never change are cached this way so a
//! frame costs a copy and a few blits, not a redraw.

use crate::core::frame::Frame;

/// An RGBA patch with its anchor: blitting at (x, y) puts the anchor there.
#[derive(Clone, Debug)]
pub struct Sprite {
    width: u32,
    height: u32,
    anchor: (i64, i64),
    rgba: Vec<u8>,
}

impl Sprite {
    /// Draws `draw(frame, ax, ay)` (which draws around the point (ax, ay)) into a
    /// `width`×`height` patch whose anchor sits at `anchor`, recovering coverage by
    /// drawing once over black and once over white.
    pub fn capture(
        width: u32,
        height: u32,
        anchor: (i64, i64),
        draw: impl Fn(&mut Frame, f64, f64),
    ) -> Self {
        let (ax, ay) = (anchor.0 as f64, anchor.1 as f64);
        let mut black = Frame::new(width, height);
        draw(&mut black, ax, ay);
        let mut white = Frame::new(width, height);
        white.fill([255, 255, 255]);
        draw(&mut white, ax, ay);
        let mut rgba = Vec::with_capacity(black.data().len() / 3 * 4);
        for (b, w) in black
            .data()
            .chunks_exact(3)
            .zip(white.data().chunks_exact(3))
        {
            // Over black a pixel is a·c; over white a·c + (1 - a)·255.
            let spread = (0..3)
                .map(|i| i32::from(w[i]) - i32::from(b[i]))
                .max()
                .unwrap_or(255);
            let alpha = (255 - spread).clamp(0, 255);
            for &channel in b {
                let c = if alpha == 0 {
                    0
                } else {
                    (i32::from(channel) * 255 + alpha / 2) / alpha
                };
                rgba.push(c.clamp(0, 255) as u8);
            }
            rgba.push(alpha as u8);
        }
        Self {
            width,
            height,
            anchor,
            rgba,
        }
    }

    /// Draws the sprite with its anchor at (x, y).
    pub fn blit(&self, frame: &mut Frame, x: i64, y: i64) {
        let (ox, oy) = (x - self.anchor.0, y - self.anchor.1);
        for row in 0..i64::from(self.height) {
            for col in 0..i64::from(self.width) {
                let i = ((row * i64::from(self.width) + col) * 4) as usize;
                let px = &self.rgba[i..i + 4];
                match px[3] {
                    0 => {}
                    255 => frame.set(ox + col, oy + row, [px[0], px[1], px[2]]),
                    a => frame.blend(
                        ox + col,
                        oy + row,
                        [px[0], px[1], px[2]],
                        f64::from(a) / 255.0,
                    ),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::raster::{fill_circle, fill_rect};

    #[test]
    fn blit_matches_direct_drawing() {
        let draw = |f: &mut Frame, x: f64, y: f64| {
            fill_rect(f, x - 4.0, y - 4.0, x + 4.0, y + 4.0, [200, 30, 30]);
            fill_circle(f, x + 2.5, y, 3.3, [20, 40, 220]);
        };
        let sprite = Sprite::capture(16, 16, (8, 8), draw);
        let mut direct = Frame::new(30, 30);
        direct.fill([90, 160, 90]);
        let mut blitted = direct.clone();
        draw(&mut direct, 12.0, 15.0);
        sprite.blit(&mut blitted, 12, 15);
        for (a, b) in direct.data().iter().zip(blitted.data()) {
            assert!(a.abs_diff(*b) <= 2, "{a} vs {b}");
        }
    }
}
