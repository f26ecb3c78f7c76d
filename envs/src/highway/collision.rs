//! Collisions between cars: a distance pre-check, then the separating-axis test on the two
//! rectangles moved by one step of their velocities. "Will intersect" pushes both cars
//! apart at their next integration; "intersecting" crashes both now.

use crate::rng::glibc_trig;

use super::numeric::{dot2, norm2};
use super::vehicle::{Vehicle, LENGTH, WIDTH};

/// The car's rectangle, corners (−,−), (−,+), (+,+), (+,−) and the first again.
fn polygon(v: &Vehicle) -> [[f64; 2]; 5] {
    let (c, s) = (glibc_trig::cos(v.heading), glibc_trig::sin(v.heading));
    let (hl, hw) = (LENGTH / 2.0, WIDTH / 2.0);
    let corners = [[-hl, -hw], [-hl, hw], [hl, hw], [hl, -hw]];
    let mut out = [[0.0; 2]; 5];
    for (k, [px, py]) in corners.into_iter().enumerate() {
        // The rotation is a matrix product (OpenBLAS: second product fused).
        let x = libm::fma(-s, py, c * px);
        let y = libm::fma(c, py, s * px);
        out[k] = [x + v.position[0], y + v.position[1]];
    }
    out[4] = out[0];
    out
}

fn project(polygon: &[[f64; 2]; 5], axis: [f64; 2]) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for (k, p) in polygon.iter().enumerate() {
        let d = dot2(*p, axis);
        if k == 0 || d < lo {
            lo = d;
        }
        if k == 0 || d > hi {
            hi = d;
        }
    }
    (lo, hi)
}

fn interval_distance(min_a: f64, max_a: f64, min_b: f64, max_b: f64) -> f64 {
    if min_a < min_b {
        min_b - max_a
    } else {
        min_a - max_b
    }
}

fn centre(polygon: &[[f64; 2]; 5]) -> [f64; 2] {
    let mut sum = [0.0, 0.0];
    for p in &polygon[..4] {
        sum = [sum[0] + p[0], sum[1] + p[1]];
    }
    [sum[0] / 4.0, sum[1] / 4.0]
}

/// (intersecting, will intersect, translation) of polygons `a`, `b` moving by their
/// displacements.
fn polygons_intersecting(
    a: &[[f64; 2]; 5],
    b: &[[f64; 2]; 5],
    displacement_a: [f64; 2],
    displacement_b: [f64; 2],
) -> (bool, bool, Option<[f64; 2]>) {
    let (mut intersecting, mut will_intersect) = (true, true);
    let mut min_distance = f64::INFINITY;
    let mut translation_axis = [0.0, 0.0];
    for polygon in [a, b] {
        for edge in polygon.windows(2) {
            let (p1, p2) = (edge[0], edge[1]);
            let raw = [-p2[1] + p1[1], p2[0] - p1[0]];
            let length = norm2(raw);
            let normal = [raw[0] / length, raw[1] / length];
            let (mut min_a, mut max_a) = project(a, normal);
            let (min_b, max_b) = project(b, normal);
            if interval_distance(min_a, max_a, min_b, max_b) > 0.0 {
                intersecting = false;
            }
            let relative = [
                displacement_a[0] - displacement_b[0],
                displacement_a[1] - displacement_b[1],
            ];
            let velocity_projection = dot2(normal, relative);
            if velocity_projection < 0.0 {
                min_a += velocity_projection;
            } else {
                max_a += velocity_projection;
            }
            let distance = interval_distance(min_a, max_a, min_b, max_b);
            if distance > 0.0 {
                will_intersect = false;
            }
            if !intersecting && !will_intersect {
                break;
            }
            if distance.abs() < min_distance {
                min_distance = distance.abs();
                let (ca, cb) = (centre(a), centre(b));
                let d = [ca[0] - cb[0], ca[1] - cb[1]];
                translation_axis = if dot2(d, normal) > 0.0 {
                    normal
                } else {
                    [-normal[0], -normal[1]]
                };
            }
        }
    }
    let translation = will_intersect.then(|| {
        [
            min_distance * translation_axis[0],
            min_distance * translation_axis[1],
        ]
    });
    (intersecting, will_intersect, translation)
}

/// `cars[i].handle_collisions(cars[j], dt)`.
pub fn handle_collision(cars: &mut [Vehicle], i: usize, j: usize, dt: f64) {
    let (a, b) = (&cars[i], &cars[j]);
    if !(a.check_collisions || b.check_collisions) {
        return;
    }
    let gap = [b.position[0] - a.position[0], b.position[1] - a.position[1]];
    let diagonal = f64::sqrt(LENGTH * LENGTH + WIDTH * WIDTH);
    if norm2(gap) > (diagonal + diagonal) / 2.0 + a.speed * dt {
        return;
    }
    let (va, vb) = (a.velocity(), b.velocity());
    let (intersecting, will_intersect, translation) = polygons_intersecting(
        &polygon(a),
        &polygon(b),
        [va[0] * dt, va[1] * dt],
        [vb[0] * dt, vb[1] * dt],
    );
    if let (true, Some(t)) = (will_intersect, translation) {
        cars[i].impact = Some([t[0] / 2.0, t[1] / 2.0]);
        cars[j].impact = Some([-t[0] / 2.0, -t[1] / 2.0]);
    }
    if intersecting {
        cars[i].crashed = true;
        cars[j].crashed = true;
    }
}
