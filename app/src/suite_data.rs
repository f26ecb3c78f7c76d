//! The built-in suites as the app sees them, a thin layer over `bench::suites`: the
//! suite a page's `?suite=ID` names (the default suite when none, each at its latest
//! version), task lookup with suggestions for a mistyped id, the committed baselines,
//! and the errors a link can run into, each with a message for people.

use std::fmt;

use bench::report::{Report, Row};
use bench::suites::{SuiteError, DEFAULT_SUITE};
use bench::{Suite, Task};

/// The suite a `?suite=` value names (surrounding spaces ignored; missing or empty: the
/// default suite), at its latest version.
pub fn suite_for(id: Option<&str>) -> Result<&'static Suite, TaskLoadError> {
    let id = id
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or(DEFAULT_SUITE);
    bench::suites::latest(id).map_err(|e| match e {
        SuiteError::Unknown { id } => TaskLoadError::UnknownSuite(id),
        other => TaskLoadError::SuiteUnavailable(other.to_string()),
    })
}

/// The default suite (`bench::suites::DEFAULT_SUITE`, latest version).
pub fn suite() -> Result<&'static Suite, String> {
    suite_for(None).map_err(|e| e.to_string())
}

/// One built-in suite, as `/suite` lists them.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteSummary {
    pub id: &'static str,
    /// The latest version (what links without a version use).
    pub version: u32,
    /// Every version this build can still verify.
    pub versions: Vec<u32>,
    pub description: String,
    pub tasks: usize,
    pub envs: usize,
}

/// Every built-in suite, in display order (a broken one is left out).
pub fn listing() -> Vec<SuiteSummary> {
    bench::suites::ids()
        .into_iter()
        .filter_map(|id| {
            let s = bench::suites::latest(id).ok()?;
            let mut envs: Vec<&str> = s.tasks.iter().map(|t| t.env.as_str()).collect();
            envs.sort_unstable();
            envs.dedup();
            Some(SuiteSummary {
                id,
                version: s.version,
                versions: bench::suites::versions(id),
                description: s.description.clone(),
                tasks: s.tasks.len(),
                envs: envs.len(),
            })
        })
        .collect()
}

/// A task of `suite` by id (surrounding spaces ignored).
pub fn find_task<'a>(suite: &'a Suite, id: &str) -> Result<&'a Task, TaskLoadError> {
    let id = id.trim();
    if id.is_empty() {
        return Err(TaskLoadError::MissingId);
    }
    suite.task(id).ok_or_else(|| TaskLoadError::UnknownTask {
        id: id.to_string(),
        suite: suite.id.clone(),
        suggestions: suggestions(suite, id),
    })
}

/// Up to five ids close to a mistyped one: same stem (the id without its seed part),
/// then ids that contain it or that it contains.
pub fn suggestions(suite: &Suite, id: &str) -> Vec<String> {
    let wanted = id.to_ascii_lowercase();
    let stem = |s: &str| -> String {
        match s.rfind("-s") {
            Some(i) => s[..i].to_string(),
            None => s.to_string(),
        }
    };
    let wanted_stem = stem(&wanted);
    let mut out: Vec<String> = Vec::new();
    let mut push = |id: &str| {
        if out.len() < 5 && !out.iter().any(|o| o == id) {
            out.push(id.to_string());
        }
    };
    for t in &suite.tasks {
        if !wanted_stem.is_empty() && stem(&t.id.to_ascii_lowercase()) == wanted_stem {
            push(&t.id);
        }
    }
    for t in &suite.tasks {
        let lower = t.id.to_ascii_lowercase();
        if wanted.len() >= 3 && (lower.contains(&wanted) || wanted.contains(&lower)) {
            push(&t.id);
        }
    }
    out
}

/// Why a suite or task link cannot be shown or played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TaskLoadError {
    /// No `id=` in the query.
    MissingId,
    /// No task of the suite has this id.
    UnknownTask {
        id: String,
        suite: String,
        suggestions: Vec<String>,
    },
    /// `suite=` names no built-in suite.
    UnknownSuite(String),
    /// A built-in suite did not parse (the parser's message).
    SuiteUnavailable(String),
    /// The task's environment could not be started (its message).
    CannotStart { id: String, why: String },
}

