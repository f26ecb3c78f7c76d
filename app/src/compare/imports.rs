//! The results files imported on the comparison page: each read with
//! `ResultsFile::from_json` against the built-in suite (a bad file gets its own error,
//! with its name), the good ones kept in the browser's storage
//! (`storage_keys::COMPARE_FILES`, a JSON list of `{"name", "json"}`) so a reload shows the same comparison.

use bench::results::ResultsFile;
use serde_json::{json, Value};

use crate::storage::{Store, StoreError};
use crate::storage_keys::COMPARE_FILES;

#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The file name it was imported from.
    pub name: String,
    pub json: String,
    pub file: ResultsFile,
}

/// A file that could not be imported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    pub name: String,
    pub message: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Imports {
    pub files: Vec<Imported>,
    pub errors: Vec<ImportError>,
}

impl Imports {
    /// Reads one file; on failure the error is listed (and the file not kept). A file
    /// already imported (same content) is not added twice.
    pub fn add(&mut self, name: &str, json: &str) -> Result<(), ImportError> {
        let result = self.read(name, json);
        if let Err(e) = &result {
            self.errors.retain(|x| x.name != e.name);
            self.errors.push(e.clone());
        } else {
            self.errors.retain(|x| x.name != name);
        }
        result
    }

    fn read(&mut self, name: &str, json: &str) -> Result<(), ImportError> {
        let err = |message: String| ImportError {
            name: name.to_string(),
            message,
        };
        if let Some(same) = self.files.iter().find(|f| f.json == json) {
            return Err(err(format!("already imported as {:?}", same.name)));
        }
        let file = ResultsFile::from_json(json).map_err(|e| {
            let hint = if json.contains("playbench-episode-file/") {
                " (this is an episode file: open it in the replay viewer)"
            } else {
                ""
            };
            err(format!("not a Playbench results file: {e}{hint}"))
        })?;
        self.files.push(Imported {
            name: name.to_string(),
            json: json.to_string(),
            file,
        });
        Ok(())
    }

    pub fn remove(&mut self, index: usize) {
        if index < self.files.len() {
            self.files.remove(index);
        }
    }

    pub fn dismiss_error(&mut self, index: usize) {
        if index < self.errors.len() {
            self.errors.remove(index);
        }
    }

    pub fn results(&self) -> Vec<ResultsFile> {
        self.files.iter().map(|f| f.file.clone()).collect()
    }

    pub fn to_storage_json(&self) -> String {
        Value::Array(
            self.files
                .iter()
                .map(|f| json!({"name": f.name, "json": f.json}))
                .collect(),
        )
        .to_string()
    }

    /// The imports kept in the store (none when there are none).
    pub fn load(store: &dyn Store) -> Self {
        store
            .get(COMPARE_FILES.key)
            .map(|t| Self::from_storage_json(&t))
            .unwrap_or_default()
    }

    pub fn save(&self, store: &dyn Store) -> Result<(), StoreError> {
        store.set(COMPARE_FILES.key, &self.to_storage_json())
    }

    /// The stored imports, each read again (a file that no longer reads, e.g. after
    /// the suite changed, becomes an error).
    pub fn from_storage_json(text: &str) -> Self {
        let mut out = Self::default();
        let items = serde_json::from_str::<Value>(text)
            .ok()
            .and_then(|v| v.as_array().cloned())
            .unwrap_or_default();
        for item in items {
            let name = item
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("(stored file)");
            let json = item.get("json").and_then(Value::as_str).unwrap_or_default();
            let _ = out.add(name, json);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::table::tests::run_file;
    use bench::results::ResultsKind;

    #[test]
    fn good_files_are_kept_and_bad_ones_explained() {
        let a = run_file("a", ResultsKind::Model, &["frozenlake-4x4-det"], true, 0).to_json();
        let b = run_file("b", ResultsKind::Human, &["frozenlake-4x4-det"], false, 1).to_json();
        let mut im = Imports::default();
        im.add("a.json", &a).unwrap();
        im.add("b.json", &b).unwrap();
        let e = im.add("again.json", &a).unwrap_err();
        assert!(e.message.contains("a.json"), "{e:?}");
        let e = im.add("notes.txt", "hello").unwrap_err();
        assert_eq!(e.name, "notes.txt");
        assert!(
            e.message.starts_with("not a Playbench results file"),
            "{e:?}"
        );
        let e = im
            .add("ep.json", r#"{"format": "playbench-episode-file/1"}"#)
            .unwrap_err();
        assert!(e.message.contains("replay viewer"), "{e:?}");
        let odd = a.replace("frozenlake-4x4-det-s0\"", "frozenlake-9x9\"");
        let e = im.add("odd.json", &odd).unwrap_err();
        assert!(e.message.contains("frozenlake-9x9"), "{e:?}");
        assert_eq!(im.files.len(), 2);
        assert_eq!(im.errors.len(), 4);
        im.dismiss_error(0);
        assert_eq!(im.errors.len(), 3);

        let store = crate::storage::MemoryStore::new();
        assert_eq!(Imports::load(&store), Imports::default());
        im.save(&store).unwrap();
        let back = Imports::load(&store);
        assert_eq!(back.files, im.files);
        assert!(back.errors.is_empty(), "bad files are not stored");
        assert_eq!(back.results()[1].label, "b");
        im.remove(0);
        assert_eq!(im.files[0].name, "b.json");
        assert_eq!(Imports::from_storage_json("junk"), Imports::default());
    }
}
