//! pygame's integer `Rect`: float coordinates truncated toward zero, `colliderect`, and
//! `clipline` (SDL's integer Cohen–Sutherland line clipping).

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
