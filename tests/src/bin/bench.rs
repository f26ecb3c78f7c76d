//! `cargo run --release -p playbench-tests --bin bench`: steps/s and frames/s per
//! environment, natively and in headless Chromium (wasm), next to the Python reference.
//! The browser half needs wasm-bindgen-test-runner and CHROMEDRIVER (scripts/tools.sh).

use std::process::Command;
use std::time::Instant;

use playbench_tests::bench::{cases, measure, table, Measured};

fn browser_figures() -> Result<Vec<Measured>, String> {
    let out = Command::new(env!("CARGO"))
        .args([
            "test",
            "--release",
            "--target",
            "wasm32-unknown-unknown",
            "-p",
            "playbench-tests",
            "--features",
            "wasm-bench",
            "--test",
            "wasm_bench",
            "--",
            "--nocapture",
        ])
        // The whole browser run is one test; the runner's default limit is 20 s.
        .env("WASM_BINDGEN_TEST_TIMEOUT", "600")
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let figures: Vec<Measured> = stdout
        .lines()
        .filter_map(|l| l.trim().strip_prefix("BENCH "))
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

fn main() {
    let origin = Instant::now();
    let now = || origin.elapsed().as_secs_f64();
    let mut native = Vec::new();
    for case in cases() {
        match measure(case, 0.5, &now) {
            Ok(m) => native.push(m),
            Err(e) => eprintln!("{}: {e}", case.name),
        }
    }
    let wasm = if std::env::args().any(|a| a == "--native-only") {
        Vec::new()
    } else {
        eprintln!("measuring in headless Chromium (builds the wasm benchmark first)...");
        browser_figures().unwrap_or_else(|e| {
            eprintln!("{e}");
            Vec::new()
        })
    };
    print!("{}", table(&native, &wasm));
}
