//! Acrobot-v1 (`docs/environments.md`, "Acrobot"): swing a two-link chain, actuated at
//! the middle joint, until its tip rises above the line. One RK4 step of 0.2 s per
//! action.

use std::f64::consts::PI;

use super::canvas::{Canvas, BLACK};
use super::numpy_f32;
use crate::core::env::{
    discrete_action, Action, ActionSpace, Env, Floats, Info, KeyBinding, Observation,
    ProgressMeasure, Reset, Signals, Step, Words,
};
use crate::core::error::EnvError;
use crate::core::frame::Frame;
use crate::core::oracle::{Control, Solver};
use crate::render::raster::rotate;
use crate::rng::EnvRng;

const DT: f64 = 0.2;
const LINK_LENGTH_1: f64 = 1.0;
const LINK_LENGTH_2: f64 = 1.0;
const LINK_MASS_1: f64 = 1.0;
const LINK_MASS_2: f64 = 1.0;
const LINK_COM_POS_1: f64 = 0.5;
const LINK_COM_POS_2: f64 = 0.5;
const LINK_MOI: f64 = 1.0;
const MAX_VEL_1: f64 = 4.0 * PI;
const MAX_VEL_2: f64 = 9.0 * PI;
const AVAIL_TORQUE: [f64; 3] = [-1.0, 0.0, 1.0];

const SIZE: u32 = 500;
const LINK_COLOR: [u8; 3] = [0, 204, 204];
const JOINT_COLOR: [u8; 3] = [204, 204, 0];

#[derive(Clone, Debug)]
pub struct Acrobot {
    id: &'static str,
    rng: EnvRng,
    /// `[theta1, theta2, dtheta1, dtheta2]`; zeros until the first reset.
    state: [f64; 4],
    /// The state is the float32 one drawn by `reset` (its observation uses numpy's
    /// float32 trig); cleared by the first step, which works in float64.
    state_is_f32: bool,
    has_reset: bool,
}

impl Acrobot {
    pub fn new(id: &'static str) -> Self {
        Self {
            id,
            rng: EnvRng::default(),
            state: [0.0; 4],
            state_is_f32: false,
            has_reset: false,
        }
    }

    fn obs(&self) -> Observation {
        let [t1, t2, w1, w2] = self.state;
        let v = if self.state_is_f32 {
            let (t1, t2) = (t1 as f32, t2 as f32);
            [
                numpy_f32::cos(t1),
                numpy_f32::sin(t1),
                numpy_f32::cos(t2),
                numpy_f32::sin(t2),
                w1 as f32,
                w2 as f32,
            ]
        } else {
            [
                libm::cos(t1) as f32,
                libm::sin(t1) as f32,
                libm::cos(t2) as f32,
                libm::sin(t2) as f32,
                w1 as f32,
                w2 as f32,
            ]
        };
        Observation::Vector(Floats::from_slice(&v))
    }

    /// Height of the tip above the pivot, in link lengths (terminates above 1.0).
    fn tip_height(&self) -> f64 {
        let [t1, t2, _, _] = self.state;
        -libm::cos(t1) - libm::cos(t2 + t1)
    }
}

/// The "book" equations of motion; `y = [t1, t2, w1, w2, torque]`. Constants stay in
/// the reference's positions so that every rounding happens where numpy's does.
fn dsdt(y: &[f64; 5]) -> [f64; 5] {
    let (m1, m2, l1) = (LINK_MASS_1, LINK_MASS_2, LINK_LENGTH_1);
    let (lc1, lc2) = (LINK_COM_POS_1, LINK_COM_POS_2);
    let (i1, i2) = (LINK_MOI, LINK_MOI);
    let g = 9.8;
    let [theta1, theta2, dtheta1, dtheta2, a] = *y;
    let sq = |v: f64| libm::pow(v, 2.0);
    // Each computed once (and together: `sincos` gives `sin` and `cos` to the bit):
    // the same values the reference computes twice.
    let (sin2, cos2) = libm::sincos(theta2);
    let d1 = m1 * (lc1 * lc1) + m2 * (l1 * l1 + lc2 * lc2 + 2.0 * l1 * lc2 * cos2) + i1 + i2;
    let d2 = m2 * (lc2 * lc2 + l1 * lc2 * cos2) + i2;
    let phi2 = m2 * lc2 * g * libm::cos(theta1 + theta2 - PI / 2.0);
    let phi1 = -m2 * l1 * lc2 * sq(dtheta2) * sin2 - 2.0 * m2 * l1 * lc2 * dtheta2 * dtheta1 * sin2
        + (m1 * lc1 + m2 * l1) * g * libm::cos(theta1 - PI / 2.0)
        + phi2;
    let ddtheta2 = (a + d2 / d1 * phi1 - m2 * l1 * lc2 * sq(dtheta1) * sin2 - phi2)
        / (m2 * (lc2 * lc2) + i2 - sq(d2) / d1);
    let ddtheta1 = -(d2 * ddtheta2 + phi1) / d1;
    [dtheta1, dtheta2, ddtheta1, ddtheta2, 0.0]
}

