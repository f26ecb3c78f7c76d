//! Replays GameVerse's golden files (`tests/golden/gameverse/`, written by `generate.py`
//! from the reference's code) through a [`GameVersePlayer`]: the library through the
//! `Env` trait (`tests/tests/gameverse_golden.rs`, natively and as wasm) or the
//! `envs-driver` process (`cli/tests/driver_golden.rs`). Replies go as text, states are
//! the driver's state objects, and Snake's real-time episodes play their recorded model
//! latencies on the generic virtual clock with the two rules of the reference's timing
//! that the clock leaves to its caller (docs/gameverse.md, "Snake's latency modes"): the
//! observation is taken 500 ms after a reply, and the timeout restarts only with a move
//! (the first reply, which starts the game loop, or a reply whose key moved the snake).

use std::io::Read;

use envs::core::clock::{Clock, ClockMode, VirtualClock};
use envs::gameverse::snake::{OBSERVATION_DELAY_MS, TIMEOUT_TEXT};
use serde_json::{json, Value};

use crate::Stepped;

/// The one golden file that covers `env_id`.
pub fn golden(env_id: &str) -> Result<Value, String> {
    let mut found = Vec::new();
    for (path, gz) in crate::data_files("golden/gameverse/") {
        if !path.ends_with(".json.gz") {
            continue;
        }
        let mut text = String::new();
        flate2::read::GzDecoder::new(gz)
            .read_to_string(&mut text)
            .map_err(|e| format!("{path}: {e}"))?;
        let doc: Value = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
        if doc["env"] == env_id {
            found.push(doc);
        }
    }
    match found.len() {
        1 => Ok(found.remove(0)),
        n => Err(format!("{n} golden files for {env_id}")),
    }
}

/// Something that plays GameVerse's games: replies and idle steps as text.
pub trait GameVersePlayer {
    fn make(&mut self, id: &str, kwargs: &Value) -> Result<(), String>;
    /// The state after the reset.
    fn reset(&mut self, seed: Option<u64>) -> Result<Value, String>;
    fn step(&mut self, text: &str) -> Result<Stepped, String>;
}

/// An episode's seed (`None`: the reset continues the generator).
pub fn seed(episode: &Value) -> Option<u64> {
    episode["seed"].as_u64()
}

/// The reply text of a recorded step (the file stores each text once).
pub fn reply_text<'a>(golden: &'a Value, step: &Value) -> &'a str {
    step["a"]
        .as_u64()
        .and_then(|a| golden["texts"][a as usize].as_str())
        .unwrap_or_default()
}

/// The fields of a recorded step that the driver's state holds.
pub fn pick(step: &Value, keys: &[&str]) -> Value {
    Value::Object(
        keys.iter()
            .map(|&k| (k.to_string(), step[k].clone()))
            .collect(),
    )
}

/// Our step outcome in the reference runner's terms: `gym.make`'s time limit marks the
/// cap step truncated even when the game ended on it, where GameVerse reports the game
/// over only.
pub fn outcome(reward: f64, terminated: bool, truncated: bool) -> Value {
    json!({"reward": reward, "terminated": terminated, "truncated": truncated && !terminated})
}

pub fn recorded_outcome(step: &Value) -> Value {
    json!({"reward": step["reward"].as_f64(), "terminated": step["terminated"], "truncated": step["truncated"]})
}

/// The driver's Snake state.
pub const SNAKE_STATE: [&str; 5] = ["body", "direction", "food", "foods_eaten", "game_over"];

/// Whether a Snake episode plays in real time (Slow, Normal or another timeout).
pub fn is_realtime(episode: &Value) -> bool {
    episode["latency"] != "stop"
}

/// What the replay of golden episodes went through (the tests assert minimums, so a
/// replay that silently checks nothing fails).
#[derive(Debug, Default)]
pub struct Tally {
    pub steps: usize,
    pub frames: usize,
    /// Steps that ended the game.
    pub ends: usize,
    /// Steps that hit the step cap with the game still on.
    pub caps: usize,
    /// Idle steps of real-time episodes.
    pub idles: u32,
}

/// A player's own checks on an episode after its start (`None`) and after each step (its
/// 1-based number and the recorded step): frames, signals. Returns the mismatches.
pub type Extra<'a, P> = dyn FnMut(&P, &Value, Option<(usize, &Value)>) -> Vec<String> + 'a;

