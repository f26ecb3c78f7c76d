//! VisGym golden checks: `ast.literal_eval` of model replies, and every synthetic
//! environment replayed against the reference (states, rewards, flags, feedback,
//! text frames, Maze 2D frame hashes, oracle action lists, prompts).

use std::io::Read;

use envs::visgym::python::{literal_eval, literal_value, py_repr, py_str, PyValue};
use serde_json::{Map, Value};

/// The `literal_eval` golden file (gzipped JSON), embedded for the wasm build.
pub const LITERAL_GOLDEN: &[u8] = include_bytes!("../golden/visgym/literal_eval.json.gz");

/// The harness's reply parser on the same inputs and more: `[reply, action string,
/// action string with verbalisation]`.
pub const REPLY_GOLDEN: &[u8] = include_bytes!("../golden/visgym/reply_parse.json.gz");

/// Parses every golden reply; returns the mismatches and the number of cases.
pub fn check_reply_golden() -> Result<(Vec<String>, usize), String> {
    use envs::visgym::reply_to_action;
    let rows = golden_rows(REPLY_GOLDEN)?;
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

/// The `rows` of a parser golden file (`{"envs": [...], "rows": [[...], ...]}`).
fn golden_rows(gz: &[u8]) -> Result<Vec<Vec<String>>, String> {
    let doc: Value = serde_json::from_str(&decompress(gz)?).map_err(|e| e.to_string())?;
    serde_json::from_value(doc["rows"].clone()).map_err(|e| e.to_string())
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
    let rows = golden_rows(LITERAL_GOLDEN)?;
    let mut failures = Vec::new();
    for row in &rows {
        let input = &row[0];
        // The harness's quick form (no error text) has the same value or none.
        let result = literal_eval(input);
        if literal_value(input).map(|v| py_repr(&v)) != result.as_ref().ok().map(py_repr) {
            failures.push(format!(
                "{input:?}: literal_value differs from literal_eval"
            ));
        }
        let got = match result {
            // Python reads an int of more than 4300 digits but will not print it: the
            // file then has the error, and for an int its hexadecimal form and hash.
            Ok(v) => match (v.str_digits_error(), &v) {
                (None, _) => vec!["ok".to_string(), py_repr(&v), py_str(&v)],
                (Some(e), PyValue::Int(i)) => vec![
                    "ok".to_string(),
                    format!("{}: {}", e.class, e.message),
                    i.to_string(),
                    i.py_hash().to_string(),
                ],
                (Some(e), _) => vec!["ok".to_string(), format!("{}: {}", e.class, e.message)],
            },
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
    "jigsaw_easy",
    "jigsaw_hard",
    "colorization_easy",
    "colorization_hard",
    "mental_rotation_2d_easy",
    "mental_rotation_2d_hard",
    "zoom_in_puzzle_easy",
    "zoom_in_puzzle_hard",
    "counting_easy",
    "counting_hard",
    "referring_dot_pointing_easy",
    "referring_dot_pointing_hard",
    "video_unshuffle_easy",
    "video_unshuffle_hard",
    "mental_rotation_3d_objaverse_easy",
    "mental_rotation_3d_objaverse_hard",
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

pub fn sha256_hex(data: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What runs the environments of a replay: the library through the environment
/// interface ([`EnvPlayer`]), or the JSON-lines driver over a pipe. Replies are the
/// driver's reset and step replies (`state`, `reward`, flags, `feedback`, `ansi`).
pub trait VisGymPlayer {
    fn make(&mut self, id: &str, kwargs: &Map<String, Value>) -> Result<(), String>;
    /// The instructions for image (`false`) or text observations.
    fn prompt(&mut self, text_mode: bool) -> Result<Option<String>, String>;
    fn reset(&mut self, seed: Option<u64>) -> Result<Value, String>;
    /// The reply to a step, or the error the environment answered (a step the
    /// reference raises on).
    fn step(&mut self, action: &str) -> Result<Result<Value, String>, String>;
    /// The oracle's actions to the end of the episode (`kwargs` empty) or the
    /// reference solver's with these keyword arguments.
    fn solve(&mut self, kwargs: &Map<String, Value>) -> Result<Vec<String>, String>;
    /// The SHA-256 of the current RGB frame.
    fn frame_sha256(&mut self) -> Result<String, String>;
    /// Width and height of the frame, where the player can tell without rendering.
    fn frame_size(&mut self) -> Option<(u32, u32)> {
        None
    }
    /// The oracle's whole plan (also what it plays after the episode ended), where
    /// the player can reach the oracle itself.
    fn oracle_plan(&mut self) -> Option<Vec<String>> {
        None
    }
    /// The current state, where the player can read it without a step.
    fn state(&mut self) -> Option<Value> {
        None
    }
    /// The current frame's pixels, where the player can draw it itself.
    fn frame(&mut self) -> Option<envs::Frame> {
        None
    }
}

/// The library, through `envs::make` and the `Env` trait.
#[derive(Default)]
pub struct EnvPlayer {
    env: Option<Box<dyn envs::Env>>,
}

impl EnvPlayer {
    fn env(&mut self) -> Result<&mut Box<dyn envs::Env>, String> {
        self.env
            .as_mut()
            .ok_or_else(|| "no environment".to_string())
    }

    fn reply(env: &dyn envs::Env, mut fields: Map<String, Value>) -> Value {
        let mut reply = env.reply_fields();
        reply.append(&mut fields);
        Value::Object(reply)
    }
}

impl VisGymPlayer for EnvPlayer {
    fn make(&mut self, id: &str, kwargs: &Map<String, Value>) -> Result<(), String> {
        shelve_bundled_images()?;
        self.env = Some(envs::make(id, kwargs).map_err(|e| e.to_string())?);
        Ok(())
    }

    fn prompt(&mut self, text_mode: bool) -> Result<Option<String>, String> {
        Ok(self.env()?.instructions(text_mode))
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<Value, String> {
        let env = self.env()?;
        env.reset(seed);
        let mut fields = Map::new();
        fields.insert(
            "state".into(),
            env.snapshot_at_reset().unwrap_or(Value::Null),
        );
        Ok(Self::reply(env.as_ref(), fields))
    }

    fn step(&mut self, action: &str) -> Result<Result<Value, String>, String> {
        let env = self.env()?;
        let action = env.parse_action(action).map_err(|e| e.to_string())?;
        let step = match env.step(action) {
            Ok(s) => s,
            Err(e) => return Ok(Err(e.to_string())),
        };
        if step.signals.success != (step.terminated && step.reward == 1.0) {
            return Err(format!("success signal {:?} for {step:?}", step.signals));
        }
        let mut fields = Map::new();
        fields.insert("state".into(), env.snapshot().unwrap_or(Value::Null));
        fields.insert("reward".into(), step.reward.into());
        fields.insert("terminated".into(), step.terminated.into());
        fields.insert("truncated".into(), step.truncated.into());
        Ok(Ok(Self::reply(env.as_ref(), fields)))
    }

    fn solve(&mut self, kwargs: &Map<String, Value>) -> Result<Vec<String>, String> {
        let env = self.env()?;
        if kwargs.is_empty() {
            return Ok(envs::core::oracle::solve(env.as_ref(), 10_000));
        }
        env.solve_with(kwargs).ok_or("no solver with options")?
    }

    fn frame_sha256(&mut self) -> Result<String, String> {
        let mut frame = envs::Frame::default();
        self.env()?.render(&mut frame);
        Ok(sha256_hex(frame.data()))
    }

    fn frame_size(&mut self) -> Option<(u32, u32)> {
        self.env.as_ref().map(|e| e.frame_size())
    }

    fn frame(&mut self) -> Option<envs::Frame> {
        let mut frame = envs::Frame::default();
        self.env.as_ref()?.render(&mut frame);
        Some(frame)
    }

    fn state(&mut self) -> Option<Value> {
        self.env.as_ref().and_then(|e| e.snapshot())
    }

    fn oracle_plan(&mut self) -> Option<Vec<String>> {
        let env = self.env.as_ref()?;
        let mut oracle = env.oracle(envs::core::oracle::Control::default())?;
        let mut out = Vec::new();
        while let Some(a) = oracle.next_action(env.as_ref()) {
            out.push(env.action_text(&a));
        }
        Some(out)
    }
}

/// The keyword arguments of the reference's `solve` that give a golden solver list
/// (`oracle` is the evaluation harness's setting).
fn solve_kwargs(id: &str, name: &str) -> Result<Map<String, Value>, String> {
    let family = id.split('/').next().unwrap_or(id);
    let v = match (family, name) {
        ("matchstick_equation", "oracle") => {
            serde_json::json!({"strategy": "sos", "sos_seed": 12, "sos_max_len": 80})
        }
        ("matchstick_equation", "sos_rng") => serde_json::json!({"strategy": "sos"}),
        ("matchstick_rotation", "oracle") => serde_json::json!({"num_steps": 3}),
        ("matchstick_rotation", n) if n.starts_with("unit_first_") => {
            let steps: u64 = n["unit_first_".len()..]
                .parse()
                .map_err(|e| format!("{n}: {e}"))?;
            serde_json::json!({"num_steps": steps})
        }
        ("mental_rotation_2d", "oracle") => serde_json::json!({}),
        ("zoom_in_puzzle", "oracle") => serde_json::json!({"strategy": "reorder"}),
        (
            "colorization"
            | "mental_rotation_2d"
            | "referring_dot_pointing"
            | "mental_rotation_3d_objaverse",
            n,
        ) if n.starts_with("steps_") => {
            let steps: u64 = n["steps_".len()..]
                .parse()
                .map_err(|e| format!("{n}: {e}"))?;
            serde_json::json!({ "num_steps": steps })
        }
        (_, "oracle") => serde_json::json!({"strategy": null}),
        (_, strategy) => serde_json::json!({ "strategy": strategy }),
    };
    v.as_object().cloned().ok_or_else(|| "not an object".into())
}

/// The oracle's actions up to the end of the episode: through its first stop.
fn through_first_stop(plan: &[String]) -> Vec<String> {
    match plan.iter().position(|a| a == "('stop', 'stop')") {
        Some(i) => plan[..=i].to_vec(),
        None => plan.to_vec(),
    }
}

/// Replays one environment golden file with `player`; `Err` names the first mismatch.
pub fn check_env_golden(
    player: &mut dyn VisGymPlayer,
    gz: &[u8],
    tol: f64,
) -> Result<EnvCoverage, String> {
    let mut check = EnvGoldenCheck::new(gz, tol)?;
    while check.next_instance(player)? {}
    Ok(check.coverage)
}

/// One environment golden file replayed a constructor instance at a time, so that a
/// browser test can give the page a turn between instances.
pub struct EnvGoldenCheck {
    golden: Value,
    tol: f64,
    next: usize,
    /// What the instances replayed so far covered.
    pub coverage: EnvCoverage,
}

impl EnvGoldenCheck {
    pub fn new(gz: &[u8], tol: f64) -> Result<Self, String> {
        let golden: Value =
            serde_json::from_str(&decompress(gz)?).map_err(|e| format!("golden file: {e}"))?;
        golden["env"].as_str().ok_or("no env")?;
        golden["instances"].as_array().ok_or("no instances")?;
        Ok(Self {
            golden,
            tol,
            next: 0,
            coverage: EnvCoverage::default(),
        })
    }

    /// Replays the next instance; `Ok(false)` once every instance has been replayed.
    pub fn next_instance(&mut self, player: &mut dyn VisGymPlayer) -> Result<bool, String> {
        let Some(inst) = self.golden["instances"].get(self.next) else {
            return Ok(false);
        };
        self.next += 1;
        replay_instance(player, &self.golden, inst, self.tol, &mut self.coverage)?;
        Ok(true)
    }
}

fn replay_instance(
    player: &mut dyn VisGymPlayer,
    golden: &Value,
    inst: &Value,
    tol: f64,
    cov: &mut EnvCoverage,
) -> Result<(), String> {
    let id = golden["env"].as_str().ok_or("no env")?;
    let seed = inst["seed"].clone();
    // An instance may also name other constructor keywords (`kwargs`).
    let mut kwargs = inst["kwargs"].as_object().cloned().unwrap_or_default();
    kwargs.insert("seed".into(), seed.clone());
    player.make(id, &kwargs)?;
    if seed == 0 {
        for (text_mode, key) in [(false, "rgb_array"), (true, "ansi")] {
            let want = golden["prompts"][key].as_str();
            let got = player.prompt(text_mode)?;
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
        let mut reply = player.reset(ep["seed"].as_u64()).map_err(|m| at(&m))?;
        cov.resets += 1;
        let state = &mut reply["state"];
        if ep["partial"].as_bool() == Some(true) {
            // Fields the reference draws from OS entropy are not in the golden.
            if let (Some(got), Some(want)) = (state.as_object_mut(), ep["reset"].as_object()) {
                got.retain(|k, _| want.contains_key(k));
            }
        }
        if !json_close(state, &ep["reset"], tol) {
            return Err(at(&format!(
                "reset state\n got  {state}\n want {}",
                ep["reset"]
            )));
        }
        check_observation(player, &reply, ep, &golden["frame_mask"], cov)
            .map_err(|m| at(&format!("reset {m}")))?;
        // Environments whose prompt names the sample record it after each reset.
        if let Some(want) = ep.get("prompt") {
            let got = player.prompt(false)?;
            if got.as_deref() != want.as_str() {
                return Err(at(&format!("prompt\n got  {got:?}\n want {want}")));
            }
        }
        if let Some((w, h)) = player.frame_size() {
            if serde_json::json!([w, h]) != ep["size"] {
                return Err(at(&format!("frame size {w}x{h}, reference {}", ep["size"])));
            }
        }
        let solves = ep["solve"]
            .as_object()
            .filter(|_| ep["partial"].as_bool() != Some(true));
        if let Some(solves) = solves {
            for (name, want) in solves {
                let want: Vec<String> =
                    serde_json::from_value(want.clone()).map_err(|e| e.to_string())?;
                let got = player.solve(&solve_kwargs(id, name)?).map_err(|m| at(&m))?;
                if got != want {
                    return Err(at(&format!("solve {name}\n got  {got:?}\n want {want:?}")));
                }
                if name == "oracle" {
                    let played = player.solve(&Map::new()).map_err(|m| at(&m))?;
                    if played != through_first_stop(&want) {
                        return Err(at(&format!(
                            "the oracle played\n {played:?}\n want {want:?}"
                        )));
                    }
                    if let Some(plan) = player.oracle_plan() {
                        if plan != want {
                            return Err(at(&format!(
                                "the oracle's plan\n {plan:?}\n want {want:?}"
                            )));
                        }
                    }
                }
                cov.solves += 1;
            }
        }
        for (t, row) in ep["steps"].as_array().ok_or("no steps")?.iter().enumerate() {
            let action = row["a"].as_str().ok_or("no action")?;
            let at = |what: String| at(&format!("step {t} {action:?}: {what}"));
            let result = player.step(action).map_err(at)?;
            let reply = match (result, row.get("e")) {
                (Err(err), Some(want)) => {
                    let want = format!(
                        "invalid action: the reference raises {}: {}",
                        want[0].as_str().unwrap_or_default(),
                        want[1].as_str().unwrap_or_default()
                    );
                    if !err.ends_with(&want) {
                        return Err(at(format!("raised {err:?}, reference {want:?}")));
                    }
                    cov.errors += 1;
                    None
                }
                (Err(err), None) => return Err(at(format!("raised {err}"))),
                (Ok(reply), None) => {
                    let got_f = reply["feedback"].as_str().map(mask_addresses);
                    let want_f = row["f"].as_str().map(mask_addresses);
                    if got_f != want_f {
                        return Err(at(format!(
                            "feedback\n got  {}\n want {}",
                            reply["feedback"], row["f"]
                        )));
                    }
                    if reply["reward"].as_f64() != row["r"].as_f64()
                        || reply["terminated"] != row["t"]
                        || reply["truncated"] != false
                    {
                        return Err(at(format!(
                            "reward/flags {} {} {}, reference {} {}",
                            reply["reward"],
                            reply["terminated"],
                            reply["truncated"],
                            row["r"],
                            row["t"]
                        )));
                    }
                    cov.terminations += usize::from(reply["terminated"] == true);
                    Some(reply)
                }
                (Ok(_), Some(want)) => {
                    return Err(at(format!("no exception, reference raised {want}")))
                }
            };
            match &reply {
                Some(reply) => {
                    if !json_close(&reply["state"], &row["s"], tol) {
                        return Err(at(format!(
                            "state\n got  {}\n want {}",
                            reply["state"], row["s"]
                        )));
                    }
                    check_observation(player, reply, row, &golden["frame_mask"], cov)
                        .map_err(at)?;
                }
                None => {
                    // The state the reference left, where the player can read it
                    // without a step.
                    if let Some(state) = player.state() {
                        if !json_close(&state, &row["s"], tol) {
                            return Err(at(format!(
                                "state after the exception\n got  {state}\n want {}",
                                row["s"]
                            )));
                        }
                    }
                }
            }
            cov.steps += 1;
        }
    }
    Ok(())
}

/// Replays a golden file's `orders` (Counting's and Referring Dot-Pointing's samples,
/// reset after reset until the reference raises) on the library; the resets checked.
pub fn check_sample_orders(gz: &[u8]) -> Result<usize, String> {
    let golden: Value =
        serde_json::from_str(&decompress(gz)?).map_err(|e| format!("golden file: {e}"))?;
    let id = golden["env"].as_str().ok_or("no env")?;
    let orders = golden["orders"].as_object().ok_or("no orders")?;
    shelve_bundled_images()?;
    let mut n = 0;
    for (seed, rows) in orders {
        let mut kwargs = Map::new();
        kwargs.insert(
            "seed".into(),
            Value::from(seed.parse::<u64>().map_err(|e| e.to_string())?),
        );
        let mut env = envs::visgym::make(id, &kwargs)?;
        for (i, want) in rows.as_array().ok_or("no rows")?.iter().enumerate() {
            let at = format!("{id} seed {seed} reset {i}");
            env.reset(None);
            n += 1;
            match (env.reset_failure(), want.get("e")) {
                (Some(e), Some(w)) => {
                    if w[0] != e.class || w[1] != e.message.as_str() {
                        return Err(format!("{at}: raised {e:?}, reference {w}"));
                    }
                }
                (Some(e), None) => return Err(format!("{at}: raised {e:?}")),
                (None, Some(w)) => return Err(format!("{at}: no exception, reference {w}")),
                (None, None) => {
                    let state = env.state_json(true);
                    for (k, v) in want.as_object().ok_or("a row is not an object")? {
                        if &state[k] != v {
                            return Err(format!("{at}: {k} {}, reference {v}", state[k]));
                        }
                    }
                }
            }
        }
    }
    Ok(n)
}

/// Mental Rotation 3D's view geometry against a golden file: each model's centre and
/// radius, and where trimesh put the camera for the target (`target_cam`) and for the
/// turned model after every reset and step (`cam`, at the state's rotation). Returns the
/// cameras checked.
pub fn check_objaverse_views(gz: &[u8]) -> Result<usize, String> {
    use envs::visgym::images::gltf::read_model;
    use envs::visgym::mesh_view::Shape;
    let golden: Value =
        serde_json::from_str(&decompress(gz)?).map_err(|e| format!("golden file: {e}"))?;
    let set =
        envs::visgym::images::ImageSet::from_zip(BUNDLED_OBJECTS).map_err(|e| e.to_string())?;
    let rot = |state: &Value| -> Result<[[f64; 3]; 3], String> {
        let mut m = [[0.0; 3]; 3];
        for (i, row) in m.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = state["current_rot"][i][j]
                    .as_f64()
                    .ok_or("no current_rot")?;
            }
        }
        Ok(m)
    };
    let close3 = |got: [f64; 3], want: &Value| {
        (0..3).all(|k| {
            want[k]
                .as_f64()
                .is_some_and(|w| (got[k] - w).abs() <= 1e-9 * w.abs().max(1.0))
        })
    };
    let mut n = 0;
    for inst in golden["instances"].as_array().ok_or("no instances")? {
        for ep in inst["episodes"].as_array().ok_or("no episodes")? {
            let path = ep["reset"]["object_path"]
                .as_str()
                .ok_or("no object_path")?;
            let file = set
                .get(path)
                .ok_or_else(|| format!("{path} is not bundled"))?;
            let bytes = file.read()?;
            let model = read_model(&bytes, &|_| None).map_err(|e| format!("{path}: {e}"))?;
            let shape = Shape::new(&model);
            let radius = ep["radius"].as_f64().ok_or("no radius")?;
            if !close3(shape.centre, &ep["centre"]) || (shape.radius - radius).abs() > 1e-9 {
                return Err(format!(
                    "{path}: centre {:?} radius {}, reference {} {radius}",
                    shape.centre, shape.radius, ep["centre"]
                ));
            }
            let identity = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
            let mut views = vec![(shape.camera(&identity), &ep["target_cam"])];
            views.push((shape.camera(&rot(&ep["reset"])?), &ep["cam"]));
            for row in ep["steps"].as_array().ok_or("no steps")? {
                if row.get("cam").is_some() {
                    views.push((shape.camera(&rot(&row["s"])?), &row["cam"]));
                }
            }
            for (got, want) in views {
                if !close3(got, want) {
                    return Err(format!("{path}: camera {got:?}, reference {want}"));
                }
                n += 1;
            }
        }
    }
    Ok(n)
}

/// How close our drawing of Mental Rotation 3D is to pyrender's: the first constructor's
/// reset frames of a golden file (`frame_png`) against ours after the same resets. Per
/// frame, the share of pixels within 8 levels on every channel and the share where both
/// agree on background (white) or object; the smallest of each over the frames, and how
/// many frames.
pub fn check_objaverse_frames(gz: &[u8]) -> Result<(f64, f64, usize), String> {
    use envs::visgym::images::{decode_rgb, ImageFile};
    let golden: Value =
        serde_json::from_str(&decompress(gz)?).map_err(|e| format!("golden file: {e}"))?;
    let id = golden["env"].as_str().ok_or("no env")?;
    shelve_bundled_images()?;
    let inst = &golden["instances"][0];
    let mut kwargs = inst["kwargs"].as_object().cloned().unwrap_or_default();
    kwargs.insert("seed".into(), inst["seed"].clone());
    let mut env = envs::make(id, &kwargs).map_err(|e| e.to_string())?;
    let (mut close, mut shape, mut n) = (1.0f64, 1.0f64, 0);
    for ep in inst["episodes"].as_array().ok_or("no episodes")? {
        env.reset(ep["seed"].as_u64());
        if let Some(e) = env.reset_failure() {
            return Err(e);
        }
        let Some(png) = ep["frame_png"].as_str() else {
            continue;
        };
        let bytes = base64_decode(png).ok_or("frame_png is not base64")?;
        let want = decode_rgb(&ImageFile::new("frame.png", bytes))?;
        let mut got = envs::Frame::default();
        env.render(&mut got);
        if (got.width(), got.height()) != (want.width, want.height) {
            return Err(format!(
                "frame {}x{}, reference {}x{}",
                got.width(),
                got.height(),
                want.width,
                want.height
            ));
        }
        let (mut near, mut same_shape) = (0usize, 0usize);
        let pixels = got.data().chunks_exact(3).zip(want.data.chunks_exact(3));
        for (g, w) in pixels {
            near += usize::from(g.iter().zip(w).all(|(a, b)| a.abs_diff(*b) <= 8));
            let white = |p: &[u8]| p.iter().all(|&c| c == 255);
            same_shape += usize::from(white(g) == white(w));
        }
        let total = (got.width() * got.height()) as f64;
        close = close.min(near as f64 / total);
        shape = shape.min(same_shape as f64 / total);
        n += 1;
    }
    Ok((close, shape, n))
}

/// The text frame (`x`) and the frame hash (`h`) a golden row records, against a reply.
fn check_observation(
    player: &mut dyn VisGymPlayer,
    reply: &Value,
    row: &Value,
    mask: &Value,
    cov: &mut EnvCoverage,
) -> Result<(), String> {
    // `m`: the SHA-256 of the frame with the file's `frame_mask` rectangles blacked out
    // (text the reference draws in a font we do not ship), where the player can draw.
    if let (Some(want), Some(mut frame)) = (row.get("m"), player.frame()) {
        for r in mask.as_array().into_iter().flatten() {
            let n = |i: usize| r[i].as_i64().unwrap_or(0);
            frame.fill_rect(n(0), n(1), n(2), n(3), [0, 0, 0]);
        }
        let got = sha256_hex(frame.data());
        if Some(got.as_str()) != want.as_str() {
            return Err(format!("masked frame sha256 {got}, reference {want}"));
        }
        cov.frames += 1;
    }
    if let Some(want) = row.get("x") {
        if reply["ansi"] != *want {
            return Err(format!(
                "text frame\n got\n{}\n want\n{}",
                reply["ansi"].as_str().unwrap_or_default(),
                want.as_str().unwrap_or_default()
            ));
        }
    }
    if let Some(want) = row.get("h") {
        let got = player.frame_sha256()?;
        if Some(got.as_str()) != want.as_str() {
            return Err(format!("frame sha256 {got}, reference {want}"));
        }
        cov.frames += 1;
    }
    Ok(())
}

/// The bundled image set (`public/visgym-images/images.zip`), as the app and the driver
/// load it.
pub const BUNDLED_IMAGES: &[u8] = include_bytes!("../../public/visgym-images/images.zip");
/// The bundled scene sets of Counting and Referring Dot-Pointing (`public/visgym-scenes/`).
pub const BUNDLED_COUNTING: &[u8] = include_bytes!("../../public/visgym-scenes/counting.zip");
pub const BUNDLED_REFERRING: &[u8] = include_bytes!("../../public/visgym-scenes/referring.zip");
/// The bundled clips of Video Unshuffle (`public/visgym-scenes/videos.zip`).
pub const BUNDLED_VIDEOS: &[u8] = include_bytes!("../../public/visgym-scenes/videos.zip");
/// The bundled models of Mental Rotation 3D (`public/visgym-scenes/objects.zip`).
pub const BUNDLED_OBJECTS: &[u8] = include_bytes!("../../public/visgym-scenes/objects.zip");

/// Puts the bundled sets on the environments' shelf (`sample_dir`'s defaults).
pub fn shelve_bundled_images() -> Result<(), String> {
    use envs::visgym::images::{
        shelf, ImageSet, COUNTING_SCENES, OBJECTS, PICTURES, REFERRING_SCENES, VIDEO_CLIPS,
    };
    for (bundle, zip) in [
        (PICTURES, BUNDLED_IMAGES),
        (COUNTING_SCENES, BUNDLED_COUNTING),
        (REFERRING_SCENES, BUNDLED_REFERRING),
        (VIDEO_CLIPS, BUNDLED_VIDEOS),
        (OBJECTS, BUNDLED_OBJECTS),
    ] {
        if shelf::get(bundle.name).is_none() {
            shelf::put(
                bundle.name,
                ImageSet::from_zip(zip).map_err(|e| e.to_string())?,
            );
        }
    }
    Ok(())
}

/// How the reference lists a folder of awkward names for each image environment, and
/// the sample order its constructor draws for several seeds (`generate.py
/// image_listing`).
pub const IMAGE_LISTING_GOLDEN: &[u8] = include_bytes!("../golden/visgym/image_listing.json.gz");

/// Checks every listing and order; the number of orders checked.
pub fn check_image_listing_golden() -> Result<usize, String> {
    use envs::rng::{NpRandom, RandomState};
    use envs::visgym::images::{ImageFile, ImageSet, Listing};
    let golden: Value = serde_json::from_str(&decompress(IMAGE_LISTING_GOLDEN)?)
        .map_err(|e| format!("golden file: {e}"))?;
    let paths: Vec<String> =
        serde_json::from_value(golden["paths"].clone()).map_err(|e| e.to_string())?;
    let set = ImageSet::new(
        paths
            .iter()
            .map(|p| ImageFile::new(p.as_str(), &b""[..]))
            .collect(),
    )
    .map_err(|e| e.to_string())?;
    let mut checked = 0;
    let envs = golden["envs"].as_object().ok_or("no envs")?;
    for (name, want) in envs {
        let listing = match name.as_str() {
            "jigsaw" => Listing::TopAndOneDown,
            "zoom_in_puzzle" => Listing::Recursive,
            "colorization" | "mental_rotation_2d" => Listing::RecursiveAnyCase,
            other => return Err(format!("unknown environment {other}")),
        };
        let listed: Vec<String> = set.list(listing).into_iter().map(|f| f.path).collect();
        if serde_json::json!(listed) != want["listed"] {
            return Err(format!(
                "{name} lists
 {listed:?}
 want {}",
                want["listed"]
            ));
        }
        for (seed, order) in want["orders"].as_object().ok_or("no orders")? {
            let seed: u32 = seed.parse().map_err(|_| "bad seed")?;
            let mut idx: Vec<usize> = (0..listed.len()).collect();
            match name.as_str() {
                // `Generator.permutation(n)` / `Generator.shuffle(list)`: one algorithm.
                "jigsaw" | "colorization" | "mental_rotation_2d" => {
                    NpRandom::seeded(u128::from(seed)).shuffle(&mut idx)
                }
                // The legacy `RandomState(seed).permutation(n)`.
                _ => idx = RandomState::new(seed).permutation(listed.len()),
            }
            let got: Vec<&str> = idx.iter().map(|&i| listed[i].as_str()).collect();
            if serde_json::json!(got) != *order {
                return Err(format!(
                    "{name} seed {seed} orders
 {got:?}
 want {order}"
                ));
            }
            checked += 1;
        }
    }
    Ok(checked)
}

/// JPEG pictures with Pillow's and OpenCV's decodings (`generate.py jpeg`).
pub const JPEG_GOLDEN: &[u8] = include_bytes!("../golden/visgym/jpeg.json.gz");

/// How far our JPEG decoding is from a reference decoder's.
#[derive(Debug, Default, Clone, Copy)]
pub struct JpegDistance {
    pub pictures: usize,
    /// The largest difference of one sample (one channel of one pixel).
    pub max: u8,
    /// Samples that differ, of all.
    pub differing: usize,
    pub samples: usize,
}

/// Decodes every JPEG of the golden file; the distance to Pillow's and to OpenCV's.
pub fn check_jpeg_golden() -> Result<(JpegDistance, JpegDistance), String> {
    use envs::visgym::images::{decode_rgb, ImageFile};
    let golden: Value =
        serde_json::from_str(&decompress(JPEG_GOLDEN)?).map_err(|e| format!("golden file: {e}"))?;
    let (mut pil, mut cv) = (JpegDistance::default(), JpegDistance::default());
    for row in golden.as_array().ok_or("no rows")? {
        let b64 = |k: &str| -> Result<Vec<u8>, String> {
            base64_decode(row[k].as_str().ok_or("no field")?)
                .ok_or_else(|| format!("{k}: not base64"))
        };
        let ours = decode_rgb(&ImageFile::new("x.jpg", b64("jpeg")?))?;
        for (want, d) in [(b64("pillow")?, &mut pil), (b64("opencv")?, &mut cv)] {
            if want.len() != ours.data.len() {
                return Err(format!(
                    "{}: {} samples, reference {}",
                    row["picture"],
                    ours.data.len(),
                    want.len()
                ));
            }
            d.pictures += 1;
            d.samples += want.len();
            for (a, b) in ours.data.iter().zip(&want) {
                let diff = a.abs_diff(*b);
                d.max = d.max.max(diff);
                d.differing += usize::from(diff > 0);
            }
        }
    }
    Ok((pil, cv))
}

/// Standard base64 (with padding).
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let bytes = text.trim_end_matches('=').as_bytes();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= value(c)? << (18 - 6 * i);
        }
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    Some(out)
}

/// The reference harness's conversation on Maze 2D easy, seed 0 (`generate.py
/// conversation`): for each setting, the scripted model's replies and every request the
/// harness sent, images as the SHA-256 of the encoded frame and its size.
pub const CONVERSATION_GOLDEN: &[u8] = include_bytes!("../golden/visgym/conversation.json.gz");

/// Encodes a frame as its SHA-256 and the size VisGym's harness shrinks it to, so a
/// request shows which frame it carries.
struct FrameTag;

impl bench::model_episode::FrameEncoder for FrameTag {
    fn encode(
        &mut self,
        frame: &envs::Frame,
    ) -> Result<bench::protocol::providers::EncodedImage, String> {
        let (w, h) = bench::lanczos::shrunk_size(
            frame.width(),
            frame.height(),
            bench::encode::VISGYM_MAX_LONG_SIDE,
        );
        Ok(bench::protocol::providers::EncodedImage::new(
            "image/jpeg",
            format!("{}:{w}:{h}", sha256_hex(frame.data())),
        ))
    }
}

/// The session settings of a golden run's harness options.
pub fn conversation_config(options: &Value, text: bool) -> bench::protocol::session::SessionConfig {
    use bench::protocol::session::{HistoryWindow, ObservationMode, Protocol, SessionConfig};
    let flag = |k: &str| options[k].as_bool().unwrap_or(false);
    SessionConfig {
        protocol: Protocol::Visgym,
        feedback: flag("include_env_feedback"),
        verbalize: flag("elicit_verbalization"),
        final_goal: flag("provide_final_goal"),
        repeat_instructions: flag("repeat_instructions"),
        history: match options["num_interaction_history"].as_i64() {
            Some(k) if k >= 0 => HistoryWindow::Last(k as u32),
            _ => HistoryWindow::Full,
        },
        observation: if text {
            ObservationMode::Text
        } else {
            ObservationMode::Image
        },
        ..SessionConfig::default()
    }
}

/// An OpenAI request's messages in the golden's form: assistant contents as strings,
/// user contents as `{"text"}` and `{"image": {"frame_sha256", "size"}}` items.
pub fn request_messages(body: &str) -> Result<Vec<Value>, String> {
    let body: Value = serde_json::from_str(body).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for m in body["messages"].as_array().ok_or("no messages")? {
        let content = match &m["content"] {
            Value::Array(parts) => Value::Array(
                parts
                    .iter()
                    .map(|p| match p["type"].as_str() {
                        Some("text") => serde_json::json!({ "text": p["text"] }),
                        _ => {
                            let url = p["image_url"]["url"].as_str().unwrap_or_default();
                            let tag = url.split_once(',').map_or("", |(_, d)| d);
                            let mut it = tag.split(':');
                            let sha = it.next().unwrap_or_default();
                            let size: Vec<u32> = it.filter_map(|v| v.parse().ok()).collect();
                            serde_json::json!({"image": {"frame_sha256": sha, "size": size}})
                        }
                    })
                    .collect(),
            ),
            other => other.clone(),
        };
        out.push(serde_json::json!({"role": m["role"], "content": content}));
    }
    Ok(out)
}

/// The provider's answer to a script entry: a reply, or a failure (context overflow
/// when the message says so, else a server error).
pub fn scripted_answer(entry: &Value) -> (u16, String) {
    match entry {
        Value::String(text) => (
            200,
            serde_json::json!({"choices": [{"message": {"role": "assistant", "content": text}}]})
                .to_string(),
        ),
        other => {
            let message = other["error"].as_str().unwrap_or_default();
            let status = if message.contains("maximum context length") {
                400
            } else {
                500
            };
            let code = (status == 400).then_some("context_length_exceeded");
            (
                status,
                serde_json::json!({"error": {"message": message, "code": code}}).to_string(),
            )
        }
    }
}

/// Plays every golden run through the model-episode state machine with the VisGym
/// protocol and compares each request with the reference's; returns the requests
/// compared.
pub fn check_conversation_golden() -> Result<usize, String> {
    use bench::model_episode::{ModelEpisode, Step};
    use bench::protocol::endpoint::Prices;

    use crate::gameverse_requests::scripted_endpoint;
    let golden: Value =
        serde_json::from_str(&decompress(CONVERSATION_GOLDEN)?).map_err(|e| e.to_string())?;
    let suite = bench::suites::latest("visgym").map_err(|e| e.to_string())?;
    let task = suite
        .tasks
        .iter()
        .find(|t| t.env == golden["env"] && Some(t.seed) == golden["seed"].as_u64())
        .ok_or("no suite task for the golden's environment and seed")?;
    if Some(u64::from(task.max_steps)) != golden["budget"].as_u64() {
        return Err(format!("budget {} in the suite", task.max_steps));
    }
    let mut compared = 0;
    for run in golden["runs"].as_array().ok_or("no runs")? {
        let name = run["name"].as_str().unwrap_or_default();
        let at = |what: String| format!("{name}: {what}");
        let config = conversation_config(&run["options"], name == "text");
        let mut episode =
            ModelEpisode::new(task, scripted_endpoint(), config, Prices::default()).map_err(at)?;
        episode.replace_protocol_encoder(Box::new(FrameTag));
        let script = run["script"].as_array().ok_or("no script")?;
        let requests = run["requests"].as_array().ok_or("no requests")?;
        let mut n = 0;
        while let Step::Send { request, .. } = episode.next(&mut FrameTag, None) {
            let want = requests
                .get(n)
                .ok_or_else(|| at(format!("request {n} is one more than the reference's")))?;
            let got = Value::Array(request_messages(&request.body).map_err(at)?);
            if got != *want {
                return Err(at(format!("request {n}:\n got  {got}\n want {want}")));
            }
            let entry = script
                .get(n)
                .cloned()
                .unwrap_or(Value::from("('stop', 'stop')"));
            let (status, body) = scripted_answer(&entry);
            episode.on_response(status, None, 0, &body, 1.0, None);
            n += 1;
            compared += 1;
        }
        if n != requests.len() {
            return Err(at(format!(
                "{n} requests, the reference sent {}",
                requests.len()
            )));
        }
        let record = episode.record().ok_or_else(|| at("no record".into()))?;
        let actions: Vec<&str> = record.decisions.iter().map(|d| d.action.as_str()).collect();
        let want: Vec<&str> = run["actions"]
            .as_array()
            .ok_or("no actions")?
            .iter()
            .filter_map(Value::as_str)
            .collect();
        if actions != want {
            return Err(at(format!("actions {actions:?}, reference {want:?}")));
        }
        let success = run["stats"]["reward"].as_f64() == Some(1.0);
        if record.passed != success
            || Some(record.decisions.len() as u64) != run["stats"]["step"].as_u64()
        {
            return Err(at(format!("record {record:?}, reference {}", run["stats"])));
        }
    }
    Ok(compared)
}

/// Pillow's Lanczos resize as VisGym's harness shrinks frames (`generate.py lanczos`).
pub const LANCZOS_GOLDEN: &[u8] = include_bytes!("../golden/visgym/lanczos.json.gz");

/// The golden's pictures, as `lanczos_pixels` in `generate.py` makes them.
pub fn lanczos_pixels(w: u32, h: u32, pattern: u64) -> envs::Frame {
    let mut frame = envs::Frame::new(w, h);
    let mut state: u64 = 12345;
    for (i, v) in frame.data_mut().iter_mut().enumerate() {
        let (p, c) = (i as u64 / 3, i as u64 % 3);
        let (y, x) = (p / u64::from(w), p % u64::from(w));
        *v = if pattern == 0 {
            if (x / 16 + y / 16) % 2 == 1 {
                ((x * 3 + y * 2 + c * 85) & 255) as u8
            } else if c == 1 {
                255
            } else {
                0
            }
        } else {
            state = (state * 1_103_515_245 + 12345) & 0x7FFF_FFFF;
            (state >> 23) as u8
        };
    }
    frame
}

/// Shrinks each golden picture with `bench::lanczos`: the cases that differ from Pillow,
/// and how many there were.
pub fn check_lanczos_golden() -> Result<(Vec<String>, usize), String> {
    let doc = crate::reference::read_json("lanczos.json.gz", LANCZOS_GOLDEN)?;
    let rows = doc.as_array().ok_or("lanczos.json.gz: not a list")?;
    let mut failures = Vec::new();
    for row in rows {
        let n = |k: &str| row[k].as_u64().unwrap_or_default();
        let (w, h) = (n("w") as u32, n("h") as u32);
        let size = bench::lanczos::shrunk_size(w, h, bench::encode::VISGYM_MAX_LONG_SIDE);
        if size != (n("tw") as u32, n("th") as u32) {
            failures.push(format!("{w}×{h}: shrunk to {size:?}, reference {row}"));
            continue;
        }
        let small = bench::lanczos::resize(&lanczos_pixels(w, h, n("pattern")), size.0, size.1);
        if Some(sha256_hex(small.data()).as_str()) != row["sha256"].as_str() {
            failures.push(format!("{w}×{h} pattern {}: pixels differ", n("pattern")));
        }
    }
    Ok((failures, rows.len()))
}
