//! What the benchmark (`tests/src/bin/bench.rs`) needs around its measurements: its
//! command-line options, the browser half's command, and a reference's script run in the
//! same process tree (one JSON line per environment).

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

/// The value after `--name` on the command line.
pub fn option(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// What is wrong with the first argument of `args` (the program's name left out) that
/// is neither one of `flags` nor one of `options` with its value: a misspelt option
/// would otherwise be ignored and the whole benchmark run without it.
pub fn unknown_argument(args: &[String], flags: &[&str], options: &[&str]) -> Option<String> {
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        if options.contains(&a.as_str()) {
            if rest.next().is_none() {
                return Some(format!("{a} needs a value"));
            }
        } else if !flags.contains(&a.as_str()) {
            return Some(format!("unknown argument {a}"));
        }
    }
    None
}

/// Whether `--name` is on the command line.
pub fn flag(name: &str) -> bool {
    std::env::args().any(|a| a == name)
}

/// `cargo test` of the browser benchmark `test` (`tests/tests/<test>.rs`, feature
/// `wasm-bench`) in headless Chromium, with its output shown, built with the app's
/// profile (`wasm-release` in Cargo.toml, as index.html builds it) so that the figures
/// are those of the code the app ships. (Trunk then runs wasm-opt over the app, which
/// this build does not.) It runs through `scripts/tools.sh`, which first installs what
/// is missing (the wasm target, the test runner, Chromium) and sets the tools' paths.
pub fn wasm_bench_command(test: &str) -> Command {
    let mut cmd = Command::new("bash");
    cmd.args([
        "-c",
        "source scripts/tools.sh && ensure_browser_tools >&2 && exec \"$@\"",
        "bash",
        env!("CARGO"),
        "test",
        "--profile",
        "wasm-release",
        "--target",
        "wasm32-unknown-unknown",
        "-p",
        "playbench-tests",
        "--features",
        "wasm-bench",
        "--test",
        test,
        "--",
        "--nocapture",
    ])
    .current_dir(crate::repo_root());
    cmd
}

/// The reference's figures for one environment.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub name: String,
    pub steps_per_s: f64,
    pub frames_per_s: Option<f64>,
}

/// Runs a reference script (`cmd`, with `input` on its standard input) and reads its
/// figures: one JSON line per environment, named by `key`.
pub fn run_reference(
    mut cmd: Command,
    input: Option<String>,
    key: &str,
) -> Result<Vec<Figure>, String> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if let (Some(mut stdin), Some(text)) = (child.stdin.take(), input) {
        stdin
            .write_all(text.as_bytes())
            .map_err(|e| e.to_string())?;
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let figures: Vec<Figure> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| {
            Some(Figure {
                name: v[key].as_str()?.to_string(),
                steps_per_s: v["steps_per_s"].as_f64()?,
                frames_per_s: v["frames_per_s"].as_f64(),
            })
        })
        .collect();
    if figures.is_empty() {
        return Err(format!(
            "the reference printed no figures:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(figures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_arguments_are_named_and_option_values_are_not() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let (flags, options) = (["--turns"], ["--only"]);
        let check = |a: &[&str]| unknown_argument(&args(a), &flags, &options);
        assert_eq!(check(&["--turns", "--only", "--help"]), None);
        assert_eq!(check(&[]), None);
        let unknown = |a: &str| Some(format!("unknown argument {a}"));
        assert_eq!(check(&["--help"]), unknown("--help"));
        assert_eq!(check(&["--turns", "--tunrs"]), unknown("--tunrs"));
        assert_eq!(check(&["--only"]), Some("--only needs a value".into()));
    }
}
