//! Replays the Fetch golden files (`tests/golden/visgym/fetch_*.json.gz`, written by
//! `tests/golden/visgym/fetch.py` from the reference on PyPI's MuJoCo) on our Fetch
//! environments, whichever physics host is installed. Discrete outcomes (feedback,
//! rewards, termination, success, solver plans) must be equal; positions, velocities
//! and camera settings within [`TOLERANCE`]: the reference's MuJoCo is the native
//! library, ours the WebAssembly module, and they round differently from the first step
//! (docs/physics-engine.md, about 1e-13).

use envs::visgym::fetch::{solve, Fetch, Task};
use serde_json::{json, Value};

/// Absolute tolerance on every number of a state.
pub const TOLERANCE: f64 = 1e-9;

/// What a replay covered.
#[derive(Debug, Default)]
pub struct FetchCoverage {
    pub episodes: usize,
    pub steps: usize,
    pub plans: usize,
    /// The largest absolute difference seen in any compared number.
    pub max_diff: f64,
}

fn close(what: &str, ours: &Value, theirs: &Value, cov: &mut FetchCoverage) -> Result<(), String> {
    match (ours, theirs) {
        (Value::Number(a), Value::Number(b)) => {
            let (a, b) = (
                a.as_f64().unwrap_or(f64::NAN),
                b.as_f64().unwrap_or(f64::NAN),
            );
            let d = (a - b).abs();
            if d.is_nan() || d > TOLERANCE {
                return Err(format!("{what}: ours {a}, the reference's {b}"));
            }
            cov.max_diff = cov.max_diff.max(d);
            Ok(())
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                close(&format!("{what}[{i}]"), x, y, cov)?;
            }
            Ok(())
        }
        (Value::Object(a), Value::Object(b)) => {
            for (k, y) in b {
                let x = a
                    .get(k)
                    .ok_or_else(|| format!("{what}.{k}: we have none"))?;
                close(&format!("{what}.{k}"), x, y, cov)?;
            }
            Ok(())
        }
        (a, b) if a == b => Ok(()),
        (a, b) => Err(format!("{what}: ours {a}, the reference's {b}")),
    }
}

/// The golden state's fields we reproduce, from our environment.
fn our_state(env: &Fetch) -> Value {
    let s = env.state_json();
    let sim = env.state();
    json!({
        "time": s["time"], "qpos": s["qpos"], "qvel": s["qvel"], "ctrl": s["ctrl"],
        "mocap_pos": s["mocap_pos"], "mocap_quat": s["mocap_quat"], "goal": s["goal"],
        "observation": s["observation"], "achieved_goal": s["achieved_goal"],
        "desired_goal": s["goal"], "camera": s["camera"], "follow_lookat": s["follow_lookat"],
        "gripper_bias": s["gripper_bias"], "qacc_warmstart": sim.qacc_warmstart,
        "site_pos_target0": sim.site_pos.get(0..3),
    })
}

/// Replays one golden file (gzipped JSON) on a new environment.
pub fn check_fetch_golden(gz: &[u8]) -> Result<FetchCoverage, String> {
    let mut check = FetchGoldenCheck::new(gz)?;
    while check.next_episode()? {}
    Ok(check.coverage)
}

/// A golden file's replay, an episode at a time (a browser test hands the page its
/// thread back between episodes).
pub struct FetchGoldenCheck {
    doc: Value,
    env: Fetch,
    next: usize,
    pub coverage: FetchCoverage,
}

impl FetchGoldenCheck {
    /// Makes the environment and checks what its constructor computed and its prompt.
    pub fn new(gz: &[u8]) -> Result<Self, String> {
        let doc: Value =
            serde_json::from_str(&crate::visgym::decompress(gz)?).map_err(|e| e.to_string())?;
        let task = match doc["name"].as_str() {
            Some("fetch_reach") => Task::Reach,
            Some("fetch_pick_and_place") => Task::PickAndPlace,
            other => return Err(format!("unknown env {other:?}")),
        };
        let mut cov = FetchCoverage::default();
        let env = Fetch::new(task, 0).map_err(|e| e.to_string())?;
        let c = &doc["construction"];
        close(
            "initial_gripper_xpos",
            &json!(env.initial_gripper_xpos()),
            &c["initial_gripper_xpos"],
            &mut cov,
        )?;
        if !c["height_offset"].is_null() {
            close(
                "height_offset",
                &json!(env.height_offset()),
                &c["height_offset"],
                &mut cov,
            )?;
        }
        if doc["prompt"].as_str() != Some(env.prompt().as_str()) {
            return Err(format!(
                "prompt differs:\n{}\n---\n{}",
                env.prompt(),
                doc["prompt"]
            ));
        }
        Ok(FetchGoldenCheck {
            doc,
            env,
            next: 0,
            coverage: cov,
        })
    }

