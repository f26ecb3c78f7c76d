//! The usage of episodes that never finished. An episode in flight when the page goes
//! away, or when the run is stopped, starts again from its beginning (`docs/run.md`),
//! so the requests it had made belong to no episode of the results; they are kept
//! here, stored after every answer, and counted in the run's usage.

use std::collections::BTreeMap;

use bench::results::Usage;
use serde::{Deserialize, Serialize};

use crate::storage::{Store, StoreError};
use crate::storage_keys::suite_run_unfinished;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Unfinished {
    /// The usage so far of each episode in flight, by job.
    pub in_flight: BTreeMap<usize, Usage>,
    /// Attempts cut short (by a reload or a stop) that had made requests.
    pub abandoned_attempts: u32,
    /// Their usage, summed.
    pub abandoned: Usage,
}

impl Unfinished {
    /// Records the usage so far of the episode of `job`; whether it changed (and so
    /// should be stored).
    pub fn progress(&mut self, job: usize, usage: &Usage) -> bool {
        if usage.requests == 0 || self.in_flight.get(&job) == Some(usage) {
            return false;
        }
        self.in_flight.insert(job, usage.clone());
        true
    }

    /// The episode of `job` finished: its usage is in its result now.
    pub fn finished(&mut self, job: usize) {
        self.in_flight.remove(&job);
    }

    /// The episode of `job` was given up: it will run again from its start.
    pub fn abandon(&mut self, job: usize) {
        if let Some(u) = self.in_flight.remove(&job) {
            self.abandoned_attempts += 1;
            self.abandoned.add(&u);
        }
    }

    /// The page went away: every episode in flight is given up.
    pub fn abandon_all(&mut self) {
        let jobs: Vec<usize> = self.in_flight.keys().copied().collect();
        jobs.into_iter().for_each(|j| self.abandon(j));
    }

    pub fn is_empty(&self) -> bool {
        self.in_flight.is_empty() && self.abandoned_attempts == 0
    }

    /// What the progress and results sections add to the run's usage.
    pub fn text(&self) -> Option<String> {
        (self.abandoned_attempts > 0).then(|| {
            let attempts = if self.abandoned_attempts == 1 {
                "1 attempt".to_string()
            } else {
                format!("{} attempts", self.abandoned_attempts)
            };
            format!(
                "Also spent on {attempts} cut short by a reload or a stop and started again: \
                 {}.",
                self.abandoned.summary()
            )
        })
    }

    /// The stored usage of run `run_id` (none when there is none or it does not read).
    pub fn load(store: &dyn Store, run_id: &str) -> Self {
        store
            .get(&suite_run_unfinished(run_id))
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default()
    }

    pub fn save(&self, store: &dyn Store, run_id: &str) -> Result<(), StoreError> {
        let key = suite_run_unfinished(run_id);
        if self.is_empty() {
            store.remove(&key);
            return Ok(());
        }
        store.set(&key, &serde_json::to_string(self).unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemoryStore;

    fn usage(requests: u32) -> Usage {
        Usage {
            requests,
            input_tokens: 100 * u64::from(requests),
            output_tokens: 10 * u64::from(requests),
            latency_ms: 0,
            cost_usd: Some(0.001 * f64::from(requests)),
        }
    }

    #[test]
    fn attempts_cut_short_keep_their_usage_across_a_reload() {
        let store = MemoryStore::default();
        let mut u = Unfinished::default();
        assert!(!u.progress(0, &Usage::default()), "nothing sent yet");
        assert!(u.progress(0, &usage(3)));
        assert!(!u.progress(0, &usage(3)), "unchanged");
        assert!(u.progress(1, &usage(5)));
        assert!(u.progress(2, &usage(2)));
        u.finished(2);
        u.save(&store, "r1").unwrap();

        // The page reloads: the two episodes in flight start again.
        let mut back = Unfinished::load(&store, "r1");
        assert_eq!(back, u);
        back.abandon_all();
        assert_eq!(back.abandoned_attempts, 2);
        assert_eq!(back.abandoned.requests, 8);
        assert_eq!(back.abandoned.input_tokens, 800);
        assert!(back.in_flight.is_empty());
        assert_eq!(
            back.text().unwrap(),
            "Also spent on 2 attempts cut short by a reload or a stop and started again: \
             8 requests · 800 input / 80 output tokens · $0.0080."
        );
        // A stop gives up one more.
        back.progress(1, &usage(1));
        back.abandon(1);
        back.abandon(7); // never in flight: nothing to add
        assert_eq!(back.abandoned_attempts, 3);
        back.save(&store, "r1").unwrap();
        assert_eq!(Unfinished::load(&store, "r1").abandoned.requests, 9);
        Unfinished::default().save(&store, "r1").unwrap();
        assert_eq!(store.get(&suite_run_unfinished("r1")), None);
    }
}
