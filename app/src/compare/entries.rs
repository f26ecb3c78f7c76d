//! The rows of the comparison: one per results file, and the human baseline pooling
//! the episodes of every Human file (each person's file is still shown on its own).

use bench::results::{ResultsFile, ResultsKind};
use bench::EpisodeRecord;

/// Where an episode is: the file's position among the imports, and its index there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EpisodeRef {
    pub file: usize,
    pub episode: usize,
}

pub const HUMAN_BASELINE: &str = "Human baseline";

/// One row of the comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub label: String,
    pub kind: ResultsKind,
    /// The imported files it draws on (one, or every Human file).
    pub files: Vec<usize>,
    pub pooled: bool,
    pub episodes: Vec<EpisodeRef>,
}

impl Entry {
    /// The episode records, with where they are.
    pub fn records<'a>(
        &'a self,
        files: &'a [ResultsFile],
    ) -> impl Iterator<Item = (EpisodeRef, &'a EpisodeRecord)> + 'a {
        self.episodes.iter().filter_map(move |r| {
            files
                .get(r.file)
                .and_then(|f| f.episodes.get(r.episode))
                .map(|e| (*r, &e.record))
        })
    }
}

fn file_entry(i: usize, f: &ResultsFile) -> Entry {
    Entry {
        label: f.label.clone(),
        kind: f.kind,
        files: vec![i],
        pooled: false,
        episodes: (0..f.episodes.len())
            .map(|episode| EpisodeRef { file: i, episode })
            .collect(),
    }
}

/// Every file as a row, in import order, then the human baseline when there is at
/// least one Human file ("Human baseline (N people)").
pub fn entries(files: &[ResultsFile]) -> Vec<Entry> {
    let mut out: Vec<Entry> = files
        .iter()
        .enumerate()
        .map(|(i, f)| file_entry(i, f))
        .collect();
    let humans: Vec<usize> = files
        .iter()
        .enumerate()
        .filter(|(_, f)| f.kind == ResultsKind::Human)
        .map(|(i, _)| i)
        .collect();
    if !humans.is_empty() {
        let people = match humans.len() {
            1 => "1 file".to_string(),
            n => format!("{n} files"),
        };
        out.push(Entry {
            label: format!("{HUMAN_BASELINE} ({people} pooled)"),
            kind: ResultsKind::Human,
            episodes: humans
                .iter()
                .flat_map(|&i| out[i].episodes.clone())
                .collect(),
            files: humans,
            pooled: true,
        });
    }
    out
}

/// The kind in words.
pub fn kind_text(kind: ResultsKind) -> &'static str {
    match kind {
        ResultsKind::Model => "model",
        ResultsKind::Human => "human",
        ResultsKind::Baseline => "baseline",
    }
}
