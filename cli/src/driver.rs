//! The `envs-driver` protocol (`docs/driver.md`): one JSON request per line in, one
//! JSON reply per line out. Requests are a typed enum tagged by `"op"`; any bad request
//! answers `{"error": "..."}` naming what is wrong, and the driver keeps serving.

use envs::core::env::{reset_state_json, state_json};
use envs::core::oracle::{solve, Control};
use envs::{Action, ActionSpace, Env, Frame};
use serde::de::{DeserializeOwned, Deserializer, Error as _};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

use crate::image_folder::shelve_sample_dir;
use crate::png_out::write_png;
use crate::rom_folder::{shelve_folder, Shelved, ROMS_KWARG};

/// The most actions a `solve` reply lists.
pub const SOLVE_LIMIT: usize = 10_000;

/// One request line.
#[derive(Debug, PartialEq, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    /// `gym.make(env, **kwargs)`.
    Make {
        #[serde(default, deserialize_with = "env_id")]
        env: Option<String>,
        #[serde(default, deserialize_with = "kwargs")]
        kwargs: Map<String, Value>,
    },
    /// `reset(seed=…)`; no seed (or null) continues the generator stream.
    Reset {
        #[serde(default, deserialize_with = "seed")]
        seed: Option<u64>,
    },
    /// `step(action)`: the action's form depends on the action space.
    Step {
        #[serde(default)]
        action: Option<Value>,
    },
    /// Writes the current frame as a PNG file.
    Render {
        #[serde(default, deserialize_with = "path")]
        path: Option<String>,
    },
    /// Every registered id.
    List,
    /// The reference harness's instructions for the current environment.
    Prompt {
        #[serde(default, deserialize_with = "prompt_mode")]
        mode: PromptMode,
    },
    /// The oracle's actions from the current state to the end of the episode.
    Solve {
        #[serde(default, deserialize_with = "kwargs")]
        kwargs: Map<String, Value>,
    },
}

/// The ops, as requests name them (kept equal to [`Request`]'s variants by a test).
pub const OPS: [&str; 7] = ["make", "reset", "step", "render", "list", "prompt", "solve"];

/// Which instructions `prompt` asks for: for image observations (the reference's
/// `rgb_array` render mode) or for text ones (`ansi`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PromptMode {
    #[default]
    RgbArray,
    Ansi,
}

/// A field's value as `T`, or an error naming the field and what it wants.
fn field<'de, D: Deserializer<'de>, T: DeserializeOwned>(
    d: D,
    name: &str,
    wants: &str,
) -> Result<T, D::Error> {
    let value = Value::deserialize(d)?;
    serde_json::from_value(value.clone())
        .map_err(|_| D::Error::custom(format!("{name:?} must be {wants}, got {value}")))
}

fn env_id<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    field(d, "env", "a registered id such as \"CartPole-v1\"")
}

fn kwargs<'de, D: Deserializer<'de>>(d: D) -> Result<Map<String, Value>, D::Error> {
    field::<D, Option<Map<String, Value>>>(d, "kwargs", "an object").map(Option::unwrap_or_default)
}

fn seed<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    field(d, "seed", "a non-negative integer or null")
}

fn path<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    field(d, "path", "a file path (a string)")
}

fn prompt_mode<'de, D: Deserializer<'de>>(d: D) -> Result<PromptMode, D::Error> {
    field::<D, Option<PromptMode>>(d, "mode", "\"rgb_array\" or \"ansi\"")
        .map(Option::unwrap_or_default)
}

/// Reads one request line.
pub fn parse_request(line: &str) -> Result<Request, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("malformed JSON: {e}"))?;
    let Some(op) = value
        .as_object()
        .ok_or("a request must be a JSON object")?
        .get("op")
        .and_then(Value::as_str)
    else {
        return Err("missing \"op\" (a string)".into());
    };
    if !OPS.contains(&op) {
        let (last, rest) = OPS.split_last().unwrap_or((&"", &[]));
        return Err(format!(
            "unknown op {op:?}: expected {} or {last}",
            rest.join(", ")
        ));
    }
    Request::deserialize(&value).map_err(|e| e.to_string())
}

/// The environment being driven.
struct Loaded {
    env: Box<dyn Env>,
    /// Its family's replies carry the frame's SHA-256.
    frame_sha256: bool,
    /// Reset since it was made (the oracle plays from a reset state).
    reset: bool,
}

#[derive(Default)]
pub struct Driver {
    loaded: Option<Loaded>,
    frame: Frame,
}

