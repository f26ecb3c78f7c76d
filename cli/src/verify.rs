//! `playbench verify FILE_OR_LINK`: re-simulates an episode file or share link and
//! prints `verified` or the first divergence.

use std::path::Path;

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

/// `verified: …` when the episode re-simulates as recorded; the first divergence as a
/// [`CliError::Diverged`] otherwise.
pub fn command(input: &str) -> Result<String, CliError> {
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
