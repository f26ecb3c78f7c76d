//! A suite run in this tab: the run (`runner::suite_run::SuiteRun`), the episodes in
//! flight, the key, the demonstration images its episodes share and its timing; the
//! workers that take jobs until none is left or the run is stopped (each finished
//! episode stored at once), and what the progress section shows.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use bench::encode::ImageEncoder;
use bench::model_episode::{DemoCache, ModelEpisode};
use bench::results::ResultEpisode;
use bench::{run_episode, Suite};

use super::drive::{drive, Ended};
use super::storage::local;
use super::time::{now_ms, sleep};
use crate::runner::control::Control;
use crate::runner::diagnose::describe;
use crate::runner::suite_run::{
    eta_ms, format_duration, AgentChoice, RunState, StoredRun, SuiteRun,
};
use crate::suite_data;

/// Said when a finished episode could not be stored.
const NOT_SAVED: &str = "The episodes finished in this tab are kept here: export the results below before closing or reloading the tab.";

/// The live state of a run.
pub struct Live {
    pub run: SuiteRun,
    /// The suite of the run's plan.
    pub suite: &'static Suite,
    /// Episodes in flight, by job.
    active: BTreeMap<usize, Rc<RefCell<ModelEpisode>>>,
    pub key: Option<String>,
    /// Encoded demonstration frames, by task, shared by its episodes.
    demo_images: BTreeMap<String, DemoCache>,
    started_ms: f64,
    finished_here: usize,
    /// The app's own work per request, summed, and the number of requests.
    work_ms: f64,
    requests: usize,
    pub save_error: Option<String>,
    /// The last API or network error of an episode that has ended, in words.
    last_error: Option<String>,
}

/// The run, shared by the page and its workers (`None`: no run).
pub type SharedRun = Rc<RefCell<Option<Live>>>;

/// What the progress section shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub done: usize,
    pub total: usize,
    pub running: usize,
    pub eta: String,
    pub active: Vec<String>,
    pub work: String,
    pub save_error: Option<String>,
    /// The usage of attempts cut short, in words.
    pub unfinished: Option<String>,
    /// The newest endpoint error, worded as on `/run` and `/models`.
    pub last_error: Option<String>,
    pub summary: String,
}

impl Live {
    /// A run (its plan's suite must be built in).
    pub fn new(run: SuiteRun, key: Option<String>) -> Result<Self, String> {
        let suite = suite_data::suite_for(Some(&run.plan.suite)).map_err(|e| e.to_string())?;
        Ok(Self {
            run,
            suite,
            active: BTreeMap::new(),
            key,
            demo_images: BTreeMap::new(),
            started_ms: now_ms(),
            finished_here: 0,
            work_ms: 0.0,
            requests: 0,
            save_error: None,
            last_error: None,
        })
    }

    /// Workers are about to start: the clock of the ETA starts now.
    pub fn launched(&mut self) {
        self.started_ms = now_ms();
        self.finished_here = 0;
        self.store_state(RunState::Running);
    }

    /// Stores the plan with `state` (a failure is kept for the page to show).
    pub fn store_state(&mut self, state: RunState) {
        let stored = StoredRun {
            plan: self.run.plan.clone(),
            state,
            key_needed: self.key.is_some(),
        };
        if let Err(e) = stored.save(&local()) {
            self.save_error = Some(e.to_string());
        }
    }

    pub fn progress(&self) -> Progress {
        let (done, total) = (self.run.finished(), self.run.total());
        let elapsed = now_ms() - self.started_ms;
        let eta = eta_ms(self.finished_here, elapsed, total - done)
            .filter(|_| done < total)
            .map(|ms| format!("about {} left", format_duration(ms)))
            .unwrap_or_default();
        let active: Vec<String> = self
            .active
            .values()
            .map(|e| {
                let e = e.borrow();
                let task = e.runner().map(|r| r.task().id.clone()).unwrap_or_default();
                format!("{task} (decision {})", e.step())
            })
            .collect();
        // Requests of the episodes in flight count too: the figure is there from the
        // first answer, not only once an episode has finished.
        let (mut work_ms, mut requests) = (self.work_ms, self.requests);
        let mut last_error = None;
        for e in self.active.values() {
            let e = e.borrow();
            work_ms += e.turns().iter().map(|t| t.work_ms).sum::<f64>();
            requests += e.turns().len();
            if let Some(err) = e.last_error() {
                last_error = Some(describe(err, e.key_sent()));
            }
        }
        let work = if requests > 0 {
            work_ms / requests as f64
        } else {
            0.0
        };
        let p = &self.run.plan;
        Progress {
            done,
            total,
            running: self.run.running(),
            eta,
            active,
            work: format!("{work:.2}"),
            save_error: self.save_error.clone(),
            unfinished: self.run.unfinished.text(),
            last_error: last_error.or_else(|| self.last_error.clone()),
            summary: format!(
                "Run {} · {} · {} task(s) × {} · {} in parallel",
                p.id,
                match p.agent {
                    AgentChoice::Model => p.profile.model.clone(),
                    AgentChoice::Random { seed } => format!("random (seed {seed})"),
                    AgentChoice::Oracle => "oracle".to_string(),
                },
                p.tasks.len(),
                p.episodes_per_task,
                p.concurrency
            ),
        }
    }
}

