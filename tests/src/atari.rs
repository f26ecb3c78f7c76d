//! Atari golden replays: the traces of `tests/golden/atari/generate.py` (ale-py 0.12.1)
//! replayed through `envs::make("ALE/<Game>-v5", kwargs)` and the `Env` trait, checking
//! rewards, lives, episode ends, frame counters, RAM and every screen (through the hash
//! chain the generator describes).
//!
//! The same replay runs against the library ([`LibraryAtari`]) and against the
//! `envs-driver` process (the CLI's tests implement [`AtariStepper`] over its pipe).
//! Each trace is made with one `obs_type` (the first trace of a file `rgb`, the second
//! `grayscale`, the third `ram`: ale-py's observation type changes nothing else), and
//! where the stepper returns observations they are checked at every checkpoint: the
//! RGB observation is the rendered screen, the grayscale one matches the reference's
//! hash, the RAM one is the RAM.
//!
//! ROMs are not in the repository: [`roms`] extracts them from the ale-py wheel into the
//! ignored `.cache/` folder (natively); the wasm build embeds that folder at build time
//! ([`EMBEDDED_ROMS`], see `tests/build.rs`).

use envs::core::env::{ByteArray, Observation};
use envs::{Action, Env, Frame};
use flate2::read::GzDecoder;
use serde::Deserialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::io::Read;

include!(concat!(env!("OUT_DIR"), "/atari_roms.rs"));

/// The folder of the Atari golden files under `tests/`.
pub const GOLDEN_DIR: &str = "golden/atari/";

/// Every Atari golden file (gzipped JSON): (path under `tests/`, bytes).
pub fn golden_files() -> Vec<(&'static str, &'static [u8])> {
    crate::data_files(GOLDEN_DIR)
        .filter(|(p, _)| p.ends_with(".json.gz"))
        .collect()
}

#[derive(Deserialize)]
struct AtariGolden {
    env: String,
    traces: Vec<Trace>,
}

#[derive(Deserialize)]
struct Trace {
    seed: u64,
    kwargs: Map<String, Value>,
    steps: usize,
    reseed: (usize, u64),
    actions: String,
    rewards: Vec<(usize, f64)>,
    lives: Vec<(usize, u8, i64)>,
    ends: Vec<(usize, bool, bool)>,
    checkpoints: Vec<Checkpoint>,
}

#[derive(Deserialize)]
struct Checkpoint {
    step: usize,
    chain: String,
    frame_number: u64,
    episode_frame_number: u64,
    gray: String,
    ram: Option<String>,
}

/// The observation types the traces of a file are replayed with, in trace order.
pub const OBS_TYPES: [&str; 3] = ["rgb", "grayscale", "ram"];

/// What a replay covered.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct AtariCoverage {
    pub steps: usize,
    pub screens: usize,
    pub rewards: usize,
    pub terminations: usize,
    pub truncations: usize,
    pub ram_checks: usize,
    pub observation_checks: usize,
}

/// What a stepper shows after a reset or a step.
pub struct Seen {
    /// The driver's state: `{"ram", "lives", "frame_number", "episode_frame_number"}`.
    pub state: Value,
    /// SHA-256 of the 210×160×3 RGB screen.
    pub screen_sha256: [u8; 32],
    /// The observation, where the stepper returns it.
    pub obs: Option<ByteArray>,
}

/// One step's outcome.
pub struct AtariStepped {
    pub seen: Seen,
    pub reward: f64,
    pub terminated: bool,
    pub truncated: bool,
}

/// Something that runs `ALE/<Game>-v5`: the library, or the driver over a pipe.
pub trait AtariStepper {
    fn make(&mut self, env: &str, kwargs: &Map<String, Value>) -> Result<(), String>;
    fn reset(&mut self, seed: Option<u64>) -> Result<Seen, String>;
    fn step(&mut self, action: usize) -> Result<AtariStepped, String>;
}

/// Runs the registered environments through `envs::make` and the `Env` trait.
#[derive(Default)]
pub struct LibraryAtari {
    env: Option<Box<dyn Env>>,
    frame: Frame,
}

