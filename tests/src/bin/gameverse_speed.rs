//! `cargo run --release -p playbench-tests --bin gameverse_speed`: steps per second of
//! `GameVerse/2048`, `GameVerse/Maze` and `GameVerse/Snake` (Stop mode) next to
//! GameVerse's own environments, timed in the same run by
//! `tests/golden/gameverse/speed.py` (which says what a reference step includes).
//!
//! Options: `--seconds S` of stepping per game and side (default 2), `--python P` (default
//! `.cache/venv-gameverse/bin/python`), `--reference DIR` (the checkout, default
//! `.cache/gameverse-ref`), relative to the workspace root; `--native-only` skips the
//! reference. Our side plays random moves as reply texts through `envs::make` and the
//! `Env` trait and times the steps only (a finished episode is reset untimed), with and
//! without rendering the frame after each step (the reference's step renders it).

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use envs::{Action, Frame};
use serde_json::{Map, Value};

const GAMES: [(&str, &str, [&str; 4]); 3] = [
    ("2048", "GameVerse/2048", ["up", "down", "left", "right"]),
    ("Maze", "GameVerse/Maze", ["up", "down", "left", "right"]),
    ("Snake", "GameVerse/Snake", ["L", "R", "U", "D"]),
];

/// A fixed sequence of choices (no entropy: an LCG).
struct Picker(u64);

impl Picker {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Steps per second of one game, rendering after each step or not.
fn ours(id: &str, replies: &[&str], seconds: f64, render: bool) -> Result<f64, String> {
    let mut env = envs::make(id, &Map::new()).map_err(|e| e.to_string())?;
    env.reset(Some(0));
    let mut picker = Picker(0);
    let mut frame = Frame::default();
    let (mut steps, mut spent) = (0u64, Duration::ZERO);
    while spent.as_secs_f64() < seconds {
        let text = replies[picker.next(replies.len())].to_string();
        let t0 = Instant::now();
        let s = env
            .step(Action::Text(text))
            .map_err(|e| format!("{id}: {e}"))?;
        if render {
            env.render(&mut frame);
        }
        spent += t0.elapsed();
        steps += 1;
        if s.terminated || s.truncated {
            env.reset(None);
        }
    }
    Ok(steps as f64 / spent.as_secs_f64())
}

fn option(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// The reference's figures by game, from speed.py.
fn reference(root: &std::path::Path, seconds: f64) -> Result<Vec<(String, f64)>, String> {
    let python = root.join(option("--python").unwrap_or(".cache/venv-gameverse/bin/python".into()));
    let checkout = root.join(option("--reference").unwrap_or(".cache/gameverse-ref".into()));
    let out = Command::new(&python)
        .arg(root.join("tests/golden/gameverse/speed.py"))
        .arg(&checkout)
        .arg(seconds.to_string())
        .env("SDL_VIDEODRIVER", "dummy")
        .env("SDL_AUDIODRIVER", "dummy")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    let figures: Vec<(String, f64)> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| Some((v["game"].as_str()?.to_string(), v["steps_per_s"].as_f64()?)))
        .collect();
    if figures.is_empty() {
        return Err(format!(
            "the reference printed no figures:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(figures)
}

fn main() {
    let seconds = option("--seconds")
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let reference = if std::env::args().any(|a| a == "--native-only") {
        Vec::new()
    } else {
        eprintln!("timing GameVerse's environments ({seconds} s each)...");
        reference(&root, seconds).unwrap_or_else(|e| {
            eprintln!("{e}");
            Vec::new()
        })
    };
    println!(
        "{:<6} {:>14} {:>18} {:>16} {:>10} {:>14}",
        "game", "ours steps/s", "ours +frame /s", "reference /s", "ratio", "ratio +frame"
    );
    for (name, id, replies) in GAMES {
        let figures = (
            ours(id, &replies, seconds, false),
            ours(id, &replies, seconds, true),
        );
        let (plain, framed) = match figures {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) | (_, Err(e)) => {
                eprintln!("{e}");
                continue;
            }
        };
        let theirs = reference.iter().find(|(g, _)| g == name).map(|(_, v)| *v);
        let ratio = |ours: f64| theirs.map_or("-".to_string(), |t| format!("{:.0}×", ours / t));
        println!(
            "{name:<6} {plain:>14.0} {framed:>18.0} {:>16} {:>10} {:>14}",
            theirs.map_or("-".to_string(), |t| format!("{t:.0}")),
            ratio(plain),
            ratio(framed)
        );
    }
}
