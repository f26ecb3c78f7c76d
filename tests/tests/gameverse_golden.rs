//! GameVerse's open games replay the reference through the registry and the environment
//! interface: `envs::make(id, kwargs)`, replies as `Action::Text`, the driver's state from
//! `snapshot()`. The golden files (tests/golden/gameverse/generate.py runs the reference's
//! code at commit 7cbb423) hold thousands of steps of mixed replies (valid, invalid,
//! unreadable), the start of many seeds, sampled pixels of the frames in flat-colour
//! regions (tiles, cells, life bars, panels) and the prompt templates; each names the id it
//! covers in its `env` field.
//!
//! Snake's real-time episodes replay through the generic virtual clock
//! (`envs::core::clock::VirtualClock`): the recorded model latencies become idle steps of
//! the environment's clock, with two rules of the reference's timing that the clock
//! leaves to its caller (docs/gameverse.md): the observation is taken 500 ms after a reply,
//! and the timeout restarts only with a move (the first reply, which starts the game loop,
//! or a reply whose key moved the snake), not with a reply that pressed no key.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::io::Read;

use envs::core::clock::VirtualClock;
use envs::gameverse::prompt::{fill, NO_EXPERIENCE};
use envs::gameverse::snake::{
    LatencyMode, RealtimeDriver, Snake, SnakeConfig, MAX_DURATION_MS, OBSERVATION_DELAY_MS,
};
use envs::gameverse::{maze, snake, twenty_forty_eight, ActionMode};
use envs::{Action, Env, Frame};
use serde_json::{json, Value};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

const GAMES: [&str; 3] = [twenty_forty_eight::ID, maze::ID, snake::ID];

/// The one golden file that covers `env_id`.
fn golden(env_id: &str) -> Value {
    let mut found: Vec<Value> = playbench_tests::data_files("golden/gameverse/")
        .filter(|(path, _)| path.ends_with(".json.gz"))
        .map(|(_, gz)| {
            let mut text = String::new();
            flate2::read::GzDecoder::new(gz)
                .read_to_string(&mut text)
                .unwrap();
            serde_json::from_str::<Value>(&text).unwrap()
        })
        .filter(|g| g["env"] == env_id)
        .collect();
    assert_eq!(found.len(), 1, "golden files for {env_id}");
    found.remove(0)
}

fn make(env_id: &str, kwargs: Value) -> Box<dyn Env> {
    envs::make(env_id, kwargs.as_object().unwrap()).unwrap()
}

fn seed(episode: &Value) -> Option<u64> {
    episode["seed"].as_u64()
}

fn text<'a>(golden: &'a Value, step: &Value) -> &'a str {
    golden["texts"][step["a"].as_u64().unwrap() as usize]
        .as_str()
        .unwrap()
}

/// The fields of a recorded step that the driver's state holds.
fn pick(step: &Value, keys: &[&str]) -> Value {
    Value::Object(
        keys.iter()
            .map(|&k| (k.to_string(), step[k].clone()))
            .collect(),
    )
}

fn snapshot(env: &dyn Env) -> Value {
    env.snapshot().unwrap()
}

/// Our step outcome in the reference runner's terms: `gym.make`'s time limit marks the
/// cap step truncated even when the game ended on it, where GameVerse reports the game
/// over only.
fn outcome(reward: f64, terminated: bool, truncated: bool) -> Value {
    json!({"reward": reward, "terminated": terminated, "truncated": truncated && !terminated})
}

