//! The episode engine: runs a task for any agent under the same conditions
//! (protocol.md §1, §4) and records everything needed to replay and re-score it.

use serde::{Deserialize, Serialize};

use super::scoring::{passed, score, Progress, Tracker};
use super::task::{Task, TaskError};
use envs::core::env::{Action, Env};
use envs::core::frame::Frame;

pub const EPISODE_FORMAT: &str = "playbench-episode/1";

/// Why an episode ended without passing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureMode {
    /// The decision budget (or the environment's own limit) ran out.
    Timeout,
    /// Every retry of a decision was malformed.
    InvalidAction,
    /// The model's context was exceeded.
    TokenOverflow,
    /// The environment ended the episode (death, failure) before a pass.
    EarlyTermination,
    /// Transport retries were exhausted.
    ApiError,
}

/// One agent decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// The executed action's name.
    pub action: String,
    /// The agent's raw reply, when it gave one (models).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<String>,
    /// Replies rejected before this one (format retries).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rejected: Vec<String>,
    /// Reward summed over the decision's environment steps.
    pub reward: f64,
    pub terminated: bool,
    pub truncated: bool,
    /// FNV-1a of the frame after the decision, as 16 hex digits.
    pub frame_hash: String,
}

/// A finished episode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpisodeRecord {
    pub format: String,
    pub task: String,
    pub env: String,
    pub seed: u64,
    pub agent: String,
    pub decisions: Vec<Decision>,
    /// What ended the episode when it did not pass.
    pub failure: Option<FailureMode>,
    /// A failed final decision attempt (e.g. the last malformed replies).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rejected: Vec<String>,
    pub passed: bool,
    pub score: f64,
    pub progress: Progress,
}

/// A running episode, advanced one decision at a time (so a person or an
/// asynchronous model can drive it), or run to the end with [`run_episode`].
pub struct EpisodeRunner {
    task: Task,
    env: Box<dyn Env>,
    /// The environment action for each of the task's action names.
    actions: Vec<Action>,
    noop: Option<Action>,
    tracker: Tracker,
    decisions: Vec<Decision>,
    ending: Option<(Option<FailureMode>, Vec<String>)>,
    frame: Frame,
}

fn env_action(task: &Task, env: &dyn Env, name: &str, field: &str) -> Result<Action, TaskError> {
    Task::env_action(env, name)
        .and_then(|i| env.preset_action(i))
        .ok_or_else(|| TaskError {
            field: field.to_string(),
            message: format!("unknown action {name:?}"),
        })
        .map_err(|mut e| {
            e.message = format!("{} (task {})", e.message, task.id);
            e
        })
}

impl EpisodeRunner {
    /// Makes the environment, resets it with the task's seed, plays `init_skip`
    /// no-ops and the prefix (outside the budget), and waits for the first decision.
    pub fn start(task: &Task) -> Result<Self, TaskError> {
        Self::start_from(task, task.seed, &task.prefix)
    }

    /// As [`start`](Self::start) from another seed and prefix (demonstration clips).
    pub fn start_from(task: &Task, seed: u64, prefix: &[String]) -> Result<Self, TaskError> {
        let mut env = task.make_env()?;
        let actions = task
            .actions
            .iter()
            .enumerate()
            .map(|(i, a)| env_action(task, env.as_ref(), a, &format!("actions[{i}]")))
            .collect::<Result<Vec<_>, _>>()?;
        let noop = match &task.noop {
            Some(name) => Some(env_action(task, env.as_ref(), name, "noop")?),
            None => None,
        };
        env.reset(Some(seed));
        let step_or_fail =
            |env: &mut Box<dyn Env>, a: Action, field: &str| -> Result<bool, TaskError> {
                let s = env.step(a).map_err(|e| TaskError {
                    field: field.into(),
                    message: e.to_string(),
                })?;
                Ok(s.terminated || s.truncated)
            };
        for _ in 0..task.init_skip {
            if let Some(noop) = noop {
                if step_or_fail(&mut env, noop, "init_skip")? {
                    return Err(TaskError {
                        field: "init_skip".into(),
                        message: "the episode ended during init_skip".into(),
                    });
                }
            }
        }
        for (i, name) in prefix.iter().enumerate() {
            let field = format!("prefix[{i}]");
            let a = env_action(task, env.as_ref(), name, &field)?;
            for k in 0..task.frame_skip {
                let act = if k < task.action_steps {
                    a
                } else {
                    noop.unwrap_or(a)
                };
                if step_or_fail(&mut env, act, &field)? {
                    return Err(TaskError {
                        field,
                        message: "the episode ended during the prefix".into(),
                    });
                }
            }
        }
        let tracker = Tracker::new(task, env.as_ref());
        Ok(Self {
            task: task.clone(),
            env,
            actions,
            noop,
            tracker,
            decisions: Vec::new(),
            ending: None,
            frame: Frame::default(),
        })
    }

    pub fn task(&self) -> &Task {
        &self.task
    }

    pub fn env(&self) -> &dyn Env {
        self.env.as_ref()
    }

