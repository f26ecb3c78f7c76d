//! The `envs-driver` protocol: one JSON request per line in, one JSON reply per line out.
//!
//! Requests: `make` {env, kwargs}, `reset` {seed}, `step` {action}, `render` {path},
//! plus `list` (every registered id). Any bad request answers `{"error": "..."}` and
//! the driver keeps serving.

use envs::core::env::state_json;
use envs::{Action, ActionSpace, Env, Frame};
use serde_json::{json, Map, Value};

use crate::png_out::write_png;

#[derive(Default)]
pub struct Driver {
    env: Option<Box<dyn Env>>,
    frame: Frame,
}

fn error(message: impl std::fmt::Display) -> Value {
    json!({ "error": message.to_string() })
}

impl Driver {
    pub fn new() -> Self {
        Self::default()
    }

    /// Answers one request line.
    pub fn handle_line(&mut self, line: &str) -> Value {
        let request: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => return error(format!("malformed JSON: {e}")),
        };
        let Some(req) = request.as_object() else {
            return error("a request must be a JSON object");
        };
        match req.get("op").and_then(Value::as_str) {
            Some("make") => self.make(req),
            Some("reset") => self.reset(req),
            Some("step") => self.step(req),
            Some("render") => self.render(req),
            Some("list") => json!({ "envs": envs::specs().map(|s| s.id).collect::<Vec<_>>() }),
            Some(other) => error(format!(
                "unknown op {other:?}: expected make, reset, step, render or list"
            )),
            None => error("missing \"op\" (a string)"),
        }
    }

    fn env(&mut self) -> Result<&mut Box<dyn Env>, Value> {
        self.env
            .as_mut()
            .ok_or_else(|| error("no environment: send {\"op\":\"make\",\"env\":ID} first"))
    }

    fn make(&mut self, req: &Map<String, Value>) -> Value {
        let Some(id) = req.get("env").and_then(Value::as_str) else {
            return error("make needs \"env\": a registered id such as \"CartPole-v1\"");
        };
        let kwargs = match req.get("kwargs") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(m)) => m.clone(),
            Some(other) => return error(format!("\"kwargs\" must be an object, got {other}")),
        };
        match envs::make(id, &kwargs) {
            Ok(env) => {
                let actions = env.action_names();
                self.env = Some(env);
                json!({ "ok": true, "actions": actions })
            }
            Err(e) => error(e),
        }
    }

    fn reset(&mut self, req: &Map<String, Value>) -> Value {
        let seed = match req.get("seed") {
            None | Some(Value::Null) => None,
            Some(v) => match v.as_u64() {
                Some(s) => Some(s),
                None => {
                    return error(format!(
                        "\"seed\" must be a non-negative integer or null, got {v}"
                    ))
                }
            },
        };
        let env = match self.env() {
            Ok(env) => env,
            Err(e) => return e,
        };
        let reset = env.reset(seed);
        json!({ "state": state_json(env.as_ref(), &reset.obs, &reset.info) })
    }

    fn step(&mut self, req: &Map<String, Value>) -> Value {
        let env = match self.env() {
            Ok(env) => env,
            Err(e) => return e,
        };
        let action = match parse_action(env.action_space(), req.get("action")) {
            Ok(a) => a,
            Err(e) => return error(e),
        };
        match env.step(action) {
            Ok(step) => json!({
                "state": state_json(env.as_ref(), &step.obs, &step.info),
                "reward": step.reward,
                "terminated": step.terminated,
                "truncated": step.truncated,
            }),
            Err(e) => error(e),
        }
    }

    fn render(&mut self, req: &Map<String, Value>) -> Value {
        let Some(path) = req.get("path").and_then(Value::as_str) else {
            return error("render needs \"path\": where to write the PNG");
        };
        let Some(env) = self.env.as_ref() else {
            return error("no environment: send {\"op\":\"make\",\"env\":ID} first");
        };
        env.render(&mut self.frame);
        match write_png(std::path::Path::new(path), &self.frame) {
            Ok(()) => {
                json!({ "ok": true, "width": self.frame.width(), "height": self.frame.height() })
            }
            Err(e) => error(format!("cannot write {path}: {e}")),
        }
    }
}

/// An index for discrete spaces; a number (or a one-element array) for continuous ones.
fn parse_action(space: ActionSpace, value: Option<&Value>) -> Result<Action, String> {
    let Some(value) = value else {
        return Err("step needs \"action\"".into());
    };
    match space {
        ActionSpace::Discrete { n } => match value.as_u64() {
            Some(i) if (i as usize) < n => Ok(Action::Index(i as usize)),
            _ => Err(format!(
                "action {value} is invalid: expected an integer index in 0..{}",
                n - 1
            )),
        },
        ActionSpace::Continuous { .. } => {
            let number = match value {
                Value::Array(items) if items.len() == 1 => items[0].as_f64(),
                other => other.as_f64(),
            };
            number
                .map(Action::Value)
                .ok_or_else(|| format!("action {value} is invalid: expected a number"))
        }
        ActionSpace::Parametric { .. } => match value {
            Value::String(text) => Ok(Action::Text(text.clone())),
            Value::Object(_) => serde_json::from_value(value.clone())
                .map(Action::Call)
                .map_err(|e| format!("action {value} is invalid: {e}")),
            _ => Err(format!(
                "action {value} is invalid: expected the action's text or {{\"name\":…,\"args\":[…]}}"
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(d: &mut Driver, line: &str) -> Value {
        d.handle_line(line)
    }

    #[test]
    fn bad_requests_answer_errors_and_keep_serving() {
        let mut d = Driver::new();
        for line in [
            "{not json",
            "[]",
            "{}",
            r#"{"op":"fly"}"#,
            r#"{"op":"reset","seed":0}"#,
            r#"{"op":"step","action":0}"#,
            r#"{"op":"make","env":"Nope-v9"}"#,
            r#"{"op":"make","env":"FrozenLake-v1","kwargs":{"map_name":"3x3"}}"#,
            r#"{"op":"make","env":"FrozenLake-v1","kwargs":[1]}"#,
        ] {
            assert!(ask(&mut d, line)["error"].is_string(), "{line}");
        }
        assert_eq!(ask(&mut d, r#"{"op":"make","env":"Taxi-v3"}"#)["ok"], true);
        assert!(ask(&mut d, r#"{"op":"step","action":0}"#)["error"]
            .as_str()
            .unwrap()
            .contains("before reset"));
        assert!(ask(&mut d, r#"{"op":"reset","seed":-1}"#)["error"].is_string());
        assert!(ask(&mut d, r#"{"op":"reset","seed":3}"#)["state"]["obs"].is_i64());
        for bad in ["6", "-1", "1.5", "\"up\"", "null"] {
            let r = ask(&mut d, &format!(r#"{{"op":"step","action":{bad}}}"#));
            assert!(r["error"].is_string(), "{bad}: {r}");
        }
        let r = ask(&mut d, r#"{"op":"step","action":1}"#);
        assert_eq!(r["reward"], -1.0);
        assert!(r["state"]["info"]["action_mask"].is_array());
        assert!(
            ask(&mut d, r#"{"op":"render","path":"/nonexistent-dir/x.png"}"#)["error"].is_string()
        );
    }

    #[test]
    fn make_lists_action_names() {
        let mut d = Driver::new();
        let r = ask(
            &mut d,
            r#"{"op":"make","env":"FrozenLake-v1","kwargs":{"is_slippery":false}}"#,
        );
        assert_eq!(
            r,
            json!({"ok": true, "actions": ["Left", "Down", "Right", "Up"]})
        );
    }
}
