//! Mental Rotation 3D (Objaverse): a 3-D model is shown as it is (left) and under a
//! hidden rotation (right); the agent turns the right one with `('rotate', [a, b, c])`
//! (degrees; the reference reads them as pitch a, roll b, yaw −c) and stops within the
//! tolerance (`mental_rotation_3d_objaverse/easy` 15°, `/hard` 5°; spec §3.8,
//! docs/visgym.md).
//!
//! The constructor walks the set for `.glb`/`.gltf` files; each reset picks an unused one
//! (with a seed: `RandomState(seed).choice`, else the constructor's `RandomState`), then
//! draws the hidden yaw, pitch and roll from the constructor's generator. States, rewards,
//! feedback and the solver's strategies are the reference's; frames follow its layout and
//! camera ([`mesh_view`](super::mesh_view)), not its OpenGL pixels.

use std::cmp::Ordering;
use std::sync::Arc;

use serde_json::{json, Value};

use super::action::{resolve_worded, Resolved, StepResult, EXECUTED};
use super::images::gltf::read_model;
use super::images::{ImageFile, ImageSet};
use super::mental_rotation_3d_cube::ActionFrame;
use super::mesh_view::Shape;
use super::numpy_array::{discover, leaf_to_f64};
use super::python::format::py_round1;
use super::python::{py_str_checked, PyException, PyValue};
use super::rotation3::{
    about_axis, angle, axis_angle, deg2rad, euler_from_szyx, euler_szyx, mul, rad2deg, transpose,
    Mat3, IDENTITY,
};
use super::signature::FnSig;
use super::solve_kwargs::SolveKwargs;
use super::spaces::ArgSpace;
use super::turn_controls::{self, rotate_action};
use super::{RenderMode, VisGymEnv};
use crate::core::env::{KeyBinding, Words};
use crate::core::frame::Frame;
use crate::core::input::{Gesture, PointerMode};
use crate::rng::RandomState;

const STOP: &str = "('stop', 'stop')";

#[derive(Clone, Debug)]
pub struct ObjaverseConfig {
    /// Degrees.
    pub tolerance: f64,
    pub render_size: u32,
    pub seed: u32,
    pub action_frame: ActionFrame,
    pub objects: Arc<ImageSet>,
}

#[derive(Clone, Debug)]
pub struct MentalRotation3dObjaverse {
    tol_rad: f64,
    size: u32,
    frame: ActionFrame,
    rng: RandomState,
    objects: Arc<ImageSet>,
    /// Model paths in the order the reference's walk lists them.
    models: Vec<String>,
    used: Vec<bool>,
    current_path: Option<String>,
    shape: Option<Arc<Shape>>,
    /// The left panel, drawn once per model.
    target: Option<Arc<Frame>>,
    /// The draws of the hidden rotation, degrees (yaw, pitch, roll).
    secret: [f64; 3],
    current: Mat3,
    failure: Option<PyException>,
}

/// `np.isclose(x, 0)`.
fn near_zero(x: f64) -> bool {
    x.abs() <= 1e-8
}

/// The order `os.walk` lists files in with each directory's entries sorted: a folder's
/// own files before its subfolders', names by code point.
fn walk_order(a: &str, b: &str) -> Ordering {
    let (pa, pb): (Vec<&str>, Vec<&str>) = (a.split('/').collect(), b.split('/').collect());
    for (i, (x, y)) in pa.iter().zip(&pb).enumerate() {
        if x == y {
            continue;
        }
        let (x_file, y_file) = (i + 1 == pa.len(), i + 1 == pb.len());
        return match (x_file, y_file) {
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => x.cmp(y),
        };
    }
    pa.len().cmp(&pb.len())
}

/// Whether the walk takes a file: its name ends in `.glb` or `.gltf`, in any case.
fn is_model(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or_default().to_lowercase();
    name.ends_with(".glb") || name.ends_with(".gltf")
}

