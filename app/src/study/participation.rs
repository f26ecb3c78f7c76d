//! One participant going through a study: a code, the instructions, then each task in
//! order (its demos if the study shows them, then the play) and the results file at
//! the end. Every finished episode is saved at once ([`Participation::save`], keys in
//! `crate::storage_keys`), so a reload resumes at the next task; an episode in
//! progress is not saved and starts over from the task's start.

use bench::results::{ResultEpisode, ResultsFile, ResultsKind};
use bench::study::Study;
use bench::{EpisodeRecord, Suite, Task};
use serde_json::{json, Map, Value};

use crate::storage::{Store, StoreError};
use crate::storage_keys::{study_current, study_progress, study_sent};
use crate::task_session::HUMAN_AGENT;

/// Longest participant code.
pub const MAX_CODE_CHARS: usize = 64;

/// A participant code as typed, trimmed; or why it cannot be used.
pub fn parse_code(text: &str) -> Result<String, String> {
    let code = text.trim();
    if code.is_empty() {
        return Err("Enter the participant code you were given.".into());
    }
    if code.chars().count() > MAX_CODE_CHARS {
        return Err(format!(
            "A participant code has at most {MAX_CODE_CHARS} characters."
        ));
    }
    if code.chars().any(char::is_control) {
        return Err("A participant code is a single line of text.".into());
    }
    Ok(code.to_string())
}

/// Where the participant is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Reading the instructions, before the first task.
    Instructions,
    /// Watching task `index`'s demonstrations (0-based).
    Demos { index: usize },
    /// Playing task `index`.
    Playing { index: usize },
    /// Task `index` just ended (its episode saved); the next one waits for a click.
    Finished { index: usize },
    /// Every task is done: the results.
    Done,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Participation {
    study: Study,
    participant: String,
    /// Whether the instructions were read (saved).
    started: bool,
    /// One finished episode per task, in the study's order (saved).
    episodes: Vec<EpisodeRecord>,
    /// On the page only: the demos were watched for the current task.
    watched: bool,
    /// On the page only: the task just finished is still on screen.
    reviewing: bool,
}

impl Participation {
    /// A participant starting the study.
    pub fn new(study: Study, participant: &str) -> Self {
        Self {
            study,
            participant: participant.to_string(),
            started: false,
            episodes: Vec::new(),
            watched: false,
            reviewing: false,
        }
    }

    /// The saved progress of `participant` in `study` (from [`to_storage_json`]);
    /// what does not belong to this study is dropped, and a note says so.
    ///
    /// [`to_storage_json`]: Self::to_storage_json
    pub fn resume(study: Study, participant: &str, saved: &str) -> (Self, Option<String>) {
        let mut p = Self::new(study, participant);
        let Ok(v) = serde_json::from_str::<Value>(saved) else {
            return (
                p,
                Some("The saved progress could not be read; the study starts over.".into()),
            );
        };
        if v.get("study").and_then(Value::as_str) != Some(p.study.id.as_str()) {
            return (
                p,
                Some("The saved progress belongs to another study; this one starts over.".into()),
            );
        }
        p.started = v.get("started").and_then(Value::as_bool).unwrap_or(false);
        let episodes: Vec<EpisodeRecord> = v
            .get("episodes")
            .cloned()
            .and_then(|e| serde_json::from_value(e).ok())
            .unwrap_or_default();
        // Keep the longest prefix that matches the study's tasks.
        let mut note = None;
        for (i, e) in episodes.into_iter().enumerate() {
            if p.study.tasks.get(i) != Some(&e.task) {
                note = Some(format!(
                    "Saved episodes from task {} on do not match this study and were set aside.",
                    i + 1
                ));
                break;
            }
            p.episodes.push(e);
        }
        if !p.episodes.is_empty() {
            p.started = true;
        }
        (p, note)
    }

    pub fn to_storage_json(&self) -> String {
        json!({
            "study": self.study.id,
            "participant": self.participant,
            "started": self.started,
            "episodes": self.episodes,
        })
        .to_string()
    }

