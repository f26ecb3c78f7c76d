//! The `playbench` subcommands, as functions from parsed arguments to output text (so
//! tests call them without a process).

use bench::latency::LatencyStats;
use bench::report::format_table;
use bench::results::{ResultEpisode, ResultsFile};
use bench::share::{EpisodeFile, TaskRef};
use bench::{EpisodeRecord, FailureMode, Suite, Task};

use crate::args::{BaselineArgs, Cli, Command, RunArgs, SuiteArgs};
use crate::error::CliError;
use crate::runs::{play_all, run_settings, Checkpoints, Player};

/// What a command prints on stdout, and whether it failed all the same (an endpoint
/// that failed during a run that still has a file to show).
#[derive(Debug)]
pub struct Output {
    pub text: String,
    pub failure: Option<CliError>,
}

impl Output {
    fn ok(text: String) -> Self {
        Self {
            text,
            failure: None,
        }
    }

    /// `text`, failing with an endpoint error when episodes ended with `api_error`.
    pub fn checked(text: String, episodes: &[&EpisodeRecord]) -> Self {
        let failed = episodes
            .iter()
            .filter(|r| r.failure == Some(FailureMode::ApiError))
            .count();
        Self {
            text,
            failure: (failed > 0).then_some(CliError::Endpoint {
                failed,
                episodes: episodes.len(),
            }),
        }
    }
}

/// The `--latency` setting as given.
fn latency_setting(agent: &crate::args::AgentArgs) -> String {
    agent.endpoint.latency.trim().to_string()
}

/// Writes `text` to `path` (an output file a command was asked for).
pub fn write_file(path: &str, text: &str) -> Result<(), CliError> {
    std::fs::write(path, text).map_err(|error| CliError::Io {
        what: format!("writing {path}"),
        error,
    })
}

/// Writes `text` to `path` whole or not at all (a temporary file renamed over it), so
/// an interrupted run never leaves half a file.
fn replace_file(path: &str, text: &str) -> Result<(), CliError> {
    let partial = format!("{path}.partial");
    write_file(&partial, text)?;
    std::fs::rename(&partial, path).map_err(|error| CliError::Io {
        what: format!("writing {path}"),
        error,
    })
}

/// The finished episodes of the run `path` holds, checked to be `fresh`'s run (the same
/// suite, agent and settings but for how many episodes and threads); none when `path`
/// does not exist yet.
fn resumed(path: &str, fresh: &ResultsFile) -> Result<Vec<ResultEpisode>, CliError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => {
            return Err(CliError::ReadInput {
                input: path.to_string(),
                error,
            })
        }
    };
    let old = ResultsFile::from_json(&text).map_err(|error| CliError::Share {
        input: Some(path.to_string()),
        error,
    })?;
    let settings = |f: &ResultsFile| {
        let mut c = f.config.clone().unwrap_or_default();
        c.remove("episodes");
        c.remove("concurrency");
        serde_json::Value::Object(c)
    };
    let fields = [
        ("suite", old.suite.clone(), fresh.suite.clone()),
        (
            "suite_version",
            old.suite_version.to_string(),
            fresh.suite_version.to_string(),
        ),
        (
            "envs_version",
            old.envs_version.clone(),
            fresh.envs_version.clone(),
        ),
        ("agent", old.agent.clone(), fresh.agent.clone()),
        (
            "config",
            settings(&old).to_string(),
            settings(fresh).to_string(),
        ),
    ];
    if let Some((field, was, is)) = fields.into_iter().find(|(_, was, is)| was != is) {
        return Err(CliError::Usage(format!(
            "--resume: {path} holds another run: its {field} is {was}, this run's is {is}"
        )));
    }
    Ok(old.episodes)
}

fn suite(id: &str) -> Result<&'static Suite, CliError> {
    Ok(bench::suites::latest(id)?)
}

fn json<T: serde::Serialize>(v: &T) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