/// `a/b/../c` and `./` resolved; `None` when it leaves the set.
fn joined(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for p in rel.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// `_euler_internal_to_payload`: degrees through float32, reordered by
/// `_parse_payload_output` to `[pitch, roll, −yaw]`, each `round(·, 1)`.
fn internal_to_payload(yaw: f64, pitch: f64, roll: f64) -> [f64; 3] {
    let d = [yaw, pitch, roll].map(|r| rad2deg(r) as f32);
    [d[1], d[2], -d[0]].map(|v| py_round1(f64::from(v)))
}

/// The padding turns' payloads: `_parse_payload_output` of float32 internal angles,
/// rounded (no clean-up of −0.0, as in the reference).
fn padding(internal: [f32; 3]) -> String {
    rotate_action([internal[1], internal[2], -internal[0]].map(|v| py_round1(f64::from(v))))
}

/// `_remove_negative_zero`.
fn positive_zeros(p: [f64; 3]) -> [f64; 3] {
    p.map(|v| if v == 0.0 { 0.0 } else { v })
}

/// `np.deg2rad(_parse_payload_input(payload))` for a payload the space took: the
/// reference's `[−c, a, b]` in radians. `np.ones_like(payload)` keeps Python's numbers as
/// float64 (int64 for ints alone), so no float32 rounding here; a text leaf makes it an
/// array of strings, which `-payload[2]` or `deg2rad` refuses, and booleans alone make a
/// boolean array whose `deg2rad` is float16.
fn payload_radians(payload: &PyValue) -> Result<[f64; 3], PyException> {
    let d = discover(payload)?;
    let text = |v: &PyValue| match v {
        PyValue::Str(_) => Some("str"),
        PyValue::Bytes(_) => Some("bytes"),
        _ => None,
    };
    if let Some(t) = d.leaves.get(2).and_then(|v| text(v)) {
        return Err(PyException::new(
            "TypeError",
            format!("bad operand type for unary -: '{t}'"),
        ));
    }
    if d.leaves.iter().any(|v| text(v).is_some()) {
        return Err(PyException::new(
            "TypeError",
            "ufunc 'deg2rad' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''",
        ));
    }
    let mut v = [0.0f64; 3];
    for (slot, leaf) in v.iter_mut().zip(&d.leaves) {
        *slot = leaf_to_f64(leaf)?.unwrap_or(f64::NAN);
    }
    if d.leaves.iter().all(|l| matches!(l, PyValue::Bool(_))) {
        // float16(float32(π/180)) for True; `-True` stored in a boolean array is True.
        const ONE_DEGREE_F16: f64 = 0.017_456_054_687_5;
        return Ok([v[2], v[0], v[1]].map(|b| if b != 0.0 { ONE_DEGREE_F16 } else { 0.0 }));
    }
    Ok([deg2rad(-v[2]), deg2rad(v[0]), deg2rad(v[1])])
}

/// The solver's base strategies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Base {
    AxisAngle,
    ByAxis,
}

impl MentalRotation3dObjaverse {
    pub fn new(config: ObjaverseConfig) -> Result<Self, String> {
        let mut models: Vec<String> = config
            .objects
            .files()
            .iter()
            .map(|f| f.path.clone())
            .filter(|p| is_model(p))
            .collect();
        if models.is_empty() {
            return Err(
                "No GLB/GLTF files in the set (the reference walks sample_dir for .glb and .gltf)"
                    .into(),
            );
        }
        models.sort_by(|a, b| walk_order(a, b));
        Ok(MentalRotation3dObjaverse {
            tol_rad: deg2rad(config.tolerance),
            size: config.render_size,
            frame: config.action_frame,
            rng: RandomState::new(config.seed),
            used: vec![false; models.len()],
            models,
            objects: config.objects,
            current_path: None,
            shape: None,
            target: None,
            secret: [0.0; 3],
            current: IDENTITY,
            failure: None,
        })
    }

    /// Reads a model of the set, with the files it names beside it.
    fn load(&self, path: &str) -> Result<Shape, PyException> {
        let file = self.objects.get(path).ok_or_else(|| {
            PyException::new("FileNotFoundError", format!("{path} is not in the set"))
        })?;
        let bytes = file
            .read()
            .map_err(|e| PyException::new("OSError", format!("cannot read {path}: {e}")))?;
        let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
        let beside = |uri: &str| {
            let p = joined(dir, uri)?;
            self.objects.get(&p).and_then(|f: &ImageFile| f.read().ok())
        };
        let model = read_model(&bytes, &beside)
            .map_err(|e| PyException::new("ValueError", format!("cannot read {path}: {e}")))?;
        Ok(Shape::new(&model))
    }

