//! Replays the golden files of the third-party games (Tetris, FlappyBird, HighwayEnv),
//! written by `tests/golden/thirdparty/generate.py` from the Python packages.
//!
//! A file names the registered id it covers (`"env"`) and its kwargs, and holds episodes
//! played in order on one environment instance: each reset (seeded or not), then every
//! step's action, the driver's STATE, reward, flags and info, and at sampled steps the
//! SHA-256 of the RGB frame. The replay makes the environment with `envs::make` and drives
//! it through the `Env` trait only: STATE from `snapshot_at_reset` / `snapshot`, info from
//! `reply_fields`, frames from `render`. How closely floats must agree is the caller's
//! [`Tolerance`] per value path.

use std::io::Read;

use serde::Deserialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use envs::{Action, Env, Frame};

/// Where the golden files live (relative to `tests/`), embedded by `build.rs`.
pub const GOLDEN_DIR: &str = "golden/thirdparty/";

/// Every third-party golden file: (path relative to `tests/`, gzipped JSON).
pub fn golden_files() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    crate::data_files(GOLDEN_DIR).filter(|(path, _)| path.ends_with(".json.gz"))
}

/// The golden files covering a registered id.
pub fn golden_files_for(id: &str) -> Vec<(&'static str, &'static [u8])> {
    golden_files()
        .filter(|(_, gz)| golden_env(gz).is_ok_and(|(env, _)| env == id))
        .collect()
}

/// A reference value the golden file left out to stay small (FlappyBird's 180-ray lidar
/// between sampled steps, Highway's far cars' floats between sampled steps).
const OMITTED: &str = "~";

#[derive(Deserialize)]
struct Golden {
    env: String,
    kwargs: Map<String, Value>,
    episodes: Vec<GoldenEpisode>,
}

#[derive(Deserialize)]
struct GoldenEpisode {
    seed: Option<u64>,
    reset: GoldenReset,
    steps: Vec<GoldenStep>,
}

#[derive(Deserialize)]
struct GoldenReset {
    state: Value,
    info: Value,
    frame: Option<String>,
}

#[derive(Deserialize)]
struct GoldenStep {
    action: u64,
    state: Value,
    reward: f64,
    terminated: bool,
    truncated: bool,
    info: Value,
    frame: Option<String>,
}

/// How closely a number must match the reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tolerance {
    Exact,
    /// At most this many float64 units in the last place apart.
    Ulps(u64),
    /// `|a − e| ≤ abs + rel·|e|`.
    Close {
        abs: f64,
        rel: f64,
    },
    /// Both rounded to float32 (the reference stores float32 observations in their
    /// shortest form), then at most `ulps` float32 ulps or `abs` apart.
    F32 {
        ulps: u32,
        abs: f64,
    },
}

impl Tolerance {
    fn accepts(self, actual: f64, expected: f64) -> bool {
        if actual == expected {
            return true;
        }
        match self {
            Tolerance::Exact => false,
            Tolerance::Ulps(n) => ulps_apart(actual, expected) <= n,
            Tolerance::Close { abs, rel } => {
                (actual - expected).abs() <= abs + rel * expected.abs()
            }
            Tolerance::F32 { ulps, abs } => {
                let (a, e) = (actual as f32, expected as f32);
                f32_ulps_apart(a, e) <= ulps || f64::from((a - e).abs()) <= abs
            }
        }
    }
}

/// Distance in representable float64 values (`u64::MAX` across a sign change).
pub fn ulps_apart(a: f64, b: f64) -> u64 {
    if a == b {
        return 0;
    }
    if a.is_sign_negative() != b.is_sign_negative() || a.is_nan() || b.is_nan() {
        return u64::MAX;
    }
    a.to_bits().abs_diff(b.to_bits())
}

fn f32_ulps_apart(a: f32, b: f32) -> u32 {
    if a == b {
        return 0;
    }
    if a.is_sign_negative() != b.is_sign_negative() || a.is_nan() || b.is_nan() {
        return u32::MAX;
    }
    a.to_bits().abs_diff(b.to_bits())
}

/// Where a value sits: the STATE path (e.g. `vehicles[3][2]`) and the 1-based step of the
/// episode (0 for the reset).
pub struct At<'a> {
    pub path: &'a str,
    pub step: usize,
}

/// Compares JSON values; numbers by value (432 equals 432.0) within `tol`; a reference
/// value `"~"` was left out of the file and is not compared.
pub fn compare(
    path: &str,
    actual: &Value,
    expected: &Value,
    step: usize,
    tol: &dyn Fn(At) -> Tolerance,
) -> Result<(), String> {
    match (actual, expected) {
        (_, Value::String(e)) if e == OMITTED => Ok(()),
        (Value::Number(a), Value::Number(e)) => {
            let (fa, fe) = (
                a.as_f64().unwrap_or(f64::NAN),
                e.as_f64().unwrap_or(f64::NAN),
            );
            let exact_ints = a.is_f64() || e.is_f64() || a == e;
            if exact_ints && tol(At { path, step }).accepts(fa, fe) {
                Ok(())
            } else {
                Err(format!("{path}: got {a}, reference {e}"))
            }
        }
        (Value::Array(a), Value::Array(e)) => {
            if a.len() != e.len() {
                return Err(format!("{path}: {} items, reference {}", a.len(), e.len()));
            }
            for (i, (x, y)) in a.iter().zip(e).enumerate() {
                compare(&format!("{path}[{i}]"), x, y, step, tol)?;
            }
            Ok(())
        }
        (Value::Object(a), Value::Object(e)) => {
            let keys = |m: &Map<String, Value>| m.keys().cloned().collect::<Vec<_>>();
            if keys(a) != keys(e) {
                return Err(format!(
                    "{path}: keys {:?}, reference {:?}",
                    keys(a),
                    keys(e)
                ));
            }
            for (k, y) in e {
                let sub = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                compare(&sub, &a[k], y, step, tol)?;
            }
            Ok(())
        }
        _ if actual == expected => Ok(()),
        _ => Err(format!("{path}: got {actual}, reference {expected}")),
    }
}

