//! The `vical` suite's Atari tasks: V-ICAL's nine ALE games with its task construction
//! (docs/tasks.md, "Atari tasks"). ALE's v5 settings without sticky actions
//! (`repeat_action_probability` 0, as V-ICAL sets it), emulator frame skip 4 (RoadRunner
//! 16; Tennis 1, played as four unit-frame steps a decision); seeds leave ALE's openings
//! alike, so tasks start from different warm-ups (`init_skip`) and from the paper's
//! recorded human openings where it gives them.
//!
//! The oracle is the search of `envs::atari::oracle`, far too slow to run in every
//! episode: its play from every start is recorded once
//! (`playbench suite --record-atari --roms DIR`, into `atari-oracle.json` beside this
//! file) and the tasks replay the recording (`Task::recorded_oracle`). A task's score is
//! V-ICAL's capped reward ratio against the recorded expert's return on the same start;
//! it passes at half of it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::agents::{OracleAgent, RandomAgent};
use crate::episode::{run_episode, EpisodeRecord};
use crate::task::{
    DemoClip, Dynamics, Memory, PassCondition, RatioValue, ScoreRule, Tags, Task, TaskError,
    TASK_FORMAT,
};

use super::recipes::CHOSEN_CONFIG;

/// The recording's format tag.
pub const RECORDING_FORMAT: &str = "playbench-atari-oracle/1";
/// The committed recording, compiled in with the suite files (the app builds no suite).
#[cfg(feature = "embedded-suites")]
const RECORDING: Option<&str> = Some(include_str!("../../../suites/vical/atari-oracle.json"));
#[cfg(not(feature = "embedded-suites"))]
const RECORDING: Option<&str> = None;
/// The score (of 100) a task passes at: half the expert's points.
const PASS_SCORE: f64 = 50.0;
/// Decisions of the expert's play shown in a demonstration (the rest is its prefix).
const DEMO_DECISIONS: usize = 40;
/// Decisions of the random demonstration.
const RANDOM_DECISIONS: usize = 16;
/// Every task plays from seed 0: ALE's openings hardly depend on the seed.
const SEED: u64 = 0;

/// Where an episode starts: no-op steps after reset, then actions played as decisions.
#[derive(Clone, Debug)]
pub struct Start {
    /// Task id suffix.
    pub name: &'static str,
    pub title: &'static str,
    pub init_skip: u32,
    pub prefix: &'static [&'static str],
}

/// One game's tasks.
#[derive(Clone, Debug)]
pub struct AtariRecipe {
    /// Gymnasium's name ("Breakout").
    pub game: &'static str,
    pub slug: &'static str,
    /// ALE's frame skip (the environment's `frameskip`).
    pub frameskip: u32,
    /// Environment steps per decision, and how many play the chosen action.
    pub frame_skip: u32,
    pub action_steps: u32,
    pub budget: u32,
    pub rules: &'static str,
    pub starts: Vec<Start>,
    /// Where the expert's demonstration starts.
    pub demo: Start,
}

impl AtariRecipe {
    pub fn env(&self) -> String {
        format!("ALE/{}-v5", self.game)
    }

    fn kwargs(&self) -> Map<String, Value> {
        let v = json!({"frameskip": self.frameskip, "repeat_action_probability": 0.0});
        v.as_object().cloned().unwrap_or_default()
    }

    /// The recording keys of the task starts and the demonstration start.
    fn plays(&self) -> Vec<(String, &Start, u32)> {
        let mut out: Vec<(String, &Start, u32)> = self
            .starts
            .iter()
            .map(|s| (format!("{}-{}", self.slug, s.name), s, self.budget))
            .collect();
        out.push((
            format!("{}-demo", self.slug),
            &self.demo,
            self.budget.max(DEMO_DECISIONS as u32),
        ));
        out
    }
}

const fn start(
    name: &'static str,
    title: &'static str,
    init_skip: u32,
    prefix: &'static [&'static str],
) -> Start {
    Start {
        name,
        title,
        init_skip,
        prefix,
    }
}