    fn start(&mut self, seed: Option<u64>) -> Result<(), PyException> {
        let available: Vec<usize> = (0..self.models.len()).filter(|&i| !self.used[i]).collect();
        if available.is_empty() {
            return Err(PyException::new(
                "RuntimeError",
                "All objects have been used. Cannot create more episodes.",
            ));
        }
        let pick = |rng: &mut RandomState| rng.choice(&available).copied().unwrap_or(0);
        let chosen = match seed {
            Some(s) => {
                let s = u32::try_from(s).map_err(|_| {
                    PyException::new("ValueError", "Seed must be between 0 and 2**32 - 1")
                })?;
                pick(&mut RandomState::new(s))
            }
            None => pick(&mut self.rng),
        };
        self.used[chosen] = true;
        let path = self.models[chosen].clone();
        let shape = Arc::new(self.load(&path)?);
        let mut target = Frame::new(self.size, self.size);
        shape.draw(&mut target, 0, self.size, &IDENTITY);
        let mut draw = || self.rng.uniform(0.0, 360.0).unwrap_or(0.0);
        let secret = [draw(), draw(), draw()];
        self.current = euler_szyx(deg2rad(secret[0]), deg2rad(secret[1]), deg2rad(secret[2]));
        self.secret = secret;
        self.shape = Some(shape);
        self.target = Some(Arc::new(target));
        self.current_path = Some(path);
        Ok(())
    }

    /// A rotation's `[d_yaw, d_pitch, d_roll]` turns from the inverse of the current one,
    /// axis by axis, in the order the action frame needs.
    fn by_axis(&self, pad: bool) -> Vec<String> {
        let (yaw, pitch, roll) = euler_from_szyx(&transpose(&self.current));
        let turns = [
            (yaw, [90.0f32, 0.0, 0.0], internal_to_payload(yaw, 0.0, 0.0)),
            (
                pitch,
                [0.0, 90.0, 0.0],
                internal_to_payload(0.0, pitch, 0.0),
            ),
            (roll, [0.0, 0.0, 90.0], internal_to_payload(0.0, 0.0, roll)),
        ];
        let order: [usize; 3] = match self.frame {
            ActionFrame::World => [0, 1, 2],
            ActionFrame::Object => [2, 1, 0],
        };
        let mut out = Vec::new();
        for k in order {
            let (value, pad_turn, payload) = turns[k];
            if near_zero(value) {
                continue;
            }
            if pad {
                out.extend(std::iter::repeat_n(padding(pad_turn), 4));
            }
            out.push(rotate_action(positive_zeros(payload)));
        }
        if out.is_empty() {
            return vec![STOP.to_string()];
        }
        out.push(STOP.to_string());
        out
    }

    /// `_solve_axis_angle` with uniform steps: the inverse rotation about its axis, split
    /// into `steps` equal turns, each expressed in the action frame.
    fn axis_angle(&self, steps: usize) -> Vec<String> {
        let steps = steps.max(1);
        let Some((total, axis)) = axis_angle(&transpose(&self.current)) else {
            return vec![STOP.to_string()];
        };
        if near_zero(total) {
            return vec![STOP.to_string()];
        }
        let step = about_axis(total / steps as f64, axis);
        let mut sim = self.current;
        let mut out = Vec::new();
        for _ in 0..steps {
            let turn = match self.frame {
                ActionFrame::World => step,
                ActionFrame::Object => mul(&mul(&transpose(&sim), &step), &sim),
            };
            let (y, p, r) = euler_from_szyx(&turn);
            out.push(rotate_action(internal_to_payload(y, p, r)));
            sim = match self.frame {
                ActionFrame::World => mul(&turn, &sim),
                ActionFrame::Object => mul(&sim, &turn),
            };
        }
        out.push(STOP.to_string());
        out
    }

    /// `solve(num_steps, uniform=True, strategy)`.
    fn solve_with(&self, strategy: &str, steps: usize) -> Option<Vec<String>> {
        let (pad, base) = match strategy {
            "axis-angle" => (0, Base::AxisAngle),
            "by-axis" => (0, Base::ByAxis),
            "pad1_axis-angle" => (1, Base::AxisAngle),
            "pad1_by-axis" => (1, Base::ByAxis),
            "pad3_axis-angle" => (3, Base::AxisAngle),
            "pad3_by-axis" => (3, Base::ByAxis),
            _ => return None,
        };
        let base_actions = |s: &Self| match base {
            Base::AxisAngle => s.axis_angle(steps),
            Base::ByAxis => s.by_axis(false),
        };
        Some(match (pad, base) {
            (0, _) => base_actions(self),
            (3, Base::ByAxis) => self.by_axis(true),
            (3, Base::AxisAngle) => {
                let mut out = Vec::new();
                for turn in [[90.0f32, 0.0, 0.0], [0.0, 90.0, 0.0], [0.0, 0.0, 90.0]] {
                    out.extend(std::iter::repeat_n(padding(turn), 4));
                }
                out.extend(base_actions(self).into_iter().filter(|a| a != STOP));
                out.push(STOP.to_string());
                out
            }
            // pad1: a tour past all six faces and back, then the solution.
            _ => {
                let yaw = [90.0f32, 0.0, 0.0];
                let pitch = [0.0f32, 90.0, 0.0];
                let tour = [yaw, yaw, yaw, pitch, [0.0, 180.0, 0.0], pitch, yaw];
                let mut out: Vec<String> = tour.into_iter().map(padding).collect();
                let mut solution = base_actions(self);
                if solution.last().map(String::as_str) == Some(STOP) {
                    solution.pop();
                }
                out.extend(solution);
                out.push(STOP.to_string());
                out
            }
        })
    }
}

