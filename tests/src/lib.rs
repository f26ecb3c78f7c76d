//! Golden-trajectory checks shared by the native and the wasm test runs.
//!
//! The golden files in `tests/golden/` come from the Python reference
//! (`tests/golden/generate.py`). Each is replayed through `envs` on one environment
//! instance, in the order the reference ran, so generator streams across seeded and
//! unseeded resets are checked too. Discrete quantities and initial states must match
//! exactly; Classic Control states after a step within 1e-9 absolute + 1e-6 relative
//! and observations within that or one float32 ulp (`docs/golden-data.md`,
//! "Tolerances").
//!
//! States are compared as the driver's STATE JSON, so the same check runs against the
//! library directly ([`LibraryStepper`]) and against the `envs-driver` process.

use serde::Deserialize;
use serde_json::{Map, Value};

/// The Gymnasium golden files (`tests/golden/*.json`, the format of
/// `tests/golden/generate.py`), by file stem, e.g. `FrozenLake-v1_is_slippery=False`.
pub fn golden_files() -> Vec<(&'static str, &'static str)> {
    data_files("golden/")
        .filter_map(|(path, bytes)| {
            let stem = path.strip_prefix("golden/")?.strip_suffix(".json")?;
            if stem.contains('/') {
                return None;
            }
            Some((stem, std::str::from_utf8(bytes).ok()?))
        })
        .collect()
}

#[derive(Deserialize)]
struct Golden {
    env: String,
    kwargs: Map<String, Value>,
    resets: Vec<GoldenReset>,
    episodes: Vec<EpisodePair>,
}

#[derive(Deserialize)]
struct GoldenReset {
    seed: u64,
    state: Value,
}

#[derive(Deserialize)]
struct EpisodePair {
    first: GoldenEpisode,
    continued: GoldenEpisode,
}

#[derive(Deserialize)]
struct GoldenEpisode {
    seed: Option<u64>,
    reset: Value,
    steps: Vec<GoldenStep>,
}

#[derive(Deserialize)]
struct GoldenStep {
    action: Value,
    state: Value,
    reward: f64,
    terminated: bool,
    truncated: bool,
}

/// One step's outcome as JSON STATE plus reward and flags.
pub struct Stepped {
    pub state: Value,
    pub reward: f64,
    pub terminated: bool,
    pub truncated: bool,
}

/// Something that runs environments: the library, or the driver over a pipe.
pub trait Stepper {
    fn make(&mut self, env: &str, kwargs: &Map<String, Value>) -> Result<(), String>;
    fn reset(&mut self, seed: Option<u64>) -> Result<Value, String>;
    /// `action` as the golden file stores it: an index, or a torque for Pendulum.
    fn step(&mut self, action: &Value) -> Result<Stepped, String>;
    /// `[width, height, CRC-32 of the RGB bytes]` of a picture, when this stepper can
    /// render in-process.
    fn frame_crc(&mut self, options: envs::core::env::RenderOptions) -> Option<[u32; 3]> {
        let _ = options;
        None
    }
}

/// Runs environments through the `envs` library.
#[derive(Default)]
pub struct LibraryStepper {
    env: Option<Box<dyn envs::Env>>,
}

impl LibraryStepper {
    fn env(&mut self) -> Result<&mut Box<dyn envs::Env>, String> {
        self.env
            .as_mut()
            .ok_or_else(|| "no environment".to_string())
    }
}

