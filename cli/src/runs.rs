//! Playing tasks: who plays (a built-in agent or a model), one episode at a time or a
//! whole selection on threads.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use bench::agents::{OracleAgent, RandomAgent};
use bench::encode::ImageFormat;
use bench::model_episode::DemoCache;
use bench::protocol::session::HistoryWindow;
use bench::results::{ResultEpisode, ResultsKind};
use bench::{run_episode, Task};
use clap::ValueEnum;
use serde_json::{Map, Value};

use crate::args::{AgentArgs, AgentKind};
use crate::endpoint::{self, EndpointConfig};
use crate::error::CliError;

/// Who plays the episodes of a run.
pub enum Player {
    /// Repetition r of a task plays with seed × 1000003 + r, like the browser's suite
    /// runs with the random agent.
    Random {
        seed: u64,
    },
    Oracle,
    Endpoint(Box<EndpointConfig>),
}

impl Player {
    pub fn from_args(args: &AgentArgs) -> Result<Self, CliError> {
        Ok(match args.agent {
            AgentKind::Random => Self::Random {
                seed: args.seed.unwrap_or(0),
            },
            AgentKind::Oracle => Self::Oracle,
            AgentKind::Endpoint => Self::Endpoint(Box::new(EndpointConfig::from_args(
                &args.endpoint,
                &args.image,
            )?)),
        })
    }

    fn random(seed: u64, repeat: u64) -> RandomAgent {
        RandomAgent::for_repeat(seed, repeat)
    }

    /// The agent's name in records and reports (a random run is named by its first
    /// repetition's seed).
    pub fn name(&self) -> String {
        use bench::Agent;
        match self {
            Self::Random { seed } => Self::random(*seed, 0).name(),
            Self::Oracle => OracleAgent::new().name(),
            Self::Endpoint(c) => c.agent_name(),
        }
    }

    pub fn results_kind(&self) -> ResultsKind {
        match self {
            Self::Endpoint(_) => ResultsKind::Model,
            _ => ResultsKind::Baseline,
        }
    }

    /// Refuses, before anything is played, tasks the player's protocol cannot play:
    /// `--protocol gameverse` needs the environment's GameVerse agent prompts.
    pub fn check_tasks(&self, tasks: &[&Task]) -> Result<(), CliError> {
        let Self::Endpoint(config) = self else {
            return Ok(());
        };
        if config.session.protocol != bench::protocol::session::Protocol::Gameverse {
            return Ok(());
        }
        for task in tasks {
            let env = task.make_env().map_err(|error| CliError::Task {
                task: Some(task.id.clone()),
                error,
            })?;
            if env.agent_prompts().is_none() {
                return Err(CliError::Usage(format!(
                    "--protocol gameverse plays GameVerse's games only: task {} ({}) has no GameVerse agent prompts",
                    task.id, task.env
                )));
            }
        }
        Ok(())
    }

    /// Repetition `repeat` of `task`.
    pub fn play(
        &self,
        task: &Task,
        repeat: u64,
        demos: Option<&DemoCache>,
    ) -> Result<ResultEpisode, CliError> {
        let task_error = |error| CliError::Task {
            task: Some(task.id.clone()),
            error,
        };
        let (record, usage) = match self {
            Self::Random { seed } => {
                let mut agent = Self::random(*seed, repeat);
                (run_episode(task, &mut agent).map_err(task_error)?, None)
            }
            Self::Oracle => (
                run_episode(task, &mut OracleAgent::new()).map_err(task_error)?,
                None,
            ),
            Self::Endpoint(config) => {
                let run = endpoint::play(task, config, demos)?;
                (run.record, Some(run.usage))
            }
        };
        Ok(ResultEpisode {
            record,
            repeat: repeat as u32,
            usage,
        })
    }
}

/// What a run already has and where it keeps what it finishes: the episodes of the
/// results file it resumes, and a save called with every job's slot (in task, then
/// repetition order) each time an episode finishes, and a last time (`true`) when
/// the run ends or fails, so an interrupted run loses only what the save skipped.
#[derive(Default)]
pub struct Checkpoints<'a> {
    pub finished: Vec<ResultEpisode>,
    pub save: Option<&'a Save<'a>>,
}

/// Keeps the finished episodes (e.g. writes the results file). It sees every job's slot
/// (`None` until finished), so it copies episodes only when it writes.
pub type Save<'a> = dyn Fn(&[Option<ResultEpisode>], bool) -> Result<(), CliError> + Sync + 'a;

