//! Results files: a set of episodes on the built-in suite (a model's suite run, a
//! human participant's study, a baseline) with the table computed from them, the run
//! configuration (credentials stripped) and, for models, token use and cost. One
//! format for the browser's exports, the command line and the comparison page.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::episode::EpisodeRecord;
use super::report::{report, Report, Row};
use super::share::{
    resolve_task, strip_secrets, EpisodeFile, ShareError, SuiteTask, TaskRef, ENVS_VERSION,
};
use super::task::{Suite, TaskError};

pub const RESULTS_FORMAT: &str = "playbench-results/1";

/// Who produced the episodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultsKind {
    Model,
    Human,
    Baseline,
}

/// Requests, tokens, time and money spent on one episode (or summed over many).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    pub requests: u32,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Time spent waiting for the model, in milliseconds.
    pub latency_ms: u64,
    /// In US dollars, when prices were configured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
}

impl Usage {
    /// `12 requests · 3400 input / 120 output tokens · $0.0123`.
    pub fn summary(&self) -> String {
        format!(
            "{} requests · {} input / {} output tokens{}",
            self.requests,
            self.input_tokens,
            self.output_tokens,
            self.cost_usd
                .map(|c| format!(" · ${c:.4}"))
                .unwrap_or_default()
        )
    }

    /// One request sent and answered (or failed) after `latency_ms`.
    pub fn count_request(&mut self, latency_ms: f64) {
        self.requests += 1;
        self.latency_ms += latency_ms.round() as u64;
    }

    /// The tokens an answer reported, if it did.
    pub fn count_tokens(&mut self, tokens: Option<(u64, u64)>) {
        if let Some((i, o)) = tokens {
            self.input_tokens += i;
            self.output_tokens += o;
        }
    }

    pub fn add(&mut self, other: &Usage) {
        self.requests += other.requests;
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
        self.latency_ms += other.latency_ms;
        self.cost_usd = match (self.cost_usd, other.cost_usd) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
        };
    }
}

/// One episode of a results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultEpisode {
    pub record: EpisodeRecord,
    /// 0-based repetition of the task within the run.
    #[serde(default)]
    pub repeat: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultsFile {
    pub format: String,
    /// A display name, e.g. `gpt-4o (openai)` or `Human study: pilot`.
    pub label: String,
    pub kind: ResultsKind,
    pub agent: String,
    pub suite: String,
    pub suite_version: u32,
    pub envs_version: String,
    /// The run configuration, credentials stripped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<Map<String, Value>>,
    pub episodes: Vec<ResultEpisode>,
    /// Summed over the episodes that have usage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// Computed from `episodes` (recomputed on reading).
    pub report: Report,
}

fn field_err(field: &str, message: impl Into<String>) -> ShareError {
    ShareError::Field(TaskError {
        field: field.into(),
        message: message.into(),
    })
}

impl ResultsFile {
    /// Results of `episodes` on `suite`; the report and usage totals are computed here.
    pub fn new(
        label: &str,
        kind: ResultsKind,
        agent: &str,
        suite: &Suite,
        config: Option<Map<String, Value>>,
        episodes: Vec<ResultEpisode>,
    ) -> Self {
        let mut file = Self {
            format: RESULTS_FORMAT.to_string(),
            label: label.to_string(),
            kind,
            agent: agent.to_string(),
            suite: suite.id.clone(),
            suite_version: suite.version,
            envs_version: ENVS_VERSION.to_string(),
            config,
            episodes,
            usage: None,
            report: Report::default(),
        };
        file.refresh(suite);
        file
    }

    /// Recomputes the derived fields and strips credentials from the configuration.
    fn refresh(&mut self, suite: &Suite) {
        if let Some(c) = &mut self.config {
            let mut v = Value::Object(std::mem::take(c));
            strip_secrets(&mut v);
            if let Value::Object(m) = v {
                *c = m;
            }
        }
        let records: Vec<EpisodeRecord> = self.episodes.iter().map(|e| e.record.clone()).collect();
        self.report = report(
            &self.agent,
            &format!("{} v{}", suite.id, suite.version),
            &suite.tasks,
            &records,
        );
        let mut total: Option<Usage> = None;
        for u in self.episodes.iter().filter_map(|e| e.usage.as_ref()) {
            total.get_or_insert_with(Usage::default).add(u);
        }
        self.usage = total;
    }

    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// Reads a results file made on a built-in suite (any version this build has);
    /// every episode must name one of its tasks. The report is recomputed, so a
    /// hand-edited table is not trusted.
    pub fn from_json(json: &str) -> Result<Self, ShareError> {
        let mut file: ResultsFile = crate::task::parse(json).map_err(ShareError::Field)?;
        if file.format != RESULTS_FORMAT {
            return Err(field_err(
                "format",
                format!("expected {RESULTS_FORMAT:?}, got {:?}", file.format),
            ));
        }
        let suite =
            crate::suites::get(&file.suite, file.suite_version).map_err(ShareError::Suite)?;
        if let Some((i, e)) = file
            .episodes
            .iter()
            .enumerate()
            .find(|(_, e)| suite.task(&e.record.task).is_none())
        {
            return Err(field_err(
                &format!("episodes[{i}].record.task"),
                format!("no task {:?} in {}", e.record.task, suite.id),
            ));
        }
        file.refresh(suite);
        Ok(file)
    }

