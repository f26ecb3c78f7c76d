//! Pass and 0-100 score (protocol.md §5): a tracker watches the episode's true state
//! and the task's rule turns what it saw into a number.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::task::{PassCondition, RatioValue, ScoreRule, Task};
use envs::core::env::{Env, Observation, Step};
use envs::minigrid::object::{DoorState, ObjKind};
use envs::toy_text::taxi::{TaxiState, IN_TAXI};

/// What kind of success event an environment has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SuccessRule {
    /// Terminated with a positive reward (goals, deliveries, target pickups).
    PositiveEnd,
    /// Termination is success (CliffWalking's goal, MountainCar's flag, Acrobot's line).
    AnyEnd,
    /// Termination is failure (CartPole).
    EndIsFailure,
}

fn success_rule(env_id: &str) -> SuccessRule {
    match envs::registry::spec(env_id).map(|s| s.id) {
        Some("CliffWalking-v1" | "MountainCar-v0" | "Acrobot-v1") => SuccessRule::AnyEnd,
        Some("CartPole-v1" | "Pendulum-v1") => SuccessRule::EndIsFailure,
        _ => SuccessRule::PositiveEnd,
    }
}

/// Whether `step` is the environment's success event.
pub fn is_success(env_id: &str, step: &Step) -> bool {
    step.terminated
        && match success_rule(env_id) {
            SuccessRule::PositiveEnd => step.reward > 0.0,
            SuccessRule::AnyEnd => true,
            SuccessRule::EndIsFailure => false,
        }
}

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
}

/// Watches an episode.
#[derive(Clone, Debug)]
pub struct Tracker {
    env_id: String,
    navigation: bool,
    progress: Progress,
    /// Start height (Acrobot) or position (MountainCar) for progress.
    origin: Option<f64>,
    open_doors: BTreeSet<(i64, i64)>,
}

fn minigrid_events(
    env: &dyn Env,
    open_doors: &mut BTreeSet<(i64, i64)>,
    events: &mut BTreeSet<String>,
) {
    let Some(world) = env.grid_world() else {
        return;
    };
    if let Some(c) = &world.carrying {
        events.insert(format!("pickup {} {}", c.color.name(), c.type_name()));
    }
    for (pos, obj) in world.grid.cells() {
        if obj.kind == ObjKind::Door(DoorState::Open) && open_doors.insert(pos) {
            events.insert(format!("open {} door", obj.color.name()));
        }
    }
}

/// Acrobot's tip height or MountainCar's position: the quantity progress is measured on.
fn progress_value(env: &dyn Env) -> Option<f64> {
    let s = env.physical_state()?;
    match env.id() {
        "Acrobot-v1" => Some(-libm::cos(s[0]) - libm::cos(s[1] + s[0])),
        "MountainCar-v0" => Some(s[0]),
        _ => None,
    }
}

impl Tracker {
    /// Starts watching from the agent's first decision (after any prefix).
    pub fn new(task: &Task, env: &dyn Env) -> Self {
        let navigation = matches!(task.score, ScoreRule::Navigation { .. });
        let mut open_doors = BTreeSet::new();
        let mut events = BTreeSet::new();
        minigrid_events(env, &mut open_doors, &mut events);
        let start_distance = if navigation {
            envs::solvers::distance_to_goal(env)
        } else {
            None
        };
        Self {
            env_id: task.env.clone(),
            navigation,
            progress: Progress {
                start_distance,
                best_distance: start_distance,
                // Events already true at the start are not progress.
                events: BTreeSet::new(),
                ..Progress::default()
            },
            origin: progress_value(env),
            open_doors,
        }
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
        p.success |= is_success(&self.env_id, step);
        if let Observation::Int(s) = step.obs {
            if env.id() == "Taxi-v3" && TaxiState::decode(s as usize).passenger == IN_TAXI {
                p.picked_up = true;
            }
        }
        minigrid_events(env, &mut self.open_doors, &mut p.events);
        if let (Some(origin), Some(v)) = (self.origin, progress_value(env)) {
            let goal = if env.id() == "Acrobot-v1" { 1.0 } else { 0.5 };
            if goal > origin {
                let fraction = ((v - origin) / (goal - origin)).clamp(0.0, 1.0);
                p.best_progress = p.best_progress.max(fraction);
            }
        }
    }

    /// Records the end of a decision.
    pub fn decision(&mut self, env: &dyn Env) {
        self.progress.decisions += 1;
        if self.navigation && !self.progress.terminated {
            if let Some(d) = envs::solvers::distance_to_goal(env) {
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