    /// Replays the next episode; false when there is none left.
    pub fn next_episode(&mut self) -> Result<bool, String> {
        let Some(ep) = self.doc["episodes"]
            .as_array()
            .ok_or("no episodes")?
            .get(self.next)
        else {
            return Ok(false);
        };
        replay_episode(self.next, ep, &mut self.env, &mut self.coverage)?;
        self.next += 1;
        Ok(true)
    }
}

/// Episode `e` of a golden file, on `env` as the earlier episodes left it.
fn replay_episode(
    e: usize,
    ep: &Value,
    env: &mut Fetch,
    cov: &mut FetchCoverage,
) -> Result<(), String> {
    let seed = ep["seed"].as_u64();
    let at = |what: &str| format!("episode {e} (seed {seed:?}) {what}");
    if let Some(plan) = ep["solve"].as_array() {
        env.reset(seed).map_err(|x| at(&x.to_string()))?;
        // The reference solved from this state (the marker may sit an ulp away).
        let mut before = ep["reset"].clone();
        before["site_pos_target0"] = json!(env.state().site_pos.get(0..3));
        close(&at("reset before solve"), &our_state(env), &before, cov)?;
        let ours = solve(env).map_err(|x| at(&x.to_string()))?;
        let theirs: Vec<&str> = plan.iter().filter_map(Value::as_str).collect();
        if let Some(i) = (0..ours.len().max(theirs.len()))
            .find(|&i| ours.get(i) != theirs.get(i).map(|s| s.to_string()).as_ref())
        {
            return Err(at(&format!(
                "solve: {} and {} actions, first difference at {i}: ours {:?}, the reference's {:?}",
                ours.len(), theirs.len(), ours.get(i), theirs.get(i)
            )));
        }
        cov.plans += 1;
    }
    env.reset(seed).map_err(|x| at(&x.to_string()))?;
    close(&at("reset"), &our_state(env), &ep["reset"], cov)?;
    for (i, t) in ep["steps"].as_array().ok_or("no steps")?.iter().enumerate() {
        let action = t["action"].as_str().ok_or("no action")?;
        let step = env.step(action).map_err(|x| at(&x.to_string()))?;
        let where_ = at(&format!("step {i} {action}"));
        let r = &step.result;
        let feedback = if step.feedback_in_info {
            json!(r.feedback)
        } else {
            Value::Null
        };
        let outcome = json!({
            "reward": r.reward, "terminated": r.terminated, "truncated": r.truncated,
            "feedback": feedback, "is_success": if env.is_success() { 1.0 } else { 0.0 },
            "distance_to_goal": env.distance_to_goal(),
        });
        let theirs = json!({
            "reward": t["reward"], "terminated": t["terminated"], "truncated": t["truncated"],
            "feedback": t["feedback"], "is_success": t["is_success"],
            "distance_to_goal": t["distance_to_goal"],
        });
        close(&where_, &outcome, &theirs, cov)?;
        close(&where_, &our_state(env), &t["state"], cov)?;
        cov.steps += 1;
    }
    cov.episodes += 1;
    Ok(())
}

/// The state fields a VisGym player's replies show (the driver's `state`) that the golden
/// files record.
const SHOWN: [&str; 12] = [
    "time",
    "qpos",
    "qvel",
    "ctrl",
    "mocap_pos",
    "mocap_quat",
    "goal",
    "observation",
    "achieved_goal",
    "camera",
    "follow_lookat",
    "gripper_bias",
];

