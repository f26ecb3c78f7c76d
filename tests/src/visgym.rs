//! VisGym golden checks: `ast.literal_eval` of model replies, and every synthetic
//! environment replayed against the reference (states, rewards, flags, feedback,
//! text frames, Maze 2D frame hashes, oracle action lists, prompts).

use std::io::Read;

use envs::visgym::python::{literal_eval, py_repr, py_str};
use serde_json::Value;

/// The `literal_eval` golden file (gzipped JSON), embedded for the wasm build.
pub const LITERAL_GOLDEN: &[u8] = include_bytes!("../golden/visgym/literal_eval.json.gz");

/// The harness's reply parser on the same inputs and more: `[reply, action string,
/// action string with verbalisation]`.
pub const REPLY_GOLDEN: &[u8] = include_bytes!("../golden/visgym/reply_parse.json.gz");

/// Parses every golden reply; returns the mismatches and the number of cases.
pub fn check_reply_golden() -> Result<(Vec<String>, usize), String> {
    use envs::visgym::reply_to_action;
    let rows: Vec<Vec<String>> =
        serde_json::from_str(&decompress(REPLY_GOLDEN)?).map_err(|e| e.to_string())?;
    let mut failures = Vec::new();
    for row in &rows {
        let got = [
            reply_to_action(&row[0], false),
            reply_to_action(&row[0], true),
        ];
        if got[0] != row[1] || got[1] != row[2] {
            failures.push(format!(
                "{:?}\n   got  {got:?}\n   want {:?}",
                row[0],
                &row[1..]
            ));
        }
    }
    Ok((failures, rows.len()))
}

pub fn decompress(gz: &[u8]) -> Result<String, String> {
    let mut s = String::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_string(&mut s)
        .map_err(|e| format!("gzip: {e}"))?;
    Ok(s)
}

/// CPython prints heap addresses (`<ast.Name object at 0x7f…>`); they are not part of
/// what must match.
pub fn mask_addresses(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(" object at 0x") {
        let (head, tail) = rest.split_at(i + " object at 0x".len());
        out.push_str(head);
        out.push('…');
        rest = tail.trim_start_matches(|c: char| c.is_ascii_hexdigit());
    }
    out.push_str(rest);
    out
}

/// Evaluates every golden input; returns the mismatches and the number of cases.
pub fn check_literal_golden() -> Result<(Vec<String>, usize), String> {
    let rows: Vec<Vec<String>> =
        serde_json::from_str(&decompress(LITERAL_GOLDEN)?).map_err(|e| e.to_string())?;
    let mut failures = Vec::new();
    for row in &rows {
        let input = &row[0];
        let got = match literal_eval(input) {
            Ok(v) => vec!["ok".to_string(), py_repr(&v), py_str(&v)],
            Err(e) => vec![e.class.to_string(), mask_addresses(&e.message)],
        };
        let want: Vec<String> = row[1..].iter().map(|s| mask_addresses(s)).collect();
        if got != want {
            failures.push(format!("{input:?}\n   got  {got:?}\n   want {want:?}"));
        }
    }
    Ok((failures, rows.len()))
}

macro_rules! env_golden {
    ($($name:literal),* $(,)?) => {
        /// Every environment golden file (gzipped JSON), embedded for the wasm build.
        pub const ENV_GOLDEN: &[(&str, &[u8])] = &[
            $(($name, include_bytes!(concat!("../golden/visgym/", $name, ".json.gz")))),*
        ];
    };
}

env_golden![
    "matchstick_equation_easy",
    "matchstick_equation_hard",
    "maze_2d_easy",
    "maze_2d_hard",
    "maze_3d_easy",
    "maze_3d_hard",
    "sliding_block_easy",
    "sliding_block_hard",
    "patch_reassembly_easy",
    "patch_reassembly_hard",
    "matchstick_rotation_easy",
    "matchstick_rotation_hard",
    "mental_rotation_3d_cube_easy",
    "mental_rotation_3d_cube_hard",
];

/// What a replay covered.
#[derive(Debug, Default)]
pub struct EnvCoverage {
    pub resets: usize,
    pub steps: usize,
    pub errors: usize,
    pub terminations: usize,
    pub solves: usize,
    pub frames: usize,
}

/// Numbers equal within `tol` (exact when 0), everything else structurally equal.
fn json_close(a: &Value, b: &Value, tol: f64) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            x == y || (x - y).abs() <= tol
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_close(p, q, tol))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_close(v, w, tol)))
        }
        _ => a == b,
    }
}

