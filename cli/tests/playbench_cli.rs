//! The `playbench` command line, run as a process like a user would.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::process::Command;

use serde_json::Value;

fn playbench(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_playbench"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn tasks_prints_the_suite() {
    let (code, out, _) = playbench(&["tasks"]);
    assert_eq!(code, 0);
    let tasks: Vec<Value> = serde_json::from_str(&out).unwrap();
    assert!(tasks.len() >= 150);
    assert!(tasks
        .iter()
        .all(|t| t["id"].is_string() && t["env"].is_string()));
}

#[test]
fn run_prints_an_episode_record() {
    let (code, out, _) = playbench(&[
        "run",
        "--task",
        "frozenlake-4x4-det-s0",
        "--agent",
        "oracle",
    ]);
    assert_eq!(code, 0);
    let file: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(file["format"], "playbench-episode-file/1");
    assert_eq!(
        file["task"],
        serde_json::json!({"suite": "playbench-core", "suite_version": 1, "task": "frozenlake-4x4-det-s0"})
    );
    let rec = &file["record"];
    assert_eq!(
        (rec["passed"].as_bool(), rec["score"].as_f64()),
        (Some(true), Some(100.0))
    );
    assert_eq!(rec["decisions"].as_array().unwrap().len(), 6);
    let (_, a, _) = playbench(&[
        "run", "--task", "taxi-s1", "--agent", "random", "--seed", "7",
    ]);
    let (_, b, _) = playbench(&[
        "run", "--task", "taxi-s1", "--agent", "random", "--seed", "7",
    ]);
    assert_eq!(a, b, "a seeded random episode is reproducible");
}