fn shown(state: &Value) -> Value {
    SHOWN
        .iter()
        .map(|k| (k.to_string(), state[*k].clone()))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// Replays a golden file through a VisGym player (the JSON-lines driver): the prompt, the
/// solver's plans, and after every reset and step the state the replies show, the reward,
/// flags, feedback (null where the reference's `info` has none), success and distance.
pub fn check_fetch_golden_through(
    player: &mut dyn crate::visgym::VisGymPlayer,
    gz: &[u8],
) -> Result<FetchCoverage, String> {
    let doc: Value =
        serde_json::from_str(&crate::visgym::decompress(gz)?).map_err(|e| e.to_string())?;
    let name = doc["name"].as_str().ok_or("no name")?;
    player.make(&format!("{name}/easy"), &serde_json::Map::new())?;
    let prompt = player.prompt(false)?;
    if prompt.as_deref() != doc["prompt"].as_str() {
        return Err(format!(
            "prompt differs:\n{prompt:?}\n---\n{}",
            doc["prompt"]
        ));
    }
    let mut cov = FetchCoverage::default();
    for (e, ep) in doc["episodes"]
        .as_array()
        .ok_or("no episodes")?
        .iter()
        .enumerate()
    {
        let seed = ep["seed"].as_u64();
        let at = |what: &str| format!("episode {e} (seed {seed:?}) {what}");
        if let Some(plan) = ep["solve"].as_array() {
            let reply = player.reset(seed).map_err(|x| at(&x))?;
            close(
                &at("reset before solve"),
                &shown(&reply["state"]),
                &shown(&ep["reset"]),
                &mut cov,
            )?;
            let ours = player.solve(&serde_json::Map::new()).map_err(|x| at(&x))?;
            let theirs: Vec<String> = plan
                .iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect();
            if ours != theirs {
                return Err(at(&format!(
                    "solve: ours {ours:?}, the reference's {theirs:?}"
                )));
            }
            cov.plans += 1;
        }
        let reply = player.reset(seed).map_err(|x| at(&x))?;
        close(
            &at("reset"),
            &shown(&reply["state"]),
            &shown(&ep["reset"]),
            &mut cov,
        )?;
        for (i, t) in ep["steps"].as_array().ok_or("no steps")?.iter().enumerate() {
            let action = t["action"].as_str().ok_or("no action")?;
            let where_ = at(&format!("step {i} {action}"));
            let r = player
                .step(action)?
                .map_err(|x| format!("{where_}: the player raised {x}"))?;
            let success = r["state"]["is_success"].as_bool().ok_or("no is_success")?;
            let outcome = json!({
                "reward": r["reward"], "terminated": r["terminated"], "truncated": r["truncated"],
                "feedback": r["feedback"], "is_success": if success { 1.0 } else { 0.0 },
                "distance_to_goal": r["state"]["distance_to_goal"],
            });
            let theirs = json!({
                "reward": t["reward"], "terminated": t["terminated"], "truncated": t["truncated"],
                "feedback": t["feedback"], "is_success": t["is_success"],
                "distance_to_goal": t["distance_to_goal"],
            });
            close(&where_, &outcome, &theirs, &mut cov)?;
            close(&where_, &shown(&r["state"]), &shown(&t["state"]), &mut cov)?;
            cov.steps += 1;
        }
        cov.episodes += 1;
    }
    Ok(cov)
}

include!(concat!(env!("OUT_DIR"), "/mujoco_module.rs"));

/// MuJoCo in the test page, as the app loads it (`app/src/browser/mujoco.rs`): the
/// module embedded in the test build, run by the same `mujoco_host.mjs`.
#[cfg(target_arch = "wasm32")]
pub mod page {
    use std::rc::Rc;

    use envs::visgym::fetch::host::{self, PhysicsHost};
    use envs::visgym::fetch::{asset_files, HOST_JS};
    use js_sys::{Array, Uint8Array};
    use wasm_bindgen::prelude::*;

    use super::{MUJOCO_JS, MUJOCO_MISSING, MUJOCO_WASM};

    /// The model files the app serves beside it (`public/fetch/assets.zip`).
    const ASSETS: &[u8] = include_bytes!("../../public/fetch/assets.zip");

    // Both scripts are imported from blob URLs (the test server serves neither), so the
    // module is given its binary and a file name instead of finding it beside itself.
    #[wasm_bindgen(inline_js = "
export async function playbench_test_mujoco(moduleJs, wasm, hostJs, names, blobs) {
  const url = (text) => URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
  const { default: createModule } = await import(url(moduleJs));
  const { createHost } = await import(url(hostJs));
  const module = await createModule({ wasmBinary: wasm, locateFile: (f) => f });
  const files = new Map();
  for (let i = 0; i < names.length; i++) files.set(names[i], blobs[i]);
  return createHost(module, files);
}
")]
    extern "C" {
        type JsHost;

        #[wasm_bindgen(method, catch)]
        fn exchange(this: &JsHost, request: &str) -> Result<String, JsValue>;

        #[wasm_bindgen(catch)]
        async fn playbench_test_mujoco(
            module_js: &str,
            wasm: Uint8Array,
            host_js: &str,
            names: Array,
            blobs: Array,
        ) -> Result<JsValue, JsValue>;
    }

    struct PageHost(JsHost);

    impl PhysicsHost for PageHost {
        fn exchange(&self, request: &str) -> Result<String, String> {
            self.0.exchange(request).map_err(|e| format!("{e:?}"))
        }
    }

    /// Starts MuJoCo in this page and installs it for the Fetch environments.
    pub async fn install() -> Result<(), String> {
        if host::installed() {
            return Ok(());
        }
        if !MUJOCO_MISSING.is_empty() {
            return Err(MUJOCO_MISSING.to_string());
        }
        let names = Array::new();
        let blobs = Array::new();
        for (name, data) in asset_files(ASSETS)? {
            names.push(&JsValue::from_str(&name));
            blobs.push(&Uint8Array::from(data.as_slice()));
        }
        let js = playbench_test_mujoco(
            MUJOCO_JS,
            Uint8Array::from(MUJOCO_WASM),
            HOST_JS,
            names,
            blobs,
        )
        .await
        .map_err(|e| format!("MuJoCo did not start in the page: {e:?}"))?;
        host::install(Rc::new(PageHost(js.unchecked_into())));
        Ok(())
    }
}