fn no_env() -> String {
    "no environment: send {\"op\":\"make\",\"env\":ID} first".into()
}

fn error(message: impl std::fmt::Display) -> Value {
    json!({ "error": message.to_string() })
}

/// Lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Driver {
    pub fn new() -> Self {
        Self::default()
    }

    /// Answers one request line.
    pub fn handle_line(&mut self, line: &str) -> Value {
        match parse_request(line) {
            Ok(request) => self.handle(request),
            Err(e) => error(e),
        }
    }

    /// Answers one request.
    pub fn handle(&mut self, request: Request) -> Value {
        let answer = match request {
            Request::Make { env, kwargs } => self.make(env, &kwargs),
            Request::Reset { seed } => self.reset(seed),
            Request::Step { action } => self.step(action.as_ref()),
            Request::Render { path } => self.render(path),
            Request::List => Ok(json!({ "envs": envs::specs().map(|s| s.id).collect::<Vec<_>>() })),
            Request::Prompt { mode } => self.prompt(mode),
            Request::Solve { kwargs } => self.solve(&kwargs),
        };
        answer.unwrap_or_else(error)
    }

    fn loaded(&mut self) -> Result<&mut Loaded, String> {
        self.loaded.as_mut().ok_or_else(no_env)
    }

    /// Drives `env` as if `make` had made it (for environments outside the registry,
    /// e.g. in tests).
    pub fn load(&mut self, env: Box<dyn Env>, frame_sha256: bool) {
        self.loaded = Some(Loaded {
            env,
            frame_sha256,
            reset: false,
        });
    }

    fn make(&mut self, id: Option<String>, kwargs: &Map<String, Value>) -> Result<Value, String> {
        let id = id.ok_or("make needs \"env\": a registered id such as \"CartPole-v1\"")?;
        // The driver's own kwarg: a folder of ROM files for the shelf, not the env's.
        let mut kwargs = kwargs.clone();
        let shelved = match kwargs.remove(ROMS_KWARG) {
            None => None,
            Some(dir) => {
                let dir: String = serde_json::from_value(dir.clone()).map_err(|_| {
                    format!("\"{ROMS_KWARG}\" must be a folder of ROM files (a path), got {dir}")
                })?;
                Some((shelve_folder(std::path::Path::new(&dir))?, dir))
            }
        };
        if envs::spec(&id).is_some_and(|s| envs::visgym::plays_pictures(s.id)) {
            shelve_sample_dir(&id, envs::visgym::images::sample_dir_kwarg(&kwargs))?;
        }
        if envs::spec(&id).is_some_and(|s| envs::visgym::runs_physics(s.id)) {
            crate::mujoco_node::install_on_demand();
        }
        let env = envs::make(&id, &kwargs).map_err(|e| match (&e, &shelved) {
            (envs::EnvError::MissingAsset(_), Some((found, dir))) => {
                format!("{e} (the folder {dir} holds {})", describe(found))
            }
            _ => e.to_string(),
        })?;
        let actions = env.action_names();
        let frame_sha256 = envs::spec(&id).is_some_and(|s| s.family.frame_sha256);
        self.load(env, frame_sha256);
        let mut reply = json!({ "ok": true, "actions": actions });
        if let Some((found, _)) = shelved {
            reply["roms"] = json!(found.games);
        }
        Ok(reply)
    }

    /// A reset or step reply: the environment's own fields, then `fields` (which win),
    /// then the frame's hash where the family carries it.
    fn reply(&mut self, fields: Value) -> Result<Value, String> {
        let loaded = self.loaded.as_ref().ok_or_else(no_env)?;
        let mut reply = loaded.env.reply_fields();
        if let Value::Object(fields) = fields {
            reply.extend(fields);
        }
        if loaded.frame_sha256 {
            loaded.env.render(&mut self.frame);
            reply.insert("frame_sha256".into(), sha256_hex(self.frame.data()).into());
        }
        Ok(Value::Object(reply))
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<Value, String> {
        let loaded = self.loaded()?;
        let reset = loaded.env.reset(seed);
        if let Some(why) = loaded.env.reset_failure() {
            loaded.reset = false;
            return Err(why);
        }
        loaded.reset = true;
        let state = reset_state_json(loaded.env.as_ref(), &reset.obs, &reset.info);
        self.reply(json!({ "state": state }))
    }

    fn step(&mut self, action: Option<&Value>) -> Result<Value, String> {
        let env = &mut self.loaded()?.env;
        let action = parse_action(env.action_space(), action)?;
        let step = env.step(action).map_err(|e| e.to_string())?;
        let state = state_json(env.as_ref(), &step.obs, &step.info);
        self.reply(json!({
            "state": state,
            "reward": step.reward,
            "terminated": step.terminated,
            "truncated": step.truncated,
        }))
    }

    fn render(&mut self, path: Option<String>) -> Result<Value, String> {
        let path = path.ok_or("render needs \"path\": where to write the PNG")?;
        let env = &self.loaded.as_ref().ok_or_else(no_env)?.env;
        env.render(&mut self.frame);
        write_png(std::path::Path::new(&path), &self.frame)
            .map_err(|e| format!("cannot write {path}: {e}"))?;
        Ok(json!({ "ok": true, "width": self.frame.width(), "height": self.frame.height() }))
    }

    fn prompt(&mut self, mode: PromptMode) -> Result<Value, String> {
        let env = &self.loaded()?.env;
        let prompt = env
            .instructions(mode == PromptMode::Ansi)
            .ok_or_else(|| format!("{} has no instructions of its own", env.id()))?;
        Ok(json!({ "prompt": prompt }))
    }

    fn solve(&mut self, kwargs: &Map<String, Value>) -> Result<Value, String> {
        let loaded = self.loaded()?;
        let env = loaded.env.as_ref();
        if let Some(name) = kwargs.keys().next() {
            let Some(plan) = env.solve_with(kwargs) else {
                return Err(format!(
                    "solve takes no kwargs for {} (got {name:?}): the oracle has one strategy",
                    env.id()
                ));
            };
            if !loaded.reset {
                return Err(
                    "solve needs a reset first: the solver plays from the current state".into(),
                );
            }
            return plan.map(|actions| json!({ "actions": actions }));
        }
        if env.oracle(Control::default()).is_none() {
            return Err(format!("{} has no oracle", env.id()));
        }
        if !loaded.reset {
            return Err(
                "solve needs a reset first: the oracle plays from the current state".into(),
            );
        }
        Ok(json!({ "actions": solve(env, SOLVE_LIMIT) }))
    }
}

