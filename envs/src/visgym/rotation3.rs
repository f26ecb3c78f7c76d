//! 3×3 rotations as the reference computes them (trimesh's `euler_matrix` and
//! `euler_from_matrix` with static z-y-x axes, numpy's matrix product).

pub type Mat3 = [[f64; 3]; 3];

pub const IDENTITY: Mat3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

/// `euler_matrix(a, b, c, axes='szyx')[:3, :3]`, term for term.
pub fn euler_szyx(a: f64, b: f64, c: f64) -> Mat3 {
    let (ai, aj, ak) = (-a, -b, -c);
    let (si, sj, sk) = (libm::sin(ai), libm::sin(aj), libm::sin(ak));
    let (ci, cj, ck) = (libm::cos(ai), libm::cos(aj), libm::cos(ak));
    let (cc, cs) = (ci * ck, ci * sk);
    let (sc, ss) = (si * ck, si * sk);
    let mut m = IDENTITY;
    m[2][2] = cj * ck;
    m[2][1] = sj * sc - cs;
    m[2][0] = sj * cc + ss;
    m[1][2] = cj * sk;
    m[1][1] = sj * ss + cc;
    m[1][0] = sj * cs - sc;
    m[0][2] = -sj;
    m[0][1] = cj * si;
    m[0][0] = cj * ci;
    m
}

/// `euler_from_matrix(m, axes='szyx')`: (yaw, pitch, roll).
pub fn euler_from_szyx(m: &Mat3) -> (f64, f64, f64) {
    const EPS: f64 = f64::EPSILON * 4.0;
    let cy = f64::sqrt(m[2][2] * m[2][2] + m[1][2] * m[1][2]);
    let (ax, ay, az) = if cy > EPS {
        (
            libm::atan2(m[0][1], m[0][0]),
            libm::atan2(-m[0][2], cy),
            libm::atan2(m[1][2], m[2][2]),
        )
    } else {
        (
            libm::atan2(-m[1][0], m[1][1]),
            libm::atan2(-m[0][2], cy),
            0.0,
        )
    };
    (-ax, -ay, -az)
}

/// `np.deg2rad` for float64: `x · (π/180)`.
pub fn deg2rad(x: f64) -> f64 {
    x * (std::f64::consts::PI / 180.0)
}

/// `np.rad2deg` for float64: `x · (180/π)`.
pub fn rad2deg(x: f64) -> f64 {
    x * (180.0 / std::f64::consts::PI)
}

pub fn mul(a: &Mat3, b: &Mat3) -> Mat3 {
    let mut out = [[0.0; 3]; 3];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
        }
    }
    out
}

pub fn transpose(a: &Mat3) -> Mat3 {
    let mut out = [[0.0; 3]; 3];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = a[j][i];
        }
    }
    out
}

/// The geodesic angle of a rotation: `arccos((clip(trace, -1, 3) - 1) / 2)`.
pub fn angle(m: &Mat3) -> f64 {
    let trace = (m[0][0] + m[1][1] + m[2][2]).clamp(-1.0, 3.0);
    libm::acos((trace - 1.0) / 2.0)
}

/// trimesh's `rotation_from_matrix`: the rotation's angle and unit axis, with the angle's
/// sign read against the axis as trimesh does (its axis comes from an eigenvector, whose
/// sign is arbitrary; the pair describes the same rotation either way). `None` for a
/// matrix without a fixed axis.
pub fn axis_angle(m: &Mat3) -> Option<(f64, [f64; 3])> {
    // The axis spans the null space of R − I: the longest cross product of its rows.
    let r: Vec<[f64; 3]> = (0..3)
        .map(|i| [0, 1, 2].map(|j| m[i][j] - if i == j { 1.0 } else { 0.0 }))
        .collect();
    let cross = |a: [f64; 3], b: [f64; 3]| {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    };
    let norm = |v: [f64; 3]| f64::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    let candidates = [cross(r[0], r[1]), cross(r[0], r[2]), cross(r[1], r[2])];
    let best = candidates
        .into_iter()
        .max_by(|a, b| norm(*a).total_cmp(&norm(*b)))?;
    let n = norm(best);
    // No single axis: the identity (any axis; trimesh's first eigenvector is x).
    let d = if n > 1e-12 {
        best.map(|v| v / n)
    } else {
        [1.0, 0.0, 0.0]
    };
    let cosa = (m[0][0] + m[1][1] + m[2][2] - 1.0) / 2.0;
    let sina = if d[2].abs() > 1e-8 {
        (m[1][0] + (cosa - 1.0) * d[0] * d[1]) / d[2]
    } else if d[1].abs() > 1e-8 {
        (m[0][2] + (cosa - 1.0) * d[0] * d[2]) / d[1]
    } else {
        (m[2][1] + (cosa - 1.0) * d[1] * d[2]) / d[0]
    };
    let angle = libm::atan2(sina, cosa);
    angle.is_finite().then_some((angle, d))
}

/// trimesh's `rotation_matrix(angle, direction)` (3×3 part).
pub fn about_axis(angle: f64, direction: [f64; 3]) -> Mat3 {
    let (s, c) = (libm::sin(angle), libm::cos(angle));
    let n = f64::sqrt(direction.iter().map(|v| v * v).sum());
    let d = direction.map(|v| v / n);
    let mut m = [[0.0; 3]; 3];
    for (i, row) in m.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = d[i] * d[j] * (1.0 - c) + if i == j { c } else { 0.0 };
        }
    }
    let (x, y, z) = (d[0] * s, d[1] * s, d[2] * s);
    m[0][1] -= z;
    m[0][2] += y;
    m[1][0] += z;
    m[1][2] -= x;
    m[2][0] -= y;
    m[2][1] += x;
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_and_angle_rebuild_the_rotation() {
        for (a, b, c) in [
            (0.3, -1.2, 2.5),
            (3.0, 0.1, -0.2),
            (0.0, 0.0, 3.1),
            (1.0, 1.0, 1.0),
        ] {
            let m = euler_szyx(a, b, c);
            let (angle, axis) = axis_angle(&m).unwrap();
            let back = about_axis(angle, axis);
            for i in 0..3 {
                for j in 0..3 {
                    assert!((back[i][j] - m[i][j]).abs() < 1e-12, "{a} {b} {c}");
                }
            }
        }
    }
}