#[allow(clippy::too_many_arguments)]
fn game(
    game: &'static str,
    slug: &'static str,
    frameskip: u32,
    budget: u32,
    rules: &'static str,
    starts: Vec<Start>,
    demo: Start,
) -> AtariRecipe {
    AtariRecipe {
        game,
        slug,
        frameskip,
        frame_skip: 1,
        action_steps: 1,
        budget,
        rules,
        starts,
        demo,
    }
}

/// V-ICAL's nine ALE games, in the paper's order of mention.
pub fn recipes() -> Vec<AtariRecipe> {
    let warm = |skip| start("warm", "after a warm-up", skip, &[]);
    let later = |skip| start("later", "later in the opening", skip, &[]);
    let demo = |skip| start("demo", "", skip, &[]);
    let mut tennis = game(
        "Tennis",
        "tennis",
        1,
        100,
        "A point is won when the opponent misses the ball.",
        vec![warm(60), later(400)],
        demo(200),
    );
    // V-ICAL plays Tennis's four frames a decision as four unit-frame steps, so that the
    // ball's reversals stay visible.
    tennis.frame_skip = 4;
    tennis.action_steps = 4;
    vec![
        game(
            "Seaquest",
            "seaquest",
            4,
            100,
            "Points for every shark and submarine shot. The submarine's oxygen runs out \
             underwater: surface to refill it.",
            vec![
                start("surface", "at the surface as new targets enter", 350, &[]),
                start(
                    "dive",
                    "underwater with a threat approaching",
                    230,
                    &["DOWN", "DOWN", "DOWN"],
                ),
            ],
            demo(120),
        ),
        game(
            "Asterix",
            "asterix",
            4,
            50,
            "Points for every object collected; touching a lyre costs a life.",
            vec![
                start(
                    "lanes",
                    "in a collision-oriented lane state",
                    0,
                    &["NOOP", "NOOP", "NOOP", "UP", "UPLEFT"],
                ),
                later(150),
            ],
            demo(60),
        ),
        game(
            "Frostbite",
            "frostbite",
            4,
            100,
            "Points for every ice floe jumped on while it is white; falling into the water \
             costs a life.",
            vec![
                start(
                    "risks",
                    "in a complex multi-risk state",
                    0,
                    &["DOWNRIGHT", "DOWNRIGHT", "DOWN", "DOWN", "NOOP", "NOOP"],
                ),
                later(120),
            ],
            demo(40),
        ),
        game(
            "Berzerk",
            "berzerk",
            4,
            50,
            "Points for every robot shot; touching a wall, a robot or a shot costs a life.",
            vec![warm(30), later(200)],
            demo(60),
        ),
        game(
            "RoadRunner",
            "roadrunner",
            16,
            50,
            "Points for every pile of seeds eaten; the coyote and the trucks cost a life.",
            vec![warm(10), later(40)],
            demo(25),
        ),
        tennis,
        game(
            "Freeway",
            "freeway",
            4,
            100,
            "A point for every crossing; a car knocks the chicken back.",
            vec![warm(60), later(150)],
            demo(80),
        ),
        game(
            "BattleZone",
            "battlezone",
            4,
            100,
            "Points for every enemy destroyed; being hit costs a life.",
            vec![warm(30), later(100)],
            demo(60),
        ),
        game(
            "Breakout",
            "breakout",
            4,
            200,
            "Points for every brick broken; missing the ball costs a life.",
            // Served: the ball in play, as a person's opening would have it.
            vec![
                start("served", "just after the serve", 10, &["FIRE"]),
                start("later", "after a later serve", 60, &["FIRE"]),
            ],
            start("demo", "", 30, &["FIRE"]),
        ),
    ]
}

/// The recorded expert plays, by key (`<slug>-<start>`, `<slug>-demo`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recording {
    pub format: String,
    pub plays: BTreeMap<String, Play>,
}

/// The expert's decisions from one start, with the start they were played from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Play {
    pub env: String,
    pub kwargs: Map<String, Value>,
    pub init_skip: u32,
    pub prefix: Vec<String>,
    pub frame_skip: u32,
    pub action_steps: u32,
    pub decisions: Vec<String>,
}

