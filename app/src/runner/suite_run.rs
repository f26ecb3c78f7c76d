//! A whole-suite model run that survives reloads: the plan (tasks, repetitions,
//! endpoint without key, settings) and each finished episode are stored the moment
//! they exist — actions and replies, never frames, which replay deterministically. On
//! reload the run resumes with the episodes not yet finished; one that was in flight
//! starts again from its beginning, so none is lost and none is counted twice.

use std::collections::{BTreeMap, BTreeSet};

use bench::agents::{OracleAgent, RandomAgent};
use bench::report::tag_names;
use bench::results::{ResultEpisode, ResultsFile, ResultsKind};
use bench::Agent;
use bench::{Suite, Task};
use serde::{Deserialize, Serialize};

use super::profiles::Profile;
use super::settings::RunSettings;
use super::unfinished::Unfinished;
use crate::storage::{Store, StoreError};
use crate::storage_keys::{suite_run_episode, suite_run_episodes, suite_run_job, SUITE_RUN};

/// Which tasks of the suite to run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Selection {
    /// An environment id (`None`: all).
    pub env: Option<String>,
    /// A tag as the results table names it, e.g. `memory: multiple` (`None`: all).
    pub tag: Option<String>,
    /// Task ids containing this text.
    pub contains: String,
}

impl Selection {
    pub fn matches(&self, t: &Task) -> bool {
        self.env.as_ref().is_none_or(|e| &t.env == e)
            && self.tag.as_ref().is_none_or(|g| tag_names(t).contains(g))
            && t.id.contains(self.contains.trim())
    }

    pub fn tasks<'a>(&self, suite: &'a Suite) -> Vec<&'a Task> {
        suite.tasks.iter().filter(|t| self.matches(t)).collect()
    }

    /// The choices the page offers: environments and tags, each sorted.
    pub fn options(suite: &Suite) -> (Vec<String>, Vec<String>) {
        let envs: BTreeSet<String> = suite.tasks.iter().map(|t| t.env.clone()).collect();
        let tags: BTreeSet<String> = suite.tasks.iter().flat_map(tag_names).collect();
        (envs.into_iter().collect(), tags.into_iter().collect())
    }
}

/// Who plays a suite run: the model of the endpoint profile, or one of the built-in
/// agents (baselines, computed in the tab without any request).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AgentChoice {
    #[default]
    Model,
    /// Seeded like `playbench baseline --agent random --seed S`: repetition r of a task
    /// uses seed S × 1000003 + r.
    Random {
        seed: u64,
    },
    Oracle,
}

impl AgentChoice {
    /// The built-in agent for repetition `repeat`, or `None` for the model.
    pub fn local_agent(&self, repeat: u32) -> Option<Box<dyn Agent>> {
        match *self {
            Self::Model => None,
            Self::Random { seed } => {
                Some(Box::new(RandomAgent::for_repeat(seed, u64::from(repeat))))
            }
            Self::Oracle => Some(Box::new(OracleAgent::new())),
        }
    }
}

/// Everything that defines a run (stored; never the key).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunPlan {
    pub id: String,
    /// The built-in suite the tasks are from (runs stored before suites had ids ran
    /// the default suite).
    #[serde(default = "default_suite")]
    pub suite: String,
    #[serde(default)]
    pub agent: AgentChoice,
    pub profile: Profile,
    pub settings: RunSettings,
    pub selection: Selection,
    pub tasks: Vec<String>,
    pub episodes_per_task: u32,
    pub concurrency: u32,
}

fn default_suite() -> String {
    bench::suites::DEFAULT_SUITE.to_string()
}

pub const MAX_CONCURRENCY: u32 = 64;

impl RunPlan {
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.agent == AgentChoice::Model {
            out.extend(self.profile.problems());
            out.extend(self.settings.problems());
        }
        if self.tasks.is_empty() {
            out.push("No task matches the selection.".into());
        }
        if self.episodes_per_task == 0 {
            out.push("Run at least one episode per task.".into());
        }
        if !(1..=MAX_CONCURRENCY).contains(&self.concurrency) {
            out.push(format!(
                "Concurrency must be between 1 and {MAX_CONCURRENCY}."
            ));
        }
        out
    }
}

/// The suite-run form's fields, as typed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlanForm {
    pub episodes: String,
    pub concurrency: String,
    /// `model`, `random` or `oracle`.
    pub agent: String,
    pub random_seed: String,
}

