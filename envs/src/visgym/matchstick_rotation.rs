//! Matchstick Rotation: move and turn a blue stick onto a red dashed target with
//! `('move', [dx, dy, dθ])`, where a unit of movement is scaled by a hidden factor
//! (0.3 to 3), then stop within the position and angle tolerances.
//!
//! Positions are in units (pixels = units × scale); the move applies the payload's
//! unrounded values after a float32 validity check, as the reference does.

use serde_json::{json, Value};

use super::action::{resolve, Resolved, StepResult, EXECUTED};
use super::numpy_array::leaf_to_f64;
use super::python::format::{float_repr, py_round1};
use super::python::{PyException, PyValue};
use super::signature::{FnSig, Payload};
use super::solve_kwargs::SolveKwargs;
use super::spaces::ArgSpace;
use super::{RenderMode, VisGymEnv};
use crate::core::action::ArgKind;
use crate::core::env::{KeyBinding, Words};
use crate::core::frame::{Frame, Rgb};
use crate::core::input::{Gesture, PointerMode};
use crate::render::raster;
use crate::rng::NpRandom;

#[derive(Clone, Debug, PartialEq)]
pub struct MatchstickRotationConfig {
    /// Canvas width and height in pixels (the evaluation uses 120×120).
    pub canvas: (f64, f64),
    pub stick_length: f64,
    pub pos_tolerance: f64,
    pub ang_tolerance: f64,
    pub seed: u64,
}

#[derive(Clone, Debug)]
pub struct MatchstickRotation {
    config: MatchstickRotationConfig,
    rng: NpRandom,
    scale: f64,
    target: (f64, f64, f64),
    mid: (f64, f64),
    ang: f64,
}

/// Python's float `%`: the result has the sign of the divisor.
pub fn py_mod(a: f64, b: f64) -> f64 {
    let m = libm::fmod(a, b);
    if m != 0.0 {
        if (b < 0.0) != (m < 0.0) {
            m + b
        } else {
            m
        }
    } else {
        libm::copysign(0.0, b)
    }
}

fn functions() -> Vec<(&'static str, ArgSpace)> {
    vec![
        (
            "move",
            ArgSpace::Box {
                low: f32::NEG_INFINITY,
                high: f32::INFINITY,
                shape: vec![3],
            },
        ),
        ("stop", ArgSpace::text4()),
    ]
}

