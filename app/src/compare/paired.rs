//! Paired comparison of two rows on the episodes they share: tasks played on the same
//! seed by both. Per pair, the difference of the two sides' mean scores; the mean
//! difference gets a bootstrap 95% interval (resampling pairs), and the pairs are
//! counted as wins, ties and losses for the first row.

use std::collections::BTreeMap;

use bench::results::ResultsFile;
use envs::rng::NpRandom;

use super::bootstrap::{interval, resample, Estimate, RESAMPLES, SEED};
use super::entries::{Entry, EpisodeRef};

/// Score differences smaller than this are ties.
pub const TIE: f64 = 1e-9;

#[derive(Clone, Debug, PartialEq)]
pub struct Paired {
    /// Positions of the two rows among the entries.
    pub a: usize,
    pub b: usize,
    /// (task, seed) pairs both played.
    pub pairs: usize,
    /// Mean of (a − b) score differences, 0-100 points.
    pub mean_diff: Estimate,
    pub wins: usize,
    pub ties: usize,
    pub losses: usize,
    /// The episodes of both sides on the shared pairs.
    pub episodes: Vec<EpisodeRef>,
}

type Side = BTreeMap<(String, u64), (Vec<f64>, Vec<EpisodeRef>)>;

fn side(files: &[ResultsFile], entry: &Entry) -> Side {
    let mut out: Side = BTreeMap::new();
    for (r, rec) in entry.records(files) {
        let slot = out.entry((rec.task.clone(), rec.seed)).or_default();
        slot.0.push(rec.score);
        slot.1.push(r);
    }
    out
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

/// `entries[a]` against `entries[b]`, `None` when they share no task and seed.
pub fn paired(files: &[ResultsFile], entries: &[Entry], a: usize, b: usize) -> Option<Paired> {
    let left = side(files, entries.get(a)?);
    let right = side(files, entries.get(b)?);
    let mut diffs = Vec::new();
    let mut episodes = Vec::new();
    for (key, (scores, refs)) in &left {
        if let Some((other, other_refs)) = right.get(key) {
            diffs.push(mean(scores) - mean(other));
            episodes.extend(refs.iter().chain(other_refs).copied());
        }
    }
    if diffs.is_empty() {
        return None;
    }
    episodes.sort();
    episodes.dedup();
    let value = mean(&diffs);
    let mut rng = NpRandom::seeded(SEED);
    let replicates = (0..RESAMPLES)
        .map(|_| {
            let idx = resample(&mut rng, diffs.len());
            idx.iter().map(|&i| diffs[i]).sum::<f64>() / diffs.len() as f64
        })
        .collect();
    Some(Paired {
        a,
        b,
        pairs: diffs.len(),
        mean_diff: interval(value, replicates),
        wins: diffs.iter().filter(|d| **d > TIE).count(),
        ties: diffs.iter().filter(|d| d.abs() <= TIE).count(),
        losses: diffs.iter().filter(|d| **d < -TIE).count(),
        episodes,
    })
}

/// Every pair of distinct rows that share at least one task and seed, skipping a
/// pooled row against a file it pools (they share episodes, not just tasks).
pub fn all_pairs(files: &[ResultsFile], entries: &[Entry]) -> Vec<Paired> {
    let mut out = Vec::new();
    for a in 0..entries.len() {
        for b in a + 1..entries.len() {
            let overlap = entries[a]
                .files
                .iter()
                .any(|f| entries[b].files.contains(f));
            if overlap {
                continue;
            }
            out.extend(paired(files, entries, a, b));
        }
    }
    out
}

/// `+12.5 [4.0, 21.0]` points.
pub fn diff_text(e: &Estimate) -> String {
    format!("{:+.1} [{:+.1}, {:+.1}]", e.value, e.low, e.high)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::entries::{entries, HUMAN_BASELINE};
    use crate::compare::table::tests::run_file;
    use bench::results::ResultsKind;

    #[test]
    fn oracle_against_random_on_shared_tasks() {
        let oracle = run_file("oracle", ResultsKind::Baseline, &["frozenlake"], true, 0);
        // The random file covers the lakes and more: only the lakes pair up.
        let random = run_file(
            "random",
            ResultsKind::Model,
            &["frozenlake", "taxi"],
            false,
            1,
        );
        let lakes = oracle.episodes.len();
        let files = vec![oracle, random];
        let e = entries(&files);
        assert_eq!(e.len(), 2, "no Human file, no baseline row");
        let p = paired(&files, &e, 0, 1).unwrap();
        assert_eq!(p.pairs, lakes);
        assert_eq!(p.wins + p.ties + p.losses, lakes);
        assert!(p.mean_diff.value > 0.0);
        assert!(p.mean_diff.low <= p.mean_diff.value && p.mean_diff.value <= p.mean_diff.high);
        assert_eq!(p.episodes.len(), 2 * lakes);
        // Reversed, the difference flips sign and wins become losses.
        let q = paired(&files, &e, 1, 0).unwrap();
        assert!((q.mean_diff.value + p.mean_diff.value).abs() < 1e-9);
        assert_eq!((q.wins, q.losses), (p.losses, p.wins));
        assert_eq!(all_pairs(&files, &e).len(), 1);
    }

    #[test]
    fn a_row_against_itself_ties_everywhere() {
        let a = run_file("a", ResultsKind::Model, &["cliffwalking"], false, 2);
        let files = vec![a.clone(), a];
        let e = entries(&files);
        let p = paired(&files, &e, 0, 1).unwrap();
        assert_eq!(p.ties, p.pairs);
        assert_eq!(p.mean_diff, Estimate::exact(0.0));
    }

    #[test]
    fn disjoint_rows_do_not_pair() {
        let a = run_file("a", ResultsKind::Model, &["frozenlake"], false, 2);
        let b = run_file("b", ResultsKind::Model, &["taxi"], false, 2);
        let files = vec![a, b];
        let e = entries(&files);
        assert_eq!(paired(&files, &e, 0, 1), None);
        assert!(all_pairs(&files, &e).is_empty());
        assert_eq!(paired(&files, &e, 0, 9), None);
    }

    #[test]
    fn humans_are_pooled_into_the_baseline_and_kept_apart_from_their_own_files() {
        let h1 = run_file("p1", ResultsKind::Human, &["frozenlake-4x4"], false, 1);
        let h2 = run_file("p2", ResultsKind::Human, &["frozenlake-4x4"], false, 2);
        let m = run_file("m", ResultsKind::Model, &["frozenlake-4x4"], true, 0);
        let files = vec![h1.clone(), m, h2.clone()];
        let e = entries(&files);
        assert_eq!(e.len(), 4);
        let pooled = &e[3];
        assert!(pooled.pooled && pooled.label.starts_with(HUMAN_BASELINE));
        assert_eq!(pooled.files, [0, 2]);
        assert_eq!(pooled.episodes.len(), h1.episodes.len() + h2.episodes.len());
        // The pooled task score is the mean over people.
        let t = crate::compare::table::table(crate::compare::table::tests::suite(), &files, pooled);
        let mean_of = |f: &ResultsFile| f.report.overall.score;
        let expected = (mean_of(&h1) + mean_of(&h2)) / 2.0;
        // One environment: the overall score is the mean over tasks of the mean over
        // people, which is the mean of the two people's overall scores.
        assert!((t.overall.score.value - expected).abs() < 1e-9);
        // Pairs: p1-m, p1-p2, m-p2, m-baseline; not a person against the baseline.
        let pairs: Vec<(usize, usize)> = all_pairs(&files, &e).iter().map(|p| (p.a, p.b)).collect();
        assert_eq!(pairs, [(0, 1), (0, 2), (1, 2), (1, 3)]);
        let vs_baseline = paired(&files, &e, 1, 3).unwrap();
        assert_eq!(vs_baseline.pairs, h1.episodes.len());
        assert_eq!(diff_text(&Estimate::exact(-2.26)), "-2.3 [-2.3, -2.3]");
    }
}
