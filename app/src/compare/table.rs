//! One row of the comparison as a table: overall, per environment and per tag, each a
//! score and a pass rate with bootstrap 95% intervals. The point estimates are the
//! report's (task scores averaged within an environment, environments weighted
//! equally; pass rates over episodes within an environment); the intervals resample
//! tasks with replacement within each environment.

use std::collections::BTreeMap;

use bench::results::ResultsFile;
use bench::{Suite, Task};
use envs::rng::NpRandom;

use super::bootstrap::{interval, resample, Estimate, RESAMPLES, SEED};
use super::entries::{Entry, EpisodeRef};

/// The episodes of one task.
#[derive(Clone, Debug, PartialEq)]
struct TaskCell<'a> {
    task: &'a Task,
    scores: Vec<f64>,
    passes: usize,
    refs: Vec<EpisodeRef>,
}

impl TaskCell<'_> {
    fn mean_score(&self) -> f64 {
        self.scores.iter().sum::<f64>() / self.scores.len().max(1) as f64
    }
}

/// A group's estimates and the episodes behind them.
#[derive(Clone, Debug, PartialEq)]
pub struct StatRow {
    pub name: String,
    pub tasks: usize,
    pub environments: usize,
    pub episodes: Vec<EpisodeRef>,
    /// Mean 0-100 score.
    pub score: Estimate,
    /// 0-1.
    pub pass_rate: Estimate,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub overall: StatRow,
    pub by_env: Vec<StatRow>,
    pub by_tag: Vec<StatRow>,
}

pub use bench::report::{env_name, tag_names};

/// Score and pass rate of environments (each a list of task cells), weighted equally.
fn statistic(envs: &[Vec<&TaskCell>]) -> (f64, f64) {
    let n = envs.len().max(1) as f64;
    let (mut score, mut pass) = (0.0, 0.0);
    for tasks in envs {
        let t = tasks.len().max(1) as f64;
        score += tasks.iter().map(|c| c.mean_score()).sum::<f64>() / t;
        let episodes: usize = tasks.iter().map(|c| c.scores.len()).sum();
        let passes: usize = tasks.iter().map(|c| c.passes).sum();
        pass += passes as f64 / episodes.max(1) as f64;
    }
    (score / n, pass / n)
}

fn stat_row(name: &str, envs: &[Vec<&TaskCell>]) -> StatRow {
    let (score, pass) = statistic(envs);
    // A fresh generator per row: a row's interval does not depend on the others.
    let mut rng = NpRandom::seeded(SEED);
    let mut scores = Vec::with_capacity(RESAMPLES);
    let mut passes = Vec::with_capacity(RESAMPLES);
    for _ in 0..RESAMPLES {
        let drawn: Vec<Vec<&TaskCell>> = envs
            .iter()
            .map(|tasks| {
                resample(&mut rng, tasks.len())
                    .into_iter()
                    .map(|i| tasks[i])
                    .collect()
            })
            .collect();
        let (s, p) = statistic(&drawn);
        scores.push(s);
        passes.push(p);
    }
    let mut episodes: Vec<EpisodeRef> = envs
        .iter()
        .flatten()
        .flat_map(|c| c.refs.iter().copied())
        .collect();
    episodes.sort();
    StatRow {
        name: name.to_string(),
        tasks: envs.iter().map(Vec::len).sum(),
        environments: envs.len(),
        episodes,
        score: interval(score, scores),
        pass_rate: interval(pass, passes),
    }
}

/// Groups cells by environment (in name order), keeping those `keep` accepts.
fn by_env<'a, 'b>(
    cells: &'b [TaskCell<'a>],
    keep: impl Fn(&Task) -> bool,
) -> BTreeMap<String, Vec<&'b TaskCell<'a>>> {
    let mut groups: BTreeMap<String, Vec<&TaskCell>> = BTreeMap::new();
    for c in cells.iter().filter(|c| keep(c.task)) {
        groups.entry(env_name(c.task)).or_default().push(c);
    }
    groups
}

/// The table of an entry's episodes on `suite` (episodes of unknown tasks are left out).
pub fn table(suite: &Suite, files: &[ResultsFile], entry: &Entry) -> Table {
    let mut cells: Vec<TaskCell> = Vec::new();
    for (r, rec) in entry.records(files) {
        let Some(task) = suite.task(&rec.task) else {
            continue;
        };
        let cell = match cells.iter_mut().position(|c| c.task.id == task.id) {
            Some(i) => &mut cells[i],
            None => {
                cells.push(TaskCell {
                    task,
                    scores: Vec::new(),
                    passes: 0,
                    refs: Vec::new(),
                });
                let last = cells.len() - 1;
                &mut cells[last]
            }
        };
        cell.scores.push(rec.score);
        cell.passes += usize::from(rec.passed);
        cell.refs.push(r);
    }
    let envs = by_env(&cells, |_| true);
    let by_env_rows = envs
        .iter()
        .map(|(name, tasks)| stat_row(name, std::slice::from_ref(tasks)))
        .collect();
    let all: Vec<Vec<&TaskCell>> = envs.values().cloned().collect();
    let mut tags: Vec<String> = cells.iter().flat_map(|c| tag_names(c.task)).collect();
    tags.sort();
    tags.dedup();
    let by_tag = tags
        .iter()
        .map(|tag| {
            let groups: Vec<Vec<&TaskCell>> = by_env(&cells, |t| tag_names(t).contains(tag))
                .into_values()
                .collect();
            stat_row(tag, &groups)
        })
        .collect();
    Table {
        overall: stat_row("overall", &all),
        by_env: by_env_rows,
        by_tag,
    }
}

