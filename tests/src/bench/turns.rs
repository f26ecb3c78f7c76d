//! The app's own work per model request, natively and in the browser: for each protocol
//! (V-ICAL, VisGym, GameVerse), built-in tasks with small and large frames and each
//! image setting, a [`ModelEpisode`] is played against a scripted endpoint and every
//! request's preparation (`next`: render, encode, build the body) and the reading of
//! its answer (`on_response`: parse, step, score) are timed. Also counted: the bytes
//! sent per request (body, and images before base64). `--turns` of the benchmark
//! command prints them (`tests/src/bin/bench.rs`).

use bench::encode::{ImageEncoder, ImageFormat, ImageSettings};
use bench::model_episode::{DemoCache, ModelEpisode, Step};
use bench::protocol::endpoint::Prices;
use bench::protocol::session::{Protocol, SessionConfig};
use bench::Task;
use serde::{Deserialize, Serialize};

use crate::gameverse_requests::{reply as answer_body, scripted_endpoint};

/// The app work per request must stay under this (issue: model turns at scale).
pub const TARGET_MS: f64 = 5.0;

/// Requests measured per case.
pub const REQUESTS: usize = 40;

/// One configuration: a protocol, a task of a built-in suite, an image setting.
pub struct TurnCase {
    pub name: String,
    pub protocol: Protocol,
    pub task: &'static Task,
    /// V-ICAL's encoder (VisGym and GameVerse encode with their own).
    pub image: ImageSettings,
}

/// What a case measured over its requests (new episodes as episodes end, sharing
/// their encoded demonstrations).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TurnFigures {
    pub name: String,
    pub requests: usize,
    /// The first request, in ms (its demonstration frames and its current frame
    /// prepared ahead, a piece per slice, as the app does:
    /// `ModelEpisode::prepare_first_request`).
    pub first_ms: f64,
    /// The largest of those slices, in ms (0 without demonstration frames).
    #[serde(default)]
    pub prepare_max_ms: f64,
    /// The longest start of an episode (`ModelEpisode::new`, before its first
    /// request: the app makes it in one turn of the page), in ms.
    #[serde(default)]
    pub start_max_ms: f64,
    /// Median and largest of the later requests, in ms.
    pub median_ms: f64,
    pub max_ms: f64,
    /// Mean request body and image bytes per request.
    pub body_bytes: f64,
    pub image_bytes: f64,
}

/// The suites' tasks with these environments, one each (small and large frames).
const VICAL_ENVS: [&str; 5] = [
    "Taxi",
    "CartPole",
    "MiniGrid-UnlockPickup",
    "highway",
    "Tetris",
];
const VISGYM_ENVS: [&str; 3] = ["maze_2d", "sliding_block", "mental_rotation_3d_cube"];

fn first_task(suite: &str, env_contains: &str, skip: usize) -> Option<&'static Task> {
    let suite = bench::suites::latest(suite).ok()?;
    suite
        .tasks
        .iter()
        .filter(|t| t.env.contains(env_contains))
        .nth(skip)
}

/// Every case: V-ICAL at PNG full size, PNG half size and JPEG; VisGym and GameVerse
/// at their own settings.
pub fn turn_cases() -> Vec<TurnCase> {
    let settings = [
        ("png", ImageSettings::default()),
        (
            "png@0.5",
            ImageSettings {
                scale: 0.5,
                ..ImageSettings::default()
            },
        ),
        (
            "jpeg",
            ImageSettings {
                format: ImageFormat::Jpeg,
                ..ImageSettings::default()
            },
        ),
    ];
    let mut cases = Vec::new();
    for env in VICAL_ENVS {
        if let Some(task) = first_task("vical", env, 0) {
            for (label, image) in settings {
                cases.push(TurnCase {
                    name: format!("vical {} {label}", task.env),
                    protocol: Protocol::Vical,
                    task,
                    image,
                });
            }
        }
    }
    for env in VISGYM_ENVS {
        if let Some(task) = first_task("visgym", env, 0) {
            cases.push(TurnCase {
                name: format!("visgym {}", task.env),
                protocol: Protocol::Visgym,
                task,
                image: ImageSettings::default(),
            });
        }
    }
    // GameVerse: the suite's first and last games.
    if let Ok(suite) = bench::suites::latest("gameverse") {
        let last = suite.tasks.len().saturating_sub(1);
        for task in [0, last].iter().filter_map(|&i| suite.tasks.get(i)) {
            cases.push(TurnCase {
                name: format!("gameverse {}", task.env),
                protocol: Protocol::Gameverse,
                task,
                image: ImageSettings::default(),
            });
        }
    }
    cases
}

/// The cases whose name contains one of the comma-separated parts of `only`.
pub fn turn_cases_matching(only: Option<&str>) -> Vec<TurnCase> {
    turn_cases()
        .into_iter()
        .filter(|c| only.is_none_or(|o| o.split(',').any(|part| c.name.contains(part))))
        .collect()
}

/// A reply naming the task's actions in turn, in the protocol's form (VisGym's tasks
/// list their function calls as the actions).
fn reply(case: &TurnCase, turn: usize) -> String {
    let actions = &case.task.actions;
    let action = actions
        .get(turn % actions.len().max(1))
        .cloned()
        .unwrap_or_default();
    let text = match case.protocol {
        Protocol::Vical => format!("[Action: {action}]"),
        Protocol::Visgym | Protocol::Gameverse => action,
    };
    answer_body(&text)
}

