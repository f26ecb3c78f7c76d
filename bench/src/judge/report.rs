//! The judge's report (`docs/judge.md`, "Agreement"): the mean judge and exact scores,
//! the agreement pooled over every judged milestone, per environment and per episode,
//! and every disagreement with the judge's evidence.

use serde::{Deserialize, Serialize};

use super::agreement::{Agreement, Pair};
use super::file::JudgedEpisode;

/// A milestone where the judge and the exact answer differ.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Disagreement {
    pub episode: usize,
    pub task: String,
    pub milestone: usize,
    pub title: String,
    /// The judge's answer (the exact one is its opposite).
    pub judge: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact_step: Option<u32>,
    pub evidence: String,
    /// The replay viewer at the decision that reached the milestone (else at the
    /// episode's start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EpisodeAgreement {
    pub episode: usize,
    pub task: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge_score: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact_score: Option<f64>,
    pub agreement: Agreement,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EnvAgreement {
    pub env: String,
    pub episodes: usize,
    pub agreement: Agreement,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JudgeReport {
    pub episodes: usize,
    /// Episodes with the judge's answers (flagged ones included, scored 0).
    pub judged: usize,
    pub flagged: usize,
    pub errors: usize,
    /// Means over the episodes that have the score (0-1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge_score: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact_score: Option<f64>,
    /// Pooled over every milestone of the judged, unflagged episodes.
    pub overall: Agreement,
    pub per_env: Vec<EnvAgreement>,
    pub per_episode: Vec<EpisodeAgreement>,
    pub disagreements: Vec<Disagreement>,
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let v: Vec<f64> = values.collect();
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

pub fn judge_report(episodes: &[JudgedEpisode]) -> JudgeReport {
    let pooled: Vec<Pair> = episodes.iter().flat_map(JudgedEpisode::pairs).collect();
    let mut envs: Vec<String> = episodes.iter().map(|e| e.env.clone()).collect();
    envs.dedup();
    envs.sort();
    envs.dedup();
    let per_env = envs
        .into_iter()
        .map(|env| {
            let of: Vec<&JudgedEpisode> = episodes.iter().filter(|e| e.env == env).collect();
            let pairs: Vec<Pair> = of.iter().flat_map(|e| e.pairs()).collect();
            EnvAgreement {
                env,
                episodes: of.len(),
                agreement: Agreement::of(&pairs),
            }
        })
        .collect();
    let disagreements = episodes
        .iter()
        .filter(|e| !e.flagged && e.error.is_none())
        .flat_map(|e| {
            e.milestones.iter().enumerate().filter_map(|(i, m)| {
                let (judge, exact) = (m.judge?, m.exact?);
                (judge != exact).then(|| Disagreement {
                    episode: e.index,
                    task: e.task.clone(),
                    milestone: i,
                    title: m.title.clone(),
                    judge,
                    exact_step: m.exact_step,
                    evidence: m.evidence.clone(),
                    link: e
                        .link
                        .as_ref()
                        .map(|l| format!("{l}&t={}", m.exact_step.unwrap_or(0))),
                })
            })
        })
        .collect();
    JudgeReport {
        episodes: episodes.len(),
        judged: episodes
            .iter()
            .filter(|e| e.judge_score().is_some())
            .count(),
        flagged: episodes.iter().filter(|e| e.flagged).count(),
        errors: episodes.iter().filter(|e| e.error.is_some()).count(),
        judge_score: mean(episodes.iter().filter_map(JudgedEpisode::judge_score)),
        exact_score: mean(episodes.iter().filter_map(JudgedEpisode::exact_score)),
        overall: Agreement::of(&pooled),
        per_env,
        per_episode: episodes
            .iter()
            .map(|e| EpisodeAgreement {
                episode: e.index,
                task: e.task.clone(),
                judge_score: e.judge_score(),
                exact_score: e.exact_score(),
                agreement: e.agreement(),
            })
            .collect(),
        disagreements,
    }
}

fn pct(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{:.1}", 100.0 * v))
}

fn kappa(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{v:.2}"))
}

fn row(name: &str, episodes: usize, a: &Agreement) -> String {
    format!(
        "  {name:<28} {episodes:>8} {:>10} {:>9} {:>6} {:>6} {:>6}\n",
        a.milestones,
        pct(a.agreement_rate),
        a.false_completions,
        a.missed_completions,
        kappa(a.kappa)
    )
}

/// The report as a table for people (`playbench judge --report`).
pub fn format_judge_table(judge: &str, r: &JudgeReport) -> String {
    let mut s = format!(
        "{judge}\n  episodes {} (judged {}, flagged {}, errors {}); judge score {} %, exact score {} %\n",
        r.episodes,
        r.judged,
        r.flagged,
        r.errors,
        pct(r.judge_score),
        pct(r.exact_score)
    );
    s.push_str(&format!(
        "  {:<28} {:>8} {:>10} {:>9} {:>6} {:>6} {:>6}\n",
        "", "episodes", "milestones", "agree %", "false", "missed", "kappa"
    ));
    s.push_str(&row(
        "Overall",
        r.judged.saturating_sub(r.flagged),
        &r.overall,
    ));
    for e in &r.per_env {
        s.push_str(&row(&e.env, e.episodes, &e.agreement));
    }
    if !r.disagreements.is_empty() {
        s.push_str("  Disagreements:\n");
        for d in &r.disagreements {
            s.push_str(&format!(
                "    episode {} ({}), milestone {} {:?}: judge {}, exact {}: {}\n",
                d.episode + 1,
                d.task,
                d.milestone,
                d.title,
                if d.judge {
                    "completed"
                } else {
                    "not completed"
                },
                if d.judge {
                    "not completed"
                } else {
                    "completed"
                },
                d.evidence
            ));
        }
    }
    s
}