    /// Decisions taken so far.
    pub fn step_count(&self) -> u32 {
        self.decisions.len() as u32
    }

    pub fn decisions(&self) -> &[Decision] {
        &self.decisions
    }

    pub fn is_done(&self) -> bool {
        self.ending.is_some()
    }

    pub fn progress(&self) -> &Progress {
        self.tracker.progress()
    }

    /// The task's action index for a name (exact match).
    pub fn action_index(&self, name: &str) -> Option<usize> {
        self.task.actions.iter().position(|a| a == name)
    }

    /// Plays the task action `index` for one decision; `raw` and `rejected` are the
    /// agent's reply and any replies rejected before it.
    pub fn apply(
        &mut self,
        index: usize,
        raw: Option<String>,
        rejected: Vec<String>,
    ) -> Result<&Decision, EpisodeError> {
        if self.ending.is_some() {
            return Err(EpisodeError::Finished);
        }
        let action = *self
            .actions
            .get(index)
            .ok_or(EpisodeError::UnknownAction(index))?;
        let (mut reward, mut terminated, mut truncated) = (0.0, false, false);
        for k in 0..self.task.frame_skip {
            let a = if k < self.task.action_steps {
                action
            } else {
                self.noop.unwrap_or(action)
            };
            let step = self
                .env
                .step(a)
                .map_err(|e| EpisodeError::Env(e.to_string()))?;
            self.tracker.env_step(self.env.as_ref(), &step);
            reward += step.reward;
            terminated |= step.terminated;
            truncated |= step.truncated;
            if terminated || truncated {
                break;
            }
        }
        self.tracker.decision(self.env.as_ref());
        self.env.render(&mut self.frame);
        self.decisions.push(Decision {
            action: self.task.actions[index].clone(),
            raw,
            rejected,
            reward,
            terminated,
            truncated,
            frame_hash: format!("{:016x}", self.frame.hash()),
        });
        let budget_out = self.decisions.len() as u32 >= self.task.max_steps;
        let success = self.tracker.progress().success;
        if success {
            self.ending = Some((None, Vec::new()));
        } else if terminated {
            self.ending = Some((Some(FailureMode::EarlyTermination), Vec::new()));
        } else if truncated || budget_out {
            self.ending = Some((Some(FailureMode::Timeout), Vec::new()));
        }
        self.decisions.last().ok_or(EpisodeError::Finished)
    }

    /// Ends the episode early for an agent-side failure (invalid replies, context
    /// overflow, transport errors); `rejected` keeps the failed candidates.
    pub fn fail(&mut self, mode: FailureMode, rejected: Vec<String>) {
        if self.ending.is_none() {
            self.ending = Some((Some(mode), rejected));
        }
    }

    /// Scores the episode (the runner must be done; an unfinished one is scored as is,
    /// as a timeout).
    pub fn finish(self, agent: &str) -> EpisodeRecord {
        let (failure, rejected) = self
            .ending
            .unwrap_or((Some(FailureMode::Timeout), Vec::new()));
        let progress = self.tracker.progress().clone();
        let s = score(&self.task.score, &progress);
        let budget_exhausted = progress.decisions >= self.task.max_steps
            && !progress.terminated
            && failure == Some(FailureMode::Timeout);
        let pass = passed(&self.task.pass, &progress, s, budget_exhausted);
        EpisodeRecord {
            format: EPISODE_FORMAT.to_string(),
            task: self.task.id.clone(),
            env: self.task.env.clone(),
            seed: self.task.seed,
            agent: agent.to_string(),
            decisions: self.decisions,
            // A pass at the end of the budget (survival, score thresholds) is no failure.
            failure: if pass { None } else { failure },
            rejected,
            passed: pass,
            score: s,
            progress,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EpisodeError {
    Finished,
    UnknownAction(usize),
    Env(String),
}

impl std::fmt::Display for EpisodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Finished => write!(f, "the episode is over"),
            Self::UnknownAction(i) => write!(f, "action {i} is not one of the task's actions"),
            Self::Env(e) => write!(f, "environment error: {e}"),
        }
    }
}

impl std::error::Error for EpisodeError {}

/// What an agent answers for one decision.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// Play the task action with this index.
    Act {
        action: usize,
        raw: Option<String>,
        rejected: Vec<String>,
    },
    /// Give up the episode (all retries failed, context exceeded, endpoint gone).
    Fail {
        failure: FailureMode,
        rejected: Vec<String>,
    },
}

/// Anything that plays tasks one decision at a time, synchronously.
pub trait Agent {
    fn name(&self) -> String;
    /// Called before the first decision of every episode.
    fn begin(&mut self, runner: &EpisodeRunner) {
        let _ = runner;
    }
    fn decide(&mut self, runner: &EpisodeRunner) -> Reply;
    /// Requests, tokens and cost of the episode so far (models only).
    fn usage(&self) -> Option<super::results::Usage> {
        None
    }
}

