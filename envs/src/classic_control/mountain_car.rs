//! MountainCar-v0 (`docs/environments.md`, "MountainCar"): an under-powered car in a
//! valley must rock back and forth to reach the flag on the right hill.

use super::canvas::{Canvas, BLACK};
use crate::core::env::{
    discrete_action, Action, ActionSpace, Env, Floats, Info, KeyBinding, Observation,
    ProgressMeasure, Reset, Signals, Step, Words,
};
use crate::core::error::EnvError;
use crate::core::frame::Frame;
use crate::core::oracle::{Control, Solver};
use crate::render::raster::rotate;
use crate::rng::EnvRng;

const MIN_POSITION: f64 = -1.2;
const MAX_POSITION: f64 = 0.6;
const MAX_SPEED: f64 = 0.07;
const GOAL_POSITION: f64 = 0.5;
const GOAL_VELOCITY: f64 = 0.0;
const FORCE: f64 = 0.001;
const GRAVITY: f64 = 0.0025;

const WIDTH: u32 = 600;
const HEIGHT: u32 = 400;
const WHEEL_COLOR: [u8; 3] = [128, 128, 128];
const FLAG_COLOR: [u8; 3] = [204, 204, 0];

#[derive(Clone, Debug)]
pub struct MountainCar {
    id: &'static str,
    rng: EnvRng,
    /// `[position, velocity]`; the valley floor at rest until the first reset.
    state: [f64; 2],
    has_reset: bool,
}

impl MountainCar {
    pub fn new(id: &'static str) -> Self {
        Self {
            id,
            rng: EnvRng::default(),
            state: [-0.5, 0.0],
            has_reset: false,
        }
    }

    fn obs(&self) -> Observation {
        Observation::Vector(Floats::from_slice(&self.state.map(|v| v as f32)))
    }
}

/// numpy's `clip` of a float64 scalar: `min(max(x, lo), hi)`.
fn clip(x: f64, lo: f64, hi: f64) -> f64 {
    let v = if x < lo { lo } else { x };
    if v > hi {
        hi
    } else {
        v
    }
}

/// The track's height at `x` (`sin(3x)·0.45 + 0.55`).
fn height(x: f64) -> f64 {
    libm::sin(3.0 * x) * 0.45 + 0.55
}

impl Env for MountainCar {
    fn id(&self) -> &str {
        self.id
    }

    fn action_space(&self) -> ActionSpace {
        ActionSpace::Discrete { n: 3 }
    }

    fn action_names(&self) -> Vec<String> {
        vec![
            "accelerate left".into(),
            "don't accelerate".into(),
            "accelerate right".into(),
        ]
    }

    fn noop(&self) -> Option<usize> {
        Some(1)
    }

    fn keymap(&self) -> Vec<KeyBinding> {
        vec![
            KeyBinding::new("ArrowLeft", 0),
            KeyBinding::new("ArrowDown", 1),
            KeyBinding::new("s", 1),
            KeyBinding::new(" ", 1),
            KeyBinding::new("ArrowRight", 2),
        ]
    }

    fn reset(&mut self, seed: Option<u64>) -> Reset {
        let rng = self.rng.reset(seed);
        self.state = [rng.uniform(-0.6, -0.4), 0.0];
        self.has_reset = true;
        Reset {
            obs: self.obs(),
            info: Info::default(),
        }
    }

    fn step(&mut self, action: Action) -> Result<Step, EnvError> {
        let action = discrete_action(&action, 3)?;
        if !self.has_reset {
            return Err(EnvError::NotReset);
        }
        let [mut position, mut velocity] = self.state;
        // The parenthesised sum is formed before it is added to the velocity.
        velocity += (action as f64 - 1.0) * FORCE + libm::cos(3.0 * position) * (-GRAVITY);
        velocity = clip(velocity, -MAX_SPEED, MAX_SPEED);
        position += velocity;
        position = clip(position, MIN_POSITION, MAX_POSITION);
        if position == MIN_POSITION && velocity < 0.0 {
            velocity = 0.0;
        }
        let terminated = position >= GOAL_POSITION && velocity >= GOAL_VELOCITY;
        self.state = [position, velocity];
        Ok(Step {
            obs: self.obs(),
            reward: -1.0,
            terminated,
            truncated: false,
            info: Info::default(),
            signals: Signals {
                success: terminated,
                events: crate::Events::NONE,
                ..Signals::default()
            },
        })
    }

