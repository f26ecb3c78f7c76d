//! The generic golden format, `playbench-golden/1` (`docs/golden-data.md`): episodes of
//! the reference recorded as the driver sees them — the state after reset, then per step
//! the action (its text, an index or a value), the state, the reward and the flags, and
//! optionally the SHA-256 of the RGB frame. Any family that writes this format is
//! replayed by one test, with no code of its own.

use serde::Deserialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use envs::core::env::{reset_state_json, state_json};
use envs::{Action, Env, Frame};

pub const FORMAT: &str = "playbench-golden/1";

#[derive(Deserialize)]
pub struct GoldenFile {
    pub format: String,
    pub env: String,
    pub episodes: Vec<GoldenEpisode>,
}

#[derive(Deserialize)]
pub struct GoldenEpisode {
    #[serde(default)]
    pub kwargs: Map<String, Value>,
    pub seed: Option<u64>,
    /// Reset the previous episode's instance instead of making a new one (to check that
    /// an unseeded reset continues the generator).
    #[serde(default, rename = "continue")]
    pub continues: bool,
    pub reset: Option<Value>,
    #[serde(default)]
    pub reset_frame_sha256: Option<String>,
    pub steps: Vec<GoldenStep>,
}

#[derive(Deserialize)]
pub struct GoldenStep {
    pub action: Value,
    pub state: Option<Value>,
    pub reward: f64,
    pub terminated: bool,
    pub truncated: bool,
    #[serde(default)]
    pub frame_sha256: Option<String>,
}

/// What a replay covered.
#[derive(Debug, Default, Clone, Copy)]
pub struct Replayed {
    pub episodes: usize,
    pub steps: usize,
    pub terminations: usize,
    pub frames: usize,
}

fn action(v: &Value) -> Result<Action, String> {
    match v {
        Value::String(t) => Ok(Action::Text(t.clone())),
        Value::Number(n) if n.is_u64() => Ok(Action::Index(n.as_u64().unwrap_or(0) as usize)),
        Value::Number(n) => n.as_f64().map(Action::Value).ok_or("a bad number".into()),
        Value::Object(_) => serde_json::from_value(v.clone())
            .map(Action::Call)
            .map_err(|e| e.to_string()),
        other => Err(format!("{other} is not an action")),
    }
}

/// The hex SHA-256 of a frame's RGB bytes.
pub fn frame_sha256(env: &dyn Env, frame: &mut Frame) -> String {
    env.render(frame);
    Sha256::digest(frame.data())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Replays a `playbench-golden/1` document through `envs::make` and the `Env` trait.
pub fn replay(doc: &GoldenFile) -> Result<Replayed, String> {
    if doc.format != FORMAT {
        return Err(format!("format {:?}, expected {FORMAT:?}", doc.format));
    }
    let mut seen = Replayed::default();
    let mut env: Option<Box<dyn Env>> = None;
    let mut frame = Frame::default();
    for (e, ep) in doc.episodes.iter().enumerate() {
        let at = |s: Option<usize>, what: &str| match s {
            None => format!("{} episode {e} reset: {what}", doc.env),
            Some(i) => format!("{} episode {e} step {i}: {what}", doc.env),
        };
        if !ep.continues || env.is_none() {
            env = Some(envs::make(&doc.env, &ep.kwargs).map_err(|x| at(None, &x.to_string()))?);
        }
        let Some(env) = env.as_mut() else {
            return Err(at(None, "no environment"));
        };
        let start = env.reset(ep.seed);
        if let Some(want) = &ep.reset {
            let got = reset_state_json(env.as_ref(), &start.obs, &start.info);
            if &got != want {
                return Err(at(None, &format!("state {got}, reference {want}")));
            }
        }
        if let Some(want) = &ep.reset_frame_sha256 {
            if &frame_sha256(env.as_ref(), &mut frame) != want {
                return Err(at(None, "frame differs"));
            }
            seen.frames += 1;
        }
        for (i, st) in ep.steps.iter().enumerate() {
            let a = action(&st.action).map_err(|x| at(Some(i), &x))?;
            let step = env.step(a).map_err(|x| at(Some(i), &x.to_string()))?;
            if let Some(want) = &st.state {
                let got = state_json(env.as_ref(), &step.obs, &step.info);
                if &got != want {
                    return Err(at(
                        Some(i),
                        &format!("after {}: state {got}, reference {want}", st.action),
                    ));
                }
            }
            if (step.reward, step.terminated, step.truncated)
                != (st.reward, st.terminated, st.truncated)
            {
                return Err(at(
                    Some(i),
                    &format!(
                        "reward/terminated/truncated {:?}, reference {:?}",
                        (step.reward, step.terminated, step.truncated),
                        (st.reward, st.terminated, st.truncated)
                    ),
                ));
            }
            if let Some(want) = &st.frame_sha256 {
                if &frame_sha256(env.as_ref(), &mut frame) != want {
                    return Err(at(Some(i), "frame differs"));
                }
                seen.frames += 1;
            }
            seen.steps += 1;
            seen.terminations += usize::from(step.terminated);
        }
        seen.episodes += 1;
    }
    Ok(seen)
}

/// Reads a data file's JSON, gunzipping `.gz` files.
pub fn read_json(path: &str, bytes: &[u8]) -> Result<Value, String> {
    let text = if path.ends_with(".gz") {
        let mut out = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(bytes), &mut out)
            .map_err(|e| format!("{path}: {e}"))?;
        out
    } else {
        String::from_utf8(bytes.to_vec()).map_err(|e| format!("{path}: {e}"))?
    };
    serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))
}

/// The registered ids a golden file covers: its top-level `"env"` (or each of `"envs"`).
pub fn covered_ids(doc: &Value) -> Vec<String> {
    let mut out: Vec<String> = doc
        .get("envs")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if let Some(id) = doc.get("env").and_then(Value::as_str) {
        out.push(id.to_string());
    }
    out
}
