//! CartPole-v1 (`docs/environments.md`, "CartPole"): balance a pole on a cart by
//! pushing it left or right. Euler integration in float64, observations rounded to
//! float32.

use std::f64::consts::PI;

use super::canvas::{Canvas, BLACK};
use crate::core::env::{
    discrete_action, Action, ActionSpace, Env, Floats, Info, KeyBinding, Observation, Reset,
    Signals, Step, Words,
};
use crate::core::error::EnvError;
use crate::core::frame::Frame;
use crate::core::oracle::{Control, Solver};
use crate::render::raster::rotate;
use crate::rng::EnvRng;

const GRAVITY: f64 = 9.8;
const MASSCART: f64 = 1.0;
const MASSPOLE: f64 = 0.1;
const TOTAL_MASS: f64 = MASSPOLE + MASSCART;
/// Half the pole's length.
const LENGTH: f64 = 0.5;
const POLEMASS_LENGTH: f64 = MASSPOLE * LENGTH;
const FORCE_MAG: f64 = 10.0;
const TAU: f64 = 0.02;
const THETA_THRESHOLD: f64 = 12.0 * 2.0 * PI / 360.0;
const X_THRESHOLD: f64 = 2.4;

const WIDTH: u32 = 600;
const HEIGHT: u32 = 400;
const POLE_COLOR: [u8; 3] = [202, 152, 101];
const AXLE_COLOR: [u8; 3] = [129, 132, 203];

#[derive(Clone, Debug)]
pub struct CartPole {
    id: &'static str,
    rng: EnvRng,
    /// `[x, x_dot, theta, theta_dot]`; zeros until the first reset.
    state: [f64; 4],
    has_reset: bool,
    /// Steps taken after the terminating one (the reference then pays 0.0).
    steps_beyond_terminated: Option<u32>,
}

impl CartPole {
    pub fn new(id: &'static str) -> Self {
        Self {
            id,
            rng: EnvRng::default(),
            state: [0.0; 4],
            has_reset: false,
            steps_beyond_terminated: None,
        }
    }

    fn obs(&self) -> Observation {
        Observation::Vector(Floats::from_slice(&self.state.map(|v| v as f32)))
    }
}

impl Env for CartPole {
    fn id(&self) -> &str {
        self.id
    }

    fn action_space(&self) -> ActionSpace {
        ActionSpace::Discrete { n: 2 }
    }

    fn action_names(&self) -> Vec<String> {
        vec!["push left".into(), "push right".into()]
    }

    fn keymap(&self) -> Vec<KeyBinding> {
        vec![
            KeyBinding::new("ArrowLeft", 0),
            KeyBinding::new("ArrowRight", 1),
            KeyBinding::new("a", 0),
            KeyBinding::new("d", 1),
        ]
    }

    fn reset(&mut self, seed: Option<u64>) -> Reset {
        let rng = self.rng.reset(seed);
        for v in &mut self.state {
            *v = rng.uniform(-0.05, 0.05);
        }
        self.has_reset = true;
        self.steps_beyond_terminated = None;
        Reset {
            obs: self.obs(),
            info: Info::default(),
        }
    }

