//! GameVerse's open games replay the reference (tests/golden/gameverse/generate.py runs
//! its code at commit 7cbb423): every state field, reward and flag of thousands of steps
//! of mixed replies (valid, invalid, unreadable), the start of many seeds, and sampled
//! pixels of the frames in flat-colour regions (tiles, cells, life bars, panels), plus
//! the prompt templates byte for byte.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::io::Read;

use envs::gameverse::maze::{Maze, MazeConfig};
use envs::gameverse::snake::{LatencyMode, RealtimeDriver, Snake, SnakeConfig};
use envs::gameverse::twenty_forty_eight::{TwentyFortyEight, TwentyFortyEightConfig};
use envs::gameverse::{ActionMode, StepResult};
use envs::Frame;
use serde_json::{json, Value};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

const GOLDEN_2048: &[u8] = include_bytes!("../golden/gameverse/2048.json.gz");
const GOLDEN_MAZE: &[u8] = include_bytes!("../golden/gameverse/maze.json.gz");
const GOLDEN_SNAKE: &[u8] = include_bytes!("../golden/gameverse/snake.json.gz");
const GOLDEN_PROMPTS: &[u8] = include_bytes!("../golden/gameverse/prompts.json.gz");

fn load(gz: &[u8]) -> Value {
    let mut text = String::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_string(&mut text)
        .unwrap();
    serde_json::from_str(&text).unwrap()
}

fn seed(episode: &Value) -> Option<u64> {
    episode["seed"].as_u64()
}

fn mode(episode: &Value) -> ActionMode {
    match episode["mode"].as_str() {
        Some("gui") => ActionMode::Gui,
        _ => ActionMode::Semantic,
    }
}

fn flags(r: &StepResult) -> Value {
    json!({"reward": r.reward, "terminated": r.terminated, "truncated": r.truncated})
}

/// Compares the sampled pixels of a reference frame with ours; returns mismatches.
fn frame_mismatches(ours: &Frame, reference: &Value, at: &str) -> Vec<String> {
    let mut out = Vec::new();
    let size = [ours.width(), ours.height()];
    if reference["size"] != json!(size) {
        out.push(format!("{at}: size {:?} vs {}", size, reference["size"]));
    }
    for p in reference["pixels"].as_array().unwrap() {
        let (x, y) = (p[0].as_i64().unwrap(), p[1].as_i64().unwrap());
        let want = p[2].as_str().unwrap();
        let got = ours
            .get(x, y)
            .map(|c| format!("{:02x}{:02x}{:02x}", c[0], c[1], c[2]))
            .unwrap_or_default();
        if got != want {
            out.push(format!("{at}: pixel ({x},{y}) {got} vs {want}"));
        }
    }
    out
}