    fn observation(&self) -> Observation {
        self.obs()
    }

    fn physical_state(&self) -> Option<Vec<f64>> {
        Some(self.state.to_vec())
    }

    fn frame_size(&self) -> (u32, u32) {
        (WIDTH, HEIGHT)
    }

    fn render(&self, frame: &mut Frame) {
        let world_width = MAX_POSITION - MIN_POSITION;
        let scale = f64::from(WIDTH) / world_width;
        let (carwidth, carheight) = (40.0, 20.0);
        let pos = self.state[0];
        let mut canvas = Canvas::over(frame, background());

        let clearance = 10.0;
        let angle = libm::cos(3.0 * pos);
        let base = (
            (pos - MIN_POSITION) * scale,
            clearance + height(pos) * scale,
        );
        let (l, r, t, b) = (-carwidth / 2.0, carwidth / 2.0, carheight, 0.0);
        let car: Vec<(f64, f64)> = [(l, b), (l, t), (r, t), (r, b)]
            .iter()
            .map(|&(px, py)| {
                let (rx, ry) = rotate(px, py, angle);
                (rx + base.0, ry + base.1)
            })
            .collect();
        canvas.polygon(&car, BLACK);
        for cx in [carwidth / 4.0, -carwidth / 4.0] {
            let (rx, ry) = rotate(cx, 0.0, angle);
            canvas.circle(rx + base.0, ry + base.1, carheight / 2.5, WHEEL_COLOR);
        }
        // The reference draws the flag last, over the car.
        draw_flag(&mut canvas, scale);
    }

    fn render_text(&self) -> String {
        let [position, velocity] = self.state;
        format!(
            "car position={position:+.4} (valley floor ≈ -0.52, flag at +0.5, left wall at \
             -1.2), velocity={velocity:+.5} (max ±0.07, + is rightward)"
        )
    }

    fn clone_box(&self) -> Box<dyn Env> {
        Box::new(self.clone())
    }

    fn render_fps(&self) -> u32 {
        30
    }
    fn words(&self) -> Words {
        Words {
            goal: "Drive the car up to the flag",
            success: "the car reached the flag",
            failure: "the episode ended",
        }
    }
    fn oracle(&self, control: Control) -> Option<Box<dyn Solver>> {
        super::oracle::solver(self, control)
    }

