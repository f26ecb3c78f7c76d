//! Sprites as the reference's pygame surfaces behave: RGBA images whose transparent
//! pixels are the colour key (skipped by a blit), pygame's `transform.rotate` (exact
//! quarter turns, otherwise a 16.16 fixed-point nearest-neighbour walk) and vertical flip.

use crate::core::frame::Frame;
use crate::rng::glibc_trig;

/// An RGBA8 image; alpha 0 marks colour-keyed (transparent) pixels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpriteImage {
    width: usize,
    height: usize,
    rgba: Vec<u8>,
}

/// pygame's degrees-to-radians constant in `transform.rotate`.
const DEG_TO_RAD: f64 = 0.017_453_292_519_943_29;

impl SpriteImage {
    pub fn new(width: usize, height: usize, rgba: Vec<u8>) -> Option<Self> {
        (rgba.len() == width * height * 4).then_some(Self {
            width,
            height,
            rgba,
        })
    }

    /// A fully transparent image.
    pub fn transparent(width: usize, height: usize) -> Self {
        Self {
            width,
            height,
            rgba: vec![0; width * height * 4],
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn pixel(&self, x: usize, y: usize) -> [u8; 4] {
        let i = (y * self.width + x) * 4;
        [
            self.rgba[i],
            self.rgba[i + 1],
            self.rgba[i + 2],
            self.rgba[i + 3],
        ]
    }

    pub fn set_pixel(&mut self, x: usize, y: usize, px: [u8; 4]) {
        if x < self.width && y < self.height {
            let i = (y * self.width + x) * 4;
            self.rgba[i..i + 4].copy_from_slice(&px);
        }
    }

    /// Upside down (pygame `transform.flip(img, False, True)`).
    pub fn flipped_vertically(&self) -> Self {
        let row = self.width * 4;
        let rgba = self
            .rgba
            .chunks_exact(row)
            .rev()
            .flatten()
            .copied()
            .collect();
        Self { rgba, ..*self }
    }

    /// Turned `degrees` counter-clockwise as pygame's `transform.rotate` does it (which
    /// receives the angle as a C float).
    pub fn rotated(&self, degrees: f32) -> Self {
        let degrees = f64::from(degrees);
        if degrees % 90.0 == 0.0 {
            let turns = ((degrees / 90.0) as i64).rem_euclid(4);
            let mut out = self.clone();
            for _ in 0..turns {
                out = out.quarter_turn_counter_clockwise();
            }
            return out;
        }
        let radians = degrees * DEG_TO_RAD;
        let (s, c) = (glibc_trig::sin(radians), glibc_trig::cos(radians));
        let (w, h) = (self.width as f64, self.height as f64);
        let (cx, cy, sx, sy) = (c * w, c * h, s * w, s * h);
        let new_w = (cx + sy)
            .abs()
            .max((cx - sy).abs())
            .max((-cx + sy).abs())
            .max((-cx - sy).abs()) as i32;
        let new_h = (sx + cy)
            .abs()
            .max((sx - cy).abs())
            .max((-sx + cy).abs())
            .max((-sx - cy).abs()) as i32;
        let (src_w, src_h) = (self.width as i32, self.height as i32);
        let mut out = Self::transparent(new_w.max(0) as usize, new_h.max(0) as usize);
        let half_h = new_h / 2;
        let xd = (src_w - new_w) << 15;
        let yd = (src_h - new_h) << 15;
        let isin = (s * 65536.0) as i32;
        let icos = (c * 65536.0) as i32;
        let ax = (new_w << 15) - (c * f64::from((new_w - 1) << 15)) as i32;
        let ay = (new_h << 15) - (s * f64::from((new_w - 1) << 15)) as i32;
        let x_max = (src_w << 16) - 1;
        let y_max = (src_h << 16) - 1;
        for y in 0..new_h {
            let mut dx = ax + isin * (half_h - y) + xd;
            let mut dy = ay - icos * (half_h - y) + yd;
            for x in 0..new_w {
                if dx >= 0 && dy >= 0 && dx <= x_max && dy <= y_max {
                    let px = self.pixel((dx >> 16) as usize, (dy >> 16) as usize);
                    out.set_pixel(x as usize, y as usize, px);
                }
                dx += icos;
                dy += isin;
            }
        }
        out
    }

    fn quarter_turn_counter_clockwise(&self) -> Self {
        let mut out = Self::transparent(self.height, self.width);
        for y in 0..self.height {
            for x in 0..self.width {
                // The right column becomes the top row.
                out.set_pixel(y, self.width - 1 - x, self.pixel(x, y));
            }
        }
        out
    }

    /// Copies the image with its top-left at (x, y): transparent pixels are skipped,
    /// opaque ones copied, partly transparent ones blended ([`Frame::blend`]'s rounding).
    /// Clipped once per row, then slices: the frames of FlappyBird are mostly blits.
    pub fn blit(&self, frame: &mut Frame, x: i64, y: i64) {
        let (fw, fh) = (i64::from(frame.width()), i64::from(frame.height()));
        let (col0, col1) = ((-x).max(0), (fw - x).min(self.width as i64));
        let (row0, row1) = ((-y).max(0), (fh - y).min(self.height as i64));
        if col0 >= col1 || row0 >= row1 {
            return;
        }
        let (col0, col1) = (col0 as usize, col1 as usize);
        let data = frame.data_mut();
        for row in row0 as usize..row1 as usize {
            let src = &self.rgba[(row * self.width + col0) * 4..(row * self.width + col1) * 4];
            let at = (((y + row as i64) * fw + x + col0 as i64) * 3) as usize;
            let dst = &mut data[at..at + (col1 - col0) * 3];
            for (d, px) in dst.chunks_exact_mut(3).zip(src.chunks_exact(4)) {
                match px[3] {
                    0 => {}
                    255 => d.copy_from_slice(&px[..3]),
                    a => {
                        let alpha = f64::from(a) / 255.0;
                        for (dst, &src) in d.iter_mut().zip(&px[..3]) {
                            let old = f64::from(*dst);
                            *dst = (old + (f64::from(src) - old) * alpha + 0.5) as u8;
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(w: usize, h: usize) -> SpriteImage {
        let rgba = (0..w * h).flat_map(|i| [i as u8, 0, 0, 255]).collect();
        SpriteImage::new(w, h, rgba).unwrap()
    }

    #[test]
    fn quarter_turns() {
        let img = numbered(3, 2);
        let ccw = img.rotated(90.0);
        assert_eq!((ccw.width(), ccw.height()), (2, 3));
        // Top-right pixel (2) ends at the top-left.
        assert_eq!(ccw.pixel(0, 0)[0], 2);
        let cw = img.rotated(-90.0);
        // Bottom-left pixel (3) ends at the top-left.
        assert_eq!(cw.pixel(0, 0)[0], 3);
        assert_eq!(img.rotated(0.0), img);
        assert_eq!(img.rotated(360.0), img);
    }

    #[test]
    fn rotated_bird_size_follows_pygame() {
        // pygame: rotate(34×24 surface, 20) is 40×34; rotate(…, -45) is 41×41.
        let img = numbered(34, 24);
        let r = img.rotated(20.0);
        assert_eq!((r.width(), r.height()), (40, 34));
        let r = img.rotated(-45.0);
        assert_eq!((r.width(), r.height()), (41, 41));
    }

    #[test]
    fn blits_clip_skip_copy_and_blend_as_pixel_by_pixel_does() {
        let mut rgba = Vec::new();
        for i in 0..20u8 {
            rgba.extend_from_slice(&[i * 10, 255 - i, i, [0, 255, 128, 7][usize::from(i % 4)]]);
        }
        let img = SpriteImage::new(5, 4, rgba).unwrap();
        for (x, y) in [(0, 0), (-2, -1), (4, 3), (6, 5), (-5, 0), (2, -4), (7, 0)] {
            let mut fast = Frame::new(7, 5);
            fast.fill([9, 99, 199]);
            let mut slow = fast.clone();
            img.blit(&mut fast, x, y);
            for row in 0..4 {
                for col in 0..5 {
                    let [r, g, b, a] = img.pixel(col, row);
                    let (fx, fy) = (x + col as i64, y + row as i64);
                    match a {
                        0 => {}
                        255 => slow.set(fx, fy, [r, g, b]),
                        a => slow.blend(fx, fy, [r, g, b], f64::from(a) / 255.0),
                    }
                }
            }
            assert_eq!(fast, slow, "at ({x}, {y})");
        }
    }

    #[test]
    fn flip_reverses_rows() {
        let img = numbered(2, 3);
        assert_eq!(img.flipped_vertically().pixel(1, 0)[0], 5);
    }
}