impl Stepper for LibraryStepper {
    fn make(&mut self, env: &str, kwargs: &Map<String, Value>) -> Result<(), String> {
        self.env = Some(envs::make(env, kwargs).map_err(|e| e.to_string())?);
        Ok(())
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<Value, String> {
        let env = self.env()?;
        let r = env.reset(seed);
        Ok(envs::core::env::state_json(env.as_ref(), &r.obs, &r.info))
    }

    fn step(&mut self, action: &Value) -> Result<Stepped, String> {
        let action = match action.as_u64() {
            Some(i) => envs::Action::Index(i as usize),
            None => envs::Action::Value(action.as_f64().ok_or("bad action")?),
        };
        let env = self.env()?;
        let s = env.step(action).map_err(|e| e.to_string())?;
        Ok(Stepped {
            state: envs::core::env::state_json(env.as_ref(), &s.obs, &s.info),
            reward: s.reward,
            terminated: s.terminated,
            truncated: s.truncated,
        })
    }

    fn frame_crc(&mut self, options: envs::core::env::RenderOptions) -> Option<[u32; 3]> {
        let env = self.env.as_ref()?;
        let mut frame = envs::Frame::default();
        env.render_with(&mut frame, options);
        Some([frame.width(), frame.height(), crc32fast::hash(frame.data())])
    }
}

/// What a replay covered.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    pub resets: usize,
    pub steps: usize,
    pub terminations: usize,
    pub truncations: usize,
    pub frames: usize,
}

/// How closely a value must match.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Match {
    Exact,
    Close,
}

fn close(actual: f64, expected: f64) -> bool {
    (actual - expected).abs() <= 1e-9 + 1e-6 * expected.abs()
}

fn f32_ulps_apart(a: f32, b: f32) -> u32 {
    if a == b {
        return 0;
    }
    if a.is_sign_negative() != b.is_sign_negative() {
        return u32::MAX;
    }
    a.to_bits().abs_diff(b.to_bits())
}

fn check_f64(what: &str, actual: f64, expected: f64, m: Match) -> Result<(), String> {
    let ok = match m {
        Match::Exact => actual == expected,
        Match::Close => close(actual, expected),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{what}: got {actual:e}, reference {expected:e}"))
    }
}

fn floats(v: &Value, what: &str) -> Result<Vec<f64>, String> {
    serde_json::from_value(v.clone()).map_err(|_| format!("{what} is not a number array: {v}"))
}

/// Compares two STATE objects: integers, info and initial states exactly, float
/// vectors (observations, physical states) exactly or within tolerance.
fn check_state(actual: &Value, expected: &Value, m: Match) -> Result<(), String> {
    if expected["obs"].is_i64() {
        return if actual == expected {
            Ok(())
        } else {
            Err(format!("got {actual}, reference {expected}"))
        };
    }
    let (obs, ref_obs) = (
        floats(&actual["obs"], "obs")?,
        floats(&expected["obs"], "reference obs")?,
    );
    let (st, ref_st) = (
        floats(&actual["state"], "state")?,
        floats(&expected["state"], "reference state")?,
    );
    if obs.len() != ref_obs.len() || st.len() != ref_st.len() {
        return Err(format!("shape: got {actual}, reference {expected}"));
    }
    for (i, (&a, &e)) in obs.iter().zip(&ref_obs).enumerate() {
        let ok = match m {
            Match::Exact => a == e,
            Match::Close => close(a, e) || f32_ulps_apart(a as f32, e as f32) <= 1,
        };
        if !ok {
            return Err(format!("obs[{i}]: got {a:e}, reference {e:e}"));
        }
    }
    for (i, (&a, &e)) in st.iter().zip(&ref_st).enumerate() {
        check_f64(&format!("state[{i}]"), a, e, m)?;
    }
    Ok(())
}

fn replay_episode(
    stepper: &mut dyn Stepper,
    ep: &GoldenEpisode,
    cov: &mut Coverage,
) -> Result<(), String> {
    let reset = stepper.reset(ep.seed)?;
    check_state(&reset, &ep.reset, Match::Exact)
        .map_err(|e| format!("reset(seed={:?}): {e}", ep.seed))?;
    let m = if ep.reset["obs"].is_i64() {
        Match::Exact
    } else {
        Match::Close
    };
    for (t, gs) in ep.steps.iter().enumerate() {
        let at = |e: String| format!("seed {:?} step {}: {e}", ep.seed, t + 1);
        let step = stepper.step(&gs.action).map_err(at)?;
        check_state(&step.state, &gs.state, m).map_err(at)?;
        check_f64("reward", step.reward, gs.reward, m).map_err(at)?;
        if (step.terminated, step.truncated) != (gs.terminated, gs.truncated) {
            return Err(at(format!(
                "terminated/truncated: got {}/{}, reference {}/{}",
                step.terminated, step.truncated, gs.terminated, gs.truncated
            )));
        }
        cov.steps += 1;
        cov.terminations += usize::from(step.terminated);
        cov.truncations += usize::from(step.truncated);
    }
    Ok(())
}