fn report(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} mismatches, first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn twenty_forty_eight_matches_the_reference() {
    let golden = load(GOLDEN_2048);
    let texts = golden["texts"].as_array().unwrap();
    let mut failures = Vec::new();
    let mut frame = Frame::new(1, 1);
    let (mut steps, mut frames, mut ends, mut caps) = (0, 0, 0, 0);
    // One game for all episodes: an episode without a seed continues the generator.
    let mut game = TwentyFortyEight::new(TwentyFortyEightConfig::default());
    for (e, episode) in golden["episodes"].as_array().unwrap().iter().enumerate() {
        game.reset(seed(episode));
        if game.state_json() != episode["start"] {
            failures.push(format!(
                "episode {e} start: {} vs {}",
                game.state_json(),
                episode["start"]
            ));
            continue;
        }
        let check_frame =
            |game: &TwentyFortyEight, frame: &mut Frame, key: &str, failures: &mut Vec<String>| {
                if let Some(reference) = episode["frames"].get(key) {
                    game.render(frame);
                    failures.extend(frame_mismatches(
                        frame,
                        reference,
                        &format!("episode {e} frame {key}"),
                    ));
                    1
                } else {
                    0
                }
            };
        frames += check_frame(&game, &mut frame, "0", &mut failures);
        for (i, step) in episode["steps"].as_array().unwrap().iter().enumerate() {
            let text = texts[step["a"].as_u64().unwrap() as usize]
                .as_str()
                .unwrap();
            let r = game.step(text);
            let want_state = json!({
                "board": step["board"], "score": step["score"],
                "unchanged_moves": step["unchanged_moves"], "game_over": step["game_over"],
            });
            let want_flags = json!({"reward": step["reward"].as_f64(), "terminated": step["terminated"], "truncated": step["truncated"]});
            if game.state_json() != want_state
                || flags(&r) != want_flags
                || game.status().name() != step["status"]
            {
                failures.push(format!(
                    "episode {e} step {} ({text:?}): {} {} {} vs {} {} {}",
                    i + 1,
                    game.state_json(),
                    flags(&r),
                    game.status().name(),
                    want_state,
                    want_flags,
                    step["status"]
                ));
                break;
            }
            frames += check_frame(&game, &mut frame, &(i + 1).to_string(), &mut failures);
            steps += 1;
            ends += usize::from(r.terminated);
            caps += usize::from(r.truncated);
        }
    }
    for start in golden["starts"].as_array().unwrap() {
        game.reset(seed(start));
        if json!(game.board()) != start["board"] {
            failures.push(format!(
                "start of seed {}: {:?} vs {}",
                start["seed"],
                game.board(),
                start["board"]
            ));
        }
    }
    report(&failures);
    assert!(
        steps > 3000 && frames > 150 && ends >= 9 && caps >= 1,
        "{steps} {frames} {ends} {caps}"
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn maze_matches_the_reference() {
    let golden = load(GOLDEN_MAZE);
    let texts = golden["texts"].as_array().unwrap();
    let mut failures = Vec::new();
    let mut frame = Frame::new(1, 1);
    let (mut steps, mut frames, mut wins, mut caps) = (0, 0, 0, 0);
    // One game for all episodes, as the reference's environments share one module
    // generator: an episode without a seed continues it. Replies are read in the
    // episode's action mode.
    let mut game = Maze::new(MazeConfig::default());
    for (e, episode) in golden["episodes"].as_array().unwrap().iter().enumerate() {
        game.reset(seed(episode));
        let mut start = episode["start"].clone();
        let best = start["best_steps"].take();
        start.as_object_mut().unwrap().remove("best_steps");
        if game.state_json() != start || json!(game.initial_distance()) != best {
            failures.push(format!(
                "episode {e} start: {} vs {}",
                game.state_json(),
                episode["start"]
            ));
            continue;
        }
        let mut check_frame = |game: &Maze, key: &str, failures: &mut Vec<String>| {
            if let Some(reference) = episode["frames"].get(key) {
                game.render(&mut frame);
                failures.extend(frame_mismatches(
                    &frame,
                    reference,
                    &format!("episode {e} frame {key}"),
                ));
                frames += 1;
            }
        };
        check_frame(&game, "0", &mut failures);
        for (i, step) in episode["steps"].as_array().unwrap().iter().enumerate() {
            let text = texts[step["a"].as_u64().unwrap() as usize]
                .as_str()
                .unwrap();
            let r = game.step_direction(Maze::parse_action(mode(episode), text));
            let want_state = json!({"grid": step["grid"], "agent": step["agent"], "goal": step["goal"], "distance": step["distance"]});
            let want = json!({"reward": step["reward"].as_f64(), "terminated": step["terminated"], "truncated": step["truncated"], "score": step["score"].as_f64()});
            let got = json!({"reward": r.reward, "terminated": r.terminated, "truncated": r.truncated, "score": game.score()});
            if game.state_json() != want_state || got != want {
                failures.push(format!(
                    "episode {e} step {} ({text:?}): {} {got} vs {want_state} {want}",
                    i + 1,
                    game.state_json()
                ));
                break;
            }
            check_frame(&game, &(i + 1).to_string(), &mut failures);
            steps += 1;
            wins += usize::from(r.terminated);
            caps += usize::from(r.truncated);
        }
    }
    for generation in golden["generations"].as_array().unwrap() {
        game.reset(seed(generation));
        let mut want = generation.clone();
        let best = want["best_steps"].take();
        want.as_object_mut().unwrap().remove("seed");
        want.as_object_mut().unwrap().remove("best_steps");
        let mut got = game.state_json();
        got.as_object_mut().unwrap().remove("distance");
        if got != want || json!(game.initial_distance()) != best {
            failures.push(format!(
                "generation of seed {}: {got} vs {want}",
                generation["seed"]
            ));
        }
    }
    report(&failures);
    assert!(
        steps > 1500 && frames > 300 && wins > 50 && caps > 20,
        "{steps} {frames} {wins} {caps}"
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn prompt_templates_are_the_reference_text() {
    use envs::gameverse::{maze, snake, twenty_forty_eight};
    let golden = load(GOLDEN_PROMPTS);
    let templates = golden["templates"].as_object().unwrap();
    let mut checked = 0;
    for (game, prompts) in [
        (
            "twenty_forty_eight",
            twenty_forty_eight::prompts as fn(ActionMode) -> _,
        ),
        ("maze", maze::prompts),
        ("snake", snake::prompts),
    ] {
        for mode in [ActionMode::Semantic, ActionMode::Gui] {
            let t = prompts(mode);
            for (part, text) in [("system", t.system), ("user", t.user)] {
                let name = format!("{game}/prompts/{}_{part}.txt", mode.name());
                assert_eq!(Some(text), templates[&name].as_str(), "{name}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, templates.len());
}

/// The state fields the golden records for Snake, ours.
fn snake_state(game: &Snake) -> Value {
    let mut state = game.state_json();
    let extra = json!({
        "food_life": game.food().iter().map(|f| f.1).collect::<Vec<_>>(),
        "turn": game.turn(),
        "auto_moves": game.auto_moves(),
    });
    for (k, v) in extra.as_object().unwrap() {
        state[k] = v.clone();
    }
    state
}

fn snake_step_state(step: &Value) -> Value {
    let mut want = json!({});
    for k in [
        "body",
        "direction",
        "food",
        "foods_eaten",
        "game_over",
        "food_life",
        "turn",
        "auto_moves",
    ] {
        want[k] = step[k].clone();
    }
    want
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn snake_matches_the_reference() {
    let golden = load(GOLDEN_SNAKE);
    let texts = golden["texts"].as_array().unwrap();
    let mut failures = Vec::new();
    let mut frame = Frame::new(1, 1);
    let (mut steps, mut frames, mut ends, mut realtime_steps, mut auto_moves) = (0, 0, 0, 0, 0);
    let mut caps = 0;
    let mut discrete = Snake::new(SnakeConfig::default());
    for (e, episode) in golden["episodes"].as_array().unwrap().iter().enumerate() {
        let realtime = episode["latency"] != "stop";
        let config = SnakeConfig {
            action_mode: mode(episode),
            latency: match episode["timeout_ms"].as_u64() {
                Some(timeout_ms) if realtime => LatencyMode::Realtime { timeout_ms },
                _ => LatencyMode::Stop,
            },
            max_duration_ms: episode["max_duration_ms"].as_u64().unwrap_or(1_200_000),
            ..SnakeConfig::default()
        };
        let mut fresh = Snake::new(config);
        // Stop episodes share one game so that a reset without seed continues the generator.
        let game = if realtime { &mut fresh } else { &mut discrete };
        game.reset(seed(episode));
        let mut start = snake_state(game);
        start.as_object_mut().unwrap().remove("auto_moves");
        let mut want_start = snake_step_state(&episode["start"]);
        want_start.as_object_mut().unwrap().remove("auto_moves");
        if start != want_start {
            failures.push(format!("episode {e} start: {start} vs {want_start}"));
            continue;
        }
        let mut check_frame = |game: &Snake, key: &str, failures: &mut Vec<String>| {
            if let Some(reference) = episode["frames"].get(key) {
                game.render(&mut frame);
                failures.extend(frame_mismatches(
                    &frame,
                    reference,
                    &format!("episode {e} frame {key}"),
                ));
                frames += 1;
            }
        };
        check_frame(game, "0", &mut failures);
        let mut driver = RealtimeDriver::new(config.latency);
        for (i, step) in episode["steps"].as_array().unwrap().iter().enumerate() {
            let text = texts[step["a"].as_u64().unwrap() as usize]
                .as_str()
                .unwrap();
            let (r, timing) = match driver.as_mut() {
                Some(d) => {
                    let r = d.step(game, text, step["latency_ms"].as_u64().unwrap());
                    (r, json!([d.capture_ms(), game.elapsed_ms()]))
                }
                None => (
                    game.step_keys(&Snake::parse_keys(config.action_mode, text)),
                    Value::Null,
                ),
            };
            let want_timing = if realtime {
                json!([step["capture_ms"], step["elapsed_ms"]])
            } else {
                Value::Null
            };
            let want = snake_step_state(step);
            let want_flags = json!({"reward": step["reward"].as_f64(), "terminated": step["terminated"], "truncated": step["truncated"]});
            if snake_state(game) != want || flags(&r) != want_flags || timing != want_timing {
                failures.push(format!(
                    "episode {e} step {} ({text:?}): {} {} {timing} vs {want} {want_flags} {want_timing}",
                    i + 1, snake_state(game), flags(&r)
                ));
                break;
            }
            check_frame(game, &(i + 1).to_string(), &mut failures);
            steps += 1;
            ends += usize::from(r.terminated);
            caps += usize::from(r.truncated);
            if realtime {
                realtime_steps += 1;
            }
        }
        auto_moves += game.auto_moves();
    }
    for (seed, coords) in golden["coords"].as_object().unwrap() {
        let mut game = Snake::new(SnakeConfig::default());
        game.reset(Some(seed.parse().unwrap()));
        if json!(game.food_coords()) != *coords {
            failures.push(format!("food list of seed {seed}"));
        }
    }
    report(&failures);
    assert!(
        steps > 500
            && realtime_steps > 150
            && frames > 100
            && ends > 15
            && auto_moves > 20
            && caps == 1,
        "{steps} {realtime_steps} {frames} {ends} {auto_moves} {caps}"
    );
}
