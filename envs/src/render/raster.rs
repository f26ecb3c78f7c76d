//! Anti-aliased shape filling into a [`Frame`], shared by every environment's renderer.
//!
//! Shapes are tested at 4×4 sample points per pixel inside their bounding box; the
//! covered fraction is blended over the frame. Coordinates are in pixels, y down, and a
//! pixel (x, y) covers the square [x, x+1) × [y, y+1).

use crate::core::frame::{Frame, Rgb};

const SAMPLES: usize = 4;

/// Fills every pixel according to how many of its sample points satisfy `inside`.
fn fill_coverage(
    frame: &mut Frame,
    bounds: (f64, f64, f64, f64),
    color: Rgb,
    inside: impl Fn(f64, f64) -> bool,
) {
    let (x0, y0, x1, y1) = bounds;
    let w = f64::from(frame.width());
    let h = f64::from(frame.height());
    let xs = x0.max(0.0).floor() as i64;
    let ys = y0.max(0.0).floor() as i64;
    let xe = x1.min(w - 1.0).ceil() as i64;
    let ye = y1.min(h - 1.0).ceil() as i64;
    let step = 1.0 / SAMPLES as f64;
    for py in ys..=ye {
        for px in xs..=xe {
            let mut hits = 0;
            for sy in 0..SAMPLES {
                let y = py as f64 + (sy as f64 + 0.5) * step;
                for sx in 0..SAMPLES {
                    let x = px as f64 + (sx as f64 + 0.5) * step;
                    if inside(x, y) {
                        hits += 1;
                    }
                }
            }
            if hits == SAMPLES * SAMPLES {
                frame.set(px, py, color);
            } else if hits > 0 {
                frame.blend(px, py, color, hits as f64 / (SAMPLES * SAMPLES) as f64);
            }
        }
    }
}

/// An axis-aligned rectangle with corners (x0, y0) and (x1, y1), exact on integer edges.
pub fn fill_rect(frame: &mut Frame, x0: f64, y0: f64, x1: f64, y1: f64, color: Rgb) {
    let (ax, bx) = (x0.min(x1), x0.max(x1));
    let (ay, by) = (y0.min(y1), y0.max(y1));
    fill_coverage(frame, (ax, ay, bx, by), color, |x, y| {
        x >= ax && x < bx && y >= ay && y < by
    });
}

pub fn fill_circle(frame: &mut Frame, cx: f64, cy: f64, r: f64, color: Rgb) {
    let r2 = r * r;
    fill_coverage(frame, (cx - r, cy - r, cx + r, cy + r), color, |x, y| {
        let (dx, dy) = (x - cx, y - cy);
        dx * dx + dy * dy <= r2
    });
}

/// A ring between radii `r - width` and `r`.
pub fn stroke_circle(frame: &mut Frame, cx: f64, cy: f64, r: f64, width: f64, color: Rgb) {
    let (outer, inner) = (r * r, (r - width).max(0.0) * (r - width).max(0.0));
    fill_coverage(frame, (cx - r, cy - r, cx + r, cy + r), color, |x, y| {
        let (dx, dy) = (x - cx, y - cy);
        let d = dx * dx + dy * dy;
        d <= outer && d >= inner
    });
}

/// Any simple polygon (convex or not), by the even-odd rule.
pub fn fill_polygon(frame: &mut Frame, points: &[(f64, f64)], color: Rgb) {
    if points.len() < 3 {
        return;
    }
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for &(x, y) in points {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    fill_coverage(frame, (x0, y0, x1, y1), color, |x, y| {
        point_in_polygon(points, x, y)
    });
}

fn point_in_polygon(points: &[(f64, f64)], x: f64, y: f64) -> bool {
    let mut inside = false;
    let mut j = points.len() - 1;
    for i in 0..points.len() {
        let (xi, yi) = points[i];
        let (xj, yj) = points[j];
        if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi {
            inside = !inside;
        }
        j = i;
    }
    inside
}

/// A straight segment of the given width with flat ends.
pub fn line(frame: &mut Frame, a: (f64, f64), b: (f64, f64), width: f64, color: Rgb) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = libm::sqrt(dx * dx + dy * dy);
    if len == 0.0 {
        return;
    }
    let (nx, ny) = (-dy / len * width / 2.0, dx / len * width / 2.0);
    fill_polygon(
        frame,
        &[
            (a.0 + nx, a.1 + ny),
            (b.0 + nx, b.1 + ny),
            (b.0 - nx, b.1 - ny),
            (a.0 - nx, a.1 - ny),
        ],
        color,
    );
}

/// Connected segments through `points`.
pub fn polyline(frame: &mut Frame, points: &[(f64, f64)], width: f64, color: Rgb) {
    for pair in points.windows(2) {
        line(frame, pair[0], pair[1], width, color);
    }
}

/// Rotates `(x, y)` by `angle` radians about the origin (counter-clockwise in y-up space).
pub fn rotate(x: f64, y: f64, angle: f64) -> (f64, f64) {
    let (s, c) = (libm::sin(angle), libm::cos(angle));
    (x * c - y * s, x * s + y * c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rect_on_integer_edges_is_exact() {
        let mut f = Frame::new(10, 10);
        fill_rect(&mut f, 2.0, 3.0, 5.0, 4.0, [255, 0, 0]);
        assert_eq!(f.get(2, 3), Some([255, 0, 0]));
        assert_eq!(f.get(4, 3), Some([255, 0, 0]));
        assert_eq!(f.get(5, 3), Some([0, 0, 0]));
        assert_eq!(f.get(2, 4), Some([0, 0, 0]));
    }

    #[test]
    fn circle_edges_are_blended() {
        let mut f = Frame::new(20, 20);
        fill_circle(&mut f, 10.0, 10.0, 5.0, [255, 255, 255]);
        assert_eq!(f.get(10, 10), Some([255, 255, 255]));
        assert_eq!(f.get(0, 0), Some([0, 0, 0]));
        let edge = f.get(14, 12).unwrap()[0];
        assert!(edge > 0 && edge < 255, "edge pixel {edge}");
    }

    #[test]
    fn shapes_clip_at_frame_edges() {
        let mut f = Frame::new(4, 4);
        fill_polygon(&mut f, &[(-5.0, -5.0), (10.0, -5.0), (10.0, 10.0)], [1, 2, 3]);
        assert_eq!(f.get(3, 0), Some([1, 2, 3]));
    }
}