    /// Episode `index` as a self-contained episode file (for the replay viewer).
    pub fn episode_file(&self, index: usize) -> Option<EpisodeFile> {
        let e = self.episodes.get(index)?;
        Some(EpisodeFile::from_record(
            TaskRef::Suite(SuiteTask {
                suite: self.suite.clone(),
                suite_version: self.suite_version,
                task: e.record.task.clone(),
            }),
            e.record.clone(),
            self.config.clone(),
        ))
    }

    /// The table as CSV (`section,name,tasks,episodes,score,pass_rate`, then outcome
    /// counts and usage), preceded by `#` lines with the label, agent and the run
    /// configuration as JSON.
    pub fn to_csv(&self) -> String {
        let mut out = String::new();
        let config = self
            .config
            .as_ref()
            .map(|c| serde_json::to_string(c).unwrap_or_default())
            .unwrap_or_else(|| "{}".into());
        out.push_str(&format!("# label: {}\n", one_line(&self.label)));
        out.push_str(&format!("# agent: {}\n", one_line(&self.agent)));
        out.push_str(&format!(
            "# suite: {} v{}\n",
            self.suite, self.suite_version
        ));
        out.push_str(&format!("# config: {config}\n"));
        out.push_str("section,name,tasks,episodes,score,pass_rate\n");
        let row = |out: &mut String, section: &str, r: &Row| {
            out.push_str(&format!(
                "{section},{},{},{},{:.2},{:.4}\n",
                csv_field(&r.name),
                r.count,
                r.episodes,
                r.score,
                r.pass_rate
            ));
        };
        row(&mut out, "overall", &self.report.overall);
        self.report
            .by_env
            .iter()
            .for_each(|r| row(&mut out, "environment", r));
        self.report
            .by_tag
            .iter()
            .for_each(|r| row(&mut out, "tag", r));
        for (name, n) in &self.report.failures {
            out.push_str(&format!("outcome,{},,{n},,\n", csv_field(name)));
        }
        if let Some(u) = &self.usage {
            let cost = u.cost_usd.map(|c| format!("{c:.6}")).unwrap_or_default();
            out.push_str(&format!("usage,requests,,{},,\n", u.requests));
            out.push_str(&format!("usage,input_tokens,,{},,\n", u.input_tokens));
            out.push_str(&format!("usage,output_tokens,,{},,\n", u.output_tokens));
            out.push_str(&format!("usage,cost_usd,,{cost},,\n"));
        }
        out
    }
}

fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// Quotes a CSV field when it holds a comma, quote or line break.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// `rules` with the decision budget `old` restated as `new` ("within 24 decisions" →
/// "within 22 decisions"): the rules a fork shows and sends name the budget it has.
fn restate_budget(rules: &str, old: u32, new: u32) -> String {
    let unit = if new == 1 { "decision" } else { "decisions" };
    rules.replace(&format!("{old} decisions"), &format!("{new} {unit}"))
}