impl VisGymEnv for MentalRotation3dObjaverse {
    fn reset(&mut self, seed: Option<u64>) {
        self.failure = self.start(seed).err();
    }

    fn reset_failure(&self) -> Option<PyException> {
        self.failure.clone()
    }

    fn step(&mut self, action: &str) -> Result<StepResult, PyException> {
        let refusal = |name: &str, payload: &PyValue| {
            (name == "rotate")
                .then(|| py_str_checked(payload).map(|p| format!("Action payload {p} is invalid.")))
        };
        let mut result = StepResult::feedback(EXECUTED);
        match resolve_worded(action, &turn_controls::functions(), &refusal)? {
            Resolved::Rejected(f) => result.feedback = f,
            Resolved::Call { index: 0, payload } => {
                let [yaw, pitch, roll] = payload_radians(&payload)?;
                let inc = euler_szyx(yaw, pitch, roll);
                self.current = match self.frame {
                    ActionFrame::World => mul(&inc, &self.current),
                    ActionFrame::Object => mul(&self.current, &inc),
                };
            }
            Resolved::Call { .. } => {
                result.terminated = true;
                result.reward = if angle(&self.current) <= self.tol_rad {
                    1.0
                } else {
                    0.0
                };
            }
        }
        Ok(result)
    }

    fn state_json(&self, at_reset: bool) -> Value {
        let mut rot: Vec<Vec<f64>> = self
            .current
            .iter()
            .map(|row| vec![row[0], row[1], row[2], 0.0])
            .collect();
        rot.push(vec![0.0, 0.0, 0.0, 1.0]);
        let mut s = json!({
            "current_rot": rot,
            "rotation_error": angle(&self.current),
        });
        if at_reset {
            s["object_path"] = json!(self.current_path);
            s["secret_angles"] = json!(self.secret);
        }
        s
    }

    fn prompt(&self, mode: RenderMode) -> Option<String> {
        if mode != RenderMode::RgbArray {
            return None;
        }
        let note = match self.frame {
            ActionFrame::Object => "Rotations are applied in the object's local (intrinsic) axes",
            ActionFrame::World => "Rotations are applied in the world (extrinsic) axes",
        };
        Some(format!(
            "You are solving a 3D mental rotation task. Two panels are shown:\n\
- Left: the target view of the object (identity orientation).\n\
- Right: the current view that you can rotate.\n\
Your job is to rotate the object on the right so it matches the left.\n\n\
Available actions:\n\
1. 'rotate': Apply an incremental Euler rotation (yaw, pitch, roll). Format: `('rotate', [d_roll, d_yaw, d_pitch])` with angles in degrees.\n\
2. 'stop': Submit your final orientation. Format: `('stop', 'stop')`\n\n\
Success: You succeed if the final rotation error is less than or equal to {:.1}°.\n\n\
Note: {note}\n\n\
For example:\n\
- Roll by 15°: `('rotate', [15, 0, 0])`\n\
- To submit: `('stop', 'stop')`",
            rad2deg(self.tol_rad)
        ))
    }

    fn text_frame(&self) -> Option<String> {
        None
    }

    fn frame_size(&self) -> (u32, u32) {
        (2 * self.size, self.size)
    }

    fn render(&self, frame: &mut Frame) {
        let (w, h) = self.frame_size();
        frame.resize(w, h);
        let (Some(shape), Some(target)) = (&self.shape, &self.target) else {
            frame.fill([255, 255, 255]);
            return;
        };
        let (row, side) = (w as usize * 3, self.size as usize * 3);
        let data = frame.data_mut();
        for (y, src) in target.data().chunks_exact(side).enumerate() {
            data[y * row..y * row + side].copy_from_slice(src);
        }
        shape.draw(frame, i64::from(self.size), self.size, &self.current);
    }

