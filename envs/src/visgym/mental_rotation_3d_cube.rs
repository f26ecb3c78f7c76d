//! Mental Rotation 3D (Cube): a polycube of 4 (easy) or 6 (hard) straight segments is
//! shown in its original orientation and under a hidden rotation; the agent applies
//! `('rotate', [dyaw, dpitch, droll])` in degrees (world axes in the evaluation) and
//! stops within 10° of the original.
//!
//! The shape comes from CPython's `random.Random(seed)`, the hidden rotation from
//! numpy's generator; increments go through float32 as in the reference. A reset
//! without a seed draws the reference's shape from OS entropy; here the shape is
//! seeded from a copy of the numpy generator instead, so the rotation stays exact.

use serde_json::{json, Value};

use super::action::{resolve, Resolved, StepResult, EXECUTED};
use super::numpy_array::{discover, leaf_to_f64};
use super::polycube_view::draw_polycube;
use super::python::format::float_repr;
use super::python::PyException;
use super::rotation3::{
    angle, euler_from_szyx, euler_szyx, mul, rad2deg, transpose, Mat3, IDENTITY,
};
use super::signature::FnSig;
use super::solve_kwargs::SolveKwargs;
use super::spaces::ArgSpace;
use super::turn_controls;
use super::{RenderMode, VisGymEnv};
use crate::core::env::{KeyBinding, Words};
use crate::core::frame::Frame;
use crate::core::input::{Gesture, PointerMode};
use crate::rng::{NpRandom, PyRandom};

/// `np.deg2rad(10.0)`.
const ANGLE_TOL: f64 = 0.174_532_925_199_432_95;

const AXES: [(i64, i64, i64); 6] = [
    (1, 0, 0),
    (-1, 0, 0),
    (0, 1, 0),
    (0, -1, 0),
    (0, 0, 1),
    (0, 0, -1),
];

/// Which frame rotation increments are applied in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionFrame {
    /// `R_inc · R` (the evaluation's setting).
    World,
    /// `R · R_inc` (the registry default).
    Object,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CubeConfig {
    pub num_segments: usize,
    pub action_frame: ActionFrame,
    pub seed: u64,
}

#[derive(Clone, Debug)]
pub struct MentalRotation3dCube {
    config: CubeConfig,
    rng: NpRandom,
    seg_lens: Vec<i64>,
    dir_indices: Vec<usize>,
    cubes: Vec<(i64, i64, i64)>,
    secret: (f64, f64, f64),
    current: Mat3,
    /// The frame up to the rotated panel (white, then the target panel), drawn once per
    /// shape: only the right panel changes between frames.
    target_view: TargetView,
}

/// [`MentalRotation3dCube`]'s kept drawing of the target panel, shared by clones.
#[derive(Clone, Default)]
struct TargetView(std::cell::OnceCell<std::rc::Rc<Frame>>);

impl std::fmt::Debug for TargetView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let drawn = self.0.get().is_some();
        f.debug_struct("TargetView").field("drawn", &drawn).finish()
    }
}

/// numpy's `round(np.float64, 1)`: `rint(x * 10) / 10`.
fn np_round1(x: f64) -> f64 {
    libm::rint(x * 10.0) / 10.0
}

impl MentalRotation3dCube {
    pub fn new(config: CubeConfig) -> Self {
        MentalRotation3dCube {
            rng: NpRandom::seeded(u128::from(config.seed)),
            config,
            seg_lens: Vec::new(),
            dir_indices: Vec::new(),
            cubes: Vec::new(),
            secret: (0.0, 0.0, 0.0),
            current: IDENTITY,
            target_view: TargetView::default(),
        }
    }

    pub fn rotation(&self) -> &Mat3 {
        &self.current
    }

    /// `_generate_segmented_shape`: segment lengths, then turn directions.
    fn generate_shape(&mut self, shape_seed: i128) {
        let mut rng = PyRandom::new(shape_seed);
        self.seg_lens = (0..self.config.num_segments)
            .map(|_| rng.randint(2, 5).unwrap_or(2))
            .collect();
        self.dir_indices.clear();
        let mut dir = AXES[0];
        for _ in 0..self.config.num_segments {
            let candidates: Vec<usize> = (0..6)
                .filter(|&i| {
                    let a = AXES[i];
                    a.0 * dir.0 + a.1 * dir.1 + a.2 * dir.2 == 0
                })
                .collect();
            let chosen = *rng.choice(&candidates).unwrap_or(&0);
            self.dir_indices.push(chosen);
            dir = AXES[chosen];
        }
        let mut pos = (0i64, 0i64, 0i64);
        let mut dir = AXES[0];
        let mut cubes = vec![pos];
        for (i, &len) in self.seg_lens.iter().enumerate() {
            for _ in 0..len {
                pos = (pos.0 + dir.0, pos.1 + dir.1, pos.2 + dir.2);
                if !cubes.contains(&pos) {
                    cubes.push(pos);
                }
            }
            if let Some(&d) = self.dir_indices.get(i) {
                dir = AXES[d];
            }
        }
        self.cubes = cubes;
        self.target_view = TargetView::default();
    }

