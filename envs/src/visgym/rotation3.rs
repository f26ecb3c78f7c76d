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
