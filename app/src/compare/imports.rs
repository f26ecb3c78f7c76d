//! The results files imported on the comparison page: each read with
//! `ResultsFile::from_json` against the built-in suite (a bad file gets its own error,
//! with its name), the good ones kept in the browser's storage
//! (`storage_keys::COMPARE_FILES`, a JSON list of `{"name", "json"}`) so a reload shows the same comparison.
//! Runs of attempts (`playbench-attempts/1` files, or their `a=pa1.…` links) are
//! imported beside them for the gain per condition (`compare::gains`).

use bench::attempts::{AttemptRun, ATTEMPTS_FORMAT, ATTEMPTS_LINK};
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

/// An imported run of attempts.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedRun {
    /// The file name, or `link` for a pasted link.
    pub name: String,
    /// What was imported (the file's JSON or the link), as stored.
    pub json: String,
    pub run: AttemptRun,
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
    pub runs: Vec<ImportedRun>,
    pub errors: Vec<ImportError>,
}

/// Whether `text` is a run of attempts: its link (or a URL holding it) or its file.
fn is_attempts(text: &str) -> bool {
    let t = text.trim_start();
    (!t.starts_with('{') && t.contains(ATTEMPTS_LINK.tag)) || t.contains(ATTEMPTS_FORMAT)
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
        if is_attempts(json) {
            return self.read_run(name, json).map_err(err);
        }
        if is_results_csv(json) {
            return Err(err(CSV_HINT.to_string()));
        }
        let file = ResultsFile::from_json(json).map_err(|e| {
            let hint = if json.contains("playbench-episode-file/") {
                " (this is an episode file: open it in the replay viewer)"
            } else if is_bare_report(json) {
                " (this is a report without its episodes: compare the results file, \
                 `playbench baseline --json` or Export JSON on /run/suite)"
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

    fn read_run(&mut self, name: &str, text: &str) -> Result<(), String> {
        let trimmed = text.trim();
        let run = if trimmed.starts_with('{') {
            AttemptRun::from_json(trimmed)
        } else {
            AttemptRun::from_link_fragment(trimmed)
        }
        .map_err(|e| format!("not a usable run of attempts: {e}"))?;
        if let Some(same) = self.runs.iter().find(|r| r.run == run) {
            return Err(format!("already imported as {:?}", same.name));
        }
        self.runs.push(ImportedRun {
            name: name.to_string(),
            json: trimmed.to_string(),
            run,
        });
        Ok(())
    }

    pub fn remove_run(&mut self, index: usize) {
        if index < self.runs.len() {
            self.runs.remove(index);
        }
    }

    pub fn attempt_runs(&self) -> Vec<AttemptRun> {
        self.runs.iter().map(|r| r.run.clone()).collect()
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
                .chain(
                    self.runs
                        .iter()
                        .map(|r| json!({"name": r.name, "json": r.json})),
                )
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

/// What a CSV export gets: the CSV holds the table only, not the episodes a comparison
/// pairs, so the JSON exported beside it is the file to import.
pub const CSV_HINT: &str = "this is the CSV table (for spreadsheets): it holds no episodes \
     to compare. Import the results JSON instead (Export JSON on /run/suite, \
     `playbench run --suite --json` or `playbench baseline --json`).";

/// `ResultsFile::to_csv`'s output: `#` lines then the table's header.
fn is_results_csv(text: &str) -> bool {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    text.trim_start().starts_with("# label:")
        || first.is_some_and(|l| l.starts_with("section,name,"))
}

/// A bare `Report` (what `playbench baseline --report` prints, the committed baselines).
fn is_bare_report(json: &str) -> bool {
    serde_json::from_str::<Value>(json).is_ok_and(|v| {
        v.get("format").is_none() && v.get("overall").is_some() && v.get("by_env").is_some()
    })
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

    #[test]
    fn runs_of_attempts_import_as_files_or_links_and_are_kept() {
        let run = crate::reflector::view::tests::maze_run();
        let json = run.to_json();
        let link = run.to_link_fragment().unwrap();
        let mut im = Imports::default();
        im.add("run.json", &json).unwrap();
        let e = im
            .add("link", &format!("https://host/attempts#{link}"))
            .unwrap_err();
        assert_eq!(e.message, "already imported as \"run.json\"");
        let edited = json.replace(
            "\"format\": \"playbench-attempts/1\"",
            "\"format\": \"playbench-attempts/1\", \"x\": 1",
        );
        let e = im.add("bad.json", &edited).unwrap_err();
        assert!(
            e.message.starts_with("not a usable run of attempts"),
            "{e:?}"
        );
        let e = im.add("cut", "a=pa1.AAAA").unwrap_err();
        assert!(
            e.message.starts_with("not a usable run of attempts"),
            "{e:?}"
        );
        assert_eq!(im.runs.len(), 1);
        assert!(im.files.is_empty());
        let store = crate::storage::MemoryStore::new();
        im.save(&store).unwrap();
        let back = Imports::load(&store);
        assert_eq!(back.runs, im.runs);
        assert_eq!(back.attempt_runs(), vec![run]);
        im.remove_run(0);
        assert!(im.runs.is_empty());
    }

    #[test]
    fn the_csv_export_and_a_bare_report_say_which_file_to_import() {
        let file = run_file("a", ResultsKind::Model, &["frozenlake-4x4-det"], true, 0);
        let mut im = Imports::default();
        let e = im.add("run.csv", &file.to_csv()).unwrap_err();
        assert_eq!(e.message, CSV_HINT);
        // A CSV without its `#` lines (edited in a spreadsheet) is still recognised.
        let table: String = file
            .to_csv()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(im.add("t.csv", &table).unwrap_err().message, CSV_HINT);
        let report = serde_json::to_string(&file.report).unwrap();
        let e = im.add("report.json", &report).unwrap_err();
        assert!(e.message.contains("baseline --json"), "{e:?}");
        // The JSON exported beside the CSV imports.
        im.add("run.json", &file.to_json()).unwrap();
        assert_eq!(im.files.len(), 1);
    }
}