impl PlanForm {
    /// The fields as they were when `plan` was made: after a reload the form shows the
    /// saved run, not the defaults.
    pub fn of(plan: &RunPlan) -> Self {
        let (agent, seed) = match plan.agent {
            AgentChoice::Model => ("model", 0),
            AgentChoice::Random { seed } => ("random", seed),
            AgentChoice::Oracle => ("oracle", 0),
        };
        Self {
            episodes: plan.episodes_per_task.to_string(),
            concurrency: plan.concurrency.to_string(),
            agent: agent.to_string(),
            random_seed: seed.to_string(),
        }
    }

    /// The run the form describes on `suite`, or everything wrong with it.
    pub fn plan(
        &self,
        id: String,
        suite: &Suite,
        profile: Profile,
        settings: RunSettings,
        selection: Selection,
    ) -> Result<RunPlan, Vec<String>> {
        let mut found = Vec::new();
        let mut number = |text: &str, what: &str, fallback: u32| {
            text.trim().parse().unwrap_or_else(|_| {
                found.push(format!("{what} must be a whole number."));
                fallback
            })
        };
        let episodes_per_task = number(&self.episodes, "Episodes per task", 1);
        let concurrency = number(&self.concurrency, "Concurrency", 4);
        let agent = match self.agent.as_str() {
            "random" => match self.random_seed.trim().parse() {
                Ok(seed) => AgentChoice::Random { seed },
                Err(_) => {
                    found.push("The random agent's seed must be a whole number.".to_string());
                    AgentChoice::Random { seed: 0 }
                }
            },
            "oracle" => AgentChoice::Oracle,
            _ => AgentChoice::Model,
        };
        let plan = RunPlan {
            id,
            suite: suite.id.clone(),
            agent,
            profile,
            settings,
            tasks: selection
                .tasks(suite)
                .iter()
                .map(|t| t.id.clone())
                .collect(),
            selection,
            episodes_per_task,
            concurrency,
        };
        found.extend(plan.problems());
        if found.is_empty() {
            Ok(plan)
        } else {
            Err(found)
        }
    }
}

/// An action that deletes the saved run: the page asks first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replace {
    /// "Start a new run" while a run is saved.
    Start,
    /// "Discard the saved run".
    Discard,
}

impl Replace {
    /// What the confirmation says, given the saved run's finished and total episodes.
    pub fn question(self, finished: usize, total: usize) -> String {
        let what = match self {
            Self::Start => "Starting a new run deletes the saved run",
            Self::Discard => "Discarding deletes the saved run",
        };
        let lost = match finished {
            0 => "none of its episodes has finished yet".to_string(),
            n if n == total => format!("all {n} of its episodes are finished"),
            n => format!("{n} of its {total} episodes are finished"),
        };
        let advice = if finished > 0 {
            " Download its results first to keep them."
        } else {
            ""
        };
        format!("{what} from this browser: {lost}.{advice}")
    }

    /// The button that goes ahead.
    pub fn confirm_label(self) -> &'static str {
        match self {
            Self::Start => "Delete it and start the new run",
            Self::Discard => "Delete the saved run",
        }
    }
}

/// Whether the stored run should continue by itself after a reload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunState {
    /// Running when the page went away: resume at once.
    Running,
    /// Paused or stopped by the person: resume on request.
    Paused,
    Complete,
}

/// What the store holds under [`SUITE_RUN`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredRun {
    pub plan: RunPlan,
    pub state: RunState,
    /// A key was given at the start (so resuming needs it again).
    pub key_needed: bool,
}

impl StoredRun {
    pub fn to_storage(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_storage(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| format!("the stored run could not be read ({e})"))
    }

    pub fn save(&self, store: &dyn Store) -> Result<(), StoreError> {
        store.set(SUITE_RUN.key, &self.to_storage())
    }

    /// The stored run and its finished episodes, if there is one (entries that do not
    /// parse are left out: those episodes run again).
    pub fn load(store: &dyn Store) -> Option<Result<(StoredRun, SuiteRun), String>> {
        let text = store.get(SUITE_RUN.key)?;
        Some(Self::from_storage(&text).map(|stored| {
            let id = stored.plan.id.clone();
            let entries = store
                .keys_with_prefix(&suite_run_episodes(&id))
                .into_iter()
                .filter_map(|k| {
                    let job = suite_run_job(&id, &k)?;
                    let episode = serde_json::from_str(&store.get(&k)?).ok()?;
                    Some((job, episode))
                });
            let mut run = SuiteRun::restore(stored.plan.clone(), entries);
            // Episodes in flight when the page went away start again. One whose episode
            // was stored before the page went away (between the two writes of
            // `SuiteRun::finish_and_store`) finished: its usage is in its result.
            run.unfinished = Unfinished::load(store, &id);
            for job in run.done.keys() {
                run.unfinished.finished(*job);
            }
            run.unfinished.abandon_all();
            (stored, run)
        }))
    }

