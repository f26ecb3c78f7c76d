//! OpenCV's 8-bit HSV conversions (`COLOR_BGR2HSV`, `COLOR_HSV2BGR`: hue in 0..180,
//! saturation and value in 0..256) as opencv-python 4.11 computes them on x86-64,
//! checked against it for all 2^24 inputs (spec §3.3).
//!
//! RGB to HSV is fixed-point arithmetic and the same on every path. HSV to RGB goes
//! through `f32` and has two paths that disagree by one level for most inputs: OpenCV
//! converts each row in blocks of 32 pixels with vector code that truncates, and the
//! pixels left over (all of a row narrower than 32) with scalar code that rounds. Both
//! are built for AVX2 with fused multiply-adds, so `1 - s * h` rounds once.

/// `round(numerator / d)` with ties to even (OpenCV's `saturate_cast<int>` of the
/// quotient; exact here, as the quotient is never within 2^-12 of a half but at one).
const fn div_round_even(numerator: u32, d: u32) -> i32 {
    let (q, r) = (numerator / d, numerator % d);
    let up = 2 * r > d || (2 * r == d && q % 2 == 1);
    (q + up as u32) as i32
}

const fn tables() -> ([i32; 256], [i32; 256]) {
    let mut sdiv = [0; 256];
    let mut hdiv = [0; 256];
    let mut i = 1;
    while i < 256 {
        sdiv[i] = div_round_even(255 << 12, i as u32);
        hdiv[i] = div_round_even(180 << 12, 6 * i as u32);
        i += 1;
    }
    (sdiv, hdiv)
}

/// `(255 << 12) / v` and `(180 << 12) / (6 d)`, rounded: OpenCV's division tables.
const DIV_TABLES: ([i32; 256], [i32; 256]) = tables();

/// One pixel to `[h, s, v]`.
pub fn rgb_to_hsv([r, g, b]: [u8; 3]) -> [u8; 3] {
    let (r, g, b) = (i32::from(r), i32::from(g), i32::from(b));
    let v = r.max(g).max(b);
    let diff = v - r.min(g).min(b);
    let (sdiv, hdiv) = &DIV_TABLES;
    let s = (diff * sdiv[v as usize] + (1 << 11)) >> 12;
    // The sector's difference: red, then green, then blue holds the maximum.
    let h = if v == r {
        g - b
    } else if v == g {
        b - r + 2 * diff
    } else {
        r - g + 4 * diff
    };
    let mut h = (h * hdiv[diff as usize] + (1 << 11)) >> 12;
    if h < 0 {
        h += 180;
    }
    [h as u8, s as u8, v as u8]
}

/// Which of `v`, `v(1-s)`, `v(1-sh)`, `v(1-s(1-h))` each of blue, green, red takes in
/// each sixth of the hue circle.
const SECTOR_TABS: [[usize; 3]; 6] = [
    [1, 3, 0],
    [1, 0, 2],
    [3, 0, 1],
    [0, 2, 1],
    [0, 1, 3],
    [2, 1, 0],
];

const HSCALE: f32 = 6.0 / 180.0;
const INV_255: f32 = 1.0 / 255.0;

fn tabs(v: f32, s: f32, frac: f32) -> [f32; 4] {
    [
        v,
        v * (1.0 - s),
        v * libm::fmaf(-s, frac, 1.0),
        v * libm::fmaf(-s, 1.0 - frac, 1.0),
    ]
}

/// The scalar path: one pixel `[h, s, v]` to RGB, rounding to nearest.
pub fn hsv_to_rgb_scalar([h, s, v]: [u8; 3]) -> [u8; 3] {
    let (s, v) = (f32::from(s) * INV_255, f32::from(v) * INV_255);
    let [b, g, r] = if s == 0.0 {
        [v; 3]
    } else {
        let hh = (f32::from(h) * HSCALE) % 6.0;
        let mut sector = hh.floor() as i32;
        let mut frac = hh - sector as f32;
        if !(0..6).contains(&sector) {
            sector = 0;
            frac = 0.0;
        }
        let tab = tabs(v, s, frac);
        SECTOR_TABS[sector as usize].map(|k| tab[k])
    };
    // `saturate_cast<uchar>(float)`: round half to even, then clamp.
    [r, g, b].map(|c| (c * 255.0).round_ties_even().clamp(0.0, 255.0) as u8)
}

/// The vector path (whole blocks of 32 pixels of a row): one pixel to RGB, truncating.
pub fn hsv_to_rgb_block([h, s, v]: [u8; 3]) -> [u8; 3] {
    let (s, v) = (f32::from(s) * INV_255, f32::from(v) * INV_255);
    let scaled = f32::from(h) * HSCALE;
    let pre = scaled.trunc();
    let tab = tabs(v, s, scaled - pre);
    // The sector modulo 6, in floats as the vector code has it.
    let sector = (pre - (pre * (1.0f32 / 6.0)).trunc() * 6.0) as usize;
    let [b, g, r] = SECTOR_TABS[sector.min(5)].map(|k| tab[k]);
    [r, g, b].map(|c| (c * 255.0).trunc().clamp(0.0, 255.0) as u8)
}

/// The pixels of a row of `width` that OpenCV converts on the vector path.
pub fn block_pixels(width: usize) -> usize {
    width / 32 * 32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values read from `cv2.cvtColor` (opencv-python 4.11.0.86) on 1×1 images (the
    /// scalar path) and inside a 64-pixel row (the vector path).
    #[test]
    fn conversions_match_opencv() {
        // (RGB, HSV)
        let to_hsv = [
            ([0, 0, 0], [0, 0, 0]),
            ([255, 0, 0], [0, 255, 255]),
            ([0, 0, 255], [120, 255, 255]),
            ([10, 200, 30], [63, 242, 200]),
            ([200, 100, 150], [165, 127, 200]),
            ([12, 11, 13], [135, 39, 13]),
            ([255, 254, 0], [30, 255, 255]),
        ];
        for (rgb, hsv) in to_hsv {
            assert_eq!(rgb_to_hsv(rgb), hsv, "{rgb:?}");
        }
        // (HSV, RGB scalar, RGB vector)
        let to_rgb = [
            ([0, 1, 1], [1, 1, 1], [1, 0, 0]),
            ([0, 0, 200], [200, 200, 200], [200, 200, 200]),
            ([63, 242, 200], [10, 200, 29], [10, 200, 29]),
            ([179, 255, 255], [255, 0, 8], [255, 0, 8]),
            ([180, 100, 100], [100, 61, 61], [100, 60, 60]),
            ([90, 128, 77], [38, 77, 77], [38, 76, 77]),
            ([200, 50, 50], [50, 47, 40], [50, 46, 40]),
        ];
        for (hsv, scalar, block) in to_rgb {
            assert_eq!(hsv_to_rgb_scalar(hsv), scalar, "scalar {hsv:?}");
            assert_eq!(hsv_to_rgb_block(hsv), block, "block {hsv:?}");
        }
        assert_eq!(
            (block_pixels(31), block_pixels(32), block_pixels(319)),
            (0, 32, 288)
        );
    }
}
