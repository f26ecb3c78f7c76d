//! `playbench judge`: GameVerse's milestone judge (`docs/judge.md`) over a results file
//! or episode files and links, with `bench::judge::run::JudgeRun` — the state machine
//! the browser drives — in the blocking request loop. This file adds the files, the
//! progress on stderr and the report.

use bench::judge::file::{JudgeFile, JudgedEpisode, JUDGE_FORMAT};
use bench::judge::report::{format_judge_table, judge_report};
use bench::judge::run::{JudgeRun, JudgeSource};
use bench::results::{ResultsFile, RESULTS_FORMAT};
use bench::share::{EpisodeFile, EPISODE_FILE_FORMAT as EPISODE_FORMAT};

use crate::args::JudgeArgs;
use crate::commands::Output;
use crate::endpoint::{converse, EndpointConfig};
use crate::error::CliError;

/// An input on the command line.
enum Input {
    Results(Box<ResultsFile>),
    Episode(Box<EpisodeFile>),
    Judge(Box<JudgeFile>),
}

fn read(input: &str) -> Result<Input, CliError> {
    let bad = |message: String| CliError::Judge {
        input: input.to_string(),
        message,
    };
    let path = std::path::Path::new(input);
    let text = if path.is_file() {
        std::fs::read_to_string(path).map_err(|error| CliError::ReadInput {
            input: input.to_string(),
            error,
        })?
    } else {
        String::new()
    };
    if !text.trim_start().starts_with('{') {
        // A link saved as text, or given inline.
        return crate::verify::load(input).map(|f| Input::Episode(Box::new(f)));
    }
    let format = serde_json::from_str::<serde_json::Value>(&text)
        .map_err(|e| bad(format!("not JSON: {e}")))?
        .get("format")
        .and_then(|f| f.as_str().map(str::to_string));
    let share = |error| CliError::Share {
        input: Some(input.to_string()),
        error,
    };
    match format.as_deref() {
        Some(RESULTS_FORMAT) => ResultsFile::from_json(&text)
            .map(|r| Input::Results(Box::new(r)))
            .map_err(share),
        Some(EPISODE_FORMAT) => EpisodeFile::from_json(&text)
            .map(|f| Input::Episode(Box::new(f)))
            .map_err(share),
        Some(JUDGE_FORMAT) => JudgeFile::from_json(&text)
            .map(|j| Input::Judge(Box::new(j)))
            .map_err(|e| bad(format!("bad judge file: {e}"))),
        other => Err(bad(format!(
            "expected a results file ({RESULTS_FORMAT}), an episode file ({EPISODE_FORMAT}) or a judge file ({JUDGE_FORMAT}), got format {other:?}"
        ))),
    }
}

fn count(
    m: &JudgedEpisode,
    answer: impl Fn(&bench::judge::file::MilestoneCheck) -> Option<bool>,
) -> String {
    let done = m
        .milestones
        .iter()
        .filter(|c| answer(c) == Some(true))
        .count();
    format!("{done}/{}", m.milestones.len())
}

/// One line per settled episode.
fn describe(e: &JudgedEpisode, total: usize) -> String {
    let what = match (&e.error, e.flagged) {
        (Some(err), _) => format!("no judgment ({err})"),
        (None, true) => format!(
            "flagged, scored 0 ({} unparsable replies; the last: {})",
            e.problems.len(),
            e.problems.last().map_or("", String::as_str)
        ),
        (None, false) => {
            let a = e.agreement();
            let mut s = format!(
                "judge {} completed, exact {} ({} of {} frames)",
                count(e, |c| c.judge),
                count(e, |c| c.exact),
                e.frames_sent,
                e.frames_total
            );
            if a.false_completions + a.missed_completions > 0 {
                s.push_str(&format!(
                    "; {} false, {} missed",
                    a.false_completions, a.missed_completions
                ));
            }
            s
        }
    };
    format!(
        "playbench: judge {}/{total} ({}): {what}",
        e.index + 1,
        e.task
    )
}

