//! The views on a small scene with every kind of thing they draw.

use serde_json::{json, Value};

use super::geometry::*;
use super::scene::*;
use super::*;

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