impl TaskLoadError {
    pub fn title(&self) -> &'static str {
        match self {
            Self::MissingId => "No task chosen",
            Self::UnknownTask { .. } => "Unknown task",
            Self::UnknownSuite(_) => "Unknown suite",
            Self::SuiteUnavailable(_) => "The suite could not be loaded",
            Self::CannotStart { .. } => "The task could not start",
        }
    }

    /// Ids to offer instead (for an unknown id).
    pub fn suggestions(&self) -> &[String] {
        match self {
            Self::UnknownTask { suggestions, .. } => suggestions,
            _ => &[],
        }
    }
}

impl fmt::Display for TaskLoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MissingId => write!(f, "The link names no task: add ?id=TASK-ID."),
            Self::UnknownTask { id, suite, .. } => {
                write!(f, "There is no task called {id:?} in the suite {suite}.")
            }
            Self::UnknownSuite(id) => write!(
                f,
                "There is no built-in suite called {id:?} (built in: {}).",
                bench::suites::ids().join(", ")
            ),
            Self::SuiteUnavailable(why) => write!(f, "The built-in suite is broken: {why}."),
            Self::CannotStart { id, why } => write!(f, "Task {id:?} could not start: {why}."),
        }
    }
}

impl std::error::Error for TaskLoadError {}

/// A baseline report, `None` while it holds no episodes (a placeholder file).
pub fn parse_baseline(json: &str) -> Result<Option<Report>, String> {
    let report: Report = serde_json::from_str(json).map_err(|e| e.to_string())?;
    Ok(non_empty(report))
}

fn non_empty(report: Report) -> Option<Report> {
    (report.overall.episodes > 0 || !report.by_env.is_empty()).then_some(report)
}

/// The random and oracle baselines side by side.
#[derive(Clone, Debug, PartialEq)]
pub struct Baselines {
    pub random: Option<Report>,
    pub oracle: Option<Report>,
    /// Reports that could not be read: (which, why).
    pub errors: Vec<(String, String)>,
}

impl Baselines {
    /// The baselines committed with `suite`'s version (none when it has none).
    pub fn of(suite: &Suite) -> Self {
        let none = Self {
            random: None,
            oracle: None,
            errors: Vec::new(),
        };
        match bench::suites::baselines(&suite.id, suite.version) {
            None => none,
            Some(Ok((random, oracle))) => Self {
                random: non_empty(random),
                oracle: non_empty(oracle),
                errors: Vec::new(),
            },
            Some(Err(e)) => Self {
                errors: vec![("baselines".to_string(), e)],
                ..none
            },
        }
    }

