//! What `/audit` shows of an audit file: the report as table rows (percentages), and
//! every episode with its two verdicts, their justifications, errors and links to the
//! replay viewer.

use bench::audit::file::{AuditFile, CriterionAudit};
use bench::audit::report::{AuditReport, AuditRow};

use crate::task_session::failure_text;

/// The report table's columns after the row name.
pub const REPORT_COLUMNS: [&str; 11] = [
    "Episodes",
    "Knowledge induction",
    "State grounding",
    "Planning",
    "Action commitment",
    "None",
    "Rules transferred",
    "Strategy correct",
    "Underfit",
    "Overfit",
    "Missing verdicts",
];

/// One row of the report table.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportLine {
    /// `overall`, `environment` or `tag`.
    pub section: String,
    pub name: String,
    pub cells: Vec<String>,
}

/// One model's block of the report.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelReport {
    pub model: String,
    pub lines: Vec<ReportLine>,
}

fn pct(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_string(), |v| format!("{:.0}%", v * 100.0))
}

fn line(row: &AuditRow) -> ReportLine {
    let share = |v: &Option<Vec<f64>>, i: usize| pct(v.as_ref().and_then(|v| v.get(i).copied()));
    let mut cells = vec![row.episodes.to_string()];
    cells.extend((0..5).map(|i| share(&row.stages, i)));
    cells.push(pct(row.rule_successful));
    cells.extend((0..3).map(|i| share(&row.strategy, i)));
    cells.push(row.errors.to_string());
    ReportLine {
        section: row.section.clone(),
        name: row.name.clone(),
        cells,
    }
}

/// The report by model, in its order.
pub fn report_tables(report: &AuditReport) -> Vec<ModelReport> {
    let mut out: Vec<ModelReport> = Vec::new();
    for row in &report.rows {
        match out.last_mut() {
            Some(m) if m.model == row.model => m.lines.push(line(row)),
            _ => out.push(ModelReport {
                model: row.model.clone(),
                lines: vec![line(row)],
            }),
        }
    }
    out
}

/// One criterion's verdict as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct VerdictView {
    pub criterion: &'static str,
    /// The labels (`rules successful · strategy underfit`, `planning`), when accepted.
    pub labels: Option<String>,
    pub justification: String,
    /// Why there is no verdict.
    pub error: Option<String>,
    /// Why replies were rejected before (or instead of) the verdict.
    pub problems: Vec<String>,
    /// The replay viewer at the step the verdict points at.
    pub link: Option<String>,
    pub step: u32,
    /// Whether the request is still to be answered.
    pub pending: bool,
}

fn verdict<T>(
    criterion: &'static str,
    a: &CriterionAudit<T>,
    show: impl Fn(&T) -> (String, String),
) -> VerdictView {
    let (labels, justification) = a.verdict.as_ref().map(&show).unzip();
    VerdictView {
        criterion,
        labels,
        justification: justification.unwrap_or_default(),
        error: a.error.clone(),
        problems: a.problems.clone(),
        link: a.link.clone(),
        step: a.step,
        pending: !a.is_settled(),
    }
}

/// One audited episode as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct EpisodeView {
    pub title: String,
    pub outcome: String,
    pub link: Option<String>,
    pub verdicts: Vec<VerdictView>,
}

/// Every episode of the audit so far, in the results file's order.
pub fn episode_views(file: &AuditFile) -> Vec<EpisodeView> {
    file.episodes
        .iter()
        .map(|e| EpisodeView {
            title: format!("{} · repetition {}", e.task, e.repeat + 1),
            outcome: format!(
                "{} · score {:.1} · {} turns",
                if e.passed {
                    "passed".to_string()
                } else {
                    format!("not passed ({})", failure_text(e.failure))
                },
                e.score,
                e.turns
            ),
            link: e.link.clone(),
            verdicts: vec![
                verdict("Information transfer", &e.information_transfer, |v| {
                    (
                        format!(
                            "rules {} · strategy {}",
                            v.rule_transfer.label, v.strategy_transfer.label
                        ),
                        format!(
                            "Rules: {} Strategy: {}",
                            v.rule_transfer.justification, v.strategy_transfer.justification
                        ),
                    )
                }),
                verdict("Failure attribution", &e.failure_attribution, |v| {
                    (
                        v.player_failure_stage.label.clone(),
                        v.player_failure_stage.justification.clone(),
                    )
                }),
            ],
        })
        .collect()
}

/// The download's name: `playbench-audit-<audited model>.json`, safe for file systems.
pub fn audit_file_name(file: &AuditFile) -> String {
    format!("playbench-audit-{}.json", model_slug(&file.agent))
}

