//! The episode engine: runs a task for any agent under the same conditions
//! (`docs/tasks.md`, "Tasks") and records everything needed to replay and re-score it
//! (same document, "Episode record").

use serde::{Deserialize, Serialize};

use crate::scoring::{passed, score, Progress, Tracker};
use crate::task::{Task, TaskError};
use envs::core::clock::{Clock, ClockMode};
use envs::core::env::{Action, ActionSpace, Env};
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

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// One agent decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// Idle steps the environment's clock played before this decision (real-time
    /// environments: ticks without a key press, or the model's thinking time).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub idle_before: u32,
    /// The model's thinking time for this decision in milliseconds (request sent to
    /// complete reply, transport retries included), where it became game time
    /// (`crate::latency`); on an idle decision that ended the episode, the time of the
    /// reply the game did not wait for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<u64>,
    /// The virtual time of a person's action (ms on the game's clock) in a real-time
    /// game whose environment keeps game time (`Env::set_action_time`: GameVerse Snake
    /// ends at the first move at or after its `max_duration`), so a replay tells the
    /// environment the same times. Absent elsewhere (a model's timed record has its
    /// latencies instead).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_ms: Option<u64>,
    /// The executed action in the environment's text form (a preset's name).
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
    /// The learned experience in the agent's prompt (GameVerse's experience slot), when
    /// one was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experience: Option<String>,
}

/// A running episode, advanced one decision at a time (so a person or an
/// asynchronous model can drive it), or run to the end with [`run_episode`].
pub struct EpisodeRunner {
    task: Task,
    env: Box<dyn Env>,
    /// The environment action for each of the task's action names.
    actions: Vec<Action>,
    noop: Option<Action>,
    /// The real-time rule and its idle action, for environments with a clock.
    clock: Option<(Clock, Action)>,
    /// Idle steps played since the last decision.
    idle_pending: u32,
    /// The thinking time the next recorded decision carries.
    latency_pending: Option<u64>,
    /// The action time the next recorded decision carries.
    at_pending: Option<u64>,
    tracker: Tracker,
    decisions: Vec<Decision>,
    ending: Option<(Option<FailureMode>, Vec<String>)>,
    frame: Frame,
    /// Whether `frame` shows the environment as it is (drawn at the last decision, and
    /// nothing stepped or told the environment a time since).
    frame_current: bool,
    /// What each decision does with the frame.
    drawing: Drawing,
}

/// What a runner's decisions do with the environment's frame.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Drawing {
    /// Draw it and record its hash: a played episode.
    DrawnAndHashed,
    /// Draw it only: a demonstration's replay, whose frames are shown, not recorded
    /// (the hash is a serial pass over the frame).
    Drawn,
    /// Neither: a replay that only counts the decisions.
    Neither,
}

