//! Float helpers that follow the reference's numpy / Python arithmetic: floored modulo,
//! 2-element dot products as OpenBLAS computes them on FMA hosts (the second product fused
//! into the first), and the small utilities of highway-env's `utils`.

use core::f64::consts::PI;

/// Python / numpy float `%` (result has the sign of the divisor).
pub fn py_mod(a: f64, b: f64) -> f64 {
    let m = libm::fmod(a, b);
    if m != 0.0 {
        if (b < 0.0) != (m < 0.0) {
            m + b
        } else {
            m
        }
    } else {
        libm::copysign(0.0, b)
    }
}

/// Python float `//` (CPython's `float_floor_div`: through `fmod`, then snapped).
pub fn py_floor_div(a: f64, b: f64) -> f64 {
    let m = libm::fmod(a, b);
    let mut div = (a - m) / b;
    if m != 0.0 && (b < 0.0) != (m < 0.0) {
        div -= 1.0;
    }
    if div != 0.0 {
        let floor = libm::floor(div);
        if div - floor > 0.5 {
            floor + 1.0
        } else {
            floor
        }
    } else {
        libm::copysign(0.0, a / b)
    }
}

/// `np.dot` of two 2-vectors (OpenBLAS `ddot`): `fma(a1, b1, a0·b0)`.
pub fn dot2(a: [f64; 2], b: [f64; 2]) -> f64 {
    libm::fma(a[1], b[1], a[0] * b[0])
}

/// `np.linalg.norm` of a 2-vector: `sqrt(dot(v, v))`.
pub fn norm2(v: [f64; 2]) -> f64 {
    f64::sqrt(dot2(v, v))
}

/// `utils.wrap_to_pi`: ((x + π) mod 2π) − π.
pub fn wrap_to_pi(x: f64) -> f64 {
    py_mod(x + PI, 2.0 * PI) - PI
}

/// `utils.not_zero`: x, or ±0.01 when |x| ≤ 0.01.
pub fn not_zero(x: f64) -> f64 {
    const EPS: f64 = 1e-2;
    if x.abs() > EPS {
        x
    } else if x >= 0.0 {
        EPS
    } else {
        -EPS
    }
}

/// `np.clip` of a scalar.
pub fn clip(x: f64, lo: f64, hi: f64) -> f64 {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

/// `utils.lmap`: y0 + (v − x0)·(y1 − y0)/(x1 − x0), in that order.
pub fn lmap(v: f64, x: [f64; 2], y: [f64; 2]) -> f64 {
    y[0] + (v - x[0]) * (y[1] - y[0]) / (x[1] - x[0])
}

/// `np.round`: half to even.
pub fn round_half_even(x: f64) -> f64 {
    let r = libm::round(x);
    if (r - x).abs() == 0.5 && r % 2.0 != 0.0 {
        r - (r - x).signum()
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_division_rules() {
        assert_eq!(py_mod(-1.0, 3.0), 2.0);
        assert_eq!(py_mod(5.5, -2.0), -0.5);
        assert_eq!(py_floor_div(7.0, 2.0), 3.0);
        assert_eq!(py_floor_div(-7.0, 2.0), -4.0);
        // The quotient 0.3/0.1 rounds to 3 but the floor of the exact quotient is 2.
        assert_eq!(py_floor_div(0.3, 0.1), 2.0);
    }

    #[test]
    fn rounding_and_helpers() {
        assert_eq!(round_half_even(0.5), 0.0);
        assert_eq!(round_half_even(1.5), 2.0);
        assert_eq!(round_half_even(2.5), 2.0);
        assert_eq!(round_half_even(-0.5), -0.0);
        assert_eq!(round_half_even(0.7), 1.0);
        assert_eq!(not_zero(0.0), 0.01);
        assert_eq!(not_zero(-0.005), -0.01);
        assert_eq!(wrap_to_pi(0.0), 0.0);
        assert_eq!(lmap(25.0, [20.0, 30.0], [0.0, 1.0]), 0.5);
    }
}
