//! float32 operations as numpy 2.x computes them on the reference's x86-64 host with
//! FMA3 (`docs/environments.md`, "float32 arithmetic on FMA hosts"): `numpy.sin`/
//! `numpy.cos` of float32 (Acrobot's reset observation) and a float32 scalar `u**2`
//! (Pendulum), which is glibc's `powf`.
//!
//! Both are built with fused multiply-adds (numpy's SIMD kernel explicitly, glibc's
//! FMA variant by compiler contraction). The fused steps are reproduced with
//! `libm::fmaf`/`libm::fma`, which round once like the hardware instruction; every
//! other operation is plain IEEE arithmetic in the same order.

use libm::{fma, fmaf};

const TWO_OVER_PI: f32 = f32::from_bits(0x3f22_f983); // 0x1.45f306p-1
const PIO2_HIGH: f32 = f32::from_bits(0xbfc9_0fd8); // -0x1.921fb0p+00
const PIO2_MED: f32 = f32::from_bits(0xb4a8_885a); // -0x1.5110b4p-22
const PIO2_LOW: f32 = f32::from_bits(0xa7c2_34c4); // -0x1.846988p-48
const RINT_MAGIC: f32 = f32::from_bits(0x4b40_0000); // 0x1.8p+23

const COS_C8: f32 = f32::from_bits(0x37cc_730b); // 0x1.98e616p-16
const COS_C6: f32 = f32::from_bits(0xbab6_036e); // -0x1.6c06dcp-10
const COS_C4: f32 = f32::from_bits(0x3d2a_aa9e); // 0x1.55553cp-05
const COS_C2: f32 = -0.5;

const SIN_C9: f32 = f32::from_bits(0x363e_9dde); // 0x1.7d3bbcp-19
const SIN_C7: f32 = f32::from_bits(0xb950_35dd); // -0x1.a06bbap-13
const SIN_C5: f32 = f32::from_bits(0x3c08_88cd); // 0x1.11119ap-07
const SIN_C3: f32 = f32::from_bits(0xbe2a_aaab); // -0x1.555556p-03

/// Beyond these magnitudes numpy hands the argument to libc.
const MAX_CODY_SIN: f32 = f32::from_bits(0x47e5_5dff); // 117435.992f
const MAX_CODY_COS: f32 = f32::from_bits(0x478b_9a08); // 71476.0625f

#[derive(Clone, Copy, PartialEq)]
enum Op {
    Sin,
    Cos,
}

fn sincos(x: f32, op: Op) -> f32 {
    if x.is_nan() {
        return f32::NAN;
    }
    let limit = match op {
        Op::Sin => MAX_CODY_SIN,
        Op::Cos => MAX_CODY_COS,
    };
    if x.abs() > limit {
        return match op {
            Op::Sin => libm::sinf(x),
            Op::Cos => libm::cosf(x),
        };
    }
    // Round to nearest by the magic-number trick (also maps -0.0 to +0.0); the compiler
    // fused numpy's multiply and add here.
    let quadrant = fmaf(x, TWO_OVER_PI, RINT_MAGIC) - RINT_MAGIC;
    let mut r = fmaf(quadrant, PIO2_HIGH, x);
    r = fmaf(quadrant, PIO2_MED, r);
    r = fmaf(quadrant, PIO2_LOW, r);
    let r2 = r * r;

    let mut c = fmaf(COS_C8, r2, COS_C6);
    c = fmaf(c, r2, COS_C4);
    c = fmaf(c, r2, COS_C2);
    c = fmaf(c, r2, 1.0);

    let mut s = fmaf(SIN_C9, r2, SIN_C7);
    s = fmaf(s, r2, SIN_C5);
    s = fmaf(s, r2, SIN_C3);
    s = fmaf(s, r2, 0.0);
    s = fmaf(s, r, r);

    let mut q = quadrant as i32;
    if op == Op::Cos {
        q += 1;
    }
    let v = if q & 1 == 0 { s } else { c };
    if q & 2 == 2 {
        0.0 - v
    } else {
        v
    }
}

