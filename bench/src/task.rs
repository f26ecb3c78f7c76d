//! The task and suite formats (`docs/tasks.md`, "Tasks" and "Suites"): data, not code.
//! Versioned JSON; a bad file is rejected with a message naming the offending field.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use envs::core::env::Env;

pub const TASK_FORMAT: &str = "playbench-task/1";
pub const SUITE_FORMAT: &str = "playbench-suite/1";

fn one() -> u32 {
    1
}

fn yes() -> bool {
    true
}

fn task_format() -> String {
    TASK_FORMAT.to_string()
}

/// The most trials a task may ask for.
pub const MAX_TRIALS: u32 = 100;

/// One benchmark task: an environment start, a budget, the rules shown to the agent,
/// demonstrations, and how the episode is judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    #[serde(default = "task_format")]
    pub format: String,
    /// Unique within its suite, e.g. `frozenlake-4x4-det-s0`.
    pub id: String,
    /// A short human title.
    #[serde(default)]
    pub title: String,
    /// A registered environment id (aliases allowed) and its constructor kwargs.
    pub env: String,
    #[serde(default)]
    pub kwargs: Map<String, Value>,
    /// Passed to `reset`.
    pub seed: u64,
    /// No-op environment steps after reset, outside the budget.
    #[serde(default)]
    pub init_skip: u32,
    /// Actions (by name) replayed after `init_skip` and before the first decision,
    /// outside the budget: V-ICAL's initialized variants.
    #[serde(default)]
    pub prefix: Vec<String>,
    /// The cap on agent decisions; reaching it truncates.
    pub max_steps: u32,
    /// Environment steps per decision: the action for the first `action_steps`, then
    /// `noop` for the rest.
    #[serde(default = "one")]
    pub frame_skip: u32,
    #[serde(default = "one")]
    pub action_steps: u32,
    /// The no-op action's name; required when `frame_skip > action_steps` or `init_skip > 0`.
    #[serde(default)]
    pub noop: Option<String>,
    /// Whether the agent is denied the reward signal (true for every V-ICAL task).
    #[serde(default = "yes")]
    pub hide_reward: bool,
    /// Non-visual rules only: hidden scoring, step limits, delayed effects.
    #[serde(default)]
    pub rules: String,
    /// The action names shown to the agent and accepted by the parser, in the
    /// environment's order (a subset of `Env::action_names`).
    pub actions: Vec<String>,
    pub demos: Vec<DemoClip>,
    pub pass: PassCondition,
    pub score: ScoreRule,
    pub tags: Tags,
    /// Episodes the benchmark plays of this task (GameVerse's trials: the results
    /// average over them); suite runs play each task this many times (times the run's
    /// repetitions). One when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trials: Option<u32>,
    /// The oracle's decisions from this task's start, recorded when the suite was built,
    /// for environments whose oracle is a search too slow to run in every episode
    /// (Atari): the oracle agent replays them. Empty: the environment's oracle plays.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recorded_oracle: Vec<String>,
}

