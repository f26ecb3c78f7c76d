//! What the speed benchmarks (`tests/src/bin/*_speed.rs`) share: their command-line
//! options, a fixed sequence of choices, the reference's script run in the same process
//! tree (one JSON line per environment), and the table they print.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

/// A fixed sequence of choices (no entropy: an LCG).
pub struct Picker(pub u64);

impl Picker {
    pub fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }
}

/// The value after `--name` on the command line.
pub fn option(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// Whether `--name` is on the command line.
pub fn flag(name: &str) -> bool {
    std::env::args().any(|a| a == name)
}

/// `--seconds S`, 2 by default.
pub fn seconds() -> f64 {
    option("--seconds")
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0)
}

/// `cargo test` of the browser benchmark `test` (`tests/tests/<test>.rs`, feature
/// `wasm-bench`) in headless Chromium, with its output shown, built with the app's
/// profile (`wasm-release` in Cargo.toml, as index.html builds it) so that the figures
/// are those of the code the app ships. (Trunk then runs wasm-opt over the app, which
/// this build does not.)
pub fn wasm_bench_command(test: &str) -> Command {
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args([
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

/// The reference's figures, or none (with the reason on standard error) when
/// `--native-only` is given or the script fails.
pub fn reference_or_none(
    what: &str,
    run: impl FnOnce() -> Result<Vec<Figure>, String>,
) -> Vec<Figure> {
    if flag("--native-only") {
        return Vec::new();
    }
    eprintln!("timing {what} ({} s each)...", seconds());
    run().unwrap_or_else(|e| {
        eprintln!("{e}");
        Vec::new()
    })
}

/// The header of a table of steps and frames per second, ids `width` wide.
pub fn steps_and_frames_header(width: usize) -> String {
    format!(
        "{:<width$} {:>12} {:>12} {:>8} {:>12} {:>12} {:>8}",
        "id", "steps/s", "reference", "ratio", "frames/s", "reference", "ratio"
    )
}

/// One row of that table: ours, the reference's (when measured) and the ratios.
pub fn steps_and_frames_row(
    id: &str,
    width: usize,
    steps: f64,
    frames: f64,
    theirs: Option<&Figure>,
) -> String {
    let (ts, tf) = (
        theirs.map(|t| t.steps_per_s),
        theirs.and_then(|t| t.frames_per_s),
    );
    format!(
        "{id:<width$} {steps:>12.0} {:>12} {:>8} {frames:>12.0} {:>12} {:>8}",
        cell(ts),
        ratio(steps, ts),
        cell(tf),
        ratio(frames, tf)
    )
}

/// `1234` or `-`.
pub fn cell(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |t| format!("{t:.0}"))
}

/// `ours / theirs` as `12×`, or `-`.
pub fn ratio(ours: f64, theirs: Option<f64>) -> String {
    theirs.map_or("-".to_string(), |t| format!("{:.0}×", ours / t))
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn figures_are_read_from_json_lines_and_their_absence_is_an_error() {
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(
            "cat >/dev/null; echo 'warming up'; \
             echo '{\"env\":\"a\",\"steps_per_s\":10.5,\"frames_per_s\":null}'; \
             echo '{\"env\":\"b\",\"steps_per_s\":3,\"frames_per_s\":2}'",
        );
        let f = run_reference(cmd, Some("{}".into()), "env").unwrap();
        assert_eq!(f.len(), 2);
        assert_eq!(
            (f[0].name.as_str(), f[0].steps_per_s, f[0].frames_per_s),
            ("a", 10.5, None)
        );
        assert_eq!(f[1].frames_per_s, Some(2.0));
        let mut silent = Command::new("sh");
        silent.arg("-c").arg("echo oops >&2");
        let e = run_reference(silent, None, "env").unwrap_err();
        assert!(
            e.contains("printed no figures") && e.contains("oops"),
            "{e}"
        );
        assert_eq!(ratio(50.0, Some(2.0)), "25×");
        assert_eq!(ratio(50.0, None), "-");
        assert_eq!(cell(Some(1234.4)), "1234");
        let mut p = Picker(0);
        let picks: Vec<usize> = (0..50).map(|_| p.next(4)).collect();
        assert!(picks.iter().all(|&i| i < 4) && (0..4).all(|i| picks.contains(&i)));
    }
}
