//! Anti-aliased shape filling into a [`Frame`], shared by every environment's renderer.
//!
//! A scanline rasteriser: each pixel row is cut into four sub-rows, each shape reports
//! the x-intervals it covers on a sub-row, and the exact horizontal coverage of every
//! pixel is accumulated and blended over the frame. The cost is proportional to the
//! shape's rows and pixels, so big frames render fast enough for the browser.
//! Coordinates are in pixels, y down; pixel (x, y) covers [x, x+1) × [y, y+1).

use crate::core::frame::{Frame, Rgb};

const SUB_ROWS: usize = 4;

/// `fill_spans`'s coverage row and intervals; `fill_polygon`'s edges, active edges and
/// crossings.
type SpanBuffers = (Vec<f64>, Vec<(f64, f64)>);
type EdgeBuffers = (Vec<Edge>, Vec<Edge>, Vec<f64>);

thread_local! {
    /// Buffers of `fill_spans` and `fill_polygon` kept between calls: a frame of many
    /// small shapes would otherwise allocate a few times per shape.
    static SPAN_SCRATCH: std::cell::Cell<SpanBuffers> = Default::default();
    static EDGE_SCRATCH: std::cell::Cell<EdgeBuffers> = Default::default();
}

/// Fills the pixels of rows `y0..y1` by the coverage of the intervals `spans(y, out)`
/// pushes for each sub-row centre `y`.
fn fill_spans(
    frame: &mut Frame,
    (x0, y0, x1, y1): (f64, f64, f64, f64),
    color: Rgb,
    mut spans: impl FnMut(f64, &mut Vec<(f64, f64)>),
) {
    let (w, h) = (f64::from(frame.width()), f64::from(frame.height()));
    if !(x1 > 0.0 && y1 > 0.0 && x0 < w && y0 < h) {
        return;
    }
    let xs = x0.max(0.0).floor() as usize;
    let xe = x1.min(w).ceil() as usize; // exclusive
    let ys = y0.max(0.0).floor() as usize;
    let ye = y1.min(h).ceil() as usize;
    // Zero between rows; only the touched range `lo..hi` is read and cleared, so a thin
    // diagonal shape costs its pixels, not its bounding box.
    let (mut coverage, mut intervals) = SPAN_SCRATCH.with(|s| s.take());
    coverage.clear();
    coverage.resize(xe - xs, 0.0);
    intervals.clear();
    let weight = 1.0 / SUB_ROWS as f64;
    for py in ys..ye {
        let (mut lo, mut hi) = (usize::MAX, 0);
        for sub in 0..SUB_ROWS {
            let y = py as f64 + (sub as f64 + 0.5) * weight;
            intervals.clear();
            spans(y, &mut intervals);
            for &(l, r) in &intervals {
                let l = l.max(xs as f64);
                let r = r.min(xe as f64);
                if r <= l {
                    continue;
                }
                // Both are at least xs >= 0, where truncating is flooring.
                let (li, ri) = (l as usize, r as usize);
                lo = lo.min(li - xs);
                if li == ri {
                    coverage[li - xs] += (r - l) * weight;
                    hi = hi.max(li - xs + 1);
                    continue;
                }
                coverage[li - xs] += (li as f64 + 1.0 - l) * weight;
                for c in &mut coverage[li + 1 - xs..ri - xs] {
                    *c += weight;
                }
                if ri < xe {
                    coverage[ri - xs] += (r - ri as f64) * weight;
                    hi = hi.max(ri - xs + 1);
                } else {
                    hi = hi.max(ri - xs);
                }
            }
        }
        if lo >= hi {
            continue;
        }
        // Fully covered pixels are set a run at a time (a shape's interior is most of it).
        let mut run: Option<usize> = None;
        for (i, c) in coverage[lo..hi].iter_mut().enumerate() {
            let x = xs + lo + i;
            if *c >= 0.999 {
                run.get_or_insert(x);
            } else {
                if let Some(start) = run.take() {
                    frame.fill_rect(start as i64, py as i64, (x - start) as i64, 1, color);
                }
                if *c > 0.002 {
                    frame.blend(x as i64, py as i64, color, *c);
                }
            }
            *c = 0.0;
        }
        if let Some(start) = run {
            frame.fill_rect(start as i64, py as i64, (xs + hi - start) as i64, 1, color);
        }
    }
    SPAN_SCRATCH.with(|s| s.set((coverage, intervals)));
}

/// Sets the pixels of `[x0, x1) × [y0, y1)` (integer bounds) inside the frame.
fn fill_pixel_rect(frame: &mut Frame, x0: f64, y0: f64, x1: f64, y1: f64, color: Rgb) {
    let (w, h) = (f64::from(frame.width()), f64::from(frame.height()));
    let (xs, xe) = (x0.clamp(0.0, w) as usize, x1.clamp(0.0, w) as usize);
    let (ys, ye) = (y0.clamp(0.0, h) as usize, y1.clamp(0.0, h) as usize);
    if xs >= xe {
        return;
    }
    if ys >= ye {
        return;
    }
    let stride = frame.width() as usize * 3;
    let data = frame.data_mut();
    let first = ys * stride + xs * 3..ys * stride + xe * 3;
    if color[0] == color[1] && color[1] == color[2] {
        for y in ys..ye {
            data[y * stride + xs * 3..y * stride + xe * 3].fill(color[0]);
        }
        return;
    }
    for px in data[first.clone()].chunks_exact_mut(3) {
        px.copy_from_slice(&color);
    }
    for y in ys + 1..ye {
        data.copy_within(first.clone(), y * stride + xs * 3);
    }
}