pub fn dispatch(cli: &Cli) -> Result<Output, CliError> {
    crate::image_folder::shelve_bundled().map_err(CliError::Usage)?;
    crate::mujoco_node::install_on_demand();
    if let Some(dir) = &cli.roms {
        let shelved = crate::rom_folder::shelve_folder(dir)
            .map_err(|e| CliError::Usage(e.replacen("\"roms\": ", "--roms: ", 1)))?;
        if shelved.games.is_empty() {
            return Err(CliError::Usage(format!(
                "--roms: {} holds no ROM of a supported Atari game",
                dir.display()
            )));
        }
    }
    match &cli.command {
        Command::Tasks(choice) => Ok(Output::ok(json(&suite(&choice.suite_id)?.tasks))),
        Command::Run(args) if args.suite => run_suite(args),
        Command::Run(args) => run_task(args),
        Command::Verify { input } => crate::verify::command(input).map(Output::ok),
        Command::Baseline(args) => baseline(args),
        Command::Suite(args) if args.check => check_suites().map(Output::ok),
        Command::Suite(args) if args.record_atari => record_atari(&args.only).map(Output::ok),
        Command::Suite(args) => build_suite(args).map(Output::ok),
        Command::Audit(args) => crate::audit::command(args),
        Command::Judge(args) => crate::judge::command(args),
        Command::Reflect(args) => crate::reflect::command(args),
    }
}

/// `playbench run --task ID`: one episode file, or its link.
fn run_task(args: &RunArgs) -> Result<Output, CliError> {
    let suite = suite(&args.suite_id.suite_id)?;
    let id = args.task.as_deref().unwrap_or_default();
    let task = suite.task(id).ok_or_else(|| CliError::UnknownTask {
        suite: suite.id.clone(),
        task: id.to_string(),
    })?;
    let player = Player::from_args(&args.agent)?;
    let episode = player.play(task, 0, None)?;
    if let Some(stats) = LatencyStats::of(&episode.record.decisions) {
        eprintln!(
            "playbench: {}: score {:.1}; thinking time as game time ({}): {}",
            task.id,
            episode.record.score,
            latency_setting(&args.agent),
            stats.summary()
        );
    }
    let file = EpisodeFile::from_record(
        TaskRef::in_suite(suite, id),
        episode.record,
        Some(run_settings(&args.agent)),
    );
    let text = if args.link {
        format!("{}\n", file.to_link_fragment()?)
    } else {
        format!("{}\n", file.to_json())
    };
    Ok(Output::checked(text, &[&file.record]))
}

/// `playbench run --suite`: every task (or those whose id contains `--filter`), as a
/// results file (`--json`) or the table.
fn run_suite(args: &RunArgs) -> Result<Output, CliError> {
    let suite = suite(&args.suite_id.suite_id)?;
    let filter = args.filter.as_deref().unwrap_or("");
    let tasks: Vec<&Task> = suite
        .tasks
        .iter()
        .filter(|t| t.id.contains(filter))
        .collect();
    if tasks.is_empty() {
        return Err(CliError::NoTaskMatches {
            filter: filter.to_string(),
        });
    }
    let player = Player::from_args(&args.agent)?;
    let episodes = args.episodes.max(1);
    let concurrency = args.concurrency.max(1);
    let mut settings = run_settings(&args.agent);
    settings.insert("episodes".into(), episodes.to_string().into());
    settings.insert("concurrency".into(), concurrency.to_string().into());
    let name = player.name();
    let results_file = |results: Vec<ResultEpisode>| {
        ResultsFile::new(
            &name,
            player.results_kind(),
            &name,
            suite,
            Some(settings.clone()),
            results,
        )
    };
    let finished = match (&args.out, args.resume) {
        (Some(path), true) => resumed(path, &results_file(Vec::new()))?,
        _ => Vec::new(),
    };
    // Resuming keeps the file's episodes: one this run would not play would be lost.
    let planned = |e: &ResultEpisode| {
        tasks.iter().any(|t| {
            t.id == e.record.task && u64::from(e.repeat) < episodes * u64::from(t.trial_count())
        })
    };
    if let Some(e) = finished.iter().find(|e| !planned(e)) {
        return Err(CliError::Usage(format!(
            "--resume: the results file holds repetition {} of task {}, which this run does not play: give the --filter and --episodes of the run it holds",
            e.repeat, e.record.task
        )));
    }
    if !finished.is_empty() && args.progress {
        eprintln!(
            "playbench: resuming with {} finished episodes",
            finished.len()
        );
    }
    // Rewriting the file after every quick episode (a built-in agent's) would cost more
    // than playing them: at most once a second, and at the end.
    let saved = std::sync::Mutex::new(None::<std::time::Instant>);
    let save = |slots: &[Option<ResultEpisode>], last: bool| {
        let (Some(path), Ok(mut saved)) = (&args.out, saved.lock()) else {
            return Ok(());
        };
        if !last && saved.is_some_and(|t| t.elapsed() < std::time::Duration::from_secs(1)) {
            return Ok(());
        }
        *saved = Some(std::time::Instant::now());
        let finished = slots.iter().flatten().cloned().collect();
        replace_file(path, &results_file(finished).to_json())
    };
    let results = play_all(
        &tasks,
        &player,
        episodes,
        true,
        concurrency as usize,
        args.progress,
        Checkpoints {
            finished,
            save: Some(&save),
        },
    )?;
    let file = results_file(results);
    let text = if args.json {
        file.to_json()
    } else {
        let mut table = format_table(&file.report);
        if file.report.latency.is_some() {
            table.push_str(&format!(
                "-- latency setting: {}\n",
                latency_setting(&args.agent)
            ));
        }
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
    };
    let records: Vec<&EpisodeRecord> = file.episodes.iter().map(|e| &e.record).collect();
    Ok(Output::checked(text, &records))
}

