//! pygame's `Vector2.rotate(degrees)`: radians = (degrees·π)/180 wrapped into [0, 2π),
//! exact quarter turns within 1e-6 rad of a multiple of π/2, otherwise the rotation
//! matrix with that wrapped angle's sine and cosine.

use core::f64::consts::{FRAC_PI_2, PI};

use crate::rng::glibc_trig;
/// pygame's `VECTOR_EPSILON`.
const EPSILON: f64 = 1e-6;
const TWO_PI: f64 = 2.0 * PI;

/// `Vector2(x, y).rotate(degrees)` (counter-clockwise in a y-up frame).
pub fn rotate_vector(x: f64, y: f64, degrees: f64) -> (f64, f64) {
    let mut angle = libm::fmod(degrees * PI / 180.0, TWO_PI);
    if angle < 0.0 {
        angle += TWO_PI;
    }
    if libm::fmod(angle + EPSILON, FRAC_PI_2) < 2.0 * EPSILON {
        return match ((angle + EPSILON) / FRAC_PI_2) as i32 {
            1 => (-y, x),
            2 => (-x, -y),
            3 => (y, -x),
            _ => (x, y),
        };
    }
    let (s, c) = (glibc_trig::sin(angle), glibc_trig::cos(angle));
    (c * x - s * y, s * x + c * y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quarter_turns_are_exact() {
        assert_eq!(rotate_vector(38.0, -38.0, 90.0), (38.0, 38.0));
        assert_eq!(rotate_vector(38.0, 0.0, -90.0), (-0.0, -38.0));
        assert_eq!(rotate_vector(3.0, 4.0, -0.0), (3.0, 4.0));
    }

    #[test]
    fn other_angles_use_the_wrapped_angle() {
        let (x, y) = rotate_vector(38.0, 0.0, -10.0);
        assert!((x - 37.42269).abs() < 1e-4 && (y + 6.59866).abs() < 1e-4);
    }
}
