//! Frames (RGB) to the 4:2:0 YUV pictures VP8 codes (`docs/video.md`): BT.601
//! limited range, as decoders assume for VP8, in integers. Planes cover whole 16×16
//! macroblocks; pixels past the frame's edge repeat the last row and column, so an odd
//! size costs nothing and the stream states the frame's own size.

use envs::Frame;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plane {
    pub width: usize,
    pub height: usize,
    pub data: Vec<u8>,
}

impl Plane {
    fn new(width: usize, height: usize) -> Self {
        Self {
            width,
            height,
            data: vec![0; width * height],
        }
    }

    pub fn at(&self, x: usize, y: usize) -> u8 {
        self.data[y * self.width + x]
    }

    pub fn set(&mut self, x: usize, y: usize, v: u8) {
        self.data[y * self.width + x] = v;
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Yuv420 {
    pub y: Plane,
    pub u: Plane,
    pub v: Plane,
}

/// `n` rounded up to whole macroblocks.
fn padded(n: u32) -> usize {
    (n as usize).div_ceil(16) * 16
}

fn luma(r: i32, g: i32, b: i32) -> u8 {
    (((66 * r + 129 * g + 25 * b + 128) >> 8) + 16) as u8
}

fn chroma_u(r: i32, g: i32, b: i32) -> u8 {
    (((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128) as u8
}

fn chroma_v(r: i32, g: i32, b: i32) -> u8 {
    (((112 * r - 94 * g - 18 * b + 128) >> 8) + 128) as u8
}

impl Yuv420 {
    /// A picture of `width`×`height` luma pixels (multiples of 16), all zero.
    pub fn blank(width: usize, height: usize) -> Self {
        Self {
            y: Plane::new(width, height),
            u: Plane::new(width / 2, height / 2),
            v: Plane::new(width / 2, height / 2),
        }
    }

    /// `frame` converted, padded to whole macroblocks; chroma is each 2×2 square's
    /// mean colour.
    pub fn from_frame(frame: &Frame) -> Self {
        let (w, h) = (frame.width() as usize, frame.height() as usize);
        let mut pic = Self::blank(padded(frame.width()), padded(frame.height()));
        let data = frame.data();
        let rgb = |x: usize, y: usize| {
            let i = (y.min(h - 1) * w + x.min(w - 1)) * 3;
            [data[i], data[i + 1], data[i + 2]].map(i32::from)
        };
        for y in 0..pic.y.height {
            for x in 0..pic.y.width {
                let [r, g, b] = rgb(x, y);
                pic.y.set(x, y, luma(r, g, b));
            }
        }
        for y in 0..pic.u.height {
            for x in 0..pic.u.width {
                let mut sum = [0i32; 3];
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let p = rgb(2 * x + dx, 2 * y + dy);
                    for k in 0..3 {
                        sum[k] += p[k];
                    }
                }
                let [r, g, b] = sum.map(|s| (s + 2) >> 2);
                pic.u.set(x, y, chroma_u(r, g, b));
                pic.v.set(x, y, chroma_v(r, g, b));
            }
        }
        pic
    }
}
