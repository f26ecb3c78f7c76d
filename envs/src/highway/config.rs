//! highway-env's configuration for `highway-v0` and `highway-fast-v0`, with the overrides
//! a caller may pass as `{"config": {...}}` (the keys the package reads for this task).

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::core::error::EnvError;

use super::{HIGHWAY_FAST_ID, HIGHWAY_ID};

#[derive(Clone, Debug, PartialEq)]
pub struct HighwayConfig {
    pub lanes_count: usize,
    /// Other cars.
    pub vehicles_count: usize,
    /// The ego's lane, or a random one.
    pub initial_lane_id: Option<usize>,
    /// Seconds of simulated time before truncation.
    pub duration: f64,
    pub ego_spacing: f64,
    pub vehicles_density: f64,
    pub simulation_frequency: u32,
    pub policy_frequency: u32,
    pub collision_reward: f64,
    pub right_lane_reward: f64,
    pub high_speed_reward: f64,
    pub reward_speed_range: [f64; 2],
    pub normalize_reward: bool,
    pub offroad_terminal: bool,
    pub screen_width: u32,
    pub screen_height: u32,
    pub centering_position: [f64; 2],
    pub scaling: f64,
    /// `highway-fast-v0` lets other cars pass through each other (only the ego collides).
    pub other_cars_collide: bool,
}

impl HighwayConfig {
    /// The registered defaults of `highway-v0` or `highway-fast-v0`.
    pub fn defaults(id: &str) -> Result<Self, EnvError> {
        let base = Self {
            lanes_count: 4,
            vehicles_count: 50,
            initial_lane_id: None,
            duration: 40.0,
            ego_spacing: 2.0,
            vehicles_density: 1.0,
            simulation_frequency: 15,
            policy_frequency: 1,
            collision_reward: -1.0,
            right_lane_reward: 0.1,
            high_speed_reward: 0.4,
            reward_speed_range: [20.0, 30.0],
            normalize_reward: true,
            offroad_terminal: false,
            screen_width: 600,
            screen_height: 150,
            centering_position: [0.3, 0.5],
            scaling: 5.5,
            other_cars_collide: true,
        };
        match id {
            HIGHWAY_ID => Ok(base),
            HIGHWAY_FAST_ID => Ok(Self {
                simulation_frequency: 5,
                lanes_count: 3,
                vehicles_count: 20,
                duration: 30.0,
                ego_spacing: 1.5,
                other_cars_collide: false,
                ..base
            }),
            other => Err(EnvError::UnknownEnv(other.to_string())),
        }
    }

    /// Defaults for `id` with kwargs `{"config": {...}}` applied.
    pub fn from_kwargs(id: &str, kwargs: &Map<String, Value>) -> Result<Self, EnvError> {
        let bad = |e: String| EnvError::BadKwargs(format!("{id}: {e}"));
        let mut config = Self::defaults(id)?;
        for key in kwargs.keys() {
            if key != "config" {
                return Err(bad(format!(
                    "unknown keyword argument `{key}` (use `config`)"
                )));
            }
        }
        let Some(overrides) = kwargs.get("config") else {
            return Ok(config);
        };
        let o: Overrides =
            serde_json::from_value(overrides.clone()).map_err(|e| bad(e.to_string()))?;
        let set = |slot: &mut f64, v: Option<f64>| {
            if let Some(v) = v {
                *slot = v;
            }
        };
        if let Some(v) = o.lanes_count {
            config.lanes_count = v;
        }
        if let Some(v) = o.vehicles_count {
            config.vehicles_count = v;
        }
        if o.initial_lane_id.is_some() {
            config.initial_lane_id = o.initial_lane_id;
        }
        set(&mut config.duration, o.duration);
        set(&mut config.ego_spacing, o.ego_spacing);
        set(&mut config.vehicles_density, o.vehicles_density);
        if let Some(v) = o.simulation_frequency {
            config.simulation_frequency = v;
        }
        if let Some(v) = o.policy_frequency {
            config.policy_frequency = v;
        }
        set(&mut config.collision_reward, o.collision_reward);
        set(&mut config.right_lane_reward, o.right_lane_reward);
        set(&mut config.high_speed_reward, o.high_speed_reward);
        if let Some(v) = o.reward_speed_range {
            config.reward_speed_range = v;
        }
        if let Some(v) = o.normalize_reward {
            config.normalize_reward = v;
        }
        if let Some(v) = o.offroad_terminal {
            config.offroad_terminal = v;
        }
        if let Some(v) = o.screen_width {
            config.screen_width = v;
        }
        if let Some(v) = o.screen_height {
            config.screen_height = v;
        }
        if let Some(v) = o.centering_position {
            config.centering_position = v;
        }
        set(&mut config.scaling, o.scaling);
        config.validate().map_err(bad)?;
        Ok(config)
    }

    fn validate(&self) -> Result<(), String> {
        if !(1..=20).contains(&self.lanes_count) {
            return Err(format!(
                "lanes_count must be 1..=20, got {}",
                self.lanes_count
            ));
        }
        if self.vehicles_count > 500 {
            return Err(format!(
                "vehicles_count must be at most 500, got {}",
                self.vehicles_count
            ));
        }
        if self.initial_lane_id.is_some_and(|l| l >= self.lanes_count) {
            return Err("initial_lane_id must be a lane of the road".into());
        }
        if self.simulation_frequency == 0
            || self.policy_frequency == 0
            || self.simulation_frequency < self.policy_frequency
        {
            return Err("frequencies must be positive, simulation ≥ policy".into());
        }
        if self.vehicles_density.is_nan()
            || self.vehicles_density <= 0.0
            || self.scaling.is_nan()
            || self.scaling <= 0.0
        {
            return Err("vehicles_density and scaling must be positive".into());
        }
        if !(1..=4096).contains(&self.screen_width) || !(1..=4096).contains(&self.screen_height) {
            return Err("screen size must be within 1..=4096".into());
        }
        if self.reward_speed_range[0] == self.reward_speed_range[1] {
            return Err("reward_speed_range must not be empty".into());
        }
        Ok(())
    }

    /// Simulation frames per policy step.
    pub fn frames_per_step(&self) -> u32 {
        self.simulation_frequency / self.policy_frequency
    }
}

/// The overridable keys. The lane-change reward (weight 0 in both tasks) is accepted and
/// ignored, as the package's reward never reads it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Overrides {
    lanes_count: Option<usize>,
    vehicles_count: Option<usize>,
    /// null (or absent) = a random lane.
    initial_lane_id: Option<usize>,
    duration: Option<f64>,
    ego_spacing: Option<f64>,
    vehicles_density: Option<f64>,
    simulation_frequency: Option<u32>,
    policy_frequency: Option<u32>,
    collision_reward: Option<f64>,
    right_lane_reward: Option<f64>,
    high_speed_reward: Option<f64>,
    #[allow(dead_code)]
    lane_change_reward: Option<f64>,
    reward_speed_range: Option<[f64; 2]>,
    normalize_reward: Option<bool>,
    offroad_terminal: Option<bool>,
    screen_width: Option<u32>,
    screen_height: Option<u32>,
    centering_position: Option<[f64; 2]>,
    scaling: Option<f64>,
}