/// A demonstration: a start configuration and the actions played from it, one frame
/// per decision (`docs/vical-protocol.md`, "Demonstration clips").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DemoClip {
    /// What the clip shows, e.g. "success" or "falling into a hole".
    pub label: String,
    /// The constructor kwargs when the clip plays another instance than the task's
    /// (VisGym's image puzzles take their picture from the constructor seed); absent:
    /// the task's `kwargs`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kwargs: Option<Map<String, Value>>,
    pub seed: u64,
    /// No-op steps after reset when the clip starts elsewhere than the task (Atari
    /// openings differ by warm-up, not by seed); absent: the task's `init_skip`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init_skip: Option<u32>,
    #[serde(default)]
    pub prefix: Vec<String>,
    pub actions: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Memory {
    Single,
    Multiple,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dynamics {
    Static,
    Dynamic,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tags {
    /// The environment family, e.g. "FrozenLake" or "MiniGrid-DoorKey".
    pub family: String,
    /// `multiple` when acting well needs what was seen earlier (partial observability).
    pub memory: Memory,
    /// `dynamic` when the world changes without the agent acting.
    pub dynamics: Dynamics,
    /// Free-form extra tags, e.g. "initialized".
    #[serde(default)]
    pub extra: Vec<String>,
}

/// When an episode passes, judged independently of its score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum PassCondition {
    /// The environment's success event (goal reached, passenger delivered, target
    /// picked up, flag reached, tip above the line).
    ReachGoal,
    /// No termination before the decision budget runs out.
    Survive,
    /// The task score reaches `threshold` (0-100).
    ScoreAtLeast { threshold: f64 },
}

/// How an episode maps to 0-100 (`docs/tasks.md`, "Score rules"). Reference targets are
/// calibrated by the oracle solver.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ScoreRule {
    /// Success is worth 70 plus 30 × min(1, reference_steps / steps); a failed
    /// episode earns 70 × the fraction of the shortest distance to the goal it closed.
    Navigation { reference_steps: u32 },
    /// Taxi's progress states: the right pickup 30, delivery 70, plus 30 × efficiency.
    Taxi { reference_steps: u32 },
    /// Points for each milestone reached (the best reached counts); success is worth
    /// 70 plus 30 × efficiency.
    Milestones {
        milestones: Vec<Milestone>,
        reference_steps: u32,
    },
    /// Swing-up and hill-climb tasks: success as in `navigation`; a failed episode earns
    /// 70 × its best progress toward the goal (0-1, environment-defined).
    Progress { reference_steps: u32 },
    /// The environment's own 0-100 score at the end of the episode, as its reference
    /// benchmark defines it (GameVerse's normalized game scores).
    EnvScore,
    /// 100 × clamp((v − floor) / (reference − floor), 0, 1) for a task value `v`.
    CappedRatio {
        value: RatioValue,
        floor: f64,
        reference: f64,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Milestone {
    /// An event name: `pickup <colour> <type>`, `open <colour> door`.
    pub event: String,
    pub points: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RatioValue {
    /// The undiscounted return of the episode.
    Return,
    /// Environment steps before termination (or to the end of the budget).
    StepsSurvived,
}

/// A collection of tasks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Suite {
    pub format: String,
    pub id: String,
    /// Bumped whenever a task changes; stored with results.
    pub version: u32,
    #[serde(default)]
    pub description: String,
    pub tasks: Vec<Task>,
}

/// A rejected task or suite: where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskError {
    /// The offending field as a path, e.g. `tasks[3].max_steps`.
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for TaskError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for TaskError {}

fn err(field: impl Into<String>, message: impl Into<String>) -> TaskError {
    TaskError {
        field: field.into(),
        message: message.into(),
    }
}

/// An environment that cannot be made, as the task field it blames.
fn env_error(e: envs::EnvError) -> TaskError {
    let field = match e {
        envs::EnvError::BadKwargs(_) => "kwargs",
        _ => "env",
    };
    err(field, e.to_string())
}

/// Parses any JSON document; errors name the offending field as a path.
pub(crate) fn parse<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, TaskError> {
    let de = &mut serde_json::Deserializer::from_str(json);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." {
            "(document)".to_string()
        } else {
            path
        };
        // serde_json appends "at line L column C"; keep it, it helps with big files.
        err(field, e.inner().to_string())
    })
}

impl Task {
    /// Episodes the benchmark plays of this task.
    pub fn trial_count(&self) -> u32 {
        self.trials.unwrap_or(1).max(1)
    }

