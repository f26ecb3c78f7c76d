//! GameVerse's open games replay the reference through the registry and the environment
//! interface: `envs::make(id, kwargs)`, replies as `Action::Text`, the driver's state from
//! `snapshot()`. The golden files (tests/golden/gameverse/generate.py runs the reference's
//! code at commit 7cbb423) hold thousands of steps of mixed replies (valid, invalid,
//! unreadable), the start of many seeds, sampled pixels of the frames in flat-colour
//! regions (tiles, cells, life bars, panels) and the prompt templates; each names the id it
//! covers in its `env` field.
//!
//! The replay itself (`playbench_tests::gameverse`) is shared with the `envs-driver` test
//! (cli/tests/driver_golden.rs); here the library player adds the frames' pixels and the
//! environment's own signals. Snake's real-time episodes replay their recorded model
//! latencies on the generic virtual clock (docs/gameverse.md, "Snake's latency modes").

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::cell::Cell;

use envs::gameverse::prompt::{fill, NO_EXPERIENCE};
use envs::gameverse::snake::{
    LatencyMode, RealtimeDriver, Snake, SnakeConfig, MAX_DURATION_MS, TIMEOUT_TEXT,
};
use envs::gameverse::{maze, snake, twenty_forty_eight, ActionMode};
use envs::{Env, Frame};
use playbench_tests::gameverse::{
    golden, is_realtime, outcome, pick, recorded_outcome, replay_2048, replay_maze,
    replay_snake_realtime, replay_snake_stop, reply_text, report, seed, snake_clock, Extra,
    LibraryPlayer, Tally, SNAKE_STATE,
};
use serde_json::{json, Value};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

const GAMES: [&str; 3] = [twenty_forty_eight::ID, maze::ID, snake::ID];

fn make(env_id: &str, kwargs: Value) -> Box<dyn Env> {
    envs::make(env_id, kwargs.as_object().unwrap()).unwrap()
}

fn golden_of(env_id: &str) -> Value {
    golden(env_id).unwrap()
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

/// The library's own checks: the episode's sampled frames (counted in `frames`) and
/// `signals` of each step.
fn frames_and<'a>(
    frames: &'a Cell<usize>,
    signals: impl Fn(&dyn Env, &envs::Step, &Value) -> Option<String> + 'a,
) -> Box<Extra<'a, LibraryPlayer>> {
    Box::new(
        move |p: &LibraryPlayer, episode: &Value, at: Option<(usize, &Value)>| {
            let env = p.env().unwrap();
            let key = at.map_or("0".to_string(), |(i, _)| i.to_string());
            let mut out = Vec::new();
            if let Some(reference) = episode["frames"].get(&key) {
                let mut frame = Frame::default();
                env.render(&mut frame);
                out.extend(frame_mismatches(&frame, reference, &format!("frame {key}")));
                frames.set(frames.get() + 1);
            }
            if let (Some((_, step)), Some(s)) = (at, &p.last) {
                out.extend(signals(env, s, step));
            }
            out
        },
    )
}

