//! FlappyBird under the `Env` interface: the package's action names as presets, keys and
//! the 30 fps clock for people, the driver's STATE and info, a text picture, the oracle.

use crate::core::clock::{Clock, ClockMode};
use crate::core::env::{
    discrete_action, Action, Env, Info, Observation, ProgressMeasure, Reset, Signals, Step, Words,
};
use crate::core::error::EnvError;
use crate::core::oracle::{Control, Solver};
use crate::core::package_port::package_port_methods;

use super::env::{FlappyBird, PIPE_HEIGHT, PIPE_WIDTH};
use super::{ACTION_NAMES, ID, KEYMAP, NOOP_ACTION, STEPS_PER_SECOND};

/// The float64 observation narrowed to the interface's float32 vector; the exact values
/// are the driver STATE's `obs` ([`Env::snapshot`]).
fn narrowed(obs: &[f64]) -> Observation {
    Observation::Vector(obs.iter().map(|&v| v as f32).collect())
}

impl Env for FlappyBird {
    fn id(&self) -> &str {
        ID
    }

    package_port_methods!(ACTION_NAMES, NOOP_ACTION, KEYMAP);

    /// The package's human mode steps once per frame and waits with pygame's
    /// `clock.tick(30)`, which truncates 1000/30 to whole milliseconds: 33 ms a step.
    fn clock(&self) -> Option<Clock> {
        Some(Clock {
            mode: ClockMode::Fixed,
            tick_ms: 1000 / STEPS_PER_SECOND,
            idle: NOOP_ACTION,
        })
    }

    fn render_fps(&self) -> u32 {
        STEPS_PER_SECOND
    }

    /// The game is endless unless the `score_limit` kwarg is set; reaching that limit is
    /// its only goal (the package then truncates the episode).
    fn words(&self) -> Words {
        Words {
            goal: "Fly through the gaps between the pipes without touching them or the ground",
            success: "reached the score limit",
            failure: "hit a pipe or the ground",
        }
    }

    fn reset(&mut self, seed: Option<u64>) -> Reset {
        let (obs, _) = self.start(seed);
        Reset {
            obs: narrowed(&obs),
            info: Info::default(),
        }
    }

    fn step(&mut self, action: Action) -> Result<Step, EnvError> {
        let a = discrete_action(&action, ACTION_NAMES.len())?;
        let s = self.play(a)?;
        Ok(Step {
            obs: narrowed(&s.obs),
            reward: s.reward,
            terminated: s.terminated,
            truncated: s.truncated,
            info: Info::default(),
            signals: Signals {
                success: self.score_limit_reached() && !s.terminated,
                events: crate::Events::NONE,
                ..Signals::default()
            },
        })
    }

    fn observation(&self) -> Observation {
        narrowed(self.observation_values())
    }

    /// The bird's height and speed, the next pipe's gap and distance, the score (screen
    /// pixels, y down).
    fn render_text(&self) -> String {
        let bird_x = self.player_x as f64;
        let next = (0..3)
            .filter(|&i| self.lower[i].x + PIPE_WIDTH as f64 >= bird_x)
            .min_by(|&a, &b| self.lower[a].x.total_cmp(&self.lower[b].x));
        let pipe = match next {
            Some(i) => format!(
                "next pipe {} px ahead, gap from y={} to y={}",
                self.lower[i].x - bird_x,
                self.upper[i].y + PIPE_HEIGHT,
                self.lower[i].y
            ),
            None => "no pipe ahead".to_string(),
        };
        format!(
            "bird top at y={} px (ground at y={}), vertical speed {:+} px/step (+ is down); \
             {pipe}; score {}",
            self.player_y, self.ground_y, self.vel_y, self.score
        )
    }

    fn oracle(&self, control: Control) -> Option<Box<dyn Solver>> {
        Some(Box::new(super::oracle::FlapPlanner::new(control)))
    }

    /// The score toward the `score_limit` kwarg, when one is set.
    fn progress(&self) -> Option<ProgressMeasure> {
        self.config().score_limit.map(|limit| ProgressMeasure {
            value: self.score as f64,
            goal: limit as f64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_clock_info_and_the_score_limit_goal() {
        let mut env = crate::make_default(ID).unwrap();
        env.reset(Some(0));
        assert_eq!(
            env.render_text(),
            "bird top at y=244 px (ground at y=404.48), vertical speed -9 px/step (+ is down); \
             next pipe 231 px ahead, gap from y=160 to y=260; score 0"
        );
        assert_eq!(env.clock().map(|c| c.tick_ms), Some(33));
        assert_eq!(env.reply_fields()["info"], serde_json::json!({"score": 0}));
        assert_eq!(env.progress(), None);
        let limited = serde_json::json!({"score_limit": 1});
        let mut env = crate::make(ID, limited.as_object().unwrap()).unwrap();
        env.reset(Some(0));
        let mut oracle = env.oracle(Control::default()).unwrap();
        let mut last = None;
        for _ in 0..200 {
            let a = oracle.act(env.as_ref()).unwrap();
            let s = env.step(Action::Index(a)).unwrap();
            if s.terminated || s.truncated {
                last = Some(s);
                break;
            }
        }
        let s = last.unwrap();
        assert!(s.truncated && !s.terminated && s.signals.success);
        assert_eq!(env.progress().map(|p| (p.value, p.goal)), Some((1.0, 1.0)));
    }
}
