//! The study builder's state: what the organiser has chosen so far, kept in
//! the browser's storage (`storage_keys::STUDY_DRAFT`) as JSON, and turned into a [`Study`] and
//! its link once valid.

use bench::study::{suggested_id, Study, StudyError};
use bench::Suite;
use serde_json::{json, Value};

use crate::storage::{Store, StoreError};
use crate::storage_keys::STUDY_DRAFT;

/// An organiser's study in progress; any field may still be invalid.
#[derive(Clone, Debug, PartialEq)]
pub struct StudyDraft {
    pub title: String,
    /// Empty: an id is suggested from the title and tasks.
    pub id: String,
    pub instructions: String,
    /// Chosen task ids, in the suite's order.
    pub tasks: Vec<String>,
    pub show_demos: bool,
    /// Empty: results are not collected.
    pub collect_url: String,
}

impl Default for StudyDraft {
    fn default() -> Self {
        Self {
            title: String::new(),
            id: String::new(),
            instructions: "Play each task as well as you can. Watch the demonstrations first: \
                           they show what the task is about. Keys or the buttons play one action each."
                .into(),
            tasks: Vec::new(),
            show_demos: true,
            collect_url: String::new(),
        }
    }
}

impl StudyDraft {
    pub fn is_chosen(&self, task: &str) -> bool {
        self.tasks.iter().any(|t| t == task)
    }

    /// Adds or removes a task, keeping the suite's order.
    pub fn set_chosen(&mut self, suite: &Suite, task: &str, chosen: bool) {
        if chosen && !self.is_chosen(task) {
            self.tasks.push(task.to_string());
        } else if !chosen {
            self.tasks.retain(|t| t != task);
        }
        self.sort(suite);
    }

    /// Chooses (or clears) every task of `ids` at once (the tasks a filter shows).
    pub fn set_all(&mut self, suite: &Suite, ids: &[String], chosen: bool) {
        for id in ids {
            if chosen && !self.is_chosen(id) {
                self.tasks.push(id.clone());
            } else if !chosen {
                self.tasks.retain(|t| t != id);
            }
        }
        self.sort(suite);
    }

    fn sort(&mut self, suite: &Suite) {
        let rank = |id: &String| {
            suite
                .tasks
                .iter()
                .position(|t| &t.id == id)
                .unwrap_or(usize::MAX)
        };
        self.tasks.sort_by_key(rank);
    }

    /// The id the study will have: the organiser's, or one suggested from the title.
    pub fn effective_id(&self) -> String {
        let id = self.id.trim();
        if id.is_empty() {
            suggested_id(self.title.trim(), &self.tasks.join(","))
        } else {
            id.to_string()
        }
    }

    /// The study, validated against the suite.
    pub fn to_study(&self, suite: &Suite) -> Result<Study, StudyError> {
        let mut study = Study::new(
            suite,
            &self.effective_id(),
            self.title.trim(),
            self.tasks.clone(),
        );
        study.instructions = self.instructions.trim().to_string();
        study.show_demos = self.show_demos;
        let url = self.collect_url.trim();
        study.collect_url = (!url.is_empty()).then(|| url.to_string());
        study.validate()?;
        Ok(study)
    }

    pub fn to_storage_json(&self) -> String {
        json!({
            "title": self.title,
            "id": self.id,
            "instructions": self.instructions,
            "tasks": self.tasks,
            "show_demos": self.show_demos,
            "collect_url": self.collect_url,
        })
        .to_string()
    }

    /// The draft kept in the store (the defaults when there is none).
    pub fn load(store: &dyn Store, suite: &Suite) -> Self {
        store
            .get(STUDY_DRAFT.key)
            .map(|t| Self::from_storage_json(&t, suite))
            .unwrap_or_default()
    }

    pub fn save(&self, store: &dyn Store) -> Result<(), StoreError> {
        store.set(STUDY_DRAFT.key, &self.to_storage_json())
    }

    /// A stored draft; missing or odd fields keep their defaults, tasks no longer in
    /// the suite are dropped.
    pub fn from_storage_json(text: &str, suite: &Suite) -> Self {
        let mut d = Self::default();
        let Ok(v) = serde_json::from_str::<Value>(text) else {
            return d;
        };
        let text_of = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        if let Some(t) = text_of("title") {
            d.title = t;
        }
        if let Some(t) = text_of("id") {
            d.id = t;
        }
        if let Some(t) = text_of("instructions") {
            d.instructions = t;
        }
        if let Some(t) = text_of("collect_url") {
            d.collect_url = t;
        }
        if let Some(b) = v.get("show_demos").and_then(Value::as_bool) {
            d.show_demos = b;
        }
        if let Some(tasks) = v.get("tasks").and_then(Value::as_array) {
            d.tasks = tasks
                .iter()
                .filter_map(Value::as_str)
                .filter(|id| suite.task(id).is_some())
                .map(str::to_string)
                .collect();
            d.tasks.dedup();
            d.sort(suite);
        }
        d
    }
}