    /// Saves the progress, then this participant as the one last active in the study (a
    /// reload goes straight back to them). In that order, a tab that goes away between
    /// the two writes never leaves the device pointing at a participant without
    /// progress.
    pub fn save(&self, store: &dyn Store) -> Result<(), StoreError> {
        store.set(
            &study_progress(&self.study.id, &self.participant),
            &self.to_storage_json(),
        )?;
        store.set(&study_current(&self.study.id), &self.participant)
    }

    /// `participant`'s saved progress in `study`, or a fresh start (with a note when
    /// what was saved could not be used).
    pub fn open(store: &dyn Store, study: Study, participant: &str) -> (Self, Option<String>) {
        match store.get(&study_progress(&study.id, participant)) {
            Some(saved) => Self::resume(study, participant, &saved),
            None => (Self::new(study, participant), None),
        }
    }

    /// The participant last active in `study`, with their saved progress.
    pub fn restore(store: &dyn Store, study: &Study) -> (Option<Self>, Option<String>) {
        let Some(code) = store.get(&study_current(&study.id)) else {
            return (None, None);
        };
        match store.get(&study_progress(&study.id, &code)) {
            Some(saved) => {
                let (p, note) = Self::resume(study.clone(), &code, &saved);
                (Some(p), note)
            }
            None => (None, None),
        }
    }

    /// Whether this participant's results already reached the collection URL (a
    /// reload of the results page does not send them twice).
    pub fn was_sent(&self, store: &dyn Store) -> bool {
        store
            .get(&study_sent(&self.study.id, &self.participant))
            .is_some()
    }

    pub fn mark_sent(&self, store: &dyn Store) -> Result<(), StoreError> {
        store.set(&study_sent(&self.study.id, &self.participant), "1")
    }

    pub fn study(&self) -> &Study {
        &self.study
    }

    pub fn participant(&self) -> &str {
        &self.participant
    }

    pub fn episodes(&self) -> &[EpisodeRecord] {
        &self.episodes
    }

    pub fn task_count(&self) -> usize {
        self.study.tasks.len()
    }

    /// The task a participant is on (the next one after a reload).
    fn next_index(&self) -> usize {
        self.episodes.len()
    }

    pub fn stage(&self, suite: &Suite) -> Stage {
        if !self.started {
            return Stage::Instructions;
        }
        if self.reviewing && !self.episodes.is_empty() {
            return Stage::Finished {
                index: self.episodes.len() - 1,
            };
        }
        let index = self.next_index();
        if index >= self.task_count() {
            return Stage::Done;
        }
        let has_demos = self.task(suite, index).is_some_and(|t| !t.demos.is_empty());
        if self.study.show_demos && has_demos && !self.watched {
            Stage::Demos { index }
        } else {
            Stage::Playing { index }
        }
    }