fn recorded_outcome(step: &Value) -> Value {
    json!({"reward": step["reward"].as_f64(), "terminated": step["terminated"], "truncated": step["truncated"]})
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

/// Renders `env` and compares it with the episode's frame `key`, if one was sampled.
fn check_frame(
    env: &dyn Env,
    episode: &Value,
    key: &str,
    at: &str,
    failures: &mut Vec<String>,
) -> usize {
    let Some(reference) = episode["frames"].get(key) else {
        return 0;
    };
    let mut frame = Frame::default();
    env.render(&mut frame);
    failures.extend(frame_mismatches(
        &frame,
        reference,
        &format!("{at} frame {key}"),
    ));
    1
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

/// What the replay of golden episodes went through (the tests assert minimums, so a
/// replay that silently checks nothing fails).
#[derive(Default)]
struct Tally {
    steps: usize,
    frames: usize,
    /// Steps that ended the game.
    ends: usize,
    /// Steps that hit the step cap with the game still on.
    caps: usize,
}

/// Plays the steps of golden episode `e` from the environment's current (checked) start:
/// each reply as text, checking the state `fields`, the outcome, the game's own `check`
/// (a message when it fails) and the frames; stops the episode at its first mismatch.
fn replay_steps(
    env: &mut dyn Env,
    golden: &Value,
    (e, episode): (usize, &Value),
    fields: &[&str],
    check: impl Fn(&dyn Env, &envs::Step, &Value) -> Option<String>,
    tally: &mut Tally,
    failures: &mut Vec<String>,
) {
    let at = format!("episode {e}");
    tally.frames += check_frame(env, episode, "0", &at, failures);
    for (i, step) in episode["steps"].as_array().unwrap().iter().enumerate() {
        let reply = text(golden, step);
        let s = env.step(Action::Text(reply.to_string())).unwrap();
        let want = pick(step, fields);
        let got = outcome(s.reward, s.terminated, s.truncated);
        let own = check(env, &s, step);
        if snapshot(env) != want || got != recorded_outcome(step) || own.is_some() {
            failures.push(format!(
                "episode {e} step {} ({reply:?}): {} {got} vs {want} {} {}",
                i + 1,
                snapshot(env),
                recorded_outcome(step),
                own.unwrap_or_default()
            ));
            break;
        }
        tally.frames += check_frame(env, episode, &(i + 1).to_string(), &at, failures);
        tally.steps += 1;
        tally.ends += usize::from(s.terminated);
        tally.caps += usize::from(s.truncated && !s.terminated);
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn twenty_forty_eight_matches_the_reference() {
    let golden = golden(twenty_forty_eight::ID);
    let mut failures = Vec::new();
    let mut tally = Tally::default();
    // One environment for all episodes: an episode without a seed continues the
    // generator. 2048 reads a reply the same way in both action modes, so the GUI
    // episodes play here too.
    let mut env = make(twenty_forty_eight::ID, json!({}));
    for (e, episode) in golden["episodes"].as_array().unwrap().iter().enumerate() {
        env.reset(seed(episode));
        if snapshot(env.as_ref()) != episode["start"] {
            failures.push(format!(
                "episode {e} start: {} vs {}",
                snapshot(env.as_ref()),
                episode["start"]
            ));
            continue;
        }
        let fields = ["board", "score", "unchanged_moves", "game_over"];
        let won = |_: &dyn Env, s: &envs::Step, step: &Value| {
            (s.signals.success != (step["status"] == "WIN"))
                .then(|| format!("success {} vs status {}", s.signals.success, step["status"]))
        };
        replay_steps(
            env.as_mut(),
            &golden,
            (e, episode),
            &fields,
            won,
            &mut tally,
            &mut failures,
        );
    }
    for start in golden["starts"].as_array().unwrap() {
        env.reset(seed(start));
        if snapshot(env.as_ref())["board"] != start["board"] {
            failures.push(format!(
                "start of seed {}: {} vs {}",
                start["seed"],
                snapshot(env.as_ref()),
                start["board"]
            ));
        }
    }
    report(&failures);
    assert!(
        tally.steps > 3000 && tally.frames > 150 && tally.ends >= 9 && tally.caps >= 1,
        "{} {} {} {}",
        tally.steps,
        tally.frames,
        tally.ends,
        tally.caps
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn maze_matches_the_reference() {
    let golden = golden(maze::ID);
    let mut failures = Vec::new();
    let mut tally = Tally::default();
    // One environment per action mode. The reference's episodes share one module
    // generator; an episode without a seed continues from the episode before, so when
    // that one ran in the other mode, this mode's environment first makes the same maze
    // (steps draw nothing in Maze: only making a maze does).
    let modes = ["semantic", "gui"];
    let mut envs: Vec<Box<dyn Env>> = modes
        .iter()
        .map(|m| make(maze::ID, json!({ "action_mode": m })))
        .collect();
    let mut previous: Option<(usize, Option<u64>)> = None;
    for (e, episode) in golden["episodes"].as_array().unwrap().iter().enumerate() {
        let m = modes.iter().position(|&m| m == episode["mode"]).unwrap();
        let env = &mut envs[m];
        if let (None, Some((pm, prev_seed))) = (seed(episode), previous) {
            if pm != m {
                env.reset(prev_seed);
            }
        }
        env.reset(seed(episode));
        previous = Some((m, seed(episode)));
        let mut start = episode["start"].clone();
        let best = start.as_object_mut().unwrap().remove("best_steps").unwrap();
        if snapshot(env.as_ref()) != start || snapshot(env.as_ref())["distance"] != best {
            failures.push(format!(
                "episode {e} start: {} vs {}",
                snapshot(env.as_ref()),
                episode["start"]
            ));
            continue;
        }
        // Success is reaching the flag, which ends the game; the distance is the
        // shortest path's.
        let own = |env: &dyn Env, s: &envs::Step, step: &Value| {
            let distance = env.distance_to_goal().map(i64::from);
            (s.signals.success != s.terminated || distance != step["distance"].as_i64())
                .then(|| format!("success {} distance {distance:?}", s.signals.success))
        };
        let fields = ["grid", "agent", "goal", "distance"];
        replay_steps(
            env.as_mut(),
            &golden,
            (e, episode),
            &fields,
            own,
            &mut tally,
            &mut failures,
        );
    }
    let env = &mut envs[0];
    for generation in golden["generations"].as_array().unwrap() {
        env.reset(seed(generation));
        let mut want = generation.clone();
        let best = want["best_steps"].take();
        want.as_object_mut().unwrap().remove("seed");
        want.as_object_mut().unwrap().remove("best_steps");
        let mut got = snapshot(env.as_ref());
        let distance = got.as_object_mut().unwrap().remove("distance").unwrap();
        if got != want || distance != best {
            failures.push(format!(
                "generation of seed {}: {got} vs {want}",
                generation["seed"]
            ));
        }
    }
    report(&failures);
    assert!(
        tally.steps > 1500 && tally.frames > 300 && tally.ends > 50 && tally.caps > 20,
        "{} {} {} {}",
        tally.steps,
        tally.frames,
        tally.ends,
        tally.caps
    );
}

const SNAKE_STATE: [&str; 5] = ["body", "direction", "food", "foods_eaten", "game_over"];

fn is_realtime(episode: &Value) -> bool {
    episode["latency"] != "stop"
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn snake_stop_mode_matches_the_reference() {
    let golden = golden(snake::ID);
    let mut failures = Vec::new();
    let mut tally = Tally::default();
    // One environment per action mode, so that an episode without a seed continues the
    // generator of the one before (in the same mode).
    let modes = ["semantic", "gui"];
    let mut envs: Vec<Box<dyn Env>> = modes
        .iter()
        .map(|m| make(snake::ID, json!({ "action_mode": m })))
        .collect();
    let episodes = golden["episodes"].as_array().unwrap();
    for (e, episode) in episodes
        .iter()
        .enumerate()
        .filter(|(_, ep)| !is_realtime(ep))
    {
        let env = &mut envs[modes.iter().position(|&m| m == episode["mode"]).unwrap()];
        env.reset(seed(episode));
        if snapshot(env.as_ref()) != pick(&episode["start"], &SNAKE_STATE) {
            failures.push(format!(
                "episode {e} start: {} vs {}",
                snapshot(env.as_ref()),
                episode["start"]
            ));
            continue;
        }
        let nothing_more = |_: &dyn Env, _: &envs::Step, _: &Value| None;
        replay_steps(
            env.as_mut(),
            &golden,
            (e, episode),
            &SNAKE_STATE,
            nothing_more,
            &mut tally,
            &mut failures,
        );
    }
    for (seed, coords) in golden["coords"].as_object().unwrap() {
        // The food list is not in the driver's state: the three foods of a start are
        // its first free entries.
        let mut env = make(snake::ID, json!({}));
        env.reset(Some(seed.parse().unwrap()));
        let first: Vec<Value> = coords.as_array().unwrap()[..3].to_vec();
        if snapshot(env.as_ref())["food"] != json!(first) {
            failures.push(format!("food of seed {seed}"));
        }
    }
    report(&failures);
    assert!(
        tally.steps > 450 && tally.frames > 100 && tally.ends > 10 && tally.caps == 1,
        "{} {} {} {}",
        tally.steps,
        tally.frames,
        tally.ends,
        tally.caps
    );
}

/// Plays `n` idle steps; returns their rewards and whether one was truncated.
fn idle_steps(env: &mut dyn Env, idle: &Action, n: u32) -> (f64, bool) {
    let (mut reward, mut truncated) = (0.0, false);
    for _ in 0..n {
        let s = env.step(idle.clone()).unwrap();
        reward += s.reward;
        truncated |= s.truncated;
    }
    (reward, truncated)
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn snake_real_time_replays_on_the_virtual_clock() {
    let golden = golden(snake::ID);
    let mut failures = Vec::new();
    let (mut episodes, mut steps, mut frames, mut idles) = (0, 0, 0, 0);
    let mut normal = 0;
    let benchmark_duration = json!(MAX_DURATION_MS);
    for (e, episode) in golden["episodes"].as_array().unwrap().iter().enumerate() {
        if !is_realtime(episode) || episode["max_duration_ms"] != benchmark_duration {
            continue;
        }
        episodes += 1;
        normal += usize::from(episode["latency"] == "normal");
        let mut env = make(
            snake::ID,
            json!({"action_mode": episode["mode"], "latency": episode["latency"]}),
        );
        env.reset(seed(episode));
        let rule = env.clock().unwrap();
        assert_eq!(json!(rule.tick_ms), episode["timeout_ms"]);
        let idle = env.preset_action(rule.idle).unwrap();
        // Time 0 is the first observation.
        let mut clock = VirtualClock::new(rule);
        let mut started = false;
        let at = format!("episode {e}");
        if snapshot(env.as_ref()) != pick(&episode["start"], &SNAKE_STATE) {
            failures.push(format!("{at} start: {}", snapshot(env.as_ref())));
            continue;
        }
        frames += check_frame(env.as_ref(), episode, "0", &at, &mut failures);
        for (i, step) in episode["steps"].as_array().unwrap().iter().enumerate() {
            let reply = text(&golden, step);
            // The model thinks: the timeouts due by the reply's arrival pass first.
            let due = clock.wait(step["latency_ms"].as_u64().unwrap());
            let (mut reward, mut truncated) = idle_steps(env.as_mut(), &idle, due);
            let before = snapshot(env.as_ref());
            let s = env.step(Action::Text(reply.to_string())).unwrap();
            reward += s.reward;
            truncated |= s.truncated;
            if !started || snapshot(env.as_ref()) != before {
                clock.act();
                started = true;
            }
            // The screenshot 500 ms later, after the timeouts due by then.
            let late = clock.wait(OBSERVATION_DELAY_MS);
            let (r, t) = idle_steps(env.as_mut(), &idle, late);
            idles += due + late;
            reward += r;
            truncated |= t;
            let state = snapshot(env.as_ref());
            let terminated = state["game_over"] == true;
            let got = outcome(reward, terminated, truncated);
            let want = pick(step, &SNAKE_STATE);
            if state != want
                || got != recorded_outcome(step)
                || json!(clock.now_ms()) != step["capture_ms"]
            {
                failures.push(format!(
                    "{at} step {} ({reply:?}): {state} {got} at {} vs {want} {} at {}",
                    i + 1,
                    clock.now_ms(),
                    recorded_outcome(step),
                    step["capture_ms"]
                ));
                break;
            }
            frames += check_frame(
                env.as_ref(),
                episode,
                &(i + 1).to_string(),
                &at,
                &mut failures,
            );
            steps += 1;
        }
    }
    report(&failures);
    assert!(
        episodes == 8 && normal == 5 && steps > 200 && frames > 30 && idles > 20,
        "{episodes} {normal} {steps} {frames} {idles}"
    );
}

/// The reference's real-time game also ends at the first move at or after its time limit
/// (1200 s in the benchmark) and shows the time on its panel. The environment cannot
/// know the time (its clock lives outside), so the episodes recorded with short limits
/// to reach that ending replay through the port's own timing driver instead.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn snake_time_limit_matches_the_reference_through_the_timing_driver() {
    let golden = golden(snake::ID);
    let mut failures = Vec::new();
    let (mut episodes, mut time_ups) = (0, 0);
    let benchmark_duration = json!(MAX_DURATION_MS);
    for (e, episode) in golden["episodes"].as_array().unwrap().iter().enumerate() {
        if !is_realtime(episode) || episode["max_duration_ms"] == benchmark_duration {
            continue;
        }
        episodes += 1;
        let config = SnakeConfig {
            action_mode: if episode["mode"] == "gui" {
                ActionMode::Gui
            } else {
                ActionMode::Semantic
            },
            latency: LatencyMode::Realtime {
                timeout_ms: episode["timeout_ms"].as_u64().unwrap(),
            },
            max_duration_ms: episode["max_duration_ms"].as_u64().unwrap(),
            ..SnakeConfig::default()
        };
        let mut game = Snake::new(config);
        game.reset(seed(episode));
        let mut driver = RealtimeDriver::new(config.latency).unwrap();
        let mut frame = Frame::default();
        for (i, step) in episode["steps"].as_array().unwrap().iter().enumerate() {
            let reply = text(&golden, step);
            let r = driver.step(&mut game, reply, step["latency_ms"].as_u64().unwrap());
            let got = json!([
                game.state_json(),
                outcome(r.reward, r.terminated, r.truncated),
                driver.capture_ms(),
                game.elapsed_ms()
            ]);
            let want = json!([
                pick(step, &SNAKE_STATE),
                recorded_outcome(step),
                step["capture_ms"],
                step["elapsed_ms"]
            ]);
            if got != want {
                failures.push(format!("episode {e} step {}: {got} vs {want}", i + 1));
                break;
            }
            if let Some(reference) = episode["frames"].get((i + 1).to_string()) {
                game.render(&mut frame);
                failures.extend(frame_mismatches(
                    &frame,
                    reference,
                    &format!("episode {e} step {}", i + 1),
                ));
            }
        }
        time_ups += usize::from(game.time_up());
    }
    report(&failures);
    // One of the two runs out of time; the other crashes first.
    assert_eq!((episodes, time_ups), (2, 1));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn prompts_are_the_reference_text() {
    let mut checked = 0;
    for id in GAMES {
        let golden = golden(id);
        let templates = golden["prompts"].as_object().unwrap();
        let ported = match id {
            twenty_forty_eight::ID => twenty_forty_eight::prompts,
            maze::ID => maze::prompts,
            _ => snake::prompts,
        };
        for mode in [ActionMode::Semantic, ActionMode::Gui] {
            let t = ported(mode);
            for (part, text) in [("system", t.system), ("user", t.user)] {
                let name = format!("{}_{part}", mode.name());
                assert_eq!(Some(text), templates[&name].as_str(), "{id} {name}");
                checked += 1;
            }
            // The environment's instructions: the system prompt as a zero-shot agent
            // sends it before any reflection.
            let env = make(id, json!({ "action_mode": mode.name() }));
            let system = templates[&format!("{}_system", mode.name())]
                .as_str()
                .unwrap();
            let values = [
                ("reflection_experience", NO_EXPERIENCE),
                ("board_size", "9"),
                ("maze_size", "4"),
            ];
            assert_eq!(env.instructions(false), fill(system, &values).ok(), "{id}");
        }
        assert_eq!(templates.len(), 4);
    }
    assert_eq!(checked, 12);
}
