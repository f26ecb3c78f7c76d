//! The Fetch observation image (docs/fetch-reference.md §4): the front and follow views
//! side by side, drawn by a small software rasteriser because MuJoCo's npm module has no
//! renderer. It reproduces what MuJoCo's default visualisation shows of the Fetch models
//! (§4.2): geoms and sites of groups 0-2 with alpha > 0, without the mocap body's geoms
//! (VisGym hides them), colours as MuJoCo picks them, OpenGL's fixed-function lighting per
//! vertex (headlight and directional lights, one-sided, specular with a local viewer) on
//! MuJoCo's mesh normals, back faces culled, the gradient skybox behind, and 4 samples
//! per pixel averaged (the reference's 4× MSAA). Left out, as the Fetch models do not use
//! them: textures, shadows (no shadow-casting light), reflections (reflectance 0), haze
//! (a finite floor), spot lights. Everything is `f64` through `libm`, in fixed orders, so
//! native and wasm builds draw the same bytes.

use std::collections::BTreeMap;
use std::f64::consts::PI;

use serde_json::Value;

use super::env::{Camera, Kinematics};
use crate::core::frame::Frame;

pub const WIDTH: u32 = 960;
pub const HEIGHT: u32 = 480;
/// Each view is a square half of the image.
const SIDE: usize = 480;
/// The follow view's free camera: azimuth, elevation (degrees), distance (§4.1).
const FOLLOW: [f64; 3] = [200.0, -65.0, 0.36];
/// Sample positions in a pixel (x right, y down): the usual 4× multisampling pattern.
const SAMPLES: [[f64; 2]; 4] = [
    [0.375, 0.125],
    [0.875, 0.375],
    [0.125, 0.625],
    [0.625, 0.875],
];
/// Below this alpha MuJoCo draws a geom as transparent (blended, after the opaque ones).
const OPAQUE: f64 = 0.995;
/// MuJoCo's tessellation of its built-in round shapes (`vis.quality` defaults).
const SLICES: usize = 28;
const STACKS: usize = 16;
/// MuJoCo's renderer gives a mesh triangle's corner the face's own normal where the
/// vertex normal's cosine with it is below this (sharp edges, the odd inverted normal);
/// with it our pictures went from 2.1 to 0.18 mean difference from the reference's.
const FLAT: f64 = 0.8;

/// Why a scene description cannot be drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneError(pub String);

impl std::fmt::Display for SceneError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the Fetch scene: {}", self.0)
    }
}

impl std::error::Error for SceneError {}

type V3 = [f64; 3];

#[derive(Clone, Copy, Debug)]
struct Light {
    /// Towards the light (against the direction it shines in).
    to: V3,
    ambient: V3,
    diffuse: V3,
    specular: V3,
}

/// Triangles in an object's own frame, counter-clockwise seen from outside.
#[derive(Clone, Debug, Default)]
struct Shape {
    pos: Vec<V3>,
    nrm: Vec<V3>,
    tri: Vec<[u32; 3]>,
    /// The largest distance of a vertex from the frame's origin.
    radius: f64,
}

/// A geom or site to draw, with the material values the lighting uses.
#[derive(Clone, Debug)]
struct Item {
    geom: bool,
    id: usize,
    shape: usize,
    rgba: [f64; 4],
    specular: f64,
    shininess: f64,
    emission: f64,
}

/// The model's drawable content, parsed once from `Description.scene`.
#[derive(Clone, Debug)]
pub struct Scene {
    fovy: f64,
    znear: f64,
    headlight: Light,
    lights: Vec<Light>,
    /// The skybox's corner texels (0-255) at the top and bottom; none: black.
    sky: Option<[V3; 2]>,
    shapes: Vec<Shape>,
    /// Geoms, then sites, in model order.
    items: Vec<Item>,
}

fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, SceneError> {
    v.get(key).ok_or_else(|| SceneError(format!("no {key}")))
}

fn list<T>(v: &Value, key: &str, f: fn(&Value) -> Option<T>) -> Result<Vec<T>, SceneError> {
    let bad = || SceneError(format!("{key} is not a list of numbers"));
    let items = field(v, key)?.as_array().ok_or_else(bad)?;
    items.iter().map(|x| f(x).ok_or_else(bad)).collect()
}

fn numbers(v: &Value, key: &str) -> Result<Vec<f64>, SceneError> {
    list(v, key, Value::as_f64)
}

fn integers(v: &Value, key: &str) -> Result<Vec<i64>, SceneError> {
    list(v, key, Value::as_i64)
}

/// Entry `i` of a list of triples.
fn triple(list: &[f64], i: usize, what: &str) -> Result<V3, SceneError> {
    match list.get(3 * i..3 * i + 3) {
        Some(s) => Ok([s[0], s[1], s[2]]),
        None => Err(SceneError(format!("{what} has no entry {i}"))),
    }
}

