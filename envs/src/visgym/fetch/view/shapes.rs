//! The triangles the views draw: the model's meshes with MuJoCo's normals, and its
//! built-in geom types tessellated as MuJoCo tessellates them.

use std::collections::BTreeMap;
use std::f64::consts::PI;

use serde_json::Value;

use super::geometry::{cross, dot, normalize, sub, V3};
use super::scene::{index, integers, numbers, triple, SceneError};

/// MuJoCo's tessellation of its built-in round shapes (`vis.quality` defaults).
pub(super) const SLICES: usize = 28;
pub(super) const STACKS: usize = 16;
/// MuJoCo's renderer gives a mesh triangle's corner the face's own normal where the
/// vertex normal's cosine with it is below this (sharp edges, the odd inverted normal);
/// with it our pictures went from 2.1 to 0.18 mean difference from the reference's.
pub(super) const FLAT: f64 = 0.8;

/// Triangles in an object's own frame, counter-clockwise seen from outside.
#[derive(Clone, Debug, Default)]
pub(super) struct Shape {
    pub(super) pos: Vec<V3>,
    pub(super) nrm: Vec<V3>,
    pub(super) tri: Vec<[u32; 3]>,
    /// The largest distance of a vertex from the frame's origin.
    pub(super) radius: f64,
}

/// One shape per mesh (`mesh_normal` by `mesh_facenormal`, see [`FLAT`]), a vertex per
/// distinct position and normal.
pub(super) fn meshes(v: &Value) -> Result<Vec<Shape>, SceneError> {
    let (vert, normal) = (numbers(v, "mesh_vert")?, numbers(v, "mesh_normal")?);
    let (face, facenormal) = (integers(v, "mesh_face")?, integers(v, "mesh_facenormal")?);
    let adr = ["vertadr", "vertnum", "faceadr", "facenum", "normaladr"]
        .map(|k| integers(v, &format!("mesh_{k}")));
    let [vadr, vnum, fadr, fnum, nadr] = adr;
    let (vadr, vnum, fadr, fnum, nadr) = (vadr?, vnum?, fadr?, fnum?, nadr?);
    let mut out = Vec::with_capacity(vadr.len());
    for m in 0..vadr.len() {
        let at = |l: &[i64]| index(l, m, usize::MAX, "mesh addresses");
        let (va, vn, fa, nf, na) = (at(&vadr)?, at(&vnum)?, at(&fadr)?, at(&fnum)?, at(&nadr)?);
        let mut shape = Shape::default();
        let mut ids = BTreeMap::new();
        for f in fa..fa.saturating_add(nf) {
            let mut c = [(0, 0, [0.0; 3]); 3];
            for (k, ck) in c.iter_mut().enumerate() {
                let vi = index(&face, 3 * f + k, vn, "mesh_face")?;
                let ni = index(&facenormal, 3 * f + k, usize::MAX, "mesh_facenormal")?;
                *ck = (vi, ni, triple(&vert, va + vi, "mesh_vert")?);
            }
            let flat = normalize(cross(sub(c[1].2, c[0].2), sub(c[2].2, c[0].2)));
            let mut t = [0u32; 3];
            for ((vi, ni, p), tk) in c.into_iter().zip(&mut t) {
                let mut n = triple(&normal, na.saturating_add(ni), "mesh_normal")?;
                let own = dot(n, flat) < FLAT;
                if own {
                    n = flat;
                }
                *tk = *ids
                    .entry((vi, ni, if own { f } else { usize::MAX }))
                    .or_insert_with(|| {
                        shape.pos.push(p);
                        shape.nrm.push(n);
                        (shape.pos.len() - 1) as u32
                    });
            }
            shape.tri.push(t);
        }
        shape.radius = radius(&shape.pos);
        out.push(shape);
    }
    Ok(out)
}

pub(super) fn radius(pos: &[V3]) -> f64 {
    pos.iter().fold(0.0, |r: f64, p| r.max(dot(*p, *p).sqrt()))
}