#[test]
fn bad_arguments_are_explained() {
    let (code, _, err) = playbench(&["run", "--task", "nope", "--agent", "oracle"]);
    assert_eq!(code, 2);
    assert!(err.contains("no task \"nope\""), "{err}");
    let (code, _, err) = playbench(&["run", "--task", "taxi-s1", "--agent", "genius"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown agent"), "{err}");
    let (code, _, err) = playbench(&["fly"]);
    assert_eq!(code, 2);
    assert!(err.to_lowercase().contains("usage"), "{err}");
    let (code, _, err) = playbench(&[]);
    assert_eq!(code, 2, "no subcommand shows the help as an error");
    assert!(err.contains("Commands:"), "{err}");
    let (code, _, err) = playbench(&["tasks", "--suite-id", "nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown suite \"nope\""), "{err}");
    let (code, _, err) = playbench(&["run", "--task", "taxi-s1", "--link", "--suite"]);
    assert_eq!(code, 2);
    assert!(err.contains("--suite"), "{err}");
    let (code, _, err) = playbench(&["--roms", "no/such/folder", "tasks"]);
    assert_eq!(code, 2);
    assert!(err.contains("no/such/folder"), "{err}");
    let (code, _, err) = playbench(&["suite", "--record-atari", "--only", "pong"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no Atari game or start \"pong\"") && err.contains("breakout-served"),
        "{err}"
    );
    let (code, _, err) = playbench(&["suite", "--only", "breakout"]);
    assert_eq!(code, 2, "--only needs --record-atari: {err}");
}

#[test]
fn baseline_json_is_a_results_file_and_its_report_the_committed_table() {
    let committed: Value = serde_json::from_str(include_str!(
        "../../bench/suites/playbench-core/v1.baseline-random.json"
    ))
    .unwrap();
    let (code, out, _) = playbench(&["baseline", "--agent", "random", "--report"]);
    assert_eq!(code, 0);
    let fresh: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(fresh, committed);
    // `--json` writes what /compare imports: a results file (its reader is the one the
    // page uses), with the same report.
    let (code, out, _) = playbench(&["baseline", "--agent", "random", "--json"]);
    assert_eq!(code, 0);
    let file = bench::results::ResultsFile::from_json(&out).unwrap();
    assert_eq!(file.kind, bench::results::ResultsKind::Baseline);
    assert_eq!(serde_json::to_value(&file.report).unwrap(), committed);
    assert_eq!(file.episodes.len(), file.report.overall.episodes);
    let (code, _, err) = playbench(&["baseline", "--json", "--report"]);
    assert_eq!(code, 2, "{err}");
    let (_, table, _) = playbench(&["baseline", "--agent", "oracle"]);
    assert!(
        table.contains("overall") && table.contains("100.0"),
        "{table}"
    );
}

/// A temporary file for one test.
fn temp(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("playbench-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn verify_checks_files_and_links() {
    let args = [
        "run",
        "--task",
        "frozenlake-4x4-det-s0",
        "--agent",
        "oracle",
    ];
    let (_, out, _) = playbench(&args);
    let honest = temp("honest.json", &out);
    let (code, out, err) = playbench(&["verify", honest.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "verified: passed=true, score=100\n");

    let mut file: Value = serde_json::from_str(&std::fs::read_to_string(&honest).unwrap()).unwrap();
    file["record"]["decisions"][2]["action"] = "Up".into();
    let tampered = temp("tampered.json", &file.to_string());
    let (code, out, _) = playbench(&["verify", tampered.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("diverged at step 3: frame_hash expected"),
        "{out}"
    );
    file["record"]["decisions"][2]["action"] = "Right".into();
    file["record"]["score"] = 100.5.into();
    std::fs::write(&tampered, file.to_string()).unwrap();
    let (code, out, _) = playbench(&["verify", tampered.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        out.contains("diverged at the end: score expected 100.5, got 100.0"),
        "{out}"
    );

    let (code, link, _) = playbench(&[&args[..], &["--link"]].concat());
    assert_eq!(code, 0);
    assert!(link.starts_with("e=pb1."), "{link}");
    let url = format!("http://127.0.0.1:8080/episode#{}", link.trim());
    for input in [link.trim(), url.as_str()] {
        let (code, out, err) = playbench(&["verify", input]);
        assert_eq!(
            (code, out.as_str()),
            (0, "verified: passed=true, score=100\n"),
            "{err}"
        );
    }
    let saved = temp("link.txt", &link);
    assert_eq!(playbench(&["verify", saved.to_str().unwrap()]).0, 0);

    let cut = &link.trim()[..link.trim().len() - 8];
    let (code, _, err) = playbench(&["verify", cut]);
    assert_eq!(code, 2);
    assert!(err.contains("link"), "{err}");
    let (code, _, err) = playbench(&["verify", "no-such-file.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("neither a file nor"), "{err}");
    let garbage = temp("garbage.json", "{\"format\": 3}");
    let (code, _, err) = playbench(&["verify", garbage.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("format"), "{err}");
    let (code, _, err) = playbench(&["verify"]);
    assert_eq!(code, 2);
    assert!(err.to_lowercase().contains("usage"), "{err}");
    for p in [honest, tampered, saved, garbage] {
        std::fs::remove_file(p).unwrap();
    }
}

/// A Fetch task of suite visgym (MuJoCo under Node, started on demand): its link verifies,
/// and a link with one move changed diverges where the frames part.
#[test]
fn fetch_task_links_verify_on_the_command_lines_physics() {
    let args = [
        "run",
        "--suite-id",
        "visgym",
        "--task",
        "fetch-reach-easy-s0",
        "--agent",
        "oracle",
    ];
    let (code, out, err) = playbench(&args);
    assert_eq!(code, 0, "{err}");
    let honest = temp("fetch.json", &out);
    let (code, out, err) = playbench(&["verify", honest.to_str().unwrap()]);
    assert_eq!(
        (code, out.as_str()),
        (0, "verified: passed=true, score=100\n"),
        "{err}"
    );
    let (code, link, err) = playbench(&[&args[..], &["--link"]].concat());
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = playbench(&["verify", link.trim()]);
    assert_eq!(
        (code, out.as_str()),
        (0, "verified: passed=true, score=100\n"),
        "{err}"
    );

    let mut file: Value = serde_json::from_str(&std::fs::read_to_string(&honest).unwrap()).unwrap();
    let first = file["record"]["decisions"][0]["action"].clone();
    assert_ne!(first, "('move', [0, 0, 1])", "the plan's first move");
    file["record"]["decisions"][0]["action"] = "('move', [0, 0, 1])".into();
    let tampered = temp("fetch-tampered.json", &file.to_string());
    let (code, out, _) = playbench(&["verify", tampered.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("diverged at step 1:"), "{out}");
    for p in [honest, tampered] {
        std::fs::remove_file(p).unwrap();
    }
}

#[test]
fn help_and_version_are_generated_and_succeed() {
    let (code, out, _) = playbench(&["--help"]);
    assert_eq!(code, 0);
    for sub in ["tasks", "run", "verify", "baseline", "suite"] {
        assert!(out.contains(sub), "{sub}: {out}");
    }
    let (code, out, _) = playbench(&["run", "--help"]);
    assert_eq!(code, 0);
    for flag in [
        "--task",
        "--suite-id",
        "--agent",
        "--provider",
        "--api-key-env",
        "--image-format",
        "--jpeg-quality",
        "--image-scale",
        "--concurrency",
    ] {
        assert!(out.contains(flag), "{flag}: {out}");
    }
    let (code, out, _) = playbench(&["--version"]);
    assert_eq!(code, 0);
    assert_eq!(out, format!("playbench {}\n", env!("CARGO_PKG_VERSION")));
}

/// (Building a suite runs the oracle over every task, which takes minutes in a debug
/// build: `scripts/test.sh` runs `playbench suite --check` from the release build.)
#[test]
fn suite_check_covers_every_suite() {
    let (code, _, err) = playbench(&["suite", "--check", "--suite-id", "playbench-core"]);
    assert_eq!(code, 2, "--check checks every suite: {err}");
    let (code, _, err) = playbench(&["suite", "--suite-id", "nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown suite \"nope\""), "{err}");
}

#[test]
fn output_errors_exit_with_4() {
    let (code, _, err) = playbench(&[
        "run",
        "--suite",
        "--filter",
        "frozenlake-4x4-det-s0",
        "--agent",
        "oracle",
        "--out",
        "/nonexistent-dir/results.json",
    ]);
    assert_eq!(code, 4, "{err}");
    assert!(
        err.contains("writing /nonexistent-dir/results.json"),
        "{err}"
    );
}

#[test]
fn an_interrupted_suite_run_keeps_what_finished_and_resumes() {
    use std::io::{BufRead, BufReader};
    let out = temp("resumed-results.json", "");
    std::fs::remove_file(&out).unwrap();
    let out_arg = out.to_str().unwrap();
    fn run<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        let mut args = vec![
            "run",
            "--suite",
            "--filter",
            "taxi",
            "--episodes",
            "20",
            "--agent",
            "random",
            "--seed",
            "4",
        ];
        args.extend_from_slice(extra);
        args
    }
    let total = 6 * 20;
    // The whole run at once, for reference.
    let (code, whole, err) = playbench(&run(&["--json"]));
    assert_eq!(code, 0, "{err}");
    let whole = bench::results::ResultsFile::from_json(&whole).unwrap();
    assert_eq!(whole.episodes.len(), total);

    // Interrupted half way (killed, as Ctrl-C would).
    let mut child = Command::new(env!("CARGO_BIN_EXE_playbench"))
        .args(run(&["--concurrency", "1", "--progress", "--out", out_arg]))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let half = format!("playbench: {}/{total} episodes", total / 2);
    for line in lines.by_ref() {
        if line.unwrap().starts_with(&half) {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = bench::results::ResultsFile::from_json(&std::fs::read_to_string(&out).unwrap())
        .expect("the interrupted run's file is whole");
    assert!(
        !kept.episodes.is_empty(),
        "the first finished episode is saved"
    );
    assert_eq!(kept.episodes[..], whole.episodes[..kept.episodes.len()]);

    // Another run's file is refused, naming what differs.
    let mut other = run(&["--out", out_arg, "--resume"]);
    other[9] = "5";
    let (code, _, err) = playbench(&other);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("agent"), "{err}");
    let (code, _, err) = playbench(&["run", "--suite", "--resume"]);
    assert_eq!(code, 2, "--resume needs --out: {err}");

    // Resumed: only the missing episodes are played, and the file is the whole run's.
    let (code, _, err) = playbench(&run(&["--progress", "--out", out_arg, "--resume"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!(
            "resuming with {} finished episodes",
            kept.episodes.len()
        )),
        "{err}"
    );
    let played = err.lines().filter(|l| l.ends_with(')')).count();
    assert_eq!(played, total - kept.episodes.len(), "{err}");
    let resumed =
        bench::results::ResultsFile::from_json(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(resumed.episodes, whole.episodes);
    assert_eq!(resumed.report, whole.report);
    std::fs::remove_file(&out).unwrap();
}
