//! The suite page's filters, kept in its URL after the suite's id
//! (`/suite?suite=S&memory=single&dynamics=dynamic&family=FrozenLake&initialized=1`),
//! and the tasks they leave, grouped by environment.

use bench::task::{Dynamics, Memory};
use bench::{Suite, Task};

use crate::task_text::is_initialized;
use crate::url::{encode_component, parse_flag};

/// Which tasks to show; `None` means any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    pub memory: Option<Memory>,
    pub dynamics: Option<Dynamics>,
    pub family: Option<String>,
    /// `Some(true)`: only the mid-route ("initialized") variants; `Some(false)`: none.
    pub initialized: Option<bool>,
}

/// A filter value the page did not understand (it is ignored, and said so).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilterError {
    pub key: &'static str,
    pub value: String,
    /// What would have been understood.
    pub expected: String,
}

impl std::fmt::Display for FilterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}={:?} is not a filter this suite knows (expected {}).",
            self.key, self.value, self.expected
        )
    }
}

pub fn memory_value(m: Memory) -> &'static str {
    match m {
        Memory::Single => "single",
        Memory::Multiple => "multiple",
    }
}

pub fn dynamics_value(d: Dynamics) -> &'static str {
    match d {
        Dynamics::Static => "static",
        Dynamics::Dynamic => "dynamic",
    }
}

fn present(v: Option<&str>) -> Option<&str> {
    v.map(str::trim).filter(|v| !v.is_empty())
}

impl Filter {
    /// Reads the decoded query values; `families` are the suite's (a family filter must
    /// name one of them, any case). Values not understood are left out and reported.
    pub fn parse(
        memory: Option<&str>,
        dynamics: Option<&str>,
        family: Option<&str>,
        initialized: Option<&str>,
        families: &[String],
    ) -> (Self, Vec<FilterError>) {
        let mut errors = Vec::new();
        let mut f = Self::default();
        if let Some(v) = present(memory) {
            match v.to_ascii_lowercase().as_str() {
                "single" => f.memory = Some(Memory::Single),
                "multiple" => f.memory = Some(Memory::Multiple),
                _ => errors.push(FilterError {
                    key: "memory",
                    value: v.to_string(),
                    expected: "single or multiple".into(),
                }),
            }
        }
        if let Some(v) = present(dynamics) {
            match v.to_ascii_lowercase().as_str() {
                "static" => f.dynamics = Some(Dynamics::Static),
                "dynamic" => f.dynamics = Some(Dynamics::Dynamic),
                _ => errors.push(FilterError {
                    key: "dynamics",
                    value: v.to_string(),
                    expected: "static or dynamic".into(),
                }),
            }
        }
        if let Some(v) = present(family) {
            match families.iter().find(|k| k.eq_ignore_ascii_case(v)) {
                Some(k) => f.family = Some(k.clone()),
                None => errors.push(FilterError {
                    key: "family",
                    value: v.to_string(),
                    expected: "a family of the suite".into(),
                }),
            }
        }
        if let Some(v) = present(initialized) {
            match parse_flag(v) {
                Some(b) => f.initialized = Some(b),
                None => errors.push(FilterError {
                    key: "initialized",
                    value: v.to_string(),
                    expected: "1 or 0".into(),
                }),
            }
        }
        (f, errors)
    }

    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    pub fn matches(&self, task: &Task) -> bool {
        self.memory.is_none_or(|m| task.tags.memory == m)
            && self.dynamics.is_none_or(|d| task.tags.dynamics == d)
            && self.family.as_ref().is_none_or(|f| &task.tags.family == f)
            && self.initialized.is_none_or(|i| is_initialized(task) == i)
    }

    /// The query string without `?` (empty for no filter).
    pub fn query(&self) -> String {
        let mut parts = Vec::new();
        if let Some(m) = self.memory {
            parts.push(format!("memory={}", memory_value(m)));
        }
        if let Some(d) = self.dynamics {
            parts.push(format!("dynamics={}", dynamics_value(d)));
        }
        if let Some(f) = &self.family {
            parts.push(format!("family={}", encode_component(f)));
        }
        if let Some(i) = self.initialized {
            parts.push(format!("initialized={}", u8::from(i)));
        }
        parts.join("&")
    }

    /// The suite page of `suite` with these filters.
    pub fn href(&self, suite: &str) -> String {
        let q = self.query();
        let page = crate::routes::suite_href(suite);
        if q.is_empty() {
            page
        } else {
            format!("{page}&{q}")
        }
    }

    /// The active filters in words, e.g. "dynamics: dynamic, family: FrozenLake".
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(m) = self.memory {
            parts.push(crate::task_text::memory_text(m).to_string());
        }
        if let Some(d) = self.dynamics {
            parts.push(crate::task_text::dynamics_text(d).to_string());
        }
        if let Some(f) = &self.family {
            parts.push(format!("family: {f}"));
        }
        match self.initialized {
            Some(true) => parts.push("initialized only".into()),
            Some(false) => parts.push("not initialized".into()),
            None => {}
        }
        parts.join(", ")
    }
}

/// The suite's families, in order of first appearance.
pub fn families(suite: &Suite) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for t in &suite.tasks {
        if !out.contains(&t.tags.family) {
            out.push(t.tags.family.clone());
        }
    }
    out
}

