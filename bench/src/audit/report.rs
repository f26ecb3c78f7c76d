//! The audit report (`docs/audit.md`, "The report"): for every audited model, the
//! failure attribution shares and the transfer labels overall, per environment and
//! per tag. As in the V-ICAL paper's Tables 2 and 3 (and the results table,
//! `docs/vical-protocol.md`, "Aggregation"), an environment's shares are over its
//! episodes and the overall and tag rows weight environments equally.

use serde::{Deserialize, Serialize};

use super::contract::{STAGE_LABELS, STRATEGY_LABELS};
use super::file::AuditedEpisode;

/// One row: shares are fractions (0-1) of the episodes with a verdict for that
/// criterion, absent when there is none.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditRow {
    pub model: String,
    /// `overall`, `environment` or `tag`.
    pub section: String,
    pub name: String,
    /// Environments that contributed (1 for an environment row).
    pub environments: usize,
    pub episodes: usize,
    /// Episodes with an attribution verdict, and the share of each stage in
    /// `STAGE_LABELS` order (knowledge_induction … none).
    pub attributed: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stages: Option<Vec<f64>>,
    /// Episodes with a transfer verdict; the share whose rules transferred; the share
    /// of each strategy label in `STRATEGY_LABELS` order (correct, underfit, overfit).
    pub transfer_audited: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule_successful: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy: Option<Vec<f64>>,
    /// Verdicts missing after every attempt (endpoint failures, broken contracts).
    pub errors: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditReport {
    pub rows: Vec<AuditRow>,
}

/// Label shares over one environment's episodes.
struct EnvShares {
    stages: Option<Vec<f64>>,
    rule: Option<f64>,
    strategy: Option<Vec<f64>>,
}

fn shares(labels: &[&str], seen: &[&str]) -> Option<Vec<f64>> {
    (!seen.is_empty()).then(|| {
        labels
            .iter()
            .map(|l| seen.iter().filter(|s| *s == l).count() as f64 / seen.len() as f64)
            .collect()
    })
}

fn env_shares(episodes: &[&AuditedEpisode]) -> EnvShares {
    let stages: Vec<&str> = episodes
        .iter()
        .filter_map(|e| e.failure_attribution.verdict.as_ref())
        .map(|v| v.player_failure_stage.label.as_str())
        .collect();
    let transfer: Vec<_> = episodes
        .iter()
        .filter_map(|e| e.information_transfer.verdict.as_ref())
        .collect();
    let rules: Vec<&str> = transfer
        .iter()
        .map(|v| v.rule_transfer.label.as_str())
        .collect();
    let strategies: Vec<&str> = transfer
        .iter()
        .map(|v| v.strategy_transfer.label.as_str())
        .collect();
    EnvShares {
        stages: shares(&STAGE_LABELS, &stages),
        rule: shares(&["successful"], &rules).map(|s| s[0]),
        strategy: shares(&STRATEGY_LABELS, &strategies),
    }
}

/// The element-wise mean of the present vectors.
fn mean_of(vs: impl Iterator<Item = Option<Vec<f64>>>) -> Option<Vec<f64>> {
    let present: Vec<Vec<f64>> = vs.flatten().collect();
    let first = present.first()?;
    Some(
        (0..first.len())
            .map(|i| present.iter().map(|v| v[i]).sum::<f64>() / present.len() as f64)
            .collect(),
    )
}

