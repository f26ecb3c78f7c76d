//! Share links (`e=pb1.…`), study links (`s=ps1.…`) and attempts links, read by
//! `bench::link_codec` and each document's `from_link_fragment`; plus links whose
//! deflate stream expands far beyond any document (the codec must stop at its cap).

use bench::attempts::AttemptRun;
use bench::link_codec::{self, LinkKind};
use bench::share::{EpisodeFile, EPISODE_LINK};
use bench::study::{Study, STUDY_LINK};

use super::{seeds, Entry};

/// A link of `kind` whose payload inflates to `size` bytes of one letter: about a
/// thousandth of that on the wire.
pub fn deflate_bomb(kind: &LinkKind, size: usize) -> String {
    link_codec::encode(&"a".repeat(size), kind)
}

pub fn entries() -> Vec<Entry> {
    let mut episode = seeds::episode_links();
    episode.push(deflate_bomb(&EPISODE_LINK, 64 << 20));
    let mut study: Vec<String> = seeds::studies()
        .iter()
        .map(Study::to_link_fragment)
        .collect();
    study.push(deflate_bomb(&STUDY_LINK, 64 << 20));
    let attempts = seeds::attempts()
        .iter()
        .filter_map(|a| a.to_link_fragment().ok())
        .collect();
    vec![
        Entry {
            name: "episode-link",
            seeds: episode,
            run: Box::new(|text| {
                let _ = EpisodeFile::from_link_fragment(text);
            }),
        },
        Entry {
            name: "study-link",
            seeds: study,
            run: Box::new(|text| {
                let _ = Study::from_link_fragment(text);
            }),
        },
        Entry {
            name: "attempts-link",
            seeds: attempts,
            run: Box::new(|text| {
                let _ = AttemptRun::from_link_fragment(text);
            }),
        },
    ]
}