const UNIT_MOVES: [(i64, i64); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The compass sector (0 = east, counter-clockwise) of a direction.
fn sector(dx: f64, dy: f64) -> usize {
    let deg = libm::atan2(dy, dx) * (180.0 / std::f64::consts::PI);
    let deg = py_mod(deg + 360.0, 360.0);
    (py_mod(deg + 22.5, 360.0) / 45.0) as usize
}

fn move_text(values: [f64; 3]) -> String {
    format!(
        "('move', [{}, {}, {}])",
        float_repr(values[0]),
        float_repr(values[1]),
        float_repr(values[2])
    )
}

impl MatchstickRotation {
    /// The reference's constructor draws a scale and a target once.
    pub fn new(config: MatchstickRotationConfig) -> Self {
        let mut env = MatchstickRotation {
            rng: NpRandom::seeded(u128::from(config.seed)),
            config,
            scale: 1.0,
            target: (0.0, 0.0, 0.0),
            mid: (0.0, 0.0),
            ang: 0.0,
        };
        env.sample_scale_and_target();
        env
    }

    fn sample_scale_and_target(&mut self) {
        self.scale = self.rng.uniform(0.3, 3.0);
        let (w, h) = self.config.canvas;
        let x = self.rng.uniform(0.0, w / self.scale);
        let y = self.rng.uniform(0.0, h / self.scale);
        let a = self.rng.uniform(0.0, 360.0);
        self.target = (x, y, a);
    }

    /// The smallest rotation aligning the stick modulo 180° and the unit offset.
    fn deltas(&self) -> (f64, f64, f64) {
        let mut d_ang = py_mod(self.target.2 - self.ang, 180.0);
        if d_ang > 90.0 {
            d_ang -= 180.0;
        }
        let dx = (self.target.0 - self.mid.0) / self.scale;
        let dy = (self.target.1 - self.mid.1) / self.scale;
        (dx, dy, d_ang)
    }

    /// The reference's `solve(num_steps, strategy="unit_first")`: compass probes of
    /// decreasing length (the simulated position ignores the scale, as the reference's
    /// does), then the remaining offset and the rotation.
    pub fn solve_unit_first(&self, num_steps: usize) -> Vec<String> {
        let (dx, dy, d_ang) = self.deltas();
        let mut out = Vec::new();
        if num_steps <= 2 {
            let k = sector(self.target.0 - self.mid.0, self.target.1 - self.mid.1);
            let (ux, uy) = UNIT_MOVES[k];
            out.push(move_text([ux as f64, uy as f64, 0.0]));
            out.push(move_text([
                py_round1(dx - ux as f64),
                py_round1(dy - uy as f64),
                py_round1(d_ang),
            ]));
        } else {
            let mut pos = self.mid;
            let (mut total_x, mut total_y) = (0i64, 0i64);
            for i in 0..num_steps - 1 {
                let k = sector(self.target.0 - pos.0, self.target.1 - pos.1);
                let length = (num_steps - 1 - i) as i64;
                let (sx, sy) = (UNIT_MOVES[k].0 * length, UNIT_MOVES[k].1 * length);
                out.push(move_text([sx as f64, sy as f64, 0.0]));
                pos = (pos.0 + sx as f64, pos.1 + sy as f64);
                total_x += sx;
                total_y += sy;
            }
            out.push(move_text([
                py_round1(dx - total_x as f64),
                py_round1(dy - total_y as f64),
                py_round1(d_ang),
            ]));
        }
        out.push("('stop', 'stop')".to_string());
        out
    }

    /// The position error in units and the angle error modulo 180° (0-90), as the
    /// reference measures them at `stop`.
    fn errors(&self) -> (f64, f64) {
        let (ex, ey) = (
            self.mid.0 * self.scale - self.target.0 * self.scale,
            self.mid.1 * self.scale - self.target.1 * self.scale,
        );
        let pos_err = f64::sqrt(ex * ex + ey * ey) / self.scale;
        let raw = py_mod(self.ang - self.target.2, 180.0);
        let ang_err = if raw <= 90.0 { raw } else { 180.0 - raw };
        (pos_err, ang_err)
    }

    fn to_pixel(&self, x: f64, y: f64) -> (f64, f64) {
        // Matplotlib's default axes box in a 400×400 figure: x 50..360, y 48..356.
        let (w, h) = self.config.canvas;
        (50.0 + x / w * 310.0, 356.0 - y / h * 308.0)
    }

    fn draw_stick(
        &self,
        frame: &mut Frame,
        mid: (f64, f64),
        ang: f64,
        width: f64,
        color: Rgb,
        dashed: bool,
    ) {
        let t = ang.to_radians();
        let half = self.config.stick_length / 2.0;
        let (dx, dy) = (half * libm::cos(t), half * libm::sin(t));
        let (mx, my) = (mid.0 * self.scale, mid.1 * self.scale);
        let a = self.to_pixel(mx - dx, my - dy);
        let b = self.to_pixel(mx + dx, my + dy);
        if !dashed {
            raster::line(frame, a, b, width, color);
            return;
        }
        // Matplotlib's '--' pattern: 3.7 on, 1.6 off, in line widths.
        let len = f64::sqrt((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1));
        if len == 0.0 {
            return;
        }
        let (on, off) = (3.7 * width, 1.6 * width);
        let mut s = 0.0;
        while s < len {
            let e = (s + on).min(len);
            let p = |u: f64| (a.0 + (b.0 - a.0) * u / len, a.1 + (b.1 - a.1) * u / len);
            raster::line(frame, p(s), p(e), width, color);
            s = e + off;
        }
    }
}

impl VisGymEnv for MatchstickRotation {
    fn reset(&mut self, seed: Option<u64>) {
        if let Some(s) = seed {
            self.rng = NpRandom::seeded(u128::from(s));
        }
        self.sample_scale_and_target();
        let (w, h) = self.config.canvas;
        let x = self.rng.uniform(0.0, w / self.scale);
        let y = self.rng.uniform(0.0, h / self.scale);
        let a = self.rng.uniform(0.0, 360.0);
        self.mid = (x, y);
        self.ang = a;
    }

    fn step(&mut self, action: &str) -> Result<StepResult, PyException> {
        let mut result = StepResult::feedback(EXECUTED);
        match resolve(action, &functions())? {
            Resolved::Rejected(f) => result.feedback = f,
            Resolved::Call { index: 0, payload } => {
                let items = match &payload {
                    PyValue::Tuple(v) | PyValue::List(v) => v.clone(),
                    _ => Vec::new(),
                };
                // `map(float, payload)` on the original values.
                let mut d = [0.0f64; 3];
                for (slot, v) in d.iter_mut().zip(&items) {
                    *slot = leaf_to_f64(v)?.unwrap_or(f64::NAN);
                }
                let (w, h) = self.config.canvas;
                let x = self.mid.0 + d[0] * self.scale;
                let y = self.mid.1 + d[1] * self.scale;
                self.ang = py_mod(self.ang + d[2], 360.0);
                self.mid = (
                    x.max(0.0).min(w / self.scale),
                    y.max(0.0).min(h / self.scale),
                );
            }
            Resolved::Call { .. } => {
                result.terminated = true;
                let (pos_err, ang_err) = self.errors();
                result.reward = if pos_err <= self.config.pos_tolerance
                    && ang_err <= self.config.ang_tolerance
                {
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
            "mid": [self.mid.0, self.mid.1],
            "ang": self.ang,
        });
        if at_reset {
            v["scale"] = json!(self.scale);
            v["target_mid"] = json!([self.target.0, self.target.1]);
            v["target_ang"] = json!(self.target.2);
        }
        v
    }

    fn prompt(&self, mode: RenderMode) -> Option<String> {
        if mode == RenderMode::Ansi {
            return None;
        }
        let tol = |v: f64| {
            if v.fract() == 0.0 && v.abs() < 1e15 {
                format!("{}", v as i64)
            } else {
                float_repr(v)
            }
        };
        let (pos, ang) = (
            tol(self.config.pos_tolerance),
            tol(self.config.ang_tolerance),
        );
        Some(format!(
            "You see a blue stick and a red target stick on a canvas. Your goal is to move and rotate the blue stick to match the red target stick. Unit moves are in an *unknown* scale (could be tiny or huge).\n\
\n\
Available actions:\n\
1. 'move': Translate by dx,dy units (any real number) and rotate by dθ° (any real number). Format: `('move', [dx, dy, dθ])`\n\
2. 'stop': Submit your current stick as final. You win (+1) if your stick is within {pos}px and {ang}° of the target. Format: `('stop', 'stop')`\n\
\n\
Please respond with exactly one action and its arguments in the specified format. For example:\n\
- Move right by 2 units and rotate 45°: `('move', [2, 0, 45])`\n\
- Move diagonally and rotate: `('move', [1.5, -0.8, 90])`\n\
- Finalize the stick position: `('stop', 'stop')`"
        ))
    }

    fn text_frame(&self) -> Option<String> {
        None
    }

    fn frame_size(&self) -> (u32, u32) {
        (400, 400)
    }

    fn render(&self, frame: &mut Frame) {
        frame.resize(400, 400);
        frame.fill([255, 255, 255]);
        // Lines are clipped to the axes box; points to pixels at 100 dpi.
        let mut plot = Frame::new(400, 400);
        plot.fill([255, 255, 255]);
        self.draw_stick(
            &mut plot,
            (self.target.0, self.target.1),
            self.target.2,
            2.0 * 100.0 / 72.0,
            [255, 0, 0],
            true,
        );
        self.draw_stick(
            &mut plot,
            self.mid,
            self.ang,
            3.0 * 100.0 / 72.0,
            [0, 0, 255],
            false,
        );
        for y in 48..356 {
            for x in 50..360 {
                if let Some(c) = plot.get(x, y) {
                    frame.set(x, y, c);
                }
            }
        }
        // The border patch is clipped to the axes: only its inner half shows.
        let bw = 100.0 / 72.0;
        let (x0, y0, x1, y1) = (50.0, 48.0, 360.0, 356.0);
        let black = [0, 0, 0];
        raster::fill_rect(frame, x0, y0, x1, y0 + bw, black);
        raster::fill_rect(frame, x0, y1 - bw, x1, y1, black);
        raster::fill_rect(frame, x0, y0, x0 + bw, y1, black);
        raster::fill_rect(frame, x1 - bw, y0, x1, y1, black);
    }

    /// The evaluation harness's demonstrations: `unit_first` with three steps (two
    /// unit-direction probes, then the aligning move).
    fn solve(&self) -> Vec<String> {
        self.solve_unit_first(3)
    }

    /// `unit_first_N` for any number of steps (the reference's default is 5).
    fn solve_named(&self, name: &str) -> Option<Vec<String>> {
        if name == "oracle" {
            return Some(self.solve());
        }
        let n: usize = name.strip_prefix("unit_first_")?.parse().ok()?;
        Some(self.solve_unit_first(n))
    }

    fn clone_box(&self) -> Box<dyn VisGymEnv> {
        Box::new(self.clone())
    }

    fn functions(&self) -> Vec<(&'static str, ArgSpace)> {
        functions()
    }

    fn signatures(&self) -> Vec<FnSig> {
        vec![
            FnSig::new(
                "move",
                "Translate by dx, dy units (of an unknown scale) and rotate by dθ degrees",
                Payload::Value,
                &[(
                    "delta",
                    ArgKind::Floats {
                        len: 3,
                        min: -f64::MAX,
                        max: f64::MAX,
                    },
                )],
            ),
            FnSig::stop(),
        ]
    }

    /// `solve(num_steps=5, strategy="unit_first")`.
    fn solve_kwargs(&self, kw: &mut SolveKwargs) -> Result<Vec<String>, String> {
        kw.choice("strategy", "unit_first", &["unit_first"])?;
        let n = kw.count("num_steps")?.unwrap_or(5);
        Ok(self.solve_unit_first(n as usize))
    }

    /// Unit moves along each axis, turns of 15° and 5° each way, and stop.
    fn presets(&self) -> Vec<String> {
        let mut p: Vec<String> = [
            [1.0, 0.0, 0.0],
            [-1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, -1.0, 0.0],
            [0.0, 0.0, 15.0],
            [0.0, 0.0, -15.0],
            [0.0, 0.0, 5.0],
            [0.0, 0.0, -5.0],
        ]
        .into_iter()
        .map(move_text)
        .collect();
        p.push("('stop', 'stop')".to_string());
        p
    }

    fn keymap(&self) -> Vec<KeyBinding> {
        vec![
            KeyBinding::new("ArrowRight", 0),
            KeyBinding::new("ArrowLeft", 1),
            KeyBinding::new("ArrowUp", 2),
            KeyBinding::new("ArrowDown", 3),
            KeyBinding::new("q", 4),
            KeyBinding::new("e", 5),
            KeyBinding::new("a", 6),
            KeyBinding::new("d", 7),
            KeyBinding::new("Enter", 8),
        ]
    }

    fn pointer_mode(&self) -> Option<PointerMode> {
        Some(PointerMode::Drag)
    }

    /// A drag moves the stick by the dragged distance: the environment knows its
    /// scale, so the move is the drag converted to units (to 0.01).
    fn pointer_action(&self, gesture: Gesture) -> Option<String> {
        let Gesture::Drag { from, to } = gesture else {
            return None;
        };
        let (w, h) = self.config.canvas;
        let units = |pixels: f64, data_per_pixel: f64| {
            (pixels * data_per_pixel / self.scale * 100.0).round() / 100.0 + 0.0
        };
        let dx = units(to.0 - from.0, w / 310.0);
        let dy = units(from.1 - to.1, h / 308.0);
        (dx != 0.0 || dy != 0.0).then(|| move_text([dx, dy, 0.0]))
    }

    fn words(&self) -> Words {
        Words {
            goal: "Move and turn the blue stick onto the red dashed one, then stop",
            success: "stopped on the target",
            failure: "stopped off the target",
        }
    }

    /// The position and angle errors, each in units of its tolerance, summed.
    fn remaining(&self) -> f64 {
        let (pos, ang) = self.errors();
        pos / self.config.pos_tolerance + ang / self.config.ang_tolerance
    }
}
