//! The Atari speed workloads, the same natively, in the browser (wasm) and in ale-py
//! (`tests/golden/atari/speed.py`): random actions of the game's minimal set from a
//! fixed generator, sticky actions on, an episode end followed by a reset inside the
//! timed loop, for about `seconds` of wall time by an injected clock.
//!
//! * [`Workload::Emulation`]: one frame per step (ALE's `act` with frame skip 1) and the
//!   RAM as the observation: the emulator and ALE's per-frame work.
//! * [`Workload::V5`]: `ALE/<Game>-v5` as registered (frame skip 4) with the RGB
//!   observation of every step (210×160×3 bytes, as ale-py returns it).
//!
//! Frames per second count `frameskip` frames per step, on both sides alike.

use envs::Action;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Workload {
    Emulation,
    V5,
}

impl Workload {
    pub const ALL: [Workload; 2] = [Workload::Emulation, Workload::V5];

    pub fn kwargs(self) -> Map<String, Value> {
        let v = match self {
            Workload::Emulation => json!({"frameskip": 1, "obs_type": "ram"}),
            Workload::V5 => json!({}),
        };
        v.as_object().cloned().unwrap_or_default()
    }

    pub fn frameskip(self) -> u64 {
        match self {
            Workload::Emulation => 1,
            Workload::V5 => 4,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Workload::Emulation => "emulation",
            Workload::V5 => "v5",
        }
    }
}

/// One measurement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Speed {
    pub game: String,
    pub workload: Workload,
    pub frames_per_s: f64,
}

/// The games measured by default: paddles (Breakout, Pong) and joysticks, 2K to 8K
/// cartridges.
pub const DEFAULT_GAMES: [&str; 5] = ["Breakout", "Pong", "Seaquest", "MsPacman", "SpaceInvaders"];

/// A fixed sequence of choices (no entropy: an LCG).
struct Picker(u64);

impl Picker {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }
}

/// Emulated frames per second of `ALE/<game>-v5` under `workload`, for about `seconds`
/// of `now` (seconds).
pub fn frames_per_second(
    game: &str,
    workload: Workload,
    seconds: f64,
    now: &dyn Fn() -> f64,
) -> Result<Speed, String> {
    let id = format!("ALE/{game}-v5");
    let mut env = envs::make(&id, &workload.kwargs()).map_err(|e| e.to_string())?;
    let n = env.action_names().len();
    env.reset(Some(1));
    let mut picker = Picker(1);
    let mut steps = 0u64;
    let start = now();
    let mut elapsed = 0.0;
    while elapsed < seconds {
        for _ in 0..32 {
            let s = env
                .step(Action::Index(picker.next(n)))
                .map_err(|e| format!("{id}: {e}"))?;
            steps += 1;
            if s.terminated || s.truncated {
                env.reset(None);
            }
        }
        elapsed = now() - start;
    }
    Ok(Speed {
        game: game.to_string(),
        workload,
        frames_per_s: (steps * workload.frameskip()) as f64 / elapsed,
    })
}

/// The best of `rounds` measurements.
pub fn best_of(
    rounds: usize,
    game: &str,
    workload: Workload,
    seconds: f64,
    now: &dyn Fn() -> f64,
) -> Result<Speed, String> {
    let mut best: Option<Speed> = None;
    for _ in 0..rounds.max(1) {
        let s = frames_per_second(game, workload, seconds, now)?;
        if best
            .as_ref()
            .is_none_or(|b| s.frames_per_s > b.frames_per_s)
        {
            best = Some(s);
        }
    }
    best.ok_or_else(|| "no round".into())
}
