//! `cargo run --release -q -p playbench-tests --bin bench -- --reference`: steps/s and
//! frames/s of every Toy Text, Classic Control, MiniGrid, VisGym and GameVerse id, of
//! Tetris, FlappyBird and Highway, and of the Atari games (as `-v5` and one frame a step,
//! `-emulation`), natively and in headless Chromium (wasm, the app's build profile),
//! against the reference measured live in the same run. The references are the pinned
//! Gymnasium packages and ale-py (`tests/golden/speed.py`), VisGym's and GameVerse's own
//! code (`tests/golden/visgym/speed.py`, `tests/golden/gameverse/speed.py`), each in a
//! virtual environment under `.cache/` made on first use ([`SETUPS`]); the two
//! repositories are exported there at their pinned commits (from a clone named by
//! `PLAYBENCH_VISGYM_GIT` / `PLAYBENCH_GAMEVERSE_GIT`, else cloned from GitHub); the
//! Atari ROMs come from the ale-py wheel, as for the golden tests. Repetitions interleave
//! the three sides (reference, native, wasm), all pinned to one core; the table gives the
//! ratios' min and median over repetitions, then the worst environment per family and the
//! machine. The figures go to `target/bench/speed.json`, a chart per family beside them.
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
    cases_matching, measure, needs_roms, BenchCase, Measured, Reference, SECONDS, WARM_UP_NATIVE,
};
use playbench_tests::speed::{
    flag, option, run_reference, unknown_argument, wasm_bench_command, Figure,
};
use serde_json::json;

/// A reference's Python side: a virtual environment under `.cache/` with pinned
/// packages, the script that measures it, and for VisGym and GameVerse their
/// repository's files at a pinned commit (neither is a package).
struct Setup {
    measures: &'static [Reference],
    venv: &'static str,
    packages: &'static [&'static str],
    /// Installed without their dependencies.
    no_deps: &'static [&'static str],
    script: &'static str,
    checkout: Option<Checkout>,
}

/// Files of a reference repository at a commit, exported into `.cache/<dir>`.
struct Checkout {
    dir: &'static str,
    /// The repository to export from: a clone's path or URL in this variable, else `url`.
    repo_variable: &'static str,
    url: &'static str,
    commit: &'static str,
    /// Paths (git pathspecs) to export.
    paths: &'static [&'static str],
}

const SETUPS: [Setup; 3] = [
    // The golden data's pins (`docs/golden-data.md`, `tests/golden/thirdparty/generate.py`).
    // highway-env asks for pygame-ce, which installs the same `pygame` module as pygame
    // (the golden data's environment does the same).
    Setup {
        measures: &[Reference::Gym, Reference::AleAct],
        venv: ".cache/venv-reference",
        packages: &[
            "gymnasium==1.4.0",
            "minigrid==3.2.0",
            "numpy==2.4.6",
            "pygame==2.6.1",
            "tetris-gymnasium==0.3.1",
            "flappy-bird-gymnasium==0.4.0",
            "pandas==3.1.1",
            "ale-py==0.12.1",
        ],
        no_deps: &["highway-env==1.12.1"],
        script: "tests/golden/speed.py",
        checkout: None,
    },
    // As `tests/golden/visgym/generate.py` pins them.
    Setup {
        measures: &[Reference::VisGym],
        venv: ".cache/venv-visgym",
        packages: &[
            "numpy==1.26.4",
            "pygame==2.6.1",
            "opencv-python-headless==4.11.0.86",
            "matplotlib==3.10.1",
            "pillow==13.0.0",
            "trimesh==4.5.2",
            "cloudpickle",
            "typing_extensions",
            "farama-notifications",
        ],
        no_deps: &[],
        script: "tests/golden/visgym/speed.py",
        checkout: Some(Checkout {
            dir: ".cache/visgym-ref",
            repo_variable: "PLAYBENCH_VISGYM_GIT",
            url: "https://github.com/visgym/VisGym",
            commit: "0289034b0cefa6fbbad27f7dd8c01545df324afd",
            // Its demo notebooks are large and unused.
            paths: &["gymnasium", ":(exclude)gymnasium/demos"],
        }),
    },
    // As `tests/golden/gameverse/generate.py` pins them.
    Setup {
        measures: &[Reference::GameVerse],
        venv: ".cache/venv-gameverse",
        packages: &[
            "pygame==2.6.1",
            "numpy==2.2.6",
            "pillow==11.3.0",
            "pyyaml==6.0.2",
            "omegaconf==2.3.0",
            "gymnasium==1.1.1",
            "rich==14.0.0",
        ],
        no_deps: &[],
        script: "tests/golden/gameverse/speed.py",
        checkout: Some(Checkout {
            dir: ".cache/gameverse-ref",
            repo_variable: "PLAYBENCH_GAMEVERSE_GIT",
            url: "https://github.com/THUSI-Lab/GameVerse",
            commit: "7cbb4236a95508ad33a195663fa1c20dfe5f0a33",
            paths: &["src"],
        }),
    },
];

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

