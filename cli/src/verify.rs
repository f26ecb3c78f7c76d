//! `playbench verify FILE_OR_LINK`: re-simulates an episode file or share link and
//! prints `verified` or the first divergence.

use std::path::Path;

use bench::link_codec::PayloadError as P;
use bench::share::{verify, EpisodeFile, Verification, ENVS_VERSION};

use crate::commands::Args;

/// Errors starting with this are divergences: `playbench` prints them and exits 1.
pub const DIVERGED: &str = "diverged ";

/// Reads a file (JSON, or a link saved as text) or a link given inline.
pub fn load(input: &str) -> Result<EpisodeFile, String> {
    let path = Path::new(input);
    if path.is_file() {
        let text = std::fs::read_to_string(path).map_err(|e| format!("reading {input}: {e}"))?;
        let parsed = if text.trim_start().starts_with('{') {
            EpisodeFile::from_json(&text)
        } else {
            EpisodeFile::from_link_fragment(&text)
        };
        return parsed.map_err(|e| format!("{input}: {e}"));
    }
    EpisodeFile::from_link_fragment(input).map_err(|e| match e {
        bench::share::ShareError::Link(P::NotALink) => {
            format!("{input:?} is neither a file nor a Playbench episode link")
        }
        e => e.to_string(),
    })
}

pub fn command(args: &Args) -> Result<String, String> {
    // The positional after the subcommand.
    let input = args
        .value("verify")
        .ok_or("usage: playbench verify FILE_OR_LINK")?;
    let file = load(input)?;
    let note = if file.envs_version == ENVS_VERSION {
        String::new()
    } else {
        format!(
            " (recorded with envs {}, re-simulated with {ENVS_VERSION})",
            file.envs_version
        )
    };
    match verify(&file).map_err(|e| e.to_string())? {
        Verification::Verified { passed, score } => {
            Ok(format!("verified: passed={passed}, score={score}{note}\n"))
        }
        Verification::Diverged(d) => Err(format!("{d}{note}")),
    }
}