impl LibraryAtari {
    fn seen(&mut self, obs: Observation) -> Result<Seen, String> {
        let env = self.env.as_ref().ok_or("no environment")?;
        env.render(&mut self.frame);
        let obs = match obs {
            Observation::Bytes(b) => b,
            other => return Err(format!("not a byte observation: {other:?}")),
        };
        Ok(Seen {
            state: env.snapshot().ok_or("no snapshot")?,
            screen_sha256: Sha256::digest(self.frame.data()).into(),
            obs: Some(obs),
        })
    }
}

impl AtariStepper for LibraryAtari {
    fn make(&mut self, env: &str, kwargs: &Map<String, Value>) -> Result<(), String> {
        self.env = Some(envs::make(env, kwargs).map_err(|e| e.to_string())?);
        Ok(())
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<Seen, String> {
        let env = self.env.as_mut().ok_or("no environment")?;
        let r = env.reset(seed);
        self.seen(r.obs)
    }

    fn step(&mut self, action: usize) -> Result<AtariStepped, String> {
        let env = self.env.as_mut().ok_or("no environment")?;
        let s = env.step(Action::Index(action)).map_err(|e| e.to_string())?;
        Ok(AtariStepped {
            reward: s.reward,
            terminated: s.terminated,
            truncated: s.truncated,
            seen: self.seen(s.obs)?,
        })
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A golden file's JSON text.
pub fn gunzip(gz: &[u8]) -> Result<String, String> {
    let mut json = String::new();
    GzDecoder::new(gz)
        .read_to_string(&mut json)
        .map_err(|e| format!("golden file: {e}"))?;
    Ok(json)
}

/// The golden file of a registered id ("ALE/Pong-v5" → `golden/atari/Pong.json.gz`).
pub fn golden_for(env: &str) -> Option<&'static [u8]> {
    let name = env.strip_prefix("ALE/")?.strip_suffix("-v5")?;
    let path = format!("{GOLDEN_DIR}{name}.json.gz");
    golden_files()
        .into_iter()
        .find(|(p, _)| *p == path)
        .map(|(_, gz)| gz)
}

/// Replays a golden file's traces (its JSON text) through `stepper`; `Err` names the
/// first mismatch.
pub fn check_atari_golden(
    stepper: &mut dyn AtariStepper,
    json: &str,
) -> Result<AtariCoverage, String> {
    let mut check = AtariGoldenCheck::new(json)?;
    while check.next_trace(stepper)? {}
    Ok(check.coverage)
}

/// A golden file replayed one trace at a time, so that the wasm tests can hand the
/// browser back its main thread between traces (a test that holds it for ChromeDriver's
/// 30 s wait fails on a busy machine).
pub struct AtariGoldenCheck {
    golden: AtariGolden,
    next: usize,
    pub coverage: AtariCoverage,
}

impl AtariGoldenCheck {
    pub fn new(json: &str) -> Result<Self, String> {
        let golden: AtariGolden =
            serde_json::from_str(json).map_err(|e| format!("golden file: {e}"))?;
        Ok(Self {
            golden,
            next: 0,
            coverage: AtariCoverage::default(),
        })
    }

    /// Replays the next trace; `Ok(false)` once every trace has been.
    pub fn next_trace(&mut self, stepper: &mut dyn AtariStepper) -> Result<bool, String> {
        let i = self.next;
        let Some(trace) = self.golden.traces.get(i) else {
            return Ok(false);
        };
        let obs_type = OBS_TYPES[i % OBS_TYPES.len()];
        replay_trace(
            stepper,
            &self.golden.env,
            trace,
            obs_type,
            &mut self.coverage,
        )
        .map_err(|e| format!("{} seed {} ({obs_type}): {e}", self.golden.env, trace.seed))?;
        self.next += 1;
        Ok(true)
    }
}

/// The state's fields a replay checks.
struct State {
    ram: Vec<u8>,
    lives: i64,
    frame_number: u64,
    episode_frame_number: u64,
}

fn state_of(v: &Value) -> Result<State, String> {
    let ram: Vec<u8> = serde_json::from_value(v["ram"].clone()).map_err(|e| format!("ram: {e}"))?;
    if ram.len() != 128 {
        return Err(format!("{} RAM bytes", ram.len()));
    }
    let int = |k: &str| {
        v[k].as_i64()
            .ok_or_else(|| format!("state has no {k}: {v}"))
    };
    Ok(State {
        ram,
        lives: int("lives")?,
        frame_number: int("frame_number")? as u64,
        episode_frame_number: int("episode_frame_number")? as u64,
    })
}

struct Replay<'a> {
    stepper: &'a mut dyn AtariStepper,
    obs_type: &'static str,
    chain: [u8; 32],
    /// The state and observation after the last fold.
    state: State,
    obs: Option<ByteArray>,
    screen_sha256: [u8; 32],
}

impl Replay<'_> {
    /// chain = SHA-256(chain || SHA-256(RGB screen) || RAM)
    fn fold(&mut self, seen: Seen, cov: &mut AtariCoverage) -> Result<(), String> {
        self.state = state_of(&seen.state)?;
        let mut h = Sha256::new();
        h.update(self.chain);
        h.update(seen.screen_sha256);
        h.update(&self.state.ram);
        self.chain = h.finalize().into();
        self.obs = seen.obs;
        self.screen_sha256 = seen.screen_sha256;
        cov.screens += 1;
        Ok(())
    }

