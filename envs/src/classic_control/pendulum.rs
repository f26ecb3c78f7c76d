//! Pendulum-v1 (`docs/environments.md`, "Pendulum"): swing a pendulum up and keep it
//! upright with a bounded torque. The one continuous-action environment.
//!
//! Angles follow the reference: θ = 0 is upright and a positive torque turns the rod
//! counter-clockwise on screen.

use std::f64::consts::PI;

use super::canvas::{Canvas, BLACK};
use super::numpy_f32;
use crate::core::env::{
    Action, ActionSpace, Env, Floats, Info, KeyBinding, Observation, Reset, Signals, Step, Words,
};
use crate::core::error::EnvError;
use crate::core::frame::Frame;
use crate::core::oracle::{Control, Solver};
use crate::render::raster::rotate;
use crate::rng::EnvRng;

const MAX_SPEED: f64 = 8.0;
const MAX_TORQUE: f64 = 2.0;
const DT: f64 = 0.05;
const G: f64 = 10.0;
const M: f64 = 1.0;
const L: f64 = 1.0;

const SIZE: u32 = 500;
const ROD_COLOR: [u8; 3] = [204, 77, 77];

/// The torque presets offered to people: index → torque.
const PRESETS: [f64; 5] = [-2.0, -1.0, 0.0, 1.0, 2.0];

/// The dtype of the action array the reference is stepped with. numpy 2 keeps a
/// float32 torque in float32 for `u**2`, `0.001*u**2` and `3.0*u`; float64 actions
/// (or numpy 1.x) do everything in float64. The results differ from the first step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionDtype {
    /// What `action_space.sample()` gives: the value is first rounded to float32.
    Float32,
    Float64,
}

#[derive(Clone, Debug)]
pub struct Pendulum {
    id: &'static str,
    dtype: ActionDtype,
    rng: EnvRng,
    /// `[theta, theta_dot]`; upright at rest until the first reset.
    state: [f64; 2],
    /// The clipped torque of the last step, for the arrow; `None` after a reset.
    last_u: Option<f64>,
    has_reset: bool,
}

impl Pendulum {
    pub fn new(id: &'static str, dtype: ActionDtype) -> Self {
        Self {
            id,
            dtype,
            rng: EnvRng::default(),
            state: [0.0, 0.0],
            last_u: None,
            has_reset: false,
        }
    }

    fn obs(&self) -> Observation {
        let [th, thdot] = self.state;
        Observation::Vector(Floats::from_slice(&[
            libm::cos(th) as f32,
            libm::sin(th) as f32,
            thdot as f32,
        ]))
    }
}

/// `((x + π) % 2π) - π` with numpy's floored float64 modulo.
fn angle_normalize(x: f64) -> f64 {
    let a = x + PI;
    let b = 2.0 * PI;
    let mut m = libm::fmod(a, b);
    if m != 0.0 {
        if m < 0.0 {
            m += b;
        }
    } else {
        m = 0.0;
    }
    m - PI
}

/// numpy's `clip`: `min(max(x, lo), hi)`.
fn clip(x: f64, lo: f64, hi: f64) -> f64 {
    let v = if x < lo { lo } else { x };
    if v > hi {
        hi
    } else {
        v
    }
}

impl Env for Pendulum {
    fn id(&self) -> &str {
        self.id
    }

    fn action_space(&self) -> ActionSpace {
        ActionSpace::Continuous {
            low: -MAX_TORQUE,
            high: MAX_TORQUE,
        }
    }

    fn action_names(&self) -> Vec<String> {
        vec![
            "torque -2 (clockwise)".into(),
            "torque -1 (clockwise)".into(),
            "torque 0".into(),
            "torque +1 (counter-clockwise)".into(),
            "torque +2 (counter-clockwise)".into(),
        ]
    }

    fn preset_action(&self, index: usize) -> Option<Action> {
        PRESETS.get(index).map(|&v| Action::Value(v))
    }

