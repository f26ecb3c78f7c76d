//! `cargo run --release -p playbench-tests --bin bench -- --reference`: steps/s and
//! frames/s of every Toy Text, Classic Control and MiniGrid id, of Tetris, FlappyBird
//! and Highway, and of the Atari games (as `-v5` and one frame a step, `-emulation`),
//! natively and in headless Chromium (wasm, the app's build profile), against the
//! reference measured live in the same run (`tests/golden/speed.py`, the packages below
//! in `.cache/venv-reference`, made on first use; the Atari ROMs from the ale-py wheel,
//! as for the golden tests). Repetitions interleave the three sides
//! (reference, native, wasm), all pinned to one core; the table gives the ratios' min
//! and median over repetitions, then the worst environment per family and the machine.
//! The figures go to `target/bench/speed.json`, a chart per family beside them.
//!
//! Options: `--reference` (without it, ours only); `--reps N` (default 3); `--only S,T`
//! (cases whose name contains S or T); `--native-only` (no browser); `--core N` (the core
//! to pin to, default the last). The browser half needs wasm-bindgen-test-runner and
//! CHROMEDRIVER (`scripts/tools.sh`).
//!
//! `--turns` measures instead the app's own work per model request (render, encode,
//! request body; reading the answer) for V-ICAL, VisGym and GameVerse tasks and image
//! settings, natively and in wasm, with the bytes sent per request
//! (`tests/src/bench/turns.rs`); figures to `target/bench/turns.json`.
//!
//! `--first-load` builds the app in release mode and measures its first load in headless
//! Chromium: the bytes each page downloads before its first frame (gzipped) and the time
//! from navigation to that frame, cold and warm (`tests/e2e/load-bench.mjs`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use playbench_tests::bench::report::{
    chart_svg, collect, families, table, worst_per_family, Repetition,
};
use playbench_tests::bench::turns::{
    measure_turns, turn_cases_matching, turn_table, TurnFigures, REQUESTS,
};
use playbench_tests::bench::{
    cases_matching, measure, needs_roms, BenchCase, Measured, SECONDS, WARM_UP_NATIVE,
};
use playbench_tests::speed::{flag, option, run_reference, wasm_bench_command, Figure};
use serde_json::json;

/// The reference packages, pinned as the golden data's (`docs/golden-data.md`,
/// `tests/golden/thirdparty/generate.py`).
const REFERENCE_PACKAGES: [&str; 8] = [
    "gymnasium==1.4.0",
    "minigrid==3.2.0",
    "numpy==2.4.6",
    "pygame==2.6.1",
    "tetris-gymnasium==0.3.1",
    "flappy-bird-gymnasium==0.4.0",
    "pandas==3.1.1",
    "ale-py==0.12.1",
];
/// Installed without its dependencies: it asks for pygame-ce, which installs the same
/// `pygame` module as pygame (the golden data's environment does the same).
const REFERENCE_NO_DEPS: &str = "highway-env==1.12.1";

/// Pins this process, and so everything it starts, to one core.
fn pin_to_one_core(cores: usize) -> Result<usize, String> {
    let core = option("--core")
        .and_then(|c| c.parse().ok())
        .unwrap_or(cores - 1);
    let status = Command::new("taskset")
        .args([
            "-p",
            "-c",
            &core.to_string(),
            &std::process::id().to_string(),
        ])
        .stdout(std::process::Stdio::null())
        .status()
        .map_err(|e| format!("cannot run taskset: {e}"))?;
    if !status.success() {
        return Err(format!("taskset could not pin to core {core}"));
    }
    Ok(core)
}

/// The reference's Python, installing its packages into an ignored folder when missing.
fn reference_python(root: &Path) -> Result<PathBuf, String> {
    let venv = root.join(".cache/venv-reference");
    let python = venv.join("bin/python");
    let marker = venv.join("playbench-packages.txt");
    let wanted = format!("{}\n{REFERENCE_NO_DEPS}", REFERENCE_PACKAGES.join("\n"));
    if std::fs::read_to_string(&marker).ok().as_deref() == Some(wanted.as_str()) {
        return Ok(python);
    }
    eprintln!("installing the reference into .cache/venv-reference: {wanted:?}...");
    let run = |cmd: &mut Command| -> Result<(), String> {
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "{cmd:?} failed:\n{}",
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    };
    run(Command::new("python3").args(["-m", "venv"]).arg(&venv))?;
    run(Command::new(&python)
        .args(["-m", "pip", "install", "--quiet"])
        .args(REFERENCE_PACKAGES))?;
    run(Command::new(&python)
        .args(["-m", "pip", "install", "--quiet", "--no-deps"])
        .arg(REFERENCE_NO_DEPS))?;
    std::fs::write(&marker, wanted).map_err(|e| e.to_string())?;
    Ok(python)
}