/// Runs `task` to the end with `agent`.
pub fn run_episode(task: &Task, agent: &mut dyn Agent) -> Result<EpisodeRecord, TaskError> {
    let mut runner = EpisodeRunner::start(task)?;
    agent.begin(&runner);
    while !runner.is_done() {
        match agent.decide(&runner) {
            Reply::Act {
                action,
                raw,
                rejected,
            } => {
                if let Err(e) = runner.apply(action, raw, rejected) {
                    return Err(TaskError {
                        field: "actions".into(),
                        message: e.to_string(),
                    });
                }
            }
            Reply::Fail { failure, rejected } => runner.fail(failure, rejected),
        }
    }
    Ok(runner.finish(&agent.name()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(json: serde_json::Value) -> Task {
        let mut base = serde_json::json!({
            "id": "t", "env": "FrozenLake-v1", "kwargs": {"is_slippery": false},
            "seed": 0, "max_steps": 10, "actions": ["Left", "Down", "Right", "Up"],
            "demos": [{"label": "x", "seed": 1, "actions": ["Down"]}],
            "pass": {"kind": "reach_goal"},
            "score": {"kind": "navigation", "reference_steps": 6},
            "tags": {"family": "FrozenLake", "memory": "single", "dynamics": "static"}
        });
        for (k, v) in json.as_object().unwrap() {
            base[k] = v.clone();
        }
        Task::from_json(&base.to_string()).unwrap()
    }

    fn play(task: &Task, moves: &[&str]) -> EpisodeRecord {
        let mut r = EpisodeRunner::start(task).unwrap();
        for m in moves {
            if r.is_done() {
                break;
            }
            let i = r.action_index(m).unwrap();
            r.apply(i, Some(format!("[Action: {m}]")), Vec::new())
                .unwrap();
        }
        r.finish("test")
    }

    #[test]
    fn the_optimal_path_passes_with_full_score() {
        let rec = play(
            &task(serde_json::json!({})),
            &["Down", "Down", "Right", "Right", "Down", "Right"],
        );
        assert!(rec.passed);
        assert_eq!(
            (rec.score, rec.failure, rec.decisions.len()),
            (100.0, None, 6)
        );
        assert_eq!(rec.decisions[0].raw.as_deref(), Some("[Action: Down]"));
    }

    #[test]
    fn a_hole_is_early_termination_with_partial_credit() {
        let rec = play(&task(serde_json::json!({})), &["Right", "Down"]);
        assert_eq!(rec.failure, Some(FailureMode::EarlyTermination));
        assert!(!rec.passed);
        // One step closer to the goal before falling: 70 × (1 − 5/6).
        assert!((rec.score - 70.0 / 6.0).abs() < 1e-9, "{}", rec.score);
    }

    #[test]
    fn the_budget_truncates() {
        let rec = play(
            &task(serde_json::json!({"max_steps": 3})),
            &["Left", "Left", "Left", "Left"],
        );
        assert_eq!(
            (rec.failure, rec.decisions.len()),
            (Some(FailureMode::Timeout), 3)
        );
        assert!(rec.decisions[2].frame_hash.len() == 16);
    }

    #[test]
    fn the_prefix_is_outside_the_budget() {
        let t = task(serde_json::json!({"prefix": ["Down", "Down", "Right"], "max_steps": 3}));
        let rec = play(&t, &["Right", "Down", "Right"]);
        assert!(rec.passed, "{rec:?}");
        assert_eq!(rec.decisions.len(), 3);
    }

    #[test]
    fn frame_skip_repeats_then_fills_with_noop() {
        // MountainCar: "accelerate right" for 2 of 4 steps, then "don't accelerate".
        let t = task(serde_json::json!({
            "env": "MountainCar-v0", "kwargs": {}, "frame_skip": 4, "action_steps": 2,
            "noop": "don't accelerate",
            "actions": ["accelerate left", "don't accelerate", "accelerate right"],
            "demos": [{"label": "x", "seed": 1, "actions": ["accelerate right"]}],
            "pass": {"kind": "reach_goal"}, "score": {"kind": "progress", "reference_steps": 30}
        }));
        let mut runner = EpisodeRunner::start(&t).unwrap();
        let mut env = envs::make_default("MountainCar-v0").unwrap();
        env.reset(Some(0));
        for a in [2, 2, 1, 1] {
            env.step(Action::Index(a)).unwrap();
        }
        runner.apply(2, None, Vec::new()).unwrap();
        assert_eq!(runner.env().physical_state(), env.physical_state());
        assert_eq!(runner.progress().env_steps, 4);
        assert_eq!(runner.decisions()[0].reward, -4.0);
    }

    #[test]
    fn agent_failures_end_the_episode_and_keep_replies() {
        let mut r = EpisodeRunner::start(&task(serde_json::json!({}))).unwrap();
        r.apply(1, None, Vec::new()).unwrap();
        r.fail(FailureMode::InvalidAction, vec!["I think Down".into(); 3]);
        assert!(r.is_done());
        assert_eq!(
            r.apply(1, None, Vec::new()).err(),
            Some(EpisodeError::Finished)
        );
        let rec = r.finish("model");
        assert_eq!(
            (rec.failure, rec.rejected.len()),
            (Some(FailureMode::InvalidAction), 3)
        );
    }
}
