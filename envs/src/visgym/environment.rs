//! A VisGym environment under the environment interface (`envs::Env`, ids such as
//! `maze_2d/easy`): the reference's action strings step it as they are
//! (`Action::Text`), structured calls step as their canonical string
//! ([`signature`](super::signature)), and the driver, the benchmark and people read
//! what the environment knows through the trait (docs/visgym.md, "Interface").

use std::cell::Cell;
use std::collections::VecDeque;

use serde_json::{Map, Value};

use super::python::PyException;
use super::signature::{call_to_action, text_to_call, FnSig};
use super::solve_kwargs::SolveKwargs;
use super::{RenderMode, VisGymEnv};
use crate::core::action::{call_text, ActionError, ActionSpace};
use crate::core::env::{Action, Env, Info, KeyBinding, Observation, Reset, Signals, Step, Words};
use crate::core::error::EnvError;
use crate::core::frame::Frame;
use crate::core::input::{Gesture, PointerMode};
use crate::core::oracle::{Control, Solver};

pub struct VisGym {
    id: &'static str,
    env: Box<dyn VisGymEnv>,
    signatures: Vec<FnSig>,
    presets: Vec<String>,
    /// The reference's `env_feedback` after the last step (none after a reset, a step
    /// the reference raised on, or one whose `info` has no feedback).
    feedback: Option<String>,
    /// The last step was a stop that succeeded.
    success: bool,
    /// [`VisGymEnv::remaining`] right after the reset, and its current value (computed
    /// when first asked after a change).
    start_remaining: f64,
    remaining: Cell<Option<f64>>,
}

impl Clone for VisGym {
    fn clone(&self) -> Self {
        Self {
            id: self.id,
            env: self.env.clone_box(),
            signatures: self.signatures.clone(),
            presets: self.presets.clone(),
            feedback: self.feedback.clone(),
            success: self.success,
            start_remaining: self.start_remaining,
            remaining: self.remaining.clone(),
        }
    }
}

/// How a step the reference raises on reaches the caller: the Python exception's class
/// and message.
pub fn raised(e: &PyException) -> EnvError {
    EnvError::InvalidAction(format!("the reference raises {}: {}", e.class, e.message))
}

/// The numbers of a JSON value in order (object keys sorted, strings as character
/// codes, booleans as 0 or 1).
fn numbers(v: &Value, out: &mut Vec<f32>) {
    match v {
        Value::Null => {}
        Value::Bool(b) => out.push(f32::from(u8::from(*b))),
        Value::Number(n) => out.push(n.as_f64().unwrap_or(f64::NAN) as f32),
        Value::String(s) => out.extend(s.chars().map(|c| u32::from(c) as f32)),
        Value::Array(items) => items.iter().for_each(|x| numbers(x, out)),
        Value::Object(m) => m.values().for_each(|x| numbers(x, out)),
    }
}

impl VisGym {
    pub fn new(id: &'static str, env: Box<dyn VisGymEnv>) -> Self {
        let start_remaining = env.remaining();
        Self {
            id,
            signatures: env.signatures(),
            presets: env.presets(),
            env,
            feedback: None,
            success: false,
            start_remaining,
            remaining: Cell::new(Some(start_remaining)),
        }
    }

    /// The environment itself (the reference's state and solver).
    pub fn inner(&self) -> &dyn VisGymEnv {
        self.env.as_ref()
    }

    /// A string as an action: a call when it is exactly a call's canonical string,
    /// otherwise the string itself.
    fn read(&self, text: &str) -> Action {
        match text_to_call(&self.signatures, text) {
            Some(call) => Action::Call(call),
            None => Action::Text(text.to_string()),
        }
    }

    fn current_remaining(&self) -> f64 {
        if let Some(r) = self.remaining.get() {
            return r;
        }
        let r = self.env.remaining();
        self.remaining.set(Some(r));
        r
    }
}

/// The reference solver's plan, one action at a time.
struct Plan(VecDeque<String>);

impl Solver for Plan {
    fn next_action(&mut self, env: &dyn Env) -> Option<Action> {
        let text = self.0.pop_front()?;
        env.parse_action(&text).ok()
    }
}

impl Env for VisGym {
    fn id(&self) -> &str {
        self.id
    }

    fn action_space(&self) -> ActionSpace {
        ActionSpace::Parametric {
            functions: self.signatures.iter().map(|s| s.function.clone()).collect(),
        }
    }

    /// The presets' names are their action strings, so a name typed by a model is the
    /// same action.
    fn action_names(&self) -> Vec<String> {
        self.presets.clone()
    }

    fn preset_action(&self, index: usize) -> Option<Action> {
        self.presets.get(index).map(|t| self.read(t))
    }

    fn keymap(&self) -> Vec<KeyBinding> {
        self.env.keymap()
    }

    /// The reference's action string: a call's canonical string, a text as written.
    fn action_text(&self, action: &Action) -> String {
        match action {
            Action::Call(call) => match call_to_action(&self.signatures, call) {
                Some(a) => a.to_text(),
                None => call_text(&self.action_space(), call),
            },
            Action::Text(t) => t.clone(),
            Action::Index(i) => self.presets.get(*i).cloned().unwrap_or_default(),
            Action::Value(v) => v.to_string(),
        }
    }

    /// Any string is an action (the environment judges it as the reference does); a
    /// call's exact canonical string reads as that call.
    fn parse_action(&self, text: &str) -> Result<Action, ActionError> {
        Ok(self.read(text))
    }

    fn pointer_mode(&self) -> Option<PointerMode> {
        self.env.pointer_mode()
    }

