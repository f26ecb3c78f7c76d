//! The `playbench` subcommands, as functions from arguments to output text (so tests
//! call them without a process).

use bench::agents::{OracleAgent, RandomAgent};
use bench::report::{format_table, report};
use bench::suites::core as core_suite;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use bench::results::{ResultEpisode, ResultsFile, ResultsKind};
use bench::{run_episode, Agent, EpisodeRecord, Suite, Task};

/// Command-line arguments: positionals and `--flag value` / `--switch` options.
pub struct Args {
    items: Vec<String>,
}

impl Args {
    pub fn new(items: Vec<String>) -> Self {
        Self { items }
    }

    pub(crate) fn command(&self) -> Option<&str> {
        self.items.first().map(String::as_str)
    }

    pub(crate) fn value(&self, flag: &str) -> Option<&str> {
        let i = self.items.iter().position(|a| a == flag)?;
        self.items.get(i + 1).map(String::as_str)
    }

    pub(crate) fn has(&self, flag: &str) -> bool {
        self.items.iter().any(|a| a == flag)
    }

    pub(crate) fn number(&self, flag: &str, default: u64) -> Result<u64, String> {
        match self.value(flag) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| format!("{flag} wants a non-negative integer, got {v:?}")),
        }
    }
}

const USAGE: &str = "usage:
  playbench tasks
  playbench run --task ID --agent random|oracle [--seed S]
  playbench run --task ID --agent endpoint --provider openai|anthropic|gemini --base-url URL
      --model NAME [--api-key-env VAR] [--history K] [--temperature T] [--max-tokens N]
      [--timeout S] [--strictness exact|lenient] [--observation image|text|both]
      [--feedback] [--reward task|shown|hidden] [--header 'Name: value']
      [--price-in USD_PER_M] [--price-out USD_PER_M]
      (run prints an episode file; --link prints its share-link fragment instead)
  playbench run --suite [--filter TEXT] [--episodes N] [--concurrency N] [--json]
      [--out FILE] [--progress] --agent ... (as above)
      (prints the results table, or the results file with --json)
  playbench verify FILE_OR_LINK
  playbench baseline --agent random|oracle [--seed S] [--episodes N] [--concurrency N] [--json]
  playbench suite [--check]";

fn suite_of(args: &Args) -> Result<Suite, String> {
    let id = args
        .value("--suite-id")
        .unwrap_or(bench::suites::DEFAULT_SUITE);
    bench::suites::latest(id)
        .cloned()
        .map_err(|e| e.to_string())
}

/// The agent named on the command line; the random agent's seed mixes in the episode
/// index so repeated episodes differ but every run is reproducible.
fn agent(args: &Args, episode: u64) -> Result<Box<dyn Agent>, String> {
    let seed = args.number("--seed", 0)?;
    match args.value("--agent") {
        Some("random") => Ok(Box::new(RandomAgent::new(
            seed.wrapping_mul(1_000_003).wrapping_add(episode),
        ))),
        Some("oracle") => Ok(Box::new(OracleAgent::new())),
        Some("endpoint") => crate::endpoint::agent(args),
        Some(other) => Err(format!(
            "unknown agent {other:?}: expected random, oracle or endpoint"
        )),
        None => Err("--agent is required (random, oracle or endpoint)".into()),
    }
}

fn json<T: serde::Serialize>(v: &T) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

/// Runs each of `tasks` `episodes` times with the agent of `args`, `concurrency`
/// episodes at a time (threads; each episode has its own agent). The results come
/// back in task order, then repetition order, whatever finished first.
pub fn run_tasks(
    tasks: &[&Task],
    args: &Args,
    episodes: u64,
    concurrency: usize,
) -> Result<Vec<ResultEpisode>, String> {
    let jobs: Vec<(&Task, u64)> = tasks
        .iter()
        .flat_map(|t| (0..episodes).map(move |e| (*t, e)))
        .collect();
    agent(args, 0)?; // a bad agent configuration fails before any thread starts
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<ResultEpisode, String>>>> =
        Mutex::new(vec![None; jobs.len()]);
    let progress = args.has("--progress");
    let done = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..concurrency.clamp(1, jobs.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(task, repeat)) = jobs.get(i) else {
                    break;
                };
                let outcome = agent(args, repeat).and_then(|mut a| {
                    let record = run_episode(task, a.as_mut())
                        .map_err(|e| format!("task {}: {e}", task.id))?;
                    Ok(ResultEpisode {
                        record,
                        repeat: repeat as u32,
                        usage: a.usage(),
                    })
                });
                if progress {
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    eprintln!("playbench: {n}/{} episodes ({})", jobs.len(), task.id);
                }
                if let Ok(mut r) = results.lock() {
                    r[i] = Some(outcome);
                }
            });
        }
    });
    results
        .into_inner()
        .map_err(|_| "a worker thread failed".to_string())?
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err("an episode did not run".into())))
        .collect()
}

