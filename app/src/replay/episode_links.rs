//! Links from a number to the replays of its episodes, in the replay viewer's
//! contract: `/episode#e=pb1.…` when the episode fits in a link, else the episode
//! file's JSON stored under `storage_keys::stored_episode(KEY)` and the link
//! `/episode?stored=KEY`.

use bench::results::ResultsFile;
use bench::share::{EpisodeFile, ShareError};

use crate::replay::share::{episode_href, stored_key_for};
use crate::routes::EPISODE as EPISODE_PATH;
use crate::storage::{Store, StoreError};
use crate::storage_keys::stored_episode;

#[derive(Clone, Debug, PartialEq)]
pub enum EpisodeLink {
    /// Self-contained: the episode is in the fragment.
    Fragment { href: String },
    /// Too large for a link: `json` must be written to `storage_key` before `href`
    /// is followed (same origin).
    Stored {
        href: String,
        storage_key: String,
        json: String,
    },
}

impl EpisodeLink {
    pub fn href(&self) -> &str {
        match self {
            Self::Fragment { href } | Self::Stored { href, .. } => href,
        }
    }

    /// Makes the link followable: writes a stored episode first; gives the href.
    pub fn prepare(&self, store: &dyn Store) -> Result<&str, StoreError> {
        if let Self::Stored {
            storage_key, json, ..
        } = self
        {
            store.set(storage_key, json)?;
        }
        Ok(self.href())
    }
}

/// The link to an episode file; the stored key is derived from the content (the same
/// episode always gets the same key, different ones practically never share one).
pub fn link_for(file: &EpisodeFile) -> Result<EpisodeLink, ShareError> {
    match file.to_link_fragment() {
        Ok(fragment) => Ok(EpisodeLink::Fragment {
            href: episode_href(&fragment),
        }),
        Err(ShareError::TooLargeForLink { .. }) => {
            let json = file.to_json();
            let key = stored_key_for(&json);
            Ok(EpisodeLink::Stored {
                href: format!("{EPISODE_PATH}?stored={key}"),
                storage_key: stored_episode(&key),
                json,
            })
        }
        Err(e) => Err(e),
    }
}

/// The link to episode `index` of a results file.
pub fn episode_link(file: &ResultsFile, index: usize) -> Result<EpisodeLink, String> {
    let ep = file
        .episode_file(index)
        .ok_or_else(|| format!("no episode {index} in {:?}", file.label))?;
    link_for(&ep).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::table::tests::run_file;
    use bench::results::ResultsKind;
    use bench::share::LINK_MAX_CHARS;

    #[test]
    fn short_episodes_link_by_fragment_and_open_again() {
        let f = run_file(
            "oracle",
            ResultsKind::Baseline,
            &["frozenlake-4x4-det"],
            true,
            0,
        );
        let link = episode_link(&f, 0).unwrap();
        let EpisodeLink::Fragment { href } = &link else {
            panic!("{link:?}");
        };
        assert!(href.starts_with("/episode#e=pb1."));
        let back = EpisodeFile::from_link_fragment(href).unwrap();
        assert_eq!(back.record, f.episodes[0].record);
        assert!(episode_link(&f, 99).is_err());
    }

    #[test]
    fn long_episodes_are_stored_under_a_content_key() {
        let f = run_file(
            "random",
            ResultsKind::Model,
            &["frozenlake-4x4-det-s0"],
            false,
            1,
        );
        let mut ep = f.episode_file(0).unwrap();
        // An episode far longer than a link allows (distinct frame hashes, as real
        // episodes have, so it does not compress away).
        let d = ep.record.decisions[0].clone();
        ep.record.decisions = (0..4000u32)
            .map(|i| {
                let mut d = d.clone();
                d.frame_hash = format!(
                    "{:016x}",
                    u64::from(bench::share::crc32(&i.to_le_bytes())) << 17 ^ u64::from(i)
                );
                d
            })
            .collect();
        let link = link_for(&ep).unwrap();
        let EpisodeLink::Stored {
            href,
            storage_key,
            json,
        } = &link
        else {
            panic!("expected a stored link");
        };
        assert!(href.len() < LINK_MAX_CHARS);
        let key = href.strip_prefix("/episode?stored=").unwrap();
        assert_eq!(storage_key, &stored_episode(key));
        let store = crate::storage::MemoryStore::new();
        assert_eq!(link.prepare(&store).unwrap(), href);
        assert_eq!(crate::replay::source::read_stored(&store, key).unwrap(), ep);
        assert_eq!(EpisodeFile::from_json(json).unwrap(), ep);
        assert_eq!(link_for(&ep).unwrap(), link, "the same key every time");
        assert_eq!(link.href(), href);
    }
}
