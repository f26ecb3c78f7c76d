//! A caller-owned RGB frame that environments draw into.

use std::sync::atomic::{AtomicU64, Ordering};

/// Packed 8-bit RGB pixels, rows top to bottom (the layout of a gymnasium `rgb_array`).
/// Frames are equal when their pixels are; the stamp is not part of the picture.
#[derive(Clone, Debug, Default)]
pub struct Frame {
    width: u32,
    height: u32,
    data: Vec<u8>,
    /// Set by a renderer that remembers what it drew ([`Frame::restamp`]); any other
    /// change of the pixels clears it. A renderer seeing its own stamp may redraw only
    /// what changed since.
    stamp: u64,
}

impl PartialEq for Frame {
    fn eq(&self, other: &Self) -> bool {
        (self.width, self.height) == (other.width, other.height) && self.data == other.data
    }
}

impl Eq for Frame {}

/// The last stamp handed out: stamps are unique in the process, so a stamp names one
/// picture whatever frame (or copy of one) holds it.
static LAST_STAMP: AtomicU64 = AtomicU64::new(0);

pub type Rgb = [u8; 3];

impl Frame {
    pub fn new(width: u32, height: u32) -> Self {
        Self {
            width,
            height,
            data: vec![0; (width as usize) * (height as usize) * 3],
            stamp: 0,
        }
    }

    /// The stamp of the renderer that drew the current pixels; 0 when none vouches for them.
    pub fn stamp(&self) -> u64 {
        self.stamp
    }

    /// Gives the current pixels a new stamp and returns it: the caller has just drawn
    /// them and remembers what it drew under this stamp.
    pub fn restamp(&mut self) -> u64 {
        self.stamp = LAST_STAMP.fetch_add(1, Ordering::Relaxed) + 1;
        self.stamp
    }

    /// Resizes in place, keeping the allocation when it is large enough.
    pub fn resize(&mut self, width: u32, height: u32) {
        if (width, height) != (self.width, self.height) {
            self.stamp = 0;
        }
        self.width = width;
        self.height = height;
        self.data
            .resize((width as usize) * (height as usize) * 3, 0);
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    pub fn data(&self) -> &[u8] {
        &self.data
    }

    pub fn data_mut(&mut self) -> &mut [u8] {
        self.stamp = 0;
        &mut self.data
    }

    pub fn fill(&mut self, color: Rgb) {
        let (w, h) = (i64::from(self.width), i64::from(self.height));
        self.fill_rect(0, 0, w, h, color);
    }

    /// The byte ranges, row by row, of the rectangle with top-left (x, y) and size w×h
    /// clipped to the frame (empty when nothing is left). Clears the stamp: the caller
    /// is about to change them.
    fn rect_spans(
        &mut self,
        x: i64,
        y: i64,
        w: i64,
        h: i64,
    ) -> impl Iterator<Item = std::ops::Range<usize>> + use<> {
        let (fw, fh) = (i64::from(self.width), i64::from(self.height));
        let (x0, y0) = (x.max(0), y.max(0));
        let (x1, y1) = ((x + w).min(fw), (y + h).min(fh));
        let rows = if x0 < x1 && y0 < y1 {
            self.stamp = 0;
            y0 as usize..y1 as usize
        } else {
            0..0
        };
        let stride = self.width as usize * 3;
        let (left, right) = (x0.max(0) as usize * 3, x1.max(0) as usize * 3);
        rows.map(move |row| row * stride + left..row * stride + right)
    }

    /// Fills the rectangle with top-left (x, y) and size w×h, clipped to the frame. Whole
    /// rows at a time: a grey is a `memset`; another colour is written pixel by pixel
    /// into the first row only, which the other rows copy.
    pub fn fill_rect(&mut self, x: i64, y: i64, w: i64, h: i64, color: Rgb) {
        let mut spans = self.rect_spans(x, y, w, h);
        let Some(first) = spans.next() else {
            return;
        };
        if color[0] == color[1] && color[1] == color[2] {
            self.data[first].fill(color[0]);
            for span in spans {
                self.data[span].fill(color[0]);
            }
            return;
        }
        for px in self.data[first.clone()].chunks_exact_mut(3) {
            px.copy_from_slice(&color);
        }
        for span in spans {
            self.data.copy_within(first.clone(), span.start);
        }
    }

    /// Applies `f` to every channel byte of the rectangle (clipped to the frame).
    pub fn map_rect_bytes(&mut self, x: i64, y: i64, w: i64, h: i64, f: impl Fn(u8) -> u8) {
        for span in self.rect_spans(x, y, w, h) {
            for b in &mut self.data[span] {
                *b = f(*b);
            }
        }
    }

    /// Applies `f` to every pixel of the rectangle (clipped to the frame), row by row.
    pub fn map_rect(&mut self, x: i64, y: i64, w: i64, h: i64, mut f: impl FnMut(Rgb) -> Rgb) {
        for span in self.rect_spans(x, y, w, h) {
            for px in self.data[span].chunks_exact_mut(3) {
                let new = f([px[0], px[1], px[2]]);
                px.copy_from_slice(&new);
            }
        }
    }

    /// Copies `other` (same size or not) into this frame, taking its size.
    pub fn copy_from(&mut self, other: &Frame) {
        self.width = other.width;
        self.height = other.height;
        self.data.clear();
        self.data.extend_from_slice(&other.data);
        self.stamp = other.stamp;
    }

    fn offset(&self, x: i64, y: i64) -> Option<usize> {
        if x < 0 || y < 0 || x >= i64::from(self.width) || y >= i64::from(self.height) {
            return None;
        }
        Some(((y as usize) * (self.width as usize) + x as usize) * 3)
    }

    pub fn get(&self, x: i64, y: i64) -> Option<Rgb> {
        let o = self.offset(x, y)?;
        Some([self.data[o], self.data[o + 1], self.data[o + 2]])
    }

    /// Sets one pixel; coordinates outside the frame are ignored (shapes clip for free).
    pub fn set(&mut self, x: i64, y: i64, color: Rgb) {
        if let Some(o) = self.offset(x, y) {
            self.stamp = 0;
            self.data[o..o + 3].copy_from_slice(&color);
        }
    }

    /// Blends `color` over the pixel with coverage `alpha` in 0..=1.
    pub fn blend(&mut self, x: i64, y: i64, color: Rgb, alpha: f64) {
        if alpha <= 0.0 {
            return;
        }
        if let Some(o) = self.offset(x, y) {
            self.stamp = 0;
            for (dst, &src) in self.data[o..o + 3].iter_mut().zip(&color) {
                let old = f64::from(*dst);
                let new = old + (f64::from(src) - old) * alpha.min(1.0);
                *dst = (new + 0.5) as u8;
            }
        }
    }

    /// RGBA bytes (alpha 255), the layout of a browser `ImageData`.
    pub fn to_rgba(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.data.len() / 3 * 4);
        for px in self.data.chunks_exact(3) {
            out.extend_from_slice(px);
            out.push(255);
        }
        out
    }