impl Live {
    /// Stores a finished episode at once (a reload keeps it) and counts it.
    fn finish(
        &mut self,
        job: usize,
        record: bench::EpisodeRecord,
        usage: Option<bench::results::Usage>,
    ) {
        let episode = ResultEpisode {
            record,
            repeat: self.run.jobs()[job].repeat,
            usage,
        };
        if let Err(err) = self.run.finish_and_store(&local(), job, episode) {
            self.save_error = Some(format!("{err}. {NOT_SAVED}"));
        }
        self.finished_here += 1;
    }

    /// Gives `job` back unfinished; its requests so far are kept as given up.
    fn release(&mut self, job: usize) {
        if let Err(e) = self.run.release_and_store(&local(), job) {
            self.save_error = Some(e.to_string());
        }
    }

    /// Records the usage so far of the episode of `job` after an answer, so a reload
    /// does not lose it.
    fn in_flight(&mut self, job: usize, usage: &bench::results::Usage) {
        if let Err(e) = self.run.progress_and_store(&local(), job, usage) {
            self.save_error = Some(e.to_string());
        }
    }
}

/// Takes jobs until none is left or the run is stopped.
pub async fn worker(
    live: SharedRun,
    control: Rc<Control>,
    bump: impl Fn() + Copy + 'static,
    finished: impl Fn(),
) {
    loop {
        let (job, task, settings, profile, key, demo_images, local) = {
            let mut b = live.borrow_mut();
            let Some(l) = b.as_mut() else { return };
            if control.is_stopped() {
                return;
            }
            let Some((job, j)) = l.run.take_job() else {
                return;
            };
            let Ok(task) = suite_data::find_task(l.suite, &j.task) else {
                l.release(job);
                return;
            };
            let demo_images = l.demo_images.entry(task.id.clone()).or_default().clone();
            (
                job,
                task,
                l.run.plan.settings.clone(),
                l.run.plan.profile.clone(),
                l.key.clone(),
                demo_images,
                l.run.plan.agent.local_agent(j.repeat),
            )
        };
        // A built-in agent plays at once, without requests; the pause lets the page
        // draw between episodes.
        if let Some(mut agent) = local {
            sleep(1).await;
            let played = run_episode(task, agent.as_mut());
            if let Some(l) = live.borrow_mut().as_mut() {
                match played {
                    Ok(record) => l.finish(job, record, None),
                    Err(e) => {
                        l.release(job);
                        l.save_error = Some(format!("{}: {e}", task.id));
                        return;
                    }
                }
            }
            bump();
            finished();
            continue;
        }
        let made = ModelEpisode::new(task, profile.endpoint(), settings.session, profile.prices)
            .map(|ep| (ep, ImageEncoder::new(settings.image)));
        let (mut ep, mut encoder) = match made {
            Ok(x) => x,
            Err(e) => {
                if let Some(l) = live.borrow_mut().as_mut() {
                    l.release(job);
                    l.save_error = Some(format!("{}: {e}", task.id));
                }
                return;
            }
        };
        ep.share_demo_images(demo_images, settings.image_key());
        let ep = Rc::new(RefCell::new(ep));
        if let Some(l) = live.borrow_mut().as_mut() {
            l.active.insert(job, ep.clone());
        }
        bump();
        let changed = {
            let (live, ep) = (live.clone(), ep.clone());
            move || {
                if let (Ok(mut b), Ok(e)) = (live.try_borrow_mut(), ep.try_borrow()) {
                    if let Some(l) = b.as_mut() {
                        l.in_flight(job, e.usage());
                    }
                }
                bump();
            }
        };
        let ended = drive(
            ep.clone(),
            &mut encoder,
            key,
            profile.timeout_s,
            profile.base_url.clone(),
            settings.video_fps,
            control.clone(),
            changed,
        )
        .await;
        let mut b = live.borrow_mut();
        let Some(l) = b.as_mut() else { return };
        l.active.remove(&job);
        let e = ep.borrow();
        l.work_ms += e.turns().iter().map(|t| t.work_ms).sum::<f64>();
        l.requests += e.turns().len();
        if let Some(err) = e.last_error() {
            l.last_error = Some(describe(err, e.key_sent()));
        }
        match (ended, e.record()) {
            (Ended::Finished, Some(record)) => {
                l.finish(job, record.clone(), Some(e.usage().clone()))
            }
            _ => l.release(job),
        }
        drop(e);
        drop(b);
        bump();
        finished();
    }
}
