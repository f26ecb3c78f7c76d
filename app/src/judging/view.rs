//! What `/judge` shows of a judge file (`playbench-judge/1`): the agreement report as a
//! table (the rows and figures of `playbench judge --report`), each episode's judge
//! and exact scores with every milestone's two answers and the judge's evidence, and
//! the disagreements with links to the replay viewer at the decision that reached the
//! milestone.

use bench::judge::agreement::Agreement;
use bench::judge::file::{JudgeFile, JudgedEpisode, MilestoneCheck};
use bench::judge::report::{Disagreement, JudgeReport};

/// The report table's columns after the row's name.
pub const REPORT_COLUMNS: [&str; 6] = [
    "Episodes",
    "Milestones",
    "Agreement %",
    "False completions",
    "Missed completions",
    "Kappa",
];

/// One row of the report table.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportRow {
    pub name: String,
    pub cells: Vec<String>,
}

/// A share (0-1) as a percentage with one decimal, `-` when absent (the CLI's table).
pub fn percent(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{:.1}", 100.0 * v))
}

fn kappa(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{v:.2}"))
}

fn row(name: &str, episodes: usize, a: &Agreement) -> ReportRow {
    ReportRow {
        name: name.to_string(),
        cells: vec![
            episodes.to_string(),
            a.milestones.to_string(),
            percent(a.agreement_rate),
            a.false_completions.to_string(),
            a.missed_completions.to_string(),
            kappa(a.kappa),
        ],
    }
}

/// The overall row (over the judged, unflagged episodes) and one per environment.
pub fn report_rows(r: &JudgeReport) -> Vec<ReportRow> {
    let mut rows = vec![row(
        "Overall",
        r.judged.saturating_sub(r.flagged),
        &r.overall,
    )];
    rows.extend(
        r.per_env
            .iter()
            .map(|e| row(&e.env, e.episodes, &e.agreement)),
    );
    rows
}

/// `11 episodes (judged 10, flagged 1, errors 0); judge score 45.5 %, exact score
/// 98.7 %`.
pub fn report_summary(r: &JudgeReport) -> String {
    format!(
        "{} episodes (judged {}, flagged {}, errors {}); judge score {} %, exact score {} %",
        r.episodes,
        r.judged,
        r.flagged,
        r.errors,
        percent(r.judge_score),
        percent(r.exact_score)
    )
}

fn answer(v: Option<bool>) -> &'static str {
    match v {
        Some(true) => "completed",
        Some(false) => "not completed",
        None => "-",
    }
}

/// One milestone of an episode.
#[derive(Clone, Debug, PartialEq)]
pub struct MilestoneView {
    pub title: String,
    pub judge: &'static str,
    /// `completed at decision 4`, `not completed`, or `-` without a predicate.
    pub exact: String,
    /// Both answered and differ.
    pub disagrees: bool,
    pub evidence: String,
}

fn milestone_view(m: &MilestoneCheck) -> MilestoneView {
    let exact = match (m.exact, m.exact_step) {
        (Some(true), Some(step)) => format!("completed at decision {step}"),
        (e, _) => answer(e).to_string(),
    };
    MilestoneView {
        title: m.title.clone(),
        judge: answer(m.judge),
        exact,
        disagrees: matches!((m.judge, m.exact), (Some(j), Some(e)) if j != e),
        evidence: m.evidence.clone(),
    }
}

/// One episode as the page lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct EpisodeView {
    /// `Episode 1 · maze-s1 · oracle`.
    pub title: String,
    /// `judge 3 of 5 (60.0 %) · exact 5 of 5 (100.0 %) · 7 of 7 frames sent`, or why
    /// there is no judgment.
    pub scores: String,
    pub flagged: bool,
    pub error: Option<String>,
    pub problems: Vec<String>,
    pub milestones: Vec<MilestoneView>,
    pub link: Option<String>,
}

fn count(e: &JudgedEpisode, answer: impl Fn(&MilestoneCheck) -> Option<bool>) -> usize {
    e.milestones
        .iter()
        .filter(|m| answer(m) == Some(true))
        .count()
}

fn episode_view(e: &JudgedEpisode) -> EpisodeView {
    let total = e.milestones.len();
    let scores = match (&e.error, e.flagged) {
        (Some(err), _) => format!("no judgment: {err}"),
        (None, true) => format!(
            "flagged, judge score 0: {} unparsable replies · exact {} of {total} ({} %)",
            e.problems.len(),
            count(e, |m| m.exact),
            percent(e.exact_score())
        ),
        (None, false) => format!(
            "judge {} of {total} ({} %) · exact {} of {total} ({} %) · {} of {} frames sent",
            count(e, |m| m.judge),
            percent(e.judge_score()),
            count(e, |m| m.exact),
            percent(e.exact_score()),
            e.frames_sent,
            e.frames_total
        ),
    };
    EpisodeView {
        title: format!("Episode {} · {} · {}", e.index + 1, e.task, e.agent),
        scores,
        flagged: e.flagged,
        error: e.error.clone(),
        problems: e.problems.clone(),
        milestones: e.milestones.iter().map(milestone_view).collect(),
        link: e.link.clone(),
    }
}

pub fn episode_views(file: &JudgeFile) -> Vec<EpisodeView> {
    file.episodes.iter().map(episode_view).collect()
}

