//! The `playbench` subcommands, as functions from arguments to output text (so tests
//! call them without a process).

use envs::tasks::agents::{OracleAgent, RandomAgent};
use envs::tasks::core_suite;
use envs::tasks::report::{format_table, report};
use envs::tasks::{run_episode, Agent, EpisodeRecord, Suite};

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
      [--timeout S] [--strictness exact|lenient] [--header 'Name: value']
      (run prints an episode file; --link prints its share-link fragment instead)
  playbench verify FILE_OR_LINK
  playbench baseline --agent random|oracle [--seed S] [--episodes N] [--json]
  playbench suite [--check]";

fn suite() -> Result<Suite, String> {
    core_suite::builtin().map_err(|e| format!("the built-in suite is invalid: {e}"))
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

/// Runs every task of `suite` `episodes` times with the agent of `args`.
pub fn run_suite(suite: &Suite, args: &Args, episodes: u64) -> Result<Vec<EpisodeRecord>, String> {
    let mut out = Vec::new();
    for task in &suite.tasks {
        for e in 0..episodes {
            let mut a = agent(args, e)?;
            out.push(run_episode(task, a.as_mut()).map_err(|e| format!("task {}: {e}", task.id))?);
        }
    }
    Ok(out)
}

pub fn dispatch(args: &Args) -> Result<String, String> {
    match args.command() {
        Some("tasks") => Ok(json(&suite()?.tasks)),
        Some("run") => {
            let suite = suite()?;
            let id = args.value("--task").ok_or("--task ID is required")?;
            let task = suite
                .task(id)
                .ok_or_else(|| format!("no task {id:?} in {} (see `playbench tasks`)", suite.id))?;
            let mut a = agent(args, 0)?;
            let record = run_episode(task, a.as_mut()).map_err(|e| e.to_string())?;
            // The run's settings (never headers; the file strips key-like names).
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
            ] {
                if let Some(v) = args.value(flag) {
                    let name = flag.trim_start_matches('-').replace('-', "_");
                    settings.insert(name, v.into());
                }
            }
            let file = envs::tasks::share::EpisodeFile::from_record(
                envs::tasks::share::TaskRef::builtin(id),
                record,
                Some(settings),
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
            let suite = suite()?;
            let episodes = args.number("--episodes", 1)?.max(1);
            let records = run_suite(&suite, args, episodes)?;
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
            let built = core_suite::build().map_err(|e| format!("building the suite: {e}"))?;
            let text = core_suite::to_json(&built);
            if args.has("--check") {
                let committed = core_suite::builtin().map_err(|e| e.to_string())?;
                return if committed == built {
                    Ok(format!(
                        "the committed suite is up to date ({} tasks)\n",
                        built.tasks.len()
                    ))
                } else {
                    Err("the committed suite differs from a fresh build: run `playbench suite > envs/suites/playbench-core.json`".into())
                };
            }
            Ok(text)
        }
        Some("verify") => crate::verify::command(args),
        _ => Err(USAGE.into()),
    }
}