    fn progress(&self) -> Option<ProgressMeasure> {
        Some(ProgressMeasure {
            value: self.state[0],
            goal: GOAL_POSITION,
        })
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The track and the flag, which never move: drawn once.
fn background() -> &'static Frame {
    static BACKGROUND: std::sync::OnceLock<Frame> = std::sync::OnceLock::new();
    BACKGROUND.get_or_init(|| {
        let mut frame = Frame::default();
        let mut canvas = Canvas::new(&mut frame, WIDTH, HEIGHT);
        let world_width = MAX_POSITION - MIN_POSITION;
        let scale = f64::from(WIDTH) / world_width;
        // numpy's linspace(min, max, 100).
        let step = world_width / 99.0;
        let track: Vec<(f64, f64)> = (0..100)
            .map(|i| {
                let x = if i == 99 {
                    MAX_POSITION
                } else {
                    f64::from(i) * step + MIN_POSITION
                };
                ((x - MIN_POSITION) * scale, height(x) * scale)
            })
            .collect();
        canvas.polyline(&track, 1.0, BLACK);
        draw_flag(&mut canvas, scale);
        frame
    })
}

fn draw_flag(canvas: &mut Canvas<'_>, scale: f64) {
    let flagx = ((GOAL_POSITION - MIN_POSITION) * scale).trunc();
    let flagy1 = (height(GOAL_POSITION) * scale).trunc();
    let flagy2 = flagy1 + 50.0;
    canvas.vline(flagx, flagy1, flagy2, BLACK);
    canvas.polygon(
        &[
            (flagx, flagy2),
            (flagx, flagy2 - 10.0),
            (flagx + 25.0, flagy2 - 5.0),
        ],
        FLAG_COLOR,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reset_matches_gymnasium() {
        let mut env = MountainCar::new("MountainCar-v0");
        let r = env.reset(Some(0));
        assert_eq!(
            env.physical_state().unwrap(),
            vec![-0.4726076625357092, 0.0]
        );
        assert_eq!(
            r.obs,
            Observation::Vector(Floats::from_slice(&[-0.4726076625357092_f64 as f32, 0.0]))
        );
    }

    #[test]
    fn steps_match_gymnasium() {
        let mut env = MountainCar::new("MountainCar-v0");
        env.reset(Some(0));
        for (i, (&a, want)) in STEP_ACTIONS.iter().zip(STEPS_SEED0).enumerate() {
            let s = env.step(Action::Index(a)).unwrap();
            let got = env.physical_state().unwrap();
            for (g, w) in got.iter().zip(want) {
                assert!((g - w).abs() <= 1e-12, "step {i}: {got:?} vs {want:?}");
            }
            assert_eq!((s.reward, s.terminated), (-1.0, false));
        }
    }

    #[test]
    fn rocking_reaches_the_flag_like_gymnasium() {
        let mut env = MountainCar::new("MountainCar-v0");
        env.reset(Some(0));
        let mut steps = 0;
        loop {
            let a = if env.state[1] >= 0.0 { 2 } else { 0 };
            let s = env.step(Action::Index(a)).unwrap();
            steps += 1;
            assert_eq!(s.reward, -1.0);
            if s.terminated {
                break;
            }
            assert!(steps < 200);
        }
        assert_eq!(steps, 122);
        let end = env.physical_state().unwrap();
        assert!((end[0] - 0.5098971905339521).abs() <= 1e-12, "{end:?}");
        assert!((end[1] - 0.043536311695556835).abs() <= 1e-12, "{end:?}");
    }

    #[test]
    fn left_wall_stops_the_car() {
        let mut env = MountainCar::new("MountainCar-v0");
        env.reset(Some(0));
        env.state = [-1.19, -0.05];
        let s = env.step(Action::Index(0)).unwrap();
        assert_eq!(env.state, [MIN_POSITION, 0.0]);
        assert!(!s.terminated);
        // At the goal but rolling back: not terminated.
        env.state = [0.55, -0.001];
        assert!(!env.step(Action::Index(1)).unwrap().terminated);
    }

    #[test]
    fn render_draws_the_scene() {
        let mut env = MountainCar::new("MountainCar-v0");
        let mut frame = Frame::default();
        env.render(&mut frame);
        assert_eq!((frame.width(), frame.height()), (600, 400));
        env.reset(Some(0));
        env.render(&mut frame);
        // The flag's yellow triangle near the top right, the car in the valley.
        assert_eq!(frame.get(572, 20), Some(FLAG_COLOR));
        let car_x = ((-0.4726076625357092 - MIN_POSITION) * 600.0 / 1.8) as i64;
        let dark = (330..400).any(|y| frame.get(car_x, y) == Some(BLACK));
        assert!(dark, "car body not found");
        assert!(env.render_text().contains("velocity"));
    }

    const STEP_ACTIONS: [usize; 10] = [2, 2, 0, 1, 0, 2, 1, 1, 0, 2];
    /// gymnasium 1.4.0 states after `reset(seed=0)` and the actions above.
    const STEPS_SEED0: [[f64; 2]; 10] = [
        [-0.47198860608411836, 0.0006190564515908179],
        [-0.4707550812264279, 0.0012335248576904614],
        [-0.4709162260698092, -0.00016114484338132897],
        [-0.47147084713724285, -0.0005546210674336562],
        [-0.47341483607207957, -0.0019439889348367317],
        [-0.4747337843367776, -0.0013189482646980277],
        [-0.47641790880455265, -0.001684124467775056],
        [-0.4784547094112832, -0.002036800606730587],
        [-0.48182905642939644, -0.003374347018113244],
        [-0.48451585712945766, -0.0026868007000612425],
    ];
}