/// What a replay covered.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    pub episodes: usize,
    pub steps: usize,
    pub terminations: usize,
    pub truncations: usize,
    pub frames: usize,
}

/// The SHA-256 (hex) of a frame's RGB bytes, row-major H×W×3.
pub fn frame_sha256(frame: &Frame) -> String {
    Sha256::digest(frame.data())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Reads a golden file's header: (env id, kwargs).
pub fn golden_env(gz: &[u8]) -> Result<(String, Map<String, Value>), String> {
    let golden = parse(gz)?;
    Ok((golden.env, golden.kwargs))
}

fn parse(gz: &[u8]) -> Result<Golden, String> {
    let mut json = String::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_string(&mut json)
        .map_err(|e| format!("golden file: {e}"))?;
    serde_json::from_str(&json).map_err(|e| format!("golden file: {e}"))
}

/// Makes the environment a golden file covers, with its kwargs.
pub fn make(gz: &[u8]) -> Result<Box<dyn Env>, String> {
    let (id, kwargs) = golden_env(gz)?;
    envs::make(&id, &kwargs).map_err(|e| format!("{id}: {e}"))
}

/// The info dict of the last reset or step, as the driver adds it to its replies.
fn info(env: &dyn Env) -> Value {
    env.reply_fields()
        .get("info")
        .cloned()
        .unwrap_or(Value::Null)
}

/// Replays a golden file on `env` (made from the file's id and kwargs). Frames are
/// compared only when `check_frames`; `Err` names the first difference.
pub fn replay(
    env: &mut dyn Env,
    gz: &[u8],
    tol: &dyn Fn(At) -> Tolerance,
    check_frames: bool,
) -> Result<Coverage, String> {
    let golden = parse(gz)?;
    if env.id() != golden.env {
        return Err(format!("made {}, the file covers {}", env.id(), golden.env));
    }
    let mut cov = Coverage::default();
    let mut frame = Frame::default();
    let mut check_frame = |env: &dyn Env, sha: &Option<String>, cov: &mut Coverage| {
        let Some(sha) = sha.as_ref().filter(|_| check_frames) else {
            return Ok(());
        };
        env.render(&mut frame);
        let got = frame_sha256(&frame);
        cov.frames += 1;
        if &got == sha {
            Ok(())
        } else {
            Err(format!(
                "frame {}×{} differs",
                frame.width(),
                frame.height()
            ))
        }
    };
    let no_state = || "the environment has no snapshot".to_string();
    for (e, ep) in golden.episodes.iter().enumerate() {
        let at = |step: usize, what: String| {
            format!(
                "{} episode {e} (seed {:?}) step {step}: {what}",
                golden.env, ep.seed
            )
        };
        env.reset(ep.seed);
        let state = env.snapshot_at_reset().ok_or_else(no_state)?;
        compare("state", &state, &ep.reset.state, 0, tol).map_err(|m| at(0, m))?;
        compare("info", &info(env), &ep.reset.info, 0, tol).map_err(|m| at(0, m))?;
        check_frame(env, &ep.reset.frame, &mut cov).map_err(|m| at(0, m))?;
        for (t, gs) in ep.steps.iter().enumerate() {
            let t = t + 1;
            let action = usize::try_from(gs.action).map_err(|e| at(t, e.to_string()))?;
            let out = env
                .step(Action::Index(action))
                .map_err(|e| at(t, e.to_string()))?;
            let state = env.snapshot().ok_or_else(no_state)?;
            compare("state", &state, &gs.state, t, tol).map_err(|m| at(t, m))?;
            compare("info", &info(env), &gs.info, t, tol).map_err(|m| at(t, m))?;
            if !tol(At {
                path: "reward",
                step: t,
            })
            .accepts(out.reward, gs.reward)
            {
                return Err(at(
                    t,
                    format!("reward {} , reference {}", out.reward, gs.reward),
                ));
            }
            if (out.terminated, out.truncated) != (gs.terminated, gs.truncated) {
                return Err(at(
                    t,
                    format!(
                        "terminated/truncated {}/{}, reference {}/{}",
                        out.terminated, out.truncated, gs.terminated, gs.truncated
                    ),
                ));
            }
            check_frame(env, &gs.frame, &mut cov).map_err(|m| at(t, m))?;
            cov.steps += 1;
            cov.terminations += usize::from(out.terminated);
            cov.truncations += usize::from(out.truncated);
        }
        cov.episodes += 1;
    }
    Ok(cov)
}