impl Recording {
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
}

fn err(field: impl Into<String>, message: impl Into<String>) -> TaskError {
    TaskError {
        field: field.into(),
        message: message.into(),
    }
}

/// A task of `r` from `s` without its score, rules, demonstrations or recording.
fn skeleton(r: &AtariRecipe, s: &Start, budget: u32) -> Result<Task, TaskError> {
    let env = envs::make(&r.env(), &r.kwargs()).map_err(|e| err("env", e.to_string()))?;
    let actions = env.action_names();
    let noop = env
        .noop()
        .and_then(|i| actions.get(i).cloned())
        .ok_or_else(|| err("noop", format!("{} has no NOOP", r.env())))?;
    let title = if s.title.is_empty() {
        r.game.to_string()
    } else {
        format!("{} ({})", r.game, s.title)
    };
    Ok(Task {
        format: TASK_FORMAT.to_string(),
        id: format!("{}-{}", r.slug, s.name),
        title,
        env: r.env(),
        kwargs: r.kwargs(),
        seed: SEED,
        init_skip: s.init_skip,
        prefix: s.prefix.iter().map(|a| a.to_string()).collect(),
        max_steps: budget,
        frame_skip: r.frame_skip,
        action_steps: r.action_steps,
        noop: Some(noop),
        hide_reward: true,
        rules: String::new(),
        demos: vec![DemoClip {
            label: "placeholder".into(),
            kwargs: None,
            seed: SEED,
            init_skip: None,
            prefix: Vec::new(),
            actions: vec![actions[0].clone()],
        }],
        actions,
        pass: PassCondition::ScoreAtLeast {
            threshold: PASS_SCORE,
        },
        // Set from the recorded expert's return.
        score: ScoreRule::CappedRatio {
            value: RatioValue::Return,
            floor: 0.0,
            reference: 1.0,
        },
        tags: Tags {
            family: "Atari".into(),
            // Motion (a ball's direction, a car's speed) needs earlier frames.
            memory: Memory::Multiple,
            dynamics: Dynamics::Dynamic,
            extra: vec![CHOSEN_CONFIG.to_string()],
        },
        trials: None,
        recorded_oracle: Vec::new(),
    })
}

fn decisions(record: &EpisodeRecord) -> Vec<String> {
    record.decisions.iter().map(|d| d.action.clone()).collect()
}

/// The recording's keys for `recipes`: every task start and each game's demonstration
/// start.
pub fn recording_keys(recipes: &[AtariRecipe]) -> Vec<String> {
    recipes
        .iter()
        .flat_map(|r| r.plays().into_iter().map(|(key, _, _)| key))
        .collect()
}