/// `numpy.sin` of a float32.
pub fn sin(x: f32) -> f32 {
    sincos(x, Op::Sin)
}

/// `numpy.cos` of a float32.
pub fn cos(x: f32) -> f32 {
    sincos(x, Op::Cos)
}

/// glibc's `powf` tables (ARM optimized-routines, `POWF_SCALE_BITS` = 0).
const LOG2_TAB: [(f64, f64); 16] = [
    (
        f64::from_bits(0x3ff6_61ec_79f8_f3be),
        f64::from_bits(0xbfde_fec6_5b96_3019),
    ),
    (
        f64::from_bits(0x3ff5_71ed_4aaf_883d),
        f64::from_bits(0xbfdb_0b68_32d4_fca4),
    ),
    (
        f64::from_bits(0x3ff4_9539_f0f0_10b0),
        f64::from_bits(0xbfd7_418b_0a1f_b77b),
    ),
    (
        f64::from_bits(0x3ff3_c995_b0b8_0385),
        f64::from_bits(0xbfd3_9de9_1a6d_cf7b),
    ),
    (
        f64::from_bits(0x3ff3_0d19_0c88_64a5),
        f64::from_bits(0xbfd0_1d9b_f3f2_b631),
    ),
    (
        f64::from_bits(0x3ff2_5e22_7b0b_8ea0),
        f64::from_bits(0xbfc9_7c1d_1b3b_7af0),
    ),
    (
        f64::from_bits(0x3ff1_bb4a_4a1a_343f),
        f64::from_bits(0xbfc2_f9e3_93af_3c9f),
    ),
    (
        f64::from_bits(0x3ff1_2358_f08a_e5ba),
        f64::from_bits(0xbfb9_60cb_bf78_8d5c),
    ),
    (
        f64::from_bits(0x3ff0_953f_4199_00a7),
        f64::from_bits(0xbfaa_6f9d_b647_5fce),
    ),
    (1.0, 0.0),
    (
        f64::from_bits(0x3fee_608c_fd9a_47ac),
        f64::from_bits(0x3fb3_38ca_9f24_f53d),
    ),
    (
        f64::from_bits(0x3fec_a4b3_1f02_6aa0),
        f64::from_bits(0x3fc4_76a9_5438_91ba),
    ),
    (
        f64::from_bits(0x3feb_2036_576a_fce6),
        f64::from_bits(0x3fce_840b_4ac4_e4d2),
    ),
    (
        f64::from_bits(0x3fe9_c2d1_63a1_aa2d),
        f64::from_bits(0x3fd4_0645_f0c6_651c),
    ),
    (
        f64::from_bits(0x3fe8_86e6_0378_41ed),
        f64::from_bits(0x3fd8_8e9c_2c1b_9ff8),
    ),
    (
        f64::from_bits(0x3fe7_67dc_f553_4862),
        f64::from_bits(0x3fdc_e0a4_4eb1_7bcc),
    ),
];
const LOG2_POLY: [f64; 5] = [
    f64::from_bits(0x3fd2_7616_c949_6e0b),
    f64::from_bits(0xbfd7_1969_a075_c67a),
    f64::from_bits(0x3fde_c70a_6ca7_badd),
    f64::from_bits(0xbfe7_1547_48be_f6c8),
    f64::from_bits(0x3ff7_1547_652a_b82b),
];
const EXP2_TAB: [u64; 32] = [
    0x3ff0000000000000,
    0x3fefd9b0d3158574,
    0x3fefb5586cf9890f,
    0x3fef9301d0125b51,
    0x3fef72b83c7d517b,
    0x3fef54873168b9aa,
    0x3fef387a6e756238,
    0x3fef1e9df51fdee1,
    0x3fef06fe0a31b715,
    0x3feef1a7373aa9cb,
    0x3feedea64c123422,
    0x3feece086061892d,
    0x3feebfdad5362a27,
    0x3feeb42b569d4f82,
    0x3feeab07dd485429,
    0x3feea47eb03a5585,
    0x3feea09e667f3bcd,
    0x3fee9f75e8ec5f74,
    0x3feea11473eb0187,
    0x3feea589994cce13,
    0x3feeace5422aa0db,
    0x3feeb737b0cdc5e5,
    0x3feec49182a3f090,
    0x3feed503b23e255d,
    0x3feee89f995ad3ad,
    0x3feeff76f2fb5e47,
    0x3fef199bdd85529c,
    0x3fef3720dcef9069,
    0x3fef5818dcfba487,
    0x3fef7c97337b9b5f,
    0x3fefa4afa2a490da,
    0x3fefd0765b6e4540,
];
const EXP2_POLY: [f64; 3] = [
    f64::from_bits(0x3fac_6af8_4b91_2394),
    f64::from_bits(0x3fce_bfce_50fa_c4f3),
    f64::from_bits(0x3fe6_2e42_ff0c_52d6),
];
/// 0x1.8p+52 / 32: adding it rounds to a multiple of 1/32.
const EXP2_SHIFT: f64 = 6_755_399_441_055_744.0 / 32.0;