/// Judges one source: requests until done, progress per episode on stderr.
fn judge(run: &mut JudgeRun, config: &EndpointConfig) {
    let mut reported: Vec<usize> = Vec::new();
    converse(run, config, "judge", |run| {
        for e in run.file().episodes.iter().filter(|e| e.is_settled()) {
            if !reported.contains(&e.index) {
                eprintln!("{}", describe(e, run.total()));
                reported.push(e.index);
            }
        }
    });
}

/// `playbench judge FILE_OR_LINK… --provider … [--max-images N] [--report] [--out FILE]`.
pub fn command(args: &JudgeArgs) -> Result<Output, CliError> {
    let mut results = Vec::new();
    let mut episodes = Vec::new();
    let mut judged = Vec::new();
    for input in &args.inputs {
        match read(input)? {
            Input::Results(r) => results.push((input.clone(), *r)),
            Input::Episode(f) => episodes.push(*f),
            Input::Judge(j) => judged.push(*j),
        }
    }
    let mut sources = Vec::new();
    for (path, r) in &results {
        let source = JudgeSource::from_results(r).map_err(|message| CliError::Judge {
            input: path.clone(),
            message,
        })?;
        sources.push((path.clone(), source));
    }
    if !episodes.is_empty() {
        let source =
            JudgeSource::from_episode_files(&episodes).map_err(|message| CliError::Judge {
                input: "the episode files".into(),
                message,
            })?;
        sources.push((format!("{} episode files", episodes.len()), source));
    }
    if sources.len() > 1 && (!args.report || args.out.is_some()) {
        return Err(CliError::Usage(
            "give one results file (or episode files) at a time, or several with --report and without --out".into(),
        ));
    }
    let config = if sources.is_empty() {
        None
    } else {
        Some(EndpointConfig::from_args(&args.endpoint, &args.image)?)
    };
    let mut made = Vec::new();
    for (what, source) in sources {
        let Some(config) = &config else { break };
        let mut run = JudgeRun::new(source, config.endpoint.clone(), args.max_images);
        // A judging of these very episodes is resumed.
        if let Some(i) = judged.iter().position(|j| run.resume(j.clone()).is_ok()) {
            judged.remove(i);
            eprintln!("playbench: resuming the judging of {what}");
        }
        eprintln!(
            "playbench: judging {} episodes of {what} with {} (at most {} images a request)",
            run.total(),
            run.file().judge,
            run.file().max_images
        );
        judge(&mut run, config);
        let u = run.usage();
        eprintln!(
            "playbench: judge usage: {} requests, {} input tokens, {} output tokens",
            u.requests, u.input_tokens, u.output_tokens
        );
        made.push(run.file().clone());
    }
    if let (Some(out), Some(file)) = (&args.out, made.first()) {
        std::fs::write(out, file.to_json()).map_err(|error| CliError::Io {
            what: format!("writing {out}"),
            error,
        })?;
    }
    let unjudged = made
        .iter()
        .flat_map(|f| &f.episodes)
        .filter(|e| e.flagged || e.error.is_some())
        .count();
    let total = made.iter().map(|f| f.episodes.len()).sum();
    let text = if args.report {
        let all: Vec<&JudgeFile> = made.iter().chain(&judged).collect();
        let mut s = String::new();
        for f in &all {
            s.push_str(&format_judge_table(&f.judge, &judge_report(&f.episodes)));
        }
        s
    } else {
        match made.first() {
            Some(f) => f.to_json(),
            None => {
                return Err(CliError::Usage(
                    "nothing to judge: give a results file, episode files or links (or judge files with --report)".into(),
                ))
            }
        }
    };
    Ok(Output {
        text,
        failure: (unjudged > 0).then_some(CliError::JudgeIncomplete {
            unjudged,
            episodes: total,
        }),
    })
}