fn sha256_hex(data: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Replays one environment golden file; `Err` names the first mismatch.
pub fn check_env_golden(gz: &[u8], tol: f64) -> Result<EnvCoverage, String> {
    use envs::visgym::{make, RenderMode};
    let golden: Value =
        serde_json::from_str(&decompress(gz)?).map_err(|e| format!("golden file: {e}"))?;
    let id = golden["id"].as_str().ok_or("no id")?;
    let mut cov = EnvCoverage::default();
    let instances = golden["instances"].as_array().ok_or("no instances")?;
    for inst in instances {
        let seed = inst["seed"].clone();
        let mut kwargs = serde_json::Map::new();
        kwargs.insert("seed".into(), seed.clone());
        let mut env = make(id, &kwargs)?;
        if seed == 0 {
            for (mode, key) in [
                (RenderMode::RgbArray, "rgb_array"),
                (RenderMode::Ansi, "ansi"),
            ] {
                let want = golden["prompts"][key].as_str();
                let got = env.prompt(mode);
                if got.as_deref() != want {
                    return Err(format!("{id} prompt {key}:\n got  {got:?}\n want {want:?}"));
                }
            }
        }
        for (e, ep) in inst["episodes"]
            .as_array()
            .ok_or("no episodes")?
            .iter()
            .enumerate()
        {
            let at = |what: &str| format!("{id} seed {seed} episode {e}: {what}");
            env.reset(ep["seed"].as_u64());
            cov.resets += 1;
            let mut state = env.state_json(true);
            if ep["partial"].as_bool() == Some(true) {
                // Fields the reference draws from OS entropy are not in the golden.
                if let (Some(got), Some(want)) = (state.as_object_mut(), ep["reset"].as_object()) {
                    got.retain(|k, _| want.contains_key(k));
                }
            }
            if !json_close(&state, &ep["reset"], tol) {
                return Err(at(&format!(
                    "reset state\n got  {state}\n want {}",
                    ep["reset"]
                )));
            }
            check_observation(env.as_ref(), ep, &mut cov).map_err(|m| at(&format!("reset {m}")))?;
            let (w, h) = env.frame_size();
            if serde_json::json!([w, h]) != ep["size"] {
                return Err(at(&format!("frame size {w}x{h}, reference {}", ep["size"])));
            }
            let mut frame = envs::Frame::default();
            env.render(&mut frame);
            if (frame.width(), frame.height()) != (w, h) {
                return Err(at(&format!(
                    "rendered {}x{}",
                    frame.width(),
                    frame.height()
                )));
            }
            let solves = ep["solve"]
                .as_object()
                .filter(|_| ep["partial"].as_bool() != Some(true));
            if let Some(solves) = solves {
                for (name, want) in solves {
                    let got = env
                        .solve_named(name)
                        .ok_or_else(|| at(&format!("no solver {name}")))?;
                    let want: Vec<String> =
                        serde_json::from_value(want.clone()).map_err(|e| e.to_string())?;
                    if got != want {
                        return Err(at(&format!("solve {name}\n got  {got:?}\n want {want:?}")));
                    }
                    cov.solves += 1;
                }
            }
            for (t, row) in ep["steps"].as_array().ok_or("no steps")?.iter().enumerate() {
                let action = row["a"].as_str().ok_or("no action")?;
                let at = |what: String| at(&format!("step {t} {action:?}: {what}"));
                let result = env.step(action);
                match (&result, row.get("e")) {
                    (Err(err), Some(want)) => {
                        let got = serde_json::json!([err.class, err.message]);
                        if got != *want {
                            return Err(at(format!("raised {got}, reference raised {want}")));
                        }
                        cov.errors += 1;
                    }
                    (Err(err), None) => {
                        return Err(at(format!("raised {} {}", err.class, err.message)))
                    }
                    (Ok(r), None) => {
                        let want_f = row["f"].as_str().map(mask_addresses);
                        if Some(mask_addresses(&r.feedback)) != want_f {
                            return Err(at(format!(
                                "feedback\n got  {:?}\n want {}",
                                r.feedback, row["f"]
                            )));
                        }
                        if Some(r.reward) != row["r"].as_f64()
                            || Some(r.terminated) != row["t"].as_bool()
                            || r.truncated
                        {
                            return Err(at(format!(
                                "reward/flags {} {} {}, reference {} {}",
                                r.reward, r.terminated, r.truncated, row["r"], row["t"]
                            )));
                        }
                        cov.terminations += usize::from(r.terminated);
                    }
                    (Ok(_), Some(want)) => {
                        return Err(at(format!("no exception, reference raised {want}")))
                    }
                }
                let state = env.state_json(false);
                if !json_close(&state, &row["s"], tol) {
                    return Err(at(format!("state\n got  {state}\n want {}", row["s"])));
                }
                if row.get("e").is_none() {
                    check_observation(env.as_ref(), row, &mut cov).map_err(at)?;
                }
                cov.steps += 1;
            }
        }
    }
    Ok(cov)
}

/// The text frame (`x`) and the frame hash (`h`) a golden row records.
fn check_observation(
    env: &dyn envs::visgym::VisGymEnv,
    row: &Value,
    cov: &mut EnvCoverage,
) -> Result<(), String> {
    if let Some(want) = row.get("x") {
        let got = env.text_frame();
        if got.as_deref() != want.as_str() {
            return Err(format!(
                "text frame\n got\n{}\n want\n{}",
                got.unwrap_or_default(),
                want.as_str().unwrap_or_default()
            ));
        }
    }
    if let Some(want) = row.get("h") {
        let mut frame = envs::Frame::default();
        env.render(&mut frame);
        let got = sha256_hex(frame.data());
        if Some(got.as_str()) != want.as_str() {
            return Err(format!("frame sha256 {got}, reference {want}"));
        }
        cov.frames += 1;
    }
    Ok(())
}