    /// Parses and validates one task.
    pub fn from_json(json: &str) -> Result<Self, TaskError> {
        let task: Task = parse(json)?;
        task.validate()?;
        Ok(task)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Makes the task's environment.
    pub fn make_env(&self) -> Result<Box<dyn Env>, TaskError> {
        envs::make(&self.env, &self.kwargs).map_err(env_error)
    }

    /// The environment's action index for a name.
    pub fn env_action(env: &dyn Env, name: &str) -> Option<usize> {
        env.action_names().iter().position(|n| n == name)
    }

    /// Checks everything serde cannot: the environment, the action names, the budget.
    pub fn validate(&self) -> Result<(), TaskError> {
        if self.format != TASK_FORMAT {
            return Err(err(
                "format",
                format!("expected {TASK_FORMAT:?}, got {:?}", self.format),
            ));
        }
        if self.id.trim().is_empty() {
            return Err(err("id", "must not be empty"));
        }
        let env = match envs::make(&self.env, &self.kwargs) {
            Ok(env) => Some(env),
            // A ROM the user has not supplied yet (Atari): everything but the action
            // names is checked now; the names are when the environment is made to play.
            Err(envs::EnvError::MissingAsset(_)) => None,
            Err(e) => return Err(env_error(e)),
        };
        let names = env.as_ref().map(|e| e.action_names());
        let parametric = env
            .as_ref()
            .is_some_and(|e| matches!(e.action_space(), envs::ActionSpace::Parametric { .. }));
        let known = |field: &str, name: &str| -> Result<(), TaskError> {
            let Some(names) = &names else {
                return Ok(());
            };
            if names.iter().any(|n| n == name) {
                Ok(())
            } else {
                Err(err(
                    field,
                    format!(
                        "{name:?} is not an action of {} (its actions: {names:?})",
                        self.env
                    ),
                ))
            }
        };
        if self.actions.is_empty() {
            return Err(err("actions", "must list at least one action"));
        }
        if !(1..=MAX_TRIALS).contains(&self.trials.unwrap_or(1)) {
            return Err(err("trials", format!("must be between 1 and {MAX_TRIALS}")));
        }
        for (i, a) in self.actions.iter().enumerate() {
            known(&format!("actions[{i}]"), a)?;
            if self.actions[..i].contains(a) {
                return Err(err(
                    format!("actions[{i}]"),
                    format!("{a:?} is listed twice"),
                ));
            }
        }
        // Played actions (the prefix, demonstrations) may be any action text of a
        // parametric environment (e.g. `place(1, 2)`); offered actions are its presets.
        let playable = |field: &str, text: &str| -> Result<(), TaskError> {
            if parametric && env.as_ref().is_some_and(|e| e.parse_action(text).is_ok()) {
                Ok(())
            } else {
                known(field, text)
            }
        };
        for (i, a) in self.prefix.iter().enumerate() {
            playable(&format!("prefix[{i}]"), a)?;
        }
        for (i, a) in self.recorded_oracle.iter().enumerate() {
            if !self.actions.contains(a) {
                return Err(err(
                    format!("recorded_oracle[{i}]"),
                    format!("{a:?} is not one of the task's actions"),
                ));
            }
        }
        if let Some(noop) = &self.noop {
            known("noop", noop)?;
        }
        if self.max_steps == 0 {
            return Err(err("max_steps", "must be at least 1"));
        }
        if self.frame_skip == 0 {
            return Err(err("frame_skip", "must be at least 1"));
        }
        if self.action_steps == 0 || self.action_steps > self.frame_skip {
            return Err(err(
                "action_steps",
                format!("must be between 1 and frame_skip ({})", self.frame_skip),
            ));
        }
        if self.noop.is_none() && self.action_steps < self.frame_skip {
            return Err(err("noop", "needed to fill frame_skip beyond action_steps; environments without a no-op use frame_skip 1"));
        }
        if self.noop.is_none() && self.init_skip > 0 {
            return Err(err("noop", "needed for init_skip"));
        }
        if self.demos.is_empty() || self.demos.len() > 4 {
            return Err(err(
                "demos",
                format!(
                    "a task has 1 to 4 demonstration clips, got {}",
                    self.demos.len()
                ),
            ));
        }
        for (d, clip) in self.demos.iter().enumerate() {
            if clip.actions.is_empty() {
                return Err(err(
                    format!("demos[{d}].actions"),
                    "a clip plays at least one action",
                ));
            }
            if self.noop.is_none() && clip.init_skip.is_some_and(|k| k > 0) {
                return Err(err(
                    format!("demos[{d}].init_skip"),
                    "needs the task's noop",
                ));
            }
            if let Some(kwargs) = &clip.kwargs {
                match envs::make(&self.env, kwargs) {
                    Ok(_) | Err(envs::EnvError::MissingAsset(_)) => {}
                    Err(e) => {
                        let e = env_error(e);
                        return Err(err(format!("demos[{d}].kwargs"), e.message));
                    }
                }
            }
            for (i, a) in clip.prefix.iter().enumerate() {
                playable(&format!("demos[{d}].prefix[{i}]"), a)?;
            }
            for (i, a) in clip.actions.iter().enumerate() {
                playable(&format!("demos[{d}].actions[{i}]"), a)?;
            }
        }
        if let PassCondition::ScoreAtLeast { threshold } = self.pass {
            if !(0.0..=100.0).contains(&threshold) {
                return Err(err("pass.threshold", "must be within 0-100"));
            }
        }
        match &self.score {
            ScoreRule::CappedRatio {
                floor, reference, ..
            } if reference <= floor || reference.is_nan() || floor.is_nan() => {
                Err(err("score.reference", "must be greater than score.floor"))
            }
            ScoreRule::Navigation { reference_steps }
            | ScoreRule::Taxi { reference_steps }
            | ScoreRule::Progress { reference_steps }
            | ScoreRule::Milestones {
                reference_steps, ..
            } if *reference_steps == 0 => Err(err("score.reference_steps", "must be at least 1")),
            _ => Ok(()),
        }
    }
}

impl Suite {
    /// Parses and validates a suite; errors name the task by index and id.
    pub fn from_json(json: &str) -> Result<Self, TaskError> {
        let suite: Suite = parse(json)?;
        if suite.format != SUITE_FORMAT {
            return Err(err(
                "format",
                format!("expected {SUITE_FORMAT:?}, got {:?}", suite.format),
            ));
        }
        for (i, task) in suite.tasks.iter().enumerate() {
            task.validate()
                .map_err(|e| err(format!("tasks[{i}] ({}).{}", task.id, e.field), e.message))?;
            if suite.tasks[..i].iter().any(|t| t.id == task.id) {
                return Err(err(
                    format!("tasks[{i}].id"),
                    format!("{:?} is used twice", task.id),
                ));
            }
        }
        Ok(suite)
    }