/// The participant link's path and fragment, e.g. `/study/take#s=ps1.…` (prefix the
/// site's origin to share it).
pub fn take_href(study: &Study) -> String {
    format!("{}#{}", crate::routes::STUDY_TAKE, study.to_link_fragment())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two tasks of the built-in suite, in its order: a lake, then a cart pole.
    fn small_suite() -> Suite {
        let builtin = crate::suite_data::suite().unwrap();
        Suite {
            tasks: ["frozenlake-4x4-det-s0", "cartpole-s1"]
                .iter()
                .map(|id| builtin.task(id).unwrap().clone())
                .collect(),
            ..builtin.clone()
        }
    }

    #[test]
    fn choosing_keeps_the_suite_order_and_builds_a_link() {
        let s = small_suite();
        let mut d = StudyDraft::default();
        assert!(d.to_study(&s).is_err(), "no title, no tasks");
        d.title = "Pilot".into();
        d.set_chosen(&s, "cartpole-s1", true);
        d.set_chosen(&s, "frozenlake-4x4-det-s0", true);
        d.set_chosen(&s, "frozenlake-4x4-det-s0", true);
        assert_eq!(d.tasks, ["frozenlake-4x4-det-s0", "cartpole-s1"]);
        let study = d.to_study(&s).unwrap();
        assert!(study.id.starts_with("pilot-"));
        assert_eq!(study.collect_url, None);
        assert!(study.show_demos);
        let href = take_href(&study);
        assert!(href.starts_with("/study/take#s=ps1."));
        assert_eq!(Study::from_link_fragment(&href).unwrap(), study);
        d.set_chosen(&s, "cartpole-s1", false);
        assert_eq!(d.tasks, ["frozenlake-4x4-det-s0"]);
        let all = vec![
            "cartpole-s1".to_string(),
            "frozenlake-4x4-det-s0".to_string(),
        ];
        d.set_all(&s, &all, true);
        assert_eq!(d.tasks.len(), 2);
        d.set_all(&s, &all[..1], false);
        assert_eq!(d.tasks, ["frozenlake-4x4-det-s0"]);
    }

    #[test]
    fn the_organisers_fields_are_checked() {
        let s = small_suite();
        let mut d = StudyDraft {
            title: " Pilot ".into(),
            id: " my-study ".into(),
            collect_url: " http://127.0.0.1:9/c ".into(),
            show_demos: false,
            ..StudyDraft::default()
        };
        d.set_chosen(&s, "cartpole-s1", true);
        let study = d.to_study(&s).unwrap();
        assert_eq!(study.id, "my-study");
        assert_eq!(study.title, "Pilot");
        assert_eq!(study.collect_url.as_deref(), Some("http://127.0.0.1:9/c"));
        assert!(!study.show_demos);
        d.collect_url = "mailto:x".into();
        let e = d.to_study(&s).unwrap_err().to_string();
        assert!(e.contains("collect_url"), "{e}");
        d.collect_url.clear();
        d.id = "bad id".into();
        assert!(d.to_study(&s).unwrap_err().to_string().contains("id"));
    }

    #[test]
    fn drafts_survive_storage() {
        let s = small_suite();
        let mut d = StudyDraft {
            title: "T".into(),
            instructions: "Do it.\nNow.".into(),
            collect_url: "https://c.test/".into(),
            show_demos: false,
            ..StudyDraft::default()
        };
        d.set_chosen(&s, "cartpole-s1", true);
        let store = crate::storage::MemoryStore::new();
        assert_eq!(StudyDraft::load(&store, &s), StudyDraft::default());
        d.save(&store).unwrap();
        assert_eq!(StudyDraft::load(&store, &s), d);
        // Junk gives the defaults; unknown tasks are dropped.
        assert_eq!(
            StudyDraft::from_storage_json("{oops", &s),
            StudyDraft::default()
        );
        let odd = r#"{"title": 3, "tasks": ["gone", "cartpole-s1"], "show_demos": "no"}"#;
        let back = StudyDraft::from_storage_json(odd, &s);
        assert_eq!(back.tasks, ["cartpole-s1"]);
        assert_eq!(back.title, "");
        assert!(back.show_demos);
    }
}