/// The tasks of one environment that a filter leaves.
#[derive(Clone, Debug, PartialEq)]
pub struct Group<'a> {
    /// The canonical environment id (aliases folded).
    pub env_id: String,
    pub tasks: Vec<&'a Task>,
}

impl Group<'_> {
    /// A DOM-friendly id, e.g. `env-frozenlake-v1`.
    pub fn slug(&self) -> String {
        let s: String = self
            .env_id
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        format!("env-{s}")
    }

    /// "6 tasks" / "1 task".
    pub fn count_text(&self) -> String {
        match self.tasks.len() {
            1 => "1 task".into(),
            n => format!("{n} tasks"),
        }
    }
}

/// The tasks `filter` leaves, grouped by environment in suite order.
pub fn groups<'a>(suite: &'a Suite, filter: &Filter) -> Vec<Group<'a>> {
    let mut out: Vec<Group<'a>> = Vec::new();
    for t in suite.tasks.iter().filter(|t| filter.matches(t)) {
        let env_id = envs::spec(&t.env).map_or_else(|| t.env.clone(), |s| s.id.to_string());
        match out.iter_mut().find(|g| g.env_id == env_id) {
            Some(g) => g.tasks.push(t),
            None => out.push(Group {
                env_id,
                tasks: vec![t],
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task_text::tests::{cart_task, lake_task};

    fn suite() -> Suite {
        let mut mid = lake_task();
        mid.id = "frozenlake-4x4-det-s0-mid".into();
        mid.prefix = vec!["Down".into(), "Down".into()];
        mid.tags.extra.push("initialized".into());
        Suite {
            format: bench::task::SUITE_FORMAT.into(),
            id: "t".into(),
            version: 1,
            description: String::new(),
            tasks: vec![lake_task(), cart_task(), mid],
        }
    }

    fn ids(suite: &Suite, f: &Filter) -> Vec<String> {
        groups(suite, f)
            .iter()
            .flat_map(|g| g.tasks.iter().map(|t| t.id.clone()))
            .collect()
    }

    #[test]
    fn filters_by_every_tag() {
        let s = suite();
        let fams = families(&s);
        assert_eq!(fams, ["FrozenLake", "CartPole"]);
        let all = ids(&s, &Filter::default());
        assert_eq!(all.len(), 3);
        let (f, e) = Filter::parse(None, Some("dynamic"), None, None, &fams);
        assert!(e.is_empty());
        assert_eq!(ids(&s, &f), ["cartpole-s1"]);
        let (f, _) = Filter::parse(Some("single"), None, None, None, &fams);
        assert_eq!(ids(&s, &f).len(), 2);
        let (f, _) = Filter::parse(None, None, Some("frozenlake"), Some("1"), &fams);
        assert_eq!(f.family.as_deref(), Some("FrozenLake"));
        assert_eq!(ids(&s, &f), ["frozenlake-4x4-det-s0-mid"]);
        let (f, _) = Filter::parse(None, None, None, Some("0"), &fams);
        assert_eq!(ids(&s, &f), ["frozenlake-4x4-det-s0", "cartpole-s1"]);
        let (f, _) = Filter::parse(Some("multiple"), Some("static"), None, None, &fams);
        assert!(groups(&s, &f).is_empty());
    }

    #[test]
    fn groups_follow_suite_order_by_environment() {
        let s = suite();
        let g = groups(&s, &Filter::default());
        let envs: Vec<&str> = g.iter().map(|g| g.env_id.as_str()).collect();
        assert_eq!(envs, ["FrozenLake-v1", "CartPole-v1"]);
        assert_eq!(g[0].tasks.len(), 2);
        assert_eq!(g[0].count_text(), "2 tasks");
        assert_eq!(g[1].count_text(), "1 task");
        assert_eq!(g[0].slug(), "env-frozenlake-v1");
    }

    #[test]
    fn queries_round_trip_and_bad_values_are_reported() {
        let fams = vec!["MiniGrid-Lava Crossing".to_string()];
        let f = Filter {
            memory: Some(Memory::Multiple),
            dynamics: Some(Dynamics::Static),
            family: Some(fams[0].clone()),
            initialized: Some(false),
        };
        let q = f.query();
        assert_eq!(
            q,
            "memory=multiple&dynamics=static&family=MiniGrid-Lava%20Crossing&initialized=0"
        );
        let pairs = crate::url::decode_search(&q);
        let get = |k: &str| pairs.iter().find(|(p, _)| p == k).map(|(_, v)| v.as_str());
        let (back, e) = Filter::parse(
            get("memory"),
            get("dynamics"),
            get("family"),
            get("initialized"),
            &fams,
        );
        assert!(e.is_empty());
        assert_eq!(back, f);
        assert_eq!(Filter::default().href("s"), "/suite?suite=s");
        assert!(f.href("s").starts_with("/suite?suite=s&memory="));
        assert_eq!(
            f.describe(),
            "memory: multiple, dynamics: static, family: MiniGrid-Lava Crossing, not initialized"
        );

        let (f, e) = Filter::parse(Some("lots"), Some(" "), Some("Chess"), Some("maybe"), &fams);
        assert!(f.is_empty());
        let keys: Vec<&str> = e.iter().map(|e| e.key).collect();
        assert_eq!(keys, ["memory", "family", "initialized"]);
        assert!(e[0].to_string().contains("single or multiple"));
    }
}