/// A built-in geom type (MuJoCo's `mjtGeom` numbers) at its size; `far` stands in for an
/// infinite plane's half-size.
pub(super) fn builtin(kind: i64, s: V3, far: f64) -> Option<Shape> {
    let mut sh = Shape::default();
    // Profiles (ρ, z, normal ρ, normal z) of round shapes, turned about z.
    let arc = |i: usize, dz: f64| {
        let th = PI * i as f64 / STACKS as f64;
        let (st, ct) = (libm::sin(th), libm::cos(th));
        [st, ct + dz, st, ct]
    };
    let sphere: Vec<_> = (0..=STACKS).map(|i| arc(i, 0.0)).collect();
    match kind {
        0 => {
            let h = |x: f64| if x > 0.0 { x } else { far };
            let (x, y) = (h(s[0]), h(s[1]));
            quad(
                &mut sh,
                [[-x, -y, 0.0], [x, -y, 0.0], [x, y, 0.0], [-x, y, 0.0]],
                [0.0, 0.0, 1.0],
            );
        }
        2 => lathe(&mut sh, [s[0]; 3], &sphere),
        // A capsule: the sphere cut at its equator, the halves moved apart.
        3 => {
            let d = s[1] / s[0];
            let p: Vec<_> = (0..=STACKS / 2)
                .map(|i| arc(i, d))
                .chain((STACKS / 2..=STACKS).map(|i| arc(i, -d)))
                .collect();
            lathe(&mut sh, [s[0]; 3], &p);
        }
        4 => lathe(&mut sh, s, &sphere),
        5 => {
            let p = [
                [0.0, 1.0, 0.0, 1.0],
                [1.0, 1.0, 0.0, 1.0],
                [1.0, 1.0, 1.0, 0.0],
            ];
            let p = [
                p[0],
                p[1],
                p[2],
                [1.0, -1.0, 1.0, 0.0],
                [1.0, -1.0, 0.0, -1.0],
                [0.0, -1.0, 0.0, -1.0],
            ];
            lathe(&mut sh, [s[0], s[0], s[1]], &p);
        }
        6 => {
            for (a, sign) in [0, 1, 2].into_iter().flat_map(|a| [(a, 1.0), (a, -1.0)]) {
                let (b, c) = ((a + 1) % 3, (a + 2) % 3);
                let corner = |u: f64, w: f64| {
                    let mut p = [0.0; 3];
                    (p[a], p[b], p[c]) = (sign * s[a], u * s[b], w * sign * s[c]);
                    p
                };
                let mut n = [0.0; 3];
                n[a] = sign;
                quad(
                    &mut sh,
                    [
                        corner(-1.0, -1.0),
                        corner(1.0, -1.0),
                        corner(1.0, 1.0),
                        corner(-1.0, 1.0),
                    ],
                    n,
                );
            }
        }
        _ => return None,
    }
    sh.radius = radius(&sh.pos);
    Some(sh)
}

pub(super) fn quad(sh: &mut Shape, corners: [V3; 4], n: V3) {
    let o = sh.pos.len() as u32;
    sh.pos.extend(corners);
    sh.nrm.extend([n; 4]);
    sh.tri.extend([[o, o + 1, o + 2], [o, o + 2, o + 3]]);
}

/// A surface of revolution about z from a profile top to bottom (ρ, z, normal ρ,
/// normal z), scaled by `s` (normals by its inverse): rings of `SLICES + 1` vertices
/// (the seam repeated), joined.
pub(super) fn lathe(sh: &mut Shape, s: V3, profile: &[[f64; 4]]) {
    let first = sh.pos.len() as u32;
    for q in profile {
        for j in 0..=SLICES {
            let ph = 2.0 * PI * j as f64 / SLICES as f64;
            let (c, si) = (libm::cos(ph), libm::sin(ph));
            sh.pos
                .push([s[0] * q[0] * c, s[1] * q[0] * si, s[2] * q[1]]);
            sh.nrm
                .push(normalize([q[2] * c / s[0], q[2] * si / s[1], q[3] / s[2]]));
        }
    }
    let ring = SLICES as u32 + 1;
    for k in 0..profile.len().saturating_sub(1) as u32 {
        for j in 0..SLICES as u32 {
            let a = first + k * ring + j;
            sh.tri
                .extend([[a, a + ring, a + ring + 1], [a, a + ring + 1, a + 1]]);
        }
    }
}
