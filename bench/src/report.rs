//! Aggregating episodes into the results table (`docs/vical-protocol.md`,
//! "Aggregation"): task scores averaged within each environment, environments weighted
//! equally; pass rates; the same per tag.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::episode::{EpisodeRecord, FailureMode};
use super::latency::LatencyStats;
use super::task::{Dynamics, Memory, Task};

/// Score and pass rate of one group of episodes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub name: String,
    /// Tasks (or environments, for weighted rows) that contributed.
    pub count: usize,
    pub episodes: usize,
    /// Mean 0-100 score.
    pub score: f64,
    /// Fraction of episodes that passed, 0-1.
    pub pass_rate: f64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub agent: String,
    pub suite: String,
    /// Environments weighted equally.
    pub overall: Row,
    pub by_env: Vec<Row>,
    /// `memory: single`, `dynamics: dynamic`, ... each weighted by environment too.
    pub by_tag: Vec<Row>,
    pub failures: BTreeMap<String, usize>,
    /// The model's thinking times where they were game time (real-time tasks whose clock
    /// waits for actions, `crate::latency`), over all such replies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency: Option<LatencyStats>,
}

fn mean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (sum, n) = values
        .into_iter()
        .fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

/// Per-environment rows for a set of (task, episodes) pairs: mean over tasks of each
/// task's mean episode score.
fn env_rows(entries: &[(&Task, Vec<&EpisodeRecord>)]) -> Vec<Row> {
    let mut groups: BTreeMap<String, Vec<&(&Task, Vec<&EpisodeRecord>)>> = BTreeMap::new();
    for e in entries {
        let key = env_name(e.0);
        groups.entry(key).or_default().push(e);
    }
    groups
        .into_iter()
        .map(|(name, tasks)| {
            let episodes: Vec<&EpisodeRecord> =
                tasks.iter().flat_map(|t| t.1.iter().copied()).collect();
            Row {
                name,
                count: tasks.len(),
                episodes: episodes.len(),
                score: mean(tasks.iter().map(|t| mean(t.1.iter().map(|e| e.score)))),
                pass_rate: mean(episodes.iter().map(|e| if e.passed { 1.0 } else { 0.0 })),
            }
        })
        .collect()
}

/// The environment a task is reported under (aliases resolved).
pub fn env_name(task: &Task) -> String {
    envs::registry::spec(&task.env).map_or_else(|| task.env.clone(), |s| s.id.to_string())
}

/// Environments weighted equally.
fn weighted(name: &str, rows: &[Row]) -> Row {
    Row {
        name: name.to_string(),
        count: rows.len(),
        episodes: rows.iter().map(|r| r.episodes).sum(),
        score: mean(rows.iter().map(|r| r.score)),
        pass_rate: mean(rows.iter().map(|r| r.pass_rate)),
    }
}

/// The tag rows a task counts in, as the table names them.
pub fn tag_names(task: &Task) -> Vec<String> {
    let memory = match task.tags.memory {
        Memory::Single => "memory: single",
        Memory::Multiple => "memory: multiple",
    };
    let dynamics = match task.tags.dynamics {
        Dynamics::Static => "dynamics: static",
        Dynamics::Dynamic => "dynamics: dynamic",
    };
    let mut tags = vec![
        memory.to_string(),
        dynamics.to_string(),
        format!("family: {}", task.tags.family),
    ];
    tags.extend(task.tags.extra.iter().map(|t| format!("tag: {t}")));
    tags
}

/// The table for `episodes` of `tasks` (episodes of unknown tasks are ignored).
pub fn report(agent: &str, suite: &str, tasks: &[Task], episodes: &[EpisodeRecord]) -> Report {
    let entries: Vec<(&Task, Vec<&EpisodeRecord>)> = tasks
        .iter()
        .map(|t| {
            (
                t,
                episodes
                    .iter()
                    .filter(|e| e.task == t.id)
                    .collect::<Vec<_>>(),
            )
        })
        .filter(|(_, eps)| !eps.is_empty())
        .collect();
    let by_env = env_rows(&entries);
    let mut tags: BTreeMap<String, Vec<(&Task, Vec<&EpisodeRecord>)>> = BTreeMap::new();
    for (t, eps) in &entries {
        for tag in tag_names(t) {
            tags.entry(tag).or_default().push((t, eps.clone()));
        }
    }
    let by_tag = tags
        .iter()
        .map(|(name, group)| weighted(name, &env_rows(group)))
        .collect();
    let mut failures = BTreeMap::new();
    for e in entries.iter().flat_map(|(_, eps)| eps) {
        let key = match e.failure {
            None => "passed",
            Some(FailureMode::Timeout) => "timeout",
            Some(FailureMode::InvalidAction) => "invalid_action",
            Some(FailureMode::TokenOverflow) => "token_overflow",
            Some(FailureMode::EarlyTermination) => "early_termination",
            Some(FailureMode::ApiError) => "api_error",
        };
        *failures.entry(key.to_string()).or_insert(0) += 1;
    }
    Report {
        agent: agent.to_string(),
        suite: suite.to_string(),
        overall: weighted("overall", &by_env),
        by_env,
        by_tag,
        failures,
        latency: LatencyStats::of(episodes.iter().flat_map(|e| &e.decisions)),
    }
}

/// The report as a fixed-width text table.
pub fn format_table(r: &Report) -> String {
    let mut out = format!(
        "{} on {}\n{:<44} {:>5} {:>8} {:>7} {:>6}\n",
        r.agent, r.suite, "", "tasks", "episodes", "score", "pass"
    );
    let line = |row: &Row| {
        format!(
            "{:<44} {:>5} {:>8} {:>7.1} {:>5.0}%\n",
            row.name,
            row.count,
            row.episodes,
            row.score,
            100.0 * row.pass_rate
        )
    };
    out.push_str(&line(&r.overall));
    out.push_str("-- per environment\n");
    r.by_env.iter().for_each(|row| out.push_str(&line(row)));
    out.push_str("-- per tag (environments weighted equally)\n");
    r.by_tag.iter().for_each(|row| out.push_str(&line(row)));
    let failures: Vec<String> = r.failures.iter().map(|(k, v)| format!("{k} {v}")).collect();
    out.push_str(&format!("-- outcomes: {}\n", failures.join(", ")));
    if let Some(l) = &r.latency {
        out.push_str(&format!("-- thinking time as game time: {}\n", l.summary()));
    }
    out
}