    fn step(&mut self, action: Action) -> Result<Step, EnvError> {
        let action = discrete_action(&action, 2)?;
        if !self.has_reset {
            return Err(EnvError::NotReset);
        }
        let [x, x_dot, theta, theta_dot] = self.state;
        let force = if action == 1 { FORCE_MAG } else { -FORCE_MAG };
        let costheta = libm::cos(theta);
        let sintheta = libm::sin(theta);
        // Left to right as the reference writes it; np.square is a plain product.
        let temp = (force + POLEMASS_LENGTH * (theta_dot * theta_dot) * sintheta) / TOTAL_MASS;
        let thetaacc = (GRAVITY * sintheta - costheta * temp)
            / (LENGTH * (4.0 / 3.0 - MASSPOLE * (costheta * costheta) / TOTAL_MASS));
        let xacc = temp - POLEMASS_LENGTH * thetaacc * costheta / TOTAL_MASS;
        self.state = [
            x + TAU * x_dot,
            x_dot + TAU * xacc,
            theta + TAU * theta_dot,
            theta_dot + TAU * thetaacc,
        ];
        let [x, _, theta, _] = self.state;
        // The reference's four comparisons (a NaN state does not terminate).
        #[allow(clippy::manual_range_contains)]
        let terminated = x < -X_THRESHOLD
            || x > X_THRESHOLD
            || theta < -THETA_THRESHOLD
            || theta > THETA_THRESHOLD;
        let reward = if !terminated {
            1.0
        } else if let Some(n) = self.steps_beyond_terminated.as_mut() {
            *n += 1;
            0.0
        } else {
            self.steps_beyond_terminated = Some(0);
            1.0
        };
        Ok(Step {
            obs: self.obs(),
            reward,
            terminated,
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
        (WIDTH, HEIGHT)
    }

    fn render(&self, frame: &mut Frame) {
        let mut canvas = Canvas::new(frame, WIDTH, HEIGHT);
        let scale = f64::from(WIDTH) / (X_THRESHOLD * 2.0);
        let polewidth = 10.0;
        let polelen = scale * (2.0 * LENGTH);
        let (cartwidth, cartheight) = (50.0, 30.0);

        let (l, r, t, b) = (
            -cartwidth / 2.0,
            cartwidth / 2.0,
            cartheight / 2.0,
            -cartheight / 2.0,
        );
        let axleoffset = cartheight / 4.0;
        let cartx = self.state[0] * scale + f64::from(WIDTH) / 2.0;
        let carty = 100.0;
        let cart: Vec<(f64, f64)> = [(l, b), (l, t), (r, t), (r, b)]
            .iter()
            .map(|&(px, py)| (px + cartx, py + carty))
            .collect();
        canvas.polygon(&cart, BLACK);

        let (l, r, t, b) = (
            -polewidth / 2.0,
            polewidth / 2.0,
            polelen - polewidth / 2.0,
            -polewidth / 2.0,
        );
        let pole: Vec<(f64, f64)> = [(l, b), (l, t), (r, t), (r, b)]
            .iter()
            .map(|&(px, py)| {
                let (rx, ry) = rotate(px, py, -self.state[2]);
                (rx + cartx, ry + carty + axleoffset)
            })
            .collect();
        canvas.polygon(&pole, POLE_COLOR);
        canvas.circle(cartx, carty + axleoffset, polewidth / 2.0, AXLE_COLOR);
        canvas.hline(0.0, f64::from(WIDTH), carty, BLACK);
    }

    fn render_text(&self) -> String {
        let [x, x_dot, theta, theta_dot] = self.state;
        format!(
            "cart x={x:+.3} m (limit ±2.4), velocity={x_dot:+.3} m/s; pole angle={:+.2}° \
             (limit ±12°, + leans right), angular velocity={theta_dot:+.3} rad/s",
            theta.to_degrees()
        )
    }

    fn clone_box(&self) -> Box<dyn Env> {
        Box::new(self.clone())
    }

    fn render_fps(&self) -> u32 {
        50
    }
    fn words(&self) -> Words {
        Words {
            goal: "Keep the pole upright",
            success: "kept the pole upright",
            failure: "the pole fell or the cart left the track",
        }
    }
    fn oracle(&self, control: Control) -> Option<Box<dyn Solver>> {
        super::oracle::solver(self, control)
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

    #[test]
    fn reset_matches_gymnasium() {
        let mut env = CartPole::new("CartPole-v1");
        let r = env.reset(Some(0));
        assert_eq!(env.physical_state().unwrap(), RESET_SEED0.to_vec());
        let want: Vec<f32> = RESET_SEED0.iter().map(|&v| v as f32).collect();
        assert_eq!(vector(&r.obs), want);
        env.reset(Some(42));
        assert_eq!(env.physical_state().unwrap(), RESET_SEED42.to_vec());
    }

    #[test]
    fn steps_match_gymnasium() {
        let mut env = CartPole::new("CartPole-v1");
        env.reset(Some(0));
        for (i, (&a, want)) in STEP_ACTIONS.iter().zip(STEPS_SEED0).enumerate() {
            let s = env.step(Action::Index(a)).unwrap();
            let got = env.physical_state().unwrap();
            for (g, w) in got.iter().zip(want) {
                assert!((g - w).abs() <= 1e-12, "step {i}: {got:?} vs {want:?}");
            }
            assert_eq!(s.reward, 1.0);
            assert!(!s.terminated);
        }
    }

    #[test]
    fn terminates_and_pays_zero_after() {
        let mut env = CartPole::new("CartPole-v1");
        env.reset(Some(3));
        let mut steps = 0;
        loop {
            let s = env.step(Action::Index(1)).unwrap();
            steps += 1;
            assert_eq!(s.reward, 1.0);
            if s.terminated {
                break;
            }
            assert!(steps < 500);
        }
        assert_eq!(steps, 10);
        let end = env.physical_state().unwrap();
        for (g, w) in end.iter().zip(PUSH_RIGHT_SEED3_END) {
            assert!((g - w).abs() <= 1e-12, "{end:?}");
        }
        assert!(end[2] < -THETA_THRESHOLD);
        let s = env.step(Action::Index(0)).unwrap();
        assert!(s.terminated);
        assert_eq!(s.reward, 0.0);
    }

    #[test]
    fn render_draws_the_scene() {
        let mut env = CartPole::new("CartPole-v1");
        let mut frame = Frame::new(1, 1);
        env.render(&mut frame);
        assert_eq!((frame.width(), frame.height()), (600, 400));
        env.reset(Some(0));
        env.render(&mut frame);
        // Cart body below the track line, pole above it, track at row 299.
        assert_eq!(frame.get(300, 310), Some(BLACK));
        assert_eq!(frame.get(300, 240), Some(POLE_COLOR));
        assert_eq!(frame.get(10, 299), Some(BLACK));
        assert_eq!(frame.get(10, 10), Some([255, 255, 255]));
        assert!(env.render_text().contains("pole angle"));
    }

    // gymnasium 1.4.0 / numpy 2.4.6: resets, and the states after the actions below.
    const RESET_SEED0: [f64; 4] = [
        0.013696168732145436,
        -0.02302132862361297,
        -0.045902647606380534,
        -0.04834723644714709,
    ];
    const RESET_SEED42: [f64; 4] = [
        0.027395604855596334,
        -0.006112156024794771,
        0.03585979199113824,
        0.019736802905936393,
    ];
    const STEP_ACTIONS: [usize; 10] = [1, 0, 0, 1, 1, 1, 0, 1, 0, 0];
    const STEPS_SEED0: [[f64; 4]; 10] = [
        [
            0.013235742159673177,
            0.17272774640672584,
            -0.04686959233532348,
            -0.3551522026891103,
        ],
        [
            0.016690297087807695,
            -0.0216975470094809,
            -0.05397263638910568,
            -0.07760914862031953,
        ],
        [
            0.016256346147618075,
            -0.21600589442993173,
            -0.05552481936151207,
            0.1975687015569655,
        ],
        [
            0.011936228259019441,
            -0.020135525269068227,
            -0.051573445330372766,
            -0.11209997665422194,
        ],
        [
            0.011533517753638077,
            0.17568604457338038,
            -0.053815444863457206,
            -0.42059765255346165,
        ],
        [
            0.015047238645105685,
            0.37152755465352333,
            -0.06222739791452644,
            -0.729748742568612,
        ],
        [
            0.02247778973817615,
            0.1773183796328068,
            -0.07682237276589868,
            -0.4572818680127474,
        ],
        [
            0.026024157330832288,
            0.37343756591673005,
            -0.08596801012615363,
            -0.7731565687043065,
        ],
        [
            0.03349290864916689,
            0.1795969470124949,
            -0.10143114150023975,
            -0.5087128874368476,
        ],
        [
            0.03708484758941678,
            -0.013960643916825277,
            -0.11160539924897671,
            -0.24963839936871546,
        ],
    ];
    /// Seed 3, always pushing right: terminated on step 10 in this state.
    const PUSH_RIGHT_SEED3_END: [f64; 4] = [
        0.12880049948269917,
        1.9268948294176196,
        -0.2302294822326703,
        -3.0236335439141295,
    ];
}