    /// Removes the stored run and its episodes like [`StoredRun::forget`], returning
    /// every entry removed, so that [`StoredRun::undo_forget`] can put them back.
    pub fn forget_undoably(store: &dyn Store) -> Vec<(String, String)> {
        let mut kept = Vec::new();
        if let Some(Ok((stored, _))) = Self::load(store) {
            for k in store.keys_with_prefix(&suite_run_episodes(&stored.plan.id)) {
                if let Some(v) = store.get(&k) {
                    kept.push((k, v));
                }
            }
        }
        if let Some(v) = store.get(SUITE_RUN.key) {
            kept.push((SUITE_RUN.key.to_string(), v));
        }
        Self::forget(store);
        kept
    }

    /// Puts back what [`StoredRun::forget_undoably`] removed (a run saved since is
    /// replaced).
    pub fn undo_forget(store: &dyn Store, removed: &[(String, String)]) -> Result<(), StoreError> {
        Self::forget(store);
        for (k, v) in removed {
            store.set(k, v)?;
        }
        Ok(())
    }

    /// Removes the stored run and its episodes (also those of a run that no longer
    /// reads).
    pub fn forget(store: &dyn Store) {
        if let Some(Ok((stored, _))) = Self::load(store) {
            for k in store.keys_with_prefix(&suite_run_episodes(&stored.plan.id)) {
                store.remove(&k);
            }
        }
        store.remove(SUITE_RUN.key);
    }
}

/// Stores finished episode `job` of run `run_id` (a reload keeps it).
pub fn save_episode(
    store: &dyn Store,
    run_id: &str,
    job: usize,
    episode: &ResultEpisode,
) -> Result<(), String> {
    let json = serde_json::to_string(episode).map_err(|e| e.to_string())?;
    Ok(store.set(&suite_run_episode(run_id, job), &json)?)
}

