//! highway-env's `HighwayEnv` (`highway-v0`) and `HighwayEnvFast` (`highway-fast-v0`):
//! the ego among IDM cars on a straight road, discrete meta-actions, a 5×5 kinematics
//! observation. Resets draw from the environment generator (the road shares it); steps
//! draw nothing.

use serde_json::{json, Value};

use crate::core::error::EnvError;
use crate::rng::glibc_trig;
use crate::rng::EnvRng;

use super::collision::handle_collision;
use super::config::HighwayConfig;
use super::numeric::{clip, lmap, norm2, py_mod};
use super::road::{Road, LANE_WIDTH, SPEED_LIMIT};
use super::vehicle::{idm_act, Driver, MetaAction, Vehicle, TARGET_SPEEDS};
use super::{ACTION_NAMES, HIGHWAY_ID};

/// Rows (vehicles) and columns (presence, x, y, vx, vy) of the observation.
pub const OBS_ROWS: usize = 5;
pub const OBS_FEATURES: usize = 5;
pub type HighwayObservation = [[f32; OBS_FEATURES]; OBS_ROWS];

/// Cars farther than this are not observed: 5 × the maximum speed.
const PERCEPTION_DISTANCE: f64 = 5.0 * 40.0;
const MAX_SPEED: f64 = 40.0;

/// numpy's `exp(−n/8)` for n = 1..=8 lanes, bit for bit. numpy's own exp kernel is not
/// always correctly rounded (n = 1 is one ulp below), and `libm` differs from it at n = 1
/// and n = 3; every reset position depends on this factor, so the reference's values are
/// kept here. More lanes fall back to `libm`.
const NUMPY_EXP_NEG_EIGHTHS: [u64; 8] = [
    0x3fec_3d6a_24ed_8221,
    0x3fe8_ebef_9eac_820b,
    0x3fe5_fe46_15e9_8e8f,
    0x3fe3_68b2_fc6f_960a,
    0x3fe1_20dc_9349_93e8,
    0x3fde_3b40_ebef_cd7e,
    0x3fda_adde_095d_ad4b,
    0x3fd7_8b56_362c_ef38,
];

#[derive(Clone, Debug, PartialEq)]
pub struct StepResult {
    pub obs: HighwayObservation,
    pub reward: f64,
    pub terminated: bool,
    pub truncated: bool,
    /// `{"speed", "crashed", "action", "rewards": {...}}`.
    pub info: Value,
}

#[derive(Clone, Debug)]
pub struct Highway {
    id: &'static str,
    config: HighwayConfig,
    road: Road,
    rng: EnvRng,
    pub(super) cars: Vec<Vehicle>,
    time: f64,
    sim_steps: u64,
    obs: HighwayObservation,
    /// The action of the last step (`None` after a reset), for the info dict.
    last_action: Option<usize>,
    was_reset: bool,
}

impl Highway {
    /// `id` is `highway-v0` or `highway-fast-v0`.
    pub fn new(id: &str, config: HighwayConfig) -> Result<Self, EnvError> {
        let id = if id == HIGHWAY_ID {
            HIGHWAY_ID
        } else {
            super::HIGHWAY_FAST_ID
        };
        Ok(Self {
            id,
            road: Road {
                lanes: config.lanes_count,
            },
            config,
            rng: EnvRng::default(),
            cars: Vec::new(),
            time: 0.0,
            sim_steps: 0,
            obs: [[0.0; OBS_FEATURES]; OBS_ROWS],
            last_action: None,
            was_reset: false,
        })
    }