fn env_action(task: &Task, env: &dyn Env, name: &str, field: &str) -> Result<Action, TaskError> {
    Task::env_action(env, name)
        .and_then(|i| env.preset_action(i))
        .ok_or_else(|| TaskError {
            field: field.to_string(),
            message: format!("unknown action {name:?} (task {})", task.id),
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
        Self::start_on(task, task.make_env()?, seed, prefix)
    }

    /// As [`start_from`](Self::start_from) on an environment the caller made (one the
    /// registry does not hold, e.g. a test's).
    pub fn start_on(
        task: &Task,
        mut env: Box<dyn Env>,
        seed: u64,
        prefix: &[String],
    ) -> Result<Self, TaskError> {
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
        let clock = env
            .clock()
            .and_then(|c| env.preset_action(c.idle).map(|a| (c, a)));
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
            if let Some(noop) = &noop {
                if step_or_fail(&mut env, noop.clone(), "init_skip")? {
                    return Err(TaskError {
                        field: "init_skip".into(),
                        message: "the episode ended during init_skip".into(),
                    });
                }
            }
        }
        for (i, name) in prefix.iter().enumerate() {
            let field = format!("prefix[{i}]");
            let a = match env_action(task, env.as_ref(), name, &field) {
                Ok(a) => a,
                Err(e) => text_action(env.as_ref(), name).ok_or(e)?,
            };
            for k in 0..task.frame_skip {
                let act = match (&noop, k < task.action_steps) {
                    (Some(noop), false) => noop.clone(),
                    _ => a.clone(),
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
            clock,
            idle_pending: 0,
            latency_pending: None,
            at_pending: None,
            tracker,
            decisions: Vec::new(),
            ending: None,
            frame: Frame::default(),
            frame_current: false,
            drawing: Drawing::DrawnAndHashed,
        })
    }

    /// This runner without drawing: its decisions record an empty frame hash and
    /// [`current_frame`](Self::current_frame) is `None` (a replay that only counts).
    pub fn undrawn(mut self) -> Self {
        self.drawing = Drawing::Neither;
        self
    }

    /// This runner drawing without hashing: its decisions record an empty frame hash
    /// (a demonstration's replay, whose frames are shown, not recorded).
    pub fn unhashed(mut self) -> Self {
        self.drawing = Drawing::Drawn;
        self
    }

    pub fn task(&self) -> &Task {
        &self.task
    }

    pub fn env(&self) -> &dyn Env {
        self.env.as_ref()
    }

    /// The environment's frame as it is now, when the last decision drew it (then a
    /// request's image needs no drawing of its own).
    pub fn current_frame(&self) -> Option<&Frame> {
        self.frame_current.then_some(&self.frame)
    }

    /// Draws the environment as it is now (`current_frame` has it until the
    /// environment moves): a request's image drawn ahead of the request.
    pub fn draw_current(&mut self) {
        self.env.render(&mut self.frame);
        self.frame_current = true;
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

    /// The real-time rule of the task, if its environment has one: the environment's
    /// clock with a tick of one whole decision (`frame_skip` steps), so a person plays
    /// at the pace and under the budget an agent has.
    pub fn clock(&self) -> Option<Clock> {
        self.clock.as_ref().map(|(c, _)| Clock {
            tick_ms: c.tick_ms.saturating_mul(self.task.frame_skip),
            ..*c
        })
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
        let action = self
            .actions
            .get(index)
            .cloned()
            .ok_or(EpisodeError::UnknownAction(index.to_string()))?;
        let name = self.task.actions[index].clone();
        self.play(action, name, raw, rejected)
    }

    /// Plays an action given in the environment's text form: a task action's name, or
    /// for parametric environments any text (a call such as `place(1, 2)`, or what a
    /// model wrote, which the environment judges itself).
    pub fn apply_text(
        &mut self,
        text: &str,
        raw: Option<String>,
        rejected: Vec<String>,
    ) -> Result<&Decision, EpisodeError> {
        if let Some(index) = self.action_index(text) {
            return self.apply(index, raw, rejected);
        }
        let action = text_action(self.env.as_ref(), text)
            .ok_or_else(|| EpisodeError::UnknownAction(text.to_string()))?;
        let name = match &action {
            Action::Text(t) => t.clone(),
            a => self.env.action_text(a),
        };
        self.play(action, name, raw, rejected)
    }

    /// Lets the environment's clock play `steps` idle ticks before the next decision
    /// (real-time environments only). A tick is a decision's worth of time: the idle
    /// action for `frame_skip` environment steps. In `Fixed` mode each tick is a
    /// decision of the budget. An episode that ends on an idle tick records it as its
    /// last decision.
    pub fn idle(&mut self, steps: u32) -> Result<(), EpisodeError> {
        let Some((clock, idle)) = self.clock.clone() else {
            return if steps == 0 {
                Ok(())
            } else {
                Err(EpisodeError::NoClock)
            };
        };
        for _ in 0..steps {
            if self.ending.is_some() {
                return Err(EpisodeError::Finished);
            }
            let (mut reward, mut terminated, mut truncated) = (0.0, false, false);
            for _ in 0..self.task.frame_skip {
                self.frame_current = false;
                let step = self
                    .env
                    .step(idle.clone())
                    .map_err(|e| EpisodeError::Env(e.to_string()))?;
                self.tracker.env_step(self.env.as_ref(), &step);
                reward += step.reward;
                terminated |= step.terminated;
                truncated |= step.truncated;
                if terminated || truncated {
                    break;
                }
            }
            let counts = clock.mode == ClockMode::Fixed;
            if terminated || truncated || (counts && self.budget_left() == 1) {
                let name = self.env.action_text(&idle);
                self.record(name, None, Vec::new(), reward, terminated, truncated);
                return Ok(());
            }
            if counts {
                self.tracker.decision(self.env.as_ref());
            }
            self.idle_pending += 1;
        }
        Ok(())
    }

    /// The thinking time the next recorded decision carries (`crate::latency`).
    pub fn set_latency(&mut self, ms: u64) {
        self.latency_pending = Some(ms);
    }

    /// Tells the environment the virtual time of the next action (`Env::set_action_time`).
    pub fn set_action_time(&mut self, at_ms: u64) {
        self.frame_current = false;
        self.env.set_action_time(at_ms);
    }

    /// Tells the environment the virtual time of the next action and records it with
    /// that decision (`Decision::at_ms`): a person's real-time play, whose times a
    /// replay cannot derive (a model's come from its latencies).
    pub fn record_action_time(&mut self, at_ms: u64) {
        self.frame_current = false;
        self.env.set_action_time(at_ms);
        self.at_pending = Some(at_ms);
    }

    fn budget_left(&self) -> u32 {
        self.task
            .max_steps
            .saturating_sub(self.tracker.progress().decisions)
    }

    fn play(
        &mut self,
        action: Action,
        name: String,
        raw: Option<String>,
        rejected: Vec<String>,
    ) -> Result<&Decision, EpisodeError> {
        if self.ending.is_some() {
            return Err(EpisodeError::Finished);
        }
        let (mut reward, mut terminated, mut truncated) = (0.0, false, false);
        for k in 0..self.task.frame_skip {
            let a = match (&self.noop, k < self.task.action_steps) {
                (Some(noop), false) => noop.clone(),
                _ => action.clone(),
            };
            self.frame_current = false;
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
        self.record(name, raw, rejected, reward, terminated, truncated);
        self.decisions.last().ok_or(EpisodeError::Finished)
    }

    /// Ends a decision: renders, records it and sees whether the episode is over.
    fn record(
        &mut self,
        name: String,
        raw: Option<String>,
        rejected: Vec<String>,
        reward: f64,
        terminated: bool,
        truncated: bool,
    ) {
        self.tracker.decision(self.env.as_ref());
        if self.drawing != Drawing::Neither {
            self.env.render(&mut self.frame);
            self.frame_current = true;
        }
        let frame_hash = if self.drawing == Drawing::DrawnAndHashed {
            format!("{:016x}", self.frame.hash())
        } else {
            String::new()
        };
        self.decisions.push(Decision {
            idle_before: std::mem::take(&mut self.idle_pending),
            latency_ms: self.latency_pending.take(),
            at_ms: self.at_pending.take(),
            action: name,
            raw,
            rejected,
            reward,
            terminated,
            truncated,
            frame_hash,
        });
        let budget_out = self.tracker.progress().decisions >= self.task.max_steps;
        let success = self.tracker.progress().success;
        if success {
            self.ending = Some((None, Vec::new()));
        } else if terminated {
            self.ending = Some((Some(FailureMode::EarlyTermination), Vec::new()));
        } else if truncated || budget_out {
            self.ending = Some((Some(FailureMode::Timeout), Vec::new()));
        }
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
            experience: None,
        }
    }
}

/// The action a text stands for in `env`: a preset's name, a parsed call, or — for
/// parametric environments, which judge malformed text themselves — the text as is.
fn text_action(env: &dyn Env, text: &str) -> Option<Action> {
    match env.parse_action(text) {
        Ok(a) => Some(a),
        Err(_) if matches!(env.action_space(), ActionSpace::Parametric { .. }) => {
            Some(Action::Text(text.to_string()))
        }
        Err(_) => None,
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EpisodeError {
    Finished,
    /// A task action index or text that is not an action here.
    UnknownAction(String),
    /// Idle steps asked of an environment without a clock.
    NoClock,
    Env(String),
}

impl std::fmt::Display for EpisodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Finished => write!(f, "the episode is over"),
            Self::UnknownAction(a) => write!(f, "{a:?} is not one of the task's actions"),
            Self::NoClock => write!(f, "the environment has no clock: it does not idle"),
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
    /// Play an action in the environment's text form (parametric actions, or what a
    /// protocol's parser read from a reply for the environment to judge).
    Text {
        text: String,
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
            Reply::Text {
                text,
                raw,
                rejected,
            } => {
                if let Err(e) = runner.apply_text(&text, raw, rejected) {
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

    /// A FlappyBird task (a real-time clock) of `frame_skip` and `max_steps`.
    fn flappy_bird(frame_skip: u32, max_steps: u32) -> Task {
        task(serde_json::json!({
            "env": "FlappyBird-v0", "kwargs": {}, "seed": 1, "frame_skip": frame_skip,
            "action_steps": 1, "noop": "IDLE", "max_steps": max_steps, "actions": ["IDLE", "FLAP"],
            "demos": [{"label": "x", "seed": 1, "actions": ["FLAP"]}],
            "pass": {"kind": "survive"},
            "score": {"kind": "capped_ratio", "value": "steps_survived", "floor": 0.0, "reference": 12.0}
        }))
    }

    #[test]
    fn a_real_time_tick_of_a_frame_skipped_task_is_one_decision() {
        // FlappyBird ticks every 33 ms; with a frame skip of 3 a tick is a whole
        // decision: 99 ms, three idle steps, one decision of the budget.
        let mut runner = EpisodeRunner::start(&flappy_bird(3, 4)).unwrap();
        assert_eq!(runner.clock().map(|c| c.tick_ms), Some(99));
        runner.idle(2).unwrap();
        assert_eq!(runner.progress().env_steps, 6);
        assert_eq!(runner.progress().decisions, 2);
        let flap = runner.action_index("FLAP").unwrap();
        runner.apply(flap, None, Vec::new()).unwrap();
        assert_eq!(runner.decisions()[0].idle_before, 2);
        assert_eq!(runner.progress().env_steps, 9);
        // The last tick of the budget is recorded as the closing idle decision.
        runner.idle(1).unwrap();
        assert!(runner.is_done());
        let rec = runner.finish("test");
        assert_eq!(rec.decisions.len(), 2);
        assert_eq!(rec.decisions[1].action, "IDLE");
        assert_eq!(rec.progress.decisions, 4);
        assert!(rec.passed, "{rec:?}");
    }

    #[test]
    fn the_frame_drawn_at_a_decision_is_current_until_the_environment_moves() {
        let mut runner = EpisodeRunner::start(&flappy_bird(1, 20)).unwrap();
        assert!(
            runner.current_frame().is_none(),
            "nothing drawn before a decision"
        );
        let fresh = |r: &EpisodeRunner| {
            let mut f = Frame::default();
            r.env().render(&mut f);
            f
        };
        let flap = runner.action_index("FLAP").unwrap();
        runner.apply(flap, None, Vec::new()).unwrap();
        assert_eq!(runner.current_frame(), Some(&fresh(&runner)));
        // An idle tick moves the bird: the drawing is stale, so none is offered.
        runner.idle(1).unwrap();
        assert!(runner.current_frame().is_none());
        runner.apply(flap, None, Vec::new()).unwrap();
        assert_eq!(runner.current_frame(), Some(&fresh(&runner)));
        runner.set_action_time(500);
        assert!(
            runner.current_frame().is_none(),
            "a new time may change the picture"
        );
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
