//! Sharing an episode: as a link when it fits, else as a file, and the links the viewer
//! makes (side by side, forks).
//!
//! URL formats:
//! - `/episode#e=pb1.…` one episode; `&e2=pb1.…` a second one side by side; `&t=N` the
//!   decision shown first; `/episode?stored=KEY` an episode in `localStorage` (see
//!   [`super::source`]).
//! - `/task/play?fork=T#e=pb1.…` (or `?fork=T&stored=KEY`): play on as a person from
//!   decision `T` of the episode; `/run?fork=T#e=pb1.…` the same with a model.

use bench::share::{crc32, EpisodeFile, LINK_PARAM};

use super::source::{AT_PARAM, COMPARE_PARAM};
use crate::routes::{EPISODE as EPISODE_PATH, RUN, TASK_PLAY};
use crate::url::encode_component;

/// How an episode can be shared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShareTarget {
    /// An absolute viewer link holding the whole episode.
    Link(String),
    /// The episode file to download instead, and why there is no link.
    File { json: String, why: String },
}

/// A viewer link for `file` on the site at `origin` (e.g. `https://host`), or its file
/// when the episode is too large for a link.
pub fn share_target(file: &EpisodeFile, origin: &str) -> ShareTarget {
    match file.to_link_fragment() {
        Ok(fragment) => ShareTarget::Link(format!(
            "{}{}",
            origin.trim_end_matches('/'),
            episode_href(&fragment)
        )),
        Err(e) => ShareTarget::File {
            json: file.to_json(),
            why: e.to_string(),
        },
    }
}

/// `/episode#e=pb1.…` from a link fragment (`e=pb1.…`).
pub fn episode_href(fragment: &str) -> String {
    format!("{EPISODE_PATH}#{fragment}")
}

/// `/episode#e=pb1.…&t=N`: the viewer opened at decision `at`.
pub fn episode_at_href(fragment: &str, at: usize) -> String {
    format!("{EPISODE_PATH}#{fragment}&{AT_PARAM}{at}")
}

/// `/episode#e=pb1.A&e2=pb1.B` from two link fragments.
pub fn compare_href(left: &str, right: &str) -> String {
    let right = right.strip_prefix(LINK_PARAM).unwrap_or(right);
    format!("{EPISODE_PATH}#{left}&{COMPARE_PARAM}{right}")
}

/// Who continues a forked episode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForkWith {
    Human,
    Model,
}

impl ForkWith {
    fn path(self) -> &'static str {
        match self {
            Self::Human => TASK_PLAY,
            Self::Model => RUN,
        }
    }
}

/// The episode a fork link carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ForkSource<'a> {
    /// A link fragment (`e=pb1.…`).
    Link(&'a str),
    /// A stored-episode key (`localStorage`, see [`super::source`]).
    Stored(&'a str),
}

/// `/task/play?fork=T#e=pb1.…`, `/run?fork=T&stored=KEY`, …
pub fn fork_href(with: ForkWith, step: usize, source: ForkSource<'_>) -> String {
    let path = with.path();
    match source {
        ForkSource::Link(fragment) => format!("{path}?fork={step}#{fragment}"),
        ForkSource::Stored(key) => {
            format!("{path}?fork={step}&stored={}", encode_component(key))
        }
    }
}

/// A stored-episode key for an episode file's JSON (the same episode, the same key).
pub fn stored_key_for(json: &str) -> String {
    format!("ep-{:08x}", crc32(json.as_bytes()))
}

/// `TASK-AGENT-episode-file.json`, safe as a file name.
pub fn episode_file_name(file: &EpisodeFile) -> String {
    let safe = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    format!(
        "{}-{}-episode-file.json",
        safe(&file.record.task),
        safe(&file.agent)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::source::{parse_viewer_fragment, valid_stored_key};
    use crate::replay::tests::{lake_file, LAKE_WIN};

    #[test]
    fn a_short_episode_is_shared_as_a_link() {
        let file = lake_file(&LAKE_WIN);
        let ShareTarget::Link(link) = share_target(&file, "http://127.0.0.1:8080/") else {
            panic!("expected a link");
        };
        assert!(
            link.starts_with("http://127.0.0.1:8080/episode#e=pb1."),
            "{link}"
        );
        assert_eq!(EpisodeFile::from_link_fragment(&link).unwrap(), file);
    }

    #[test]
    fn a_long_episode_is_shared_as_a_file() {
        let mut file = lake_file(&LAKE_WIN);
        // Incompressible replies push the link past its limit.
        let mut x = 7u64;
        let noise: String = (0..30_000)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                char::from(b'a' + (x >> 59) as u8)
            })
            .collect();
        file.record.decisions[0].raw = Some(noise);
        match share_target(&file, "https://pb.example") {
            ShareTarget::File { json, why } => {
                assert_eq!(EpisodeFile::from_json(&json).unwrap(), file);
                assert!(why.contains("too large for a link"), "{why}");
            }
            ShareTarget::Link(l) => panic!("a {}-character link", l.len()),
        }
    }

    #[test]
    fn viewer_and_fork_links() {
        let a = lake_file(&LAKE_WIN).to_link_fragment().unwrap();
        let b = lake_file(&["Down"]).to_link_fragment().unwrap();
        assert_eq!(episode_href(&a), format!("/episode#{a}"));
        let both = compare_href(&a, &b);
        let parsed = parse_viewer_fragment(both.split_once('#').unwrap().1);
        assert_eq!(format!("e={}", parsed.primary.unwrap()), a);
        assert_eq!(format!("e={}", parsed.compare.unwrap()), b);
        let at = episode_at_href(&a, 4);
        assert_eq!(
            parse_viewer_fragment(at.split_once('#').unwrap().1).at,
            Some(4)
        );

        assert_eq!(
            fork_href(ForkWith::Human, 2, ForkSource::Link(&a)),
            format!("/task/play?fork=2#{a}")
        );
        assert_eq!(
            fork_href(ForkWith::Model, 0, ForkSource::Link(&a)),
            format!("/run?fork=0#{a}")
        );
        let json = lake_file(&LAKE_WIN).to_json();
        let key = stored_key_for(&json);
        assert!(valid_stored_key(&key), "{key}");
        assert_eq!(key, stored_key_for(&json));
        assert_eq!(
            fork_href(ForkWith::Human, 3, ForkSource::Stored(&key)),
            format!("/task/play?fork=3&stored={key}")
        );
        let mut file = lake_file(&["Down"]);
        file.agent = "endpoint:gpt/4 o".into();
        assert_eq!(
            episode_file_name(&file),
            "frozenlake-4x4-det-s0-endpoint_gpt_4_o-episode-file.json"
        );
    }
}