/// Plays the search oracle from the starts of `recipes` whose key `chosen` accepts
/// (minutes: run it in release), `threads` starts at a time. `progress` hears each
/// finished key.
pub fn record(
    recipes: &[AtariRecipe],
    chosen: &dyn Fn(&str) -> bool,
    threads: usize,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Recording, TaskError> {
    let mut jobs = Vec::new();
    for r in recipes {
        for (key, s, budget) in r.plays() {
            if chosen(&key) {
                jobs.push((key, skeleton(r, s, budget)?));
            }
        }
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<Vec<(String, Result<Play, TaskError>)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((key, task)) = jobs.get(i) else {
                            break;
                        };
                        let play = run_episode(task, &mut OracleAgent::new()).map(|record| Play {
                            env: task.env.clone(),
                            kwargs: task.kwargs.clone(),
                            init_skip: task.init_skip,
                            prefix: task.prefix.clone(),
                            frame_skip: task.frame_skip,
                            action_steps: task.action_steps,
                            decisions: decisions(&record),
                        });
                        progress(key);
                        done.push((key.clone(), play));
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut plays = BTreeMap::new();
    for (key, play) in results.into_iter().flatten() {
        plays.insert(key, play?);
    }
    Ok(Recording {
        format: RECORDING_FORMAT.to_string(),
        plays,
    })
}

/// The committed recording.
pub fn committed_recording() -> Result<Recording, TaskError> {
    let text = RECORDING.ok_or_else(|| {
        err(
            "atari-oracle.json",
            "not compiled in (bench's feature `embedded-suites`)",
        )
    })?;
    let rec: Recording = crate::task::parse(text)?;
    if rec.format != RECORDING_FORMAT {
        return Err(err(
            "format",
            format!("expected {RECORDING_FORMAT:?}, got {:?}", rec.format),
        ));
    }
    Ok(rec)
}

/// The recorded play for `key`, checked against the start it must have been played
/// from: `r`'s game and settings from start `s`.
fn play_for<'a>(
    rec: &'a Recording,
    key: &str,
    r: &AtariRecipe,
    s: &Start,
) -> Result<&'a Play, TaskError> {
    let stale = |why: &str| {
        err(
            format!("atari-oracle.json: {key}"),
            format!(
                "{why}: record the oracle again (`playbench suite --record-atari --roms DIR > \
                 bench/suites/vical/atari-oracle.json`)"
            ),
        )
    };
    let play = rec
        .plays
        .get(key)
        .ok_or_else(|| stale("no recorded play"))?;
    let same = play.env == r.env()
        && play.kwargs == r.kwargs()
        && play.init_skip == s.init_skip
        && play
            .prefix
            .iter()
            .map(String::as_str)
            .eq(s.prefix.iter().copied())
        && (play.frame_skip, play.action_steps) == (r.frame_skip, r.action_steps);
    if !same {
        return Err(stale("recorded from another start"));
    }
    Ok(play)
}

/// The tasks of `recipes`, replaying `rec`.
pub fn tasks(recipes: &[AtariRecipe], rec: &Recording) -> Result<Vec<Task>, TaskError> {
    let mut out = Vec::new();
    for r in recipes {
        let demo = play_for(rec, &format!("{}-demo", r.slug), r, &r.demo)?;
        for s in &r.starts {
            let key = format!("{}-{}", r.slug, s.name);
            let play = play_for(rec, &key, r, s)?;
            let mut task = skeleton(r, s, r.budget)?;
            task.recorded_oracle = play.decisions.clone();
            let expert = run_episode(&task, &mut OracleAgent::new())?;
            let points = expert.progress.total_reward;
            let mut t = task.clone();
            t.recorded_oracle.clear();
            let random_progress = run_episode(&t, &mut RandomAgent::new(0))?.progress;
            let random = random_progress.total_reward;
            let redo = |why: String| {
                err(
                    format!("atari-oracle.json: {key}"),
                    format!("{why}: give the task a longer budget or another start"),
                )
            };
            // V-ICAL's capped reward ratio against the expert; where the expert scores
            // nothing in the budget but a random player loses points (Tennis), the ratio
            // runs from the random player's return to the expert's.
            let floor = match points > 0.0 {
                true => 0.0,
                false if random < points => random,
                false => {
                    return Err(redo(format!(
                        "the recorded expert scores {points} within the budget, no more than a \
                         random player ({random})"
                    )))
                }
            };
            task.score = ScoreRule::CappedRatio {
                value: RatioValue::Return,
                floor,
                reference: points,
            };
            // V-ICAL's curators set budgets so that a task's score bands mean progress: a
            // task a random player passes tells nothing.
            if crate::scoring::score(&task.score, &random_progress) >= PASS_SCORE {
                return Err(redo(format!(
                    "a random player (seed 0) passes: {random} points against the expert's \
                     {points}"
                )));
            }
            task.rules = rules_text(r, &task);
            task.demos = demos(&task, r, demo)?;
            task.validate()
                .map_err(|e| err(format!("{}.{}", task.id, e.field), e.message))?;
            out.push(task);
        }
    }
    Ok(out)
}