/// Runs `cmd`, failing with its standard error.
fn run(cmd: &mut Command) -> Result<(), String> {
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
}

/// A ready reference: the Python to run `setup.script` with and its argument (the
/// checkout), made on first use.
struct Ready {
    python: PathBuf,
    checkout: Option<PathBuf>,
}

impl Setup {
    /// Installs the packages into the venv when its record of them differs, and exports
    /// the checkout when missing.
    fn prepare(&self, root: &Path) -> Result<Ready, String> {
        let venv = root.join(self.venv);
        let python = venv.join("bin/python");
        let marker = venv.join("playbench-packages.txt");
        let wanted = [self.packages, self.no_deps].concat().join("\n");
        if std::fs::read_to_string(&marker).ok().as_deref() != Some(wanted.as_str()) {
            eprintln!("installing the reference into {}: {wanted:?}...", self.venv);
            run(Command::new("python3").args(["-m", "venv"]).arg(&venv))?;
            run(Command::new(&python)
                .args(["-m", "pip", "install", "--quiet"])
                .args(self.packages))?;
            if !self.no_deps.is_empty() {
                run(Command::new(&python)
                    .args(["-m", "pip", "install", "--quiet", "--no-deps"])
                    .args(self.no_deps))?;
            }
            std::fs::write(&marker, &wanted).map_err(|e| e.to_string())?;
        }
        let checkout = match &self.checkout {
            Some(c) => Some(c.export(root)?),
            None => None,
        };
        Ok(Ready { python, checkout })
    }

    /// What `speed.json` records of the reference.
    fn describe(&self) -> serde_json::Value {
        let packages = [self.packages, self.no_deps].concat();
        json!({
            "venv": self.venv,
            "packages": packages,
            "repository": self.checkout.as_ref().map(|c| json!({"url": c.url, "commit": c.commit})),
        })
    }
}

impl Checkout {
    /// `.cache/<dir>` holding the repository's `paths` at `commit`, exported when it does
    /// not say so already. The repository is `$<repo_variable>` (a clone, e.g. made where
    /// GitHub is reachable), else a bare clone of `url` under `.cache/`.
    fn export(&self, root: &Path) -> Result<PathBuf, String> {
        let dir = root.join(self.dir);
        let marker = dir.join("playbench-commit.txt");
        if std::fs::read_to_string(&marker).ok().as_deref() == Some(self.commit) {
            return Ok(dir);
        }
        let repo = match std::env::var(self.repo_variable) {
            Ok(repo) => PathBuf::from(repo),
            Err(_) => {
                let bare = root.join(format!("{}.git", self.dir));
                if !bare.exists() {
                    eprintln!("cloning {} into {}...", self.url, bare.display());
                    run(Command::new("git")
                        .args(["clone", "--quiet", "--bare", self.url])
                        .arg(&bare))
                    .map_err(|e| {
                        format!(
                            "{e}\n(where {} cannot be reached, set {} to a clone of it)",
                            self.url, self.repo_variable
                        )
                    })?;
                }
                bare
            }
        };
        eprintln!(
            "exporting {} of {} at {} into {}...",
            self.paths[0],
            repo.display(),
            &self.commit[..7],
            self.dir
        );
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let archive = dir.join("export.tar");
        run(Command::new("git")
            .arg("-C")
            .arg(&repo)
            .args(["archive", "-o"])
            .arg(&archive)
            .args([self.commit, "--"])
            .args(self.paths))?;
        run(Command::new("tar")
            .arg("-xf")
            .arg(&archive)
            .arg("-C")
            .arg(&dir))?;
        std::fs::remove_file(&archive).map_err(|e| e.to_string())?;
        std::fs::write(&marker, self.commit).map_err(|e| e.to_string())?;
        Ok(dir)
    }
}