    /// Keys 1–5 pick the presets; ArrowLeft/a push counter-clockwise (+2), ArrowRight/d
    /// clockwise (-2), ArrowDown/s/space apply no torque.
    fn noop(&self) -> Option<usize> {
        Some(2)
    }

    fn keymap(&self) -> Vec<KeyBinding> {
        vec![
            KeyBinding::new("1", 0),
            KeyBinding::new("2", 1),
            KeyBinding::new("3", 2),
            KeyBinding::new("4", 3),
            KeyBinding::new("5", 4),
            KeyBinding::new("ArrowLeft", 4),
            KeyBinding::new("a", 4),
            KeyBinding::new("ArrowRight", 0),
            KeyBinding::new("d", 0),
            KeyBinding::new("ArrowDown", 2),
            KeyBinding::new("s", 2),
            KeyBinding::new(" ", 2),
        ]
    }

    fn reset(&mut self, seed: Option<u64>) -> Reset {
        let rng = self.rng.reset(seed);
        // uniform(low=[-π, -1], high=[π, 1]): one draw per element, in order.
        let th = rng.uniform(-PI, PI);
        let thdot = rng.uniform(-1.0, 1.0);
        self.state = [th, thdot];
        self.last_u = None;
        self.has_reset = true;
        Reset {
            obs: self.obs(),
            info: Info::default(),
        }
    }

    fn step(&mut self, action: Action) -> Result<Step, EnvError> {
        let value = match action {
            Action::Value(v) if v.is_finite() => v,
            Action::Value(v) => {
                return Err(EnvError::InvalidAction(format!(
                    "torque {v} is not a finite number"
                )))
            }
            other => {
                return Err(EnvError::InvalidAction(format!(
                    "action {other:?} is not a value: Pendulum takes a torque value in [-2, 2]"
                )))
            }
        };
        if !self.has_reset {
            return Err(EnvError::NotReset);
        }
        let [th, thdot] = self.state;
        let sq = |v: f64| libm::pow(v, 2.0);
        // 3*g/(2*l) and 3/(m*l**2), folded as Python folds them.
        let gravity_term = 3.0 * G / (2.0 * L) * libm::sin(th);
        let inertia = 3.0 / (M * (L * L));
        let (u, u_cost, u_accel) = match self.dtype {
            ActionDtype::Float64 => {
                let u = clip(value, -MAX_TORQUE, MAX_TORQUE);
                (u, 0.001 * sq(u), inertia * u)
            }
            ActionDtype::Float32 => {
                // The value is a float32 array element; numpy 2 keeps each `u` term in
                // float32 (Python float constants are rounded to float32 first).
                let u = (value as f32).clamp(-MAX_TORQUE as f32, MAX_TORQUE as f32);
                let cost = 0.001_f32 * numpy_f32::square(u);
                let accel = inertia as f32 * u;
                (f64::from(u), f64::from(cost), f64::from(accel))
            }
        };
        self.last_u = Some(u);
        let cost = sq(angle_normalize(th)) + 0.1 * sq(thdot) + u_cost;
        let newthdot = clip(thdot + (gravity_term + u_accel) * DT, -MAX_SPEED, MAX_SPEED);
        let newth = th + newthdot * DT;
        self.state = [newth, newthdot];
        Ok(Step {
            obs: self.obs(),
            reward: -cost,
            terminated: false,
            truncated: false,
            info: Info::default(),
            signals: Signals::default(),
        })
    }

    fn observation(&self) -> Observation {
        self.obs()
    }

    fn physical_state(&self) -> Option<Vec<f64>> {
        Some(self.state.to_vec())
    }

    fn frame_size(&self) -> (u32, u32) {
        (SIZE, SIZE)
    }

