//! Emulation speed against ale-py's C++ core, measured in the same run (ignored by
//! default; build optimised):
//!
//!     cargo test -p playbench-tests --release --test atari_bench -- --ignored --nocapture
//!
//! Per game, two workloads, each the best of three runs: raw emulation (ALE's `act`, one
//! frame per call, sticky actions on) and `ALE/<Game>-v5` steps with the RGB
//! observation. ale-py is timed by a short Python snippet in `.cache/venv-atari` (see
//! `tests/golden/atari/generate.py` for its setup); without it only our figures print.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]
#![cfg(not(target_arch = "wasm32"))]

use envs::atari::{AtariConfig, AtariEnv};
use playbench_tests::atari::roms;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

const GAMES: [&str; 5] = ["Breakout", "Pong", "Seaquest", "MsPacman", "SpaceInvaders"];
const FRAMES: usize = 40_000;
const ROUNDS: usize = 3;

/// Frames per second of `frames` emulated frames, stepping `frameskip` at a time.
fn ours(rom: &[u8], frameskip: u32, with_rgb: bool) -> f64 {
    let config = AtariConfig {
        frameskip,
        ..AtariConfig::default()
    };
    let mut env = AtariEnv::new(rom, config).unwrap();
    env.reset(Some(1));
    let n = env.action_set().len();
    let mut rgb = Vec::with_capacity(210 * 160 * 3);
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let steps = FRAMES / frameskip as usize;
    let start = Instant::now();
    for _ in 0..steps {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let s = env.step((x >> 33) as usize % n).unwrap();
        if with_rgb {
            env.screen_rgb_bytes(&mut rgb);
        }
        if s.terminated || s.truncated {
            env.reset(None);
        }
    }
    (steps * frameskip as usize) as f64 / start.elapsed().as_secs_f64()
}

const ALE_SNIPPET: &str = r#"
import sys, time
import numpy as np, gymnasium as gym, ale_py
gym.register_envs(ale_py)
game, frames, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
env = gym.make(f"ALE/{game}-v5")
env.reset(seed=1)
ale = env.unwrapped.ale
actions = env.unwrapped._action_set
rng = np.random.default_rng(0)
best_act, best_step = 0.0, 0.0
for _ in range(rounds):
    acts = [actions[i] for i in rng.integers(len(actions), size=frames)]
    t = time.perf_counter()
    for a in acts:
        ale.act(a)
        if ale.game_over():
            ale.reset_game()
    best_act = max(best_act, frames / (time.perf_counter() - t))
    idx = rng.integers(len(actions), size=frames // 4)
    t = time.perf_counter()
    for i in idx:
        _, _, te, tr, _ = env.step(int(i))
        if te or tr:
            env.reset()
    best_step = max(best_step, frames / (time.perf_counter() - t))
print(best_act, best_step)
"#;

fn ale_py(game: &str) -> Option<(f64, f64)> {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/venv-atari/bin/python");
    let out = Command::new(python)
        .args([
            "-c",
            ALE_SNIPPET,
            game,
            &FRAMES.to_string(),
            &ROUNDS.to_string(),
        ])
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().last()?;
    let mut it = line.split_whitespace().map(|v| v.parse::<f64>().ok());
    Some((it.next()??, it.next()??))
}

#[test]
#[ignore = "benchmark: run with --release -- --ignored --nocapture"]
fn atari_frames_per_second_against_ale_py() {
    println!(
        "{:<14} {:>12} {:>12} {:>7} {:>12} {:>12} {:>7}",
        "game", "ours act/s", "ale act/s", "ratio", "ours v5 f/s", "ale v5 f/s", "ratio"
    );
    for name in GAMES {
        let rom = roms::read_rom(AtariEnv::game_by_name(name).unwrap().id).unwrap();
        let best = |skip, rgb| {
            (0..ROUNDS)
                .map(|_| ours(&rom, skip, rgb))
                .fold(0.0, f64::max)
        };
        let (act, v5) = (best(1, false), best(4, true));
        match ale_py(name) {
            Some((ale_act, ale_v5)) => println!(
                "{name:<14} {act:>12.0} {ale_act:>12.0} {:>7.2} {v5:>12.0} {ale_v5:>12.0} {:>7.2}",
                act / ale_act,
                v5 / ale_v5
            ),
            None => println!("{name:<14} {act:>12.0} {:>12} {:>7} {v5:>12.0}", "-", "-"),
        }
    }
}