/// `list[i]` as an index below `len`.
fn index(list: &[i64], i: usize, len: usize, what: &str) -> Result<usize, SceneError> {
    match list.get(i) {
        Some(&x) if x >= 0 && (x as u64) < len as u64 => Ok(x as usize),
        _ => Err(SceneError(format!(
            "{what}[{i}] is missing or out of range"
        ))),
    }
}

fn light(v: &Value, to: V3) -> Result<Light, SceneError> {
    let rgb = |k| triple(&numbers(v, k)?, 0, k);
    let (ambient, diffuse, specular) = (rgb("ambient")?, rgb("diffuse")?, rgb("specular")?);
    Ok(Light {
        to,
        ambient,
        diffuse,
        specular,
    })
}

impl Scene {
    /// Parses the physics host's scene description (`mujoco_host.mjs`, `scene(m)`): the
    /// model fields of the same names (`extent`, `fovy`, `headlight` and `lights` with
    /// `ambient`, `diffuse`, `specular` (and `dir`), `skybox` or null, `body_mocapid`,
    /// `geom_*`, `site_*`, `mat_rgba`, `mat_specular`, `mat_shininess`, `mat_emission`,
    /// `mesh_vertadr`, `mesh_vertnum`, `mesh_faceadr`, `mesh_facenum`, `mesh_normaladr`,
    /// `mesh_vert`, `mesh_normal`, `mesh_face`, `mesh_facenormal`).
    pub fn from_json(v: &Value) -> Result<Scene, SceneError> {
        let headlight = light(field(v, "headlight")?, [0.0; 3])?;
        let lights = (field(v, "lights")?.as_array())
            .ok_or_else(|| SceneError("lights is not a list".into()))?
            .iter()
            // All directional, as Fetch's one light is (docs/fetch-reference.md §4.2).
            .map(|l| {
                light(
                    l,
                    normalize(scale(triple(&numbers(l, "dir")?, 0, "dir")?, -1.0)),
                )
            })
            .collect::<Result<_, _>>()?;
        let sky = match v.get("skybox") {
            None | Some(Value::Null) => None,
            Some(s) => Some([
                triple(&numbers(s, "first")?, 0, "sky")?,
                triple(&numbers(s, "last")?, 0, "sky")?,
            ]),
        };
        let extent = field(v, "extent")?
            .as_f64()
            .ok_or_else(|| SceneError("bad extent".into()))?;
        let mut shapes = meshes(v)?;
        let nmesh = shapes.len();
        let mocap = integers(v, "body_mocapid")?;
        let mat_rgba = numbers(v, "mat_rgba")?;
        let mat = [
            numbers(v, "mat_specular")?,
            numbers(v, "mat_shininess")?,
            numbers(v, "mat_emission")?,
        ];
        let mut items = Vec::new();
        for prefix in ["geom", "site"] {
            let geom = prefix == "geom";
            let key = |k: &str| format!("{prefix}_{k}");
            let (kind, group) = (integers(v, &key("type"))?, integers(v, &key("group"))?);
            let (size, colour) = (numbers(v, &key("size"))?, numbers(v, &key("rgba"))?);
            // Sites have no body test and no material here (Fetch's sites have none).
            let none = || Ok(vec![-1; kind.len()]);
            let other = |k: &str| if geom { integers(v, k) } else { none() };
            let (matid, dataid, body) = (
                other("geom_matid")?,
                other("geom_dataid")?,
                other("geom_bodyid")?,
            );
            for (i, &t) in kind.iter().enumerate() {
                let missing = || SceneError(format!("{prefix} {i} is incomplete"));
                let at = |l: &[i64]| l.get(i).copied().ok_or_else(missing);
                let (b, g, m) = (at(&body)?, at(&group)?, at(&matid)?);
                // VisGym made the mocap body's geoms invisible (§4.2, §8); MuJoCo shows
                // groups 0-2 by default.
                if (b >= 0 && mocap.get(b as usize).is_some_and(|&x| x >= 0))
                    || !(0..=2).contains(&g)
                {
                    continue;
                }
                let c = colour.get(4 * i..4 * i + 4).ok_or_else(missing)?;
                let rgba = [c[0], c[1], c[2], c[3]];
                // MuJoCo's values without a material.
                let mut item = Item {
                    geom,
                    id: i,
                    shape: 0,
                    rgba,
                    specular: 0.5,
                    shininess: 0.5,
                    emission: 0.0,
                };
                if m >= 0 {
                    let m = m as usize;
                    let get = |l: &[f64]| l.get(m).copied().ok_or_else(missing);
                    (item.specular, item.shininess, item.emission) =
                        (get(&mat[0])?, get(&mat[1])?, get(&mat[2])?);
                    // A material's colour replaces the default one (MuJoCo's rule).
                    if rgba == [0.5, 0.5, 0.5, 1.0] {
                        let c = mat_rgba.get(4 * m..4 * m + 4).ok_or_else(missing)?;
                        item.rgba = [c[0], c[1], c[2], c[3]];
                    }
                }
                if item.rgba[3] <= 0.0 {
                    continue;
                }
                item.shape = if t == 7 {
                    index(&dataid, i, nmesh, "geom_dataid")?
                } else {
                    // Height fields and SDFs (not in the Fetch models) are left out.
                    let Some(shape) = builtin(t, triple(&size, i, &key("size"))?, 50.0 * extent)
                    else {
                        continue;
                    };
                    shapes.push(shape);
                    shapes.len() - 1
                };
                items.push(item);
            }
        }
        let fovy = field(v, "fovy")?
            .as_f64()
            .ok_or_else(|| SceneError("bad fovy".into()))?;
        Ok(Scene {
            fovy,
            znear: 0.01 * extent,
            headlight,
            lights,
            sky,
            shapes,
            items,
        })
    }