    /// Task `index` of the study (from the suite).
    pub fn task<'a>(&self, suite: &'a Suite, index: usize) -> Option<&'a Task> {
        self.study.tasks.get(index).and_then(|id| suite.task(id))
    }

    /// "Task 2 of 5" (the task shown, or the last one once done).
    pub fn progress_text(&self, suite: &Suite) -> String {
        let n = self.task_count();
        match self.stage(suite) {
            Stage::Instructions => format!("{n} tasks to play"),
            Stage::Demos { index } | Stage::Playing { index } | Stage::Finished { index } => {
                format!("Task {} of {n}", index + 1)
            }
            Stage::Done => format!("All {n} tasks done"),
        }
    }

    /// The instructions were read: on to the first task.
    pub fn begin(&mut self) {
        self.started = true;
    }

    /// The demos were watched: on to playing.
    pub fn start_playing(&mut self) {
        self.watched = true;
    }

    /// Saves the finished episode of the current task. Refuses an episode of another
    /// task, or one that is not over.
    pub fn record(&mut self, suite: &Suite, record: EpisodeRecord) -> Result<(), String> {
        let index = match self.stage(suite) {
            Stage::Playing { index } | Stage::Demos { index } => index,
            other => return Err(format!("no task is being played ({other:?})")),
        };
        let expected = &self.study.tasks[index];
        if &record.task != expected {
            return Err(format!(
                "the episode is of task {:?}, expected {expected:?}",
                record.task
            ));
        }
        self.episodes.push(record);
        self.watched = false;
        self.reviewing = true;
        Ok(())
    }

    /// Leaves the finished task's summary for the next task (or the results).
    pub fn next(&mut self) {
        self.reviewing = false;
    }

    /// The results file: kind Human, one episode per task, the study in its config.
    pub fn results_file(&self, suite: &Suite) -> ResultsFile {
        let mut config = Map::new();
        config.insert("study_id".into(), self.study.id.clone().into());
        config.insert("study_title".into(), self.study.title.clone().into());
        config.insert("participant".into(), self.participant.clone().into());
        config.insert("demos_shown".into(), self.study.show_demos.into());
        config.insert("tasks".into(), json!(self.study.tasks));
        let episodes = self
            .episodes
            .iter()
            .map(|record| ResultEpisode {
                record: record.clone(),
                repeat: 0,
                usage: None,
            })
            .collect();
        ResultsFile::new(
            &format!(
                "Study {} · participant {}",
                self.study.title, self.participant
            ),
            ResultsKind::Human,
            HUMAN_AGENT,
            suite,
            Some(config),
            episodes,
        )
    }

    /// The results file's download name: `study-ID-participant-CODE.json`, with the
    /// code reduced to safe characters.
    pub fn results_filename(&self) -> String {
        let code: String = self
            .participant
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        format!("study-{}-participant-{code}.json", self.study.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench::{run_episode, Agent, EpisodeRunner, Reply};

    const LAKE: &str = "frozenlake-4x4-det-s0";
    const LAKE_MID: &str = "frozenlake-4x4-det-s0-mid";

    fn suite() -> &'static Suite {
        crate::suite_data::suite().unwrap()
    }

    fn study(show_demos: bool) -> Study {
        let mut s = Study::new(
            suite(),
            "pilot",
            "Pilot",
            vec![LAKE.into(), LAKE_MID.into()],
        );
        s.show_demos = show_demos;
        s
    }

    struct Script(Vec<&'static str>);
    impl Agent for Script {
        fn name(&self) -> String {
            HUMAN_AGENT.into()
        }
        fn decide(&mut self, r: &EpisodeRunner) -> Reply {
            let name = self.0.remove(0);
            Reply::Act {
                action: r.action_index(name).unwrap(),
                raw: None,
                rejected: Vec::new(),
            }
        }
    }

    fn play(id: &str, actions: Vec<&'static str>) -> EpisodeRecord {
        let mut r = run_episode(suite().task(id).unwrap(), &mut Script(actions)).unwrap();
        r.agent = HUMAN_AGENT.into();
        r
    }

    fn win_lake() -> EpisodeRecord {
        play(
            LAKE,
            vec!["Down", "Down", "Right", "Down", "Right", "Right"],
        )
    }

    fn win_mid() -> EpisodeRecord {
        play(LAKE_MID, vec!["Down", "Right", "Right"])
    }

    #[test]
    fn a_participant_goes_through_every_stage() {
        let s = suite();
        let mut p = Participation::new(study(true), "P-07");
        assert_eq!(p.stage(s), Stage::Instructions);
        assert_eq!(p.progress_text(s), "2 tasks to play");
        assert!(p.record(s, win_lake()).is_err(), "not started");
        p.begin();
        assert_eq!(p.stage(s), Stage::Demos { index: 0 });
        assert_eq!(p.progress_text(s), "Task 1 of 2");
        p.start_playing();
        assert_eq!(p.stage(s), Stage::Playing { index: 0 });
        let e = p.record(s, win_mid()).unwrap_err();
        assert!(e.contains(LAKE), "{e}");
        p.record(s, win_lake()).unwrap();
        assert_eq!(p.stage(s), Stage::Finished { index: 0 });
        assert!(p.record(s, win_mid()).is_err(), "reviewing");
        p.next();
        assert_eq!(p.stage(s), Stage::Demos { index: 1 });
        assert_eq!(p.progress_text(s), "Task 2 of 2");
        p.start_playing();
        p.record(s, win_mid()).unwrap();
        assert_eq!(p.stage(s), Stage::Finished { index: 1 });
        p.next();
        assert_eq!(p.stage(s), Stage::Done);
        assert_eq!(p.progress_text(s), "All 2 tasks done");
    }

    #[test]
    fn without_demos_a_task_starts_with_the_play() {
        let s = suite();
        let mut p = Participation::new(study(false), "x");
        p.begin();
        assert_eq!(p.stage(s), Stage::Playing { index: 0 });
    }

    #[test]
    fn a_reload_resumes_at_the_next_task() {
        let s = suite();
        let mut p = Participation::new(study(true), "P-07");
        p.begin();
        let saved_before = p.to_storage_json();
        p.start_playing();
        p.record(s, win_lake()).unwrap();
        let saved = p.to_storage_json();

        // Reload during the first task: instructions are not shown again, the task
        // starts over (its demos first).
        let (r, note) = Participation::resume(study(true), "P-07", &saved_before);
        assert_eq!(note, None);
        assert_eq!(r.stage(s), Stage::Demos { index: 0 });

        // Reload after the first episode was saved (even before "next"): task 2.
        let (mut r, note) = Participation::resume(study(true), "P-07", &saved);
        assert_eq!(note, None);
        assert_eq!(r.stage(s), Stage::Demos { index: 1 });
        assert_eq!(r.episodes(), &[win_lake()]);
        r.start_playing();
        r.record(s, win_mid()).unwrap();
        r.next();
        assert_eq!(r.stage(s), Stage::Done);
    }

    /// Two participants on one device, every save as the page makes it; then the tab
    /// goes away after every possible number of writes: the reload returns to a
    /// participant with their progress, and each participant's code opens every episode
    /// stored for them.
    #[test]
    fn a_reload_between_any_two_writes_keeps_every_saved_episode() {
        use crate::storage::RecordingStore;
        let s = suite();
        let store = RecordingStore::new();
        // (writes so far, participant, episodes stored for them) after each save.
        let mut saves = Vec::new();
        for (code, tasks) in [("A", 2), ("B", 1)] {
            let mut p = Participation::new(study(false), code);
            p.begin();
            p.save(&store).unwrap();
            saves.push((store.writes(), code, 0));
            for (i, record) in [win_lake(), win_mid()].into_iter().take(tasks).enumerate() {
                p.record(s, record).unwrap();
                p.save(&store).unwrap();
                saves.push((store.writes(), code, i + 1));
                p.next();
            }
            if tasks == 2 {
                p.mark_sent(&store).unwrap();
            }
        }
        for k in 0..=store.writes() {
            let cut = store.cut(k);
            let (restored, note) = Participation::restore(&cut, &study(false));
            assert_eq!(note, None);
            let first_save = saves[0].0;
            assert_eq!(restored.is_some(), k >= first_save, "{k} writes");
            for code in ["A", "B"] {
                // The progress write is the first of a save's two writes.
                let stored = saves
                    .iter()
                    .rev()
                    .find(|(w, c, _)| *c == code && w - 1 <= k)
                    .map(|(_, _, n)| *n);
                let (p, _) = Participation::open(&cut, study(false), code);
                assert_eq!(
                    p.episodes().len(),
                    stored.unwrap_or(0),
                    "{code}, {k} writes"
                );
                assert_eq!(p.started, stored.is_some(), "{code}, {k} writes");
                if let Some(r) = restored.as_ref().filter(|r| r.participant() == code) {
                    assert_eq!(r.episodes(), p.episodes(), "{code}, {k} writes");
                }
            }
        }
    }

    #[test]
    fn saved_progress_that_does_not_fit_is_set_aside() {
        let s = suite();
        let (p, note) = Participation::resume(study(true), "a", "{junk");
        assert_eq!(p.stage(s), Stage::Instructions);
        assert!(note.unwrap().contains("could not be read"));

        let mut other = study(true);
        other.id = "other".into();
        let mut q = Participation::new(other, "a");
        q.begin();
        let (p, note) = Participation::resume(study(true), "a", &q.to_storage_json());
        assert!(note.unwrap().contains("another study"));
        assert_eq!(p.stage(s), Stage::Instructions);

        // The organiser swapped the tasks: the saved episode no longer fits task 1.
        let mut swapped = study(true);
        swapped.tasks.reverse();
        let mut q = Participation::new(swapped, "a");
        q.begin();
        q.start_playing();
        q.record(s, win_mid()).unwrap();
        let (p, note) = Participation::resume(study(true), "a", &q.to_storage_json());
        assert!(note.unwrap().contains("task 1"));
        assert!(p.episodes().is_empty());
        assert_eq!(p.stage(s), Stage::Demos { index: 0 });
    }

    #[test]
    fn the_results_file_is_a_human_results_file() {
        let s = suite();
        let mut p = Participation::new(study(false), "P 07/x");
        p.begin();
        p.record(s, win_lake()).unwrap();
        p.next();
        p.record(s, win_mid()).unwrap();
        let f = p.results_file(s);
        assert_eq!(f.kind, ResultsKind::Human);
        assert_eq!(f.label, "Study Pilot · participant P 07/x");
        assert_eq!(f.agent, HUMAN_AGENT);
        let config = f.config.clone().unwrap();
        assert_eq!(config["study_id"], "pilot");
        assert_eq!(config["participant"], "P 07/x");
        assert_eq!(config["demos_shown"], false);
        assert_eq!(f.episodes.len(), 2);
        assert_eq!(f.report.overall.pass_rate, 1.0);
        // It reads back as any results file does.
        assert_eq!(ResultsFile::from_json(&f.to_json()).unwrap(), f);
        assert_eq!(p.results_filename(), "study-pilot-participant-P_07_x.json");
    }

    #[test]
    fn progress_is_saved_by_participant_and_the_last_one_comes_back() {
        let s = suite();
        let store = crate::storage::MemoryStore::new();
        assert_eq!(Participation::restore(&store, &study(true)), (None, None));
        let (mut p, note) = Participation::open(&store, study(true), "P 7");
        assert_eq!(note, None);
        p.begin();
        p.start_playing();
        p.record(s, win_lake()).unwrap();
        p.save(&store).unwrap();
        let (mut q, _) = Participation::open(&store, study(true), "Q");
        q.save(&store).unwrap();
        // The last one active comes back; the first keeps their progress.
        let (back, _) = Participation::restore(&store, &study(true));
        assert_eq!(back.map(|b| b.participant().to_string()), Some("Q".into()));
        let (again, _) = Participation::open(&store, study(true), "P 7");
        assert_eq!(again.episodes(), &[win_lake()]);
        assert!(!again.was_sent(&store));
        again.mark_sent(&store).unwrap();
        assert!(again.was_sent(&store));
        assert!(!q.was_sent(&store));
        // Keys of two studies or participants never collide.
        assert_ne!(study_progress("a.b", "c"), study_progress("a", "b.c"));
        q.begin();
        let full = crate::storage::MemoryStore::with_quota(10);
        assert!(q.save(&full).is_err());
    }

    #[test]
    fn participant_codes() {
        assert_eq!(parse_code("  P-07 "), Ok("P-07".into()));
        assert!(parse_code("  ").is_err());
        assert!(parse_code("a\tb").is_err());
        assert!(parse_code(&"x".repeat(65)).is_err());
    }
}
