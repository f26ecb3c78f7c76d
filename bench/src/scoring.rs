//! Pass and 0-100 score (`docs/tasks.md`, "Score rules" and "Pass conditions"; the
//! reasoning in `docs/vical-protocol.md`, "Scores"): a tracker watches what the
//! environment reports on each step (its success event, milestones, progress) and the
//! task's rule turns what it saw into a number.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::task::{PassCondition, RatioValue, ScoreRule, Task};
use envs::core::env::{Env, Step};

/// Everything a score rule needs, gathered while the episode runs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub decisions: u32,
    pub env_steps: u32,
    pub total_reward: f64,
    pub success: bool,
    pub terminated: bool,
    /// Environment steps before termination.
    pub steps_survived: u32,
    /// Taxi: the passenger has been in the taxi.
    pub picked_up: bool,
    /// MiniGrid events seen: `pickup <colour> <type>`, `open <colour> door`.
    pub events: BTreeSet<String>,
    /// Shortest distance to the goal at the start, and the best reached since.
    pub start_distance: Option<u32>,
    pub best_distance: Option<u32>,
    /// Swing-up / hill-climb progress toward the goal, 0-1, the best reached.
    pub best_progress: f64,
    /// The episode ended in a draw.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub draw: bool,
    /// The environment's own 0-100 score after the last step, where it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env_score: Option<f64>,
}

/// The milestone Taxi reports while its passenger is aboard.
const TAXI_PICKUP: &str = envs::toy_text::taxi::PICKUP_EVENT;

/// Watches an episode.
#[derive(Clone, Debug)]
pub struct Tracker {
    navigation: bool,
    progress: Progress,
    /// The progress measure at the start, for progress rules.
    origin: Option<f64>,
}

impl Tracker {
    /// Starts watching from the agent's first decision (after any prefix).
    pub fn new(task: &Task, env: &dyn Env) -> Self {
        let navigation = matches!(task.score, ScoreRule::Navigation { .. });
        let start_distance = if navigation {
            env.distance_to_goal()
        } else {
            None
        };
        Self {
            navigation,
            progress: Progress {
                start_distance,
                best_distance: start_distance,
                ..Progress::default()
            },
            origin: env.progress().map(|m| m.value),
        }
        .with_env_score(env)
    }

    fn with_env_score(mut self, env: &dyn Env) -> Self {
        self.progress.env_score = env.normalized_score();
        self
    }

    /// Records one environment step.
    pub fn env_step(&mut self, env: &dyn Env, step: &Step) {
        let p = &mut self.progress;
        p.env_steps += 1;
        p.total_reward += step.reward;
        if !p.terminated {
            p.steps_survived += 1;
        }
        p.terminated |= step.terminated;
        // The environment's own signal (a game may succeed by truncating at its goal).
        p.success |= step.signals.success;
        p.draw |= step.signals.draw;
        p.env_score = env.normalized_score();
        for e in &step.signals.events {
            p.picked_up |= e == TAXI_PICKUP;
            // A held milestone repeats every step: allocate its name once.
            if !p.events.contains(e) {
                p.events.insert(e.to_string());
            }
        }
        if let (Some(origin), Some(m)) = (self.origin, env.progress()) {
            if m.goal > origin {
                let fraction = ((m.value - origin) / (m.goal - origin)).clamp(0.0, 1.0);
                p.best_progress = p.best_progress.max(fraction);
            }
        }
    }

    /// Records the end of a decision.
    pub fn decision(&mut self, env: &dyn Env) {
        self.progress.decisions += 1;
        if self.navigation && !self.progress.terminated {
            if let Some(d) = env.distance_to_goal() {
                let best = self.progress.best_distance.map_or(d, |b| b.min(d));
                self.progress.best_distance = Some(best);
            }
        }
        if self.progress.success {
            self.progress.best_distance = Some(0);
        }
    }

    pub fn progress(&self) -> &Progress {
        &self.progress
    }
}

fn efficiency(reference_steps: u32, decisions: u32) -> f64 {
    (f64::from(reference_steps) / f64::from(decisions.max(1))).min(1.0)
}

