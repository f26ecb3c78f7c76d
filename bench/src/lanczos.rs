//! Pillow's Lanczos resize (`Image.resize(size, Image.LANCZOS)` on an 8-bit RGB image),
//! step for step: per output pixel a window of support 3 × the downscale factor, the
//! windowed-sinc weights normalised and rounded to 22-bit fixed point, a horizontal pass
//! over the rows the vertical pass needs, then the vertical pass (in Pillow 13 the
//! other way round when the height shrinks far more than the width), each rounding and
//! clipping to 8 bits. Checked against Pillow by `tests/golden/visgym/lanczos.json.gz`. VisGym's harness shrinks every frame this way before JPEG
//! encoding. Transcendentals go through `libm`, so native and wasm builds agree.

use envs::Frame;

/// Fixed-point precision of the weights (Pillow's `PRECISION_BITS`, 32 − 8 − 2).
const PRECISION_BITS: u32 = 22;
const SUPPORT: f64 = 3.0;

fn sinc(x: f64) -> f64 {
    if x == 0.0 {
        return 1.0;
    }
    let x = x * std::f64::consts::PI;
    libm::sin(x) / x
}

fn lanczos(x: f64) -> f64 {
    if (-SUPPORT..SUPPORT).contains(&x) {
        sinc(x) * sinc(x / 3.0)
    } else {
        0.0
    }
}

/// One axis's filter: for each output index the first input index and its fixed-point
/// weights (`weights[i * taps..][..len]`).
#[derive(Default)]
struct Axis {
    sizes: (usize, usize),
    bounds: Vec<(usize, usize)>,
    taps: usize,
    weights: Vec<i32>,
}

impl Axis {
    fn new(in_size: usize, out_size: usize) -> Self {
        let scale = in_size as f64 / out_size as f64;
        let filter_scale = scale.max(1.0);
        let support = SUPPORT * filter_scale;
        let ss = 1.0 / filter_scale;
        let taps = support.ceil() as usize * 2 + 1;
        let mut axis = Axis {
            sizes: (in_size, out_size),
            bounds: Vec::with_capacity(out_size),
            taps,
            weights: vec![0; out_size * taps],
        };
        let mut raw = Vec::with_capacity(taps);
        for xx in 0..out_size {
            let center = (xx as f64 + 0.5) * scale;
            let xmin = ((center - support + 0.5) as i64).max(0) as usize;
            let xmax = ((center + support + 0.5) as i64).min(in_size as i64) as usize;
            raw.clear();
            raw.extend((xmin..xmax).map(|x| lanczos((x as f64 - center + 0.5) * ss)));
            let total: f64 = raw.iter().sum();
            for (slot, &w) in axis.weights[xx * taps..].iter_mut().zip(&raw) {
                let k = if total != 0.0 { w / total } else { w };
                let v = k * f64::from(1u32 << PRECISION_BITS);
                *slot = (if k < 0.0 { v - 0.5 } else { v + 0.5 }) as i32;
            }
            axis.bounds.push((xmin, raw.len()));
        }
        axis
    }

    fn weights(&self, out: usize) -> (usize, &[i32]) {
        let (first, len) = self.bounds[out];
        (first, &self.weights[out * self.taps..][..len])
    }
}

/// Rounds a sum of 22-bit fixed-point products to 8 bits. Pillow sums in a C `int`,
/// which the weights (normalised to 2^22, taps of at most 255) never overflow.
fn clip8(acc: i32) -> u8 {
    (acc >> PRECISION_BITS).clamp(0, 255) as u8
}

const ROUNDING: i32 = 1 << (PRECISION_BITS - 1);

/// Pillow's horizontal pass over `rows` rows of `src` (RGB, `sw` wide) from `first_row`.
fn horizontal(src: &[u8], sw: usize, first_row: usize, rows: usize, axis: &Axis) -> Vec<u8> {
    let w = axis.sizes.1;
    let mut out = vec![0u8; rows * w * 3];
    for (row, dst) in out.chunks_exact_mut(w * 3).enumerate() {
        let line = &src[(first_row + row) * sw * 3..][..sw * 3];
        for (xx, px) in dst.chunks_exact_mut(3).enumerate() {
            let (xmin, k) = axis.weights(xx);
            let (mut r, mut g, mut b) = (ROUNDING, ROUNDING, ROUNDING);
            for (p, &wgt) in line[xmin * 3..].chunks_exact(3).zip(k) {
                r += i32::from(p[0]) * wgt;
                g += i32::from(p[1]) * wgt;
                b += i32::from(p[2]) * wgt;
            }
            px.copy_from_slice(&[clip8(r), clip8(g), clip8(b)]);
        }
    }
    out
}