/// The task of `file` continued from decision `step`: the first `step` decisions join
/// the prefix (played before the first decision, outside the budget) and the budget
/// shrinks by `step`. Progress-based partial credit counts from the fork point.
pub fn fork_task(file: &EpisodeFile, step: usize) -> Result<super::task::Task, ShareError> {
    let mut task = resolve_task(&file.task)?;
    let decisions = &file.record.decisions;
    if step > decisions.len() {
        return Err(field_err(
            "step",
            format!("the episode has {} decisions", decisions.len()),
        ));
    }
    if let Some(last) = step.checked_sub(1).map(|i| &decisions[i]) {
        if last.terminated || last.truncated {
            return Err(field_err(
                "step",
                format!("the episode ended at decision {step}: fork from an earlier one"),
            ));
        }
    }
    if step as u64 >= u64::from(task.max_steps) {
        return Err(field_err(
            "step",
            "no decisions would be left in the budget",
        ));
    }
    if decisions[..step]
        .iter()
        .any(|d| d.idle_before > 0 || d.latency_ms.is_some())
    {
        // A prefix holds actions only: the idle steps of real-time play cannot be
        // replayed from it.
        return Err(field_err(
            "step",
            "this real-time episode cannot be forked: its idle steps and game time have no place in a prefix",
        ));
    }
    task.prefix
        .extend(decisions[..step].iter().map(|d| d.action.clone()));
    let budget = task.max_steps;
    task.max_steps -= step as u32;
    if step > 0 {
        task.rules = restate_budget(&task.rules, budget, task.max_steps);
        task.id = format!("{}~fork{step}", task.id);
        task.title = format!("{} (from decision {step})", task.title);
    }
    Ok(task)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::RandomAgent;
    use crate::run_episode;
    use crate::suites::core as core_suite;

    fn suite() -> Suite {
        crate::suites::latest(core_suite::SUITE_ID).unwrap().clone()
    }

    fn file(suite: &Suite, n: usize) -> ResultsFile {
        let episodes = suite
            .tasks
            .iter()
            .take(n)
            .map(|t| ResultEpisode {
                record: run_episode(t, &mut RandomAgent::new(3)).unwrap(),
                repeat: 0,
                usage: Some(Usage {
                    requests: 2,
                    input_tokens: 100,
                    output_tokens: 7,
                    latency_ms: 30,
                    cost_usd: Some(0.5),
                }),
            })
            .collect();
        let mut config = Map::new();
        config.insert("model".into(), "m".into());
        config.insert("api_key".into(), "sk-secret".into());
        config.insert("max_output_tokens".into(), 64.into());
        ResultsFile::new(
            "m (openai)",
            ResultsKind::Model,
            "endpoint:m",
            suite,
            Some(config),
            episodes,
        )
    }

    #[test]
    fn round_trips_and_recomputes_the_table() {
        let s = suite();
        let f = file(&s, 5);
        let json = f.to_json();
        assert!(!json.contains("sk-secret"));
        assert!(json.contains("max_output_tokens"));
        let back = ResultsFile::from_json(&json).unwrap();
        assert_eq!(back, f);
        assert_eq!(f.usage.as_ref().unwrap().requests, 10);
        assert_eq!(f.usage.as_ref().unwrap().cost_usd, Some(2.5));
        assert_eq!(f.report.overall.episodes, 5);
        // A doctored table is recomputed from the episodes.
        let doctored = json.replacen("\"pass_rate\": 0.0", "\"pass_rate\": 1.0", 1);
        assert_eq!(ResultsFile::from_json(&doctored).unwrap().report, f.report);
    }

    #[test]
    fn bad_files_name_the_problem() {
        let s = suite();
        let f = file(&s, 1);
        let json = f.to_json();
        let e = ResultsFile::from_json("{}").unwrap_err().to_string();
        assert!(e.contains("format") || e.contains("missing"), "{e}");
        let e = ResultsFile::from_json(&json.replace(RESULTS_FORMAT, "x/1"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("format"), "{e}");
        let task = &f.episodes[0].record.task;
        let e = ResultsFile::from_json(&json.replace(task.as_str(), "nope"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("nope"), "{e}");
    }

    #[test]
    fn csv_has_the_table_and_the_configuration() {
        let s = suite();
        let f = file(&s, 3);
        let csv = f.to_csv();
        assert!(csv.contains("# config: {"));
        assert!(!csv.contains("sk-secret"));
        assert!(csv.contains("\nsection,name,tasks,episodes,score,pass_rate\n"));
        assert!(csv.contains("\noverall,overall,"));
        assert!(csv.contains("\nusage,input_tokens,,300,,\n"));
        assert_eq!(csv_field("a,\"b\""), "\"a,\"\"b\"\"\"");
    }

    #[test]
    fn episodes_open_as_episode_files_that_verify() {
        let s = suite();
        let f = file(&s, 2);
        let ep = f.episode_file(1).unwrap();
        assert!(matches!(
            crate::share::verify(&ep).unwrap(),
            crate::share::Verification::Verified { .. }
        ));
        assert!(f.episode_file(2).is_none());
    }

    #[test]
    fn forks_continue_from_a_decision() {
        let s = suite();
        let t = s.task("frozenlake-4x4-det-s0").unwrap();
        let rec = run_episode(t, &mut crate::agents::OracleAgent::new()).unwrap();
        let ep = EpisodeFile::from_record(
            TaskRef::in_suite(crate::suites::latest(core_suite::SUITE_ID).unwrap(), &t.id),
            rec.clone(),
            None,
        );
        let f = fork_task(&ep, 2).unwrap();
        assert_eq!(f.max_steps, t.max_steps - 2);
        assert_eq!(f.prefix.len(), t.prefix.len() + 2);
        // The fork starts where the episode was after two decisions.
        let runner = crate::EpisodeRunner::start(&f).unwrap();
        let mut frame = envs::Frame::default();
        runner.env().render(&mut frame);
        assert_eq!(
            format!("{:016x}", frame.hash()),
            rec.decisions[1].frame_hash
        );
        // Its rules name the budget it has left.
        let within = |n: u32| format!("within {n} decisions");
        assert!(t.rules.contains(&within(t.max_steps)), "{}", t.rules);
        assert!(f.rules.contains(&within(f.max_steps)), "{}", f.rules);
        assert!(!f.rules.contains(&within(t.max_steps)), "{}", f.rules);
        assert_eq!(restate_budget("all 2 decisions.", 2, 1), "all 1 decision.");
        assert_eq!(fork_task(&ep, 0).unwrap(), *t);
        assert!(fork_task(&ep, rec.decisions.len()).is_err());
        assert!(fork_task(&ep, 99).is_err());
    }
}