    fn rotate_actions(&self, pad: bool) -> Vec<String> {
        let total = transpose(&self.current);
        let (yaw, pitch, roll) = euler_from_szyx(&total);
        let mut out = Vec::new();
        let axes = [
            (yaw, "[90.0, 0.0, 0.0]"),
            (pitch, "[0.0, 90.0, 0.0]"),
            (roll, "[0.0, 0.0, 90.0]"),
        ];
        for (k, (value, padding)) in axes.into_iter().enumerate() {
            if value.abs() <= 1e-8 {
                continue;
            }
            if pad {
                for _ in 0..4 {
                    out.push(format!("('rotate', {padding})"));
                }
            }
            let deg = float_repr(np_round1(rad2deg(value)));
            let payload = match k {
                0 => format!("[{deg}, 0.0, 0.0]"),
                1 => format!("[0.0, {deg}, 0.0]"),
                _ => format!("[0.0, 0.0, {deg}]"),
            };
            out.push(format!("('rotate', {payload})"));
        }
        if out.is_empty() {
            return vec!["('stop', 'stop')".to_string()];
        }
        out.push("('stop', 'stop')".to_string());
        out
    }
}

impl VisGymEnv for MentalRotation3dCube {
    fn reset(&mut self, seed: Option<u64>) {
        if let Some(s) = seed {
            self.rng = NpRandom::seeded(u128::from(s));
        }
        let shape_seed = match seed {
            Some(s) => i128::from(s),
            None => i128::from(self.rng.clone().integers(0, 1 << 32).unwrap_or(0)),
        };
        self.generate_shape(shape_seed);
        let two_pi = 2.0 * std::f64::consts::PI;
        let yaw = self.rng.uniform(0.0, two_pi);
        let pitch = self.rng.uniform(0.0, two_pi);
        let roll = self.rng.uniform(0.0, two_pi);
        self.secret = (yaw, pitch, roll);
        self.current = euler_szyx(yaw, pitch, roll);
    }

    fn step(&mut self, action: &str) -> Result<StepResult, PyException> {
        let mut result = StepResult::feedback(EXECUTED);
        match resolve(action, &turn_controls::functions())? {
            Resolved::Rejected(f) => result.feedback = f,
            Resolved::Call { index: 0, payload } => {
                // `np.array(payload, float32)`, then `deg2rad` in float32.
                let d = discover(&payload)?;
                let k = std::f32::consts::PI / 180.0;
                let mut rad = [0.0f64; 3];
                for (slot, leaf) in rad.iter_mut().zip(&d.leaves) {
                    let v = leaf_to_f64(leaf)?.unwrap_or(f64::NAN) as f32;
                    *slot = f64::from(v * k);
                }
                let inc = euler_szyx(rad[0], rad[1], rad[2]);
                self.current = match self.config.action_frame {
                    ActionFrame::World => mul(&inc, &self.current),
                    ActionFrame::Object => mul(&self.current, &inc),
                };
            }
            Resolved::Call { .. } => {
                result.terminated = true;
                result.reward = if angle(&self.current) <= ANGLE_TOL {
                    1.0
                } else {
                    0.0
                };
            }
        }
        Ok(result)
    }

    fn state_json(&self, at_reset: bool) -> Value {
        let mut v = json!({
            "current_rot": self.current,
            "rotation_error": angle(&self.current),
        });
        if at_reset {
            v["shape_state"] = json!({
                "seg_lens": self.seg_lens,
                "dir_indices": self.dir_indices,
            });
            v["secret_yaw"] = json!(self.secret.0);
            v["secret_pitch"] = json!(self.secret.1);
            v["secret_roll"] = json!(self.secret.2);
        }
        v
    }

    fn prompt(&self, mode: RenderMode) -> Option<String> {
        if mode == RenderMode::Ansi {
            return None;
        }
        let note = match self.config.action_frame {
            ActionFrame::World => "Rotations are applied in the world (extrinsic) axes",
            ActionFrame::Object => "Rotations are applied in the object's local (intrinsic) axes",
        };
        Some(format!(
            "You see two images side-by-side:\n\
- Left: the original 3D object (target orientation)\n\
- Right: the same object under an unknown rotation\n\
\n\
Your goal is to rotate the right object back to the original target orientation.\n\
\n\
Available actions:\n\
1. 'rotate': Rotate the 3D object by Euler angles. Format: `('rotate', [dyaw, dpitch, droll])` where each of dyaw, dpitch, droll is in degrees between -180 and 180.\n\
2. 'stop': Submit your final rotation. Format: `('stop', 'stop')`\n\
\n\
Note: {note}\n\
\n\
Success: You succeed if you end up within 10.0 degrees of target orientation.\n\
\n\
Please respond with exactly one action and its arguments in the specified format. For example:\n\
- To rotate in yaw: `('rotate', [15.0, 0.0, 0.0])`\n\
- To rotate in roll: `('rotate', [0.0, 0.0, -10.0])`\n\
- To submit: `('stop', 'stop')`"
        ))
    }

