//! Pillow's Lanczos resize (`Image.resize(size, Image.LANCZOS)` on an 8-bit RGB image),
//! step for step: per output pixel a window of support 3 × the downscale factor, the
//! windowed-sinc weights normalised and rounded to 22-bit fixed point, a horizontal pass
//! over the rows the vertical pass needs, then the vertical pass, each rounding and
//! clipping to 8 bits. VisGym's harness shrinks every frame this way before JPEG
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

/// For each output index: the first input index and the fixed-point weights.
fn coefficients(in_size: usize, out_size: usize) -> Vec<(usize, Vec<i32>)> {
    let scale = in_size as f64 / out_size as f64;
    let filter_scale = scale.max(1.0);
    let support = SUPPORT * filter_scale;
    let ss = 1.0 / filter_scale;
    (0..out_size)
        .map(|xx| {
            let center = (xx as f64 + 0.5) * scale;
            let xmin = ((center - support + 0.5) as i64).max(0) as usize;
            let xmax = ((center + support + 0.5) as i64).min(in_size as i64) as usize;
            let weights: Vec<f64> = (xmin..xmax)
                .map(|x| lanczos((x as f64 - center + 0.5) * ss))
                .collect();
            let total: f64 = weights.iter().sum();
            let fixed = weights
                .iter()
                .map(|&w| {
                    let k = if total != 0.0 { w / total } else { w };
                    let v = k * f64::from(1u32 << PRECISION_BITS);
                    (if k < 0.0 { v - 0.5 } else { v + 0.5 }) as i32
                })
                .collect();
            (xmin, fixed)
        })
        .collect()
}

fn clip8(acc: i64) -> u8 {
    (acc >> PRECISION_BITS).clamp(0, 255) as u8
}

/// Resizes `src` (RGB) to `w`×`h` with Pillow's Lanczos filter.
pub fn resize(src: &Frame, w: u32, h: u32) -> Frame {
    let (sw, sh) = (src.width() as usize, src.height() as usize);
    let (w, h) = (w as usize, h as usize);
    let mut out = Frame::new(w as u32, h as u32);
    if sw == 0 || sh == 0 || w == 0 || h == 0 {
        return out;
    }
    let data = src.data();
    let rounding = 1i64 << (PRECISION_BITS - 1);
    let vertical = coefficients(sh, h);
    // Only the rows the vertical pass reads go through the horizontal pass.
    let first_row = vertical.first().map_or(0, |(y, _)| *y);
    let last_row = vertical.last().map_or(0, |(y, k)| y + k.len());
    let rows = last_row - first_row;
    let horizontal = (sw != w).then(|| coefficients(sw, w));
    let mut temp = vec![0u8; rows * w * 3];
    for row in 0..rows {
        let line = &data[(first_row + row) * sw * 3..(first_row + row + 1) * sw * 3];
        let dst = &mut temp[row * w * 3..(row + 1) * w * 3];
        match &horizontal {
            None => dst.copy_from_slice(line),
            Some(coeffs) => {
                for (xx, (xmin, k)) in coeffs.iter().enumerate() {
                    for c in 0..3 {
                        let acc = k.iter().enumerate().fold(rounding, |acc, (i, &wgt)| {
                            acc + i64::from(line[(xmin + i) * 3 + c]) * i64::from(wgt)
                        });
                        dst[xx * 3 + c] = clip8(acc);
                    }
                }
            }
        }
    }
    let pixels = out.data_mut();
    for (yy, (ymin, k)) in vertical.iter().enumerate() {
        if sh == h {
            let row = &temp[(ymin - first_row) * w * 3..(ymin - first_row + 1) * w * 3];
            pixels[yy * w * 3..(yy + 1) * w * 3].copy_from_slice(row);
            continue;
        }
        for i in 0..w * 3 {
            let acc = k.iter().enumerate().fold(rounding, |acc, (j, &wgt)| {
                acc + i64::from(temp[(ymin - first_row + j) * w * 3 + i]) * i64::from(wgt)
            });
            pixels[yy * w * 3 + i] = clip8(acc);
        }
    }
    out
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
        for (_, k) in coefficients(420, 336) {
            let sum: i32 = k.iter().sum();
            assert!(
                (sum - (1 << PRECISION_BITS)).abs() <= k.len() as i32,
                "{sum}"
            );
        }
    }
}