/// The run's settings for episode and results files (never headers or keys; files
/// strip key-like names as well).
fn run_settings(args: &Args) -> serde_json::Map<String, serde_json::Value> {
    let mut settings = serde_json::Map::new();
    for flag in [
        "--agent",
        "--seed",
        "--provider",
        "--base-url",
        "--model",
        "--history",
        "--temperature",
        "--max-tokens",
        "--timeout",
        "--strictness",
        "--observation",
        "--reward",
        "--episodes",
        "--concurrency",
    ] {
        if let Some(v) = args.value(flag) {
            let name = flag.trim_start_matches('-').replace('-', "_");
            settings.insert(name, v.into());
        }
    }
    if args.has("--feedback") {
        settings.insert("feedback".into(), true.into());
    }
    settings
}

/// `playbench run --suite ...`: every task (or those whose id contains `--filter`),
/// as a results file (`--json`) or the table.
fn run_suite_command(suite: &Suite, args: &Args) -> Result<String, String> {
    let filter = args.value("--filter").unwrap_or("");
    let tasks: Vec<&Task> = suite
        .tasks
        .iter()
        .filter(|t| t.id.contains(filter))
        .collect();
    if tasks.is_empty() {
        return Err(format!("no task id contains {filter:?}"));
    }
    let episodes = args.number("--episodes", 1)?.max(1);
    let concurrency = args.number("--concurrency", 4)?.max(1) as usize;
    let results = run_tasks(&tasks, args, episodes, concurrency)?;
    let name = agent(args, 0)?.name();
    let kind = match args.value("--agent") {
        Some("endpoint") => ResultsKind::Model,
        _ => ResultsKind::Baseline,
    };
    let file = ResultsFile::new(&name, kind, &name, suite, Some(run_settings(args)), results);
    if let Some(path) = args.value("--out") {
        std::fs::write(path, file.to_json()).map_err(|e| format!("writing {path}: {e}"))?;
    }
    Ok(if args.has("--json") {
        file.to_json()
    } else {
        let mut table = format_table(&file.report);
        if let Some(u) = &file.usage {
            table.push_str(&format!(
                "-- usage: {} requests, {} input tokens, {} output tokens{}\n",
                u.requests,
                u.input_tokens,
                u.output_tokens,
                u.cost_usd.map(|c| format!(", ${c:.4}")).unwrap_or_default()
            ));
        }
        table
    })
}

pub fn dispatch(args: &Args) -> Result<String, String> {
    match args.command() {
        Some("tasks") => Ok(json(&suite_of(args)?.tasks)),
        Some("run") => {
            let suite = suite_of(args)?;
            if args.has("--suite") {
                return run_suite_command(&suite, args);
            }
            let id = args
                .value("--task")
                .ok_or("--task ID (or --suite) is required")?;
            let task = suite
                .task(id)
                .ok_or_else(|| format!("no task {id:?} in {} (see `playbench tasks`)", suite.id))?;
            let mut a = agent(args, 0)?;
            let record = run_episode(task, a.as_mut()).map_err(|e| e.to_string())?;
            let file = bench::share::EpisodeFile::from_record(
                bench::share::TaskRef::in_suite(&suite, id),
                record,
                Some(run_settings(args)),
            );
            if args.has("--link") {
                return file
                    .to_link_fragment()
                    .map(|link| format!("{link}\n"))
                    .map_err(|e| e.to_string());
            }
            Ok(format!("{}\n", file.to_json()))
        }
        Some("baseline") => {
            let suite = suite_of(args)?;
            let episodes = args.number("--episodes", 1)?.max(1);
            let tasks: Vec<&Task> = suite.tasks.iter().collect();
            let concurrency = args.number("--concurrency", 1)?.max(1) as usize;
            let records: Vec<EpisodeRecord> = run_tasks(&tasks, args, episodes, concurrency)?
                .into_iter()
                .map(|e| e.record)
                .collect();
            let name = agent(args, 0)?.name();
            let r = report(
                &name,
                &format!("{} v{}", suite.id, suite.version),
                &suite.tasks,
                &records,
            );
            Ok(if args.has("--json") {
                json(&r)
            } else {
                format_table(&r)
            })
        }
        Some("suite") => {
            if args.has("--check") {
                let mut out = String::new();
                for id in bench::suites::ids() {
                    let entry = bench::suites::latest_entry(id).ok_or("no such suite")?;
                    let build = entry.build.ok_or_else(|| format!("{id} has no recipes"))?;
                    let built = build().map_err(|e| format!("building {id}: {e}"))?;
                    let committed =
                        bench::suites::get(id, entry.version).map_err(|e| e.to_string())?;
                    if *committed != built {
                        return Err(format!("the committed {id} v{} differs from a fresh build: run `playbench suite --suite-id {id} > bench/suites/{id}/v{}.json`", entry.version, entry.version));
                    }
                    out.push_str(&format!(
                        "{id} v{} is up to date ({} tasks)\n",
                        entry.version,
                        built.tasks.len()
                    ));
                }
                return Ok(out);
            }
            let id = args
                .value("--suite-id")
                .unwrap_or(bench::suites::DEFAULT_SUITE);
            let entry =
                bench::suites::latest_entry(id).ok_or_else(|| format!("unknown suite {id:?}"))?;
            let build = entry.build.ok_or_else(|| format!("{id} has no recipes"))?;
            let built = build().map_err(|e| format!("building {id}: {e}"))?;
            Ok(core_suite::to_json(&built))
        }
        Some("verify") => crate::verify::command(args),
        _ => Err(USAGE.into()),
    }
}
