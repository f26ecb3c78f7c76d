//! Drawing a model as Mental Rotation 3D (Objaverse) shows it (spec §3.8): trimesh's
//! scene with vertices merged, centred and scaled to unit half-diagonal, seen by the
//! camera trimesh frames around the scene's bounds (fov 60° × 45°, looking down −z),
//! shaded as pyrender's metallic-roughness shader does with ambient 0.25 and a
//! directional light of intensity 2 along the view axis, on white.
//!
//! The geometry of the view (camera pose, projection, which pixels an object covers up to
//! edge rounding) follows the reference; shading is pyrender's formula evaluated per pixel
//! on interpolated normals, without its multisampling. Two deviations, both documented in
//! docs/visgym.md: the centre is the bounding box's (trimesh takes the oriented bounding
//! box's, equal for the bundled objects), and meshes over the face budget are drawn
//! whole (the reference decimates them).

use std::collections::HashMap;

use super::images::gltf::{Material, Model};
use super::rotation3::Mat3;
use crate::core::frame::Frame;

/// trimesh's default camera field of view, degrees (x, y).
const FOV: [f64; 2] = [60.0, 45.0];
const AMBIENT: f64 = 0.25;
const LIGHT: f64 = 2.0;
const MIN_ROUGHNESS: f64 = 0.04;
const ZNEAR: f64 = 1e-3;

#[derive(Clone, Debug)]
struct ShapePart {
    vertices: Vec<[f64; 3]>,
    normals: Vec<[f64; 3]>,
    triangles: Vec<[u32; 3]>,
    material: Material,
}

/// A model ready to draw: merged, centred and scaled.
#[derive(Clone, Debug, Default)]
pub struct Shape {
    parts: Vec<ShapePart>,
    /// The centre and radius the model was normalised with (in its own units).
    pub centre: [f64; 3],
    pub radius: f64,
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn unit(a: [f64; 3]) -> [f64; 3] {
    let n = dot(a, a).sqrt();
    if n > 0.0 {
        [a[0] / n, a[1] / n, a[2] / n]
    } else {
        [0.0; 3]
    }
}

fn rotate(m: &Mat3, v: [f64; 3]) -> [f64; 3] {
    [
        m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
        m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
        m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
    ]
}

/// The axis-aligned bounds of points.
fn bounds<'a>(points: impl Iterator<Item = &'a [f64; 3]>) -> Option<([f64; 3], [f64; 3])> {
    let mut out: Option<([f64; 3], [f64; 3])> = None;
    for p in points {
        let (lo, hi) = out.get_or_insert((*p, *p));
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    out
}

/// trimesh's `merge_vertices`: vertices no triangle uses dropped, the rest merged by
/// position to 8 decimals (texture coordinates kept apart).
fn merge(part: &super::images::gltf::Part) -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    let mut referenced = vec![false; part.positions.len()];
    for t in &part.triangles {
        for &v in t {
            referenced[v as usize] = true;
        }
    }
    let mut seen: HashMap<[i64; 5], u32> = HashMap::new();
    let mut vertices = Vec::new();
    let mut remap = vec![0u32; part.positions.len()];
    for (i, p) in part.positions.iter().enumerate() {
        if !referenced[i] {
            continue;
        }
        let q = |v: f64| (v * 1e8).round() as i64;
        let uv = part
            .uvs
            .as_ref()
            .and_then(|u| u.get(i))
            .map_or([0, 0], |t| [q(f64::from(t[0])), q(f64::from(t[1]))]);
        let key = [q(p[0]), q(p[1]), q(p[2]), uv[0], uv[1]];
        let next = vertices.len() as u32;
        remap[i] = *seen.entry(key).or_insert_with(|| {
            vertices.push(*p);
            next
        });
    }
    let triangles = part
        .triangles
        .iter()
        .map(|t| t.map(|v| remap[v as usize]))
        .collect();
    (vertices, triangles)
}

