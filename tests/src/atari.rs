//! Atari golden replays: the traces of `tests/golden/atari/generate.py` (ale-py 0.12.1)
//! replayed through `envs::atari` with the same ROM, checking actions' rewards, lives,
//! episode ends, frame counters, RAM and every screen (through the hash chain the
//! generator describes).
//!
//! ROMs are not in the repository: [`roms`] extracts them from the ale-py wheel into the
//! ignored `.cache/` folder (natively); a wasm run must be handed the ROM bytes.

use envs::atari::{AtariConfig, AtariEnv, Game};
use flate2::read::GzDecoder;
use serde::Deserialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::io::Read;

/// Every Atari golden file (gzipped JSON), by Gymnasium game name.
pub const ATARI_GOLDEN: &[(&str, &[u8])] = &[
    ("Alien", include_bytes!("../golden/atari/Alien.json.gz")),
    ("Amidar", include_bytes!("../golden/atari/Amidar.json.gz")),
    ("Asterix", include_bytes!("../golden/atari/Asterix.json.gz")),
    (
        "BattleZone",
        include_bytes!("../golden/atari/BattleZone.json.gz"),
    ),
    ("Berzerk", include_bytes!("../golden/atari/Berzerk.json.gz")),
    ("Boxing", include_bytes!("../golden/atari/Boxing.json.gz")),
    (
        "Breakout",
        include_bytes!("../golden/atari/Breakout.json.gz"),
    ),
    ("Enduro", include_bytes!("../golden/atari/Enduro.json.gz")),
    ("Freeway", include_bytes!("../golden/atari/Freeway.json.gz")),
    (
        "Frostbite",
        include_bytes!("../golden/atari/Frostbite.json.gz"),
    ),
    (
        "Kangaroo",
        include_bytes!("../golden/atari/Kangaroo.json.gz"),
    ),
    (
        "MontezumaRevenge",
        include_bytes!("../golden/atari/MontezumaRevenge.json.gz"),
    ),
    (
        "MsPacman",
        include_bytes!("../golden/atari/MsPacman.json.gz"),
    ),
    ("Pong", include_bytes!("../golden/atari/Pong.json.gz")),
    ("Qbert", include_bytes!("../golden/atari/Qbert.json.gz")),
    (
        "Riverraid",
        include_bytes!("../golden/atari/Riverraid.json.gz"),
    ),
    (
        "RoadRunner",
        include_bytes!("../golden/atari/RoadRunner.json.gz"),
    ),
    (
        "Seaquest",
        include_bytes!("../golden/atari/Seaquest.json.gz"),
    ),
    (
        "SpaceInvaders",
        include_bytes!("../golden/atari/SpaceInvaders.json.gz"),
    ),
    ("Tennis", include_bytes!("../golden/atari/Tennis.json.gz")),
];

#[derive(Deserialize)]
struct AtariGolden {
    game: String,
    traces: Vec<Trace>,
}

#[derive(Deserialize)]
struct Trace {
    seed: u64,
    kwargs: serde_json::Map<String, Value>,
    steps: usize,
    reseed: (usize, u64),
    actions: String,
    rewards: Vec<(usize, f64)>,
    lives: Vec<(usize, u8, i32)>,
    ends: Vec<(usize, bool, bool)>,
    checkpoints: Vec<Checkpoint>,
}

#[derive(Deserialize)]
struct Checkpoint {
    step: usize,
    chain: String,
    frame_number: u32,
    episode_frame_number: u32,
    gray: String,
    ram: Option<String>,
}

/// What a replay covered.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct AtariCoverage {
    pub steps: usize,
    pub screens: usize,
    pub rewards: usize,
    pub terminations: usize,
    pub truncations: usize,
    pub ram_checks: usize,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Replays a golden file's traces with `rom`; `Err` names the first mismatch.
pub fn check_atari_golden(gz: &[u8], rom: &[u8]) -> Result<AtariCoverage, String> {
    let mut json = String::new();
    GzDecoder::new(gz)
        .read_to_string(&mut json)
        .map_err(|e| format!("golden file: {e}"))?;
    let golden: AtariGolden =
        serde_json::from_str(&json).map_err(|e| format!("golden file: {e}"))?;
    let mut cov = AtariCoverage::default();
    for trace in &golden.traces {
        replay_trace(trace, rom, &mut cov)
            .map_err(|e| format!("{} seed {}: {e}", golden.game, trace.seed))?;
    }
    Ok(cov)
}

struct Replay {
    env: AtariEnv,
    chain: [u8; 32],
    rgb: Vec<u8>,
    gray: Vec<u8>,
}

impl Replay {
    /// chain = SHA-256(chain || SHA-256(RGB screen) || RAM)
    fn fold(&mut self, cov: &mut AtariCoverage) {
        self.env.screen_rgb_bytes(&mut self.rgb);
        let screen = Sha256::digest(&self.rgb);
        let mut h = Sha256::new();
        h.update(self.chain);
        h.update(screen);
        h.update(self.env.ram());
        self.chain = h.finalize().into();
        cov.screens += 1;
    }
}

