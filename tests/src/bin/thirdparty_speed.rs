//! `cargo run --release -p playbench-tests --bin thirdparty_speed`: steps and frames per
//! second of Tetris, FlappyBird and Highway next to their own Python packages, timed in
//! the same run by `tests/golden/thirdparty/speed.py` (which says what a reference step
//! and frame include).
//!
//! Options: `--seconds S` of stepping (and of drawing) per environment and side
//! (default 2); `--python P` (default `.cache/venv-thirdparty/bin/python`, made as
//! `tests/golden/thirdparty/generate.py` says), relative to the workspace root;
//! `--native-only` skips the reference. Our side plays the same kind of policy, uniformly
//! random actions, through `envs::make` and the `Env` trait, and times steps and frames
//! apart (a finished episode is reset untimed).

use std::process::Command;
use std::time::{Duration, Instant};

use envs::{Action, Frame};
use playbench_tests::speed::{
    reference_or_none, run_reference, seconds, steps_and_frames_header, steps_and_frames_row,
    Picker,
};
use serde_json::Map;

const IDS: [&str; 4] = [
    "tetris_gymnasium/Tetris",
    "FlappyBird-v0",
    "highway-v0",
    "highway-fast-v0",
];

/// (steps/s, frames/s) of `id`: steps timed alone, then frames drawn after steps.
fn ours(id: &str, seconds: f64) -> Result<(f64, f64), String> {
    let mut env = envs::make(id, &Map::new()).map_err(|e| e.to_string())?;
    let n = env.action_names().len();
    let mut picker = Picker(0);
    let mut frame = Frame::default();
    let mut time = |render: bool, env: &mut Box<dyn envs::Env>| -> Result<f64, String> {
        env.reset(Some(0));
        let (mut count, mut spent) = (0u64, Duration::ZERO);
        while spent.as_secs_f64() < seconds {
            let action = Action::Index(picker.next(n));
            let t0 = Instant::now();
            let s = env.step(action).map_err(|e| format!("{id}: {e}"))?;
            if !render {
                spent += t0.elapsed();
            } else {
                let t1 = Instant::now();
                env.render(&mut frame);
                spent += t1.elapsed();
            }
            count += 1;
            if s.terminated || s.truncated {
                env.reset(None);
            }
        }
        Ok(count as f64 / spent.as_secs_f64())
    };
    Ok((time(false, &mut env)?, time(true, &mut env)?))
}

fn main() {
    let seconds = seconds();
    let root = playbench_tests::repo_root();
    let reference = reference_or_none("the Python packages", || {
        let python = root.join(
            playbench_tests::speed::option("--python")
                .unwrap_or(".cache/venv-thirdparty/bin/python".into()),
        );
        let mut cmd = Command::new(python);
        cmd.arg(root.join("tests/golden/thirdparty/speed.py"))
            .arg(seconds.to_string());
        run_reference(cmd, None, "env")
    });
    println!("{}", steps_and_frames_header(26));
    for id in IDS {
        let (steps, frames) = match ours(id, seconds) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("{id}: {e}");
                continue;
            }
        };
        let theirs = reference.iter().find(|f| f.name == id);
        println!("{}", steps_and_frames_row(id, 26, steps, frames, theirs));
    }
}