    fn pointer_action(&self, gesture: Gesture) -> Option<Action> {
        self.env.pointer_action(gesture).map(|t| self.read(&t))
    }

    fn mission(&self) -> Option<String> {
        self.env.mission()
    }

    fn words(&self) -> Words {
        self.env.words()
    }

    fn reset(&mut self, seed: Option<u64>) -> Reset {
        self.env.reset(seed);
        self.feedback = None;
        self.success = false;
        self.start_remaining = self.env.remaining();
        self.remaining.set(Some(self.start_remaining));
        Reset {
            obs: self.observation(),
            info: Info::default(),
        }
    }

    fn reset_failure(&self) -> Option<String> {
        self.env
            .reset_failure()
            .map(|e| format!("the reference raises {}: {}", e.class, e.message))
    }

    fn step(&mut self, action: Action) -> Result<Step, EnvError> {
        let text = match action {
            Action::Text(t) => t,
            Action::Call(call) => call_to_action(&self.signatures, &call)
                .map(|a| a.to_text())
                .ok_or_else(|| {
                    EnvError::InvalidAction(format!(
                        "{} does not fit {}'s actions",
                        call_text(&self.action_space(), &call),
                        self.id
                    ))
                })?,
            other => {
                return Err(EnvError::InvalidAction(format!(
                    "{other:?}: {} takes action strings or calls",
                    self.id
                )))
            }
        };
        self.remaining.set(None);
        let result = match self.env.step(&text) {
            Ok(r) => r,
            Err(e) => {
                self.feedback = None;
                return Err(raised(&e));
            }
        };
        self.feedback = self.env.feedback_in_info().then_some(result.feedback);
        self.success = result.terminated && result.reward == 1.0;
        Ok(Step {
            obs: self.observation(),
            reward: result.reward,
            terminated: result.terminated,
            truncated: result.truncated,
            info: Info::default(),
            signals: Signals {
                success: self.success,
                ..Signals::default()
            },
        })
    }

    /// The numbers of the state ([`snapshot`](Env::snapshot)); models see the frame.
    fn observation(&self) -> Observation {
        let mut out = Vec::new();
        numbers(&self.env.state_json(false), &mut out);
        Observation::Vector(out.into())
    }

    fn frame_size(&self) -> (u32, u32) {
        self.env.frame_size()
    }

    fn render(&self, frame: &mut Frame) {
        self.env.render(frame);
    }

    fn snapshot(&self) -> Option<Value> {
        Some(self.env.state_json(false))
    }

    fn snapshot_at_reset(&self) -> Option<Value> {
        Some(self.env.state_json(true))
    }

    /// `feedback` (the reference's `env_feedback`, null after a reset) and, for the
    /// environments with a text frame, `ansi`.
    fn reply_fields(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert(
            "feedback".into(),
            self.feedback.clone().map_or(Value::Null, Value::String),
        );
        if let Some(text) = self.env.text_frame() {
            m.insert("ansi".into(), Value::String(text));
        }
        m
    }

    /// `get_prompt()` in the image or text render mode.
    fn instructions(&self, text_mode: bool) -> Option<String> {
        self.env.prompt(if text_mode {
            RenderMode::Ansi
        } else {
            RenderMode::RgbArray
        })
    }

    fn render_text(&self) -> String {
        self.env
            .text_frame()
            .unwrap_or_else(|| self.env.state_json(false).to_string())
    }

    fn clone_box(&self) -> Box<dyn Env> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    /// The reference's solver with the evaluation harness's settings, from here.
    fn oracle(&self, _control: Control) -> Option<Box<dyn Solver>> {
        Some(Box::new(Plan(self.env.solve().into())))
    }

    fn solve_with(&self, kwargs: &Map<String, Value>) -> Option<Result<Vec<String>, String>> {
        let mut kw = SolveKwargs::new(kwargs);
        Some(
            self.env
                .solve_kwargs(&mut kw)
                .and_then(|plan| kw.finish().map(|()| plan)),
        )
    }

    fn distance_to_goal(&self) -> Option<u32> {
        self.env.distance_to_goal()
    }

    /// 100 for a successful stop; otherwise up to 50 for the part of the way to the
    /// goal covered since the reset ([`VisGymEnv::remaining`], docs/visgym.md).
    fn normalized_score(&self) -> Option<f64> {
        if self.success {
            return Some(100.0);
        }
        let now = self.current_remaining();
        let covered = if self.start_remaining > 0.0 {
            (1.0 - now / self.start_remaining).clamp(0.0, 1.0)
        } else if now <= 0.0 {
            1.0
        } else {
            0.0
        };
        Some(50.0 * covered)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::check::check_env;

    #[test]
    fn every_id_passes_the_checker() {
        super::super::images::shelf::shelve_bundled_for_tests();
        let mut broken = Vec::new();
        // The Fetch tasks need MuJoCo, which this crate cannot start:
        // `cli/tests/fetch_golden.rs` checks them under Node.
        for spec in super::super::FAMILY
            .specs
            .iter()
            .filter(|s| !super::super::runs_physics(s.id))
        {
            let mut configs = vec![Map::new()];
            for v in spec.variants {
                configs.push(serde_json::from_str(v.kwargs).unwrap());
            }
            for kwargs in configs {
                let problems = check_env(spec.id, &kwargs);
                if !problems.is_empty() {
                    broken.push(format!("{} {kwargs:?}: {}", spec.id, problems.join("; ")));
                }
            }
        }
        assert!(broken.is_empty(), "{}", broken.join("\n"));
    }
}