/// `playbench baseline`: the suite's score table, the results file (`--json`, which
/// `/compare` reads) or only its report (`--report`, the committed baseline files).
fn baseline(args: &BaselineArgs) -> Result<Output, CliError> {
    let suite = suite(&args.suite_id.suite_id)?;
    let player = Player::from_args(&args.agent)?;
    let tasks: Vec<&Task> = suite.tasks.iter().collect();
    let episodes = args.episodes.max(1);
    let concurrency = args.concurrency.max(1);
    let results = play_all(
        &tasks,
        &player,
        episodes,
        false,
        concurrency as usize,
        false,
        Checkpoints::default(),
    )?;
    let mut settings = run_settings(&args.agent);
    settings.insert("episodes".into(), episodes.to_string().into());
    let name = player.name();
    let file = ResultsFile::new(
        &name,
        player.results_kind(),
        &name,
        suite,
        Some(settings),
        results,
    );
    let text = if args.report {
        json(&file.report)
    } else if args.json {
        file.to_json()
    } else {
        format_table(&file.report)
    };
    let records: Vec<&EpisodeRecord> = file.episodes.iter().map(|e| &e.record).collect();
    Ok(Output::checked(text, &records))
}

/// `playbench suite`: a fresh build of the suite's latest version.
fn build_suite(args: &SuiteArgs) -> Result<String, CliError> {
    let (_, built) = fresh_build(&args.suite_id.suite_id)?;
    Ok(bench::suites::calibrated::to_json(&built))
}

/// `playbench suite --record-atari [--only SLUGS]`: the search oracle's play from every
/// Atari start of the vical suite (or of the games named, the committed recording
/// keeping the rest), two starts at a time.
fn record_atari(only: &[String]) -> Result<String, CliError> {
    use bench::suites::vical::atari;
    let failed = |error| CliError::SuiteBuild {
        id: bench::suites::vical::SUITE_ID.to_string(),
        error,
    };
    let recipes = atari::recipes();
    let keys = atari::recording_keys(&recipes);
    // A recording key is `<game>-<start>`: `--only` names either.
    let picks =
        |o: &str, key: &str| o == key || key.rsplit_once('-').is_some_and(|(game, _)| game == o);
    let chosen = |key: &str| only.is_empty() || only.iter().any(|o| picks(o, key));
    if let Some(unknown) = only.iter().find(|o| !keys.iter().any(|k| picks(o, k))) {
        let games: Vec<&str> = recipes.iter().map(|r| r.slug).collect();
        return Err(CliError::Usage(format!(
            "--only: no Atari game or start {unknown:?} in the vical suite (its games: {}; \
             its starts: {})",
            games.join(", "),
            keys.join(", ")
        )));
    }
    let total = keys.iter().filter(|k| chosen(k)).count();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let progress = |key: &str| {
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        eprintln!("playbench: recorded {key} ({n} of {total})");
    };
    let fresh = atari::record(&recipes, &chosen, 2, &progress).map_err(failed)?;
    if only.is_empty() {
        return Ok(fresh.to_json());
    }
    let mut kept = atari::committed_recording().map_err(failed)?;
    kept.plays.extend(fresh.plays);
    Ok(kept.to_json())
}

/// The latest version of suite `id` and its build from the recipes.
fn fresh_build(id: &str) -> Result<(u32, Suite), CliError> {
    let entry = bench::suites::latest_entry(id).ok_or_else(|| {
        CliError::Suite(bench::suites::SuiteError::Unknown { id: id.to_string() })
    })?;
    let build = entry.build.ok_or_else(|| CliError::SuiteBuild {
        id: id.to_string(),
        error: bench::TaskError {
            field: "recipes".into(),
            message: "the latest version has none".into(),
        },
    })?;
    let built = build().map_err(|error| CliError::SuiteBuild {
        id: id.to_string(),
        error,
    })?;
    Ok((entry.version, built))
}

