//! `cargo run --release -p playbench-tests --bin atari_speed`: emulated frames per second
//! of the Atari games natively, in headless Chromium (wasm) and in ale-py (its C++ core),
//! timed in the same run, with the ratios. The workloads are in
//! `playbench_tests::atari::speed` (and `tests/golden/atari/speed.py` for ale-py).
//!
//! Options: `--games all` or `--games Breakout,Pong` (default: five games), `--seconds S`
//! per measurement (default 1), `--rounds N` (best of, default 3), `--native-only`
//! (neither browser nor ale-py), `--no-wasm`, `--no-ale`. The ROMs come from the ale-py
//! wheel in `.cache/` (as for the golden tests); ale-py runs in `.cache/venv-atari`,
//! which is created with the pinned packages of `tests/golden/atari/generate.py` when
//! missing. The browser half needs wasm-bindgen-test-runner and CHROMEDRIVER
//! (scripts/tools.sh).

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use playbench_tests::atari::shelve_test_roms;
use playbench_tests::atari::speed::{best_of, Speed, Workload, DEFAULT_GAMES};
use playbench_tests::speed::{flag, option, wasm_bench_command};

/// The packages of `tests/golden/atari/generate.py`.
const ALE_PACKAGES: [&str; 3] = ["ale-py==0.12.1", "gymnasium==1.2.2", "numpy==2.4.6"];

fn run(cmd: &mut Command) -> Result<String, String> {
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{cmd:?}: {}\n{}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `.cache/venv-atari/bin/python`, created when missing.
fn ale_python() -> Result<PathBuf, String> {
    let venv = playbench_tests::repo_root().join(".cache/venv-atari");
    let python = venv.join("bin/python");
    if !python.exists() {
        eprintln!("creating {} with {ALE_PACKAGES:?}...", venv.display());
        run(Command::new("python3").arg("-m").arg("venv").arg(&venv))?;
        run(Command::new(&python)
            .args(["-m", "pip", "install", "-q"])
            .args(ALE_PACKAGES))?;
    }
    Ok(python)
}

fn parse(lines: &str, prefix: &str) -> Vec<Speed> {
    lines
        .lines()
        .filter_map(|l| l.trim().strip_prefix(prefix))
        .filter_map(|json| serde_json::from_str(json).ok())
        .collect()
}

fn ale_py(games: &[String], seconds: f64, rounds: usize) -> Result<Vec<Speed>, String> {
    let python = ale_python()?;
    let out = run(Command::new(python)
        .arg(playbench_tests::repo_root().join("tests/golden/atari/speed.py"))
        .arg(seconds.to_string())
        .arg(rounds.to_string())
        .args(games))?;
    Ok(parse(&out, ""))
}

fn browser(games: &[String], seconds: f64, rounds: usize) -> Result<Vec<Speed>, String> {
    let out = wasm_bench_command("atari_wasm_bench")
        .env("ATARI_SPEED_GAMES", games.join(","))
        .env("ATARI_SPEED_SECONDS", seconds.to_string())
        .env("ATARI_SPEED_ROUNDS", rounds.to_string())
        // The whole browser run is one test; the runner's default limit is 20 s.
        .env("WASM_BINDGEN_TEST_TIMEOUT", "3600")
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let figures = parse(&stdout, "ATARI_SPEED ");
    if figures.is_empty() {
        return Err(format!(
            "the browser run printed no figures:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(figures)
}

fn find(figures: &[Speed], game: &str, workload: Workload) -> Option<f64> {
    figures
        .iter()
        .find(|s| s.game == game && s.workload == workload)
        .map(|s| s.frames_per_s)
}

fn main() {
    let games: Vec<String> = match option("--games").as_deref() {
        Some("all") => envs::atari::AtariEnv::supported_games()
            .map(|g| g.name.to_string())
            .collect(),
        Some(list) => list.split(',').map(str::to_string).collect(),
        None => DEFAULT_GAMES.iter().map(|g| g.to_string()).collect(),
    };
    let seconds: f64 = option("--seconds")
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let rounds: usize = option("--rounds").and_then(|s| s.parse().ok()).unwrap_or(3);
    if let Err(e) = shelve_test_roms() {
        eprintln!("no ROMs: {e}");
        std::process::exit(1);
    }
    let origin = Instant::now();
    let now = || origin.elapsed().as_secs_f64();
    eprintln!("native ({seconds} s × {rounds} per game and workload)...");
    let mut native = Vec::new();
    for game in &games {
        for workload in Workload::ALL {
            match best_of(rounds, game, workload, seconds, &now) {
                Ok(s) => native.push(s),
                Err(e) => eprintln!("{game} {}: {e}", workload.name()),
            }
        }
    }
    let skip = |f: &str| flag("--native-only") || flag(f);
    let ale = if skip("--no-ale") {
        Vec::new()
    } else {
        eprintln!("ale-py...");
        ale_py(&games, seconds, rounds).unwrap_or_else(|e| {
            eprintln!("{e}");
            Vec::new()
        })
    };
    let wasm = if skip("--no-wasm") {
        Vec::new()
    } else {
        eprintln!("headless Chromium (builds the wasm benchmark first)...");
        browser(&games, seconds, rounds).unwrap_or_else(|e| {
            eprintln!("{e}");
            Vec::new()
        })
    };
    let cell = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.0}"));
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => format!("{:.2}", a / b),
        _ => "-".to_string(),
    };
    println!(
        "{:<17} {:<9} {:>11} {:>11} {:>11} {:>11} {:>11}",
        "game", "workload", "native f/s", "wasm f/s", "ale-py f/s", "native/ale", "wasm/ale"
    );
    let mut sums = [(0.0, 0usize); 2];
    for game in &games {
        for workload in Workload::ALL {
            let (n, w, a) = (
                find(&native, game, workload),
                find(&wasm, game, workload),
                find(&ale, game, workload),
            );
            println!(
                "{game:<17} {:<9} {:>11} {:>11} {:>11} {:>11} {:>11}",
                workload.name(),
                cell(n),
                cell(w),
                cell(a),
                ratio(n, a),
                ratio(w, a)
            );
            for (i, v) in [n, w].into_iter().enumerate() {
                if let (Some(v), Some(a)) = (v, a) {
                    sums[i].0 += (v / a).ln();
                    sums[i].1 += 1;
                }
            }
        }
    }
    let mean = |(s, k): (f64, usize)| {
        if k == 0 {
            "-".to_string()
        } else {
            format!("{:.2}", (s / k as f64).exp())
        }
    };
    println!(
        "geometric mean of the ratios: native/ale {}, wasm/ale {}",
        mean(sums[0]),
        mean(sums[1])
    );
}