/// trimesh's vertex normals: adjacent face normals weighted by the face's angle there.
fn vertex_normals(vertices: &[[f64; 3]], triangles: &[[u32; 3]]) -> Vec<[f64; 3]> {
    let mut sums = vec![[0.0f64; 3]; vertices.len()];
    for t in triangles {
        let p = t.map(|v| vertices[v as usize]);
        let n = unit(cross(sub(p[1], p[0]), sub(p[2], p[0])));
        for k in 0..3 {
            let a = unit(sub(p[(k + 1) % 3], p[k]));
            let b = unit(sub(p[(k + 2) % 3], p[k]));
            let angle = libm::acos(dot(a, b).clamp(-1.0, 1.0));
            let s = &mut sums[t[k] as usize];
            for c in 0..3 {
                s[c] += n[c] * angle;
            }
        }
    }
    sums.into_iter().map(unit).collect()
}

impl Shape {
    /// Merges, centres on the bounding box and scales by half its diagonal
    /// (`_compute_center_and_radius`, `_apply_center_and_scale`).
    pub fn new(model: &Model) -> Shape {
        let merged: Vec<_> = model.parts.iter().map(merge).collect();
        let Some((lo, hi)) = bounds(merged.iter().flat_map(|(v, _)| v.iter())) else {
            return Shape {
                radius: 1e-3,
                ..Shape::default()
            };
        };
        let centre = [0, 1, 2].map(|k| (lo[k] + hi[k]) * 0.5);
        let ext = sub(hi, lo);
        let r = dot(ext, ext).sqrt() * 0.5;
        let radius = if r.is_finite() && r > 0.0 { r } else { 1e-3 };
        let parts = merged
            .into_iter()
            .zip(&model.parts)
            .map(|((vertices, triangles), part)| {
                let vertices: Vec<[f64; 3]> = vertices
                    .iter()
                    .map(|p| sub(*p, centre).map(|v| v / radius))
                    .collect();
                ShapePart {
                    normals: vertex_normals(&vertices, &triangles),
                    vertices,
                    triangles,
                    material: part.material,
                }
            })
            .collect();
        Shape {
            parts,
            centre,
            radius,
        }
    }

    /// Where trimesh puts the camera for the shape turned by `rot`: over the centre of its
    /// bounds on +z, just far enough that the bounds' corners fit the field of view
    /// (`cameras.look_at(scene.bounds, fov)`).
    pub fn camera(&self, rot: &Mat3) -> [f64; 3] {
        let turned = self
            .parts
            .iter()
            .flat_map(|p| p.vertices.iter().map(|v| rotate(rot, *v)))
            .collect::<Vec<_>>();
        let Some((lo, hi)) = bounds(turned.iter()) else {
            return [0.0; 3];
        };
        let centre = [0, 1, 2].map(|k| lo[k] + 0.5 * (hi[k] - lo[k]));
        let tfov = FOV.map(|f| libm::tan(f.to_radians() / 2.0));
        let mut distance = f64::NEG_INFINITY;
        for corner in [lo, hi] {
            let p = sub(corner, centre);
            for k in 0..2 {
                distance = distance.max(p[k].abs() / tfov[k] + p[2]);
            }
        }
        [centre[0], centre[1], centre[2] + distance]
    }

    /// Draws the shape turned by `rot` into the `size`×`size` square at `x0` (white first).
    pub fn draw(&self, frame: &mut Frame, x0: i64, size: u32, rot: &Mat3) {
        frame.fill_rect(x0, 0, i64::from(size), i64::from(size), [255, 255, 255]);
        let cam = self.camera(rot);
        let s = f64::from(size);
        // `_fxfy_from_fov_res` with the camera's two angles: different focal lengths.
        let fx = s / (2.0 * libm::tan(FOV[0].to_radians() / 2.0));
        let fy = s / (2.0 * libm::tan(FOV[1].to_radians() / 2.0));
        let n = size as usize;
        let mut depth = vec![f64::NEG_INFINITY; n * n];
        for part in &self.parts {
            let world: Vec<[f64; 3]> = part.vertices.iter().map(|v| rotate(rot, *v)).collect();
            let normals: Vec<[f64; 3]> = part.normals.iter().map(|v| rotate(rot, *v)).collect();
            for t in &part.triangles {
                let p = t.map(|v| world[v as usize]);
                // Camera space: the camera looks down −z; w is the distance in front.
                let w = p.map(|q| cam[2] - q[2]);
                // Behind the near plane, or not a number (a hostile file): not drawn.
                if w.iter().any(|&w| !w.is_finite() || w < ZNEAR) {
                    continue;
                }
                let scr = [0, 1, 2].map(|k| {
                    (
                        s / 2.0 + fx * (p[k][0] - cam[0]) / w[k],
                        s / 2.0 - fy * (p[k][1] - cam[1]) / w[k],
                    )
                });
                // Back faces are culled (single-sided materials): counter-clockwise in
                // OpenGL's y-up window is clockwise here.
                let area = (scr[1].0 - scr[0].0) * (scr[2].1 - scr[0].1)
                    - (scr[2].0 - scr[0].0) * (scr[1].1 - scr[0].1);
                if !area.is_finite() || area >= 0.0 {
                    continue;
                }
                let tri = Triangle {
                    scr,
                    w,
                    points: p,
                    normals: t.map(|v| normals[v as usize]),
                    area,
                };
                tri.fill(frame, x0, n, &mut depth, &part.material, cam);
            }
        }
    }
}

