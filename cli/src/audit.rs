//! `playbench audit`: the trajectory auditor (`docs/audit.md`) over results files, with
//! `bench::audit::run::AuditRun` — the state machine the browser drives — in a blocking
//! loop. This file adds the files, the HTTP and the progress on stderr.

use bench::audit::file::{AuditFile, AuditedEpisode};
use bench::audit::report::{audit_report, format_audit_table};
use bench::audit::run::AuditRun;
use bench::results::ResultsFile;

use crate::args::AuditArgs;
use crate::commands::{write_file, Output};
use crate::endpoint::{converse, EndpointConfig};
use crate::error::CliError;

/// A file given on the command line.
enum Input {
    Results(Box<ResultsFile>),
    Audit(Box<AuditFile>),
}

fn read(path: &str) -> Result<Input, CliError> {
    let text = std::fs::read_to_string(path).map_err(|error| CliError::ReadInput {
        input: path.to_string(),
        error,
    })?;
    let bad = |message: String| CliError::Audit {
        input: path.to_string(),
        message,
    };
    let format = serde_json::from_str::<serde_json::Value>(&text)
        .map_err(|e| bad(format!("not JSON: {e}")))?
        .get("format")
        .and_then(|f| f.as_str().map(str::to_string));
    match format.as_deref() {
        Some(bench::results::RESULTS_FORMAT) => ResultsFile::from_json(&text)
            .map(|r| Input::Results(Box::new(r)))
            .map_err(|error| CliError::Share {
                input: Some(path.to_string()),
                error,
            }),
        Some(bench::audit::file::AUDIT_FORMAT) => AuditFile::from_json(&text)
            .map(|a| Input::Audit(Box::new(a)))
            .map_err(|e| bad(format!("bad audit file: {e}"))),
        other => Err(bad(format!(
            "expected a results file ({}) or an audit file ({}), got format {other:?}",
            bench::results::RESULTS_FORMAT,
            bench::audit::file::AUDIT_FORMAT
        ))),
    }
}

/// One line per settled episode.
fn describe(e: &AuditedEpisode, total: usize) -> String {
    let transfer = match (
        &e.information_transfer.verdict,
        &e.information_transfer.error,
    ) {
        (Some(v), _) => format!(
            "rules {}, strategy {}",
            v.rule_transfer.label, v.strategy_transfer.label
        ),
        (None, Some(err)) => format!("no transfer verdict ({err})"),
        (None, None) => "no transfer verdict".into(),
    };
    let stage = match (&e.failure_attribution.verdict, &e.failure_attribution.error) {
        (Some(v), _) => format!("failure stage {}", v.player_failure_stage.label),
        (None, Some(err)) => format!("no failure stage ({err})"),
        (None, None) => "no failure stage".into(),
    };
    format!(
        "playbench: audit {}/{total} ({}): {transfer}; {stage}",
        e.index + 1,
        e.task
    )
}

/// Audits one results file: requests until done, progress per episode on stderr.
fn audit(run: &mut AuditRun, config: &EndpointConfig) {
    let mut reported = 0;
    converse(run, config, "auditor", |run| {
        let settled = run.file().episodes.iter().filter(|e| e.is_settled());
        for e in settled.skip(reported) {
            eprintln!("{}", describe(e, run.total()));
            reported += 1;
        }
    });
}

/// `playbench audit FILE… --provider … [--report] [--out FILE]`.
pub fn command(args: &AuditArgs) -> Result<Output, CliError> {
    let mut results = Vec::new();
    let mut audits = Vec::new();
    for path in &args.files {
        match read(path)? {
            Input::Results(r) => results.push((path.clone(), *r)),
            Input::Audit(a) => audits.push(*a),
        }
    }
    if results.len() > 1 && (!args.report || args.out.is_some()) {
        return Err(CliError::Usage(
            "give one results file at a time (or several with --report and without --out)".into(),
        ));
    }
    let config = if results.is_empty() {
        None
    } else {
        Some(EndpointConfig::from_args(&args.endpoint, &args.image)?)
    };
    let mut made = Vec::new();
    for (path, file) in results {
        let Some(config) = &config else { break };
        let mut run =
            AuditRun::new(file, config.endpoint.clone()).map_err(|message| CliError::Audit {
                input: path.clone(),
                message,
            })?;
        // An audit of this very results file is resumed; the others lend references.
        if let Some(i) = audits.iter().position(|a| run.resume(a.clone()).is_ok()) {
            audits.remove(i);
            eprintln!("playbench: resuming the audit of {path}");
        }
        for a in &audits {
            run.reuse_references(a);
        }
        eprintln!(
            "playbench: auditing {} episodes of {path} with {}",
            run.total(),
            run.file().auditor
        );
        audit(&mut run, config);
        eprintln!("playbench: auditor usage: {}", run.usage().summary());
        made.push(run.file().clone());
    }
    if let (Some(out), Some(file)) = (&args.out, made.first()) {
        write_file(out, &file.to_json())?;
    }
    let verdicts = made.iter().map(|f| f.episodes.len() * 2).sum();
    let missing = made
        .iter()
        .flat_map(|f| &f.episodes)
        .map(|e| {
            usize::from(e.information_transfer.verdict.is_none())
                + usize::from(e.failure_attribution.verdict.is_none())
        })
        .sum();
    let text = if args.report {
        let episodes: Vec<AuditedEpisode> = made
            .iter()
            .chain(&audits)
            .flat_map(|f| f.episodes.iter().cloned())
            .collect();
        format_audit_table(&audit_report(&episodes))
    } else {
        match made.first() {
            Some(f) => f.to_json(),
            None => {
                return Err(CliError::Usage(
                    "nothing to audit: give a results file (or audit files with --report)".into(),
                ))
            }
        }
    };
    Ok(Output {
        text,
        failure: (missing > 0).then_some(CliError::AuditIncomplete { missing, verdicts }),
    })
}
