//! The audit on `/audit` kept in the browser's storage as it goes, so a reload loses
//! nothing: the results file (as read) and the audit file so far.

use bench::audit::file::AuditFile;
use bench::results::ResultsFile;
use serde::{Deserialize, Serialize};

use crate::storage::{Store, StoreError};
use crate::storage_keys::AUDIT;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredAudit {
    /// The dropped file's name.
    pub results_name: String,
    /// The results file's JSON.
    pub results: String,
    /// The audit so far (none before the first answer).
    #[serde(default)]
    pub audit: Option<AuditFile>,
}

impl StoredAudit {
    /// The stored audit, if one is there and still readable (a results file whose
    /// suite version this build lacks is dropped).
    pub fn load(store: &dyn Store) -> Option<(Self, ResultsFile)> {
        let stored: Self = serde_json::from_str(&store.get(AUDIT.key)?).ok()?;
        let results = ResultsFile::from_json(&stored.results).ok()?;
        Some((stored, results))
    }

    pub fn save(&self, store: &dyn Store) -> Result<(), StoreError> {
        store.set(AUDIT.key, &serde_json::to_string(self).unwrap_or_default())
    }

    pub fn clear(store: &dyn Store) {
        store.remove(AUDIT.key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auditor::view::tests::{audit_file, model_results};
    use crate::storage::MemoryStore;

    #[test]
    fn the_audit_survives_a_reload() {
        let store = MemoryStore::default();
        assert!(StoredAudit::load(&store).is_none());
        let results = model_results();
        let stored = StoredAudit {
            results_name: "run.json".into(),
            results: results.to_json(),
            audit: Some(audit_file()),
        };
        stored.save(&store).unwrap();
        let (back, read) = StoredAudit::load(&store).unwrap();
        assert_eq!(back, stored);
        assert_eq!(read.episodes.len(), results.episodes.len());
        StoredAudit::clear(&store);
        assert!(StoredAudit::load(&store).is_none());
        store.set(AUDIT.key, "{not json").unwrap();
        assert!(StoredAudit::load(&store).is_none());
    }
}