/// The reference's figures for `cases`, each measured by its own setup's script.
fn reference_figures(root: &Path, ready: &[(&Setup, Ready)], cases: &[&BenchCase]) -> Vec<Figure> {
    let mut out = Vec::new();
    for (setup, ready) in ready {
        let mine: Vec<_> = cases
            .iter()
            .filter(|c| setup.measures.contains(&c.reference))
            .map(|c| c.to_json())
            .collect();
        if mine.is_empty() {
            continue;
        }
        let mut cmd = Command::new(&ready.python);
        cmd.arg(root.join(setup.script));
        if let Some(checkout) = &ready.checkout {
            cmd.arg(checkout);
        }
        // No dummy video driver for the Gymnasium packages: highway-env then draws blank
        // frames (the `rgb_array` frames of the others need no display either way); the
        // VisGym and GameVerse scripts choose their own.
        cmd.env_remove("SDL_VIDEODRIVER")
            .env("SDL_AUDIODRIVER", "dummy");
        let job = json!({"seconds": SECONDS, "cases": mine});
        match run_reference(cmd, Some(job.to_string()), "env") {
            Ok(figures) => out.extend(figures),
            Err(e) => eprintln!("{}: {e}", setup.script),
        }
    }
    out
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
    let mut browser_failed = false;
    let wasm = if flag("--native-only") {
        Vec::new()
    } else {
        eprintln!("wasm in headless Chromium...");
        browser_lines::<TurnFigures>("wasm_turns", "TURNS ", only).unwrap_or_else(|e| {
            eprintln!("{e}");
            browser_failed = true;
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
    exit_if_the_browser_failed(browser_failed);
}

/// A browser half that could not run leaves its column empty in what was printed and
/// written, and the command fails, so that no script takes the table as complete.
fn exit_if_the_browser_failed(failed: bool) {
    if failed {
        eprintln!("bench: the browser half failed (above); its figures are missing");
        std::process::exit(1);
    }
}

/// `--first-load`: the release build's first load in the browser; exits as the
/// measurement does (1 when the first load is over its target).
fn first_load(root: &Path) -> ! {
    // `ensure_test_tools` installs the build tools first (`scripts/tools.sh`).
    let script = "source scripts/tools.sh && ensure_test_tools \
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

/// What `--help` prints (the options of the module's documentation).
const USAGE: &str = "usage: bench [--reference] [--reps N] [--only S,T] [--native-only] [--core N]
       bench --turns [--only S,T]
       bench --first-load
  --reference    measure the reference live (pinned packages in a virtual environment)
  --reps N       repetitions, interleaving reference, native and wasm (default 3)
  --only S,T     only the cases whose name contains S or T
  --native-only  no browser
  --core N       the core to pin to (default the last)
  --turns        the app's own work per model request, natively and in wasm
  --first-load   the release build's first load in headless Chromium
";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{USAGE}");
        return;
    }
    let flags = ["--reference", "--native-only", "--turns", "--first-load"];
    if let Some(bad) = unknown_argument(&args, &flags, &["--reps", "--only", "--core"]) {
        eprintln!("bench: {bad}\n{USAGE}");
        std::process::exit(2);
    }
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
    // The setups the chosen cases need; one that cannot be made leaves its cases
    // without a reference (said on standard error), not the others.
    let ready: Vec<(&Setup, Ready)> = if flag("--reference") {
        SETUPS
            .iter()
            .filter(|s| cases.iter().any(|c| s.measures.contains(&c.reference)))
            .filter_map(|s| {
                s.prepare(&root)
                    .map(|r| (s, r))
                    .map_err(|e| eprintln!("{}: no reference: {e}", s.script))
                    .ok()
            })
            .collect()
    } else {
        Vec::new()
    };
    if flag("--reference") && ready.is_empty() {
        eprintln!("no reference could be made");
        std::process::exit(1);
    }
    let mut repetitions = Vec::new();
    let mut browser_failed = false;
    for rep in 1..=reps {
        let mut r = Repetition::default();
        if !ready.is_empty() {
            eprintln!(
                "repetition {rep}/{reps}: the reference, {} cases...",
                cases.len()
            );
            r.reference = reference_figures(&root, &ready, &cases);
        }
        eprintln!("repetition {rep}/{reps}: native...");
        r.native = native_figures(&cases);
        // A browser half that failed once is not tried again in later repetitions.
        if !flag("--native-only") && !browser_failed {
            eprintln!("repetition {rep}/{reps}: wasm in headless Chromium...");
            r.wasm = browser_figures(only.as_deref()).unwrap_or_else(|e| {
                eprintln!("{e}");
                browser_failed = true;
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
    if ready.is_empty() {
        println!("(no reference measured: run with --reference for the ratios)");
    }
    let out = root.join("target/bench");
    let written = std::fs::create_dir_all(&out).and_then(|()| {
        let record = json!({
            "seconds_per_mode": SECONDS,
            "repetitions": reps,
            "machine": machine,
            "reference": ready.iter().map(|(s, _)| s.describe()).collect::<Vec<_>>(),
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
    exit_if_the_browser_failed(browser_failed);
}
