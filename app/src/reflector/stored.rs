//! The run on `/reflect` kept in the browser's storage (`storage_keys::REFLECT`) as it
//! goes, so a reload does not lose finished attempts: the task it was on and the run
//! of attempts so far.

use bench::attempts::AttemptRun;
use serde::{Deserialize, Serialize};

use crate::storage::{Store, StoreError};
use crate::storage_keys::REFLECT;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredReflect {
    pub suite: String,
    pub task: String,
    /// Whether every attempt was played (else the run was stopped or interrupted).
    pub finished: bool,
    /// The run of attempts' JSON.
    pub run: String,
}

impl StoredReflect {
    pub fn new(suite: &str, task: &str, finished: bool, run: &AttemptRun) -> Self {
        Self {
            suite: suite.to_string(),
            task: task.to_string(),
            finished,
            run: run.to_json(),
        }
    }

    /// The stored run of `suite`'s `task`, if one is there and still readable.
    pub fn load(store: &dyn Store, suite: &str, task: &str) -> Option<(bool, AttemptRun)> {
        let stored: Self = serde_json::from_str(&store.get(REFLECT.key)?).ok()?;
        if stored.suite != suite || stored.task != task {
            return None;
        }
        let run = AttemptRun::from_json(&stored.run).ok()?;
        Some((stored.finished, run))
    }

    pub fn save(&self, store: &dyn Store) -> Result<(), StoreError> {
        store.set(
            REFLECT.key,
            &serde_json::to_string(self).unwrap_or_default(),
        )
    }

    pub fn clear(store: &dyn Store) {
        store.remove(REFLECT.key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reflector::view::tests::maze_run;
    use crate::storage::MemoryStore;

    #[test]
    fn the_run_survives_a_reload_on_its_task_only() {
        let store = MemoryStore::default();
        assert!(StoredReflect::load(&store, "gameverse", "maze-s1").is_none());
        let run = maze_run();
        StoredReflect::new("gameverse", "maze-s1", true, &run)
            .save(&store)
            .unwrap();
        assert_eq!(
            StoredReflect::load(&store, "gameverse", "maze-s1"),
            Some((true, run))
        );
        assert!(StoredReflect::load(&store, "gameverse", "snake-s1").is_none());
        StoredReflect::clear(&store);
        assert!(StoredReflect::load(&store, "gameverse", "maze-s1").is_none());
        store.set(REFLECT.key, "{not json").unwrap();
        assert!(StoredReflect::load(&store, "gameverse", "maze-s1").is_none());
    }
}