/// The games a ROM folder held, for an error message.
fn describe(found: &Shelved) -> String {
    let games = if found.games.is_empty() {
        "no supported ROM".to_string()
    } else {
        format!("ROMs of {}", found.games.join(", "))
    };
    format!("{games}, and {} other files", found.other_files)
}

/// An index for discrete spaces; a number (or a one-element array) for continuous ones;
/// the action's text or a structured call for parametric ones.
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

    fn error_of(d: &mut Driver, line: &str) -> String {
        let r = ask(d, line);
        r["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{line}: no error in {r}"))
            .to_string()
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
            r#"{"op":"prompt"}"#,
            r#"{"op":"solve"}"#,
        ] {
            assert!(ask(&mut d, line)["error"].is_string(), "{line}");
        }
        assert_eq!(ask(&mut d, r#"{"op":"make","env":"Taxi-v3"}"#)["ok"], true);
        assert!(error_of(&mut d, r#"{"op":"step","action":0}"#).contains("before reset"));
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
            r.get("frame_sha256").is_none(),
            "Toy Text replies carry no hash"
        );
        assert!(
            ask(&mut d, r#"{"op":"render","path":"/nonexistent-dir/x.png"}"#)["error"].is_string()
        );
    }

    #[test]
    fn errors_name_the_field() {
        let mut d = Driver::new();
        let cases = [
            ("{}", "missing \"op\""),
            (r#"{"op":3}"#, "missing \"op\""),
            (
                r#"{"op":"fly"}"#,
                "unknown op \"fly\": expected make, reset, step, render, list, prompt or solve",
            ),
            (r#"{"op":"make"}"#, "make needs \"env\""),
            (
                r#"{"op":"make","env":7}"#,
                "\"env\" must be a registered id",
            ),
            (
                r#"{"op":"make","env":"Taxi-v3","kwargs":[1]}"#,
                "\"kwargs\" must be an object, got [1]",
            ),
            (
                r#"{"op":"reset","seed":-1}"#,
                "\"seed\" must be a non-negative integer or null, got -1",
            ),
            (r#"{"op":"render"}"#, "render needs \"path\""),
            (
                r#"{"op":"render","path":1}"#,
                "\"path\" must be a file path",
            ),
            (
                r#"{"op":"prompt","mode":"human"}"#,
                "\"mode\" must be \"rgb_array\" or \"ansi\", got \"human\"",
            ),
            (
                r#"{"op":"solve","kwargs":"x"}"#,
                "\"kwargs\" must be an object",
            ),
        ];
        for (line, want) in cases {
            let got = error_of(&mut d, line);
            assert!(got.contains(want), "{line}: {got}");
        }
    }

    #[test]
    fn every_op_is_a_request() {
        for op in OPS {
            let line = json!({ "op": op }).to_string();
            assert!(parse_request(&line).is_ok(), "{op}");
        }
        assert_eq!(
            parse_request(r#"{"op":"make","env":"Taxi-v3","extra":1}"#),
            Ok(Request::Make {
                env: Some("Taxi-v3".into()),
                kwargs: Map::new()
            })
        );
        assert_eq!(
            parse_request(r#"{"op":"reset","seed":null}"#),
            Ok(Request::Reset { seed: None })
        );
        assert_eq!(
            parse_request(r#"{"op":"prompt","mode":"ansi"}"#),
            Ok(Request::Prompt {
                mode: PromptMode::Ansi
            })
        );
        assert_eq!(
            parse_request(r#"{"op":"solve","kwargs":{}}"#),
            Ok(Request::Solve { kwargs: Map::new() })
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

    #[test]
    fn solve_plays_the_oracle_from_the_current_state() {
        let mut d = Driver::new();
        ask(
            &mut d,
            r#"{"op":"make","env":"FrozenLake-v1","kwargs":{"is_slippery":false}}"#,
        );
        assert!(error_of(&mut d, r#"{"op":"solve"}"#).contains("reset first"));
        ask(&mut d, r#"{"op":"reset","seed":0}"#);
        assert!(
            error_of(&mut d, r#"{"op":"solve","kwargs":{"strategy":"bfs"}}"#)
                .contains("\"strategy\"")
        );
        let actions = ask(&mut d, r#"{"op":"solve","kwargs":{}}"#)["actions"].clone();
        let actions = actions.as_array().unwrap();
        assert_eq!(actions.len(), 6, "{actions:?}");
        // The actions are texts of the environment: stepping their indices wins.
        let names = ["Left", "Down", "Right", "Up"];
        let mut last = Value::Null;
        for a in actions {
            let i = names.iter().position(|n| a == *n).unwrap();
            last = ask(&mut d, &format!(r#"{{"op":"step","action":{i}}}"#));
        }
        assert_eq!(
            (last["reward"].as_f64(), last["terminated"].as_bool()),
            (Some(1.0), Some(true))
        );
        // Solving does not move the environment itself.
        ask(&mut d, r#"{"op":"reset","seed":0}"#);
        let again = ask(&mut d, r#"{"op":"solve"}"#);
        assert_eq!(again["actions"].as_array().unwrap(), actions);
        assert_eq!(ask(&mut d, r#"{"op":"solve"}"#), again);
    }

    #[test]
    fn the_hash_is_sha256_in_lowercase_hex() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    /// A parametric environment with the whole driver contract: instructions, reply
    /// fields and a frame hash.
    mod lamps {
        use envs::core::action::{ActionFn, ArgSpec};
        use envs::{Action, ActionSpace, ArgKind, ArgValue, Env, EnvError, Frame, Info};
        use envs::{KeyBinding, Observation, Reset, Step};

        /// Two lamps; `toggle(i)` switches lamp i.
        #[derive(Clone, Default)]
        pub struct Lamps {
            on: [bool; 2],
            last: String,
        }

        impl Env for Lamps {
            fn id(&self) -> &str {
                "Lamps-v0"
            }
            fn action_space(&self) -> ActionSpace {
                ActionSpace::Parametric {
                    functions: vec![ActionFn {
                        name: "toggle".into(),
                        args: vec![ArgSpec {
                            name: "lamp".into(),
                            kind: ArgKind::Int { min: 0, max: 1 },
                        }],
                        doc: "switch a lamp".into(),
                    }],
                }
            }
            fn action_names(&self) -> Vec<String> {
                Vec::new()
            }
            fn keymap(&self) -> Vec<KeyBinding> {
                Vec::new()
            }
            fn reset(&mut self, _seed: Option<u64>) -> Reset {
                *self = Self::default();
                Reset {
                    obs: self.observation(),
                    info: Info::default(),
                }
            }
            fn step(&mut self, action: Action) -> Result<Step, EnvError> {
                let lamp = match &action {
                    Action::Call(c) if c.name == "toggle" => match c.args.as_slice() {
                        [ArgValue::Int(i @ 0..=1)] => *i as usize,
                        _ => return Err(EnvError::InvalidAction("toggle(0 or 1)".into())),
                    },
                    Action::Text(t) => {
                        self.last = format!("could not read {t:?}");
                        return Ok(self.outcome());
                    }
                    other => return Err(EnvError::InvalidAction(format!("{other:?}"))),
                };
                self.on[lamp] = !self.on[lamp];
                self.last = format!("lamp {lamp} toggled");
                Ok(self.outcome())
            }
            fn observation(&self) -> Observation {
                Observation::Int(i64::from(self.on[0]) + 2 * i64::from(self.on[1]))
            }
            fn frame_size(&self) -> (u32, u32) {
                (2, 1)
            }
            fn render(&self, frame: &mut Frame) {
                *frame = Frame::new(2, 1);
                for (x, on) in self.on.iter().enumerate() {
                    let v = if *on { 255 } else { 0 };
                    frame.set(x as i64, 0, [v, v, 0]);
                }
            }
            fn reply_fields(&self) -> serde_json::Map<String, serde_json::Value> {
                let mut m = serde_json::Map::new();
                m.insert("feedback".into(), self.last.clone().into());
                m
            }
            fn instructions(&self, text_mode: bool) -> Option<String> {
                Some(
                    if text_mode {
                        "Lamps as text."
                    } else {
                        "Lamps as pictures."
                    }
                    .into(),
                )
            }
            fn render_text(&self) -> String {
                format!("{:?}", self.on)
            }
            fn clone_box(&self) -> Box<dyn Env> {
                Box::new(self.clone())
            }
            fn as_any(&self) -> &dyn std::any::Any {
                self
            }
        }

        impl Lamps {
            fn outcome(&self) -> Step {
                Step {
                    obs: self.observation(),
                    reward: 0.0,
                    terminated: self.on == [true, true],
                    truncated: false,
                    info: Info::default(),
                    signals: Default::default(),
                }
            }
        }
    }

    #[test]
    fn parametric_envs_take_text_or_calls_and_replies_carry_the_contract() {
        let mut d = Driver::new();
        d.load(Box::new(lamps::Lamps::default()), true);
        assert_eq!(
            ask(&mut d, r#"{"op":"prompt","mode":"ansi"}"#),
            json!({"prompt": "Lamps as text."})
        );
        assert_eq!(
            ask(&mut d, r#"{"op":"prompt"}"#),
            json!({"prompt": "Lamps as pictures."})
        );
        assert!(error_of(&mut d, r#"{"op":"solve"}"#).contains("Lamps-v0 has no oracle"));
        let r = ask(&mut d, r#"{"op":"reset","seed":1}"#);
        let mut frame = Frame::default();
        lamps::Lamps::default().render(&mut frame);
        assert_eq!(r["frame_sha256"], sha256_hex(frame.data()));
        assert_eq!(r["state"], json!({"obs": 0, "info": {}}));
        assert_eq!(r["feedback"], "");
        let r = ask(
            &mut d,
            r#"{"op":"step","action":{"name":"toggle","args":[1]}}"#,
        );
        assert_eq!(r["feedback"], "lamp 1 toggled");
        assert_eq!(r["state"]["obs"], 2);
        assert_ne!(r["frame_sha256"], sha256_hex(frame.data()));
        assert_eq!(r["frame_sha256"].as_str().unwrap().len(), 64);
        let r = ask(&mut d, r#"{"op":"step","action":"flip the lamp"}"#);
        assert_eq!(r["feedback"], "could not read \"flip the lamp\"");
        assert_eq!(r["terminated"], false);
        assert!(error_of(&mut d, r#"{"op":"step","action":3}"#).contains("the action's text"));
        // Without the family flag, no hash.
        d.load(Box::new(lamps::Lamps::default()), false);
        assert!(ask(&mut d, r#"{"op":"reset"}"#)
            .get("frame_sha256")
            .is_none());
    }

    #[test]
    fn environments_without_instructions_say_so() {
        let mut d = Driver::new();
        ask(&mut d, r#"{"op":"make","env":"CartPole-v1"}"#);
        assert_eq!(
            error_of(&mut d, r#"{"op":"prompt","mode":"rgb_array"}"#),
            "CartPole-v1 has no instructions of its own"
        );
    }
}