    fn render(&self, frame: &mut Frame) {
        let mut canvas = Canvas::new(frame, SIZE, SIZE);
        let bound = 2.2;
        let scale = f64::from(SIZE) / (bound * 2.0);
        let offset = f64::from(SIZE / 2);
        let rod_length = scale;
        let rod_width = 0.2 * scale;
        let angle = self.state[0] + PI / 2.0;

        let (l, r, t, b) = (0.0, rod_length, rod_width / 2.0, -rod_width / 2.0);
        let rod: Vec<(f64, f64)> = [(l, b), (l, t), (r, t), (r, b)]
            .iter()
            .map(|&(px, py)| {
                let (rx, ry) = rotate(px, py, angle);
                (rx + offset, ry + offset)
            })
            .collect();
        canvas.polygon(&rod, ROD_COLOR);
        canvas.circle(offset, offset, rod_width / 2.0, ROD_COLOR);
        let (ex, ey) = rotate(rod_length, 0.0, angle);
        canvas.circle(
            (ex + offset).trunc(),
            (ey + offset).trunc(),
            rod_width / 2.0,
            ROD_COLOR,
        );
        if let Some(u) = self.last_u {
            draw_torque_arrow(
                &mut canvas,
                (offset, offset),
                scale * u.abs() / 2.0,
                u > 0.0,
            );
        }
        canvas.circle(offset, offset, 0.05 * scale, BLACK);
    }