fn config_for(kwargs: &serde_json::Map<String, Value>) -> Result<AtariConfig, String> {
    let mut config = AtariConfig::default();
    for (key, value) in kwargs {
        match key.as_str() {
            "full_action_space" => {
                config.full_action_space = value.as_bool().ok_or("full_action_space")?
            }
            "max_num_frames_per_episode" => {
                config.max_num_frames_per_episode =
                    value.as_u64().ok_or("max_num_frames_per_episode")? as u32
            }
            other => return Err(format!("unknown keyword argument {other}")),
        }
    }
    Ok(config)
}

fn replay_trace(trace: &Trace, rom: &[u8], cov: &mut AtariCoverage) -> Result<(), String> {
    let config = config_for(&trace.kwargs)?;
    let env = AtariEnv::new(rom, config).map_err(|e| e.to_string())?;
    let mut r = Replay {
        env,
        chain: [0; 32],
        rgb: Vec::new(),
        gray: Vec::new(),
    };
    let actions: Vec<usize> = trace
        .actions
        .chars()
        .map(|c| c.to_digit(18).map(|d| d as usize).ok_or("bad action"))
        .collect::<Result<_, _>>()?;
    if actions.len() != trace.steps {
        return Err("action count differs from the step count".into());
    }
    let mut lives = trace.lives.iter().peekable();
    let mut expected_lives = 0;
    let mut check_lives = |env: &AtariEnv, step: usize, phase: u8| -> Result<(), String> {
        if let Some(&&(s, p, l)) = lives.peek() {
            if (s, p) == (step, phase) {
                expected_lives = l;
                lives.next();
            }
        }
        if env.lives() != expected_lives {
            return Err(format!(
                "step {step} phase {phase}: lives {} reference {expected_lives}",
                env.lives()
            ));
        }
        Ok(())
    };
    let mut checkpoints = trace.checkpoints.iter().peekable();
    let mut check_point =
        |r: &mut Replay, step: usize, cov: &mut AtariCoverage| -> Result<(), String> {
            let Some(cp) = checkpoints.peek() else {
                return Ok(());
            };
            if cp.step != step {
                return Ok(());
            }
            let cp = checkpoints.next().ok_or("checkpoint")?;
            if let Some(ram) = &cp.ram {
                let mine = hex(r.env.ram());
                if &mine != ram {
                    let diffs: Vec<String> = (0..128)
                        .filter(|&i| mine[2 * i..2 * i + 2] != ram[2 * i..2 * i + 2])
                        .map(|i| format!("{:02x}", 0x80 + i))
                        .collect();
                    return Err(format!("step {step}: RAM differs at {}", diffs.join(" ")));
                }
                cov.ram_checks += 1;
            }
            let chain = hex(&r.chain[..8]);
            if chain != cp.chain {
                return Err(format!(
                    "step {step}: screens/RAM differ within the last checkpoint interval"
                ));
            }
            if (r.env.frame_number(), r.env.episode_frame_number())
                != (cp.frame_number, cp.episode_frame_number)
            {
                return Err(format!(
                    "step {step}: frame numbers {}/{}, reference {}/{}",
                    r.env.frame_number(),
                    r.env.episode_frame_number(),
                    cp.frame_number,
                    cp.episode_frame_number
                ));
            }
            r.env.screen_grayscale(&mut r.gray);
            if hex(&Sha256::digest(&r.gray)[..8]) != cp.gray {
                return Err(format!("step {step}: grayscale screen differs"));
            }
            Ok(())
        };

    r.env.reset(Some(trace.seed));
    r.fold(cov);
    check_lives(&r.env, 0, 0)?;
    check_point(&mut r, 0, cov)?;
    let mut rewards = trace.rewards.iter().peekable();
    let mut ends = trace.ends.iter().peekable();
    for (i, &action) in actions.iter().enumerate() {
        let step = i + 1;
        if step == trace.reseed.0 {
            r.env.reset(Some(trace.reseed.1));
            r.fold(cov);
            check_lives(&r.env, step, 0)?;
        }
        let s = r.env.step(action).map_err(|e| e.to_string())?;
        let reward = match rewards.peek() {
            Some(&&(st, rw)) if st == step => {
                rewards.next();
                rw
            }
            _ => 0.0,
        };
        if s.reward != reward {
            return Err(format!(
                "step {step}: reward {} reference {reward}",
                s.reward
            ));
        }
        cov.rewards += usize::from(reward != 0.0);
        check_lives(&r.env, step, 1)?;
        r.fold(cov);
        let end = match ends.peek() {
            Some(&&(st, te, tr)) if st == step => {
                ends.next();
                (te, tr)
            }
            _ => (false, false),
        };
        if (s.terminated, s.truncated) != end {
            return Err(format!(
                "step {step}: terminated/truncated {}/{}, reference {}/{}",
                s.terminated, s.truncated, end.0, end.1
            ));
        }
        if s.terminated || s.truncated {
            cov.terminations += usize::from(s.terminated);
            cov.truncations += usize::from(s.truncated);
            r.env.reset(None);
            r.fold(cov);
            check_lives(&r.env, step, 2)?;
        }
        check_point(&mut r, step, cov)?;
        cov.steps += 1;
    }
    if checkpoints.next().is_some() || rewards.next().is_some() || ends.next().is_some() {
        return Err("the golden file has entries past the last step".into());
    }
    Ok(())
}

/// The game a golden file name refers to.
pub fn game(name: &str) -> Option<&'static Game> {
    AtariEnv::game_by_name(name)
}

#[cfg(not(target_arch = "wasm32"))]
pub mod roms;
