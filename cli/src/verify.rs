//! `playbench verify FILE_OR_LINK`: re-simulates an episode file or share link (or a
//! run of attempts, `a=` links) and prints `verified` or the first divergence.

use std::path::Path;

use bench::attempts::{
    verify_attempts, AttemptRun, AttemptsVerification, ATTEMPTS_FORMAT, ATTEMPTS_LINK,
};
use bench::link_codec::PayloadError;
use bench::share::{verify, EpisodeFile, ShareError, Verification, ENVS_VERSION};

use crate::error::CliError;

/// Reads a file (JSON, or a link saved as text) or a link given inline.
pub fn load(input: &str) -> Result<EpisodeFile, CliError> {
    let path = Path::new(input);
    if path.is_file() {
        let text = std::fs::read_to_string(path).map_err(|error| CliError::ReadInput {
            input: input.to_string(),
            error,
        })?;
        let parsed = if text.trim_start().starts_with('{') {
            EpisodeFile::from_json(&text)
        } else {
            EpisodeFile::from_link_fragment(&text)
        };
        return parsed.map_err(|error| CliError::Share {
            input: Some(input.to_string()),
            error,
        });
    }
    EpisodeFile::from_link_fragment(input).map_err(|error| match error {
        ShareError::Link(PayloadError::NotALink) => CliError::NotAnEpisode {
            input: input.to_string(),
        },
        error => error.into(),
    })
}

/// A run of attempts, when `input` is one (its file, or its link inline or saved).
fn load_attempts(input: &str) -> Option<Result<AttemptRun, CliError>> {
    let path = Path::new(input);
    let text = if path.is_file() {
        match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(error) => {
                return Some(Err(CliError::ReadInput {
                    input: input.to_string(),
                    error,
                }))
            }
        }
    } else {
        input.to_string()
    };
    let text = text.trim();
    let parsed = if text.contains(&format!("{}{}", ATTEMPTS_LINK.param, ATTEMPTS_LINK.tag)) {
        AttemptRun::from_link_fragment(text)
    } else if text.starts_with('{') && text.contains(ATTEMPTS_FORMAT) {
        AttemptRun::from_json(text)
    } else {
        return None;
    };
    Some(parsed.map_err(|error| CliError::Share {
        input: Some(input.to_string()),
        error,
    }))
}

/// `verified: …` per attempt, or the first divergence.
fn command_attempts(run: &AttemptRun) -> Result<String, CliError> {
    match verify_attempts(run)? {
        AttemptsVerification::Verified { scores, passed } => {
            let per: Vec<String> = scores
                .iter()
                .zip(&passed)
                .map(|(s, p)| format!("score={s}, passed={p}"))
                .collect();
            Ok(format!(
                "verified: {} attempts ({}), each carried in what the reflection before it wrote\n",
                per.len(),
                per.join("; ")
            ))
        }
        AttemptsVerification::Diverged {
            attempt,
            divergence,
        } => Err(CliError::Diverged(format!(
            "attempt {attempt}: {divergence}"
        ))),
    }
}

/// `verified: …` when the episode re-simulates as recorded; the first divergence as a
/// [`CliError::Diverged`] otherwise.
pub fn command(input: &str) -> Result<String, CliError> {
    if let Some(run) = load_attempts(input) {
        return command_attempts(&run?);
    }
    let file = load(input)?;
    let note = if file.envs_version == ENVS_VERSION {
        String::new()
    } else {
        format!(
            " (recorded with envs {}, re-simulated with {ENVS_VERSION})",
            file.envs_version
        )
    };
    match verify(&file)? {
        Verification::Verified { passed, score } => {
            Ok(format!("verified: passed={passed}, score={score}{note}\n"))
        }
        Verification::Diverged(d) => Err(CliError::Diverged(format!("{d}{note}"))),
    }
}