    pub fn task(&self, id: &str) -> Option<&Task> {
        self.tasks.iter().find(|t| t.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TASK: &str = r#"{
        "id": "lake", "env": "FrozenLake-v1", "kwargs": {"is_slippery": false},
        "seed": 0, "max_steps": 20, "actions": ["Left", "Down", "Right", "Up"],
        "demos": [{"label": "success", "seed": 1, "actions": ["Down", "Down", "Right"]}],
        "pass": {"kind": "reach_goal"},
        "score": {"kind": "navigation", "reference_steps": 6},
        "tags": {"family": "FrozenLake", "memory": "single", "dynamics": "static"}
    }"#;

    fn with(field: &str, value: Value) -> String {
        let mut v: Value = serde_json::from_str(TASK).unwrap();
        v[field] = value;
        v.to_string()
    }

    #[test]
    fn a_task_round_trips() {
        let task = Task::from_json(TASK).unwrap();
        assert_eq!(task.format, TASK_FORMAT);
        assert!(task.hide_reward && task.frame_skip == 1);
        let again = Task::from_json(&task.to_json()).unwrap();
        assert_eq!(again, task);
    }

    #[test]
    fn errors_name_the_field() {
        let cases = [
            (with("max_steps", Value::from("ten")), "max_steps"),
            (with("max_steps", Value::from(0)), "max_steps"),
            (with("env", Value::from("Nope-v0")), "env"),
            (
                with("kwargs", serde_json::json!({"map_name": "9x9"})),
                "kwargs",
            ),
            (
                with("actions", serde_json::json!(["Left", "Jump"])),
                "actions[1]",
            ),
            (with("frame_skip", Value::from(3)), "noop"),
            (with("demos", serde_json::json!([])), "demos"),
            (
                with("pass", serde_json::json!({"kind": "teleport"})),
                "pass",
            ),
            (with("surprise", Value::from(1)), "surprise"),
            (with("format", Value::from("other/9")), "format"),
        ];
        for (json, field) in cases {
            let e = Task::from_json(&json).expect_err(&json);
            assert!(e.field.starts_with(field), "expected {field}, got {e}");
        }
        let e = Task::from_json("{").unwrap_err();
        assert!(e.message.contains("EOF"), "{e}");
    }

    #[test]
    fn suites_name_the_task() {
        let task: Value = serde_json::from_str(TASK).unwrap();
        let mut bad = task.clone();
        bad["actions"] = serde_json::json!(["Fly"]);
        let suite = serde_json::json!({"format": SUITE_FORMAT, "id": "s", "version": 1, "tasks": [task, bad]});
        let e = Suite::from_json(&suite.to_string()).unwrap_err();
        assert_eq!(e.field, "tasks[1] (lake).actions[0]");
        let dup = serde_json::json!({"format": SUITE_FORMAT, "id": "s", "version": 1, "tasks": [task, task]});
        assert!(Suite::from_json(&dup.to_string())
            .unwrap_err()
            .message
            .contains("twice"));
    }
}