/// `Episode 2 (maze-s1), milestone 3 "Reach the flag": judge completed, exact not
/// completed`.
pub fn disagreement_text(d: &Disagreement) -> String {
    format!(
        "Episode {} ({}), milestone {} {:?}: judge {}, exact {}",
        d.episode + 1,
        d.task,
        d.milestone,
        d.title,
        answer(Some(d.judge)),
        answer(Some(!d.judge))
    )
}

/// The download's name: `playbench-judge-<model>.json`.
pub fn judge_file_name(file: &JudgeFile) -> String {
    format!(
        "playbench-judge-{}.json",
        crate::auditor::view::model_slug(&file.judge)
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use bench::agents::{OracleAgent, RandomAgent};
    use bench::encode::ImageEncoder;
    use bench::judge::run::{JudgeRun, JudgeSource, JudgeStep};
    use bench::protocol::endpoint::Endpoint;
    use bench::protocol::providers::{Provider, Sampling};
    use bench::results::{ResultEpisode, ResultsFile, ResultsKind};
    use bench::share::{EpisodeFile, TaskRef};
    use bench::{run_episode, EpisodeRecord};

    fn suite() -> &'static bench::Suite {
        bench::suites::latest("gameverse").unwrap()
    }

    fn record(task: &str, oracle: bool) -> EpisodeRecord {
        let t = suite().task(task).unwrap();
        if oracle {
            run_episode(t, &mut OracleAgent::new()).unwrap()
        } else {
            run_episode(t, &mut RandomAgent::new(1)).unwrap()
        }
    }

    /// The oracle's (or a random player's) episode of a `gameverse` task.
    pub fn episode_file(task: &str, oracle: bool) -> EpisodeFile {
        EpisodeFile::from_record(TaskRef::in_suite(suite(), task), record(task, oracle), None)
    }

    /// The oracle's and a random player's Maze episodes as a baseline's results file.
    pub fn results_file() -> ResultsFile {
        ResultsFile::new(
            "maze",
            ResultsKind::Baseline,
            "oracle",
            suite(),
            None,
            [true, false]
                .into_iter()
                .map(|oracle| ResultEpisode {
                    record: record("maze-s1", oracle),
                    repeat: 0,
                    usage: None,
                })
                .collect(),
        )
    }

    /// The judge's verdict on `n` milestones: the even ones completed.
    fn verdict(n: usize) -> String {
        let matches: Vec<_> = (0..n)
            .map(|i| {
                serde_json::json!({"milestone_index": i, "completed": i % 2 == 0, "evidence": format!("seen {i}")})
            })
            .collect();
        let reply = serde_json::json!({"milestone_matches": matches}).to_string();
        serde_json::json!({"choices": [{"message": {"content": reply}}]}).to_string()
    }

    /// The two Maze episodes judged by canned replies.
    pub fn judged() -> JudgeFile {
        let endpoint = Endpoint {
            provider: Provider::OpenAi,
            base_url: "http://x/v1".into(),
            sampling: Sampling {
                model: "judge".into(),
                temperature: None,
                max_output_tokens: None,
            },
            headers: vec![],
        };
        let source = JudgeSource::from_results(&results_file()).unwrap();
        let mut run = JudgeRun::new(source, endpoint, 100);
        let mut enc = ImageEncoder::new(Default::default());
        while let JudgeStep::Send { .. } = run.next(&mut enc, None) {
            run.on_response(200, None, 0, &verdict(5), 1.0, None);
        }
        run.file().clone()
    }

    #[test]
    fn the_report_and_episodes_read_as_the_cli_table_does() {
        let file = judged();
        let r = &file.report;
        let rows = report_rows(r);
        assert_eq!(rows[0].name, "Overall");
        assert_eq!(rows[1].name, "GameVerse/Maze");
        assert_eq!(rows[0].cells[0], "2");
        assert_eq!(rows[0].cells[1], "10");
        // The CLI's table has the same figures.
        let table = bench::judge::report::format_judge_table(&file.judge, r);
        let overall = table
            .lines()
            .find(|l| l.trim_start().starts_with("Overall"))
            .unwrap();
        let figures: Vec<&str> = overall.split_whitespace().skip(1).collect();
        assert_eq!(figures, rows[0].cells);
        assert!(table.contains(&format!(
            "episodes {}",
            report_summary(r)
                .split(';')
                .next()
                .unwrap()
                .replace(" episodes", "")
        )));

        let episodes = episode_views(&file);
        assert_eq!(episodes.len(), 2);
        assert_eq!(episodes[0].title, "Episode 1 · maze-s1 · oracle");
        assert!(
            episodes[0]
                .scores
                .starts_with("judge 3 of 5 (60.0 %) · exact 5 of 5 (100.0 %)"),
            "{}",
            episodes[0].scores
        );
        let m = &episodes[0].milestones[1];
        assert_eq!(m.judge, "not completed");
        assert!(m.exact.starts_with("completed at decision "), "{}", m.exact);
        assert!(m.disagrees);
        assert_eq!(m.evidence, "seen 1");
        assert_eq!(
            r.disagreements.len(),
            r.overall.false_completions + r.overall.missed_completions
        );
        assert!(
            disagreement_text(&r.disagreements[0]).starts_with("Episode 1 (maze-s1), milestone 1 ")
        );
        assert_eq!(judge_file_name(&file), "playbench-judge-judge.json");
    }
}