/// Plays each of `tasks` `episodes` times (times its trials with `with_trials`, as a
/// suite run does), `concurrency` episodes at a time (threads; each episode on its own
/// state), skipping the repetitions `checkpoints` already has. The results come back in
/// task order, then repetition order, whatever finished first; the first error in that
/// order fails the run.
pub fn play_all(
    tasks: &[&Task],
    player: &Player,
    episodes: u64,
    with_trials: bool,
    concurrency: usize,
    progress: bool,
    checkpoints: Checkpoints,
) -> Result<Vec<ResultEpisode>, CliError> {
    player.check_tasks(tasks)?;
    let jobs: Vec<(&Task, u64)> = tasks
        .iter()
        .flat_map(|t| {
            let trials = if with_trials {
                u64::from(t.trial_count())
            } else {
                1
            };
            (0..episodes * trials).map(move |e| (*t, e))
        })
        .collect();
    let mut slots: Vec<Option<ResultEpisode>> = vec![None; jobs.len()];
    for e in checkpoints.finished {
        let job = jobs
            .iter()
            .position(|(t, r)| t.id == e.record.task && *r == u64::from(e.repeat));
        if let Some(i) = job {
            slots[i] = Some(e);
        }
    }
    let todo: Vec<usize> = (0..jobs.len()).filter(|&i| slots[i].is_none()).collect();
    let slots = Mutex::new(slots);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(jobs.len() - todo.len());
    // A failed save stops the run: what it could not keep should not be played.
    let save_failed: Mutex<Option<CliError>> = Mutex::new(None);
    let keep = |i: usize, episode: &ResultEpisode| -> Result<(), CliError> {
        let Ok(mut slots) = slots.lock() else {
            return Ok(());
        };
        slots[i] = Some(episode.clone());
        match checkpoints.save {
            Some(save) => save(&slots, false),
            None => Ok(()),
        }
    };
    let worker = || {
        // Demonstration images are encoded once per task on each thread.
        let mut demos: HashMap<&str, DemoCache> = HashMap::new();
        let mut out = Vec::new();
        while let Some(&i) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
            if save_failed.lock().map_or(true, |f| f.is_some()) {
                break;
            }
            let (task, repeat) = jobs[i];
            let cache = demos.entry(task.id.as_str()).or_default();
            let played = player.play(task, repeat, Some(cache));
            if let Ok(episode) = &played {
                if let Err(e) = keep(i, episode) {
                    if let Ok(mut failed) = save_failed.lock() {
                        failed.get_or_insert(e);
                    }
                }
            }
            out.push((i, played));
            if progress {
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                eprintln!("playbench: {n}/{} episodes ({})", jobs.len(), task.id);
            }
        }
        out
    };
    let played: Vec<(usize, Result<ResultEpisode, CliError>)> = std::thread::scope(|s| {
        let threads: Vec<_> = (0..concurrency.clamp(1, todo.len().max(1)))
            .map(|_| s.spawn(worker))
            .collect();
        threads
            .into_iter()
            .flat_map(|t| t.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    if let Some(e) = save_failed.into_inner().ok().flatten() {
        return Err(e);
    }
    let slots = slots.into_inner().unwrap_or_default();
    if let Some(save) = checkpoints.save {
        save(&slots, true)?;
    }
    let mut results: Vec<(usize, Result<ResultEpisode, CliError>)> = slots
        .into_iter()
        .enumerate()
        .filter_map(|(i, e)| Some((i, Ok(e?))))
        .collect();
    // Errors take the place of their episode.
    results.extend(played.into_iter().filter(|(_, r)| r.is_err()));
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

fn flag_name<E: ValueEnum>(value: &E) -> Value {
    value
        .to_possible_value()
        .map_or(Value::Null, |p| p.get_name().into())
}

/// The run's settings for episode and results files, as the options were given (never
/// headers or keys; files strip key-like names as well).
pub fn run_settings(args: &AgentArgs) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("agent".into(), flag_name(&args.agent));
    match args.agent {
        AgentKind::Random => {
            m.insert("seed".into(), args.seed.unwrap_or(0).to_string().into());
        }
        AgentKind::Oracle => {}
        AgentKind::Endpoint => {
            let e = &args.endpoint;
            if let Some(p) = &e.provider {
                m.insert("provider".into(), flag_name(p));
            }
            for (name, value) in [("base_url", &e.base_url), ("model", &e.model)] {
                if let Some(v) = value {
                    m.insert(name.into(), v.as_str().into());
                }
            }
            m.insert("protocol".into(), flag_name(&e.protocol));
            m.insert("latency".into(), e.latency.trim().into());
            for (set, name) in [
                (e.verbalize, "verbalize"),
                (e.final_goal, "final_goal"),
                (e.repeat_instructions, "repeat_instructions"),
            ] {
                if set {
                    m.insert(name.into(), true.into());
                }
            }
            let history = match e.history {
                HistoryWindow::Full => "full".to_string(),
                HistoryWindow::Last(k) => k.to_string(),
            };
            m.insert("history".into(), history.into());
            if let Some(t) = e.temperature {
                m.insert("temperature".into(), t.to_string().into());
            }
            if let Some(n) = e.max_tokens {
                m.insert("max_tokens".into(), n.to_string().into());
            }
            m.insert("timeout".into(), e.timeout.max(1).to_string().into());
            m.insert("strictness".into(), flag_name(&e.strictness));
            m.insert("observation".into(), flag_name(&e.observation));
            m.insert("reward".into(), flag_name(&e.reward));
            if e.feedback {
                m.insert("feedback".into(), true.into());
            }
            // The image settings as the browser records them (VisGym's harness fixes
            // its own: JPEG at 75, shrunk to 336 pixels).
            if e.protocol == crate::args::ProtocolArg::Visgym {
                m.insert("image_format".into(), "image/jpeg".into());
                m.insert("image_quality".into(), 0.75.into());
                m.insert(
                    "image_max_long_side".into(),
                    bench::encode::VISGYM_MAX_LONG_SIDE.into(),
                );
                return m;
            }
            // GameVerse's harness sends PNG screenshots at their own size.
            if e.protocol == crate::args::ProtocolArg::Gameverse {
                m.insert("gameverse_agent".into(), flag_name(&e.gameverse_agent));
                m.insert("image_format".into(), "image/png".into());
                m.insert("image_scale".into(), 1.0.into());
                return m;
            }
            // As the browser records them (`app/src/runner/settings.rs`).
            if args.image.demos_as_video {
                let demos = format!("video (webm, {} fps)", args.image.video_fps);
                m.insert("demos".into(), demos.into());
            }
            let image = args.image.settings();
            m.insert("image_format".into(), image.format.mime().into());
            if image.format == ImageFormat::Jpeg {
                m.insert("image_quality".into(), image.quality.into());
            }
            m.insert("image_scale".into(), image.scale.into());
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{Cli, Command};
    use clap::Parser;

    fn agent(args: &[&str]) -> AgentArgs {
        let cli = Cli::try_parse_from(
            ["playbench", "baseline"]
                .into_iter()
                .chain(args.iter().copied()),
        )
        .unwrap();
        let Command::Baseline(b) = cli.command else {
            panic!("not baseline")
        };
        b.agent
    }

    #[test]
    fn random_repetitions_differ_and_reproduce_in_task_order() {
        let suite = bench::suites::latest(bench::suites::DEFAULT_SUITE).unwrap();
        let tasks: Vec<&Task> = suite
            .tasks
            .iter()
            .filter(|t| t.id.starts_with("taxi"))
            .take(2)
            .collect();
        let player = Player::from_args(&agent(&["--agent", "random", "--seed", "5"])).unwrap();
        assert_eq!(player.name(), "random (seed 5000015)");
        let one = play_all(&tasks, &player, 3, true, 1, false, Checkpoints::default()).unwrap();
        let three = play_all(&tasks, &player, 3, true, 3, false, Checkpoints::default()).unwrap();
        assert_eq!(one, three);
        let order: Vec<(&str, u32)> = one
            .iter()
            .map(|e| (e.record.task.as_str(), e.repeat))
            .collect();
        let want: Vec<(&str, u32)> = tasks
            .iter()
            .flat_map(|t| (0..3).map(move |r| (t.id.as_str(), r)))
            .collect();
        assert_eq!(order, want);
        assert_ne!(one[0].record.decisions, one[1].record.decisions);
        assert_eq!(one[0].record.agent, "random (seed 5000015)");
        assert_eq!(one[1].record.agent, "random (seed 5000016)");
    }

    #[test]
    fn settings_name_the_options_and_never_the_key() {
        let s = run_settings(&agent(&[
            "--agent",
            "endpoint",
            "--provider",
            "openai",
            "--base-url",
            "http://h/v1",
            "--model",
            "m",
            "--api-key-env",
            "SOME_KEY",
            "--header",
            "Authorization: Bearer sk-1",
            "--image-format",
            "jpeg",
        ]));
        assert_eq!(s["provider"], "openai");
        assert_eq!(s["history"], "full");
        assert_eq!(s["image_format"], "image/jpeg");
        assert_eq!(s["image_quality"], 0.85);
        let text = serde_json::to_string(&s).unwrap();
        assert!(
            !text.contains("SOME_KEY") && !text.contains("sk-1"),
            "{text}"
        );
        let s = run_settings(&agent(&["--agent", "oracle"]));
        assert_eq!(Value::Object(s), serde_json::json!({"agent": "oracle"}));
    }
}
