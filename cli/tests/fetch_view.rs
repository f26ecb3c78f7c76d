//! The Fetch observation image (`envs::visgym::fetch::view`) against the reference's own
//! pictures: `tests/golden/visgym/fetch_frames.py` rendered VisGym's 480 × 960 image with
//! MuJoCo's OpenGL renderer at a few states and saved it shrunk to 240 × 120 (Pillow's
//! Lanczos); we replay the same seed and actions on the command line's physics host,
//! draw, shrink the same way and compare.

use std::path::{Path, PathBuf};

use envs::core::frame::Frame;
use envs::render::{lanczos, png::decode_png};
use envs::visgym::fetch::view::{self, Scene};
use envs::visgym::fetch::{host, Camera, Fetch, Task};
use playbench_cli::mujoco_node::{ensure_installed, module_dir};
use playbench_cli::png_out::write_png;
use serde_json::Value;

/// Mean absolute difference per channel (0-255) allowed in each half of the shrunk
/// image. Measured: front 0.25-0.26, follow 0.08-0.10 (antialiased edges, and the sky
/// gradient's ±1). The smallest plausible mistakes tried cost more: the mocap body's
/// geoms drawn 0.64 / 1.31 (after steps), the front camera turned by 0.5° 1.1-1.3, the
/// follow look-at 5 mm off 8.7, no specular light 3.4 / 1.2, OpenGL's mesh normals
/// unfixed (`view/shapes.rs`, `FLAT`) 2.1 over the whole image.
const FRONT_MAD: f64 = 0.4;
const FOLLOW_MAD: f64 = 0.25;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rgb(png: &[u8]) -> Frame {
    let d = decode_png(png).unwrap_or_else(|e| panic!("{e}"));
    let mut f = Frame::new(d.width, d.height);
    for (px, out) in d.rgba.chunks_exact(4).zip(f.data_mut().chunks_exact_mut(3)) {
        out.copy_from_slice(&px[..3]);
    }
    f
}

