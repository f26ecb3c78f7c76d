//! Pillow's Lanczos resize (`Image.resize(size, Image.LANCZOS)` on an 8-bit RGB image),
//! step for step: per output pixel a window of support 3 × the downscale factor, the
//! windowed-sinc weights normalised and rounded to 22-bit fixed point, a horizontal pass
//! over the rows the vertical pass needs, then the vertical pass (in Pillow 13 the
//! other way round when the height shrinks far more than the width), each rounding and
//! clipping to 8 bits. Checked against Pillow by `tests/golden/visgym/lanczos.json.gz`.
//! VisGym's harness shrinks every frame this way before JPEG encoding (`bench::encode`),
//! and Zoom-In draws its tiles with it. Transcendentals go through `libm`, so native and
//! wasm builds agree.

use crate::core::frame::Frame;

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

/// Rows filtered together by the horizontal pass; a block's samples sit side by side
/// (`[channel][row]` per input pixel), so each tap is one multiply-add over `3 × ROWS`
/// lanes, which the compiler turns into vector instructions (`i32x4` in wasm).
const ROWS: usize = 16;
/// Output bytes the vertical pass sums at once, in registers.
const STRIP: usize = 32;

/// Pillow's horizontal pass over `rows` rows of `src` (RGB, `sw` wide) from `first_row`.
/// The sums are integers, so summing rows in blocks gives Pillow's values exactly.
fn horizontal(src: &[u8], sw: usize, first_row: usize, rows: usize, axis: &Axis) -> Vec<u8> {
    let w = axis.sizes.1;
    let mut out = vec![0u8; rows * w * 3];
    let mut block = vec![[0u8; 3 * ROWS]; sw];
    for r0 in (0..rows).step_by(ROWS) {
        let n = ROWS.min(rows - r0);
        for r in 0..n {
            let line = &src[(first_row + r0 + r) * sw * 3..][..sw * 3];
            for (lanes, p) in block.iter_mut().zip(line.chunks_exact(3)) {
                lanes[r] = p[0];
                lanes[ROWS + r] = p[1];
                lanes[2 * ROWS + r] = p[2];
            }
        }
        for xx in 0..w {
            let (xmin, k) = axis.weights(xx);
            let mut acc = [ROUNDING; 3 * ROWS];
            for (lanes, &wgt) in block[xmin..].iter().zip(k) {
                for (a, &v) in acc.iter_mut().zip(lanes) {
                    *a += i32::from(v) * wgt;
                }
            }
            // Rows past `n` in the last block hold stale samples and are not written.
            for r in 0..n {
                let o = ((r0 + r) * w + xx) * 3;
                out[o] = clip8(acc[r]);
                out[o + 1] = clip8(acc[ROWS + r]);
                out[o + 2] = clip8(acc[2 * ROWS + r]);
            }
        }
    }
    out
}

/// Pillow's vertical pass over `src` (RGB, `w` wide), whose row 0 is input row
/// `first_row`: each output row summed `STRIP` bytes at a time over all its taps.
fn vertical(src: &[u8], w: usize, first_row: usize, axis: &Axis) -> Vec<u8> {
    let h = axis.sizes.1;
    let len = w * 3;
    let mut out = vec![0u8; h * len];
    for (yy, dst) in out.chunks_exact_mut(len).enumerate() {
        let (ymin, k) = axis.weights(yy);
        let rows = &src[(ymin - first_row) * len..][..k.len() * len];
        let mut x = 0;
        while x < len {
            let width = STRIP.min(len - x);
            let mut acc = [ROUNDING; STRIP];
            for (row, &wgt) in rows.chunks_exact(len).zip(k) {
                for (a, &v) in acc.iter_mut().zip(&row[x..x + width]) {
                    *a += i32::from(v) * wgt;
                }
            }
            for (d, &a) in dst[x..x + width].iter_mut().zip(&acc) {
                *d = clip8(a);
            }
            x += width;
        }
    }
    out
}

/// Pillow 13 (`ImagingResampleInner`) runs the vertical pass first when the height
/// shrinks by more than twice as many pixels as the width does; the two orders round
/// differently.
fn vertical_first(sw: usize, sh: usize, w: usize, h: usize) -> bool {
    sh > h && sh - h > 2 * sw.saturating_sub(w)
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
        let horizontal_first = !vertical_first(sw, sh, w, h);
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

    /// Pillow's loops as written, pixel by pixel: what the blocked passes must equal.
    fn plain(src: &Frame, w: usize, h: usize) -> Vec<u8> {
        let (sw, sh) = (src.width() as usize, src.height() as usize);
        let (ax, ay) = (Axis::new(sw, w), Axis::new(sh, h));
        let pass = |data: &[u8], (iw, ih): (usize, usize), horizontal: bool| {
            let (ow, oh) = if horizontal { (w, ih) } else { (iw, h) };
            let mut out = vec![0u8; ow * oh * 3];
            for y in 0..oh {
                for x in 0..ow {
                    let (first, k) = if horizontal {
                        ax.weights(x)
                    } else {
                        ay.weights(y)
                    };
                    for c in 0..3 {
                        let mut acc = ROUNDING;
                        for (j, &wgt) in k.iter().enumerate() {
                            let (px, py) = if horizontal {
                                (first + j, y)
                            } else {
                                (x, first + j)
                            };
                            acc += i32::from(data[(py * iw + px) * 3 + c]) * wgt;
                        }
                        out[(y * ow + x) * 3 + c] = clip8(acc);
                    }
                }
            }
            out
        };
        let data = src.data();
        if !vertical_first(sw, sh, w, h) {
            let temp = pass(data, (sw, sh), true);
            pass(&temp, (w, sh), false)
        } else {
            let temp = pass(data, (sw, sh), false);
            pass(&temp, (sw, h), true)
        }
    }

    #[test]
    fn blocked_passes_sum_what_pillows_loops_sum() {
        // Sizes off the blocks of rows and strips, both pass orders, a wide and a tall frame.
        let cases = [
            (420, 290, 336, 232),
            (550, 350, 336, 213),
            (37, 53, 19, 29),
            (300, 17, 211, 9),
            (40, 400, 33, 77),
            (512, 256, 336, 168),
        ];
        let mut state = 0x9e37_79b9_u32;
        for (sw, sh, w, h) in cases {
            let mut src = Frame::new(sw, sh);
            for b in src.data_mut() {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                // Mostly noise, with runs at 0 and 255 so that clipping is exercised.
                *b = match state % 8 {
                    0 => 0,
                    1 => 255,
                    _ => (state >> 8) as u8,
                };
            }
            let got = resize(&src, w, h);
            assert_eq!(
                got.data(),
                &plain(&src, w as usize, h as usize)[..],
                "{sw}×{sh} → {w}×{h}"
            );
        }
    }

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
