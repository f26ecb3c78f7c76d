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

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use envs::core::action::{ArgKind, ArgValue, Call};
use envs::{Action, ActionSpace, Frame};
use serde_json::{Map, Value};

/// A fixed sequence of choices (no entropy: an LCG).
struct Picker(u64);

impl Picker {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }
}

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

fn option(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// The reference's figures by id: (steps/s, frames/s when timed).
fn reference(
    root: &std::path::Path,
    seconds: f64,
    plans: &Map<String, Value>,
) -> Result<Vec<(String, f64, Option<f64>)>, String> {
    let python = root.join(option("--python").unwrap_or(".cache/venv-visgym/bin/python".into()));
    let checkout = root.join(option("--reference").unwrap_or(".cache/visgym-ref".into()));
    let mut child = Command::new(&python)
        .arg(root.join("tests/golden/visgym/speed.py"))
        .arg(&checkout)
        .arg(seconds.to_string())
        .env("SDL_VIDEODRIVER", "dummy")
        .env("SDL_AUDIODRIVER", "dummy")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(Value::Object(plans.clone()).to_string().as_bytes())
            .map_err(|e| e.to_string())?;
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let figures: Vec<(String, f64, Option<f64>)> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| {
            Some((
                v["env"].as_str()?.to_string(),
                v["steps_per_s"].as_f64()?,
                v["frames_per_s"].as_f64(),
            ))
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

fn main() {
    let seconds = option("--seconds")
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
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
    let reference = if std::env::args().any(|a| a == "--native-only") {
        Vec::new()
    } else {
        eprintln!("timing VisGym's environments ({seconds} s of steps and of frames each)...");
        reference(&root, seconds, &plans).unwrap_or_else(|e| {
            eprintln!("{e}");
            Vec::new()
        })
    };
    println!(
        "{:<30} {:>12} {:>12} {:>8} {:>12} {:>12} {:>8}",
        "id", "steps/s", "reference", "ratio", "frames/s", "reference", "ratio"
    );
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
        let theirs = reference.iter().find(|(i, ..)| i == id);
        let cell = |v: Option<f64>| v.map_or("-".to_string(), |t| format!("{t:.0}"));
        let ratio =
            |ours: f64, t: Option<f64>| t.map_or("-".to_string(), |t| format!("{:.0}×", ours / t));
        let (ts, tf) = (theirs.map(|t| t.1), theirs.and_then(|t| t.2));
        println!(
            "{id:<30} {steps:>12.0} {:>12} {:>8} {frames:>12.0} {:>12} {:>8}",
            cell(ts),
            ratio(steps, ts),
            cell(tf),
            ratio(frames, tf)
        );
    }
}
