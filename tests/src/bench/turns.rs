//! The app's own work per model request, natively and in the browser: for each protocol
//! (V-ICAL, VisGym, GameVerse), built-in tasks with small and large frames and each
//! image setting, a [`ModelEpisode`] is played against a scripted endpoint and every
//! request's preparation (`next`: render, encode, build the body) and the reading of
//! its answer (`on_response`: parse, step, score) are timed. Also counted: the bytes
//! sent per request (body, and images before base64). `--turns` of the benchmark
//! command prints them (`tests/src/bin/bench.rs`).

use bench::encode::{ImageEncoder, ImageFormat, ImageSettings};
use bench::first_request::FirstRequestAhead;
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
    /// The largest piece of the run page's work before Start, in ms: the first frame
    /// drawn and encoded for the estimate, then the first request prepared ahead
    /// (`bench::first_request`). Idle time on the page, not a request's.
    #[serde(default)]
    pub open_max_ms: f64,
    /// The first request, in ms (its current frame prepared ahead, a piece per slice,
    /// as the app does: `ModelEpisode::prepare_first_request`).
    pub first_ms: f64,
    /// The largest of those slices, in ms; the demonstration frames are the page's.
    #[serde(default)]
    pub prepare_max_ms: f64,
    /// The longest start of an episode (`ModelEpisode::new`, before its first
    /// request: the app makes it in one turn of the page), in ms.
    #[serde(default)]
    pub start_max_ms: f64,
    /// Median, 95th percentile and largest of the later requests, in ms.
    pub median_ms: f64,
    #[serde(default)]
    pub p95_ms: f64,
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

/// Opens `case` as the run page does, then plays `requests` requests of it (new
/// episodes as episodes end), timing each with `now` (milliseconds from any origin),
/// back to back.
pub fn measure_turns(
    case: &TurnCase,
    requests: usize,
    now: &dyn Fn() -> f64,
) -> Result<TurnFigures, String> {
    let mut run = TurnRun::open(case, requests, now)?;
    while run.request()? {}
    Ok(run.figures())
}

/// One case measured a request at a time, so that the browser's half can give the page
/// a turn between requests as the app does while it waits for the model's answer.
pub struct TurnRun<'a> {
    case: &'a TurnCase,
    requests: usize,
    now: &'a dyn Fn() -> f64,
    config: SessionConfig,
    encoder: ImageEncoder,
    /// As in the app, the episodes of a task share their encoded demonstrations
    /// (`app/src/browser/suite_runner.rs`, `app/src/browser/ahead.rs`).
    demos: DemoCache,
    episode: ModelEpisode,
    fresh: usize,
    times: Vec<f64>,
    body: usize,
    images: usize,
    open_max_ms: f64,
    start_max_ms: f64,
    prepare_max_ms: f64,
}

impl<'a> TurnRun<'a> {
    /// The run page before Start: the task's first frame drawn and encoded for the
    /// estimate, then the first request prepared ahead into the cache the run shares;
    /// then the run's first episode started.
    pub fn open(
        case: &'a TurnCase,
        requests: usize,
        now: &'a dyn Fn() -> f64,
    ) -> Result<Self, String> {
        let config = SessionConfig {
            protocol: case.protocol,
            ..SessionConfig::default()
        };
        let demos = DemoCache::default();
        let start = now();
        bench::encode::first_image(case.task, case.protocol, case.image)?;
        let mut open_max_ms = now() - start;
        let ahead = FirstRequestAhead::new(
            case.task,
            scripted_endpoint(),
            config,
            Prices::default(),
            case.image,
            demos.clone(),
        )?;
        if let Some(mut ahead) = ahead {
            loop {
                let start = now();
                let over = ahead.step().is_over();
                open_max_ms = open_max_ms.max(now() - start);
                if over {
                    break;
                }
            }
        }
        let start = now();
        let episode = start_episode(case, config, &demos)?;
        let start_max_ms = now() - start;
        Ok(Self {
            case,
            requests,
            now,
            config,
            encoder: ImageEncoder::new(case.image),
            episode,
            demos,
            fresh: 0,
            times: Vec::with_capacity(requests),
            body: 0,
            images: 0,
            open_max_ms,
            start_max_ms,
            prepare_max_ms: 0.0,
        })
    }

    /// Prepares (a piece per slice, as the app does) and plays the next request,
    /// starting a new episode first when one ends; `false` once all are played.
    pub fn request(&mut self) -> Result<bool, String> {
        let now = self.now;
        while self.times.len() < self.requests {
            loop {
                let start = now();
                let prepared = self.episode.prepare_first_request(&mut self.encoder)?;
                self.prepare_max_ms = self.prepare_max_ms.max(now() - start);
                if prepared.is_none() {
                    break;
                }
            }
            let start = now();
            match self.episode.next(&mut self.encoder, None) {
                Step::Send { request, .. } => {
                    let answer = reply(self.case, self.times.len());
                    self.episode.on_response(200, None, 0, &answer, 1.0, None);
                    self.times.push(now() - start);
                    self.body += request.body.len();
                    self.images += request.image_bytes;
                    return Ok(self.times.len() < self.requests);
                }
                Step::Done => {
                    self.fresh += 1;
                    if self.fresh > self.requests {
                        return Err(format!("{}: episodes end without requests", self.case.name));
                    }
                    let start = now();
                    self.episode = start_episode(self.case, self.config, &self.demos)?;
                    self.start_max_ms = self.start_max_ms.max(now() - start);
                }
            }
        }
        Ok(false)
    }

