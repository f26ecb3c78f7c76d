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

mod geometry;
mod raster;
mod scene;
mod shapes;
#[cfg(test)]
mod tests;

use super::env::{Camera, Kinematics};
use crate::core::frame::Frame;
use geometry::{add, dot, normalize, rotate, sub, V3};
use raster::{Target, Vert, View};
use scene::{triple, Item};
pub use scene::{Scene, SceneError};

pub const WIDTH: u32 = 960;
pub const HEIGHT: u32 = 480;
/// Each view is a square half of the image.
const SIDE: usize = 480;
/// The follow view's free camera: azimuth, elevation (degrees), distance (§4.1).
const FOLLOW: [f64; 3] = [200.0, -65.0, 0.36];
/// Below this alpha MuJoCo draws a geom as transparent (blended, after the opaque ones).
const OPAQUE: f64 = 0.995;

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
