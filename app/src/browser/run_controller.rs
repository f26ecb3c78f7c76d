//! The one controller of model runs on the run and suite-run pages: the run's phase as
//! a signal, start (a pool of workers spawned on the page's task queue), pause and
//! stop. The logic is plain (`runner::control`); this holds it for the view.

use std::future::Future;
use std::rc::Rc;

use leptos::prelude::*;

use crate::runner::control::{Control, RunPhase, WorkerPool};

#[derive(Clone, Copy)]
pub struct RunController {
    phase: RwSignal<RunPhase>,
    control: StoredValue<Rc<Control>, LocalStorage>,
}

impl RunController {
    pub fn new() -> Self {
        Self {
            phase: RwSignal::new(RunPhase::Idle),
            control: StoredValue::new_local(Rc::new(Control::default())),
        }
    }

    /// The phase (tracked).
    pub fn phase(&self) -> RunPhase {
        self.phase.get()
    }

    /// Sets the phase of a run restored from storage (or discarded).
    pub fn set_phase(&self, phase: RunPhase) {
        self.phase.set(phase);
    }

    /// Whether workers are going (tracked): the start buttons are disabled then.
    pub fn is_active(&self) -> bool {
        self.phase.get().is_active()
    }

    /// Whether workers are going, untracked.
    pub fn is_active_untracked(&self) -> bool {
        self.phase.get_untracked().is_active()
    }

    /// Starts `workers` workers with fresh pause and stop flags. When the last one
    /// ends, `complete()` says whether the run got to its end (finished) or not
    /// (stopped), and `ended` hears of it.
    pub fn start<W, F>(
        &self,
        workers: usize,
        work: W,
        complete: impl Fn() -> bool + 'static,
        ended: impl Fn(RunPhase) + 'static,
    ) where
        W: Fn(Rc<Control>) -> F,
        F: Future<Output = ()> + 'static,
    {
        let control = Rc::new(Control::default());
        self.control.set_value(control.clone());
        self.phase.set(RunPhase::Running);
        let pool = Rc::new(WorkerPool::default());
        pool.start(workers);
        let finish = Rc::new(move || {
            let phase = RunPhase::ended(complete());
            ended(phase);
            phase
        });
        let phase = self.phase;
        for _ in 0..workers {
            let job = work(control.clone());
            let pool = pool.clone();
            let finish = finish.clone();
            leptos::task::spawn_local(async move {
                job.await;
                if pool.ended() {
                    phase.set(finish());
                }
            });
        }
    }

    /// Pauses a running run, resumes a paused one.
    pub fn toggle_pause(&self) {
        let next = self.phase.get_untracked().toggled();
        self.control
            .with_value(|c| c.set_paused(next == RunPhase::Paused));
        self.phase.set(next);
    }

    /// Stops the run: workers end at their next check.
    pub fn stop(&self) {
        self.control.with_value(|c| c.stop());
    }
}
