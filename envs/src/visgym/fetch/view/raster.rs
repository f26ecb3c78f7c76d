//! One free camera's view and the rasteriser: near-plane clipping, back-face culling,
//! 4 samples per pixel with a depth test, per-vertex colours interpolated with perspective,
//! transparent geoms blended.

use std::f64::consts::PI;

use super::geometry::{add, cross, dot, normalize, scale, sub, V3};
use super::scene::{Item, Light, Scene};
use super::SIDE;
use crate::visgym::fetch::env::Camera;

/// Sample positions in a pixel (x right, y down): the usual 4× multisampling pattern.
pub(super) const SAMPLES: [[f64; 2]; 4] = [
    [0.375, 0.125],
    [0.875, 0.375],
    [0.125, 0.625],
    [0.625, 0.875],
];

/// A vertex in view coordinates (right, up, forward) with its lit colour.
#[derive(Clone, Copy, Debug)]
pub(super) struct Vert {
    pub(super) v: V3,
    pub(super) c: V3,
}

/// A vertex on screen: pixels (y down), 1 / depth, colour.
#[derive(Clone, Copy, Debug)]
pub(super) struct Px {
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) w: f64,
    pub(super) c: V3,
}

/// One free camera's view (docs/fetch-reference.md §4.1).
pub(super) struct View {
    pub(super) eye: V3,
    pub(super) right: V3,
    pub(super) up: V3,
    pub(super) fwd: V3,
    /// 1 / tan(fovy / 2).
    pub(super) focal: f64,
    pub(super) znear: f64,
    /// The headlight (along the view) first, then the model's lights.
    pub(super) lights: Vec<Light>,
}

impl View {
    pub(super) fn new(scene: &Scene, cam: &Camera) -> View {
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

    pub(super) fn to_view(&self, p: V3) -> V3 {
        let d = sub(p, self.eye);
        [dot(d, self.right), dot(d, self.up), dot(d, self.fwd)]
    }

    pub(super) fn project(&self, v: Vert) -> Px {
        let (half, w) = (SIDE as f64 / 2.0, 1.0 / v.v[2]);
        let (x, y) = (
            half * (1.0 + self.focal * v.v[0] * w),
            half * (1.0 - self.focal * v.v[1] * w),
        );
        Px { x, y, w, c: v.c }
    }

    /// Whether a sphere around a world point can show in the view.
    pub(super) fn sees(&self, centre: V3, r: f64) -> bool {
        let q = self.to_view(centre);
        let side = (1.0 + self.focal * self.focal).sqrt();
        let out = |x: f64| (self.focal * x - q[2]) / side > r;
        q[2] + r >= self.znear && !(out(q[0]) || out(-q[0]) || out(q[1]) || out(-q[1]))
    }

    /// OpenGL's lighting of one vertex: emission, then per light ambient, diffuse
    /// max(n·l, 0) (one-sided, as MuJoCo sets it) and specular with a local viewer;
    /// the colour is both ambient and diffuse material; clamped.
    pub(super) fn shade(&self, item: &Item, p: V3, n: V3) -> V3 {
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
    pub(super) fn sky(&self, scene: &Scene, px: usize, py: usize) -> [u8; 3] {
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

pub(super) fn to_byte(x: f64) -> u8 {
    // Non-negative, so truncation rounds (and needs no call to `floor`).
    (x.clamp(0.0, 1.0) * 255.0 + 0.5) as u8
}

/// The samples of one view: 1 / depth (0: nothing yet) and colour.
#[derive(Default)]
pub(super) struct Target {
    pub(super) depth: Vec<f32>,
    pub(super) rgb: Vec<[u8; 3]>,
}

impl Target {
    /// One triangle, clipped at the near plane; `blend`: a transparent geom's alpha.
    pub(super) fn triangle(&mut self, view: &View, v: [Vert; 3], blend: Option<f64>) {
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

    pub(super) fn raster(&mut self, p: [Px; 3], blend: Option<f64>) {
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
