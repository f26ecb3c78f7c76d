//! VP8's 4×4 transforms (RFC 6386 §14.3-14.4; `docs/video.md`). The inverse ones are
//! the decoder's, exact to the bit, so the encoder predicts from what every decoder
//! reconstructs; the forward ones are ours (any forward transform of the right scale
//! decodes), in integers so native and wasm builds agree.

/// The 1-D orthonormal DCT-II of four points in 2^14 fixed point:
/// 0.5, cos(π/8)/√2 and cos(3π/8)/√2.
const HALF: i64 = 8192;
const C1: i64 = 10703;
const C3: i64 = 4433;

fn dct4(x: [i64; 4]) -> [i64; 4] {
    let (s03, d03) = (x[0] + x[3], x[0] - x[3]);
    let (s12, d12) = (x[1] + x[2], x[1] - x[2]);
    [
        HALF * (s03 + s12),
        C1 * d03 + C3 * d12,
        HALF * (s03 - s12),
        C3 * d03 - C1 * d12,
    ]
}

/// The forward DCT of a 4×4 residual (row-major), scaled as VP8's inverse expects:
/// twice the orthonormal transform (a flat block of v has the DC 8v).
pub fn forward_dct(block: &[i32; 16]) -> [i32; 16] {
    let mut rows = [0i64; 16];
    for r in 0..4 {
        let x = std::array::from_fn(|c| i64::from(block[r * 4 + c]));
        rows[r * 4..r * 4 + 4].copy_from_slice(&dct4(x));
    }
    let mut out = [0i32; 16];
    for c in 0..4 {
        let col = dct4(std::array::from_fn(|r| rows[r * 4 + c]));
        for (r, v) in col.iter().enumerate() {
            // Two 2^14 scales, times two: round(v / 2^27).
            out[r * 4 + c] = ((v + (1 << 26)) >> 27) as i32;
        }
    }
    out
}

const SIN_PI8_SQRT2: i32 = 35468;
const COS_PI8_SQRT2_MINUS1: i32 = 20091;

/// One butterfly of the decoder's inverse DCT on `a`, `b`, `c`, `d` (the inputs 0-3).
fn idct4(i0: i32, i1: i32, i2: i32, i3: i32) -> [i32; 4] {
    let a1 = i0 + i2;
    let b1 = i0 - i2;
    let c1 = ((i1 * SIN_PI8_SQRT2) >> 16) - (i3 + ((i3 * COS_PI8_SQRT2_MINUS1) >> 16));
    let d1 = (i1 + ((i1 * COS_PI8_SQRT2_MINUS1) >> 16)) + ((i3 * SIN_PI8_SQRT2) >> 16);
    [a1 + d1, b1 + c1, b1 - c1, a1 - d1]
}

/// The decoder's inverse DCT (RFC 6386 §14.3): dequantized coefficients to residual.
pub fn inverse_dct(coeffs: &[i32; 16]) -> [i32; 16] {
    let mut tmp = [0i32; 16];
    for c in 0..4 {
        let v = idct4(coeffs[c], coeffs[4 + c], coeffs[8 + c], coeffs[12 + c]);
        for (r, x) in v.iter().enumerate() {
            tmp[r * 4 + c] = *x;
        }
    }
    let mut out = [0i32; 16];
    for r in 0..4 {
        let t = &tmp[r * 4..r * 4 + 4];
        let v = idct4(t[0], t[1], t[2], t[3]);
        for (c, x) in v.iter().enumerate() {
            out[r * 4 + c] = (x + 4) >> 3;
        }
    }
    out
}

/// The Walsh-Hadamard butterfly both directions share.
fn wht4(i0: i32, i1: i32, i2: i32, i3: i32) -> [i32; 4] {
    let (a1, b1) = (i0 + i3, i1 + i2);
    let (c1, d1) = (i1 - i2, i0 - i3);
    [a1 + b1, c1 + d1, a1 - b1, d1 - c1]
}

fn wht2d(x: &[i32; 16]) -> [i32; 16] {
    let mut tmp = [0i32; 16];
    for c in 0..4 {
        let v = wht4(x[c], x[4 + c], x[8 + c], x[12 + c]);
        for (r, y) in v.iter().enumerate() {
            tmp[r * 4 + c] = *y;
        }
    }
    let mut out = [0i32; 16];
    for r in 0..4 {
        let t = &tmp[r * 4..r * 4 + 4];
        out[r * 4..r * 4 + 4].copy_from_slice(&wht4(t[0], t[1], t[2], t[3]));
    }
    out
}

/// The forward Walsh-Hadamard transform of a macroblock's 16 luma DCs (raster order of
/// their blocks), scaled so the decoder's inverse returns them: half the unscaled sum.
pub fn forward_wht(dcs: &[i32; 16]) -> [i32; 16] {
    wht2d(dcs).map(|v| (v + 1) >> 1)
}

/// The decoder's inverse Walsh-Hadamard transform (RFC 6386 §14.3).
pub fn inverse_wht(coeffs: &[i32; 16]) -> [i32; 16] {
    wht2d(coeffs).map(|v| (v + 3) >> 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transforms_invert_each_other() {
        let block: [i32; 16] = std::array::from_fn(|i| ((i * 37 + 11) % 61) as i32 - 30);
        let back = inverse_dct(&forward_dct(&block));
        for (a, b) in block.iter().zip(back.iter()) {
            assert!((a - b).abs() <= 1, "{block:?} {back:?}");
        }
        let flat = [20i32; 16];
        assert_eq!(forward_dct(&flat)[0], 160);
        let dcs: [i32; 16] = std::array::from_fn(|i| (i as i32 * 97) % 400 - 200);
        let back = inverse_wht(&forward_wht(&dcs));
        for (a, b) in dcs.iter().zip(back.iter()) {
            assert!((a - b).abs() <= 1, "{dcs:?} {back:?}");
        }
    }
}