    /// The reference's default: the whole inverse rotation about its axis in one turn.
    fn solve(&self) -> Vec<String> {
        self.axis_angle(1)
    }

    /// The strategies by their reference names (one step each).
    fn solve_named(&self, name: &str) -> Option<Vec<String>> {
        match name {
            "oracle" => Some(self.solve()),
            other => self.solve_with(other, 1),
        }
    }

    fn clone_box(&self) -> Box<dyn VisGymEnv> {
        Box::new(self.clone())
    }

    fn functions(&self) -> Vec<(&'static str, ArgSpace)> {
        turn_controls::functions()
    }

    fn signatures(&self) -> Vec<FnSig> {
        turn_controls::signatures(
            "Turn the object: pitch, roll and minus yaw in degrees (each -180 to 180)",
        )
    }

    /// `solve(num_steps=1, uniform=True, strategy="axis-angle")`; uneven steps draw from
    /// the environment's generator in the reference and are not reproduced.
    fn solve_kwargs(&self, kw: &mut SolveKwargs) -> Result<Vec<String>, String> {
        let strategy = kw.choice(
            "strategy",
            "axis-angle",
            &[
                "axis-angle",
                "by-axis",
                "pad1_axis-angle",
                "pad1_by-axis",
                "pad3_axis-angle",
                "pad3_by-axis",
            ],
        )?;
        let steps = kw.count("num_steps")?.unwrap_or(1).min(360) as usize;
        if steps > 1 && strategy.ends_with("axis-angle") {
            // Uneven steps draw their sizes from the environment's generator.
            kw.default_only("uniform", Value::Bool(true))?;
        } else {
            kw.ignored("uniform");
        }
        self.solve_with(strategy, steps)
            .ok_or_else(|| format!("unknown strategy {strategy}"))
    }

    /// Turns of 15° and 90° each way in each slot, and stop.
    fn presets(&self) -> Vec<String> {
        turn_controls::presets()
    }

    /// Arrows turn by 15° (left/right about the vertical axis, down/up about the
    /// horizontal one: b turns the front down), e/q clockwise/anticlockwise in the
    /// picture's plane (c is minus the yaw about the view axis); a/d and w/s by 90°.
    fn keymap(&self) -> Vec<KeyBinding> {
        turn_controls::keymap(false)
    }

    fn pointer_mode(&self) -> Option<PointerMode> {
        Some(PointerMode::Drag)
    }

    /// A drag turns the object as if grabbed: half a degree per pixel about the vertical
    /// axis across (payload a, the reference's pitch about y) and about the horizontal
    /// axis down (payload b, its roll about x), to 0.1°, within ±180°.
    fn pointer_action(&self, gesture: Gesture) -> Option<String> {
        turn_controls::drag_turn(gesture, py_round1)
    }

    fn words(&self) -> Words {
        Words {
            goal: "Turn the right object back to the left one's orientation, then stop",
            success: "stopped within the tolerance of the original orientation",
            failure: "stopped outside the tolerance",
        }
    }

    /// The angle of the remaining rotation, in radians.
    fn remaining(&self) -> f64 {
        angle(&self.current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_walk_lists_a_folders_files_before_its_subfolders() {
        let mut p = vec!["b/x.glb", "a.glb", "c.glb", "b/a/y.glb", "b/z.glb", "B.glb"];
        p.sort_by(|a, b| walk_order(a, b));
        assert_eq!(
            p,
            ["B.glb", "a.glb", "c.glb", "b/x.glb", "b/z.glb", "b/a/y.glb"]
        );
        assert!(is_model("x/Y.GLB") && is_model(".h.gltf") && !is_model("a.bin"));
        assert_eq!(joined("a/b", "../c.bin").as_deref(), Some("a/c.bin"));
        assert_eq!(joined("", "../c.bin"), None);
    }

    #[test]
    fn padding_turns_keep_their_negative_zeros() {
        assert_eq!(padding([90.0, 0.0, 0.0]), "('rotate', [0.0, 0.0, -90.0])");
        assert_eq!(padding([0.0, 90.0, 0.0]), "('rotate', [90.0, 0.0, -0.0])");
        assert_eq!(padding([0.0, 0.0, 90.0]), "('rotate', [0.0, 90.0, -0.0])");
    }
}