    pub fn id(&self) -> &'static str {
        self.id
    }

    pub fn config(&self) -> &HighwayConfig {
        &self.config
    }

    /// Real-time rate: policy steps per second of simulated time.
    pub fn steps_per_second(&self) -> u32 {
        self.config.policy_frequency
    }

    /// The cars in road order, the ego first.
    pub fn vehicles(&self) -> &[Vehicle] {
        &self.cars
    }

    /// The package's `reset`. Gymnasium's rule: a seed rebuilds the generator, no seed
    /// continues it. Returns the observation and the info dict.
    pub fn start(&mut self, seed: Option<u64>) -> (HighwayObservation, Value) {
        self.rng.reset(seed);
        self.time = 0.0;
        self.sim_steps = 0;
        self.create_vehicles();
        self.was_reset = true;
        self.last_action = None;
        self.obs = self.observe();
        (self.obs, self.info())
    }

    /// Spacing factor of the random placement: exp(−5/40 · lanes), as numpy computes it.
    fn lane_density_factor(&self) -> f64 {
        let lanes = self.config.lanes_count;
        match NUMPY_EXP_NEG_EIGHTHS.get(lanes.wrapping_sub(1)) {
            Some(&bits) => f64::from_bits(bits),
            None => libm::exp(-5.0 / 40.0 * lanes as f64),
        }
    }

    /// The ego, then the other cars, each placed ahead of every car before it.
    fn create_vehicles(&mut self) {
        let lanes = self.config.lanes_count;
        let factor = self.lane_density_factor();
        self.cars.clear();
        let rng = self.rng.get();
        let lane = match self.config.initial_lane_id {
            Some(l) => l,
            None => rng.index(lanes).unwrap_or(0),
        };
        let speed = 25.0;
        let offset = self.config.ego_spacing * (12.0 + 1.0 * speed) * factor;
        let x0 = 3.0 * offset + offset * rng.uniform(0.9, 1.1);
        let position = [x0, LANE_WIDTH * lane as f64];
        self.cars.push(Vehicle {
            driver: Driver::Ego { speed_index: 1 },
            position,
            heading: 0.0,
            speed,
            lane: self.road.closest_lane(position, 0.0),
            target_lane: lane,
            target_speed: TARGET_SPEEDS[1],
            crashed: false,
            impact: None,
            steering: 0.0,
            acceleration: 0.0,
            check_collisions: true,
        });
        let spacing = 1.0 / self.config.vehicles_density;
        for _ in 0..self.config.vehicles_count {
            let rng = self.rng.get();
            let lane = rng.index(lanes).unwrap_or(0);
            let speed = rng.uniform(0.7 * SPEED_LIMIT, 0.8 * SPEED_LIMIT);
            let offset = spacing * (12.0 + 1.0 * speed) * factor;
            let ahead = self
                .cars
                .iter()
                .map(|v| self.road.local(lane, v.position).0)
                .fold(f64::NEG_INFINITY, f64::max);
            let x0 = ahead + offset * rng.uniform(0.9, 1.1);
            let position = [x0, LANE_WIDTH * lane as f64];
            let timer = py_mod((position[0] + position[1]) * core::f64::consts::PI, 1.0);
            let delta = rng.uniform(3.5, 4.5);
            self.cars.push(Vehicle {
                driver: Driver::Idm { delta, timer },
                position,
                heading: 0.0,
                speed,
                lane: self.road.closest_lane(position, 0.0),
                target_lane: lane,
                target_speed: speed,
                crashed: false,
                impact: None,
                steering: 0.0,
                acceleration: 0.0,
                check_collisions: self.config.other_cars_collide,
            });
        }
    }

    /// The package's `step`.
    pub fn play(&mut self, action: usize) -> Result<StepResult, EnvError> {
        if !self.was_reset {
            return Err(EnvError::NotReset);
        }
        let meta = match action {
            0 => MetaAction::LaneLeft,
            1 => MetaAction::Idle,
            2 => MetaAction::LaneRight,
            3 => MetaAction::Faster,
            4 => MetaAction::Slower,
            _ => {
                return Err(EnvError::InvalidAction(format!(
                    "action {action} is out of range: {} has actions 0..{}",
                    self.id,
                    ACTION_NAMES.len() - 1
                )))
            }
        };
        self.time += 1.0 / f64::from(self.config.policy_frequency);
        let frames = u64::from(self.config.frames_per_step());
        let dt = 1.0 / f64::from(self.config.simulation_frequency);
        for _ in 0..frames {
            if self.sim_steps.is_multiple_of(frames) {
                self.cars[0].ego_act(&self.road, Some(meta));
            }
            for i in 0..self.cars.len() {
                if self.cars[i].is_ego() {
                    self.cars[i].ego_act(&self.road, None);
                } else {
                    idm_act(&self.road, &mut self.cars, i);
                }
            }
            for car in &mut self.cars {
                car.step(&self.road, dt);
            }
            for i in 0..self.cars.len() {
                for j in i + 1..self.cars.len() {
                    handle_collision(&mut self.cars, i, j, dt);
                }
            }
            self.sim_steps += 1;
        }
        self.obs = self.observe();
        self.last_action = Some(action);
        let rewards = self.rewards();
        let ego = &self.cars[0];
        let terminated = ego.crashed || (self.config.offroad_terminal && rewards[3] == 0.0);
        let truncated = self.time >= self.config.duration;
        Ok(StepResult {
            obs: self.obs,
            reward: self.reward(&rewards),
            terminated,
            truncated,
            info: self.info(),
        })
    }

    /// (collision, right lane, high speed, on road), as the package's `_rewards`.
    fn rewards(&self) -> [f64; 4] {
        let ego = &self.cars[0];
        let lanes = self.config.lanes_count;
        let right_lane = ego.target_lane as f64 / (lanes.saturating_sub(1).max(1)) as f64;
        let forward_speed = ego.speed * glibc_trig::cos(ego.heading);
        let scaled_speed = lmap(forward_speed, self.config.reward_speed_range, [0.0, 1.0]);
        [
            if ego.crashed { 1.0 } else { 0.0 },
            right_lane,
            clip(scaled_speed, 0.0, 1.0),
            if self.road.on_lane(ego.lane, ego.position, 0.0) {
                1.0
            } else {
                0.0
            },
        ]
    }

    fn reward(&self, r: &[f64; 4]) -> f64 {
        let c = &self.config;
        // The on-road term has no weight in the configuration (weight 0).
        let mut reward = 0.0
            + c.collision_reward * r[0]
            + c.right_lane_reward * r[1]
            + c.high_speed_reward * r[2]
            + 0.0 * r[3];
        if c.normalize_reward {
            reward = lmap(
                reward,
                [
                    c.collision_reward,
                    c.high_speed_reward + c.right_lane_reward,
                ],
                [0.0, 1.0],
            );
        }
        reward * r[3]
    }

    /// The info dict of the last reset or step. At reset the package reports a sample of
    /// a freshly built, unseeded action space as "action" (not reproducible); Playbench
    /// reports null there.
    pub fn info(&self) -> Value {
        let action = self.last_action;
        let r = self.rewards();
        let ego = &self.cars[0];
        json!({
            "speed": ego.speed,
            "crashed": ego.crashed,
            "action": action,
            "rewards": {
                "collision_reward": r[0],
                "right_lane_reward": r[1],
                "high_speed_reward": r[2],
                "on_road_reward": r[3],
            },
        })
    }

    /// Kinematics: the ego (absolute), then up to four cars within 200 m that are not more
    /// than 10 m behind, nearest first (relative to the ego); normalized and clipped.
    fn observe(&self) -> HighwayObservation {
        let ego = &self.cars[0];
        let features = |v: &Vehicle| {
            let vel = v.velocity();
            [v.position[0], v.position[1], vel[0], vel[1]]
        };
        let origin = features(ego);
        let mut close: Vec<(usize, f64)> = self
            .cars
            .iter()
            .enumerate()
            .skip(1)
            .filter_map(|(i, v)| {
                let gap = [
                    v.position[0] - ego.position[0],
                    v.position[1] - ego.position[1],
                ];
                let ahead = v.position[0] - ego.position[0];
                (norm2(gap) < PERCEPTION_DISTANCE && -2.0 * super::vehicle::LENGTH < ahead)
                    .then_some((i, ahead.abs()))
            })
            .collect();
        close.sort_by(|a, b| a.1.total_cmp(&b.1));
        let mut rows: Vec<[f64; 4]> = vec![origin];
        for &(i, _) in close.iter().take(OBS_ROWS - 1) {
            let f = features(&self.cars[i]);
            rows.push([
                f[0] - origin[0],
                f[1] - origin[1],
                f[2] - origin[2],
                f[3] - origin[3],
            ]);
        }
        let y_range = LANE_WIDTH * self.config.lanes_count as f64;
        let ranges = [
            [-PERCEPTION_DISTANCE, PERCEPTION_DISTANCE],
            [-y_range, y_range],
            [-2.0 * MAX_SPEED, 2.0 * MAX_SPEED],
            [-2.0 * MAX_SPEED, 2.0 * MAX_SPEED],
        ];
        let mut obs = [[0.0f32; OBS_FEATURES]; OBS_ROWS];
        for (row, values) in obs.iter_mut().zip(&rows) {
            row[0] = 1.0;
            for k in 0..4 {
                let v = clip(lmap(values[k], ranges[k], [-1.0, 1.0]), -1.0, 1.0);
                row[k + 1] = v as f32;
            }
        }
        obs
    }

    pub fn observation_array(&self) -> &HighwayObservation {
        &self.obs
    }

    /// Simulated seconds since reset (= policy steps at 1 Hz).
    pub fn time(&self) -> f64 {
        self.time
    }

    /// The driver's STATE: time, simulation frames, every car (road order, ego first) as
    /// [lane, target lane, x, y, heading, speed, target speed, crashed (0/1), extra] with
    /// extra = the ego's speed index or an IDM car's lane-change timer, and the
    /// observation.
    pub fn state_json(&self) -> Value {
        let vehicles: Vec<Value> = self
            .cars
            .iter()
            .map(|v| {
                let extra = match v.driver {
                    Driver::Ego { speed_index } => json!(speed_index),
                    Driver::Idm { timer, .. } => json!(timer),
                };
                json!([
                    v.lane,
                    v.target_lane,
                    v.position[0],
                    v.position[1],
                    v.heading,
                    v.speed,
                    v.target_speed,
                    u8::from(v.crashed),
                    extra
                ])
            })
            .collect();
        let obs: Vec<Vec<f64>> = self
            .obs
            .iter()
            .map(|row| row.iter().map(|&x| f64::from(x)).collect())
            .collect();
        json!({
            "time": self.time,
            "sim_steps": self.sim_steps,
            "vehicles": vehicles,
            "obs": obs,
        })
    }

    /// [`Self::state_json`] plus every car's IDM exponent (`idm_delta`, null for the ego),
    /// as the driver's reset reply carries it.
    pub fn reset_state_json(&self) -> Value {
        let mut state = self.state_json();
        let deltas: Vec<Option<f64>> = self
            .cars
            .iter()
            .map(|v| match v.driver {
                Driver::Idm { delta, .. } => Some(delta),
                Driver::Ego { .. } => None,
            })
            .collect();
        state["idm_delta"] = json!(deltas);
        state
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::kwargs::Kwargs;
    use crate::highway::HIGHWAY_FAST_ID;

    fn make(id: &str, kwargs: &str) -> Highway {
        let mut kw = Kwargs::new(id, serde_json::from_str(kwargs).unwrap());
        let config = HighwayConfig::from_kwargs(id, &mut kw).unwrap();
        kw.finish().unwrap();
        Highway::new(id, config).unwrap()
    }

    #[test]
    fn seed_zero_reset_vector() {
        let mut env = make(HIGHWAY_ID, "{}");
        env.start(Some(0));
        let cars = env.vehicles();
        assert_eq!(cars.len(), 51);
        assert_eq!(cars[0].lane, 3);
        assert!((cars[0].position[0] - 177.466_530_31).abs() < 1e-8);
        assert_eq!(cars[1].lane, 2);
        assert_eq!(cars[1].speed, 21.122920571808585);
        assert!((cars[1].position[0] - 195.613_998_75).abs() < 1e-8);
        assert_eq!(
            cars[1].driver,
            Driver::Idm {
                delta: 4.313270239200272,
                timer: 0.6722426491776332
            }
        );
        let state = env.reset_state_json();
        assert_eq!(state["idm_delta"][0], Value::Null);
        assert_eq!(state["idm_delta"][1], 4.313270239200272);
        assert_eq!(env.state_json().get("idm_delta"), None);
        assert_eq!(state["sim_steps"], 0);
    }

    #[test]
    fn a_step_runs_fifteen_frames_and_rewards_the_right_lane() {
        let mut env = make(HIGHWAY_ID, "{}");
        env.start(Some(0));
        let s = env.play(1).unwrap();
        assert_eq!(env.state_json()["sim_steps"], 15);
        assert_eq!(env.state_json().get("idm_delta"), None);
        assert_eq!(s.info["action"], 1);
        assert_eq!(s.info["rewards"]["right_lane_reward"], 1.0);
        assert!(!s.truncated);
        let fast = make(HIGHWAY_FAST_ID, "{}");
        assert_eq!(fast.config().frames_per_step(), 5);
        assert!(!fast.config().other_cars_collide);
    }

    #[test]
    fn config_overrides_and_errors() {
        let env = make(
            HIGHWAY_ID,
            r#"{"config": {"lanes_count": 2, "duration": 5}}"#,
        );
        assert_eq!(env.config().lanes_count, 2);
        assert_eq!(env.config().duration, 5.0);
        let bad = |k: &str| crate::make(HIGHWAY_ID, &serde_json::from_str(k).unwrap()).is_err();
        assert!(bad(r#"{"config": {"lanes": 2}}"#));
        assert!(bad(r#"{"lanes_count": 2}"#));
        assert!(bad(r#"{"config": {"initial_lane_id": 9}}"#));
        assert!(bad(r#"{"config": {"duration": "long"}}"#));
        assert!(bad(r#"{"config": 4}"#));
        assert!(!bad(
            r#"{"config": {"initial_lane_id": null, "lane_change_reward": 0}}"#
        ));
        assert!(HighwayConfig::defaults("highway-v9").is_err());
        let mut env = make(HIGHWAY_ID, "{}");
        assert_eq!(env.play(1), Err(EnvError::NotReset));
        env.start(Some(1));
        assert!(matches!(env.play(5), Err(EnvError::InvalidAction(_))));
    }

    #[test]
    fn frame_shows_the_ego_in_green() {
        let mut env = make(HIGHWAY_ID, "{}");
        env.start(Some(0));
        let mut frame = crate::Frame::default();
        env.draw(&mut frame);
        assert_eq!((frame.width(), frame.height()), (600, 150));
        // The ego is drawn at (0.3·600, 0.5·150) = (180, 75).
        assert_eq!(frame.get(175, 75), Some([50, 200, 0]));
        assert_eq!(frame.get(5, 140), Some([100, 100, 100]));
    }
}