    fn text_frame(&self) -> Option<String> {
        None
    }

    fn frame_size(&self) -> (u32, u32) {
        (512, 256)
    }

    fn render(&self, frame: &mut Frame) {
        let target = self.target_view.0.get_or_init(|| {
            let mut f = Frame::new(512, 256);
            f.fill([255, 255, 255]);
            draw_polycube(&mut f, 0.0, 256.0, &self.cubes, &IDENTITY);
            std::rc::Rc::new(f)
        });
        frame.copy_from(target);
        draw_polycube(frame, 256.0, 256.0, &self.cubes, &self.current);
    }

    /// The reference's default `pad3_by-axis`: for each of yaw, pitch and roll of the
    /// inverse rotation, four 90° padding turns about that axis, then the turn.
    fn solve(&self) -> Vec<String> {
        self.rotate_actions(true)
    }

    /// `by-axis`: the same turns without padding.
    fn solve_named(&self, name: &str) -> Option<Vec<String>> {
        match name {
            "oracle" => Some(self.solve()),
            "by-axis" => Some(self.rotate_actions(false)),
            _ => None,
        }
    }

    fn clone_box(&self) -> Box<dyn VisGymEnv> {
        Box::new(self.clone())
    }

    fn functions(&self) -> Vec<(&'static str, ArgSpace)> {
        turn_controls::functions()
    }

    fn signatures(&self) -> Vec<FnSig> {
        turn_controls::signatures("Rotate by yaw, pitch and roll in degrees (each -180 to 180)")
    }

    /// `solve(num_steps=3, uniform=True, strategy="pad3_by-axis")` with the strategies
    /// `pad3_by-axis` and `by-axis` (which read neither `num_steps` nor `uniform`).
    fn solve_kwargs(&self, kw: &mut SolveKwargs) -> Result<Vec<String>, String> {
        let strategy = kw.choice("strategy", "pad3_by-axis", &["pad3_by-axis", "by-axis"])?;
        kw.ignored("num_steps");
        kw.ignored("uniform");
        Ok(self.rotate_actions(strategy == "pad3_by-axis"))
    }

    /// Turns of 15° and 90° each way about each axis, and stop.
    fn presets(&self) -> Vec<String> {
        turn_controls::presets()
    }

    /// Arrows turn yaw and pitch by 15°, q/e roll; shift-less letters a/d and w/s
    /// turn yaw and pitch by 90°.
    fn keymap(&self) -> Vec<KeyBinding> {
        turn_controls::keymap(true)
    }

    fn pointer_mode(&self) -> Option<PointerMode> {
        Some(PointerMode::Drag)
    }

    /// A drag turns the object: half a degree of yaw per pixel across, of pitch per
    /// pixel down (to 0.1°, within ±180°).
    fn pointer_action(&self, gesture: Gesture) -> Option<String> {
        turn_controls::drag_turn(gesture, np_round1)
    }

    fn words(&self) -> Words {
        Words {
            goal: "Turn the right object back to the left one's orientation, then stop",
            success: "stopped within 10° of the original",
            failure: "stopped more than 10° off",
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
    use crate::visgym::VisGymEnv;

    /// The frame as drawn before the target panel was kept: white, both panels.
    fn fresh(env: &MentalRotation3dCube) -> Frame {
        let mut f = Frame::new(512, 256);
        f.fill([255, 255, 255]);
        draw_polycube(&mut f, 0.0, 256.0, &env.cubes, &IDENTITY);
        draw_polycube(&mut f, 256.0, 256.0, &env.cubes, &env.current);
        f
    }

    #[test]
    fn a_kept_target_panel_draws_what_a_fresh_frame_does() {
        let mut env = MentalRotation3dCube::new(CubeConfig {
            num_segments: 4,
            action_frame: ActionFrame::World,
            seed: 0,
        });
        let mut frame = Frame::default();
        let mut shapes = std::collections::HashSet::new();
        for episode in 0..6u64 {
            env.reset(Some(episode));
            shapes.insert(env.cubes.clone());
            for turn in 0..8 {
                env.render(&mut frame);
                assert_eq!(frame, fresh(&env), "episode {episode}, turn {turn}");
                // A clone shares the kept panel and draws its own rotation.
                let mut other = env.clone();
                other.step("('rotate', [0.0, 90.0, 0.0])").ok();
                let mut g = Frame::default();
                other.render(&mut g);
                assert_eq!(g, fresh(&other));
                env.step(&format!("('rotate', [{}.0, -20.0, 5.0])", 15 * turn))
                    .ok();
            }
        }
        assert!(
            shapes.len() >= 5,
            "resets draw new shapes: {}",
            shapes.len()
        );
    }
}