    /// Where a world point shows in a view drawn with `camera` (pixels from the view's
    /// top-left corner), or `None` behind the near plane.
    pub fn project(&self, camera: &Camera, p: [f64; 3]) -> Option<[f64; 2]> {
        let view = View::new(self, camera);
        let v = view.to_view(p);
        let s = view.project(Vert { v, c: [0.0; 3] });
        (v[2] >= self.znear).then_some([s.x, s.y])
    }
}

/// One shape per mesh (`mesh_normal` by `mesh_facenormal`, see [`FLAT`]), a vertex per
/// distinct position and normal.
fn meshes(v: &Value) -> Result<Vec<Shape>, SceneError> {
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

fn radius(pos: &[V3]) -> f64 {
    pos.iter().fold(0.0, |r: f64, p| r.max(dot(*p, *p).sqrt()))
}

/// A built-in geom type (MuJoCo's `mjtGeom` numbers) at its size; `far` stands in for an
/// infinite plane's half-size.
fn builtin(kind: i64, s: V3, far: f64) -> Option<Shape> {
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

fn quad(sh: &mut Shape, corners: [V3; 4], n: V3) {
    let o = sh.pos.len() as u32;
    sh.pos.extend(corners);
    sh.nrm.extend([n; 4]);
    sh.tri.extend([[o, o + 1, o + 2], [o, o + 2, o + 3]]);
}

/// A surface of revolution about z from a profile top to bottom (ρ, z, normal ρ,
/// normal z), scaled by `s` (normals by its inverse): rings of `SLICES + 1` vertices
/// (the seam repeated), joined.
fn lathe(sh: &mut Shape, s: V3, profile: &[[f64; 4]]) {
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

fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
fn scale(a: V3, s: f64) -> V3 {
    [a[0] * s, a[1] * s, a[2] * s]
}
fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn normalize(a: V3) -> V3 {
    let n = dot(a, a).sqrt();
    if n > 0.0 {
        scale(a, 1.0 / n)
    } else {
        a
    }
}
/// A row-major 3 × 3 matrix times a vector.
fn rotate(m: &[f64; 9], p: V3) -> V3 {
    [
        dot([m[0], m[1], m[2]], p),
        dot([m[3], m[4], m[5]], p),
        dot([m[6], m[7], m[8]], p),
    ]
}

/// A vertex in view coordinates (right, up, forward) with its lit colour.
#[derive(Clone, Copy, Debug)]
struct Vert {
    v: V3,
    c: V3,
}

/// A vertex on screen: pixels (y down), 1 / depth, colour.
#[derive(Clone, Copy, Debug)]
struct Px {
    x: f64,
    y: f64,
    w: f64,
    c: V3,
}

/// One free camera's view (docs/fetch-reference.md §4.1).
struct View {
    eye: V3,
    right: V3,
    up: V3,
    fwd: V3,
    /// 1 / tan(fovy / 2).
    focal: f64,
    znear: f64,
    /// The headlight (along the view) first, then the model's lights.
    lights: Vec<Light>,
}

impl View {
    fn new(scene: &Scene, cam: &Camera) -> View {
        let (az, el) = (cam.azimuth * (PI / 180.0), cam.elevation * (PI / 180.0));
        let (ca, sa, ce, se) = (libm::cos(az), libm::sin(az), libm::cos(el), libm::sin(el));
        let (fwd, up) = ([ce * ca, ce * sa, se], [-se * ca, -se * sa, ce]);
        let mut lights = vec![Light {
            to: scale(fwd, -1.0),
            ..scene.headlight
        }];
        lights.extend_from_slice(&scene.lights);
        let focal = 1.0 / libm::tan(scene.fovy * (PI / 360.0));
        let eye = sub(cam.lookat, scale(fwd, cam.distance));
        View {
            eye,
            right: cross(fwd, up),
            up,
            fwd,
            focal,
            znear: scene.znear,
            lights,
        }
    }

    fn to_view(&self, p: V3) -> V3 {
        let d = sub(p, self.eye);
        [dot(d, self.right), dot(d, self.up), dot(d, self.fwd)]
    }

    fn project(&self, v: Vert) -> Px {
        let (half, w) = (SIDE as f64 / 2.0, 1.0 / v.v[2]);
        let (x, y) = (
            half * (1.0 + self.focal * v.v[0] * w),
            half * (1.0 - self.focal * v.v[1] * w),
        );
        Px { x, y, w, c: v.c }
    }

    /// Whether a sphere around a world point can show in the view.
    fn sees(&self, centre: V3, r: f64) -> bool {
        let q = self.to_view(centre);
        let side = (1.0 + self.focal * self.focal).sqrt();
        let out = |x: f64| (self.focal * x - q[2]) / side > r;
        q[2] + r >= self.znear && !(out(q[0]) || out(-q[0]) || out(q[1]) || out(-q[1]))
    }

    /// OpenGL's lighting of one vertex: emission, then per light ambient, diffuse
    /// max(n·l, 0) (one-sided, as MuJoCo sets it) and specular with a local viewer;
    /// the colour is both ambient and diffuse material; clamped.
    fn shade(&self, item: &Item, p: V3, n: V3) -> V3 {
        let v = normalize(sub(self.eye, p));
        let mut c: V3 = std::array::from_fn(|k| item.emission * item.rgba[k]);
        for l in &self.lights {
            let nl = dot(n, l.to);
            let nh = dot(n, normalize(add(l.to, v)));
            let lit = nl > 0.0 && nh > 0.0 && item.specular > 0.0;
            let spec = if lit {
                libm::pow(nh, 128.0 * item.shininess)
            } else {
                0.0
            };
            for (k, ck) in c.iter_mut().enumerate() {
                *ck += (l.ambient[k] + nl.max(0.0) * l.diffuse[k]) * item.rgba[k]
                    + spec * l.specular[k] * item.specular;
            }
        }
        c.map(|x| x.clamp(0.0, 1.0))
    }

    /// The skybox behind a pixel, by the height of its view ray, blended linearly between
    /// `first` and `last`, the cube's top and bottom corner texels (z = ±1/√3): within
    /// 1 of 255 of MuJoCo's gradient texture.
    fn sky(&self, scene: &Scene, px: usize, py: usize) -> [u8; 3] {
        let Some([top, bottom]) = scene.sky else {
            return [0; 3];
        };
        let half = SIDE as f64 / 2.0;
        let (x, y) = (
            (px as f64 + 0.5) / half - 1.0,
            1.0 - (py as f64 + 0.5) / half,
        );
        let d = add(
            self.fwd,
            add(
                scale(self.right, x / self.focal),
                scale(self.up, y / self.focal),
            ),
        );
        let t = ((1.0 - d[2] / dot(d, d).sqrt() * 3f64.sqrt()) / 2.0).clamp(0.0, 1.0);
        std::array::from_fn(|k| to_byte((top[k] + (bottom[k] - top[k]) * t) / 255.0))
    }
}

fn to_byte(x: f64) -> u8 {
    // Non-negative, so truncation rounds (and needs no call to `floor`).
    (x.clamp(0.0, 1.0) * 255.0 + 0.5) as u8
}

/// The samples of one view: 1 / depth (0: nothing yet) and colour.
#[derive(Default)]
struct Target {
    depth: Vec<f32>,
    rgb: Vec<[u8; 3]>,
}

impl Target {
    /// One triangle, clipped at the near plane; `blend`: a transparent geom's alpha.
    fn triangle(&mut self, view: &View, v: [Vert; 3], blend: Option<f64>) {
        let inside = v.map(|x| x.v[2] >= view.znear);
        if inside == [true; 3] {
            return self.raster(v.map(|x| view.project(x)), blend);
        }
        let mut poly = Vec::with_capacity(4);
        for i in 0..3 {
            let (a, b) = (v[i], v[(i + 1) % 3]);
            if inside[i] {
                poly.push(a);
            }
            if inside[i] != inside[(i + 1) % 3] {
                let t = (view.znear - a.v[2]) / (b.v[2] - a.v[2]);
                let mix = |p: V3, q: V3| std::array::from_fn(|k| p[k] + (q[k] - p[k]) * t);
                poly.push(Vert {
                    v: mix(a.v, b.v),
                    c: mix(a.c, b.c),
                });
            }
        }
        for k in 1..poly.len().saturating_sub(1) {
            self.raster(
                [poly[0], poly[k], poly[k + 1]].map(|x| view.project(x)),
                blend,
            );
        }
    }

    fn raster(&mut self, p: [Px; 3], blend: Option<f64>) {
        let area = (p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[1].y - p[0].y) * (p[2].x - p[0].x);
        // OpenGL's front faces are counter-clockwise with y up, so clockwise here; back
        // faces (MuJoCo culls them) and degenerate triangles are dropped.
        if area.is_nan() || area >= 0.0 {
            return;
        }
        let inv = 1.0 / area;
        // Linear forms f(x, y) = f[0]·x + f[1]·y + f[2]: the barycentric weights, then
        // 1/depth and colour/depth (depth tests, perspective-correct colour).
        let e = [(1, 2), (2, 0), (0, 1)].map(|(i, j)| {
            let (a, b) = (-(p[j].y - p[i].y) * inv, (p[j].x - p[i].x) * inv);
            [a, b, -(a * p[i].x + b * p[i].y)]
        });
        let form = |v: V3| -> V3 {
            std::array::from_fn(|j| e[0][j] * v[0] + e[1][j] * v[1] + e[2][j] * v[2])
        };
        let w = form(p.map(|q| q.w));
        let col: [V3; 3] = std::array::from_fn(|k| form(p.map(|q| q.w * q.c[k])));
        let at = |f: &V3, x: f64, y: f64| f[0] * x + (f[1] * y + f[2]);
        let span = |a: f64, b: f64, c: f64| {
            (
                a.min(b).min(c).max(0.0).floor(),
                a.max(b).max(c).min(SIDE as f64),
            )
        };
        let ((x0, x1), (y0, y1)) = (span(p[0].x, p[1].x, p[2].x), span(p[0].y, p[1].y, p[2].y));
        for py in (y0 as usize)..(y1.ceil().max(y0) as usize) {
            let y = py as f64;
            // The pixels of this row where every weight can be positive, and those where
            // all are over the whole pixel (no tests per sample there).
            let (mut xa, mut xb, mut fa, mut fb) = (x0, x1, x0, x1);
            for f in &e {
                let m = (f[1] * y + f[2]).max(f[1] * (y + 1.0) + f[2]);
                let k = f[1] * y + f[2] + f[0].min(0.0) + f[1].min(0.0);
                if f[0] > 0.0 {
                    (xa, fa) = (xa.max(-m / f[0] - 1.0), fa.max(-k / f[0]));
                } else if f[0] < 0.0 {
                    (xb, fb) = (xb.min(-m / f[0] + 1.0), fb.min(-k / f[0]));
                } else if m < 0.0 {
                    xb = xa;
                } else if k < 0.0 {
                    fb = fa - 1.0;
                }
            }
            // Per sample row, the parts of the weights and 1/depth that do not vary in x.
            let rows = SAMPLES.map(|o| [e[0], e[1], e[2], w].map(|f| f[1] * (y + o[1]) + f[2]));
            for px in (xa as usize)..(xb.ceil().max(xa) as usize) {
                let x = px as f64;
                let full = x >= fa && x <= fb;
                let base = (py * SIDE + px) * 4;
                let (mut mask, mut ws, mut first) = (0u8, [0f32; 4], None);
                for (s, (o, r)) in SAMPLES.iter().zip(&rows).enumerate() {
                    let sx = x + o[0];
                    if !full && (0..3).any(|k| e[k][0] * sx + r[k] < 0.0) {
                        continue;
                    }
                    let d = (w[0] * sx + r[3]) as f32;
                    // MuJoCo's depth test passes equal depths too (later draws win).
                    if d >= self.depth[base + s] {
                        (mask, ws[s], first) = (mask | 1 << s, d, first.or(Some((sx, y + o[1]))));
                    }
                }
                let Some(first) = first else { continue };
                // Multisampling shades a pixel once, at its centre (at a covered sample
                // when the centre is off the triangle).
                let (cx, cy) = (x + 0.5, y + 0.5);
                let (cx, cy) = if full || e.iter().all(|f| at(f, cx, cy) >= 0.0) {
                    (cx, cy)
                } else {
                    first
                };
                let r = 1.0 / at(&w, cx, cy);
                let c = col.map(|f| (at(&f, cx, cy) * r).clamp(0.0, 1.0));
                for s in (0..4).filter(|s| mask & (1 << s) != 0) {
                    let dst = &mut self.rgb[base + s];
                    if let Some(a) = blend {
                        *dst = std::array::from_fn(|k| {
                            to_byte(c[k] * a + f64::from(dst[k]) / 255.0 * (1.0 - a))
                        });
                    } else {
                        (self.depth[base + s], *dst) = (ws[s], c.map(to_byte));
                    }
                }
            }
        }
    }
}

/// A geom's or site's frame; sites unrotated (the kinematics hold no site frames;
/// Fetch's sites are spheres).
fn pose(kin: &Kinematics, item: &Item) -> Option<(V3, [f64; 9])> {
    if !item.geom {
        return Some((
            triple(&kin.site_xpos, item.id, "").ok()?,
            [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
        ));
    }
    let mat = kin
        .geom_xmat
        .get(9 * item.id..9 * item.id + 9)?
        .try_into()
        .ok()?;
    Some((triple(&kin.geom_xpos, item.id, "").ok()?, mat))
}

fn render(scene: &Scene, kin: &Kinematics, view: &View, t: &mut Target) {
    t.depth.clear();
    t.rgb.clear();
    t.depth.resize(SIDE * SIDE * 4, 0.0);
    t.rgb.resize(SIDE * SIDE * 4, [0; 3]);
    // What is drawn, nearest first: the same picture (but for exact depth ties) with
    // less shading of what is hidden later.
    let mut order: Vec<_> = (scene.items.iter())
        .filter_map(|item| {
            let (pos, mat) = pose(kin, item)?;
            let d = sub(pos, view.eye);
            Some((dot(d, d).sqrt(), item, pos, mat))
        })
        .collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut verts = Vec::new();
    let mut draw = |t: &mut Target, &(_, item, pos, mat): &(f64, &Item, V3, [f64; 9])| {
        let shape = &scene.shapes[item.shape];
        if !view.sees(pos, shape.radius) {
            return;
        }
        verts.clear();
        for (p, n) in shape.pos.iter().zip(&shape.nrm) {
            let w = add(pos, rotate(&mat, *p));
            verts.push(Vert {
                v: view.to_view(w),
                c: view.shade(item, w, normalize(rotate(&mat, *n))),
            });
        }
        let blend = (item.rgba[3] < OPAQUE).then_some(item.rgba[3]);
        for tri in &shape.tri {
            t.triangle(view, tri.map(|i| verts[i as usize]), blend);
        }
    };
    let (opaque, mut transparent): (Vec<_>, Vec<_>) =
        order.iter().partition(|o| o.1.rgba[3] >= OPAQUE);
    for o in opaque {
        draw(t, o);
    }
    for (i, px) in t.depth.chunks_exact(4).enumerate() {
        if px.contains(&0.0) {
            let sky = view.sky(scene, i % SIDE, i / SIDE);
            for (s, _) in px.iter().enumerate().filter(|(_, &d)| d == 0.0) {
                t.rgb[4 * i + s] = sky;
            }
        }
    }
    // Transparent geoms as MuJoCo draws them: by distance less the bounding radius,
    // nearest first, then again farthest first, blended, writing no depth.
    let key = |o: &&(f64, &Item, V3, [f64; 9])| o.0 - scene.shapes[o.1.shape].radius;
    transparent.sort_by(|a, b| key(a).total_cmp(&key(b)));
    for o in transparent.iter().chain(transparent.iter().rev()) {
        draw(t, o);
    }
}

/// Draws the observation image (docs/fetch-reference.md §4.2): the front view through
/// `front` on the left, the follow view looking at `follow_lookat` on the right.
pub fn draw(
    scene: &Scene,
    kin: &Kinematics,
    front: &Camera,
    follow_lookat: [f64; 3],
    frame: &mut Frame,
) {
    frame.resize(WIDTH, HEIGHT);
    let [azimuth, elevation, distance] = FOLLOW;
    let follow = Camera {
        azimuth,
        elevation,
        distance,
        lookat: follow_lookat,
    };
    let mut t = Target::default();
    let data = frame.data_mut();
    for (k, cam) in [front, &follow].into_iter().enumerate() {
        render(scene, kin, &View::new(scene, cam), &mut t);
        // Each pixel the mean of its samples, as a multisample resolve.
        let rows = t
            .rgb
            .chunks_exact(4 * SIDE)
            .zip(data.chunks_exact_mut(3 * WIDTH as usize));
        for (row, out) in rows {
            for (s, o) in row
                .chunks_exact(4)
                .zip(out[3 * k * SIDE..].chunks_exact_mut(3))
            {
                for (c, o) in o.iter_mut().enumerate() {
                    let sum = [0, 1, 2, 3].map(|i| u32::from(s[i][c]));
                    *o = ((sum[0] + sum[1] + sum[2] + sum[3] + 2) / 4) as u8;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const GREY: [f64; 4] = [0.3, 0.3, 0.3, 1.0];
    /// A geom: type, size, rgba, matid, dataid, body, group.
    type G = (i64, V3, [f64; 4], i64, i64, i64, i64);

    /// Every built-in shape, a tetrahedron mesh, a geom on a mocap body, a hidden group,
    /// a transparent sphere, a red site and an invisible one; lights as Fetch's.
    fn scene_json() -> Value {
        let rgb = |x: f64| [x; 3];
        let geoms: [G; 9] = [
            (0, [1.0, 1.0, 1.0], [0.5, 0.5, 0.5, 1.0], 0, -1, 0, 0),
            (6, [0.1, 0.1, 0.1], GREY, -1, -1, 0, 0),
            (6, [0.1, 0.1, 0.1], [0.0, 1.0, 0.0, 1.0], -1, -1, 1, 0),
            (7, [0.0; 3], [0.2, 0.3, 0.9, 1.0], -1, 0, 0, 0),
            (3, [0.03, 0.05, 0.0], [0.9, 0.6, 0.1, 1.0], -1, -1, 0, 1),
            (4, [0.05, 0.03, 0.02], [0.1, 0.8, 0.5, 1.0], -1, -1, 0, 2),
            (5, [0.03, 0.04, 0.0], [0.8, 0.2, 0.6, 1.0], -1, -1, 0, 0),
            (2, [0.06, 0.0, 0.0], [1.0, 1.0, 0.0, 0.5], -1, -1, 0, 0),
            (2, [0.06, 0.0, 0.0], [1.0, 0.0, 1.0, 1.0], -1, -1, 0, 3),
        ];
        let col = |f: fn(&G) -> Value| Value::Array(geoms.iter().map(f).collect());
        let flat = |f: fn(&G) -> Vec<f64>| geoms.iter().flat_map(f).collect::<Vec<_>>();
        let s = 0.08;
        json!({
            "extent": 2.0, "fovy": 45.0,
            "headlight": {"ambient": rgb(0.1), "diffuse": rgb(0.4), "specular": rgb(0.5)},
            "lights": [{"dir": [0, 0, -1], "ambient": rgb(0.2), "diffuse": rgb(0.8), "specular": rgb(0.3)}],
            "skybox": {"width": 32, "height": 192, "first": [113, 217, 144], "last": [116, 220, 146]},
            "body_mocapid": [-1, 0],
            "geom_type": col(|g| json!(g.0)), "geom_size": flat(|g| g.1.to_vec()),
            "geom_rgba": flat(|g| g.2.to_vec()), "geom_matid": col(|g| json!(g.3)),
            "geom_dataid": col(|g| json!(g.4)), "geom_bodyid": col(|g| json!(g.5)),
            "geom_group": col(|g| json!(g.6)),
            "mat_rgba": [0.2, 0.2, 0.2, 1.0], "mat_specular": [0.0], "mat_shininess": [0.5],
            "mat_emission": [0.0],
            "site_type": [2, 2], "site_size": [0.02, 0.02, 0.02, 0.02, 0.02, 0.02],
            "site_rgba": [1, 0, 0, 1, 0, 0, 1, 0], "site_group": [0, 0],
            "mesh_vertadr": [0], "mesh_vertnum": [4], "mesh_faceadr": [0], "mesh_facenum": [4],
            "mesh_normaladr": [0],
            "mesh_vert": [s, s, s, s, -s, -s, -s, s, -s, -s, -s, s],
            "mesh_normal": [0.577, 0.577, 0.577, 0.577, -0.577, -0.577, -0.577, 0.577, -0.577,
                            -0.577, -0.577, 0.577],
            "mesh_face": [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3],
            "mesh_facenormal": [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3],
        })
    }

    const GEOM_XPOS: [V3; 9] = [
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 0.1],
        [0.35, -0.3, 0.1],
        [-0.3, 0.3, 0.1],
        [0.3, 0.3, 0.05],
        [-0.3, -0.3, 0.1],
        [0.0, 0.35, 0.05],
        [0.3, 0.0, 0.3],
        [0.0, -0.35, 0.1],
    ];
    const SITE: V3 = [0.05, -0.05, 0.22];
    const FRONT: Camera = Camera {
        azimuth: 150.0,
        elevation: -25.0,
        distance: 1.6,
        lookat: [0.0, 0.0, 0.1],
    };
    /// The follow view looks straight at the grey box's top.
    const TOP: V3 = [0.0, 0.0, 0.2];

    fn kinematics() -> Kinematics {
        // The capsule is turned a quarter about x, everything else unrotated.
        let id = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
        let turned = [1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0];
        Kinematics {
            geom_xpos: GEOM_XPOS.concat(),
            geom_xmat: (0..9)
                .flat_map(|g| if g == 4 { turned } else { id })
                .collect(),
            site_xpos: [SITE, [0.0, 0.0, 0.3]].concat(),
            ..Kinematics::default()
        }
    }

    fn drawn() -> (Scene, Frame) {
        let scene = Scene::from_json(&scene_json()).expect("the test scene parses");
        let mut frame = Frame::new(3, 3);
        draw(&scene, &kinematics(), &FRONT, TOP, &mut frame);
        (scene, frame)
    }

    fn pixel(frame: &Frame, scene: &Scene, cam: &Camera, p: V3, dx: i64) -> [u8; 3] {
        let [x, y] = scene.project(cam, p).expect("in front of the camera");
        frame.get(x as i64 + dx, y as i64).expect("inside the view")
    }

    #[test]
    fn the_free_camera_is_mujocos() {
        let scene = Scene::from_json(&scene_json()).expect("parses");
        // docs/fetch-reference.md §4.1: the evaluation centre's camera position.
        let cam = Camera {
            azimuth: 132.0,
            elevation: -14.0,
            distance: 1.75,
            lookat: [1.3, 0.75, 0.55],
        };
        let eye = View::new(&scene, &cam).eye;
        let off = sub(eye, [2.44, -0.51, 0.97]);
        assert!(off.iter().all(|d| d.abs() < 0.01), "{eye:?}");
        let centre = scene.project(&cam, cam.lookat).expect("visible");
        assert!(
            centre.iter().all(|c| (c - 240.0).abs() < 1e-9),
            "{centre:?}"
        );
        // Up is up on screen (row 0 at the top); looking towards -x and +y, +y is right.
        let up = scene.project(&cam, [1.3, 0.75, 0.65]).expect("visible");
        let right = scene.project(&cam, [1.3, 0.85, 0.55]).expect("visible");
        assert!(up[1] < 240.0 && (up[0] - 240.0).abs() < 1e-9, "{up:?}");
        assert!(right[0] > 240.0, "{right:?}");
        assert_eq!(scene.project(&cam, eye), None);
    }

    #[test]
    fn the_test_scene_looks_as_it_should() {
        let (scene, frame) = drawn();
        assert_eq!((frame.width(), frame.height()), (WIDTH, HEIGHT));
        // The red site on the box, and the box's top lit as OpenGL lights it:
        // 0.3 × (0.1 + 0.2 + 0.8 + 0.4·sin 65°) = 0.44 (112 of 255) plus specular
        // from its corners (at the centre alone it would be 8 more).
        let red = pixel(&frame, &scene, &FRONT, SITE, 0);
        assert!(red[0] > 180 && red[1] < 60 && red[2] < 60, "{red:?}");
        let top = frame.get(720, 240).expect("the follow view's centre");
        assert!(top.iter().all(|&c| (115..=135).contains(&c)), "{top:?}");
        assert!(top[0] == top[1] && top[1] == top[2], "{top:?}");
        // The floor takes its material's colour (rgba is the default): dark grey.
        let floor = pixel(&frame, &scene, &FRONT, [0.5, -0.5, 0.0], 0);
        assert!(floor.iter().all(|&c| (40..=90).contains(&c)), "{floor:?}");
        // Neither the mocap body's geom (green) nor group 3's (magenta) is drawn.
        for g in [2, 8] {
            let c = pixel(&frame, &scene, &FRONT, GEOM_XPOS[g], 0);
            assert!(c[1] < 120 && c[0].abs_diff(c[2]) < 30, "geom {g}: {c:?}");
        }
        // The transparent yellow sphere lets the sky through, tinted.
        let glass = pixel(&frame, &scene, &FRONT, GEOM_XPOS[7], 0);
        assert!(
            glass[0] > 150 && glass[1] > 200 && glass[2] < 120,
            "{glass:?}"
        );
        // The shapes show in their colours (and the capsule, turned, lies along y).
        for (g, k) in [(3, 2), (4, 0), (5, 1), (6, 0)] {
            let c = pixel(&frame, &scene, &FRONT, GEOM_XPOS[g], 0);
            assert!(c[k] >= c.into_iter().max().unwrap_or(0), "geom {g}: {c:?}");
        }
        let end = add(GEOM_XPOS[4], [0.0, -0.07, 0.0]);
        let c = pixel(&frame, &scene, &FRONT, end, 0);
        assert!(c[0] > c[2] + 60, "the capsule's end {c:?}");
        // The sky, between the gradient's ends (just below the horizon here).
        assert_eq!(frame.get(0, 0), Some([115, 219, 145]));
        // The floor seen from above: 0.2 × (0.1 + 0.2 + 0.8 + 0.4·sin 65°) = 0.29.
        assert_eq!(frame.get(480, 0), Some([75, 75, 75]));
    }

    /// A portable identity of the test picture, to compare native and wasm builds.
    #[test]
    fn the_test_scene_draws_the_same_bytes() {
        let (_, frame) = drawn();
        let again = drawn().1;
        assert!(frame == again);
        assert_eq!(format!("{:016x}", frame.hash()), "8c3e4be61d92fde3");
    }

    #[test]
    fn bad_scenes_are_errors() {
        assert!(Scene::from_json(&Value::Null).is_err());
        let breaks: [(&str, Value); 9] = [
            ("geom_type", json!("box")),
            ("body_mocapid", json!(null)),
            ("mesh_face", json!([0, 2, 9, 0, 1, 3, 0, 3, 2, 1, 2, 3])),
            (
                "mesh_facenormal",
                json!([0, 2, -1, 0, 1, 3, 0, 3, 2, 1, 2, 3]),
            ),
            ("mesh_normal", json!([0.0, 1.0])),
            ("geom_dataid", json!([-1, -1, -1, 5, -1, -1, -1, -1, -1])),
            ("mat_specular", json!([])),
            ("site_rgba", json!([1, 0, 0])),
            ("lights", json!([{"dir": [0, 0]}])),
        ];
        for (key, bad) in breaks {
            let mut v = scene_json();
            v[key] = bad;
            assert!(Scene::from_json(&v).is_err(), "{key}");
        }
        // Drawing with kinematics that lack entries leaves those items out.
        let scene = Scene::from_json(&scene_json()).expect("parses");
        let mut frame = Frame::default();
        draw(&scene, &Kinematics::default(), &FRONT, TOP, &mut frame);
        assert_eq!(frame.get(0, 0), Some([115, 219, 145]));
        let sky = |c: &[u8]| c[1] > c[0] + 90 && c[1] > c[2] + 70;
        assert!(frame.data().chunks(3).all(sky));
    }
}