struct Triangle {
    scr: [(f64, f64); 3],
    w: [f64; 3],
    points: [[f64; 3]; 3],
    normals: [[f64; 3]; 3],
    area: f64,
}

impl Triangle {
    fn fill(
        &self,
        frame: &mut Frame,
        x0: i64,
        n: usize,
        depth: &mut [f64],
        m: &Material,
        cam: [f64; 3],
    ) {
        let xs = self.scr.map(|p| p.0);
        let ys = self.scr.map(|p| p.1);
        let lo_x = (xs.iter().copied().fold(f64::INFINITY, f64::min) - 0.5)
            .ceil()
            .max(0.0) as usize;
        let hi_x = (xs.iter().copied().fold(f64::NEG_INFINITY, f64::max) - 0.5).floor();
        let lo_y = (ys.iter().copied().fold(f64::INFINITY, f64::min) - 0.5)
            .ceil()
            .max(0.0) as usize;
        let hi_y = (ys.iter().copied().fold(f64::NEG_INFINITY, f64::max) - 0.5).floor();
        if hi_x < 0.0 || hi_y < 0.0 {
            return;
        }
        let hi_x = (hi_x as usize).min(n - 1);
        let hi_y = (hi_y as usize).min(n - 1);
        let edge = |a: (f64, f64), b: (f64, f64), x: f64, y: f64| {
            (b.0 - a.0) * (y - a.1) - (b.1 - a.1) * (x - a.0)
        };
        for py in lo_y..=hi_y {
            for px in lo_x..=hi_x {
                let (x, y) = (px as f64 + 0.5, py as f64 + 0.5);
                let b = [
                    edge(self.scr[1], self.scr[2], x, y) / self.area,
                    edge(self.scr[2], self.scr[0], x, y) / self.area,
                    edge(self.scr[0], self.scr[1], x, y) / self.area,
                ];
                if b.iter().any(|&v| v < 0.0) {
                    continue;
                }
                // Perspective-correct weights; 1/w decides what is in front.
                let inv = [0, 1, 2].map(|k| b[k] / self.w[k]);
                let inv_w = inv[0] + inv[1] + inv[2];
                let slot = &mut depth[py * n + px];
                if inv_w <= *slot {
                    continue;
                }
                *slot = inv_w;
                let mix = |v: [[f64; 3]; 3]| {
                    [0, 1, 2].map(|c| (0..3).map(|k| inv[k] * v[k][c]).sum::<f64>() / inv_w)
                };
                let colour = shade(m, unit(mix(self.normals)), unit(sub(cam, mix(self.points))));
                frame.set(x0 + px as i64, py as i64, colour);
            }
        }
    }
}

