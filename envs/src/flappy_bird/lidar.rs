//! The 180-ray lidar: rays of 196 px from the bird's front, clipped against the ground
//! and the pipes as pygame's `Rect.clipline` does it (SDL's integer Cohen–Sutherland).

use core::f64::consts::PI;
use std::sync::OnceLock;

use crate::pygame::IntRect;
use crate::rng::glibc_trig;

pub const RAYS: usize = 180;
pub const LIDAR_MAX_DISTANCE: f64 = 196.0;
const BASE_WIDTH: i32 = 336;
const BASE_HEIGHT: i32 = 112;

/// numpy's `radians`: a product with the rounded constant π/180.
const DEG_TO_RAD: f64 = PI / 180.0;

/// What the rays can hit: pipe pairs (upper, lower rectangles) nearest first.
pub struct Obstacles {
    pub pipes: Vec<(IntRect, IntRect)>,
    pub ground_y: f64,
}

/// Whole degrees whose cosine and sine are kept: every ray of a bird turned by any
/// rotation the game gives it (−90 to 45 degrees) and more.
const KEPT_DEGREES: i64 = 360;

/// (cos, sin) of `degrees` converted as the reference does, the same bits as computing
/// them each time: a ray's angle is always a whole number of degrees, and 360 ported
/// glibc kernels per step were most of a step (four times slower in wasm, where their
/// 128-bit products are emulated).
fn cos_sin(degrees: i64) -> (f64, f64) {
    let compute = |d: i64| {
        let rad = d as f64 * DEG_TO_RAD;
        (glibc_trig::cos(rad), glibc_trig::sin(rad))
    };
    static KEPT: OnceLock<Vec<(f64, f64)>> = OnceLock::new();
    if degrees.abs() > KEPT_DEGREES {
        return compute(degrees);
    }
    let kept = KEPT.get_or_init(|| (-KEPT_DEGREES..=KEPT_DEGREES).map(compute).collect());
    kept[(degrees + KEPT_DEGREES) as usize]
}

/// Ray lengths from (`origin_x`, `origin_y`), the bird turned `visible_rot` degrees.
pub fn scan(origin_x: f64, origin_y: f64, visible_rot: i64, obstacles: &Obstacles) -> Vec<f64> {
    let ground = IntRect::new(0.0, obstacles.ground_y, BASE_WIDTH, BASE_HEIGHT);
    let start = (origin_x as i32, origin_y as i32);
    (0..RAYS as i64)
        .map(|i| {
            let (cos, sin) = cos_sin(i - 90 - visible_rot);
            let end_x = LIDAR_MAX_DISTANCE * cos + origin_x;
            let end_y = LIDAR_MAX_DISTANCE * sin + origin_y;
            let end = (end_x as i32, end_y as i32);
            let mut hit = (end_x, end_y);
            if let Some((p, _)) = ground.clip_line(start, end) {
                hit = (f64::from(p.0), f64::from(p.1));
            }
            for (upper, lower) in &obstacles.pipes {
                if let Some((p, _)) = upper
                    .clip_line(start, end)
                    .or_else(|| lower.clip_line(start, end))
                {
                    hit = (f64::from(p.0), f64::from(p.1));
                    break;
                }
            }
            if hit.1 > obstacles.ground_y {
                hit.1 = obstacles.ground_y;
            }
            let (dx, dy) = (origin_x - hit.0, origin_y - hit.1);
            f64::sqrt(dx * dx + dy * dy)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_cosines_and_sines_are_the_computed_bits() {
        for d in -KEPT_DEGREES - 5..=KEPT_DEGREES + 5 {
            let rad = d as f64 * DEG_TO_RAD;
            let (c, s) = cos_sin(d);
            assert_eq!(c.to_bits(), glibc_trig::cos(rad).to_bits(), "{d}");
            assert_eq!(s.to_bits(), glibc_trig::sin(rad).to_bits(), "{d}");
        }
    }
}
