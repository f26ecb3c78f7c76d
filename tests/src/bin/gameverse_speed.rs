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

use std::process::Command;
use std::time::{Duration, Instant};

use envs::{Action, Frame};
use playbench_tests::speed::{
    cell, option, ratio, reference_or_none, run_reference, seconds, Figure, Picker,
};
use serde_json::Map;

const GAMES: [(&str, &str, [&str; 4]); 3] = [
    ("2048", "GameVerse/2048", ["up", "down", "left", "right"]),
    ("Maze", "GameVerse/Maze", ["up", "down", "left", "right"]),
    ("Snake", "GameVerse/Snake", ["L", "R", "U", "D"]),
];

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

/// The reference's figures by game, from speed.py.
fn reference(root: &std::path::Path, seconds: f64) -> Result<Vec<Figure>, String> {
    let python = root.join(option("--python").unwrap_or(".cache/venv-gameverse/bin/python".into()));
    let checkout = root.join(option("--reference").unwrap_or(".cache/gameverse-ref".into()));
    let mut cmd = Command::new(python);
    cmd.arg(root.join("tests/golden/gameverse/speed.py"))
        .arg(&checkout)
        .arg(seconds.to_string())
        .env("SDL_VIDEODRIVER", "dummy")
        .env("SDL_AUDIODRIVER", "dummy");
    run_reference(cmd, None, "game")
}

fn main() {
    let seconds = seconds();
    let root = playbench_tests::repo_root();
    let reference = reference_or_none("GameVerse's environments", || reference(&root, seconds));
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
        let theirs = reference
            .iter()
            .find(|f| f.name == name)
            .map(|f| f.steps_per_s);
        println!(
            "{name:<6} {plain:>14.0} {framed:>18.0} {:>16} {:>10} {:>14}",
            cell(theirs),
            ratio(plain, theirs),
            ratio(framed, theirs)
        );
    }
}
