//! Start, pause and stop of a model run — one task or a whole suite — as plain state:
//! the run's phase, the flags its workers read between requests, and the count of
//! workers still going (the last one to end decides how the run ended). The pages'
//! controller (`controllers::run`) holds these and spawns the workers.

use std::cell::Cell;

/// Where a run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunPhase {
    /// Not started (or discarded).
    Idle,
    Running,
    /// Paused by the person: requests in flight finish, no new one starts.
    Paused,
    /// Every episode ran to its end.
    Finished,
    /// Stopped before the end (what finished is kept).
    Stopped,
}

impl RunPhase {
    /// Whether workers are (or may be) going.
    pub fn is_active(self) -> bool {
        matches!(self, Self::Running | Self::Paused)
    }

    /// The phase after the pause button.
    pub fn toggled(self) -> Self {
        match self {
            Self::Running => Self::Paused,
            Self::Paused => Self::Running,
            other => other,
        }
    }

    /// The phase once the last worker ended: finished when nothing is left to run.
    pub fn ended(complete: bool) -> Self {
        if complete {
            Self::Finished
        } else {
            Self::Stopped
        }
    }
}

/// The pause and stop flags a run's workers read between requests.
#[derive(Debug, Default)]
pub struct Control {
    paused: Cell<bool>,
    stopped: Cell<bool>,
}

impl Control {
    pub fn is_paused(&self) -> bool {
        self.paused.get()
    }

    pub fn is_stopped(&self) -> bool {
        self.stopped.get()
    }

    pub fn set_paused(&self, paused: bool) {
        self.paused.set(paused);
    }

    /// Stops the run: workers end at their next check (a stop also ends a pause).
    pub fn stop(&self) {
        self.stopped.set(true);
    }
}

/// The workers of a run still going.
#[derive(Debug, Default)]
pub struct WorkerPool {
    running: Cell<usize>,
}

impl WorkerPool {
    /// `n` workers start.
    pub fn start(&self, n: usize) {
        self.running.set(self.running.get() + n);
    }

    /// A worker ended; whether it was the last one.
    pub fn ended(&self) -> bool {
        let left = self.running.get().saturating_sub(1);
        self.running.set(left);
        left == 0
    }

    pub fn running(&self) -> usize {
        self.running.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_toggle_and_end() {
        assert!(RunPhase::Running.is_active() && RunPhase::Paused.is_active());
        assert!(!RunPhase::Idle.is_active() && !RunPhase::Stopped.is_active());
        assert_eq!(RunPhase::Running.toggled(), RunPhase::Paused);
        assert_eq!(RunPhase::Paused.toggled(), RunPhase::Running);
        assert_eq!(RunPhase::Finished.toggled(), RunPhase::Finished);
        assert_eq!(RunPhase::ended(true), RunPhase::Finished);
        assert_eq!(RunPhase::ended(false), RunPhase::Stopped);
    }

    #[test]
    fn the_last_worker_to_end_is_told_so() {
        let pool = WorkerPool::default();
        pool.start(3);
        assert_eq!(pool.running(), 3);
        assert!(!pool.ended());
        assert!(!pool.ended());
        assert!(pool.ended());
        assert!(pool.ended(), "an extra end never underflows");
        let c = Control::default();
        assert!(!c.is_paused() && !c.is_stopped());
        c.set_paused(true);
        c.stop();
        assert!(c.is_paused() && c.is_stopped());
    }
}
