//! The model's drawable content, parsed once from the physics host's description: lights,
//! the skybox, and the geoms and sites MuJoCo's default visualisation shows.

use serde_json::Value;

use super::geometry::{normalize, scale, V3};
use super::raster::{Vert, View};
use super::shapes::{builtin, meshes, Shape};
use crate::visgym::fetch::env::Camera;

/// Why a scene description cannot be drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneError(pub String);

impl std::fmt::Display for SceneError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the Fetch scene: {}", self.0)
    }
}

impl std::error::Error for SceneError {}

#[derive(Clone, Copy, Debug)]
pub(super) struct Light {
    /// Towards the light (against the direction it shines in).
    pub(super) to: V3,
    pub(super) ambient: V3,
    pub(super) diffuse: V3,
    pub(super) specular: V3,
}

/// A geom or site to draw, with the material values the lighting uses.
#[derive(Clone, Debug)]
pub(super) struct Item {
    pub(super) geom: bool,
    pub(super) id: usize,
    pub(super) shape: usize,
    pub(super) rgba: [f64; 4],
    pub(super) specular: f64,
    pub(super) shininess: f64,
    pub(super) emission: f64,
}

/// The model's drawable content, parsed once from `Description.scene`.
#[derive(Clone, Debug)]
pub struct Scene {
    pub(super) fovy: f64,
    pub(super) znear: f64,
    pub(super) headlight: Light,
    pub(super) lights: Vec<Light>,
    /// The skybox's corner texels (0-255) at the top and bottom; none: black.
    pub(super) sky: Option<[V3; 2]>,
    pub(super) shapes: Vec<Shape>,
    /// Geoms, then sites, in model order.
    pub(super) items: Vec<Item>,
}

pub(super) fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, SceneError> {
    v.get(key).ok_or_else(|| SceneError(format!("no {key}")))
}

pub(super) fn list<T>(
    v: &Value,
    key: &str,
    f: fn(&Value) -> Option<T>,
) -> Result<Vec<T>, SceneError> {
    let bad = || SceneError(format!("{key} is not a list of numbers"));
    let items = field(v, key)?.as_array().ok_or_else(bad)?;
    items.iter().map(|x| f(x).ok_or_else(bad)).collect()
}

pub(super) fn numbers(v: &Value, key: &str) -> Result<Vec<f64>, SceneError> {
    list(v, key, Value::as_f64)
}

pub(super) fn integers(v: &Value, key: &str) -> Result<Vec<i64>, SceneError> {
    list(v, key, Value::as_i64)
}

/// Entry `i` of a list of triples.
pub(super) fn triple(list: &[f64], i: usize, what: &str) -> Result<V3, SceneError> {
    match list.get(3 * i..3 * i + 3) {
        Some(s) => Ok([s[0], s[1], s[2]]),
        None => Err(SceneError(format!("{what} has no entry {i}"))),
    }
}

/// `list[i]` as an index below `len`.
pub(super) fn index(list: &[i64], i: usize, len: usize, what: &str) -> Result<usize, SceneError> {
    match list.get(i) {
        Some(&x) if x >= 0 && (x as u64) < len as u64 => Ok(x as usize),
        _ => Err(SceneError(format!(
            "{what}[{i}] is missing or out of range"
        ))),
    }
}

pub(super) fn light(v: &Value, to: V3) -> Result<Light, SceneError> {
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