    pub fn figures(&self) -> TurnFigures {
        let times = &self.times;
        let first_ms = times.first().copied().unwrap_or(0.0);
        let mut later: Vec<f64> = times.iter().skip(1).copied().collect();
        later.sort_by(f64::total_cmp);
        let n = times.len().max(1) as f64;
        TurnFigures {
            name: self.case.name.clone(),
            requests: times.len(),
            open_max_ms: self.open_max_ms,
            first_ms,
            prepare_max_ms: self.prepare_max_ms,
            start_max_ms: self.start_max_ms,
            median_ms: later.get(later.len() / 2).copied().unwrap_or(first_ms),
            p95_ms: later
                .get((later.len() * 95).div_ceil(100).saturating_sub(1))
                .copied()
                .unwrap_or(first_ms),
            max_ms: later.last().copied().unwrap_or(first_ms),
            body_bytes: self.body as f64 / n,
            image_bytes: self.images as f64 / n,
        }
    }
}

/// An episode of `case` as the run starts it, sharing the task's demonstration images.
fn start_episode(
    case: &TurnCase,
    config: SessionConfig,
    demos: &DemoCache,
) -> Result<ModelEpisode, String> {
    let mut e = ModelEpisode::new(case.task, scripted_endpoint(), config, Prices::default())?;
    e.share_demo_images(demos.clone(), case.image.key());
    Ok(e)
}

/// The table the benchmark prints: native and wasm side by side, `!` past the target
/// (the page's work before Start is shown unmarked: no request waits on it).
pub fn turn_table(native: &[TurnFigures], wasm: &[TurnFigures]) -> String {
    const HEADS: [&str; 7] = ["open", "start", "prep", "1st", "med", "p95", "max"];
    let mut out = format!("{:<44}", "request work (ms)");
    for side in ["nat", "wasm"] {
        for head in HEADS {
            out.push_str(&format!(" {:>10}", format!("{side} {head}")));
        }
        out.push_str(" |");
    }
    out.push_str(&format!(" {:>10} {:>10}\n", "body B", "image B"));
    let figures = |f: &TurnFigures| {
        [
            f.open_max_ms,
            f.start_max_ms,
            f.prepare_max_ms,
            f.first_ms,
            f.median_ms,
            f.p95_ms,
            f.max_ms,
        ]
    };
    for n in native {
        out.push_str(&format!("{:<44}", n.name));
        let w = wasm.iter().find(|w| w.name == n.name);
        for side in [Some(n), w] {
            for (i, head) in HEADS.iter().enumerate() {
                let cell = side.map_or("-".to_string(), |f| {
                    let v = figures(f)[i];
                    let mark = match *head {
                        _ if v <= TARGET_MS => " ",
                        "open" => " ",
                        "max" if f.p95_ms <= TARGET_MS => "*",
                        _ => "!",
                    };
                    format!("{v:.2}{mark}")
                });
                out.push_str(&format!(" {cell:>10}"));
            }
            out.push_str(" |");
        }
        out.push_str(&format!(
            " {:>10.0} {:>10.0}\n",
            n.body_bytes, n.image_bytes
        ));
    }
    out.push_str(&format!(
        "target: app work per request under {TARGET_MS} ms ('!' above it; '*': a largest request above it in a case whose 95th percentile is under it, an isolated request: in the browser such single requests of 5-7 ms move from case to case between runs while their neighbours take half that); open: the largest piece of the run page's work before Start (its first frame drawn and encoded for the estimate, then the first request's demonstration frames drawn and encoded ahead, between the page's turns; a fresh page's first piece carries its code's first compilation); start: the longest start of an episode (before its first request); prep: the largest slice of preparing a first request ahead of it once started (its current frame drawn, encoded; a later episode's demonstration frames come from the page's cache); bytes are means per request, images before base64\n"
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
            assert_eq!(
                f.open_max_ms, 1.0,
                "{}: the page's work before Start",
                case.name
            );
        }
        // Past the target is marked, except the page's work before Start; a largest
        // request past it alone is told apart.
        let mut slow = measure_turns(&cases[0], 3, &now).unwrap();
        slow.max_ms = 9.0;
        slow.open_max_ms = 30.0;
        let table = turn_table(&[slow.clone()], &[]);
        let row = table.lines().find(|l| l.starts_with(&slow.name)).unwrap();
        assert!(row.contains("9.00*") && row.contains("30.00 "), "{row}");
        assert_eq!(row.matches(['!', '*']).count(), 1, "{row}");
        slow.p95_ms = 6.0;
        let table = turn_table(&[slow.clone()], &[]);
        let row = table.lines().find(|l| l.starts_with(&slow.name)).unwrap();
        assert!(row.contains("6.00!") && row.contains("9.00!"), "{row}");
    }
}