/// Mean absolute difference over the columns `x0..x1`.
fn mad(a: &Frame, b: &Frame, x0: usize, x1: usize) -> f64 {
    let w = a.width() as usize;
    let rows = a
        .data()
        .chunks_exact(3 * w)
        .zip(b.data().chunks_exact(3 * w));
    let sum: u64 = rows
        .flat_map(|(ra, rb)| ra[3 * x0..3 * x1].iter().zip(&rb[3 * x0..3 * x1]))
        .map(|(p, q)| u64::from(p.abs_diff(*q)))
        .sum();
    sum as f64 / (3 * (x1 - x0) * a.height() as usize) as f64
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

#[test]
fn fetch_views_match_the_reference_pictures() {
    ensure_installed(&module_dir(&root())).unwrap_or_else(|e| panic!("{e}"));
    let dir = root().join("tests/golden/visgym");
    let meta: Value =
        serde_json::from_str(include_str!("../../tests/golden/visgym/fetch_frames.json"))
            .unwrap_or_else(|e| panic!("{e}"));
    let frames = meta["frames"].as_array().map_or(&[][..], |f| f.as_slice());
    assert!(frames.len() >= 5);
    let mut failures = Vec::new();
    for fr in frames {
        let name = fr["name"].as_str().unwrap_or_default();
        let task = match fr["env"].as_str() {
            Some("fetch_reach") => Task::Reach,
            _ => Task::PickAndPlace,
        };
        let mut env = Fetch::new(task, 0).unwrap_or_else(|e| panic!("{e}"));
        env.reset(fr["seed"].as_u64())
            .unwrap_or_else(|e| panic!("{e}"));
        for a in fr["actions"].as_array().into_iter().flatten() {
            env.step(a.as_str().unwrap_or_default())
                .unwrap_or_else(|e| panic!("{e}"));
        }
        // The state the reference drew (fetch_*.json.gz check the rest).
        let (cam, follow) = (env.camera(), env.follow_lookat());
        let c = &fr["camera"];
        let nums = |v: &Value| {
            v.as_array()
                .into_iter()
                .flatten()
                .map(num)
                .collect::<Vec<_>>()
        };
        let head = ["azimuth", "elevation", "distance"].map(|k| num(&c[k]));
        let theirs = [
            head.to_vec(),
            nums(&c["lookat"]),
            nums(&fr["follow_lookat"]),
        ]
        .concat();
        let ours = [cam.azimuth, cam.elevation, cam.distance]
            .into_iter()
            .chain(cam.lookat)
            .chain(follow);
        assert_eq!(theirs.len(), 9, "{name}");
        for (a, b) in ours.zip(theirs) {
            assert!((a - b).abs() < 1e-9, "{name}: camera {a} vs {b}");
        }
        let scene = Scene::from_json(
            &host::describe(task.model())
                .unwrap_or_else(|e| panic!("{e}"))
                .scene,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let mut frame = Frame::default();
        view::draw(&scene, env.kinematics(), &cam, follow, &mut frame);

        // Structure, in our full-size picture: the goal marker's top is red, the table
        // top light, and the follow view has the gripper (grey, neither the white table
        // nor the sky) at its centre, where the grip site projects.
        let at = |cam: &Camera, p: [f64; 3]| {
            let [x, y] = scene
                .project(cam, p)
                .unwrap_or_else(|| panic!("{name}: {p:?} unseen"));
            frame
                .get(x as i64, y as i64)
                .unwrap_or_else(|| panic!("{name}: {p:?} off view"))
        };
        let g = env.goal().unwrap_or_default();
        let red = at(&cam, [g[0], g[1], g[2] + 0.012]);
        assert!(
            red[0] > 200 && red[1] < 60 && red[2] < 60,
            "{name}: goal {red:?}"
        );
        let table = at(&cam, [1.3, 0.6, 0.4]);
        assert!(table.iter().all(|&c| c > 220), "{name}: table {table:?}");
        let follow_cam = Camera {
            azimuth: 200.0,
            elevation: -65.0,
            distance: 0.36,
            lookat: follow,
        };
        let grip = scene.project(&follow_cam, [follow[0], follow[1], follow[2] + 0.01]);
        assert!(
            grip.is_some_and(|[x, y]| (x - 240.0).abs() < 1.0 && (y - 240.0).abs() < 12.0),
            "{grip:?}"
        );
        let centre = frame.get(720, 240).unwrap_or_default();
        let neutral = centre.iter().max().unwrap_or(&0) - centre.iter().min().unwrap_or(&0) < 10;
        assert!(
            neutral && (60..200).contains(&centre[0]),
            "{name}: follow centre {centre:?}"
        );

        // Closeness to the reference's picture, shrunk alike.
        let small = lanczos::resize(&frame, 240, 120);
        let gold = rgb(
            &std::fs::read(dir.join(fr["png"].as_str().unwrap_or_default()))
                .unwrap_or_else(|e| panic!("{e}")),
        );
        let (front_mad, follow_mad) = (mad(&small, &gold, 0, 120), mad(&small, &gold, 120, 240));
        eprintln!("{name}: mean absolute difference front {front_mad:.3}, follow {follow_mad:.3}");
        if front_mad > FRONT_MAD || follow_mad > FOLLOW_MAD {
            // Ours and the difference (×4), shrunk, for a look.
            let out = root().join("target/fetch-view-diff");
            std::fs::create_dir_all(&out).unwrap_or_else(|e| panic!("{e}"));
            let mut diff = small.clone();
            for (d, (p, q)) in diff
                .data_mut()
                .iter_mut()
                .zip(small.data().iter().zip(gold.data()))
            {
                *d = p.abs_diff(*q).saturating_mul(4);
            }
            write_png(&out.join(format!("{name}_ours.png")), &small)
                .unwrap_or_else(|e| panic!("{e}"));
            write_png(&out.join(format!("{name}_diff.png")), &diff)
                .unwrap_or_else(|e| panic!("{e}"));
            failures.push(format!(
                "{name}: {front_mad:.3} / {follow_mad:.3} (see {})",
                out.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