/// A row over `episodes`, environments weighted equally.
fn row(model: &str, section: &str, name: &str, episodes: &[&AuditedEpisode]) -> AuditRow {
    let mut envs: Vec<&str> = episodes.iter().map(|e| e.env.as_str()).collect();
    envs.sort_unstable();
    envs.dedup();
    let per_env: Vec<EnvShares> = envs
        .iter()
        .map(|env| {
            let of: Vec<&AuditedEpisode> =
                episodes.iter().copied().filter(|e| e.env == *env).collect();
            env_shares(&of)
        })
        .collect();
    let errors = episodes
        .iter()
        .map(|e| {
            usize::from(e.information_transfer.error.is_some())
                + usize::from(e.failure_attribution.error.is_some())
        })
        .sum();
    AuditRow {
        model: model.to_string(),
        section: section.to_string(),
        name: name.to_string(),
        environments: envs.len(),
        episodes: episodes.len(),
        attributed: episodes
            .iter()
            .filter(|e| e.failure_attribution.verdict.is_some())
            .count(),
        stages: mean_of(per_env.iter().map(|s| s.stages.clone())),
        transfer_audited: episodes
            .iter()
            .filter(|e| e.information_transfer.verdict.is_some())
            .count(),
        rule_successful: mean_of(per_env.iter().map(|s| s.rule.map(|r| vec![r]))).map(|v| v[0]),
        strategy: mean_of(per_env.iter().map(|s| s.strategy.clone())),
        errors,
    }
}

fn distinct<'a>(items: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut v: Vec<&str> = Vec::new();
    for i in items {
        if !v.contains(&i) {
            v.push(i);
        }
    }
    v
}

/// The report over audited episodes (of one or several audit files): per model, an
/// overall row, one row per environment and one per tag.
pub fn audit_report(episodes: &[AuditedEpisode]) -> AuditReport {
    let mut rows = Vec::new();
    for model in distinct(episodes.iter().map(|e| e.agent.as_str())) {
        let of: Vec<&AuditedEpisode> = episodes.iter().filter(|e| e.agent == model).collect();
        rows.push(row(
            model,
            "overall",
            "Overall (environments weighted equally)",
            &of,
        ));
        let mut envs = distinct(of.iter().map(|e| e.env.as_str()));
        envs.sort_unstable();
        for env in envs {
            let in_env: Vec<&AuditedEpisode> =
                of.iter().copied().filter(|e| e.env == env).collect();
            rows.push(row(model, "environment", env, &in_env));
        }
        let mut tags = distinct(of.iter().flat_map(|e| e.tags.iter().map(String::as_str)));
        tags.sort_unstable();
        for tag in tags {
            let with: Vec<&AuditedEpisode> = of
                .iter()
                .copied()
                .filter(|e| e.tags.iter().any(|t| t == tag))
                .collect();
            rows.push(row(model, "tag", tag, &with));
        }
    }
    AuditReport { rows }
}

fn pct(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_string(), |v| format!("{:.1}", v * 100.0))
}

fn pcts(v: &Option<Vec<f64>>, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| pct(v.as_ref().and_then(|v| v.get(i).copied())))
        .collect()
}

/// The report as a text table (percentages), one block per model: the attribution
/// stages, then the rule transfer success and the strategy labels.
pub fn format_audit_table(r: &AuditReport) -> String {
    let line = |cells: &[String]| {
        let mut l = format!("{:<44}", cells[0]);
        for (i, c) in cells[1..].iter().enumerate() {
            l.push_str(if i == 6 { " | " } else { " " });
            l.push_str(&format!("{c:>7}"));
        }
        l.push('\n');
        l
    };
    let mut out = String::new();
    let mut model = None;
    for row in &r.rows {
        if model != Some(row.model.as_str()) {
            model = Some(row.model.as_str());
            let head = [
                "shares in %",
                "episodes",
                "know",
                "ground",
                "plan",
                "commit",
                "none",
                "rule",
                "correct",
                "under",
                "over",
                "errors",
            ];
            out.push_str(&format!("{}\n", row.model));
            out.push_str(&line(&head.map(String::from)));
        }
        let stages = pcts(&row.stages, 5);
        let strategy = pcts(&row.strategy, 3);
        let name = if row.section == "overall" {
            row.name.clone()
        } else {
            format!("  {}", row.name)
        };
        let mut cells = vec![name, row.episodes.to_string()];
        cells.extend(stages);
        cells.push(pct(row.rule_successful));
        cells.extend(strategy);
        cells.push(row.errors.to_string());
        out.push_str(&line(&cells));
    }
    out
}
