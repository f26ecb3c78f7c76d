//! `cargo run -p playbench-tests --bin atari_episode`: prints the share-link fragment
//! (`e=pb1.…`) of a short Breakout episode on a task written out in full (an inline
//! task, as a link from outside the suites carries), played by a fixed sequence of
//! actions. The browser tests
//! (`tests/e2e/atari.test.mjs`) open it, fork it and play on as a person. The ROM
//! comes from the test cache (`playbench_tests::atari::shelve_test_roms`); neither the
//! task nor the episode holds it.

use bench::share::{EpisodeFile, TaskRef};
use bench::{EpisodeRunner, Task};
use serde_json::json;

fn main() -> Result<(), String> {
    playbench_tests::atari::shelve_test_roms()?;
    let task: Task = serde_json::from_value(json!({
        "id": "breakout-short",
        "title": "Breakout, a few seconds",
        "env": "ALE/Breakout-v5",
        "seed": 0,
        "max_steps": 60,
        "actions": ["NOOP", "FIRE", "RIGHT", "LEFT"],
        "hide_reward": false,
        "rules": "The episode ends after 60 decisions (4 seconds of play).",
        "demos": [{"label": "serving and moving", "seed": 1, "actions": ["FIRE", "RIGHT", "RIGHT", "LEFT"]}],
        "pass": {"kind": "survive"},
        "score": {"kind": "capped_ratio", "value": "return", "floor": 0.0, "reference": 10.0},
        "tags": {"family": "Breakout", "memory": "single", "dynamics": "dynamic"}
    }))
    .map_err(|e| format!("task: {e}"))?;
    task.validate().map_err(|e| format!("task: {e:?}"))?;
    let mut runner = EpisodeRunner::start(&task).map_err(|e| format!("start: {e:?}"))?;
    let mut n = 0;
    while !runner.is_done() {
        let index = if n == 0 { 1 } else { 2 + (n / 5) % 2 };
        runner
            .apply(index, None, Vec::new())
            .map_err(|e| format!("decision {n}: {e:?}"))?;
        n += 1;
    }
    let file = EpisodeFile::from_record(
        TaskRef::Inline(Box::new(task)),
        runner.finish("scripted"),
        None,
    );
    let link = file
        .to_link_fragment()
        .map_err(|e| format!("link: {e:?}"))?;
    println!("{link}");
    Ok(())
}