/// Pillow's vertical pass over `src` (RGB, `w` wide), whose row 0 is input row
/// `first_row`.
fn vertical(src: &[u8], w: usize, first_row: usize, axis: &Axis) -> Vec<u8> {
    let h = axis.sizes.1;
    let mut out = vec![0u8; h * w * 3];
    let mut acc = vec![0i32; w * 3];
    for (yy, dst) in out.chunks_exact_mut(w * 3).enumerate() {
        let (ymin, k) = axis.weights(yy);
        acc.fill(ROUNDING);
        // Row by row, each output sample gets the same sum in the same order as
        // Pillow's per-pixel loop.
        for (j, &wgt) in k.iter().enumerate() {
            let row = &src[(ymin + j - first_row) * w * 3..][..w * 3];
            for (a, &v) in acc.iter_mut().zip(row) {
                *a += i32::from(v) * wgt;
            }
        }
        for (d, &a) in dst.iter_mut().zip(&acc) {
            *d = clip8(a);
        }
    }
    out
}

/// Shrinks frames as Pillow's `resize(size, LANCZOS)` does, keeping the filter weights
/// of the last sizes (a harness shrinks every frame of an episode to the same size).
#[derive(Default)]
pub struct Resizer {
    horizontal: Axis,
    vertical: Axis,
}

impl Resizer {
    /// Resizes `src` (RGB) to `w`×`h`.
    pub fn resize(&mut self, src: &Frame, w: u32, h: u32) -> Frame {
        let (sw, sh) = (src.width() as usize, src.height() as usize);
        let (w, h) = (w as usize, h as usize);
        let mut out = Frame::new(w as u32, h as u32);
        if sw == 0 || sh == 0 || w == 0 || h == 0 {
            return out;
        }
        if self.horizontal.sizes != (sw, w) {
            self.horizontal = Axis::new(sw, w);
        }
        if self.vertical.sizes != (sh, h) {
            self.vertical = Axis::new(sh, h);
        }
        let (need_h, need_v) = (sw != w, sh != h);
        // Pillow 13 (`ImagingResampleInner`) runs the vertical pass first when the
        // height shrinks by more than twice as many pixels as the width does; the two
        // orders round differently.
        let horizontal_first = !(sh > h && sh - h > 2 * sw.saturating_sub(w));
        let data = src.data();
        let pixels = if !need_h && !need_v {
            data.to_vec()
        } else if !need_v {
            horizontal(data, sw, 0, sh, &self.horizontal)
        } else if !need_h {
            vertical(data, sw, 0, &self.vertical)
        } else if horizontal_first {
            // Only the rows the vertical pass reads go through the horizontal pass.
            let first = self.vertical.bounds[0].0;
            let (last_min, last_len) = self.vertical.bounds[h - 1];
            let temp = horizontal(
                data,
                sw,
                first,
                last_min + last_len - first,
                &self.horizontal,
            );
            vertical(&temp, w, first, &self.vertical)
        } else {
            let temp = vertical(data, sw, 0, &self.vertical);
            horizontal(&temp, sw, 0, h, &self.horizontal)
        };
        out.data_mut().copy_from_slice(&pixels);
        out
    }
}

/// Resizes `src` (RGB) to `w`×`h` with Pillow's Lanczos filter.
pub fn resize(src: &Frame, w: u32, h: u32) -> Frame {
    Resizer::default().resize(src, w, h)
}

/// The size VisGym's harness shrinks a `w`×`h` frame to: unchanged when its longer
/// side is at most `max`, else `(int(w·s), int(h·s))` with `s = max / longer side`.
pub fn shrunk_size(w: u32, h: u32, max: u32) -> (u32, u32) {
    let longer = w.max(h);
    if longer <= max {
        return (w, h);
    }
    let s = f64::from(max) / f64::from(longer);
    ((f64::from(w) * s) as u32, (f64::from(h) * s) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flat_frame_stays_flat_and_sizes_follow_the_harness() {
        let mut f = Frame::new(420, 290);
        f.fill([12, 200, 77]);
        let (w, h) = shrunk_size(420, 290, 336);
        assert_eq!((w, h), (336, 232));
        let g = resize(&f, w, h);
        assert_eq!((g.width(), g.height()), (336, 232));
        assert!(g.data().chunks(3).all(|p| p == [12, 200, 77]));
        assert_eq!(shrunk_size(225, 225, 336), (225, 225));
        assert_eq!(shrunk_size(224, 1120, 336), (67, 336));
        // Weights sum to one in fixed point (up to rounding of each weight).
        let axis = Axis::new(420, 336);
        for out in 0..336 {
            let sum: i32 = axis.weights(out).1.iter().sum();
            assert!(
                (sum - (1 << PRECISION_BITS)).abs() <= axis.taps as i32,
                "{sum}"
            );
        }
    }
}