/// A score interval as shown: `72.4 [65.1, 80.0]`.
pub fn score_text(e: &Estimate) -> String {
    format!("{:.1} [{:.1}, {:.1}]", e.value, e.low, e.high)
}

/// A pass-rate interval as shown, in percent: `60% [40, 80]`.
pub fn pass_text(e: &Estimate) -> String {
    format!(
        "{:.0}% [{:.0}, {:.0}]",
        100.0 * e.value,
        100.0 * e.low,
        100.0 * e.high
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::compare::entries::entries;
    use bench::agents::{OracleAgent, RandomAgent};
    use bench::results::{ResultEpisode, ResultsKind};
    use bench::run_episode;

    pub fn suite() -> &'static Suite {
        crate::suite_data::suite().unwrap()
    }

    /// A results file of `agent` over the tasks whose id starts with one of `prefixes`.
    pub fn run_file(
        label: &str,
        kind: ResultsKind,
        prefixes: &[&str],
        oracle: bool,
        seed: u64,
    ) -> ResultsFile {
        let s = suite();
        let episodes = s
            .tasks
            .iter()
            .filter(|t| prefixes.iter().any(|p| t.id.starts_with(p)))
            .map(|t| {
                let record = if oracle {
                    run_episode(t, &mut OracleAgent::new()).unwrap()
                } else {
                    run_episode(t, &mut RandomAgent::new(seed)).unwrap()
                };
                ResultEpisode {
                    record,
                    repeat: 0,
                    usage: None,
                }
            })
            .collect();
        ResultsFile::new(label, kind, label, s, None, episodes)
    }

    #[test]
    fn point_estimates_are_the_reports() {
        let f = run_file(
            "random",
            ResultsKind::Baseline,
            &["frozenlake", "cliffwalking", "taxi"],
            false,
            3,
        );
        let files = vec![f.clone()];
        let e = &entries(&files)[0];
        let t = table(suite(), &files, e);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(close(t.overall.score.value, f.report.overall.score));
        assert!(close(t.overall.pass_rate.value, f.report.overall.pass_rate));
        assert_eq!(t.by_env.len(), f.report.by_env.len());
        for (mine, theirs) in t.by_env.iter().zip(&f.report.by_env) {
            assert_eq!(mine.name, theirs.name);
            assert_eq!(mine.tasks, theirs.count);
            assert_eq!(mine.episodes.len(), theirs.episodes);
            assert!(close(mine.score.value, theirs.score), "{}", mine.name);
            assert!(
                close(mine.pass_rate.value, theirs.pass_rate),
                "{}",
                mine.name
            );
        }
        assert_eq!(t.by_tag.len(), f.report.by_tag.len());
        for (mine, theirs) in t.by_tag.iter().zip(&f.report.by_tag) {
            assert_eq!(mine.name, theirs.name);
            assert!(close(mine.score.value, theirs.score), "{}", mine.name);
            assert!(
                close(mine.pass_rate.value, theirs.pass_rate),
                "{}",
                mine.name
            );
        }
        // Intervals hold their estimate; every episode is behind the overall number.
        for r in std::iter::once(&t.overall)
            .chain(&t.by_env)
            .chain(&t.by_tag)
        {
            assert!(r.score.low <= r.score.value && r.score.value <= r.score.high);
            assert!(r.pass_rate.low <= r.pass_rate.value && r.pass_rate.value <= r.pass_rate.high);
        }
        assert_eq!(t.overall.episodes.len(), f.episodes.len());
        assert_eq!(table(suite(), &files, e), t, "deterministic");
    }

    #[test]
    fn an_all_passing_run_has_a_degenerate_pass_interval_and_mixed_runs_do_not() {
        let oracle = run_file(
            "oracle",
            ResultsKind::Baseline,
            &["frozenlake-4x4-det"],
            true,
            0,
        );
        let files = vec![oracle];
        let t = table(suite(), &files, &entries(&files)[0]);
        assert_eq!(t.overall.pass_rate.low, 1.0);
        assert_eq!(t.overall.pass_rate.high, 1.0);

        let random = run_file("random", ResultsKind::Baseline, &["frozenlake"], false, 5);
        let files = vec![random];
        let t = table(suite(), &files, &entries(&files)[0]);
        let lake = &t.by_env[0];
        assert_eq!(lake.name, "FrozenLake-v1");
        assert!(lake.score.high > lake.score.low, "{lake:?}");
    }

    #[test]
    fn cells_read_as_numbers_with_intervals() {
        let e = Estimate {
            value: 72.44,
            low: 65.06,
            high: 80.0,
        };
        assert_eq!(score_text(&e), "72.4 [65.1, 80.0]");
        let p = Estimate {
            value: 0.6,
            low: 0.4,
            high: 0.8,
        };
        assert_eq!(pass_text(&p), "60% [40, 80]");
    }
}