/// `y0 + h*k`, element-wise.
fn offset(y0: &[f64; 5], h: f64, k: &[f64; 5]) -> [f64; 5] {
    std::array::from_fn(|i| y0[i] + h * k[i])
}

/// gymnasium's `rk4` over `t = [0, dt]`: one classical Runge-Kutta step.
fn rk4(y0: &[f64; 5]) -> [f64; 5] {
    let dt = DT;
    let dt2 = dt / 2.0;
    let k1 = dsdt(y0);
    let k2 = dsdt(&offset(y0, dt2, &k1));
    let k3 = dsdt(&offset(y0, dt2, &k2));
    let k4 = dsdt(&offset(y0, dt, &k3));
    std::array::from_fn(|i| y0[i] + dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]))
}

/// Wraps an angle into [-π, π] by whole turns, as the reference's loop does.
fn wrap(mut x: f64) -> f64 {
    let (m, big_m) = (-PI, PI);
    let diff = big_m - m;
    while x > big_m {
        x -= diff;
    }
    while x < m {
        x += diff;
    }
    x
}

/// Python's `min(max(x, -limit), limit)`.
fn bound(x: f64, limit: f64) -> f64 {
    let lo = if -limit > x { -limit } else { x };
    if limit < lo {
        limit
    } else {
        lo
    }
}

impl Env for Acrobot {
    fn id(&self) -> &str {
        self.id
    }

    fn action_space(&self) -> ActionSpace {
        ActionSpace::Discrete { n: 3 }
    }

