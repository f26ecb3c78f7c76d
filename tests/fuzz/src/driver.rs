//! `envs-driver` request lines, answered in process by `cli::driver::Driver`: each
//! input is a short session (make, reset, steps, prompt, solve) on a fresh driver.
//! `render` requests are dropped: they write files where the request says.

use cli::driver::{parse_request, Driver, Request};
use serde_json::json;

use super::Entry;

/// At most this many lines of one input are answered.
const MAX_LINES: usize = 32;

/// A session per registered variant (and per id with its defaults): make, reset,
/// two steps with the first listed action and prompt; and, on the quick Toy Text ids,
/// `solve` (the oracle plays to the end, too slow to seed every id with).
fn sessions() -> Vec<String> {
    let mut out = vec![r#"{"op":"list"}"#.to_string()];
    for spec in envs::registry::specs() {
        let mut makes = vec![json!({"op": "make", "env": spec.id})];
        for v in spec.variants {
            if let Ok(kwargs) = serde_json::from_str::<serde_json::Value>(v.kwargs) {
                makes.push(json!({"op": "make", "env": spec.id, "kwargs": kwargs}));
            }
        }
        for make in makes {
            let mut driver = Driver::new();
            let made = driver.handle_line(&make.to_string());
            let action = made["actions"].get(0).cloned().unwrap_or(json!(0));
            let lines = [
                make,
                json!({"op": "reset", "seed": 1}),
                json!({"op": "step", "action": action}),
                json!({"op": "step", "action": action}),
                json!({"op": "prompt"}),
                json!({"op": "reset", "seed": null}),
            ];
            let text: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            out.push(text.join("\n"));
        }
    }
    for id in ["FrozenLake-v1", "Taxi-v3", "CliffWalking-v1"] {
        let lines = [
            json!({"op": "make", "env": id}),
            json!({"op": "reset", "seed": 2}),
            json!({"op": "solve"}),
            json!({"op": "solve", "kwargs": {"strategy": "bfs"}}),
        ];
        let text: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        out.push(text.join("\n"));
    }
    out
}

/// Ids whose oracle finishes an episode in milliseconds. `solve` plays the oracle to
/// the end of the episode (up to 10 000 actions): seconds for Tetris or Highway, so
/// the fuzzer answers it only on these (`docs/fuzzing.md`).
const QUICK_SOLVE: [&str; 3] = ["FrozenLake", "Taxi", "CliffWalking"];

/// Answers each line of `input` as `envs-driver` would.
pub fn run_session(input: &str) {
    let mut driver = Driver::new();
    let mut quick = false;
    for line in input.lines().take(MAX_LINES) {
        match parse_request(line) {
            Ok(Request::Render { .. }) | Err(_) => {}
            Ok(Request::Solve { .. }) if !quick => {}
            Ok(request) => {
                if let Request::Make { env, .. } = &request {
                    let id = env.as_deref().unwrap_or_default();
                    quick = QUICK_SOLVE.iter().any(|q| id.starts_with(q));
                }
                let _ = driver.handle(request);
            }
        }
    }
}

pub fn entries() -> Vec<Entry> {
    vec![Entry {
        name: "driver",
        seeds: sessions(),
        run: Box::new(run_session),
    }]
}