/// Plays the steps of golden episode `e` from the player's current (checked) start:
/// each reply as text, checking the state `fields`, the outcome and the player's own
/// checks; stops the episode at its first mismatch.
pub fn replay_steps<P: GameVersePlayer>(
    player: &mut P,
    golden: &Value,
    (e, episode): (usize, &Value),
    fields: &[&str],
    extra: &mut Extra<P>,
    tally: &mut Tally,
    failures: &mut Vec<String>,
) {
    failures.extend(extra(player, episode, None));
    for (i, step) in episode["steps"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let reply = reply_text(golden, step);
        let s = match player.step(reply) {
            Ok(s) => s,
            Err(err) => {
                failures.push(format!("episode {e} step {} ({reply:?}): {err}", i + 1));
                break;
            }
        };
        let want = pick(step, fields);
        let got = outcome(s.reward, s.terminated, s.truncated);
        let own = extra(player, episode, Some((i + 1, step)));
        if s.state != want || got != recorded_outcome(step) || !own.is_empty() {
            failures.push(format!(
                "episode {e} step {} ({reply:?}): {} {got} vs {want} {} {}",
                i + 1,
                s.state,
                recorded_outcome(step),
                own.join("; ")
            ));
            break;
        }
        tally.steps += 1;
        tally.ends += usize::from(s.terminated);
        tally.caps += usize::from(s.truncated && !s.terminated);
    }
}

/// The real-time rule of a recorded Snake episode: the environment's idle-timeout clock.
pub fn snake_clock(episode: &Value) -> Option<Clock> {
    Some(Clock {
        mode: ClockMode::IdleTimeout,
        tick_ms: u32::try_from(episode["timeout_ms"].as_u64()?).ok()?,
        idle: 0,
    })
}

/// Plays `n` idle steps from `state`; returns the state after them, their rewards and
/// whether one was truncated.
fn idle_steps<P: GameVersePlayer>(
    player: &mut P,
    n: u32,
    mut state: Value,
) -> Result<(Value, f64, bool), String> {
    let (mut reward, mut truncated) = (0.0, false);
    for _ in 0..n {
        let s = player.step(TIMEOUT_TEXT)?;
        reward += s.reward;
        truncated |= s.truncated;
        state = s.state;
    }
    Ok((state, reward, truncated))
}

/// Plays real-time Snake episode `e` (made and reset by the caller, its `start` state
/// checked) with its recorded latencies on the virtual clock: states, outcomes and
/// observation times after every reply, and the player's own checks.
pub fn replay_realtime<P: GameVersePlayer>(
    player: &mut P,
    golden: &Value,
    (e, episode): (usize, &Value),
    start: Value,
    extra: &mut Extra<P>,
    tally: &mut Tally,
    failures: &mut Vec<String>,
) {
    let at = format!("episode {e}");
    let Some(rule) = snake_clock(episode) else {
        failures.push(format!("{at}: no timeout_ms"));
        return;
    };
    // Time 0 is the first observation.
    let mut clock = VirtualClock::new(rule);
    let mut started = false;
    let mut state = start;
    failures.extend(extra(player, episode, None));
    for (i, step) in episode["steps"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let reply = reply_text(golden, step);
        let mut play = || -> Result<(Value, f64, bool, u32), String> {
            // The model thinks: the timeouts due by the reply's arrival pass first.
            let due = clock.wait(step["latency_ms"].as_u64().ok_or("no latency_ms")?);
            let (before, mut reward, mut truncated) = idle_steps(player, due, state.clone())?;
            let s = player.step(reply)?;
            reward += s.reward;
            truncated |= s.truncated;
            if !started || s.state != before {
                clock.act();
                started = true;
            }
            // The screenshot 500 ms later, after the timeouts due by then.
            let late = clock.wait(OBSERVATION_DELAY_MS);
            let (after, r, t) = idle_steps(player, late, s.state)?;
            Ok((after, reward + r, truncated || t, due + late))
        };
        let (after, reward, truncated, idles) = match play() {
            Ok(played) => played,
            Err(err) => {
                failures.push(format!("{at} step {} ({reply:?}): {err}", i + 1));
                break;
            }
        };
        tally.idles += idles;
        let terminated = after["game_over"] == true;
        let got = outcome(reward, terminated, truncated);
        let want = pick(step, &SNAKE_STATE);
        let own = extra(player, episode, Some((i + 1, step)));
        if after != want
            || got != recorded_outcome(step)
            || json!(clock.now_ms()) != step["capture_ms"]
            || !own.is_empty()
        {
            failures.push(format!(
                "{at} step {} ({reply:?}): {after} {got} at {} vs {want} {} at {} {}",
                i + 1,
                clock.now_ms(),
                recorded_outcome(step),
                step["capture_ms"],
                own.join("; ")
            ));
            break;
        }
        state = after;
        tally.steps += 1;
    }
}

/// Reports mismatches (the first twenty).
pub fn report(failures: &[String]) -> Result<(), String> {
    if failures.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{} mismatches, first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    ))
}

