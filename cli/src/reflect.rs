//! `playbench reflect`: GameVerse's reflect-and-retry (`docs/gameverse.md`, "Reflect and
//! retry") with `bench::reflect::ReflectRun` — the state machine the browser drives —
//! in a blocking loop. This file adds the files, the HTTP and the progress on stderr.

use bench::reflect::run::{game_name, Phase};
use bench::reflect::{Condition, ReflectConfig, ReflectRun};
use bench::share::TaskRef;

use crate::args::ReflectArgs;
use crate::commands::{write_file, Output};
use crate::endpoint::{converse, EndpointConfig};
use crate::error::CliError;

/// The experience `--import` names: a file's text, or the argument itself (a link).
fn imported(input: &str) -> Result<(String, String), CliError> {
    let path = std::path::Path::new(input);
    let text = if path.is_file() {
        std::fs::read_to_string(path).map_err(|error| CliError::ReadInput {
            input: input.to_string(),
            error,
        })?
    } else {
        input.to_string()
    };
    bench::reflect::import::experience_from(&text)
        .map_err(|message| CliError::Usage(format!("--import {input}: {message}")))
}

/// One line per phase, as the run moves on.
fn describe(run: &ReflectRun) -> String {
    let doc = run.run();
    let last = doc.attempts.last().map(|a| {
        format!(
            "attempt {} scored {:.1}{}",
            doc.attempts.len(),
            a.record.score,
            if a.record.passed { " (passed)" } else { "" }
        )
    });
    let now = match run.phase() {
        Phase::Playing { attempt } => format!("playing attempt {attempt}"),
        Phase::Reflecting { attempt, stage } => {
            format!(
                "reflecting on attempt {attempt} ({})",
                stage.replace('_', " ")
            )
        }
        Phase::Done => "done".into(),
    };
    match last {
        Some(l) => format!("playbench: reflect: {l}; {now}"),
        None => format!("playbench: reflect: {now}"),
    }
}

/// `playbench reflect --task ID --condition … --provider … [--link] [--out FILE]`.
pub fn command(args: &ReflectArgs) -> Result<Output, CliError> {
    let suite = bench::suites::latest(&args.suite_id)?;
    let task = suite
        .task(&args.task)
        .ok_or_else(|| CliError::UnknownTask {
            suite: suite.id.clone(),
            task: args.task.clone(),
        })?;
    let imported = match (&args.import, args.condition) {
        (Some(input), Condition::Other) => Some(imported(input)?),
        (None, Condition::Other) => {
            return Err(CliError::Usage(
                "--condition other needs --import FILE_OR_LINK (another model's experience)".into(),
            ))
        }
        (Some(_), _) => return Err(CliError::Usage("--import is for --condition other".into())),
        (None, _) => None,
    };
    let config = EndpointConfig::from_args(&args.endpoint, &args.image)?;
    let start_error = |message: String| CliError::ModelEpisode {
        task: task.id.clone(),
        message,
    };
    let game = game_name(task).map_err(start_error)?;
    let mut run = ReflectRun::new(
        task,
        TaskRef::in_suite(suite, &task.id),
        config.endpoint.clone(),
        config.session,
        config.prices,
        ReflectConfig {
            condition: args.condition,
            attempts: args.attempts,
            max_words: args.max_words,
            image_budget: args.max_images,
            imported,
        },
        &game,
    )
    .map_err(start_error)?;
    let mut said = String::new();
    converse(&mut run, &config, "endpoint", |run| {
        let line = describe(run);
        if line != said {
            eprintln!("{line}");
            said = line;
        }
    });
    let doc = run.run();
    if doc.attempts.len() < args.attempts as usize {
        if let Some(e) = run.last_error() {
            eprintln!("playbench: endpoint: {}", e.message);
        }
    }
    let json = doc.to_json();
    if let Some(path) = &args.out {
        write_file(path, &json)?;
    }
    let text = if args.link {
        format!("{}\n", doc.to_link_fragment()?)
    } else {
        format!("{json}\n")
    };
    let records: Vec<&bench::EpisodeRecord> = doc.attempts.iter().map(|a| &a.record).collect();
    Ok(Output::checked(text, &records))
}