fn no_signals(_: &dyn Env, _: &envs::Step, _: &Value) -> Option<String> {
    None
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn twenty_forty_eight_matches_the_reference() {
    let golden = golden_of(twenty_forty_eight::ID);
    let mut tally = Tally::default();
    let frames = Cell::new(0);
    let won = |_: &dyn Env, s: &envs::Step, step: &Value| {
        (s.signals.success != (step["status"] == "WIN"))
            .then(|| format!("success {} vs status {}", s.signals.success, step["status"]))
    };
    let mut extra = frames_and(&frames, won);
    let failures = replay_2048(
        &mut LibraryPlayer::default(),
        &golden,
        &mut *extra,
        &mut tally,
    );
    report(&failures).unwrap();
    assert!(
        tally.steps > 3000 && frames.get() > 150 && tally.ends >= 9 && tally.caps >= 1,
        "{tally:?} {}",
        frames.get()
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn maze_matches_the_reference() {
    let golden = golden_of(maze::ID);
    let mut tally = Tally::default();
    let frames = Cell::new(0);
    // Success is reaching the flag, which ends the game; the distance is the shortest
    // path's.
    let own = |env: &dyn Env, s: &envs::Step, step: &Value| {
        let distance = env.distance_to_goal().map(i64::from);
        (s.signals.success != s.terminated || distance != step["distance"].as_i64())
            .then(|| format!("success {} distance {distance:?}", s.signals.success))
    };
    let mut extra = frames_and(&frames, own);
    let failures = replay_maze(LibraryPlayer::default, &golden, &mut *extra, &mut tally);
    report(&failures).unwrap();
    assert!(
        tally.steps > 1500 && frames.get() > 300 && tally.ends > 50 && tally.caps > 20,
        "{tally:?} {}",
        frames.get()
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn snake_stop_mode_matches_the_reference() {
    let golden = golden_of(snake::ID);
    let mut tally = Tally::default();
    let frames = Cell::new(0);
    let mut extra = frames_and(&frames, no_signals);
    let failures = replay_snake_stop(LibraryPlayer::default, &golden, &mut *extra, &mut tally);
    report(&failures).unwrap();
    assert!(
        tally.steps > 450 && frames.get() > 100 && tally.ends > 10 && tally.caps == 1,
        "{tally:?} {}",
        frames.get()
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn snake_real_time_replays_on_the_virtual_clock() {
    let golden = golden_of(snake::ID);
    let mut tally = Tally::default();
    let frames = Cell::new(0);
    // The environment declares the clock the recorded episodes ran on, with the idle
    // preset the replay plays as text.
    let clocks = Cell::new(0);
    let mut base = frames_and(&frames, no_signals);
    let mut extra = |p: &LibraryPlayer, episode: &Value, at: Option<(usize, &Value)>| {
        let mut out = base(p, episode, at);
        if at.is_none() {
            let env = p.env().unwrap();
            let rule = env.clock().unwrap();
            let want = snake_clock(episode).unwrap();
            if (rule.mode, rule.tick_ms) != (want.mode, want.tick_ms)
                || env.action_names()[rule.idle] != TIMEOUT_TEXT
            {
                out.push(format!("clock {rule:?}"));
            }
            clocks.set(clocks.get() + 1);
        }
        out
    };
    let mut count = (0, 0);
    let failures = replay_snake_realtime(
        &mut LibraryPlayer::default(),
        &golden,
        &mut extra,
        &mut tally,
        &mut count,
    );
    report(&failures).unwrap();
    assert!(
        count == (8, 5)
            && clocks.get() == 8
            && tally.steps > 200
            && frames.get() > 30
            && tally.idles > 20,
        "{count:?} {tally:?} {}",
        frames.get()
    );
}

/// The reference's real-time game also ends at the first move at or after its time limit
/// (1200 s in the benchmark) and shows the time on its panel. The environment cannot
/// know the time (its clock lives outside), so the episodes recorded with short limits
/// to reach that ending replay through the port's own timing driver instead.
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn snake_time_limit_matches_the_reference_through_the_timing_driver() {
    let golden = golden_of(snake::ID);
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
            let reply = reply_text(&golden, step);
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
                game.render(&mut frame, &mut Default::default());
                failures.extend(frame_mismatches(
                    &frame,
                    reference,
                    &format!("episode {e} step {}", i + 1),
                ));
            }
        }
        time_ups += usize::from(game.time_up());
    }
    report(&failures).unwrap();
    // One of the two runs out of time; the other crashes first.
    assert_eq!((episodes, time_ups), (2, 1));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn prompts_are_the_reference_text() {
    let mut checked = 0;
    for id in GAMES {
        let golden = golden_of(id);
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

/// Tic-Tac-Toe's GUI reading against the reference's on adversarial replies: the point
/// it makes, where it lands and the state after the step (the whole GUI games replay in
/// `reference_golden.rs`, from the generic golden file).
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn tic_tac_toe_reads_clicks_as_the_reference_does() {
    use envs::gameverse::tic_tac_toe::gui::{Click, Coordinate, Landing};
    use playbench_tests::tic_tac_toe_clicks;
    let doc = tic_tac_toe_clicks::golden().unwrap();
    let mut failures = Vec::new();
    let mut count = 0;
    for case in tic_tac_toe_clicks::cases(&doc) {
        let text = case["text"].as_str().unwrap();
        let click = Click::read(text, case["coordinates"] == "normalized");
        let point = match (click.x, click.y) {
            (Coordinate::Int(x), Coordinate::Int(y)) => json!([x as f64, y as f64]),
            _ => Value::Null,
        };
        let want_point = match case["point"].as_array() {
            Some(p) => json!([p[0].as_f64().unwrap(), p[1].as_f64().unwrap()]),
            None => Value::Null,
        };
        let landing = match click.landing() {
            Landing::Cell(c) => format!("cell {c}"),
            Landing::OffBoard => "off board".into(),
            Landing::Unplayable => "raises".into(),
        };
        let want_landing = case["landing"].as_str().unwrap();
        let landed = if tic_tac_toe_clicks::raised(case) {
            landing == "raises"
        } else {
            landing == want_landing
        };
        if point != want_point || !landed {
            failures.push(format!(
                "{text:?} ({}): {point} {landing} vs {want_point} {want_landing}",
                case["coordinates"]
            ));
        }
        count += 1;
    }
    report(&failures).unwrap();
    let (failures, raises) = tic_tac_toe_clicks::replay(&mut LibraryPlayer::default(), &doc);
    report(&failures).unwrap();
    assert!(
        count > 200 && raises >= 10,
        "{count} cases, {raises} raised"
    );
}
