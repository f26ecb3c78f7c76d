//! The judging on `/judge` kept in the browser's storage as it goes, so a reload loses
//! nothing: what was chosen (as read), the image budget and the judge file so far.

use bench::judge::file::JudgeFile;
use bench::results::ResultsFile;
use bench::share::EpisodeFile;
use serde::{Deserialize, Serialize};

use super::input::Chosen;
use crate::storage::{Store, StoreError};
use crate::storage_keys::JUDGE;

/// A chosen file as kept: its name and its JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NamedJson {
    pub name: String,
    pub json: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredJudging {
    #[serde(default)]
    pub results: Option<NamedJson>,
    #[serde(default)]
    pub episodes: Vec<NamedJson>,
    pub max_images: usize,
    /// The judging so far (none before the first answer).
    #[serde(default)]
    pub judge: Option<JudgeFile>,
}

impl StoredJudging {
    pub fn new(chosen: &Chosen, max_images: usize, judge: Option<JudgeFile>) -> Self {
        Self {
            results: chosen.results.as_ref().map(|(name, f)| NamedJson {
                name: name.clone(),
                json: f.to_json(),
            }),
            episodes: chosen
                .episodes
                .iter()
                .map(|(name, f)| NamedJson {
                    name: name.clone(),
                    json: f.to_json(),
                })
                .collect(),
            max_images,
            judge,
        }
    }

    /// The stored judging, if one is there and still readable: what was chosen, the
    /// image budget and the judge file.
    pub fn load(store: &dyn Store) -> Option<(Chosen, usize, Option<JudgeFile>)> {
        let stored: Self = serde_json::from_str(&store.get(JUDGE.key)?).ok()?;
        let results = match &stored.results {
            Some(r) => Some((r.name.clone(), ResultsFile::from_json(&r.json).ok()?)),
            None => None,
        };
        let episodes = stored
            .episodes
            .iter()
            .map(|e| Some((e.name.clone(), EpisodeFile::from_json(&e.json).ok()?)))
            .collect::<Option<Vec<_>>>()?;
        Some((
            Chosen { results, episodes },
            stored.max_images,
            stored.judge,
        ))
    }

    pub fn save(&self, store: &dyn Store) -> Result<(), StoreError> {
        store.set(JUDGE.key, &serde_json::to_string(self).unwrap_or_default())
    }

    pub fn clear(store: &dyn Store) {
        store.remove(JUDGE.key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judging::view::tests::{episode_file, judged};
    use crate::storage::MemoryStore;

    #[test]
    fn the_judging_survives_a_reload() {
        let store = MemoryStore::default();
        assert!(StoredJudging::load(&store).is_none());
        let mut chosen = Chosen::default();
        chosen
            .add_episode("a.json".into(), episode_file("maze-s1", true))
            .unwrap();
        let file = judged();
        StoredJudging::new(&chosen, 40, Some(file.clone()))
            .save(&store)
            .unwrap();
        let (back, max_images, judge) = StoredJudging::load(&store).unwrap();
        assert_eq!(back, chosen);
        assert_eq!(max_images, 40);
        assert_eq!(judge, Some(file));
        StoredJudging::clear(&store);
        assert!(StoredJudging::load(&store).is_none());
        store.set(JUDGE.key, "{not json").unwrap();
        assert!(StoredJudging::load(&store).is_none());
    }
}