    /// FNV-1a over width, height and pixels: a cheap, portable identity for a frame.
    pub fn hash(&self) -> u64 {
        let step = |h: u64, byte: &u8| (h ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3);
        let header = [self.width.to_le_bytes(), self.height.to_le_bytes()];
        // Two plain loops: a chained iterator tests which half it is in at every byte.
        let h = header.iter().flatten().fold(0xcbf2_9ce4_8422_2325, step);
        self.data.iter().fold(h, step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_other_change_clears_the_stamp_and_equality_ignores_it() {
        let mut f = Frame::new(4, 2);
        assert_eq!(f.stamp(), 0);
        let s = f.restamp();
        assert!(s != 0 && f.restamp() != s, "every stamp is new");
        let stamped = f.clone();
        assert_eq!(stamped.stamp(), f.stamp(), "a copy holds the same picture");
        let mut copy = Frame::default();
        copy.copy_from(&f);
        assert_eq!(copy.stamp(), f.stamp());
        assert_eq!(copy, Frame::new(4, 2), "equal pixels, equal frames");
        let changes: [fn(&mut Frame); 6] = [
            |f| f.data_mut()[0] = 1,
            |f| f.fill([1, 2, 3]),
            |f| f.set(0, 0, [9, 9, 9]),
            |f| f.blend(1, 1, [9, 9, 9], 0.5),
            |f| f.resize(5, 2),
            |f| f.copy_from(&Frame::new(1, 1)),
        ];
        for (i, change) in changes.iter().enumerate() {
            let mut g = stamped.clone();
            change(&mut g);
            assert_eq!(g.stamp(), 0, "change {i}");
        }
        let mut same = stamped.clone();
        same.resize(4, 2);
        assert_eq!(
            same.stamp(),
            stamped.stamp(),
            "a resize to the same size keeps it"
        );
    }
}