/// An axis-aligned rectangle with corners (x0, y0) and (x1, y1), exact on integer edges.
pub fn fill_rect(frame: &mut Frame, x0: f64, y0: f64, x1: f64, y1: f64, color: Rgb) {
    let (ax, bx) = (x0.min(x1), x0.max(x1));
    let (ay, by) = (y0.min(y1), y0.max(y1));
    if [ax, bx, ay, by].iter().all(|v| v.fract() == 0.0) {
        // Whole pixels are covered exactly: the same pixels as the spans below, set
        // directly.
        fill_pixel_rect(frame, ax, ay, bx, by, color);
        return;
    }
    fill_spans(frame, (ax, ay, bx, by), color, |y, out| {
        if y >= ay && y < by {
            out.push((ax, bx));
        }
    });
}

pub fn fill_circle(frame: &mut Frame, cx: f64, cy: f64, r: f64, color: Rgb) {
    fill_spans(frame, (cx - r, cy - r, cx + r, cy + r), color, |y, out| {
        let dy = y - cy;
        if dy.abs() <= r {
            let half = f64::sqrt(r * r - dy * dy);
            out.push((cx - half, cx + half));
        }
    });
}

/// A ring between radii `r - width` and `r`.
pub fn stroke_circle(frame: &mut Frame, cx: f64, cy: f64, r: f64, width: f64, color: Rgb) {
    let inner = (r - width).max(0.0);
    fill_spans(frame, (cx - r, cy - r, cx + r, cy + r), color, |y, out| {
        let dy = y - cy;
        if dy.abs() > r {
            return;
        }
        let outer_half = f64::sqrt(r * r - dy * dy);
        if dy.abs() < inner {
            let inner_half = f64::sqrt(inner * inner - dy * dy);
            out.push((cx - outer_half, cx - inner_half));
            out.push((cx + inner_half, cx + outer_half));
        } else {
            out.push((cx - outer_half, cx + outer_half));
        }
    });
}

/// Any simple polygon (convex or not), by the even-odd rule. A sub-row looks only at
/// the edges that span it (sub-rows come top to bottom), so a polygon of many points
/// (an arc) costs its crossings, not its points, per sub-row.
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
    // Each edge from point j to the next, i, with the sub-rows y it crosses: exactly
    // one end below y, i.e. min(yi, yj) <= y < max(yi, yj). Horizontal edges cross none.
    let n = points.len();
    let (mut edges, mut active, mut crossings) = EDGE_SCRATCH.with(|s| s.take());
    edges.clear();
    active.clear();
    crossings.clear();
    edges.extend(
        (0..n)
            .map(|i| (points[i], points[(i + n - 1) % n]))
            .filter(|((_, yi), (_, yj))| yi != yj)
            .map(|(i, j)| Edge {
                i,
                j,
                top: i.1.min(j.1),
                bottom: i.1.max(j.1),
            }),
    );
    edges.sort_by(|a, b| a.top.total_cmp(&b.top));
    let mut next = 0;
    fill_spans(frame, (x0, y0, x1, y1), color, |y, out| {
        while next < edges.len() && edges[next].top <= y {
            active.push(edges[next]);
            next += 1;
        }
        active.retain(|e| e.bottom > y);
        crossings.clear();
        for &Edge {
            i: (xi, yi),
            j: (xj, yj),
            ..
        } in &active
        {
            // The same expression as over all edges, so the same pixels to the bit.
            crossings.push(xi + (y - yi) * (xj - xi) / (yj - yi));
        }
        crossings.sort_by(|a, b| a.total_cmp(b));
        for pair in crossings.chunks_exact(2) {
            out.push((pair[0], pair[1]));
        }
    });
    EDGE_SCRATCH.with(|s| s.set((edges, active, crossings)));
}

/// A polygon edge for [`fill_polygon`]: its ends and its extent in y.
#[derive(Clone, Copy)]
struct Edge {
    i: (f64, f64),
    j: (f64, f64),
    top: f64,
    bottom: f64,
}

/// A straight segment of the given width with flat ends.
pub fn line(frame: &mut Frame, a: (f64, f64), b: (f64, f64), width: f64, color: Rgb) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = f64::sqrt(dx * dx + dy * dy);
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