/// The model of an agent name (`endpoint:openai:gpt-4o` → `gpt-4o`) as a file-name
/// part: anything but letters, digits, `-` and `.` becomes `_`.
pub fn model_slug(agent: &str) -> String {
    agent
        .rsplit(':')
        .next()
        .unwrap_or("model")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use bench::audit::run::{AuditRun, AuditStep};
    use bench::encode::{FrameEncoder, ImageEncoder};
    use bench::model_episode::{ModelEpisode, Step};
    use bench::protocol::endpoint::{Endpoint, Prices};
    use bench::protocol::providers::{Provider, Sampling};
    use bench::protocol::session::SessionConfig;
    use bench::results::{ResultEpisode, ResultsFile, ResultsKind};

    fn endpoint(model: &str) -> Endpoint {
        Endpoint {
            provider: Provider::OpenAi,
            base_url: "http://x/v1".into(),
            sampling: Sampling {
                model: model.into(),
                temperature: None,
                max_output_tokens: None,
            },
            headers: vec![],
        }
    }

    fn ok(text: &str) -> String {
        serde_json::json!({"choices": [{"message": {"content": text}}]}).to_string()
    }

    /// A model's results file: one FrozenLake episode that falls into a hole.
    pub fn model_results() -> ResultsFile {
        let suite = bench::suites::latest(bench::suites::DEFAULT_SUITE).unwrap();
        let task = suite.task("frozenlake-4x4-det-s0").unwrap();
        let mut e = ModelEpisode::new(
            task,
            endpoint("player"),
            SessionConfig::default(),
            Prices::default(),
        )
        .unwrap();
        let mut enc = ImageEncoder::new(Default::default());
        while let Step::Send { .. } = e.next(&mut enc as &mut dyn FrameEncoder, None) {
            e.on_response(200, None, 0, &ok("[Action: Down]\nsouth"), 1.0, None);
        }
        let record = e.record().cloned().unwrap();
        ResultsFile::new(
            "player (test)",
            ResultsKind::Model,
            "endpoint:openai:player",
            suite,
            None,
            vec![ResultEpisode {
                record,
                repeat: 0,
                usage: None,
            }],
        )
    }

    /// Its audit: a reference, a transfer verdict naming turn 2, a broken attribution.
    pub fn audit_file() -> AuditFile {
        let mut run = AuditRun::new(model_results(), endpoint("auditor")).unwrap();
        let mut enc = ImageEncoder::new(Default::default());
        let replies = [
            r#"{"rules_not_in_basic_rules": ["holes end it"], "strategies": ["go around"]}"#,
            r#"{"rule_transfer": {"label": "unsuccessful", "justification": "walked into the hole at turn 2"}, "strategy_transfer": {"label": "underfit", "justification": "no detour"}}"#,
            "not json",
            "not json",
            "not json",
        ];
        for r in replies {
            let AuditStep::Send { .. } = run.next(&mut enc, None) else {
                panic!("done early")
            };
            run.on_response(200, None, 0, &ok(r), 1.0, None);
        }
        assert_eq!(run.next(&mut enc, None), AuditStep::Done);
        run.file().clone()
    }

    #[test]
    fn the_report_and_the_verdicts_as_the_page_shows_them() {
        let file = audit_file();
        let tables = report_tables(&file.report);
        assert_eq!(tables.len(), 1);
        assert_eq!(tables[0].model, "endpoint:openai:player");
        let overall = &tables[0].lines[0];
        assert_eq!(overall.section, "overall");
        assert_eq!(overall.cells.len(), REPORT_COLUMNS.len());
        // No attribution verdict: its shares are dashes; rules 0 %, underfit 100 %.
        assert_eq!(overall.cells[1], "–");
        assert_eq!(overall.cells[6], "0%");
        assert_eq!(overall.cells[8], "100%");
        assert_eq!(overall.cells[10], "1");
        assert!(tables[0]
            .lines
            .iter()
            .any(|l| l.name == "memory: single" || l.name == "memory: multiple"));

        let views = episode_views(&file);
        assert_eq!(views.len(), 1);
        let v = &views[0];
        assert!(v.title.starts_with("frozenlake-4x4-det-s0 · repetition 1"));
        assert!(
            v.outcome.starts_with("not passed (early termination"),
            "{}",
            v.outcome
        );
        let t = &v.verdicts[0];
        assert_eq!(
            t.labels.as_deref(),
            Some("rules unsuccessful · strategy underfit")
        );
        assert_eq!(t.step, 1);
        assert!(t.link.as_deref().unwrap().ends_with("&t=1"));
        let a = &v.verdicts[1];
        assert_eq!(a.labels, None);
        assert!(!a.pending);
        assert_eq!(a.problems.len(), 3);
        assert!(a
            .error
            .as_deref()
            .unwrap()
            .contains("broke the output contract"));
        assert_eq!(audit_file_name(&file), "playbench-audit-player.json");
    }
}
