//! Real samples of each format, the seeds of the mutations: the committed fixtures
//! (`tests/fixtures/`), the built-in suites, and links, studies, attempts and audit
//! files made by `bench` itself.

use std::path::Path;

use bench::attempts::AttemptRun;
use bench::audit::file::{AuditFile, AUDIT_FORMAT};
use bench::share::{EpisodeFile, TaskRef};
use bench::study::Study;
use bench::Suite;

/// Every fixture file whose name ends with `suffix`, sorted by path.
pub fn fixtures(suffix: &str) -> Vec<String> {
    let mut paths = Vec::new();
    collect(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures"),
        suffix,
        &mut paths,
    );
    paths.sort();
    paths
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .map(|s| s.trim_end().to_string())
        .collect()
}

fn collect(dir: &Path, suffix: &str, out: &mut Vec<std::path::PathBuf>) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in read.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, suffix, out);
        } else if path.to_string_lossy().ends_with(suffix) {
            out.push(path);
        }
    }
}

/// Each built-in suite at its latest version, cut to its first `tasks` tasks (whole
/// suites are hundreds of kilobytes: mutations of a small one reach the same code).
pub fn suites(tasks: usize) -> Vec<Suite> {
    bench::suites::ids()
        .into_iter()
        .filter_map(|id| bench::suites::latest(id).ok())
        .map(|s| {
            let mut s = s.clone();
            s.tasks.truncate(tasks);
            s
        })
        .collect()
}

/// Episode links: the committed ones and the links of the committed episode files.
pub fn episode_links() -> Vec<String> {
    let mut links = fixtures(".link.txt");
    links.extend(
        fixtures(".episode.json")
            .iter()
            .filter_map(|j| EpisodeFile::from_json(j).ok())
            .filter_map(|f| f.to_link_fragment().ok()),
    );
    links
}

/// A study of each built-in suite over its first three tasks.
pub fn studies() -> Vec<Study> {
    suites(3)
        .iter()
        .filter_map(|suite| {
            let full = bench::suites::latest(&suite.id).ok()?;
            let tasks = suite.tasks.iter().map(|t| t.id.clone()).collect();
            let mut study = Study::new(full, "fuzz-study", "A study", tasks);
            study.instructions = "Play each task.".to_string();
            Some(study)
        })
        .collect()
}

/// Attempts on the first task of each built-in suite, with the committed episode
/// records of that task's family where the suite is the core one.
pub fn attempts() -> Vec<AttemptRun> {
    suites(1)
        .iter()
        .filter_map(|suite| {
            let full = bench::suites::latest(&suite.id).ok()?;
            let task = suite.tasks.first()?;
            Some(AttemptRun::new(
                TaskRef::in_suite(full, &task.id),
                "human",
                Some("fuzz"),
            ))
        })
        .collect()
}

/// An audit file made from the committed results files' episodes (verdicts empty).
pub fn audit_files() -> Vec<String> {
    let results = fixtures(".results.json");
    results
        .iter()
        .filter_map(|r| bench::results::ResultsFile::from_json(r).ok())
        .map(|r| {
            let mut file = AuditFile {
                format: AUDIT_FORMAT.to_string(),
                results_label: "fixture".to_string(),
                agent: "oracle".to_string(),
                suite: "playbench-core".to_string(),
                suite_version: 1,
                results_crc32: bench::audit::file::results_fingerprint(&r),
                auditor: "fuzz".to_string(),
                auditor_settings: Default::default(),
                references: Vec::new(),
                episodes: Vec::new(),
                report: bench::audit::report::audit_report(&[]),
            };
            file.refresh();
            file.to_json()
        })
        .collect()
}