/// Connected segments through `points`, with round joints.
pub fn polyline(frame: &mut Frame, points: &[(f64, f64)], width: f64, color: Rgb) {
    for pair in points.windows(2) {
        line(frame, pair[0], pair[1], width, color);
    }
    if width > 2.0 {
        for &(x, y) in points.iter().skip(1).take(points.len().saturating_sub(2)) {
            fill_circle(frame, x, y, width / 2.0, color);
        }
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

    /// [`fill_polygon`] crossing every edge on every sub-row: what the edge list must
    /// reproduce pixel for pixel.
    fn fill_polygon_all_edges(frame: &mut Frame, points: &[(f64, f64)], color: Rgb) {
        let xs = points.iter().map(|p| p.0);
        let ys = points.iter().map(|p| p.1);
        let bounds = (
            xs.clone().fold(f64::MAX, f64::min),
            ys.clone().fold(f64::MAX, f64::min),
            xs.fold(f64::MIN, f64::max),
            ys.fold(f64::MIN, f64::max),
        );
        fill_spans(frame, bounds, color, |y, out| {
            let mut crossings = Vec::new();
            let mut j = points.len() - 1;
            for i in 0..points.len() {
                let ((xi, yi), (xj, yj)) = (points[i], points[j]);
                if (yi > y) != (yj > y) {
                    crossings.push(xi + (y - yi) * (xj - xi) / (yj - yi));
                }
                j = i;
            }
            crossings.sort_by(|a, b| a.total_cmp(b));
            for pair in crossings.chunks_exact(2) {
                out.push((pair[0], pair[1]));
            }
        });
    }

    #[test]
    fn polygons_fill_the_same_pixels_as_crossing_every_edge() {
        let mut rng = crate::rng::NpRandom::seeded(11);
        for case in 0..300 {
            // Stars, arcs and zig-zags, partly outside the frame, some with horizontal
            // edges and points on sub-row centres (eighths).
            let n = 3 + rng.index(60).expect("index");
            let points: Vec<(f64, f64)> = (0..n)
                .map(|_| {
                    let snap = |v: f64| {
                        if case % 3 == 0 {
                            (v * 8.0).round() / 8.0
                        } else {
                            v
                        }
                    };
                    (
                        snap(rng.uniform(-10.0, 70.0)),
                        snap(rng.uniform(-10.0, 70.0)),
                    )
                })
                .collect();
            let (mut ours, mut all) = (Frame::new(64, 64), Frame::new(64, 64));
            ours.fill([10, 20, 30]);
            all.fill([10, 20, 30]);
            fill_polygon(&mut ours, &points, [200, 100, 50]);
            fill_polygon_all_edges(&mut all, &points, [200, 100, 50]);
            assert!(ours == all, "case {case}: {points:?}");
        }
    }

    #[test]
    fn rect_on_integer_edges_is_exact() {
        let mut f = Frame::new(10, 10);
        fill_rect(&mut f, 2.0, 3.0, 5.0, 4.0, [255, 0, 0]);
        assert_eq!(f.get(2, 3), Some([255, 0, 0]));
        assert_eq!(f.get(4, 3), Some([255, 0, 0]));
        assert_eq!(f.get(5, 3), Some([0, 0, 0]));
        assert_eq!(f.get(1, 3), Some([0, 0, 0]));
        assert_eq!(f.get(2, 4), Some([0, 0, 0]));
    }

    #[test]
    fn half_covered_pixels_are_half_blended() {
        let mut f = Frame::new(4, 4);
        fill_rect(&mut f, 0.0, 0.0, 1.5, 4.0, [200, 200, 200]);
        assert_eq!(f.get(0, 0), Some([200, 200, 200]));
        assert_eq!(f.get(1, 0), Some([100, 100, 100]));
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
    fn ring_leaves_its_centre() {
        let mut f = Frame::new(20, 20);
        stroke_circle(&mut f, 10.0, 10.0, 8.0, 2.0, [255, 255, 255]);
        assert_eq!(f.get(10, 10), Some([0, 0, 0]));
        assert_eq!(f.get(10, 3), Some([255, 255, 255]));
    }

    #[test]
    fn concave_polygons_use_even_odd() {
        let mut f = Frame::new(10, 10);
        // A "U": the notch between x 3..7 above y 5 stays empty.
        let u = [
            (1.0, 1.0),
            (3.0, 1.0),
            (3.0, 5.0),
            (7.0, 5.0),
            (7.0, 1.0),
            (9.0, 1.0),
            (9.0, 9.0),
            (1.0, 9.0),
        ];
        fill_polygon(&mut f, &u, [9, 9, 9]);
        assert_eq!(f.get(5, 2), Some([0, 0, 0]));
        assert_eq!(f.get(2, 2), Some([9, 9, 9]));
        assert_eq!(f.get(5, 7), Some([9, 9, 9]));
    }

    #[test]
    fn shapes_clip_at_frame_edges() {
        let mut f = Frame::new(4, 4);
        fill_polygon(
            &mut f,
            &[(-5.0, -5.0), (10.0, -5.0), (10.0, 10.0)],
            [1, 2, 3],
        );
        assert_eq!(f.get(3, 0), Some([1, 2, 3]));
        fill_circle(&mut f, -100.0, -100.0, 3.0, [1, 1, 1]);
    }
}