    fn render_text(&self) -> String {
        let [th, thdot] = self.state;
        let torque = match self.last_u {
            Some(u) => format!("{u:+.2}"),
            None => "none yet".into(),
        };
        format!(
            "pendulum angle={:+.1}° from upright (+ is counter-clockwise), angular \
             velocity={thdot:+.3} rad/s (max ±8), last torque {torque} (range ±2)",
            angle_normalize(th).to_degrees()
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
            goal: "Swing the pendulum up and hold it upright",
            success: "held the pendulum upright",
            failure: "the episode ended",
        }
    }
    fn oracle(&self, control: Control) -> Option<Box<dyn Solver>> {
        super::oracle::solver(self, control)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Our stand-in for the reference's `clockwise.png`: a black circular arrow of side
/// `size` around `centre`, clockwise, or mirrored (counter-clockwise) when `ccw`.
fn draw_torque_arrow(canvas: &mut Canvas, centre: (f64, f64), size: f64, ccw: bool) {
    if size < 2.0 {
        return;
    }
    let stroke = (size * 0.035).max(1.5);
    let radius = size / 2.0 - stroke / 2.0;
    let head_len = size * 0.18;
    let half_width = size * 0.065;
    let notch = head_len * 0.25;
    // Clockwise from the top round to the left, like the image; the mirror flips x.
    // The arc runs on under the head's notch so that no gap shows.
    let (start, sweep) = (PI / 2.0, 1.47 * PI);
    let point = |a: f64, rad: f64| {
        let x = rad * libm::cos(a);
        let x = if ccw { -x } else { x };
        (centre.0 + x, centre.1 + rad * libm::sin(a))
    };
    let n = 48;
    let band_sweep = sweep + 1.5 * notch / radius;
    let angles: Vec<f64> = (0..=n)
        .map(|i| start - band_sweep * f64::from(i) / f64::from(n))
        .collect();
    let mut band: Vec<(f64, f64)> = angles
        .iter()
        .map(|&a| point(a, radius + stroke / 2.0))
        .collect();
    band.extend(
        angles
            .iter()
            .rev()
            .map(|&a| point(a, radius - stroke / 2.0)),
    );
    canvas.shape(&band, BLACK);

    // A barbed head continuing along the circle's tangent from the end of the arc.
    let end = start - sweep;
    let (bx, by) = point(end, radius);
    let (ox, oy) = point(end, radius + 1.0);
    let (nx, ny) = (ox - bx, oy - by);
    // Clockwise travel is the outward normal turned clockwise; mirrored if ccw.
    let (tx, ty) = if ccw { (-ny, nx) } else { (ny, -nx) };
    canvas.shape(
        &[
            (bx + nx * half_width, by + ny * half_width),
            (bx + tx * head_len, by + ty * head_len),
            (bx - nx * half_width, by - ny * half_width),
            (bx + tx * notch, by + ty * notch),
        ],
        BLACK,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vector(obs: &Observation) -> Vec<f32> {
        let Observation::Vector(v) = obs else {
            panic!("not a vector: {obs:?}")
        };
        v.to_vec()
    }

    #[test]
    fn reset_matches_gymnasium() {
        let mut env = Pendulum::new("Pendulum-v1", ActionDtype::Float32);
        let r = env.reset(Some(0));
        assert_eq!(
            env.physical_state().unwrap(),
            vec![0.8605556614246863, -0.4604265724722594]
        );
        let bits: Vec<u32> = vector(&r.obs).iter().map(|v| v.to_bits()).collect();
        assert_eq!(bits, vec![0x3f26ea8a, 0x3f4219b9, 0xbeebbd08]);
    }

    fn check_steps(dtype: ActionDtype, want: &[([f64; 2], f64)]) {
        let mut env = Pendulum::new("Pendulum-v1", dtype);
        env.reset(Some(0));
        for (i, (&a, (state, reward))) in ACTIONS.iter().zip(want).enumerate() {
            let s = env.step(Action::Value(a)).unwrap();
            let got = env.physical_state().unwrap();
            for (g, w) in got.iter().zip(state) {
                assert!(
                    (g - w).abs() <= 1e-12,
                    "{dtype:?} step {i}: {got:?} vs {state:?}"
                );
            }
            assert!(
                (s.reward - reward).abs() <= 1e-12,
                "{dtype:?} step {i}: {}",
                s.reward
            );
            assert!(!s.terminated && !s.truncated);
        }
    }

    #[test]
    fn float32_steps_match_gymnasium() {
        check_steps(ActionDtype::Float32, &STEPS_F32);
    }

    #[test]
    fn float64_steps_match_gymnasium() {
        check_steps(ActionDtype::Float64, &STEPS_F64);
    }

    #[test]
    fn the_two_dtypes_differ() {
        let mut a = Pendulum::new("Pendulum-v1", ActionDtype::Float32);
        let mut b = Pendulum::new("Pendulum-v1", ActionDtype::Float64);
        a.reset(Some(0));
        b.reset(Some(0));
        let ra = a.step(Action::Value(0.5)).unwrap().reward;
        let rb = b.step(Action::Value(0.5)).unwrap().reward;
        assert_ne!(ra, rb);
        a.step(Action::Value(-1.3)).unwrap();
        b.step(Action::Value(-1.3)).unwrap();
        assert_ne!(a.physical_state(), b.physical_state());
    }

    #[test]
    fn float32_square_is_numpys() {
        // numpy 2.4.6 `np.float32(u)**2` (glibc powf) where it is not the rounded u*u.
        for (u, sq) in [
            (0xbfdc_c281_u32, 0x403e_5ee2_u32),
            (0xbfaa_9067, 0x3fe3_4834),
            (0x3f49_f5ce, 0x3f1f_53ea),
            (0x3fff_43b4, 0x407e_87f3),
            (0x3d27_160b, 0x3ada_1b89),
        ] {
            let u = f32::from_bits(u);
            assert_eq!(numpy_f32::square(u).to_bits(), sq, "{u}");
            assert_ne!((u * u).to_bits(), sq);
        }
    }

    #[test]
    fn angle_normalize_is_floored() {
        assert_eq!(angle_normalize(0.0), 0.0);
        assert!((angle_normalize(3.0 * PI / 2.0) + PI / 2.0).abs() < 1e-15);
        assert!((angle_normalize(-3.0 * PI / 2.0) - PI / 2.0).abs() < 1e-15);
        assert_eq!(angle_normalize(PI), -PI);
    }

    #[test]
    fn presets_and_invalid_actions() {
        let mut env = Pendulum::new("Pendulum-v1", ActionDtype::Float32);
        assert_eq!(env.preset_action(0), Some(Action::Value(-2.0)));
        assert_eq!(env.preset_action(4), Some(Action::Value(2.0)));
        assert_eq!(env.preset_action(5), None);
        assert_eq!(env.action_names().len(), 5);
        assert!(env.keymap().iter().all(|k| k.action < 5));
        assert!(matches!(
            env.step(Action::Value(1.0)),
            Err(EnvError::NotReset)
        ));
        env.reset(Some(0));
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert!(matches!(
                env.step(Action::Value(bad)),
                Err(EnvError::InvalidAction(_))
            ));
        }
        assert!(matches!(
            env.step(Action::Index(0)),
            Err(EnvError::InvalidAction(_))
        ));
        // Out-of-range torques are clipped, as the reference does.
        env.step(Action::Value(7.0)).unwrap();
        assert_eq!(env.last_u, Some(2.0));
    }

    #[test]
    fn render_draws_the_scene_and_the_arrow() {
        let mut env = Pendulum::new("Pendulum-v1", ActionDtype::Float32);
        let mut frame = Frame::new(2, 2);
        env.render(&mut frame);
        assert_eq!((frame.width(), frame.height()), (500, 500));
        // Upright by default: rod above the black axle.
        assert_eq!(frame.get(250, 250), Some(BLACK));
        assert_eq!(frame.get(250, 180), Some(ROD_COLOR));
        env.reset(Some(0));
        env.render(&mut frame);
        let before = frame.clone();
        env.step(Action::Value(2.0)).unwrap();
        env.render(&mut frame);
        let black = |f: &Frame| f.data().chunks(3).filter(|p| p == &[0, 0, 0]).count();
        assert!(black(&frame) > black(&before) + 100, "no arrow drawn");
        assert!(env.render_text().contains("+2.00"));
    }

    const ACTIONS: [f64; 10] = [
        0.5, -1.3, 2.7, -2.0, 1.234567, 0.0, -0.7, 1.9999, -3.5, 0.123,
    ];
    /// gymnasium 1.4.0 / numpy 2.4.6, `reset(seed=0)` then the actions above as float32
    /// arrays: (state, reward).
    const STEPS_F32: [([f64; 2], f64); 10] = [
        (
            [0.8697170195591025, 0.18322716268832495],
            -0.762005309285809,
        ),
        (
            [0.8977838692933102, 0.5613369946841529],
            -0.7614549133718426,
        ),
        ([0.9701737472125006, 1.447797558383808], -0.8415257983133602),
        (
            [1.0585005221356232, 1.7665354984624524],
            -1.1548488769765466,
        ),
        ([1.1887723539458814, 2.6054366362051633], -1.434012277937257),
        ([1.3538408857939728, 3.301370636961828], -2.09200971603404),
        ([1.550280318067036, 3.9287886454612626], -2.923279952312596),
        ([1.7992111087914653, 4.978615814488588], -3.950906686843508),
        ([2.0696678957243186, 5.409135738657064], -5.719822157016191),
        ([2.373976795265464, 6.086177990822912], -7.20941527151508),
    ];
    /// The same with float64 action arrays.
    const STEPS_F64: [([f64; 2], f64); 10] = [
        (
            [0.8697170195591025, 0.18322716268832495],
            -0.7620053092739346,
        ),
        (
            [0.8977838689356823, 0.5613369875315954],
            -0.7614549134254495,
        ),
        (
            [0.9701737464888851, 1.4477975510640566],
            -0.8415257966782266,
        ),
        (
            [1.0585005210306844, 1.7665354908359843],
            -1.1548488732629871,
        ),
        (
            [1.1887723523910907, 2.6054366272081255],
            -1.4340122727380316,
        ),
        ([1.3538408837675944, 3.301370627530072], -2.092009707649213),
        ([1.5502803153142939, 3.92878863093399], -2.9232799405924506),
        (
            [1.7992111051366733, 4.9786157964475874],
            -3.9509066667166035,
        ),
        ([2.0696678911985105, 5.409135721236741], -5.7198221257108735),
        ([2.3739767899057314, 6.086177974144418], -7.209415233934021),
    ];
}