/// Runs the games through the `envs` library and the `Env` trait; keeps the last step
/// for the caller's checks (signals, frames).
#[derive(Default)]
pub struct LibraryPlayer {
    pub env: Option<Box<dyn envs::Env>>,
    pub last: Option<envs::Step>,
}

impl LibraryPlayer {
    pub fn env(&self) -> Result<&dyn envs::Env, String> {
        self.env.as_deref().ok_or_else(|| "no environment".into())
    }

    fn state(&self) -> Result<Value, String> {
        self.env()?
            .snapshot()
            .ok_or_else(|| "no snapshot".to_string())
    }
}

impl GameVersePlayer for LibraryPlayer {
    fn make(&mut self, id: &str, kwargs: &Value) -> Result<(), String> {
        let kwargs = kwargs.as_object().cloned().unwrap_or_default();
        self.env = Some(envs::make(id, &kwargs).map_err(|e| e.to_string())?);
        Ok(())
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<Value, String> {
        self.env.as_mut().ok_or("no environment")?.reset(seed);
        self.last = None;
        self.state()
    }

    fn step(&mut self, text: &str) -> Result<Stepped, String> {
        let env = self.env.as_mut().ok_or("no environment")?;
        let s = env
            .step(envs::Action::Text(text.to_string()))
            .map_err(|e| e.to_string())?;
        let stepped = Stepped {
            state: self.state()?,
            reward: s.reward,
            terminated: s.terminated,
            truncated: s.truncated,
        };
        self.last = Some(s);
        Ok(stepped)
    }
}

fn episodes(golden: &Value) -> impl Iterator<Item = (usize, &Value)> {
    golden["episodes"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
}

/// Makes `id` with `kwargs` on `player` and resets it for episode `episode`; the state.
fn start<P: GameVersePlayer>(
    player: &mut P,
    id: &str,
    kwargs: Option<&Value>,
    episode: &Value,
) -> Result<Value, String> {
    if let Some(kwargs) = kwargs {
        player.make(id, kwargs)?;
    }
    player.reset(seed(episode))
}

/// 2048's episodes on one player (an episode without a seed continues the generator;
/// 2048 reads a reply the same way in both action modes, so the GUI episodes play here
/// too), then the starts of many seeds.
pub fn replay_2048<P: GameVersePlayer>(
    player: &mut P,
    golden: &Value,
    extra: &mut Extra<P>,
    tally: &mut Tally,
) -> Vec<String> {
    let id = envs::gameverse::twenty_forty_eight::ID;
    let mut failures = Vec::new();
    if let Err(e) = player.make(id, &json!({})) {
        return vec![e];
    }
    for (e, episode) in episodes(golden) {
        match start(player, id, None, episode) {
            Ok(s) if s == episode["start"] => {}
            Ok(s) => {
                failures.push(format!("episode {e} start: {s} vs {}", episode["start"]));
                continue;
            }
            Err(err) => return vec![err],
        }
        let fields = ["board", "score", "unchanged_moves", "game_over"];
        replay_steps(
            player,
            golden,
            (e, episode),
            &fields,
            extra,
            tally,
            &mut failures,
        );
    }
    for s in golden["starts"].as_array().into_iter().flatten() {
        match player.reset(seed(s)) {
            Ok(got) if got["board"] == s["board"] => {}
            Ok(got) => failures.push(format!(
                "start of seed {}: {got} vs {}",
                s["seed"], s["board"]
            )),
            Err(err) => failures.push(err),
        }
    }
    failures
}

/// The action mode of a recorded episode, as an index into `["semantic", "gui"]`.
fn mode_index(episode: &Value) -> usize {
    usize::from(episode["mode"] == "gui")
}

const MODES: [&str; 2] = ["semantic", "gui"];

/// Maze's episodes on one player per action mode. The reference's episodes share one
/// module generator; an episode without a seed continues from the episode before, so
/// when that one ran in the other mode, this mode's player first makes the same maze
/// (steps draw nothing in Maze: only making a maze does). Then the mazes of many seeds.
pub fn replay_maze<P: GameVersePlayer>(
    mut new_player: impl FnMut() -> P,
    golden: &Value,
    extra: &mut Extra<P>,
    tally: &mut Tally,
) -> Vec<String> {
    let id = envs::gameverse::maze::ID;
    let mut failures = Vec::new();
    let mut players: Vec<P> = Vec::new();
    for mode in MODES {
        let mut p = new_player();
        if let Err(e) = p.make(id, &json!({ "action_mode": mode })) {
            return vec![e];
        }
        players.push(p);
    }
    let mut previous: Option<(usize, Option<u64>)> = None;
    for (e, episode) in episodes(golden) {
        let m = mode_index(episode);
        let player = &mut players[m];
        if let (None, Some((pm, prev_seed))) = (seed(episode), previous) {
            if pm != m {
                if let Err(err) = player.reset(prev_seed) {
                    return vec![err];
                }
            }
        }
        previous = Some((m, seed(episode)));
        let mut want = episode["start"].clone();
        let best = want
            .as_object_mut()
            .and_then(|o| o.remove("best_steps"))
            .unwrap_or_default();
        match start(player, id, None, episode) {
            Ok(s) if s == want && s["distance"] == best => {}
            Ok(s) => {
                failures.push(format!("episode {e} start: {s} vs {}", episode["start"]));
                continue;
            }
            Err(err) => return vec![err],
        }
        let fields = ["grid", "agent", "goal", "distance"];
        replay_steps(
            player,
            golden,
            (e, episode),
            &fields,
            extra,
            tally,
            &mut failures,
        );
    }
    let player = &mut players[0];
    for generation in golden["generations"].as_array().into_iter().flatten() {
        let mut want = generation.clone();
        let best = want["best_steps"].take();
        if let Some(o) = want.as_object_mut() {
            o.remove("seed");
            o.remove("best_steps");
        }
        match player.reset(seed(generation)) {
            Ok(mut got) => {
                let distance = got
                    .as_object_mut()
                    .and_then(|o| o.remove("distance"))
                    .unwrap_or_default();
                if got != want || distance != best {
                    failures.push(format!(
                        "generation of seed {}: {got} vs {want}",
                        generation["seed"]
                    ));
                }
            }
            Err(err) => failures.push(err),
        }
    }
    failures
}

/// Snake's Stop-mode episodes on one player per action mode (an episode without a seed
/// continues the generator of the one before in the same mode), then the first foods of
/// many seeds (the food list is not in the state: a start's three foods are its first
/// free entries).
pub fn replay_snake_stop<P: GameVersePlayer>(
    mut new_player: impl FnMut() -> P,
    golden: &Value,
    extra: &mut Extra<P>,
    tally: &mut Tally,
) -> Vec<String> {
    let id = envs::gameverse::snake::ID;
    let mut failures = Vec::new();
    let mut players: Vec<P> = Vec::new();
    for mode in MODES {
        let mut p = new_player();
        if let Err(e) = p.make(id, &json!({ "action_mode": mode })) {
            return vec![e];
        }
        players.push(p);
    }
    for (e, episode) in episodes(golden).filter(|(_, ep)| !is_realtime(ep)) {
        let player = &mut players[mode_index(episode)];
        match start(player, id, None, episode) {
            Ok(s) if s == pick(&episode["start"], &SNAKE_STATE) => {}
            Ok(s) => {
                failures.push(format!("episode {e} start: {s} vs {}", episode["start"]));
                continue;
            }
            Err(err) => return vec![err],
        }
        replay_steps(
            player,
            golden,
            (e, episode),
            &SNAKE_STATE,
            extra,
            tally,
            &mut failures,
        );
    }
    let player = &mut players[0];
    for (seed, coords) in golden["coords"].as_object().into_iter().flatten() {
        let first: Vec<Value> = coords
            .as_array()
            .into_iter()
            .flatten()
            .take(3)
            .cloned()
            .collect();
        match player.reset(seed.parse().ok()) {
            Ok(s) if s["food"] == json!(first) => {}
            Ok(_) => failures.push(format!("food of seed {seed}")),
            Err(err) => failures.push(err),
        }
    }
    failures
}

/// Snake's real-time episodes under the benchmark's time limit (1200 s), each on a new
/// game in its mode and latency setting; `count` counts them (and the Normal ones).
pub fn replay_snake_realtime<P: GameVersePlayer>(
    player: &mut P,
    golden: &Value,
    extra: &mut Extra<P>,
    tally: &mut Tally,
    count: &mut (usize, usize),
) -> Vec<String> {
    let id = envs::gameverse::snake::ID;
    let mut failures = Vec::new();
    let benchmark_duration = json!(envs::gameverse::snake::MAX_DURATION_MS);
    for (e, episode) in episodes(golden) {
        if !is_realtime(episode) || episode["max_duration_ms"] != benchmark_duration {
            continue;
        }
        count.0 += 1;
        count.1 += usize::from(episode["latency"] == "normal");
        let kwargs = json!({"action_mode": episode["mode"], "latency": episode["latency"]});
        let state = match start(player, id, Some(&kwargs), episode) {
            Ok(s) if s == pick(&episode["start"], &SNAKE_STATE) => s,
            Ok(s) => {
                failures.push(format!("episode {e} start: {s}"));
                continue;
            }
            Err(err) => return vec![err],
        };
        replay_realtime(
            player,
            golden,
            (e, episode),
            state,
            extra,
            tally,
            &mut failures,
        );
    }
    failures
}