fn rules_text(r: &AtariRecipe, task: &Task) -> String {
    let judged = match task.score {
        ScoreRule::CappedRatio {
            floor, reference, ..
        } if floor < 0.0 => format!(
            "Your score is the game's points over {} decisions, from a random player's \
             ({floor}) at 0 to an expert's ({reference}) at 100, on the same start; you pass \
             at {PASS_SCORE} of 100.",
            task.max_steps
        ),
        _ => format!(
            "Your score is the game's points over {} decisions as a share of an expert's \
             on the same start; you pass at {PASS_SCORE} of 100.",
            task.max_steps
        ),
    };
    let mut parts = vec![r.rules.to_string(), judged];
    if task.frame_skip > 1 {
        parts.push(format!(
            "Each decision holds your action for {} frames.",
            task.frame_skip * r.frameskip
        ));
    }
    parts.join(" ")
}

/// The expert's last decisions from the demonstration start, then a short random run.
fn demos(task: &Task, r: &AtariRecipe, demo: &Play) -> Result<Vec<DemoClip>, TaskError> {
    let shown = demo.decisions.len().min(DEMO_DECISIONS);
    let (before, played) = demo.decisions.split_at(demo.decisions.len() - shown);
    let mut prefix = demo.prefix.clone();
    prefix.extend_from_slice(before);
    let expert = DemoClip {
        label: "an expert playing".into(),
        kwargs: None,
        seed: SEED,
        init_skip: Some(r.demo.init_skip),
        prefix,
        actions: played.to_vec(),
    };
    let mut t = task.clone();
    t.max_steps = RANDOM_DECISIONS as u32;
    t.init_skip = r.demo.init_skip;
    t.prefix = demo.prefix.clone();
    t.recorded_oracle.clear();
    let random = run_episode(&t, &mut RandomAgent::new(task.seed))?;
    let random = DemoClip {
        label: "random actions".into(),
        kwargs: None,
        seed: SEED,
        init_skip: Some(r.demo.init_skip),
        prefix: demo.prefix.clone(),
        actions: decisions(&random),
    };
    Ok(vec![expert, random])
}

/// The committed recording's tasks.
pub fn build() -> Result<Vec<Task>, TaskError> {
    tasks(&recipes(), &committed_recording()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A play recorded from `r`'s start `s`, as `record` writes it.
    fn play_from(r: &AtariRecipe, s: &Start) -> Play {
        Play {
            env: r.env(),
            kwargs: r.kwargs(),
            init_skip: s.init_skip,
            prefix: s.prefix.iter().map(|a| a.to_string()).collect(),
            frame_skip: r.frame_skip,
            action_steps: r.action_steps,
            decisions: vec!["NOOP".into()],
        }
    }

    #[test]
    fn a_recording_from_another_start_or_without_the_start_is_refused_by_name() {
        let recipes = recipes();
        let seaquest = &recipes[0];
        let demo_key = format!("{}-demo", seaquest.slug);
        let recording = |play: Option<Play>| Recording {
            format: RECORDING_FORMAT.into(),
            plays: play.map(|p| (demo_key.clone(), p)).into_iter().collect(),
        };
        let message = |rec: &Recording| match tasks(&recipes[..1], rec) {
            Ok(_) => panic!("a stale recording built"),
            Err(e) => format!("{}: {}", e.field, e.message),
        };

        let missing = message(&recording(None));
        assert!(
            missing.contains("atari-oracle.json: seaquest-demo")
                && missing.contains("no recorded play")
                && missing.contains("--record-atari"),
            "{missing}"
        );
        let mut moved = play_from(seaquest, &seaquest.demo);
        moved.init_skip += 1;
        let stale = message(&recording(Some(moved)));
        assert!(
            stale.contains("seaquest-demo") && stale.contains("recorded from another start"),
            "{stale}"
        );
        let mut other_opening = play_from(seaquest, &seaquest.demo);
        other_opening.prefix.push("FIRE".into());
        assert!(message(&recording(Some(other_opening))).contains("another start"));
        // The demonstration's own play passes the check: the next missing key is named.
        let next = message(&recording(Some(play_from(seaquest, &seaquest.demo))));
        assert!(
            next.contains("seaquest-surface") && next.contains("no recorded play"),
            "{next}"
        );
    }
}
