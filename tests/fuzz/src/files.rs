//! Episode, task, suite, results, study, attempts and audit files, read by their
//! `from_json`; an episode file that parses is verified too (verification re-simulates
//! whatever decisions a stranger wrote).

use bench::attempts::AttemptRun;
use bench::audit::file::AuditFile;
use bench::results::ResultsFile;
use bench::share::{self, EpisodeFile};
use bench::study::Study;
use bench::{Suite, Task};

use super::{seeds, Entry};

fn json<T: serde::Serialize>(items: impl IntoIterator<Item = T>) -> Vec<String> {
    items
        .into_iter()
        .filter_map(|t| serde_json::to_string_pretty(&t).ok())
        .collect()
}

pub fn entries() -> Vec<Entry> {
    let suites = seeds::suites(2);
    let tasks = suites.iter().flat_map(|s| s.tasks.clone());
    vec![
        Entry {
            name: "episode-file",
            seeds: seeds::fixtures(".episode.json"),
            run: Box::new(|text| {
                if let Ok(file) = EpisodeFile::from_json(text) {
                    let _ = share::verify(&file);
                }
            }),
        },
        Entry {
            name: "task-file",
            seeds: json(tasks),
            run: Box::new(|text| {
                let _ = Task::from_json(text);
            }),
        },
        Entry {
            name: "suite-file",
            seeds: json(&suites),
            run: Box::new(|text| {
                let _ = Suite::from_json(text);
            }),
        },
        Entry {
            name: "results-file",
            seeds: seeds::fixtures(".results.json"),
            run: Box::new(|text| {
                if let Ok(file) = ResultsFile::from_json(text) {
                    let _ = file.to_csv();
                }
            }),
        },
        Entry {
            name: "study-file",
            seeds: seeds::studies().iter().map(Study::to_json).collect(),
            run: Box::new(|text| {
                let _ = Study::from_json(text);
            }),
        },
        Entry {
            name: "attempts-file",
            seeds: seeds::attempts().iter().map(AttemptRun::to_json).collect(),
            run: Box::new(|text| {
                if let Ok(run) = AttemptRun::from_json(text) {
                    let _ = bench::attempts::verify_attempts(&run);
                }
            }),
        },
        Entry {
            name: "audit-file",
            seeds: seeds::audit_files(),
            run: Box::new(|text| {
                let _ = AuditFile::from_json(text);
            }),
        },
    ]
}