/// pyrender's metallic-roughness shading of one pixel under the directional light along
/// −z and the ambient light, gamma 2.2.
fn shade(m: &Material, n: [f64; 3], v: [f64; 3]) -> [u8; 3] {
    use std::f64::consts::PI;
    let l = [0.0, 0.0, 1.0];
    let roughness = m.roughness.clamp(MIN_ROUGHNESS, 1.0);
    let metallic = m.metallic.clamp(0.0, 1.0);
    let base = [m.base_color[0], m.base_color[1], m.base_color[2]];
    let h = unit([l[0] + v[0], l[1] + v[1], l[2] + v[2]]);
    let nl = dot(n, l).clamp(0.001, 1.0);
    let nv = dot(n, v).abs().clamp(0.001, 1.0);
    let nh = dot(n, h).clamp(0.0, 1.0);
    let vh = dot(v, h).clamp(0.0, 1.0);
    let k = (roughness + 1.0) * (roughness + 1.0) / 8.0;
    let g = nv / (nv * (1.0 - k) + k) * (nl / (nl * (1.0 - k) + k));
    let a = roughness * roughness;
    let a2 = a * a;
    let denom = nh * nh * (a2 - 1.0) + 1.0;
    let d = a2 / (PI * denom * denom);
    base.map(|b| {
        let c_diff = b * (1.0 - MIN_ROUGHNESS) * (1.0 - metallic);
        let f0 = MIN_ROUGHNESS + (b - MIN_ROUGHNESS) * metallic;
        let f = f0 + (1.0 - f0) * libm::pow(1.0 - vh, 5.0);
        let diffuse = (1.0 - f) * c_diff / PI;
        let spec = f * g * d / (4.0 * nl * nv + 0.001);
        let c = nl * LIGHT * (diffuse + spec) + b * AMBIENT;
        (libm::pow(c.max(0.0), 1.0 / 2.2).min(1.0) * 255.0).round() as u8
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visgym::images::gltf::Part;
    use crate::visgym::rotation3::IDENTITY;

    /// An axis-aligned box from `lo` to `hi`, outward-facing, as one part.
    fn cuboid(lo: [f64; 3], hi: [f64; 3], rgb: [f64; 3]) -> Part {
        let mut positions = Vec::new();
        for i in 0..8 {
            positions.push([0, 1, 2].map(|k| if i >> k & 1 == 1 { hi[k] } else { lo[k] }));
        }
        let quads = [
            [0, 2, 3, 1],
            [4, 5, 7, 6],
            [0, 1, 5, 4],
            [2, 6, 7, 3],
            [0, 4, 6, 2],
            [1, 3, 7, 5],
        ];
        let triangles = quads
            .iter()
            .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
            .collect();
        Part {
            positions,
            uvs: None,
            triangles,
            material: Material {
                base_color: [rgb[0], rgb[1], rgb[2], 1.0],
                metallic: 0.0,
                roughness: 0.7,
            },
        }
    }

    #[test]
    fn the_camera_frames_the_bounds_and_the_panel_shows_the_box() {
        let model = Model {
            parts: vec![cuboid([1.0, 0.0, 0.0], [3.0, 4.0, 1.0], [0.8, 0.2, 0.2])],
        };
        let shape = Shape::new(&model);
        assert_eq!(shape.centre, [2.0, 2.0, 0.5]);
        assert!((shape.radius - f64::sqrt(21.0) / 2.0).abs() < 1e-12);
        // Half-extents over the radius; the y extent decides (45° is the narrower field).
        let r = shape.radius;
        let cam = shape.camera(&IDENTITY);
        let expect = (2.0 / r) / libm::tan(22.5f64.to_radians()) + 0.5 / r;
        assert!((cam[2] - expect).abs() < 1e-12, "{cam:?}");
        let mut f = Frame::new(256, 128);
        f.fill([0, 0, 0]);
        shape.draw(&mut f, 128, 128, &IDENTITY);
        assert_eq!(f.get(0, 0), Some([0, 0, 0]), "the left panel is left alone");
        assert_eq!(f.get(128, 0), Some([255, 255, 255]), "white background");
        let [r, g, b] = f.get(192, 64).unwrap_or_default();
        assert!(
            r > 150 && g < 140 && g == b,
            "shaded red at the centre: {r} {g} {b}"
        );
        // The box is 2 wide and 4 high: it touches the top and bottom, not the sides.
        assert_ne!(f.get(192, 1), Some([255, 255, 255]));
        assert_eq!(f.get(130, 64), Some([255, 255, 255]));
    }

    #[test]
    fn a_model_without_triangles_or_numbers_draws_white() {
        let shape = Shape::new(&Model::default());
        let mut f = Frame::new(64, 64);
        shape.draw(&mut f, 0, 64, &IDENTITY);
        assert!(f.data().iter().all(|&b| b == 255));
        let mut bad = cuboid([0.0; 3], [1.0; 3], [0.5; 3]);
        bad.positions[0] = [f64::NAN, 0.0, f64::INFINITY];
        let shape = Shape::new(&Model { parts: vec![bad] });
        shape.draw(&mut f, 0, 64, &IDENTITY);
        assert!(f.data().iter().all(|&b| b == 255));
    }
}
