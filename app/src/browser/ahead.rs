//! The run's first request prepared while the run page is open
//! (`bench::first_request`), a few milliseconds at a time between the page's turns,
//! again whenever the settings change; the run's episode shares what it encoded.

use std::cell::Cell;
use std::rc::Rc;

use bench::first_request::{FirstRequestAhead, Progress};
use bench::model_episode::DemoCache;
use bench::Task;
use leptos::prelude::*;

use super::drive::in_slices;
use super::time::yield_to_page;
use crate::runner::profiles::Profile;
use crate::runner::settings::RunSettings;

/// The run page's preparation; one at a time.
#[derive(Clone)]
pub struct Ahead {
    pub cache: DemoCache,
    pub progress: RwSignal<Progress>,
    /// Bumped to stop the preparation under way.
    generation: Rc<Cell<u64>>,
}

impl Ahead {
    pub fn new() -> Self {
        Self {
            cache: DemoCache::default(),
            progress: RwSignal::new(Progress::Starting),
            generation: Rc::new(Cell::new(0)),
        }
    }

    /// Prepares `task`'s first request as a run with `settings` (resolved for the
    /// profile) would send it, after the page's next turn; stops the one before.
    pub fn restart(&self, task: &Task, settings: &RunSettings, profile: &Profile) {
        let generation = self.stop();
        self.progress.set(Progress::Starting);
        if !settings.problems().is_empty() {
            return;
        }
        let Ok(Some(mut ahead)) = FirstRequestAhead::new(
            task,
            profile.endpoint(),
            settings.session,
            profile.prices,
            settings.image,
            self.cache.clone(),
        ) else {
            // Start says why.
            return;
        };
        let (progress, current) = (self.progress, self.generation.clone());
        leptos::task::spawn_local(async move {
            // The page draws what changed first.
            yield_to_page().await;
            let stopped = || current.get() != generation;
            let piece = || {
                let p = ahead.step().clone();
                let over = p.is_over();
                if !stopped() {
                    progress.set(p);
                }
                !over
            };
            in_slices(piece, stopped).await;
        });
    }

    /// Stops the preparation under way (the run takes over, the settings changed, the
    /// page closed); what it encoded stays in the cache, and an unfinished one's
    /// progress is no longer shown (the run goes on with the work). Returns the new
    /// generation.
    pub fn stop(&self) -> u64 {
        let next = self.generation.get() + 1;
        self.generation.set(next);
        if self.progress.try_with_untracked(Progress::is_over) == Some(false) {
            self.progress.try_set(Progress::Starting);
        }
        next
    }
}

impl Default for Ahead {
    fn default() -> Self {
        Self::new()
    }
}