    fn check_point(&self, cp: &Checkpoint, cov: &mut AtariCoverage) -> Result<(), String> {
        let step = cp.step;
        if let Some(ram) = &cp.ram {
            let mine = hex(&self.state.ram);
            if &mine != ram {
                let diffs: Vec<String> = (0..128)
                    .filter(|&i| mine[2 * i..2 * i + 2] != ram[2 * i..2 * i + 2])
                    .map(|i| format!("{:02x}", 0x80 + i))
                    .collect();
                return Err(format!("step {step}: RAM differs at {}", diffs.join(" ")));
            }
            cov.ram_checks += 1;
        }
        if hex(&self.chain[..8]) != cp.chain {
            return Err(format!(
                "step {step}: screens/RAM differ within the last checkpoint interval"
            ));
        }
        let frames = (self.state.frame_number, self.state.episode_frame_number);
        if frames != (cp.frame_number, cp.episode_frame_number) {
            return Err(format!(
                "step {step}: frame numbers {frames:?}, reference {:?}",
                (cp.frame_number, cp.episode_frame_number)
            ));
        }
        if let Some(obs) = &self.obs {
            let ok = match self.obs_type {
                "rgb" => {
                    obs.shape == [210, 160, 3]
                        && <[u8; 32]>::from(Sha256::digest(&obs.data)) == self.screen_sha256
                }
                "grayscale" => {
                    obs.shape == [210, 160] && hex(&Sha256::digest(&obs.data)[..8]) == cp.gray
                }
                _ => obs.shape == [128] && obs.data == self.state.ram,
            };
            if !ok {
                return Err(format!(
                    "step {step}: the {} observation differs",
                    self.obs_type
                ));
            }
            cov.observation_checks += 1;
        }
        Ok(())
    }
}

