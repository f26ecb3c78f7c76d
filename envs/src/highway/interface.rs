//! HighwayEnv under the `Env` interface: the package's meta-action names as presets, keys
//! and the real-time clock for people, the driver's STATE and info, a text picture, the
//! oracle.

use serde_json::Value;

use crate::core::clock::{Clock, ClockMode};
use crate::core::env::{
    discrete_action, Action, Env, Info, Observation, Reset, Signals, Step, Words,
};
use crate::core::error::EnvError;
use crate::core::oracle::{Control, Solver};
use crate::core::package_port::package_port_methods;

use super::env::{Highway, HighwayObservation};
use super::vehicle::LENGTH;
use super::{ACTION_NAMES, KEYMAP, NOOP_ACTION};

/// Cars the text picture lists, nearest first.
const TEXT_CARS: usize = 6;
/// How far ahead and behind the text picture looks, in metres.
const TEXT_RANGE: f64 = 80.0;

/// The 5×5 float32 kinematics, row-major (exact).
fn flat(obs: &HighwayObservation) -> Observation {
    Observation::Vector(obs.iter().flatten().copied().collect())
}

impl Env for Highway {
    fn id(&self) -> &str {
        Highway::id(self)
    }

    package_port_methods!(ACTION_NAMES, NOOP_ACTION, KEYMAP);

    /// Real time is simulated time: one policy step per `1 / policy_frequency` seconds
    /// (1 s by default), the pace of the package's human mode, which shows the
    /// simulation frames in between while the meta-action of the step plays out.
    fn clock(&self) -> Option<Clock> {
        Some(Clock {
            mode: ClockMode::Fixed,
            tick_ms: 1000 / self.steps_per_second().max(1),
            idle: NOOP_ACTION,
        })
    }

    /// The package's `render_fps` metadata: twice the policy frequency (its videos play
    /// at twice real time).
    fn render_fps(&self) -> u32 {
        2 * self.steps_per_second()
    }

    /// The drive ends after `duration` simulated seconds; there is no goal beyond not
    /// crashing (the benchmark judges survival and reward).
    fn words(&self) -> Words {
        Words {
            goal: "Drive fast, keep to the right and do not crash",
            success: "drove to the end without crashing",
            failure: "crashed",
        }
    }

    fn reset(&mut self, seed: Option<u64>) -> Reset {
        let (obs, _) = self.start(seed);
        Reset {
            obs: flat(&obs),
            info: Info::default(),
        }
    }

    fn step(&mut self, action: Action) -> Result<Step, EnvError> {
        let a = discrete_action(&action, ACTION_NAMES.len())?;
        let s = self.play(a)?;
        Ok(Step {
            obs: flat(&s.obs),
            reward: s.reward,
            terminated: s.terminated,
            truncated: s.truncated,
            info: Info::default(),
            signals: Signals::default(),
        })
    }

    fn observation(&self) -> Observation {
        flat(self.observation_array())
    }

    /// The ego's lane, speed and target speed, the time left, and the nearest cars with
    /// their lane, distance (bumper to bumper) and speed.
    fn render_text(&self) -> String {
        let cars = self.vehicles();
        let Some(ego) = cars.first() else {
            return "no cars yet: reset first".into();
        };
        let lanes = self.config().lanes_count;
        let mut near: Vec<(f64, String)> = cars
            .iter()
            .skip(1)
            .filter_map(|v| {
                let dx = v.position[0] - ego.position[0];
                (dx.abs() <= TEXT_RANGE).then(|| {
                    let gap = (dx.abs() - LENGTH).max(0.0);
                    let side = if dx >= 0.0 { "ahead" } else { "behind" };
                    (
                        dx.abs(),
                        format!(
                            "lane {}, {gap:.1} m {side}, {:.1} m/s{}",
                            v.lane,
                            v.speed,
                            if v.crashed { ", crashed" } else { "" }
                        ),
                    )
                })
            })
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0));
        let listed: Vec<String> = near.into_iter().take(TEXT_CARS).map(|c| c.1).collect();
        format!(
            "ego in lane {} of lanes 0-{} (0 is the leftmost), speed {:.1} m/s, target {:.0} \
             m/s{}; {:.0} of {:.0} s driven; nearest cars: {}",
            ego.lane,
            lanes.saturating_sub(1),
            ego.speed,
            ego.target_speed,
            if ego.crashed { ", crashed" } else { "" },
            self.time(),
            self.config().duration,
            if listed.is_empty() {
                "none within 80 m".to_string()
            } else {
                listed.join("; ")
            }
        )
    }

    /// The STATE with every car's IDM exponent, as the reset reply carries it.
    fn snapshot_at_reset(&self) -> Option<Value> {
        Some(self.reset_state_json())
    }

    fn oracle(&self, control: Control) -> Option<Box<dyn Solver>> {
        Some(Box::new(super::oracle::RuleDriver::new(control)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::highway::{HIGHWAY_FAST_ID, HIGHWAY_ID};

    #[test]
    fn clocks_follow_the_policy_frequency() {
        let env = crate::make_default(HIGHWAY_FAST_ID).unwrap();
        assert_eq!(env.clock().map(|c| (c.tick_ms, c.idle)), Some((1000, 1)));
        assert_eq!(env.render_fps(), 2);
        let kwargs = serde_json::json!({"config": {"policy_frequency": 2}});
        let env = crate::make(HIGHWAY_ID, kwargs.as_object().unwrap()).unwrap();
        assert_eq!(env.clock().map(|c| c.tick_ms), Some(500));
        assert_eq!(env.render_fps(), 4);
    }

    #[test]
    fn text_and_info_after_reset_and_step() {
        let mut env = crate::make_default(HIGHWAY_ID).unwrap();
        env.reset(Some(0));
        let text = env.render_text();
        assert!(
            text.starts_with(
                "ego in lane 3 of lanes 0-3 (0 is the leftmost), speed 25.0 m/s, target 25 m/s; \
                 0 of 40 s driven; nearest cars: lane 2, 13.1 m ahead"
            ),
            "{text}"
        );
        assert_eq!(env.reply_fields()["info"]["action"], Value::Null);
        assert!(env.snapshot_at_reset().unwrap().get("idm_delta").is_some());
        assert!(env.snapshot().unwrap().get("idm_delta").is_none());
        env.step(Action::Index(3)).unwrap();
        assert_eq!(env.reply_fields()["info"]["action"], 3);
        let Observation::Vector(v) = env.observation() else {
            panic!("a vector")
        };
        assert_eq!(v.len(), 25);
    }
}
