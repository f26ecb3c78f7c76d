//! highway-env's configuration for `highway-v0` and `highway-fast-v0`, with the overrides
//! a caller may pass as `{"config": {...}}` (the keys the package reads for this task).

use serde_json::{Map, Value};

use crate::core::error::EnvError;
use crate::core::kwargs::Kwargs;

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

    /// Defaults for `id` with the kwarg `config` (an object of the package's config keys)
    /// applied; an unknown config key is an error like an unknown kwarg.
    pub fn from_kwargs(id: &str, kw: &mut Kwargs) -> Result<Self, EnvError> {
        let mut c = Self::defaults(id)?;
        let overrides: Map<String, Value> =
            kw.value("config", "an object of highway-env config keys", Map::new())?;
        let mut o = Kwargs::new(&format!("{id} config"), overrides);
        let number = "a number";
        let whole = "a whole number";
        c.lanes_count = o.value("lanes_count", whole, c.lanes_count)?;
        c.vehicles_count = o.value("vehicles_count", whole, c.vehicles_count)?;
        c.initial_lane_id =
            o.value("initial_lane_id", "a lane index or null", c.initial_lane_id)?;
        c.duration = o.value("duration", number, c.duration)?;
        c.ego_spacing = o.value("ego_spacing", number, c.ego_spacing)?;
        c.vehicles_density = o.value("vehicles_density", number, c.vehicles_density)?;
        c.simulation_frequency = o.value("simulation_frequency", whole, c.simulation_frequency)?;
        c.policy_frequency = o.value("policy_frequency", whole, c.policy_frequency)?;
        c.collision_reward = o.value("collision_reward", number, c.collision_reward)?;
        c.right_lane_reward = o.value("right_lane_reward", number, c.right_lane_reward)?;
        c.high_speed_reward = o.value("high_speed_reward", number, c.high_speed_reward)?;
        // Weight 0 in both tasks, and the package's reward never reads it: accepted, unused.
        o.value::<f64>("lane_change_reward", number, 0.0)?;
        c.reward_speed_range =
            o.value("reward_speed_range", "[low, high]", c.reward_speed_range)?;
        c.normalize_reward = o.bool("normalize_reward", c.normalize_reward)?;
        c.offroad_terminal = o.bool("offroad_terminal", c.offroad_terminal)?;
        c.screen_width = o.value("screen_width", whole, c.screen_width)?;
        c.screen_height = o.value("screen_height", whole, c.screen_height)?;
        c.centering_position = o.value("centering_position", "[x, y]", c.centering_position)?;
        c.scaling = o.value("scaling", number, c.scaling)?;
        o.finish()?;
        c.validate()
            .map_err(|e| EnvError::BadKwargs(format!("{id}: {e}")))?;
        Ok(c)
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
