//! The 180-ray lidar: rays of 196 px from the bird's front, clipped against the ground
//! and the pipes as pygame's `Rect.clipline` does it (SDL's integer Cohen–Sutherland).

use core::f64::consts::PI;

pub const RAYS: usize = 180;
pub const LIDAR_MAX_DISTANCE: f64 = 196.0;
const BASE_WIDTH: i32 = 336;
const BASE_HEIGHT: i32 = 112;

/// An integer rectangle (pygame `Rect`); float inputs are truncated toward zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntRect {
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
}

impl IntRect {
    pub fn new(x: f64, y: f64, w: i32, h: i32) -> Self {
        Self {
            x: x as i32,
            y: y as i32,
            w,
            h,
        }
    }

    /// pygame `colliderect`: the open interiors overlap.
    pub fn overlaps(&self, o: &IntRect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }

    fn outcode(&self, x: i32, y: i32) -> u8 {
        let mut code = 0;
        if y < self.y {
            code |= TOP;
        } else if y >= self.y + self.h {
            code |= BOTTOM;
        }
        if x < self.x {
            code |= LEFT;
        } else if x >= self.x + self.w {
            code |= RIGHT;
        }
        code
    }

    /// The part of the segment a–b inside the rectangle (both ends included), or `None`.
    pub fn clip_line(&self, a: (i32, i32), b: (i32, i32)) -> Option<((i32, i32), (i32, i32))> {
        if self.w <= 0 || self.h <= 0 {
            return None;
        }
        let (x_lo, y_lo) = (self.x, self.y);
        let (x_hi, y_hi) = (self.x + self.w - 1, self.y + self.h - 1);
        let ((mut x1, mut y1), (mut x2, mut y2)) = (a, b);
        let inside = |x: i32, y: i32| (x_lo..=x_hi).contains(&x) && (y_lo..=y_hi).contains(&y);
        if inside(x1, y1) && inside(x2, y2) {
            return Some((a, b));
        }
        if (x1 < x_lo && x2 < x_lo)
            || (x1 > x_hi && x2 > x_hi)
            || (y1 < y_lo && y2 < y_lo)
            || (y1 > y_hi && y2 > y_hi)
        {
            return None;
        }
        if y1 == y2 {
            return Some(((x1.clamp(x_lo, x_hi), y1), (x2.clamp(x_lo, x_hi), y2)));
        }
        if x1 == x2 {
            return Some(((x1, y1.clamp(y_lo, y_hi)), (x2, y2.clamp(y_lo, y_hi))));
        }
        let (mut code1, mut code2) = (self.outcode(x1, y1), self.outcode(x2, y2));
        while code1 != 0 || code2 != 0 {
            if code1 & code2 != 0 {
                return None;
            }
            let first = code1 != 0;
            let code = if first { code1 } else { code2 };
            // Move the outside end onto the boundary, in the order top, bottom, left, right
            // (C integer division truncates toward zero, as Rust's does).
            let (x, y) = if code & (TOP | BOTTOM) != 0 {
                let y = if code & TOP != 0 { y_lo } else { y_hi };
                (x1 + (x2 - x1) * (y - y1) / (y2 - y1), y)
            } else {
                let x = if code & LEFT != 0 { x_lo } else { x_hi };
                (x, y1 + (y2 - y1) * (x - x1) / (x2 - x1))
            };
            if first {
                (x1, y1) = (x, y);
                code1 = self.outcode(x, y);
            } else {
                (x2, y2) = (x, y);
                code2 = self.outcode(x, y);
            }
        }
        Some(((x1, y1), (x2, y2)))
    }
}

const TOP: u8 = 8;
const BOTTOM: u8 = 4;
const LEFT: u8 = 1;
const RIGHT: u8 = 2;

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
            let end_x = LIDAR_MAX_DISTANCE * libm::cos(rad) + origin_x;
            let end_y = LIDAR_MAX_DISTANCE * libm::sin(rad) + origin_y;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_cases() {
        let r = IntRect::new(10.0, 10.0, 10, 10);
        assert_eq!(r.clip_line((0, 15), (30, 15)), Some(((10, 15), (19, 15))));
        assert_eq!(r.clip_line((15, 0), (15, 30)), Some(((15, 10), (15, 19))));
        assert_eq!(r.clip_line((0, 0), (5, 30)), None);
        assert_eq!(r.clip_line((12, 12), (14, 14)), Some(((12, 12), (14, 14))));
        // Diagonal through the corner region: enters at the top edge.
        assert_eq!(r.clip_line((0, 0), (30, 30)), Some(((10, 10), (19, 19))));
        assert_eq!(IntRect::new(-50.4, 0.0, 52, 320).x, -50);
    }
}