/// A run id from the clock (unique enough per device), in base 36.
pub fn run_id(now_ms: f64) -> String {
    let mut n = now_ms.max(0.0) as u64;
    let mut out = Vec::new();
    loop {
        let d = (n % 36) as u8;
        out.push(if d < 10 { b'0' + d } else { b'a' + d - 10 } as char);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.iter().rev().collect()
}

/// One episode to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub task: String,
    pub repeat: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SuiteRun {
    pub plan: RunPlan,
    jobs: Vec<Job>,
    done: BTreeMap<usize, ResultEpisode>,
    running: BTreeSet<usize>,
    /// The usage of episodes in flight and of those given up.
    pub unfinished: Unfinished,
}

impl SuiteRun {
    pub fn new(plan: RunPlan) -> Self {
        // Each task's trials (GameVerse's tasks ask for several), times the run's
        // repetitions.
        let suite = bench::suites::latest(&plan.suite).ok();
        let trials = |id: &str| {
            suite
                .and_then(|s| s.task(id))
                .map_or(1, |t| t.trial_count())
        };
        let jobs = plan
            .tasks
            .iter()
            .flat_map(|t| {
                (0..plan.episodes_per_task * trials(t)).map(move |repeat| Job {
                    task: t.clone(),
                    repeat,
                })
            })
            .collect();
        Self {
            plan,
            jobs,
            done: BTreeMap::new(),
            running: BTreeSet::new(),
            unfinished: Unfinished::default(),
        }
    }

    /// A stored run: its plan and the finished episodes found (entries that do not
    /// belong to a job, or name another task, are ignored).
    pub fn restore(
        plan: RunPlan,
        finished: impl IntoIterator<Item = (usize, ResultEpisode)>,
    ) -> Self {
        let mut run = Self::new(plan);
        for (i, ep) in finished {
            if run.jobs.get(i).is_some_and(|j| j.task == ep.record.task) {
                run.done.insert(i, ep);
            }
        }
        run
    }

    pub fn jobs(&self) -> &[Job] {
        &self.jobs
    }

    /// The next job neither finished nor running, marked running.
    pub fn take_job(&mut self) -> Option<(usize, Job)> {
        let i = (0..self.jobs.len())
            .find(|i| !self.done.contains_key(i) && !self.running.contains(i))?;
        self.running.insert(i);
        Some((i, self.jobs[i].clone()))
    }

    /// A job given back unfinished (stopped): it will run again; its requests so far
    /// are counted as given up.
    pub fn release(&mut self, job: usize) {
        self.running.remove(&job);
        self.unfinished.abandon(job);
    }

    pub fn finish(&mut self, job: usize, episode: ResultEpisode) {
        self.running.remove(&job);
        self.unfinished.finished(job);
        self.done.insert(job, episode);
    }

    pub fn finished(&self) -> usize {
        self.done.len()
    }

    /// Finishes `job` and stores what a reload needs: the episode first, then the usage
    /// of the episodes still in flight (a reload between the two keeps the episode and
    /// counts its requests once, `StoredRun::load`). The episode is kept in the run
    /// even when the store refuses it; the error says which write failed.
    pub fn finish_and_store(
        &mut self,
        store: &dyn Store,
        job: usize,
        episode: ResultEpisode,
    ) -> Result<(), String> {
        let saved = save_episode(store, &self.plan.id, job, &episode);
        self.finish(job, episode);
        let unfinished = self.unfinished.save(store, &self.plan.id);
        saved?;
        Ok(unfinished?)
    }

    /// Gives `job` back ([`SuiteRun::release`]) and stores the usage it leaves.
    pub fn release_and_store(&mut self, store: &dyn Store, job: usize) -> Result<(), StoreError> {
        self.release(job);
        self.unfinished.save(store, &self.plan.id)
    }

    /// Records the usage so far of the episode of `job` after an answer and stores it
    /// when it changed, so a reload does not lose it.
    pub fn progress_and_store(
        &mut self,
        store: &dyn Store,
        job: usize,
        usage: &bench::results::Usage,
    ) -> Result<(), StoreError> {
        if self.unfinished.progress(job, usage) {
            self.unfinished.save(store, &self.plan.id)?;
        }
        Ok(())
    }

    pub fn running(&self) -> usize {
        self.running.len()
    }

    pub fn total(&self) -> usize {
        self.jobs.len()
    }

    pub fn is_complete(&self) -> bool {
        self.done.len() == self.jobs.len()
    }

    pub fn episodes(&self) -> impl Iterator<Item = (usize, &ResultEpisode)> {
        self.done.iter().map(|(i, e)| (*i, e))
    }

    /// The results so far (episodes in job order).
    pub fn results(&self, suite: &Suite) -> ResultsFile {
        let p = &self.plan;
        let (label, agent, kind, mut config) = match p.agent.local_agent(0) {
            None => (
                format!("{} ({})", p.profile.model.trim(), p.profile.name),
                bench::model_episode::agent_name(&p.profile.endpoint()),
                ResultsKind::Model,
                p.settings.record(&p.profile),
            ),
            Some(a) => {
                let mut config = serde_json::Map::new();
                if let Ok(serde_json::Value::Object(m)) = serde_json::to_value(p.agent) {
                    config.insert("agent".into(), serde_json::Value::Object(m));
                }
                let name = match p.agent {
                    AgentChoice::Random { seed } => format!("random (seed {seed})"),
                    _ => a.name(),
                };
                (name.clone(), name, ResultsKind::Baseline, config)
            }
        };
        config.insert("run_id".into(), p.id.clone().into());
        config.insert("episodes_per_task".into(), p.episodes_per_task.into());
        config.insert("concurrency".into(), p.concurrency.into());
        if self.unfinished.abandoned_attempts > 0 {
            config.insert(
                "unfinished_attempts".into(),
                serde_json::json!({
                    "attempts": self.unfinished.abandoned_attempts,
                    "usage": self.unfinished.abandoned,
                }),
            );
        }
        config.insert(
            "selection".into(),
            serde_json::to_value(&p.selection).unwrap_or_default(),
        );
        ResultsFile::new(
            &label,
            kind,
            &agent,
            suite,
            Some(config),
            self.done.values().cloned().collect(),
        )
    }
}

/// Milliseconds left, from the pace since the page started running: `finished_here`
/// episodes in `elapsed_ms`, `remaining` to go. `None` before the first finishes.
pub fn eta_ms(finished_here: usize, elapsed_ms: f64, remaining: usize) -> Option<f64> {
    (finished_here > 0).then(|| elapsed_ms / finished_here as f64 * remaining as f64)
}

/// `1 h 02 min`, `3 min 05 s`, `12 s`.
pub fn format_duration(ms: f64) -> String {
    let s = (ms / 1000.0).round().max(0.0) as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, (s % 3600) / 60),
    }
}