/// Plays `requests` requests of `case` (new episodes as episodes end), timing each with
/// `now` (milliseconds from any origin).
pub fn measure_turns(
    case: &TurnCase,
    requests: usize,
    now: &dyn Fn() -> f64,
) -> Result<TurnFigures, String> {
    let config = SessionConfig {
        protocol: case.protocol,
        ..SessionConfig::default()
    };
    let mut encoder = ImageEncoder::new(case.image);
    let mut times = Vec::with_capacity(requests);
    let (mut body, mut images) = (0usize, 0usize);
    // As in a suite run in the app, the episodes of a task share their encoded
    // demonstrations (`app/src/browser/suite_runner.rs`).
    let demos = DemoCache::default();
    let start_max_ms = std::cell::Cell::new(0.0f64);
    let start_episode = || -> Result<ModelEpisode, String> {
        let start = now();
        let mut e = ModelEpisode::new(case.task, scripted_endpoint(), config, Prices::default())?;
        e.share_demo_images(demos.clone(), case.image.key());
        start_max_ms.set(start_max_ms.get().max(now() - start));
        Ok(e)
    };
    let mut episode = start_episode()?;
    let mut fresh = 0;
    let mut prepare_max_ms: f64 = 0.0;
    while times.len() < requests {
        loop {
            let start = now();
            let prepared = episode.prepare_first_request(&mut encoder)?;
            prepare_max_ms = prepare_max_ms.max(now() - start);
            if prepared.is_none() {
                break;
            }
        }
        let start = now();
        match episode.next(&mut encoder, None) {
            Step::Send { request, .. } => {
                episode.on_response(200, None, 0, &reply(case, times.len()), 1.0, None);
                times.push(now() - start);
                body += request.body.len();
                images += request.image_bytes;
            }
            Step::Done => {
                fresh += 1;
                if fresh > requests {
                    return Err(format!("{}: episodes end without requests", case.name));
                }
                episode = start_episode()?;
            }
        }
    }
    let first_ms = times[0];
    let mut later: Vec<f64> = times[1..].to_vec();
    later.sort_by(f64::total_cmp);
    let n = times.len() as f64;
    Ok(TurnFigures {
        name: case.name.clone(),
        requests: times.len(),
        first_ms,
        prepare_max_ms,
        start_max_ms: start_max_ms.get(),
        median_ms: later.get(later.len() / 2).copied().unwrap_or(first_ms),
        max_ms: later.last().copied().unwrap_or(first_ms),
        body_bytes: body as f64 / n,
        image_bytes: images as f64 / n,
    })
}

/// The table the benchmark prints: native and wasm side by side, `!` past the target.
pub fn turn_table(native: &[TurnFigures], wasm: &[TurnFigures]) -> String {
    let mut out = format!(
        "{:<44} {:>9} {:>9} {:>9} {:>9} {:>9} | {:>10} {:>9} {:>9} {:>9} {:>9} | {:>10} {:>10}\n",
        "request work (ms)",
        "nat start",
        "nat prep",
        "nat 1st",
        "nat med",
        "nat max",
        "wasm start",
        "wasm prep",
        "wasm 1st",
        "wasm med",
        "wasm max",
        "body B",
        "image B"
    );
    let mark = |ms: f64| if ms > TARGET_MS { "!" } else { " " };
    for n in native {
        let w = wasm.iter().find(|w| w.name == n.name);
        let cell = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.2}{}", mark(v)));
        out.push_str(&format!(
            "{:<44} {:>9} {:>9} {:>9} {:>9} {:>9} | {:>10} {:>9} {:>9} {:>9} {:>9} | {:>10.0} {:>10.0}\n",
            n.name,
            cell(Some(n.start_max_ms)),
            cell(Some(n.prepare_max_ms)),
            cell(Some(n.first_ms)),
            cell(Some(n.median_ms)),
            cell(Some(n.max_ms)),
            cell(w.map(|w| w.start_max_ms)),
            cell(w.map(|w| w.prepare_max_ms)),
            cell(w.map(|w| w.first_ms)),
            cell(w.map(|w| w.median_ms)),
            cell(w.map(|w| w.max_ms)),
            n.body_bytes,
            n.image_bytes
        ));
    }
    out.push_str(&format!(
        "target: app work per request under {TARGET_MS} ms ('!' above it); start: the longest start of an episode (before its first request); prep: the largest slice of preparing a first request ahead of it (demonstration frames counted, drawn, encoded; its current frame drawn, encoded); bytes are means per request, images before base64\n"
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_protocol_has_cases_and_each_plays() {
        let cases = turn_cases();
        for p in [Protocol::Vical, Protocol::Visgym, Protocol::Gameverse] {
            assert!(cases.iter().any(|c| c.protocol == p), "{p:?}");
        }
        let clock = std::cell::Cell::new(0.0);
        let now = || {
            clock.set(clock.get() + 1.0);
            clock.get()
        };
        for case in cases.iter().filter(|c| !c.name.contains("jpeg")) {
            let f = measure_turns(case, 3, &now).unwrap();
            assert_eq!(f.requests, 3, "{}", case.name);
            assert!(f.body_bytes > 100.0, "{}: {}", case.name, f.body_bytes);
            // Every request's time is the two clock reads around it.
            assert_eq!((f.first_ms, f.median_ms), (1.0, 1.0), "{}", case.name);
            assert_eq!(f.start_max_ms, 1.0, "{}: an episode's start", case.name);
        }
    }
}
