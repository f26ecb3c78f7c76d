//! The 180-ray lidar: rays of 196 px from the bird's front, clipped against the ground
//! and the pipes as pygame's `Rect.clipline` does it (SDL's integer Cohen–Sutherland).

use core::f64::consts::PI;

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

/// Ray lengths from (`origin_x`, `origin_y`), the bird turned `visible_rot` degrees.
pub fn scan(origin_x: f64, origin_y: f64, visible_rot: i64, obstacles: &Obstacles) -> Vec<f64> {
    let ground = IntRect::new(0.0, obstacles.ground_y, BASE_WIDTH, BASE_HEIGHT);
    let start = (origin_x as i32, origin_y as i32);
    (0..RAYS as i64)
        .map(|i| {
            let rad = (i - 90 - visible_rot) as f64 * DEG_TO_RAD;
            let end_x = LIDAR_MAX_DISTANCE * glibc_trig::cos(rad) + origin_x;
            let end_y = LIDAR_MAX_DISTANCE * glibc_trig::sin(rad) + origin_y;
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
            libm::sqrt(dx * dx + dy * dy)
        })
        .collect()
}