    fn action_names(&self) -> Vec<String> {
        vec!["torque -1".into(), "torque 0".into(), "torque +1".into()]
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
        for v in &mut self.state {
            // The reference keeps the drawn state as float32 until the first step.
            *v = f64::from(rng.uniform(-0.1, 0.1) as f32);
        }
        self.state_is_f32 = true;
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
        let [t1, t2, w1, w2] = self.state;
        let ns = rk4(&[t1, t2, w1, w2, AVAIL_TORQUE[action]]);
        self.state = [
            wrap(ns[0]),
            wrap(ns[1]),
            bound(ns[2], MAX_VEL_1),
            bound(ns[3], MAX_VEL_2),
        ];
        self.state_is_f32 = false;
        let terminated = self.tip_height() > 1.0;
        Ok(Step {
            obs: self.obs(),
            reward: if terminated { 0.0 } else { -1.0 },
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
        (SIZE, SIZE)
    }

    fn render(&self, frame: &mut Frame) {
        let mut canvas = Canvas::new(frame, SIZE, SIZE);
        let [t1, t2, _, _] = self.state;
        let bound = LINK_LENGTH_1 + LINK_LENGTH_2 + 0.2;
        let scale = f64::from(SIZE) / (bound * 2.0);
        let offset = f64::from(SIZE) / 2.0;

        canvas.hline(
            -2.2 * scale + offset,
            2.2 * scale + offset,
            scale + offset,
            BLACK,
        );
        // Link starts (x, y) in the y-up world: the pivot, then the first link's end.
        let starts = [
            (0.0, 0.0),
            (
                LINK_LENGTH_1 * libm::sin(t1) * scale,
                -LINK_LENGTH_1 * libm::cos(t1) * scale,
            ),
        ];
        let thetas = [t1 - PI / 2.0, t1 + t2 - PI / 2.0];
        let lengths = [LINK_LENGTH_1 * scale, LINK_LENGTH_2 * scale];
        for i in 0..2 {
            let (x, y) = (starts[i].0 + offset, starts[i].1 + offset);
            let (l, r, t, b) = (0.0, lengths[i], 0.1 * scale, -0.1 * scale);
            let link: Vec<(f64, f64)> = [(l, b), (l, t), (r, t), (r, b)]
                .iter()
                .map(|&(px, py)| {
                    let (rx, ry) = rotate(px, py, thetas[i]);
                    (rx + x, ry + y)
                })
                .collect();
            canvas.polygon(&link, LINK_COLOR);
            canvas.circle(x, y, 0.1 * scale, JOINT_COLOR);
        }
    }

    fn render_text(&self) -> String {
        let [t1, t2, w1, w2] = self.state;
        format!(
            "joint angles θ1={:+.1}° θ2={:+.1}° (0 = hanging straight down), angular \
             velocities ω1={w1:+.3} ω2={w2:+.3} rad/s; tip height {:+.3} (goal: above +1.000)",
            t1.to_degrees(),
            t2.to_degrees(),
            self.tip_height()
        )
    }

    fn clone_box(&self) -> Box<dyn Env> {
        Box::new(self.clone())
    }

    fn render_fps(&self) -> u32 {
        15
    }
    fn words(&self) -> Words {
        Words {
            goal: "Swing the tip above the line",
            success: "the tip swung above the line",
            failure: "the episode ended",
        }
    }
    fn oracle(&self, control: Control) -> Option<Box<dyn Solver>> {
        super::oracle::solver(self, control)
    }

    fn progress(&self) -> Option<ProgressMeasure> {
        Some(ProgressMeasure {
            value: self.tip_height(),
            goal: 1.0,
        })
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
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

    fn bits(obs: &Observation) -> Vec<u32> {
        vector(obs).iter().map(|v| v.to_bits()).collect()
    }

    #[test]
    fn reset_matches_gymnasium() {
        let mut env = Acrobot::new("Acrobot-v1");
        for (seed, state, obs) in RESETS {
            let r = env.reset(Some(seed));
            assert_eq!(env.physical_state().unwrap(), state.to_vec(), "seed {seed}");
            assert_eq!(bits(&r.obs), obs.to_vec(), "seed {seed}");
            assert_eq!(bits(&env.observation()), obs.to_vec());
        }
    }

    #[test]
    fn sincos_is_sin_and_cos_to_the_bit() {
        let mut x = -40.0f64;
        while x < 40.0 {
            let (s, c) = libm::sincos(x);
            assert_eq!(
                (s.to_bits(), c.to_bits()),
                (libm::sin(x).to_bits(), libm::cos(x).to_bits()),
                "{x}"
            );
            x += 0.000_731;
        }
    }

    #[test]
    fn steps_match_gymnasium() {
        let mut env = Acrobot::new("Acrobot-v1");
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
    fn swinging_up_terminates_like_gymnasium() {
        // Torque along w1 + w2 (summed in float32 from the observation) wins on step 79.
        let mut env = Acrobot::new("Acrobot-v1");
        let mut obs = vector(&env.reset(Some(0)).obs);
        let mut steps = 0;
        loop {
            let a = if obs[4] + obs[5] > 0.0 { 2 } else { 0 };
            let s = env.step(Action::Index(a)).unwrap();
            steps += 1;
            obs = vector(&s.obs);
            if s.terminated {
                assert_eq!(s.reward, 0.0);
                break;
            }
            assert_eq!(s.reward, -1.0);
            assert!(steps < 500);
        }
        assert_eq!(steps, 79);
        let end = env.physical_state().unwrap();
        for (g, w) in end.iter().zip(SWING_UP_END) {
            assert!((g - w).abs() <= 1e-9, "{end:?}");
        }
        assert!(env.tip_height() > 1.0);
    }

    #[test]
    fn angles_wrap_and_velocities_clamp() {
        assert_eq!(wrap(PI + 0.5), PI + 0.5 - 2.0 * PI);
        assert_eq!(wrap(-PI - 0.5), -PI - 0.5 + 2.0 * PI);
        assert_eq!(wrap(PI), PI);
        assert_eq!(bound(20.0, MAX_VEL_1), MAX_VEL_1);
        assert_eq!(bound(-40.0, MAX_VEL_2), -MAX_VEL_2);
        assert_eq!(bound(1.5, MAX_VEL_1), 1.5);
    }

    #[test]
    fn render_draws_the_scene() {
        let mut env = Acrobot::new("Acrobot-v1");
        let mut frame = Frame::new(3, 3);
        env.render(&mut frame);
        assert_eq!((frame.width(), frame.height()), (500, 500));
        env.reset(Some(0));
        env.render(&mut frame);
        // Pivot joint at the centre, links hanging below it, the goal line above.
        assert_eq!(frame.get(250, 250), Some(JOINT_COLOR));
        assert_eq!(frame.get(250, 330), Some(LINK_COLOR));
        assert_eq!(frame.get(250, 136), Some(BLACK));
        assert_eq!(frame.get(10, 10), Some([255, 255, 255]));
        assert!(env.render_text().contains("tip height"));
    }

    /// gymnasium 1.4.0 / numpy 2.4.6 resets: float32 state and observation bits. Seeds
    /// 835, 1506 and 1692 need numpy's float32 trig (float64 trig rounded is 1 ulp off).
    const RESETS: [(u64, [f64; 4], [u32; 6]); 4] = [
        (
            0,
            [
                0.02739233709871769,
                -0.046042658388614655,
                -0.09180529415607452,
                -0.0966944694519043,
            ],
            [
                0x3f7fe76a, 0x3ce05eb6, 0x3f7fba8c, 0xbd3c862c, 0xbdbc046a, 0xbdc607c0,
            ],
        ),
        (
            835,
            [
                0.07110099494457245,
                0.03963804244995117,
                -0.035897769033908844,
                -0.07039622217416763,
            ],
            [
                0x3f7f5a6a, 0x3d917dff, 0x3f7fcc86, 0x3d22509e, 0xbd13098a, 0xbd902be5,
            ],
        ),
        (
            1506,
            [
                -0.08366823196411133,
                0.08600546419620514,
                0.016909142956137657,
                -0.021901743486523628,
            ],
            [
                0x3f7f1abf, 0xbdab2716, 0x3f7f0dc4, 0x3dafec10, 0x3c8a850b, 0xbcb36b49,
            ],
        ),
        (
            1692,
            [
                -0.08945830911397934,
                -0.013356545940041542,
                -0.027969636023044586,
                -0.07081568986177444,
            ],
            [
                0x3f7ef9f1, 0xbdb6f763, 0x3f7ffa28, 0xbc5ad3c0, 0xbce52094, 0xbd9107d1,
            ],
        ),
    ];
    const STEP_ACTIONS: [usize; 10] = [2, 0, 1, 2, 2, 0, 0, 1, 2, 0];
    const STEPS_SEED0: [[f64; 4]; 10] = [
        [
            -0.007764280106326814,
            -0.023741061975474823,
            -0.25169676511091765,
            0.3100071869368762,
        ],
        [
            -0.0418551206185673,
            0.0019326911513616388,
            -0.08175188501823655,
            -0.06249763869603486,
        ],
        [
            -0.05249272146562356,
            -0.014695954116402649,
            -0.023047527575049465,
            -0.10246668630289306,
        ],
        [
            -0.06420472701254161,
            -0.0036437652644421246,
            -0.09122211005747866,
            0.2089893093467679,
        ],
        [
            -0.08696443899969211,
            0.06486620688050303,
            -0.12949300860291607,
            0.4605031336761445,
        ],
        [
            -0.08621766443178412,
            0.10402646167152406,
            0.13754255160992512,
            -0.07465667015397193,
        ],
        [
            -0.03433424174472211,
            0.03761469200743893,
            0.3685013921983463,
            -0.5697043236702586,
        ],
        [
            0.04044473571735393,
            -0.07700897663331396,
            0.3605413363858399,
            -0.54506067375283,
        ],
        [
            0.08932149087447999,
            -0.13401004770464658,
            0.117064824621914,
            -0.008711453392924784,
        ],
        [
            0.11169616880664758,
            -0.14718901023278266,
            0.10176293674400236,
            -0.11738285884500373,
        ],
    ];
    const SWING_UP_END: [f64; 4] = [
        1.759662784834992,
        0.8648914494926111,
        0.9525840999784707,
        0.08833256181876625,
    ];
}