/// The 0-100 score of an episode under `rule`.
pub fn score(rule: &ScoreRule, p: &Progress) -> f64 {
    let success = |reference_steps: u32| 70.0 + 30.0 * efficiency(reference_steps, p.decisions);
    let s = match rule {
        ScoreRule::Navigation { reference_steps } => {
            if p.success {
                success(*reference_steps)
            } else {
                match (p.start_distance, p.best_distance) {
                    (Some(d0), Some(d)) if d0 > 0 => {
                        70.0 * (1.0 - f64::from(d) / f64::from(d0)).max(0.0)
                    }
                    _ => 0.0,
                }
            }
        }
        ScoreRule::Taxi { reference_steps } => {
            if p.success {
                success(*reference_steps)
            } else if p.picked_up {
                30.0
            } else {
                0.0
            }
        }
        ScoreRule::Milestones {
            milestones,
            reference_steps,
        } => {
            if p.success {
                success(*reference_steps)
            } else {
                milestones
                    .iter()
                    .filter(|m| p.events.contains(&m.event))
                    .map(|m| m.points)
                    .fold(0.0, f64::max)
            }
        }
        ScoreRule::Progress { reference_steps } => {
            if p.success {
                success(*reference_steps)
            } else {
                70.0 * p.best_progress
            }
        }
        ScoreRule::EnvScore => p.env_score.unwrap_or(0.0),
        ScoreRule::CappedRatio {
            value,
            floor,
            reference,
        } => {
            let v = match value {
                RatioValue::Return => p.total_reward,
                RatioValue::StepsSurvived => f64::from(p.steps_survived),
            };
            100.0 * ((v - floor) / (reference - floor)).clamp(0.0, 1.0)
        }
    };
    s.clamp(0.0, 100.0)
}

/// Whether the episode passes; `budget_exhausted` says the decision budget ran out.
pub fn passed(pass: &PassCondition, p: &Progress, score: f64, budget_exhausted: bool) -> bool {
    match pass {
        PassCondition::ReachGoal => p.success,
        PassCondition::Survive => budget_exhausted && !p.terminated,
        PassCondition::ScoreAtLeast { threshold } => score >= *threshold,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::Milestone;

    fn progress(decisions: u32) -> Progress {
        Progress {
            decisions,
            ..Progress::default()
        }
    }

    #[test]
    fn success_pays_seventy_plus_efficiency() {
        let rule = ScoreRule::Navigation {
            reference_steps: 10,
        };
        let p = Progress {
            success: true,
            ..progress(10)
        };
        assert_eq!(score(&rule, &p), 100.0);
        let p = Progress {
            success: true,
            ..progress(20)
        };
        assert_eq!(score(&rule, &p), 85.0);
    }

    #[test]
    fn failed_navigation_keeps_progress() {
        let rule = ScoreRule::Navigation {
            reference_steps: 10,
        };
        let p = Progress {
            start_distance: Some(10),
            best_distance: Some(5),
            ..progress(30)
        };
        assert_eq!(score(&rule, &p), 35.0);
        let p = Progress {
            start_distance: Some(10),
            best_distance: Some(10),
            ..progress(30)
        };
        assert_eq!(score(&rule, &p), 0.0);
    }

    #[test]
    fn milestones_and_taxi_states() {
        let rule = ScoreRule::Milestones {
            milestones: vec![
                Milestone {
                    event: "pickup yellow key".into(),
                    points: 25.0,
                },
                Milestone {
                    event: "open yellow door".into(),
                    points: 50.0,
                },
            ],
            reference_steps: 12,
        };
        let mut p = progress(40);
        p.events.insert("pickup yellow key".into());
        assert_eq!(score(&rule, &p), 25.0);
        p.events.insert("open yellow door".into());
        assert_eq!(score(&rule, &p), 50.0);
        let taxi = ScoreRule::Taxi {
            reference_steps: 10,
        };
        assert_eq!(
            score(
                &taxi,
                &Progress {
                    picked_up: true,
                    ..progress(5)
                }
            ),
            30.0
        );
    }

    #[test]
    fn capped_ratio_is_clamped() {
        let rule = ScoreRule::CappedRatio {
            value: RatioValue::StepsSurvived,
            floor: 0.0,
            reference: 100.0,
        };
        assert_eq!(
            score(
                &rule,
                &Progress {
                    steps_survived: 50,
                    ..progress(50)
                }
            ),
            50.0
        );
        assert_eq!(
            score(
                &rule,
                &Progress {
                    steps_survived: 500,
                    ..progress(50)
                }
            ),
            100.0
        );
        let rule = ScoreRule::CappedRatio {
            value: RatioValue::Return,
            floor: -1000.0,
            reference: -200.0,
        };
        assert_eq!(
            score(
                &rule,
                &Progress {
                    total_reward: -1500.0,
                    ..progress(50)
                }
            ),
            0.0
        );
        assert_eq!(
            score(
                &rule,
                &Progress {
                    total_reward: -600.0,
                    ..progress(50)
                }
            ),
            50.0
        );
    }

    #[test]
    fn pass_conditions() {
        let p = Progress {
            terminated: false,
            ..progress(100)
        };
        assert!(passed(&PassCondition::Survive, &p, 0.0, true));
        assert!(!passed(&PassCondition::Survive, &p, 0.0, false));
        assert!(passed(
            &PassCondition::ScoreAtLeast { threshold: 60.0 },
            &p,
            61.0,
            true
        ));
        assert!(!passed(&PassCondition::ReachGoal, &p, 100.0, true));
    }
}