    pub fn from_json(random: &str, oracle: &str) -> Self {
        let mut errors = Vec::new();
        let mut read = |name: &str, json: &str| match parse_baseline(json) {
            Ok(r) => r,
            Err(e) => {
                errors.push((name.to_string(), e));
                None
            }
        };
        let random = read("random", random);
        let oracle = read("oracle", oracle);
        Self {
            random,
            oracle,
            errors,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.random.is_none() && self.oracle.is_none()
    }

    /// Overall, per environment and per tag, each row with both agents' results; the
    /// environments and the family tags in the suite's order (`env_order`,
    /// `family_order`), anything else after them.
    pub fn sections_in_order(
        &self,
        env_order: &[String],
        family_order: &[String],
    ) -> Vec<BaselineSection> {
        let rank = |order: &[String], name: &str| {
            order.iter().position(|e| e == name).unwrap_or(usize::MAX)
        };
        let mut sections = self.sections();
        if let Some(envs) = sections.get_mut(1) {
            envs.rows.sort_by_key(|r| rank(env_order, &r.name));
        }
        if let Some(tags) = sections.get_mut(2) {
            tags.rows
                .sort_by_key(|r| match r.name.strip_prefix("family: ") {
                    Some(f) => (1, rank(family_order, f), String::new()),
                    None => (0, 0, r.name.clone()),
                });
        }
        sections
    }

    /// Overall, per environment and per tag, each row with both agents' results.
    pub fn sections(&self) -> Vec<BaselineSection> {
        let pick = |f: fn(&Report) -> Vec<Row>| -> Vec<BaselineRow> {
            let random = self.random.as_ref().map(f).unwrap_or_default();
            let oracle = self.oracle.as_ref().map(f).unwrap_or_default();
            let mut names: Vec<String> = Vec::new();
            for r in oracle.iter().chain(&random) {
                if !names.contains(&r.name) {
                    names.push(r.name.clone());
                }
            }
            names
                .into_iter()
                .map(|name| BaselineRow {
                    random: random.iter().find(|r| r.name == name).cloned(),
                    oracle: oracle.iter().find(|r| r.name == name).cloned(),
                    name,
                })
                .collect()
        };
        vec![
            BaselineSection {
                title: "Overall (environments weighted equally)",
                rows: pick(|r| vec![r.overall.clone()]),
            },
            BaselineSection {
                title: "Per environment",
                rows: pick(|r| r.by_env.clone()),
            },
            BaselineSection {
                title: "Per tag",
                // Memory, dynamics and extra tags first, then the families.
                rows: {
                    let mut rows = pick(|r| r.by_tag.clone());
                    rows.sort_by_key(|r| r.name.starts_with("family: "));
                    rows
                },
            },
        ]
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct BaselineSection {
    pub title: &'static str,
    pub rows: Vec<BaselineRow>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BaselineRow {
    pub name: String,
    pub random: Option<Row>,
    pub oracle: Option<Row>,
}

/// A 0-100 score with one decimal, or a dash.
pub fn score_cell(row: Option<&Row>) -> String {
    row.map_or_else(|| "–".to_string(), |r| format!("{:.1}", r.score))
}

/// A pass rate as a whole percentage, or a dash.
pub fn pass_cell(row: Option<&Row>) -> String {
    row.map_or_else(
        || "–".to_string(),
        |r| format!("{:.0}%", 100.0 * r.pass_rate),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task_text::tests::{cart_task, lake_task};
    use bench::report::report;
    use bench::{run_episode, Agent, EpisodeRunner, Reply};

    pub fn small_suite() -> Suite {
        Suite {
            format: bench::task::SUITE_FORMAT.into(),
            id: "test-suite".into(),
            version: 1,
            description: String::new(),
            tasks: vec![lake_task(), cart_task()],
        }
    }

    #[test]
    fn every_builtin_suite_and_its_baselines_load() {
        let suite = suite().expect("the committed suite parses");
        assert_eq!(suite.id, DEFAULT_SUITE);
        assert_eq!(suite_for(Some(" ")), Ok(suite));
        let listed = listing();
        assert_eq!(listed.len(), bench::suites::ids().len());
        assert!(!listed.is_empty());
        for l in &listed {
            let s = suite_for(Some(l.id)).unwrap();
            assert_eq!((s.version, s.tasks.len()), (l.version, l.tasks));
            assert!(l.versions.contains(&l.version) && l.envs > 0);
            let b = Baselines::of(s);
            assert!(b.errors.is_empty(), "{:?}", b.errors);
            // Every task can be found by its id.
            for t in &s.tasks {
                assert_eq!(find_task(s, &t.id).map(|f| &f.id), Ok(&t.id));
            }
        }
        assert!(
            !Baselines::of(suite).is_empty(),
            "the default suite has baselines"
        );
        let e = suite_for(Some("nope")).unwrap_err();
        assert_eq!(e.title(), "Unknown suite");
        assert!(e.to_string().contains(DEFAULT_SUITE), "{e}");
    }

    #[test]
    fn lookups_and_their_errors() {
        let s = small_suite();
        assert_eq!(
            find_task(&s, " frozenlake-4x4-det-s0 ").map(|t| t.id.as_str()),
            Ok("frozenlake-4x4-det-s0")
        );
        assert_eq!(find_task(&s, "").err(), Some(TaskLoadError::MissingId));
        let e = find_task(&s, "frozenlake-4x4-det-s9").err().unwrap();
        assert_eq!(e.title(), "Unknown task");
        assert_eq!(e.suggestions(), ["frozenlake-4x4-det-s0"]);
        assert!(e.to_string().contains("frozenlake-4x4-det-s9"));
        assert!(e.to_string().contains("test-suite"));
        let e = find_task(&s, "cartpole").err().unwrap();
        assert_eq!(e.suggestions(), ["cartpole-s1"]);
        let e = find_task(&s, "zz").err().unwrap();
        assert!(e.suggestions().is_empty());
        assert!(TaskLoadError::SuiteUnavailable("x".into())
            .to_string()
            .contains("broken"));
    }

    struct Script(Vec<usize>, usize);
    impl Agent for Script {
        fn name(&self) -> String {
            "script".into()
        }
        fn decide(&mut self, _: &EpisodeRunner) -> Reply {
            self.1 += 1;
            Reply::Act {
                action: self.0.get(self.1 - 1).copied().unwrap_or(0),
                raw: None,
                rejected: Vec::new(),
            }
        }
    }

    #[test]
    fn baselines_merge_rows_by_name() {
        let s = small_suite();
        let win = run_episode(&s.tasks[0], &mut Script(vec![1, 1, 2, 2, 1, 2], 0)).unwrap();
        let lose = run_episode(&s.tasks[0], &mut Script(vec![2, 1], 0)).unwrap();
        let cart = run_episode(&s.tasks[1], &mut Script(vec![0; 30], 0)).unwrap();
        let oracle = report("oracle", "test-suite", &s.tasks, &[win]);
        let random = report("random", "test-suite", &s.tasks, &[lose, cart]);
        let b = Baselines::from_json(
            &serde_json::to_string(&random).unwrap(),
            &serde_json::to_string(&oracle).unwrap(),
        );
        assert!(b.errors.is_empty() && !b.is_empty());
        let sections = b.sections();
        assert_eq!(sections.len(), 3);
        let overall = &sections[0].rows[0];
        assert_eq!(score_cell(overall.oracle.as_ref()), "100.0");
        assert_eq!(pass_cell(overall.oracle.as_ref()), "100%");
        assert_eq!(pass_cell(overall.random.as_ref()), "0%");
        // The oracle only played FrozenLake; CartPole's row has the random result alone.
        let envs: Vec<&str> = sections[1].rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(envs, ["FrozenLake-v1", "CartPole-v1"]);
        assert_eq!(sections[1].rows[1].oracle, None);
        let order = ["CartPole-v1".to_string(), "FrozenLake-v1".to_string()];
        let families = ["CartPole".to_string(), "FrozenLake".to_string()];
        let sorted = b.sections_in_order(&order, &families);
        let envs: Vec<&str> = sorted[1].rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(envs, ["CartPole-v1", "FrozenLake-v1"]);
        let tags: Vec<&str> = sorted[2].rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(
            tags,
            [
                "dynamics: dynamic",
                "dynamics: static",
                "memory: multiple",
                "memory: single",
                "family: CartPole",
                "family: FrozenLake"
            ]
        );
        assert_eq!(score_cell(None), "–");
        assert!(sections[2]
            .rows
            .iter()
            .any(|r| r.name == "dynamics: dynamic"));
    }

    #[test]
    fn placeholder_and_broken_baselines() {
        let empty = serde_json::to_string(&Report::default()).unwrap();
        let b = Baselines::from_json(&empty, "{oops");
        assert!(b.is_empty());
        assert_eq!(b.errors.len(), 1);
        assert_eq!(b.errors[0].0, "oracle");
        assert!(b.sections().iter().all(|s| s.rows.is_empty()));
    }
}
