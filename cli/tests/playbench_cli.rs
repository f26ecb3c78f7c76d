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
    let rec: Value = serde_json::from_str(&out).unwrap();
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
    assert!(err.contains("usage"), "{err}");
}

#[test]
fn baseline_json_matches_the_committed_table() {
    let (code, out, _) = playbench(&["baseline", "--agent", "random", "--json"]);
    assert_eq!(code, 0);
    let fresh: Value = serde_json::from_str(&out).unwrap();
    let committed: Value = serde_json::from_str(include_str!(
        "../../envs/suites/playbench-core.baseline-random.json"
    ))
    .unwrap();
    assert_eq!(fresh, committed);
    let (_, table, _) = playbench(&["baseline", "--agent", "oracle"]);
    assert!(
        table.contains("overall") && table.contains("100.0"),
        "{table}"
    );
}