/// Bars of the per-environment chart: (environment, score 0-100, pass rate 0-1).
pub fn env_bars(results: &ResultsFile) -> Vec<(String, f64, f64)> {
    results
        .report
        .by_env
        .iter()
        .map(|r| (r.name.clone(), r.score, r.pass_rate))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench::agents::RandomAgent;
    use bench::run_episode;

    fn plan(suite: &Suite) -> RunPlan {
        let selection = Selection {
            env: None,
            tag: None,
            contains: "frozenlake-4x4".into(),
        };
        RunPlan {
            id: "r1".into(),
            suite: suite.id.clone(),
            agent: AgentChoice::Model,
            profile: Profile {
                model: "m".into(),
                ..Profile::default()
            },
            settings: RunSettings::default(),
            tasks: selection
                .tasks(suite)
                .iter()
                .map(|t| t.id.clone())
                .collect(),
            selection,
            episodes_per_task: 2,
            concurrency: 4,
        }
    }

    fn play(suite: &Suite, job: &Job) -> ResultEpisode {
        let t = suite.task(&job.task).unwrap();
        ResultEpisode {
            record: run_episode(t, &mut RandomAgent::new(u64::from(job.repeat))).unwrap(),
            repeat: job.repeat,
            usage: None,
        }
    }

    #[test]
    fn a_run_resumes_without_losing_or_repeating_episodes() {
        let suite = crate::suite_data::suite().unwrap();
        let p = plan(suite);
        assert!(p.problems().is_empty(), "{:?}", p.problems());
        let mut run = SuiteRun::new(p.clone());
        let n = run.total();
        assert_eq!(n, p.tasks.len() * 2);
        // Four in flight, two of them finish, then the page reloads.
        let taken: Vec<_> = (0..4).map(|_| run.take_job().unwrap()).collect();
        let mut stored = Vec::new();
        for (i, job) in &taken[..2] {
            let ep = play(suite, job);
            run.finish(*i, ep.clone());
            stored.push((*i, ep));
        }
        let mut resumed = SuiteRun::restore(p, stored);
        assert_eq!(resumed.finished(), 2);
        let mut seen = BTreeSet::new();
        while let Some((i, job)) = resumed.take_job() {
            assert!(seen.insert(i), "job {i} handed out twice");
            let ep = play(suite, &job);
            resumed.finish(i, ep);
        }
        assert!(resumed.is_complete());
        assert_eq!(seen.len(), n - 2);
        // The two in flight at the reload ran again; the finished ones did not.
        assert!(seen.contains(&taken[2].0) && seen.contains(&taken[3].0));
        assert!(!seen.contains(&taken[0].0));
        let results = resumed.results(suite);
        assert_eq!(results.episodes.len(), n);
        assert_eq!(results.config.as_ref().unwrap()["run_id"], "r1");
        assert_eq!(env_bars(&results).len(), results.report.by_env.len());
        // Export JSON imports on /compare; Export CSV is told apart there.
        let mut imports = crate::compare::imports::Imports::default();
        imports.add("run.json", &results.to_json()).unwrap();
        assert_eq!(imports.results(), vec![results.clone()]);
        let csv = imports.add("run.csv", &results.to_csv()).unwrap_err();
        assert_eq!(csv.message, crate::compare::imports::CSV_HINT);
    }

    #[test]
    fn requests_of_episodes_in_flight_at_a_reload_are_counted() {
        let suite = crate::suite_data::suite().unwrap();
        let store = crate::storage::MemoryStore::default();
        let p = plan(suite);
        let stored = StoredRun {
            plan: p.clone(),
            state: RunState::Running,
            key_needed: true,
        };
        stored.save(&store).unwrap();
        let mut run = SuiteRun::new(p);
        let (a, _) = run.take_job().unwrap();
        let (b, job_b) = run.take_job().unwrap();
        let used = |requests| bench::results::Usage {
            requests,
            input_tokens: 1000,
            ..Default::default()
        };
        run.unfinished.progress(a, &used(7));
        run.unfinished.progress(b, &used(3));
        run.finish(b, play(suite, &job_b));
        save_episode(&store, "r1", b, &run.done[&b]).unwrap();
        run.unfinished.save(&store, "r1").unwrap();

        // The reload: job `a` runs again; its 7 requests stay counted.
        let (_, resumed) = StoredRun::load(&store).unwrap().unwrap();
        assert_eq!(resumed.finished(), 1);
        assert_eq!(resumed.unfinished.abandoned_attempts, 1);
        assert_eq!(resumed.unfinished.abandoned.requests, 7);
        let config = resumed.results(suite).config.unwrap();
        assert_eq!(config["unfinished_attempts"]["attempts"], 1);
        assert_eq!(config["unfinished_attempts"]["usage"]["requests"], 7);
        // Forgetting the run forgets this too.
        StoredRun::forget(&store);
        assert_eq!(Unfinished::load(&store, "r1"), Unfinished::default());
    }

    /// A run with three episodes in flight, each answer stored, some episodes
    /// finishing and one stopped; then the tab goes away after every possible number of
    /// writes. Each time the reload keeps every episode stored, runs each other job
    /// once, and counts every request stored exactly once.
    #[test]
    fn a_reload_between_any_two_writes_loses_and_repeats_nothing() {
        use crate::storage::RecordingStore;
        let suite = crate::suite_data::suite().unwrap();
        let store = RecordingStore::new();
        let p = plan(suite);
        StoredRun {
            plan: p.clone(),
            state: RunState::Running,
            key_needed: false,
        }
        .save(&store)
        .unwrap();
        let mut run = SuiteRun::new(p);
        // made_at[w]: the requests answered by the time the store had taken w writes.
        let mut made = 0u32;
        let mut made_at = vec![0u32];
        let mut settle = |made: u32, store: &RecordingStore| {
            made_at.resize(store.writes() + 1, made);
        };
        settle(0, &store);
        // The write that stored each finished episode (1-based).
        let mut episode_write = BTreeMap::new();
        let mut in_flight: BTreeMap<usize, u32> = BTreeMap::new();
        for round in 0.. {
            while in_flight.len() < 3 {
                let Some((job, _)) = run.take_job() else {
                    break;
                };
                in_flight.insert(job, 0);
            }
            if in_flight.is_empty() {
                break;
            }
            for job in in_flight.keys().copied().collect::<Vec<_>>() {
                if round == 2 && job % 2 == 1 {
                    // Stopped: the job goes back and its requests count as given up.
                    in_flight.remove(&job);
                    run.release_and_store(&store, job).unwrap();
                    settle(made, &store);
                    continue;
                }
                made += 1;
                let requests = in_flight[&job] + 1;
                let usage = bench::results::Usage {
                    requests,
                    ..Default::default()
                };
                if (job + round) % 3 == 0 {
                    let mut episode = play(suite, &run.jobs()[job].clone());
                    episode.usage = Some(usage);
                    episode_write.insert(job, store.writes() + 1);
                    in_flight.remove(&job);
                    run.finish_and_store(&store, job, episode).unwrap();
                } else {
                    in_flight.insert(job, requests);
                    run.progress_and_store(&store, job, &usage).unwrap();
                }
                settle(made, &store);
            }
        }
        assert!(run.is_complete());
        assert!(store.writes() > 20, "{}", store.writes());
        assert_eq!(made_at.len(), store.writes() + 1);
        // Write 1 is the plan.
        for (k, made) in made_at.iter().enumerate().skip(1) {
            let cut = store.cut(k);
            let (_, mut resumed) = StoredRun::load(&cut).unwrap().unwrap();
            for (job, w) in &episode_write {
                assert_eq!(
                    resumed.done.contains_key(job),
                    *w <= k,
                    "job {job}, {k} writes"
                );
            }
            let counted = resumed.unfinished.abandoned.requests
                + resumed
                    .done
                    .values()
                    .filter_map(|e| e.usage.as_ref())
                    .map(|u| u.requests)
                    .sum::<u32>();
            assert_eq!(counted, *made, "requests counted after {k} writes");
            let kept = resumed.finished();
            let mut ran = BTreeSet::new();
            while let Some((i, job)) = resumed.take_job() {
                assert!(ran.insert(i), "job {i} handed out twice after {k} writes");
                resumed.finish(i, play(suite, &job));
            }
            assert!(resumed.is_complete());
            assert_eq!(kept + ran.len(), resumed.total());
        }
    }

    #[test]
    fn stale_or_foreign_entries_are_ignored() {
        let suite = crate::suite_data::suite().unwrap();
        let p = plan(suite);
        let mut run = SuiteRun::new(p.clone());
        let (_, job) = run.take_job().unwrap();
        let ep = play(suite, &job);
        let r = SuiteRun::restore(p, vec![(1, ep.clone()), (999, ep)]);
        // Job 1 is the second repetition of the first task: same task, accepted.
        assert_eq!(r.finished(), 1);
        let mut run = SuiteRun::new(plan(suite));
        let (i, _) = run.take_job().unwrap();
        run.release(i);
        assert_eq!(run.take_job().unwrap().0, i);
    }

    #[test]
    fn selections_and_times() {
        let suite = crate::suite_data::suite().unwrap();
        let (envs, tags) = Selection::options(suite);
        assert!(envs.len() >= 60);
        assert!(tags.contains(&"memory: multiple".to_string()));
        let s = Selection {
            env: Some("CliffWalking-v1".into()),
            ..Selection::default()
        };
        assert!(s.tasks(suite).iter().all(|t| t.env == "CliffWalking-v1"));
        let s = Selection {
            tag: Some("dynamics: dynamic".into()),
            ..Selection::default()
        };
        assert!(!s.tasks(suite).is_empty());
        assert_eq!(eta_ms(0, 1000.0, 5), None);
        assert_eq!(eta_ms(2, 1000.0, 6), Some(3000.0));
        assert_eq!(format_duration(12_400.0), "12 s");
        assert_eq!(format_duration(185_000.0), "3 min 05 s");
        assert_eq!(format_duration(3_720_000.0), "1 h 02 min");
    }

    #[test]
    fn stored_runs_and_entries_round_trip() {
        let suite = crate::suite_data::suite().unwrap();
        let stored = StoredRun {
            plan: plan(suite),
            state: RunState::Running,
            key_needed: true,
        };
        assert_eq!(
            StoredRun::from_storage(&stored.to_storage()).unwrap(),
            stored
        );
        assert!(StoredRun::from_storage("{").is_err());
        let store = crate::storage::MemoryStore::new();
        assert!(StoredRun::load(&store).is_none());
        stored.save(&store).unwrap();
        let mut run = SuiteRun::new(plan(suite));
        let (i, job) = run.take_job().unwrap();
        let ep = play(suite, &job);
        save_episode(&store, &stored.plan.id, i, &ep).unwrap();
        // Another run's episode and an unreadable one are not this run's.
        save_episode(&store, "other", i + 1, &ep).unwrap();
        store
            .set(&suite_run_episode(&stored.plan.id, i + 1), "{")
            .unwrap();
        let (back, restored) = StoredRun::load(&store).unwrap().unwrap();
        assert_eq!(back, stored);
        assert_eq!(restored.finished(), 1);
        assert_eq!(
            restored.episodes().next().map(|(j, e)| (j, e.clone())),
            Some((i, ep))
        );
        StoredRun::forget(&store);
        assert!(StoredRun::load(&store).is_none());
        assert_eq!(store.keys(), [suite_run_episode("other", i + 1)]);
        store.set(SUITE_RUN.key, "{").unwrap();
        assert!(StoredRun::load(&store).unwrap().is_err());
        StoredRun::forget(&store);
        assert!(StoredRun::load(&store).is_none());
        assert_eq!(run_id(0.0), "0");
        assert_eq!(run_id(36.0 * 36.0 + 35.0), "10z");
    }

    #[test]
    fn the_form_makes_a_plan_or_says_what_is_wrong() {
        let suite = crate::suite_data::suite().unwrap();
        let form = PlanForm {
            episodes: " 2 ".into(),
            concurrency: "3".into(),
            agent: "random".into(),
            random_seed: "7".into(),
        };
        let sel = Selection {
            contains: "frozenlake".into(),
            ..Selection::default()
        };
        let p = form
            .plan(
                "r9".into(),
                suite,
                Profile::default(),
                RunSettings::default(),
                sel.clone(),
            )
            .unwrap();
        assert_eq!((p.episodes_per_task, p.concurrency), (2, 3));
        assert_eq!(p.agent, AgentChoice::Random { seed: 7 });
        assert_eq!(p.suite, suite.id);
        assert!(!p.tasks.is_empty() && p.tasks.iter().all(|t| t.contains("frozenlake")));
        let bad = PlanForm {
            episodes: "x".into(),
            concurrency: "0".into(),
            agent: "random".into(),
            random_seed: "-1".into(),
        };
        let errors = bad
            .plan(
                "r".into(),
                suite,
                Profile::default(),
                RunSettings::default(),
                sel,
            )
            .unwrap_err();
        assert!(
            errors.iter().any(|e| e.starts_with("Episodes per task")),
            "{errors:?}"
        );
        assert!(errors.iter().any(|e| e.contains("seed")), "{errors:?}");
        assert!(
            errors
                .iter()
                .any(|e| e.contains("Concurrency must be between")),
            "{errors:?}"
        );
        // A model run needs an endpoint.
        let model = PlanForm {
            agent: "model".into(),
            ..form
        };
        assert!(model
            .plan(
                "r".into(),
                suite,
                Profile::default(),
                RunSettings::default(),
                Selection::default()
            )
            .is_err());
    }

    #[test]
    fn the_random_baseline_in_the_tab_is_the_committed_one() {
        let suite = crate::suite_data::suite().unwrap();
        let mut p = plan(suite);
        p.agent = AgentChoice::Random { seed: 0 };
        p.profile.model = String::new(); // no endpoint needed
        p.selection = Selection::default();
        p.tasks = suite.tasks.iter().map(|t| t.id.clone()).collect();
        p.episodes_per_task = 1;
        assert!(p.problems().is_empty(), "{:?}", p.problems());
        let mut run = SuiteRun::new(p);
        while let Some((i, job)) = run.take_job() {
            let t = suite.task(&job.task).unwrap();
            let mut agent = run.plan.agent.local_agent(job.repeat).unwrap();
            let record = run_episode(t, agent.as_mut()).unwrap();
            run.finish(
                i,
                ResultEpisode {
                    record,
                    repeat: job.repeat,
                    usage: None,
                },
            );
        }
        let results = run.results(suite);
        assert_eq!(results.kind, ResultsKind::Baseline);
        assert_eq!(results.label, "random (seed 0)");
        let committed = crate::suite_data::Baselines::of(suite).random.unwrap();
        assert_eq!(results.report.overall, committed.overall);
        assert_eq!(results.report.by_env, committed.by_env);
        assert_eq!(results.report.failures, committed.failures);
    }

    #[test]
    fn the_form_shows_the_saved_plan_and_replacing_it_asks() {
        let suite = crate::suite_data::suite().unwrap();
        let form = PlanForm {
            episodes: "2".into(),
            concurrency: "3".into(),
            agent: "random".into(),
            random_seed: "7".into(),
        };
        let selection = Selection {
            env: None,
            tag: None,
            contains: "frozenlake-4x4".into(),
        };
        let made = form
            .plan(
                "r".into(),
                suite,
                Profile::default(),
                RunSettings::default(),
                selection.clone(),
            )
            .unwrap();
        assert_eq!(PlanForm::of(&made), form);
        assert_eq!(made.selection, selection);
        let oracle = RunPlan {
            agent: AgentChoice::Oracle,
            ..made.clone()
        };
        assert_eq!(PlanForm::of(&oracle).agent, "oracle");

        let q = Replace::Start.question(2, 6);
        assert!(q.contains("2 of its 6 episodes are finished"), "{q}");
        assert!(q.contains("Download its results"), "{q}");
        let q = Replace::Discard.question(0, 6);
        assert!(
            q.contains("none of its episodes") && !q.contains("Download"),
            "{q}"
        );
        assert!(Replace::Discard.question(6, 6).contains("all 6"));

        // Discarding can be undone: every entry comes back as it was.
        let store = crate::storage::MemoryStore::new();
        let mut run = SuiteRun::new(made.clone());
        let (job, j) = run.take_job().unwrap();
        let ep = play(suite, &j);
        save_episode(&store, &made.id, job, &ep).unwrap();
        StoredRun {
            plan: made.clone(),
            state: RunState::Complete,
            key_needed: false,
        }
        .save(&store)
        .unwrap();
        let mut before = store.keys();
        before.sort();
        let removed = StoredRun::forget_undoably(&store);
        assert!(store.keys().is_empty());
        assert_eq!(removed.len(), 2);
        StoredRun::undo_forget(&store, &removed).unwrap();
        let mut after = store.keys();
        after.sort();
        assert_eq!(after, before);
        let (_, restored) = StoredRun::load(&store).unwrap().unwrap();
        assert_eq!(restored.finished(), 1);
    }
}
