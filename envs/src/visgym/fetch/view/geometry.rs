//! The vector arithmetic of the views, in `f64` in fixed orders (native and wasm draw
//! the same bytes).

pub(super) type V3 = [f64; 3];

pub(super) fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
pub(super) fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
pub(super) fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
pub(super) fn scale(a: V3, s: f64) -> V3 {
    [a[0] * s, a[1] * s, a[2] * s]
}
pub(super) fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
pub(super) fn normalize(a: V3) -> V3 {
    let n = dot(a, a).sqrt();
    if n > 0.0 {
        scale(a, 1.0 / n)
    } else {
        a
    }
}
/// A row-major 3 × 3 matrix times a vector.
pub(super) fn rotate(m: &[f64; 9], p: V3) -> V3 {
    [
        dot([m[0], m[1], m[2]], p),
        dot([m[3], m[4], m[5]], p),
        dot([m[6], m[7], m[8]], p),
    ]
}