/// `playbench suite --check`: every suite's committed latest version equals its fresh
/// build, and every committed baseline (of every version, frozen ones included) is what
/// its agent plays on that version now. The suites are checked at once, each on its own
/// thread (a fresh build is minutes of single-threaded calibration for the largest);
/// the report and the first error follow the order of `bench::suites::ids()`.
fn check_suites() -> Result<String, CliError> {
    let ids = bench::suites::ids();
    let checked: Vec<Result<String, CliError>> = std::thread::scope(|s| {
        let running: Vec<_> = ids
            .iter()
            .map(|&id| s.spawn(move || check_suite(id)))
            .collect();
        // A panic stays a panic, as it was on one thread.
        running
            .into_iter()
            .map(|thread| {
                thread
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e))
            })
            .collect()
    });
    checked.into_iter().collect()
}

/// One suite of [`check_suites`]: its lines of the report.
fn check_suite(id: &str) -> Result<String, CliError> {
    let mut out = String::new();
    let (version, built) = fresh_build(id)?;
    let committed = bench::suites::get(id, version)?;
    if *committed != built {
        return Err(CliError::SuiteStale {
            id: id.to_string(),
            version,
        });
    }
    let baselines = if check_baselines(id, version)? {
        ", its random and oracle baselines current"
    } else {
        ""
    };
    out.push_str(&format!(
        "{id} v{version} is up to date ({} tasks{baselines})\n",
        built.tasks.len()
    ));
    for older in bench::suites::versions(id)
        .into_iter()
        .filter(|&v| v != version)
    {
        if check_baselines(id, older)? {
            out.push_str(&format!(
                "{id} v{older} (frozen): its random and oracle baselines current\n"
            ));
        }
    }
    Ok(out)
}

/// Replays the committed baselines of a suite version; false when it has none.
fn check_baselines(id: &str, version: u32) -> Result<bool, CliError> {
    let (random, oracle) = match bench::suites::baselines(id, version) {
        Some(Ok(reports)) => reports,
        Some(Err(message)) => return Err(CliError::Usage(message)),
        None => return Ok(false),
    };
    let suite = bench::suites::get(id, version)?;
    for (player, report) in [
        (Player::Random { seed: 0 }, random),
        (Player::Oracle, oracle),
    ] {
        if baseline_report(suite, &player)? != report {
            return Err(CliError::BaselineStale {
                id: id.to_string(),
                version,
                agent: player.name(),
            });
        }
    }
    Ok(true)
}

/// What `playbench baseline --report` prints for `player` on `suite` (one episode per
/// task).
fn baseline_report(suite: &Suite, player: &Player) -> Result<bench::report::Report, CliError> {
    let tasks: Vec<&Task> = suite.tasks.iter().collect();
    let concurrency = std::thread::available_parallelism().map_or(1, |n| n.get());
    let results = play_all(
        &tasks,
        player,
        1,
        false,
        concurrency,
        false,
        Checkpoints::default(),
    )?;
    let name = player.name();
    Ok(ResultsFile::new(&name, player.results_kind(), &name, suite, None, results).report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn run(args: &[&str]) -> Result<Output, CliError> {
        let cli = Cli::try_parse_from(std::iter::once("playbench").chain(args.iter().copied()))?;
        dispatch(&cli)
    }

    #[test]
    fn unknown_suites_and_tasks_are_input_errors() {
        let e = run(&["tasks", "--suite-id", "nope"]).unwrap_err();
        assert!(e.to_string().contains("unknown suite \"nope\""), "{e}");
        assert_eq!(e.exit_code(), 2);
        let e = run(&["run", "--task", "nope", "--agent", "oracle"]).unwrap_err();
        assert!(e.to_string().contains("no task \"nope\""), "{e}");
        let e = run(&["run", "--suite", "--filter", "zzz", "--agent", "oracle"]).unwrap_err();
        assert_eq!(e.to_string(), "no task id contains \"zzz\"");
    }

    #[test]
    fn a_suite_run_of_the_oracle_passes_everything_it_selects() {
        let out = run(&[
            "run",
            "--suite",
            "--filter",
            "frozenlake-4x4-det",
            "--agent",
            "oracle",
            "--json",
        ])
        .unwrap();
        assert!(out.failure.is_none());
        let file = ResultsFile::from_json(&out.text).unwrap();
        assert!(file.episodes.len() >= 2);
        assert!(file.episodes.iter().all(|e| e.record.passed));
        assert!(file.usage.is_none(), "built-in agents spend nothing");
        let config = file.config.unwrap();
        assert_eq!(config["agent"], "oracle");
        assert_eq!(config["concurrency"], "4");
    }
}
