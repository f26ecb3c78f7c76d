//! Drawing the way the reference's pygame code does: shapes are given in pygame pixel
//! coordinates of a y-up world, and the surface is flipped vertically at the end.

use crate::core::frame::{Frame, Rgb};
use crate::render::raster;

pub const WHITE: Rgb = [255, 255, 255];
pub const BLACK: Rgb = [0, 0, 0];

/// A white frame of the given size whose drawing calls take pygame coordinates
/// (pixel indices, y up) and land where gymnasium's flipped `rgb_array` has them.
pub struct Canvas<'a> {
    frame: &'a mut Frame,
    height: f64,
}

impl<'a> Canvas<'a> {
    pub fn new(frame: &'a mut Frame, width: u32, height: u32) -> Self {
        frame.resize(width, height);
        frame.fill(WHITE);
        Self {
            frame,
            height: f64::from(height),
        }
    }

    /// A canvas over a copy of `background` (a frame drawn earlier and cached).
    pub fn over(frame: &'a mut Frame, background: &Frame) -> Self {
        frame.copy_from(background);
        let height = f64::from(background.height());
        Self { frame, height }
    }

    /// A pygame coordinate → the centre of the same pixel after the vertical flip.
    fn map(&self, (x, y): (f64, f64)) -> (f64, f64) {
        (x + 0.5, self.height - y - 0.5)
    }

    /// `gfxdraw.filled_polygon` + `aapolygon` of a convex polygon: pygame truncates the
    /// vertices to whole pixels and fills the pixels on the outline too, so the shape
    /// is grown by half a pixel around the truncated vertices.
    pub fn polygon(&mut self, points: &[(f64, f64)], color: Rgb) {
        let snapped: Vec<(f64, f64)> = points
            .iter()
            .map(|&(x, y)| (x.trunc(), y.trunc()))
            .collect();
        self.shape(&grow_convex(&snapped, 0.5), color);
    }

    /// Any simple polygon exactly as given (our own shapes, no pygame emulation).
    pub fn shape(&mut self, points: &[(f64, f64)], color: Rgb) {
        let mapped: Vec<(f64, f64)> = points.iter().map(|&p| self.map(p)).collect();
        raster::fill_polygon(self.frame, &mapped, color);
    }

    /// `gfxdraw.filled_circle` + `aacircle`: integer centre and radius, covering the
    /// pixels within `r` of the centre pixel.
    pub fn circle(&mut self, cx: f64, cy: f64, r: f64, color: Rgb) {
        let (x, y) = self.map((cx.trunc(), cy.trunc()));
        raster::fill_circle(self.frame, x, y, r.trunc() + 0.5, color);
    }

    /// A one-pixel horizontal line in pixel row `y` (pygame's `hline`/`line`).
    pub fn hline(&mut self, x0: f64, x1: f64, y: f64, color: Rgb) {
        let row = self.height - 1.0 - y.trunc();
        raster::fill_rect(self.frame, x0, row, x1 + 1.0, row + 1.0, color);
    }

    /// A one-pixel vertical line in pixel column `x` from row `y0` to `y1` inclusive.
    pub fn vline(&mut self, x: f64, y0: f64, y1: f64, color: Rgb) {
        let (lo, hi) = (y0.min(y1).trunc(), y0.max(y1).trunc());
        let x = x.trunc();
        raster::fill_rect(
            self.frame,
            x,
            self.height - 1.0 - hi,
            x + 1.0,
            self.height - lo,
            color,
        );
    }

    /// Connected segments of the given width.
    pub fn polyline(&mut self, points: &[(f64, f64)], width: f64, color: Rgb) {
        let mapped: Vec<(f64, f64)> = points.iter().map(|&p| self.map(p)).collect();
        raster::polyline(self.frame, &mapped, width, color);
    }
}

/// Moves every edge of a convex polygon outwards by `d` (vertices along the bisector).
fn grow_convex(points: &[(f64, f64)], d: f64) -> Vec<(f64, f64)> {
    let n = points.len();
    if n < 3 {
        return points.to_vec();
    }
    let area2: f64 = (0..n)
        .map(|i| {
            let (a, b) = (points[i], points[(i + 1) % n]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum();
    let orient = if area2 < 0.0 { -1.0 } else { 1.0 };
    // Outward unit normal of the edge from a to b.
    let normal = |a: (f64, f64), b: (f64, f64)| {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = f64::sqrt(dx * dx + dy * dy);
        if len == 0.0 {
            None
        } else {
            Some((orient * dy / len, -orient * dx / len))
        }
    };
    (0..n)
        .map(|i| {
            let prev = points[(i + n - 1) % n];
            let cur = points[i];
            let next = points[(i + 1) % n];
            match (normal(prev, cur), normal(cur, next)) {
                (Some(n1), Some(n2)) => {
                    let k = d / (1.0 + n1.0 * n2.0 + n1.1 * n2.1).max(0.1);
                    (cur.0 + (n1.0 + n2.0) * k, cur.1 + (n1.1 + n2.1) * k)
                }
                _ => cur,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grown_square_covers_its_outline_pixels() {
        let mut frame = Frame::default();
        let mut canvas = Canvas::new(&mut frame, 10, 10);
        // pygame fills pixel columns 2..=5 and rows 3..=6 (y up, so frame rows 3..=6).
        canvas.polygon(&[(2.0, 3.0), (5.0, 3.0), (5.0, 6.0), (2.0, 6.0)], BLACK);
        assert_eq!(frame.get(2, 6), Some(BLACK));
        assert_eq!(frame.get(5, 3), Some(BLACK));
        assert_eq!(frame.get(6, 6), Some(WHITE));
        assert_eq!(frame.get(2, 7), Some(WHITE));
    }
}