/// log2 of the float with bits `ix` (positive, normalised; subnormals arrive with a
/// negative biased exponent).
fn log2_inline(ix: u32) -> f64 {
    const OFF: u32 = 0x3f33_0000;
    let tmp = ix.wrapping_sub(OFF);
    let i = ((tmp >> 19) % 16) as usize;
    let top = tmp & 0xff80_0000;
    let iz = ix.wrapping_sub(top);
    let k = (top as i32) >> 23;
    let (invc, logc) = LOG2_TAB[i];
    let z = f64::from(f32::from_bits(iz));
    let r = fma(z, invc, -1.0);
    let y0 = logc + f64::from(k);
    let r2 = r * r;
    let y = fma(LOG2_POLY[0], r, LOG2_POLY[1]);
    let p = fma(LOG2_POLY[2], r, LOG2_POLY[3]);
    let r4 = r2 * r2;
    let q = fma(LOG2_POLY[4], r, y0);
    let q = fma(p, r2, q);
    fma(y, r4, q)
}

fn exp2_inline(xd: f64) -> f32 {
    let kd = xd + EXP2_SHIFT;
    let ki = kd.to_bits();
    let kd = kd - EXP2_SHIFT;
    let r = xd - kd;
    let t = EXP2_TAB[(ki % 32) as usize].wrapping_add(ki << 47);
    let s = f64::from_bits(t);
    let z = fma(EXP2_POLY[0], r, EXP2_POLY[1]);
    let r2 = r * r;
    let y = fma(EXP2_POLY[2], r, 1.0);
    let y = fma(z, r2, y);
    (y * s) as f32
}