fn reference_figures(
    root: &Path,
    python: &Path,
    cases: &[&BenchCase],
) -> Result<Vec<Figure>, String> {
    let mut cmd = Command::new(python);
    // No dummy video driver: highway-env then draws blank frames (the `rgb_array` frames
    // of the others need no display either way).
    cmd.arg(root.join("tests/golden/speed.py"))
        .env_remove("SDL_VIDEODRIVER")
        .env("SDL_AUDIODRIVER", "dummy");
    let job = json!({
        "seconds": SECONDS,
        "cases": cases.iter().map(|c| c.to_json()).collect::<Vec<_>>(),
    });
    run_reference(cmd, Some(job.to_string()), "env")
}

fn native_figures(cases: &[&BenchCase]) -> Vec<Measured> {
    let origin = Instant::now();
    let now = || origin.elapsed().as_secs_f64();
    cases
        .iter()
        .filter_map(|case| {
            measure(case, SECONDS, WARM_UP_NATIVE, &now)
                .map_err(|e| eprintln!("{}: {e}", case.name))
                .ok()
        })
        .collect()
}

fn browser_figures(only: Option<&str>) -> Result<Vec<Measured>, String> {
    browser_lines("wasm_bench", "BENCH ", only)
}

/// Runs a browser half of the benchmark and reads the JSON after `prefix` on each line.
fn browser_lines<T: serde::de::DeserializeOwned>(
    test: &str,
    prefix: &str,
    only: Option<&str>,
) -> Result<Vec<T>, String> {
    let mut cmd = wasm_bench_command(test);
    // The whole browser run is one test; the runner's default limit is 20 s.
    cmd.env("WASM_BINDGEN_TEST_TIMEOUT", "1800")
        // Read when the browser half is compiled (`tests/tests/wasm_bench.rs`,
        // `wasm_turns.rs`).
        .env("PLAYBENCH_BENCH_ONLY", only.unwrap_or(""));
    let out = cmd.output().map_err(|e| format!("cannot run cargo: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let figures: Vec<T> = stdout
        .lines()
        .filter_map(|l| l.trim().strip_prefix(prefix))
        .filter_map(|json| serde_json::from_str(json).ok())
        .collect();
    if figures.is_empty() {
        return Err(format!(
            "the browser run printed no figures:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(figures)
}

/// CPU model, cores, kernel, and the browser's version.
fn machine(cores: usize, core: Option<usize>) -> serde_json::Value {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name")?.split(':').nth(1))
        .map_or("unknown".into(), |m| m.trim().to_string());
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map_or("unknown".into(), |k| k.trim().to_string());
    let browser = Command::new("chromium")
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    json!({
        "cpu": cpu,
        "cores": cores,
        "pinned_core": core,
        "kernel": kernel,
        "browser": browser,
    })
}

/// `--turns`: the app's work per model request, natively and in the browser.
fn turns(root: &Path, only: Option<&str>) {
    let cases = turn_cases_matching(only);
    if cases.is_empty() {
        eprintln!("no case matches --only {only:?}");
        std::process::exit(2);
    }
    let origin = Instant::now();
    let now = || origin.elapsed().as_secs_f64() * 1000.0;
    eprintln!("native: {} cases...", cases.len());
    let native: Vec<TurnFigures> = cases
        .iter()
        .filter_map(|c| {
            measure_turns(c, REQUESTS, &now)
                .map_err(|e| eprintln!("{e}"))
                .ok()
        })
        .collect();
    let wasm = if flag("--native-only") {
        Vec::new()
    } else {
        eprintln!("wasm in headless Chromium...");
        browser_lines::<TurnFigures>("wasm_turns", "TURNS ", only).unwrap_or_else(|e| {
            eprintln!("{e}");
            Vec::new()
        })
    };
    print!("{}", turn_table(&native, &wasm));
    let out = root.join("target/bench");
    let record = json!({"requests_per_case": REQUESTS, "native": native, "wasm": wasm});
    match std::fs::create_dir_all(&out)
        .and_then(|()| std::fs::write(out.join("turns.json"), format!("{record:#}\n")))
    {
        Ok(()) => println!("figures: target/bench/turns.json"),
        Err(e) => eprintln!("cannot write target/bench: {e}"),
    }
}

/// `--first-load`: the release build's first load in the browser; exits as the
/// measurement does (1 when the first load is over its target).
fn first_load(root: &Path) -> ! {
    let script = "source scripts/tools.sh && ensure_build_tools && ensure_test_tools \
        && cargo fetch --locked >/dev/null \
        && trunk build --config trunk.toml --release --offline --locked \
        && node tests/e2e/load-bench.mjs";
    match Command::new("bash")
        .args(["-c", script])
        .current_dir(root)
        .status()
    {
        Ok(status) => std::process::exit(status.code().unwrap_or(1)),
        Err(e) => {
            eprintln!("cannot run bash: {e}");
            std::process::exit(1);
        }
    }
}

fn main() {
    let root = playbench_tests::repo_root();
    let only = option("--only");
    if flag("--turns") {
        turns(&root, only.as_deref());
        return;
    }
    if flag("--first-load") {
        first_load(&root);
    }
    let cases = cases_matching(only.as_deref());
    if cases.is_empty() {
        eprintln!("no case matches --only {only:?}");
        std::process::exit(2);
    }
    if needs_roms(&cases) {
        if let Err(e) = playbench_tests::atari::shelve_test_roms() {
            eprintln!("the Atari cases need the ale-py wheel's ROMs: {e}");
            std::process::exit(1);
        }
    }
    let reps: usize = option("--reps")
        .and_then(|r| r.parse().ok())
        .unwrap_or(3)
        .max(1);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let core = pin_to_one_core(cores)
        .map_err(|e| eprintln!("{e}; measuring unpinned"))
        .ok();
    let python = if flag("--reference") {
        match reference_python(&root) {
            Ok(p) => Some(p),
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    } else {
        None
    };
    let mut repetitions = Vec::new();
    for rep in 1..=reps {
        let mut r = Repetition::default();
        if let Some(python) = &python {
            eprintln!(
                "repetition {rep}/{reps}: the reference, {} cases...",
                cases.len()
            );
            r.reference = reference_figures(&root, python, &cases).unwrap_or_else(|e| {
                eprintln!("{e}");
                Vec::new()
            });
        }
        eprintln!("repetition {rep}/{reps}: native...");
        r.native = native_figures(&cases);
        if !flag("--native-only") {
            eprintln!("repetition {rep}/{reps}: wasm in headless Chromium...");
            r.wasm = browser_figures(only.as_deref()).unwrap_or_else(|e| {
                eprintln!("{e}");
                Vec::new()
            });
        }
        repetitions.push(r);
    }
    let figures = collect(&cases, &repetitions);
    let machine = machine(cores, core);
    print!("{}", table(&figures));
    print!("{}", worst_per_family(&figures));
    println!("machine: {machine}");
    if python.is_none() {
        println!("(no reference measured: run with --reference for the ratios)");
    }
    let out = root.join("target/bench");
    let written = std::fs::create_dir_all(&out).and_then(|()| {
        let record = json!({
            "seconds_per_mode": SECONDS,
            "repetitions": reps,
            "machine": machine,
            "reference": if python.is_some() { json!([&REFERENCE_PACKAGES[..], &[REFERENCE_NO_DEPS]].concat()) } else { json!(null) },
            "cases": figures,
        });
        std::fs::write(out.join("speed.json"), format!("{record:#}\n"))?;
        for family in families(&figures) {
            let file = family.to_lowercase().replace(' ', "-");
            std::fs::write(out.join(format!("{file}.svg")), chart_svg(family, &figures))?;
        }
        Ok(())
    });
    match written {
        Ok(()) => println!("figures: target/bench/speed.json, charts: target/bench/*.svg"),
        Err(e) => eprintln!("cannot write target/bench: {e}"),
    }
}