/// Replays one golden file through `stepper`; `Err` names the first mismatch.
pub fn check_golden_with(stepper: &mut dyn Stepper, json: &str) -> Result<Coverage, String> {
    let golden: Golden = serde_json::from_str(json).map_err(|e| format!("golden file: {e}"))?;
    stepper.make(&golden.env, &golden.kwargs)?;
    let mut cov = Coverage::default();
    for r in &golden.resets {
        let state = stepper.reset(Some(r.seed))?;
        check_state(&state, &r.state, Match::Exact)
            .map_err(|e| format!("{} reset(seed={}): {e}", golden.env, r.seed))?;
        cov.resets += 1;
    }
    for pair in &golden.episodes {
        for ep in [&pair.first, &pair.continued] {
            replay_episode(stepper, ep, &mut cov).map_err(|e| format!("{}: {e}", golden.env))?;
        }
    }
    Ok(cov)
}

/// Replays one golden file through the library.
pub fn check_golden(json: &str) -> Result<Coverage, String> {
    check_golden_with(&mut LibraryStepper::default(), json)
}

/// The Gymnasium golden file with this stem (empty if there is none).
pub fn golden(name: &str) -> &'static str {
    golden_files()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map_or("", |(_, json)| json)
}
pub mod atari;
pub mod bench;
#[cfg(target_arch = "wasm32")]
pub mod browser;
pub mod fetch;
pub mod minigrid;
pub mod reference;
// The benchmark binaries use it; they build for wasm32 too (as part of the wasm test
// build) though they run natively only.
pub mod speed;
pub mod thirdparty;
#[cfg(not(target_arch = "wasm32"))]
pub mod wheels;

include!(concat!(env!("OUT_DIR"), "/data_files.rs"));

/// The zip reader `wheels` uses (the build script includes `wheels.rs` with its own).
#[cfg(not(target_arch = "wasm32"))]
use envs::core::zip;

/// The repository root: caches (`.cache/`) and the reference scripts are found from it.
pub fn repo_root() -> std::path::PathBuf {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap_or(here).to_path_buf()
}

/// The data files whose path (relative to `tests/`) starts with `prefix`.
pub fn data_files(prefix: &str) -> impl Iterator<Item = (&'static str, &'static [u8])> + '_ {
    DATA_FILES
        .iter()
        .filter(move |(path, _)| path.starts_with(prefix))
        .copied()
}
pub mod gameverse;
pub mod gameverse_requests;
pub mod tic_tac_toe_clicks;
pub mod video_samples;
pub mod visgym;

/// Declares tests that run natively and, compiled to wasm, in the browser, where each
/// first hands the page its event loop back: wasm-bindgen-test runs synchronous tests
/// back to back in one task, and ChromeDriver gives up on a page that has not answered
/// for 30 s (a whole file of long tests in one task failed CI that way).
#[macro_export]
macro_rules! browser_tests {
    ($($(#[$attr:meta])* fn $name:ident() $body:block)*) => {
        $(
            #[cfg(not(target_arch = "wasm32"))]
            #[test]
            $(#[$attr])*
            fn $name() $body

            #[cfg(target_arch = "wasm32")]
            #[wasm_bindgen_test::wasm_bindgen_test]
            $(#[$attr])*
            async fn $name() {
                $crate::browser::yield_to_browser().await;
                $body
            }
        )*
    };
}
