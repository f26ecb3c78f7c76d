//! Sprites as the reference's pygame surfaces behave: RGBA images whose transparent
//! pixels are the colour key (skipped by a blit), pygame's `transform.rotate` (exact
//! quarter turns, otherwise a 16.16 fixed-point nearest-neighbour walk) and vertical flip.

use std::sync::OnceLock;

use crate::core::frame::Frame;
use crate::rng::glibc_trig;

/// An RGBA8 image; alpha 0 marks colour-keyed (transparent) pixels.
#[derive(Clone, Debug)]
pub struct SpriteImage {
    width: usize,
    height: usize,
    rgba: Vec<u8>,
    /// The pixels as RGB when every one is opaque (backgrounds, pipes, the ground), made
    /// on the first blit: such a blit copies whole rows.
    opaque_rgb: OnceLock<Option<Vec<u8>>>,
}

impl PartialEq for SpriteImage {
    fn eq(&self, other: &Self) -> bool {
        (self.width, self.height, &self.rgba) == (other.width, other.height, &other.rgba)
    }
}

impl Eq for SpriteImage {}

/// pygame's degrees-to-radians constant in `transform.rotate`.
const DEG_TO_RAD: f64 = 0.017_453_292_519_943_29;

impl SpriteImage {
    pub fn new(width: usize, height: usize, rgba: Vec<u8>) -> Option<Self> {
        (rgba.len() == width * height * 4).then(|| Self::from_parts(width, height, rgba))
    }

    fn from_parts(width: usize, height: usize, rgba: Vec<u8>) -> Self {
        Self {
            width,
            height,
            rgba,
            opaque_rgb: OnceLock::new(),
        }
    }

    /// A fully transparent image.
    pub fn transparent(width: usize, height: usize) -> Self {
        Self::from_parts(width, height, vec![0; width * height * 4])
    }

    /// The RGB pixels when every pixel is opaque.
    fn opaque_rgb(&self) -> Option<&[u8]> {
        self.opaque_rgb
            .get_or_init(|| {
                let opaque = self.rgba.chunks_exact(4).all(|px| px[3] == 255);
                opaque.then(|| {
                    self.rgba
                        .chunks_exact(4)
                        .flat_map(|px| [px[0], px[1], px[2]])
                        .collect()
                })
            })
            .as_deref()
    }

    /// Whether blitting at (0, 0) sets every pixel of a `w`×`h` frame (what was drawn
    /// before it cannot show).
    pub fn covers(&self, w: usize, h: usize) -> bool {
        self.width >= w && self.height >= h && self.opaque_rgb().is_some()
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
            self.opaque_rgb = OnceLock::new();
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
        Self::from_parts(self.width, self.height, rgba)
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
        let opaque = self.opaque_rgb();
        let data = frame.data_mut();
        for row in row0 as usize..row1 as usize {
            let at = (((y + row as i64) * fw + x + col0 as i64) * 3) as usize;
            if let Some(rgb) = opaque {
                let src = &rgb[(row * self.width + col0) * 3..(row * self.width + col1) * 3];
                data[at..at + src.len()].copy_from_slice(src);
                continue;
            }
            let src = &self.rgba[(row * self.width + col0) * 4..(row * self.width + col1) * 4];
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
        let alphas: [&[u8]; 2] = [&[0, 255, 128, 7], &[255]];
        for alphas in alphas {
            let mut rgba = Vec::new();
            for i in 0..20u8 {
                rgba.extend_from_slice(&[
                    i * 10,
                    255 - i,
                    i,
                    alphas[usize::from(i) % alphas.len()],
                ]);
            }
            let img = SpriteImage::new(5, 4, rgba).unwrap();
            assert_eq!(img.opaque_rgb().is_some(), alphas == [255]);
            blits_as_pixel_by_pixel(&img);
        }
        // A pixel set later is seen by the next blit.
        let mut img = numbered(5, 4);
        let mut frame = Frame::new(7, 5);
        img.blit(&mut frame, 0, 0);
        img.set_pixel(1, 1, [1, 2, 3, 0]);
        assert!(img.opaque_rgb().is_none());
        blits_as_pixel_by_pixel(&img);
        img.set_pixel(1, 1, [1, 2, 3, 255]);
        assert!(img.opaque_rgb().is_some());
        blits_as_pixel_by_pixel(&img);
    }

    #[test]
    fn covers_only_frames_it_fills_opaquely() {
        let mut img = numbered(5, 4);
        assert!(img.covers(5, 4) && img.covers(3, 2));
        assert!(!img.covers(6, 4) && !img.covers(5, 5));
        img.set_pixel(4, 3, [0, 0, 0, 254]);
        assert!(!img.covers(5, 4));
    }

    fn blits_as_pixel_by_pixel(img: &SpriteImage) {
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
