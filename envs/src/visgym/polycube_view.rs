//! Drawing a polycube as the Cube task's panels show it: matplotlib's 3-D view from
//! elevation 30°, azimuth 45°, equal axes over all coordinates with its 4:4:3 box,
//! faces shaded `gray(1 − (0.2 + 0.8·max(n_z, 0)))` (faces turned up are dark),
//! thin black edges, far faces first.

use super::rotation3::Mat3;
use crate::core::frame::Frame;
use crate::render::raster;

const ELEV: f64 = 30.0;
const AZIM: f64 = 45.0;

/// A face ready to draw: its mean depth, screen corners and gray level.
type Drawn = (f64, Vec<(f64, f64)>, u8);

struct Face {
    corners: [[f64; 3]; 4],
    normal: [f64; 3],
}

fn rotate(m: &Mat3, v: [f64; 3]) -> [f64; 3] {
    [
        m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
        m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
        m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
    ]
}

/// The outer faces of unit cubes centred on `cubes`, centred on their mean.
fn faces(cubes: &[(i64, i64, i64)], rot: &Mat3) -> Vec<Face> {
    let n = cubes.len().max(1) as f64;
    let c = cubes.iter().fold([0.0; 3], |acc, &(x, y, z)| {
        [acc[0] + x as f64, acc[1] + y as f64, acc[2] + z as f64]
    });
    let centre = [c[0] / n, c[1] / n, c[2] / n];
    let mut out = Vec::new();
    for &(x, y, z) in cubes {
        for axis in 0..3 {
            for sign in [-1i64, 1] {
                let mut nb = [x, y, z];
                nb[axis] += sign;
                if cubes.contains(&(nb[0], nb[1], nb[2])) {
                    continue;
                }
                let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
                let mut corners = [[0.0; 3]; 4];
                for (k, (du, dv)) in [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
                    .into_iter()
                    .enumerate()
                {
                    let mut p = [
                        x as f64 - centre[0],
                        y as f64 - centre[1],
                        z as f64 - centre[2],
                    ];
                    p[axis] += 0.5 * sign as f64;
                    p[u] += du;
                    p[v] += dv;
                    corners[k] = rotate(rot, p);
                }
                let mut normal = [0.0; 3];
                normal[axis] = sign as f64;
                out.push(Face {
                    corners,
                    normal: rotate(rot, normal),
                });
            }
        }
    }
    out
}

/// Draws one panel (`size`×`size`) with its top-left corner at `x0`.
pub fn draw_polycube(frame: &mut Frame, x0: f64, size: f64, cubes: &[(i64, i64, i64)], rot: &Mat3) {
    let faces = faces(cubes, rot);
    if faces.is_empty() {
        return;
    }
    // Equal limits over every coordinate of every vertex (`auto_scale_xyz` of all).
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for f in &faces {
        for p in &f.corners {
            for &v in p {
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
    }
    let span = (hi - lo).max(1e-9);
    let mid = (hi + lo) / 2.0;
    // Matplotlib's default box aspect 4:4:3 squeezes z.
    let to_box = |p: [f64; 3]| {
        [
            (p[0] - mid) / span,
            (p[1] - mid) / span,
            (p[2] - mid) / span * 0.75,
        ]
    };
    let (e, a) = (ELEV.to_radians(), AZIM.to_radians());
    let (se, ce, sa, ca) = (libm::sin(e), libm::cos(e), libm::sin(a), libm::cos(a));
    let view = [ce * ca, ce * sa, se];
    let right = [-sa, ca, 0.0];
    let up = [-se * ca, -se * sa, ce];
    let dist = 10.0 / 4.0;
    let dot = |p: [f64; 3], q: [f64; 3]| p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
    let project = |p: [f64; 3]| {
        let b = to_box(p);
        let depth = dist - dot(b, view);
        (
            dot(b, right) / depth * dist,
            dot(b, up) / depth * dist,
            depth,
        )
    };
    // Matplotlib leaves the object at about this share of the panel.
    let scale = size * 0.45;
    let (cx, cy) = (x0 + size * 0.5125, size * 0.505);
    let mut drawn: Vec<Drawn> = faces
        .iter()
        .map(|f| {
            let pts: Vec<(f64, f64, f64)> = f.corners.iter().map(|&p| project(p)).collect();
            let depth = pts.iter().map(|p| p.2).sum::<f64>() / 4.0;
            let screen = pts
                .iter()
                .map(|p| (cx + p.0 * scale, cy - p.1 * scale))
                .collect();
            let len = f64::sqrt(dot(f.normal, f.normal)).max(1e-12);
            let intensity = 0.2 + 0.8 * (f.normal[2] / len).clamp(0.0, 1.0);
            let gray = ((1.0 - intensity) * 255.0).round() as u8;
            (depth, screen, gray)
        })
        .collect();
    drawn.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (_, pts, gray) in &drawn {
        raster::fill_polygon(frame, pts, [*gray, *gray, *gray]);
        // Each square is two triangles in the reference's mesh: edges and a diagonal.
        let mut ring = pts.clone();
        ring.push(pts[0]);
        ring.push(pts[2]);
        raster::polyline(frame, &ring, 0.6, [0, 0, 0]);
    }
}
