//! MiniGrid golden checks: every state field exact (grids by CRC-32 of their encoding,
//! views byte for byte) and frames byte-exact by CRC-32 of their RGB bytes.

use std::io::Read;

use envs::core::env::RenderOptions;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::{Coverage, Stepper};

/// Every MiniGrid golden file (`tests/golden/minigrid/<id>.json.gz`), by id.
pub fn minigrid_golden_files() -> Vec<(&'static str, &'static [u8])> {
    crate::data_files("golden/minigrid/")
        .filter_map(|(path, gz)| {
            let id = path
                .strip_prefix("golden/minigrid/")?
                .strip_suffix(".json.gz")?;
            Some((id, gz))
        })
        .collect()
}

#[derive(Deserialize)]
struct Golden {
    env: String,
    resets: Vec<GoldenReset>,
    frames: Vec<GoldenFrame>,
    episodes: Vec<GoldenEpisodes>,
}

#[derive(Deserialize)]
struct GoldenReset {
    seed: u64,
    state: Value,
}

#[derive(Deserialize)]
struct GoldenFrame {
    label: String,
    step: usize,
    #[serde(default)]
    seed: Option<u64>,
    full: [u32; 3],
    agent_view: [u32; 3],
    plain_8px: [u32; 3],
}

#[derive(Deserialize)]
struct GoldenEpisodes {
    first: GoldenEpisode,
    continued: GoldenEpisode,
    frames: Vec<GoldenFrame>,
}

#[derive(Deserialize)]
struct GoldenEpisode {
    seed: Option<u64>,
    reset: Value,
    steps: Vec<GoldenStep>,
}

#[derive(Deserialize)]
struct GoldenStep {
    action: Value,
    reward: f64,
    terminated: bool,
    truncated: bool,
    state: Value,
}

/// The golden file's compact state from a full STATE (the driver's MiniGrid STATE).
pub fn compact_state(state: &Value) -> Result<Value, String> {
    let bytes = |v: &Value, what: &str| -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        flatten(v, &mut out).ok_or_else(|| format!("{what} is not a nested byte array"))?;
        Ok(out)
    };
    let grid = bytes(&state["grid"], "grid")?;
    let img = bytes(&state["img"], "img")?;
    let img_hex: String = img.iter().map(|b| format!("{b:02x}")).collect();
    Ok(json!({
        "agent_pos": state["agent_pos"],
        "agent_dir": state["agent_dir"],
        "carrying": state["carrying"],
        "step_count": state["step_count"],
        "mission": state["mission"],
        "grid_crc": crc32fast::hash(&grid),
        "img": img_hex,
    }))
}

fn flatten(v: &Value, out: &mut Vec<u8>) -> Option<()> {
    match v {
        Value::Array(items) => items.iter().try_for_each(|i| flatten(i, out)),
        Value::Number(n) => {
            out.push(u8::try_from(n.as_u64()?).ok()?);
            Some(())
        }
        _ => None,
    }
}

fn check_state(actual: &Value, expected: &Value) -> Result<(), String> {
    let actual = compact_state(actual)?;
    if &actual == expected {
        return Ok(());
    }
    let keys = expected.as_object().map(Map::keys).into_iter().flatten();
    let diffs: Vec<String> = keys
        .filter(|k| actual[k.as_str()] != expected[k.as_str()])
        .map(|k| {
            format!(
                "{k}: got {}, reference {}",
                actual[k.as_str()],
                expected[k.as_str()]
            )
        })
        .collect();
    Err(diffs.join("; "))
}

fn check_frames(
    stepper: &mut dyn Stepper,
    frames: &[&GoldenFrame],
    cov: &mut Coverage,
) -> Result<(), String> {
    for f in frames {
        let variants = [
            (
                "full",
                RenderOptions {
                    highlight: true,
                    agent_view: false,
                    tile_size: 32,
                },
                f.full,
            ),
            (
                "agent's view",
                RenderOptions {
                    highlight: true,
                    agent_view: true,
                    tile_size: 32,
                },
                f.agent_view,
            ),
            (
                "plain 8 px",
                RenderOptions {
                    highlight: false,
                    agent_view: false,
                    tile_size: 8,
                },
                f.plain_8px,
            ),
        ];
        for (what, options, expected) in variants {
            let Some(actual) = stepper.frame_crc(options) else {
                return Ok(());
            };
            if actual != expected {
                return Err(format!(
                    "{} {what} frame: got {actual:?}, reference {expected:?}",
                    f.label
                ));
            }
            cov.frames += 1;
        }
    }
    Ok(())
}

fn replay(
    stepper: &mut dyn Stepper,
    ep: &GoldenEpisode,
    frames: &[GoldenFrame],
    cov: &mut Coverage,
) -> Result<(), String> {
    let reset = stepper.reset(ep.seed)?;
    check_state(&reset, &ep.reset).map_err(|e| format!("reset(seed={:?}): {e}", ep.seed))?;
    for (t, gs) in ep.steps.iter().enumerate() {
        let at = |e: String| format!("seed {:?} step {}: {e}", ep.seed, t + 1);
        let step = stepper.step(&gs.action).map_err(at)?;
        check_state(&step.state, &gs.state).map_err(at)?;
        if (step.reward, step.terminated, step.truncated)
            != (gs.reward, gs.terminated, gs.truncated)
        {
            return Err(at(format!(
                "reward/terminated/truncated: got {}/{}/{}, reference {}/{}/{}",
                step.reward,
                step.terminated,
                step.truncated,
                gs.reward,
                gs.terminated,
                gs.truncated
            )));
        }
        let due: Vec<&GoldenFrame> = frames.iter().filter(|f| f.step == t + 1).collect();
        check_frames(stepper, &due, cov).map_err(at)?;
        cov.steps += 1;
        cov.terminations += usize::from(step.terminated);
        cov.truncations += usize::from(step.truncated);
    }
    Ok(())
}

fn decompress(gz: &[u8]) -> Result<String, String> {
    let mut json = String::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_string(&mut json)
        .map_err(|e| format!("golden file: {e}"))?;
    Ok(json)
}

/// Replays one gzipped MiniGrid golden file through `stepper`.
pub fn check_minigrid_golden(stepper: &mut dyn Stepper, gz: &[u8]) -> Result<Coverage, String> {
    let golden: Golden =
        serde_json::from_str(&decompress(gz)?).map_err(|e| format!("golden file: {e}"))?;
    stepper.make(&golden.env, &Map::new())?;
    let mut cov = Coverage::default();
    for r in &golden.resets {
        let state = stepper.reset(Some(r.seed))?;
        check_state(&state, &r.state)
            .map_err(|e| format!("{} reset(seed={}): {e}", golden.env, r.seed))?;
        let due: Vec<&GoldenFrame> = golden
            .frames
            .iter()
            .filter(|f| f.seed == Some(r.seed))
            .collect();
        check_frames(stepper, &due, &mut cov).map_err(|e| format!("{}: {e}", golden.env))?;
        cov.resets += 1;
    }
    for pair in &golden.episodes {
        replay(stepper, &pair.first, &pair.frames, &mut cov)
            .map_err(|e| format!("{}: {e}", golden.env))?;
        replay(stepper, &pair.continued, &[], &mut cov)
            .map_err(|e| format!("{}: {e}", golden.env))?;
    }
    Ok(cov)
}

/// The golden file for `id` (empty if there is none).
pub fn minigrid_golden(id: &str) -> &'static [u8] {
    minigrid_golden_files()
        .into_iter()
        .find(|(n, _)| *n == id)
        .map_or(&[], |(_, gz)| gz)
}