fn replay_trace(
    stepper: &mut dyn AtariStepper,
    env: &str,
    trace: &Trace,
    obs_type: &'static str,
    cov: &mut AtariCoverage,
) -> Result<(), String> {
    let mut kwargs = trace.kwargs.clone();
    kwargs.insert("obs_type".into(), obs_type.into());
    stepper.make(env, &kwargs)?;
    let actions: Vec<usize> = trace
        .actions
        .chars()
        .map(|c| c.to_digit(18).map(|d| d as usize).ok_or("bad action"))
        .collect::<Result<_, _>>()?;
    if actions.len() != trace.steps {
        return Err("action count differs from the step count".into());
    }
    let first = stepper.reset(Some(trace.seed))?;
    let mut r = Replay {
        stepper,
        obs_type,
        chain: [0; 32],
        state: state_of(&first.state)?,
        obs: None,
        screen_sha256: [0; 32],
    };
    r.fold(first, cov)?;

    let mut lives = trace.lives.iter().peekable();
    let mut expected_lives = 0;
    let mut check_lives = |state: &State, step: usize, phase: u8| -> Result<(), String> {
        if let Some(&&(s, p, l)) = lives.peek() {
            if (s, p) == (step, phase) {
                expected_lives = l;
                lives.next();
            }
        }
        if state.lives != expected_lives {
            return Err(format!(
                "step {step} phase {phase}: lives {} reference {expected_lives}",
                state.lives
            ));
        }
        Ok(())
    };
    let mut checkpoints = trace.checkpoints.iter().peekable();
    let mut check_point = |r: &Replay, step: usize, cov: &mut AtariCoverage| match checkpoints
        .next_if(|cp| cp.step == step)
    {
        Some(cp) => r.check_point(cp, cov),
        None => Ok(()),
    };

    check_lives(&r.state, 0, 0)?;
    check_point(&r, 0, cov)?;
    let mut rewards = trace.rewards.iter().peekable();
    let mut ends = trace.ends.iter().peekable();
    for (i, &action) in actions.iter().enumerate() {
        let step = i + 1;
        if step == trace.reseed.0 {
            let seen = r.stepper.reset(Some(trace.reseed.1))?;
            r.fold(seen, cov)?;
            check_lives(&r.state, step, 0)?;
        }
        let s = r.stepper.step(action)?;
        let reward = rewards
            .next_if(|&&(st, _)| st == step)
            .map_or(0.0, |&(_, rw)| rw);
        if s.reward != reward {
            return Err(format!(
                "step {step}: reward {} reference {reward}",
                s.reward
            ));
        }
        cov.rewards += usize::from(reward != 0.0);
        r.fold(s.seen, cov)?;
        check_lives(&r.state, step, 1)?;
        let end = ends
            .next_if(|&&(st, _, _)| st == step)
            .map_or((false, false), |&(_, te, tr)| (te, tr));
        if (s.terminated, s.truncated) != end {
            return Err(format!(
                "step {step}: terminated/truncated {}/{}, reference {}/{}",
                s.terminated, s.truncated, end.0, end.1
            ));
        }
        if s.terminated || s.truncated {
            cov.terminations += usize::from(s.terminated);
            cov.truncations += usize::from(s.truncated);
            let seen = r.stepper.reset(None)?;
            r.fold(seen, cov)?;
            check_lives(&r.state, step, 2)?;
        }
        check_point(&r, step, cov)?;
        cov.steps += 1;
    }
    if checkpoints.next().is_some() || rewards.next().is_some() || ends.next().is_some() {
        return Err("the golden file has entries past the last step".into());
    }
    Ok(())
}

/// Puts every supported ROM among `files` on the shelf; returns the games shelved.
pub fn shelve<'a>(files: impl IntoIterator<Item = &'a [u8]>) -> Vec<&'static str> {
    files
        .into_iter()
        .filter_map(|bytes| envs::atari::roms::add_rom(bytes).ok())
        .map(|g| g.name)
        .collect()
}

/// Puts the test ROMs on the shelf — natively from `.cache/` (fetching the ale-py wheel
/// if needed), in wasm from the build's embedded copy — and returns the games shelved.
/// `Err` says why there are none: the tests that need them fail, never skip.
pub fn shelve_test_roms() -> Result<Vec<&'static str>, String> {
    #[cfg(not(target_arch = "wasm32"))]
    let games = shelve(roms::rom_files()?.iter().map(|(_, b)| b.as_slice()));
    #[cfg(target_arch = "wasm32")]
    let games = shelve(EMBEDDED_ROMS.iter().map(|(_, b)| *b));
    if games.is_empty() {
        return Err(format!(
            "no supported Atari ROM could be had for the tests{}",
            if EMBEDDED_ROMS_MISSING.is_empty() || !cfg!(target_arch = "wasm32") {
                String::new()
            } else {
                format!(": {EMBEDDED_ROMS_MISSING}")
            }
        ));
    }
    Ok(games)
}

#[cfg(not(target_arch = "wasm32"))]
pub mod roms;
