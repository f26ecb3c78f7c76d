//! `cargo run --release -p playbench-tests --bin visgym_speed`: steps and frames per
//! second of the 14 VisGym ids next to VisGym's own environments, timed in the same run
//! by `tests/golden/visgym/speed.py` (which says what a reference step and frame are).
//!
//! Options: `--seconds S` of stepping (and of rendering) per id and side (default 2),
//! `--python P` (default `.cache/venv-visgym/bin/python`), `--reference DIR` (the
//! reference's checkout, default `.cache/visgym-ref`), relative to the workspace root;
//! `--native-only` skips the reference; `--only TEXT` times the ids containing TEXT.
//! Both sides step the same action strings: the
//! id's presets other than stop and calls drawn from its argument ranges, in a fixed
//! order; ours go through `envs::make` and the `Env` trait as `Action::Text`. A
//! terminated episode is reset outside the timing; a frame is one `render` after an
//! untimed step (a new state each time).

use std::process::Command;
use std::time::{Duration, Instant};

use envs::core::action::{ArgKind, ArgValue, Call};
use envs::{Action, ActionSpace, Frame};
use playbench_tests::speed::{
    option, reference_or_none, run_reference, seconds, steps_and_frames_header,
    steps_and_frames_row, Figure, Picker,
};
use serde_json::{Map, Value};

/// A call of `function` with arguments drawn from their ranges (numbers to 0.1).
fn random_call(space: &ActionSpace, picker: &mut Picker) -> Option<Call> {
    let ActionSpace::Parametric { functions } = space else {
        return None;
    };
    let f = functions
        .iter()
        .filter(|f| f.name != "stop")
        .nth(picker.next(functions.len() - 1))?;
    let mut args = Vec::new();
    for a in &f.args {
        let mut int = |min: i64, max: i64| min + picker.next((max - min + 1) as usize) as i64;
        args.push(match &a.kind {
            ArgKind::Int { min, max } => ArgValue::Int(int(*min, *max)),
            ArgKind::Cell { rows, cols } => ArgValue::List(vec![
                int(0, i64::from(*rows) - 1) as f64,
                int(0, i64::from(*cols) - 1) as f64,
            ]),
            ArgKind::Floats { len, .. } => {
                ArgValue::List((0..*len).map(|_| int(-300, 300) as f64 / 10.0).collect())
            }
            ArgKind::Word { .. } => ArgValue::Word(f.name.clone()),
            _ => return None,
        });
    }
    Some(Call {
        name: f.name.clone(),
        args,
    })
}

/// The action strings both sides step for `id`.
fn plan(id: &str) -> Result<Vec<String>, String> {
    let env = envs::make(id, &Map::new()).map_err(|e| e.to_string())?;
    let mut out: Vec<String> = env
        .action_names()
        .into_iter()
        .filter(|n| !n.starts_with("('stop'"))
        .collect();
    let mut picker = Picker(7);
    while out.len() < 200 {
        let call = random_call(&env.action_space(), &mut picker).ok_or("no call")?;
        out.push(env.action_text(&Action::Call(call)));
    }
    let mut shuffled = Vec::new();
    while !out.is_empty() {
        shuffled.push(out.swap_remove(picker.next(out.len())));
    }
    Ok(shuffled)
}

/// Steps and frames per second of one id.
fn ours(id: &str, actions: &[String], seconds: f64) -> Result<(f64, f64), String> {
    let mut env = envs::make(id, &Map::new()).map_err(|e| e.to_string())?;
    env.reset(Some(0));
    let (mut steps, mut spent) = (0u64, Duration::ZERO);
    while spent.as_secs_f64() < seconds {
        let text = actions[steps as usize % actions.len()].clone();
        let t0 = Instant::now();
        let result = env.step(Action::Text(text));
        spent += t0.elapsed();
        steps += 1;
        if matches!(result, Ok(s) if s.terminated) {
            env.reset(None);
        }
    }
    let steps_per_s = steps as f64 / spent.as_secs_f64();
    env.reset(Some(0));
    let mut frame = Frame::default();
    let (mut frames, mut spent) = (0u64, Duration::ZERO);
    while spent.as_secs_f64() < seconds {
        // A frame of a new state each time: step (untimed), then render.
        let text = actions[frames as usize % actions.len()].clone();
        if matches!(env.step(Action::Text(text)), Ok(s) if s.terminated) {
            env.reset(None);
        }
        let t0 = Instant::now();
        env.render(&mut frame);
        spent += t0.elapsed();
        frames += 1;
    }
    Ok((steps_per_s, frames as f64 / spent.as_secs_f64()))
}

/// The reference's figures by id.
fn reference(
    root: &std::path::Path,
    seconds: f64,
    plans: &Map<String, Value>,
) -> Result<Vec<Figure>, String> {
    let python = root.join(option("--python").unwrap_or(".cache/venv-visgym/bin/python".into()));
    let checkout = root.join(option("--reference").unwrap_or(".cache/visgym-ref".into()));
    let mut cmd = Command::new(python);
    cmd.arg(root.join("tests/golden/visgym/speed.py"))
        .arg(&checkout)
        .arg(seconds.to_string())
        .env("SDL_VIDEODRIVER", "dummy")
        .env("SDL_AUDIODRIVER", "dummy");
    run_reference(cmd, Some(Value::Object(plans.clone()).to_string()), "env")
}

fn main() {
    let seconds = seconds();
    let root = playbench_tests::repo_root();
    let only = option("--only").unwrap_or_default();
    let ids: Vec<&str> = envs::visgym::FAMILY
        .specs
        .iter()
        .map(|s| s.id)
        .filter(|id| id.contains(only.as_str()))
        .collect();
    let mut plans = Map::new();
    for id in &ids {
        match plan(id) {
            Ok(p) => {
                plans.insert(id.to_string(), p.into());
            }
            Err(e) => eprintln!("{id}: {e}"),
        }
    }
    let reference = reference_or_none("VisGym's environments, steps and frames", || {
        reference(&root, seconds, &plans)
    });
    println!("{}", steps_and_frames_header(30));
    for id in &ids {
        let actions: Vec<String> = plans
            .get(*id)
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .unwrap_or_default();
        let (steps, frames) = match ours(id, &actions, seconds) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("{id}: {e}");
                continue;
            }
        };
        let theirs = reference.iter().find(|f| f.name == *id);
        println!("{}", steps_and_frames_row(id, 30, steps, frames, theirs));
    }
}