/// A numpy float32 scalar `x**2`: glibc's `powf(x, 2.0f)`, which is not always the
/// correctly rounded `x*x` (nor `libm::powf`). Checked against glibc 2.36 for every
/// float32 in [0, 2]: about 0.04% differ from `x*x`, all reproduced.
pub fn square(x: f32) -> f32 {
    let mut ix = x.to_bits();
    if ix.wrapping_sub(0x0080_0000) >= 0x7f80_0000 - 0x0080_0000 {
        // Zero, infinity, NaN, negative or subnormal.
        if ix.wrapping_mul(2).wrapping_sub(1) >= 2 * 0x7f80_0000 - 1 {
            return x * x;
        }
        // An even power: the sign drops out.
        ix &= 0x7fff_ffff;
        if ix < 0x0080_0000 {
            ix = (x * 8_388_608.0).to_bits() & 0x7fff_ffff;
            ix = ix.wrapping_sub(23 << 23);
        }
    }
    let ylogx = 2.0 * log2_inline(ix);
    if (ylogx.to_bits() >> 47 & 0xffff) >= 126.0_f64.to_bits() >> 47 {
        if ylogx > f64::from_bits(0x405f_ffff_ffd1_d571) {
            return f32::INFINITY;
        }
        if ylogx <= -150.0 {
            return 0.0;
        }
    }
    exp2_inline(ylogx)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (input, numpy.sin, numpy.cos) bits from numpy 2.4.6 on an AVX-512 host (the AVX2
    /// kernel gives the same bits). The port matched all of 456 048 float32 arguments
    /// (348 310 of them in [-0.1, 0.1]); kept here: arguments in [-0.1, 0.1] where the
    /// rounded float64 sin (first 12) or cos (next 12) is 1 ulp off, then wide ones,
    /// the first four of which need the fused quadrant computation.
    #[rustfmt::skip]
    const NUMPY: &[(u32, u32, u32)] = &[
        (0xbdaa8ab0, 0xbdaa583f, 0x3f7f1ce9),
        (0x3d3f4666, 0x3d3f349a, 0x3f7fb88e),
        (0xbd3abede, 0xbd3aae4e, 0x3f7fbbe6),
        (0xbdb4a037, 0xbdb4644a, 0x3f7f0147),
        (0xbdb765df, 0xbdb72726, 0x3f7ef967),
        (0x3dc8ed8e, 0x3dc89b14, 0x3f7ec4d9),
        (0x3d803c60, 0x3d8026ee, 0x3f7f7f92),
        (0x3d84440c, 0x3d842c83, 0x3f7f7760),
        (0xbd93cdda, 0xbd93ad03, 0x3f7f5567),
        (0xbdbc7931, 0xbdbc351d, 0x3f7eeaae),
        (0x3db8bb83, 0x3db87b68, 0x3f7ef592),
        (0xbd84242a, 0xbd840cb2, 0x3f7f77a1),
        (0x3dc2a0e5, 0x3dc255ee, 0x3f7ed849),
        (0xbd828ff5, 0xbd827952, 0x3f7f7ade),
        (0xbdb9427a, 0xbdb901d3, 0x3f7ef40c),
        (0x3da16fbe, 0x3da144f5, 0x3f7f347f),
        (0x3da73ea5, 0x3da70f13, 0x3f7f259a),
        (0x3dc3f92c, 0x3dc3aca5, 0x3f7ed42f),
        (0x3d4d9ee7, 0x3d4d88cc, 0x3f7fad70),
        (0x3dc652fd, 0x3dc603ad, 0x3f7eccf5),
        (0x3d8a614a, 0x3d8a4657, 0x3f7f6a74),
        (0x3d6e182d, 0x3d6df5db, 0x3f7f9150),
        (0x3db657a0, 0x3db619fa, 0x3f7efc6b),
        (0xbd5f2f3c, 0xbd5f12f7, 0x3f7f9ebd),
        (0x46e8ab07, 0xbf34e3da, 0x3f352607),
        (0xc58a4dc0, 0xbf35005a, 0xbf35098d),
        (0x46eb1910, 0x3f34e83c, 0xbf3521a5),
        (0x46cdc7cd, 0x3f356a16, 0x3f349f98),
        (0x42c07be1, 0x3f6965aa, 0xbed25999),
        (0x42a3b5b1, 0x3e30bb0d, 0x3f7c2891),
        (0xc201c45f, 0xbf5aeb2d, 0x3f04b47c),
        (0xc291ec45, 0x3f25dd34, 0xbf430012),
        (0x43198bd3, 0x3ec38872, 0xbf6c989a),
        (0x4336465d, 0x3d7fc332, 0x3f7f801d),
    ];

    #[test]
    fn matches_numpy_float32() {
        for &(x, s, c) in NUMPY {
            let xf = f32::from_bits(x);
            assert_eq!(sin(xf).to_bits(), s, "sin({xf:e})");
            assert_eq!(cos(xf).to_bits(), c, "cos({xf:e})");
        }
    }

    #[test]
    fn special_values() {
        assert!(sin(f32::NAN).is_nan());
        assert_eq!(sin(0.0).to_bits(), 0);
        assert_eq!(cos(0.0), 1.0);
        assert_eq!(square(0.0).to_bits(), 0);
        assert_eq!(square(-0.0).to_bits(), 0);
        assert_eq!(square(-2.0), 4.0);
        assert_eq!(square(1.0e-40), 0.0);
        assert_eq!(square(f32::INFINITY), f32::INFINITY);
        assert!(square(f32::NAN).is_nan());
    }
}
