//! Golden-trajectory checks shared by the native and the wasm test runs.
//!
//! The golden files in `tests/golden/` come from the Python reference
//! (`tests/golden/generate.py`). Each is replayed through `envs` on one environment
//! instance, in the order the reference ran, so generator streams across seeded and
//! unseeded resets are checked too. Discrete quantities and initial states must match
//! exactly; Classic Control states after a step within 1e-9 absolute + 1e-6 relative
//! (reference-envs §6) and observations within that or one float32 ulp.

use envs::{Action, Env, Info, Observation};
use serde::Deserialize;
use serde_json::{Map, Value};

/// Every golden file, embedded so the wasm build needs no filesystem.
pub const GOLDEN_FILES: &[(&str, &str)] = &[
    ("Taxi-v3", include_str!("../golden/Taxi-v3.json")),
    ("CliffWalking-v1", include_str!("../golden/CliffWalking-v1.json")),
    ("FrozenLake-v1", include_str!("../golden/FrozenLake-v1.json")),
    (
        "FrozenLake-v1 deterministic",
        include_str!("../golden/FrozenLake-v1_is_slippery=False.json"),
    ),
    (
        "FrozenLake-v1 8x8",
        include_str!("../golden/FrozenLake-v1_map_name=8x8.json"),
    ),
    (
        "FrozenLake8x8-v1 deterministic",
        include_str!("../golden/FrozenLake8x8-v1_is_slippery=False.json"),
    ),
    ("CartPole-v1", include_str!("../golden/CartPole-v1.json")),
    ("Acrobot-v1", include_str!("../golden/Acrobot-v1.json")),
    ("MountainCar-v0", include_str!("../golden/MountainCar-v0.json")),
    ("Pendulum-v1", include_str!("../golden/Pendulum-v1.json")),
    (
        "Pendulum-v1 float64",
        include_str!("../golden/Pendulum-v1_action_dtype=float64.json"),
    ),
];

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
    state: GoldenState,
}

#[derive(Deserialize)]
struct EpisodePair {
    first: GoldenEpisode,
    continued: GoldenEpisode,
}

#[derive(Deserialize)]
struct GoldenEpisode {
    seed: Option<u64>,
    reset: GoldenState,
    steps: Vec<GoldenStep>,
}

#[derive(Deserialize)]
struct GoldenStep {
    action: Value,
    state: GoldenState,
    reward: f64,
    terminated: bool,
    truncated: bool,
}

/// The driver's STATE: Toy Text `obs` + `info`, Classic Control `obs` + `state`.
#[derive(Deserialize)]
struct GoldenState {
    obs: Value,
    #[serde(default)]
    info: Option<GoldenInfo>,
    #[serde(default)]
    state: Option<Vec<f64>>,
}

#[derive(Deserialize)]
struct GoldenInfo {
    prob: f64,
    #[serde(default)]
    action_mask: Option<Vec<u8>>,
}

/// What a replay covered.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    pub resets: usize,
    pub steps: usize,
    pub terminations: usize,
    pub truncations: usize,
}

/// How closely a value must match.
#[derive(Clone, Copy)]
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
        Match::Exact => actual.to_bits() == expected.to_bits() || actual == expected,
        Match::Close => close(actual, expected),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{what}: got {actual:e}, reference {expected:e}"))
    }
}

fn check_state(
    env: &dyn Env,
    obs: &Observation,
    info: &Info,
    golden: &GoldenState,
    m: Match,
) -> Result<(), String> {
    match obs {
        Observation::Int(n) => {
            if golden.obs.as_i64() != Some(*n) {
                return Err(format!("obs: got {n}, reference {}", golden.obs));
            }
            let gi = golden.info.as_ref().ok_or("reference has no info")?;
            check_f64("info.prob", info.prob.unwrap_or(f64::NAN), gi.prob, Match::Exact)?;
            if info.action_mask != gi.action_mask {
                return Err(format!(
                    "info.action_mask: got {:?}, reference {:?}",
                    info.action_mask, gi.action_mask
                ));
            }
        }
        Observation::Vector(values) => {
            let expected: Vec<f64> = serde_json::from_value(golden.obs.clone())
                .map_err(|e| format!("reference obs: {e}"))?;
            if values.len() != expected.len() {
                return Err(format!("obs length {} vs {}", values.len(), expected.len()));
            }
            for (i, (&a, &e)) in values.iter().zip(&expected).enumerate() {
                let ok = match m {
                    Match::Exact => f64::from(a) == e,
                    Match::Close => close(f64::from(a), e) || f32_ulps_apart(a, e as f32) <= 1,
                };
                if !ok {
                    return Err(format!("obs[{i}]: got {a:e}, reference {e:e}"));
                }
            }
            let state = env.physical_state().ok_or("no physical state")?;
            let expected = golden.state.as_ref().ok_or("reference has no state")?;
            if state.len() != expected.len() {
                return Err(format!("state length {} vs {}", state.len(), expected.len()));
            }
            for (i, (&a, &e)) in state.iter().zip(expected).enumerate() {
                check_f64(&format!("state[{i}]"), a, e, m)?;
            }
        }
    }
    Ok(())
}

fn action_of(v: &Value) -> Result<Action, String> {
    if let Some(i) = v.as_u64() {
        return Ok(Action::Index(i as usize));
    }
    v.as_f64()
        .map(Action::Value)
        .ok_or_else(|| format!("bad action {v}"))
}

fn replay_episode(
    env: &mut dyn Env,
    ep: &GoldenEpisode,
    cov: &mut Coverage,
) -> Result<(), String> {
    let reset = env.reset(ep.seed);
    check_state(env, &reset.obs, &reset.info, &ep.reset, Match::Exact)
        .map_err(|e| format!("reset(seed={:?}): {e}", ep.seed))?;
    let discrete = matches!(reset.obs, Observation::Int(_));
    for (t, gs) in ep.steps.iter().enumerate() {
        let at = |e: String| format!("seed {:?} step {}: {e}", ep.seed, t + 1);
        let step = env.step(action_of(&gs.action)?).map_err(|e| at(e.to_string()))?;
        let m = if discrete { Match::Exact } else { Match::Close };
        check_state(env, &step.obs, &step.info, &gs.state, m).map_err(at)?;
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

/// Replays one golden file; `Err` names the first mismatch.
pub fn check_golden(json: &str) -> Result<Coverage, String> {
    let golden: Golden = serde_json::from_str(json).map_err(|e| format!("golden file: {e}"))?;
    let mut env = envs::make(&golden.env, &golden.kwargs).map_err(|e| e.to_string())?;
    let mut cov = Coverage::default();
    for r in &golden.resets {
        let reset = env.reset(Some(r.seed));
        check_state(env.as_ref(), &reset.obs, &reset.info, &r.state, Match::Exact)
            .map_err(|e| format!("{} reset(seed={}): {e}", golden.env, r.seed))?;
        cov.resets += 1;
    }
    for pair in &golden.episodes {
        for ep in [&pair.first, &pair.continued] {
            replay_episode(env.as_mut(), ep, &mut cov).map_err(|e| format!("{}: {e}", golden.env))?;
        }
    }
    Ok(cov)
}

/// The golden file registered under `name`.
pub fn golden(name: &str) -> &'static str {
    GOLDEN_FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, json)| *json)
        .unwrap_or("")
}
