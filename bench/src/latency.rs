//! A model's thinking time as game time, for environments whose clock waits for actions
//! (`ClockMode::IdleTimeout`: GameVerse Snake's Slow and Normal latency modes). The four
//! rules of docs/gameverse.md ("Snake's latency modes") on the generic virtual clock:
//!
//! 1. Nothing moves before the first reply (it starts the game loop).
//! 2. The reply to an observation arrives its latency later; the idle steps due by then
//!    (one per timeout since the last move) are played first, then the reply, which the
//!    environment is told the time of (`Env::set_action_time`: it ends the game on time).
//! 3. The timeout restarts with the first reply and with a reply that moved the game,
//!    not with one that pressed no key (the state tells them apart).
//! 4. The next observation is taken the environment's observation delay after the reply,
//!    after the idle steps due by then.
//!
//! Model runs and verification drive the runner through [`LatencyClock::play`] alike, so
//! a record's latencies (`Decision::latency_ms`) re-simulate it exactly. Where the
//! latencies come from is a [`LatencySource`].

use serde::{Deserialize, Serialize};

use crate::episode::{Decision, EpisodeError, EpisodeRecord, EpisodeRunner};
use envs::core::clock::{ClockMode, VirtualClock};

/// Where a model run's thinking times come from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum LatencySource {
    /// The time from sending a decision's first request to its accepted reply (faithful,
    /// not reproducible).
    #[default]
    Measured,
    /// The same time for every reply.
    Fixed(u64),
    /// The latencies of a previous record, reply by reply.
    Replay(Vec<u64>),
}

impl LatencySource {
    /// `measured` or `fixed:MS` (a replay needs a record: [`replay_of`](Self::replay_of)).
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text == "measured" {
            return Ok(Self::Measured);
        }
        if let Some(ms) = text.strip_prefix("fixed:") {
            return ms.trim().parse::<u64>().map(Self::Fixed).map_err(|_| {
                format!("fixed latency {ms:?} is not a whole number of milliseconds")
            });
        }
        Err(format!(
            "latency {text:?} is not `measured`, `fixed:MS` or `replay:FILE`"
        ))
    }

    /// The thinking times a record's decisions carry, in order.
    pub fn replay_of(record: &EpisodeRecord) -> Result<Self, String> {
        let latencies: Vec<u64> = record
            .decisions
            .iter()
            .filter_map(|d| d.latency_ms)
            .collect();
        if latencies.is_empty() {
            return Err(format!(
                "the episode of task {} records no latencies (only real-time runs do)",
                record.task
            ));
        }
        Ok(Self::Replay(latencies))
    }

    /// The setting's name for run settings and summaries.
    pub fn name(&self) -> String {
        match self {
            Self::Measured => "measured".into(),
            Self::Fixed(ms) => format!("fixed:{ms}"),
            Self::Replay(l) => format!("replay ({} latencies)", l.len()),
        }
    }

    /// The thinking time of reply `index` (0-based), given the measured one.
    pub fn latency(&self, index: usize, measured_ms: u64) -> Result<u64, String> {
        match self {
            Self::Measured => Ok(measured_ms),
            Self::Fixed(ms) => Ok(*ms),
            Self::Replay(l) => l.get(index).copied().ok_or_else(|| {
                format!(
                    "the replayed record has {} latencies and this run needs more",
                    l.len()
                )
            }),
        }
    }
}

/// The virtual clock of one timed episode.
#[derive(Clone, Debug)]
pub struct LatencyClock {
    clock: VirtualClock,
    observation_delay_ms: u64,
    started: bool,
}

impl LatencyClock {
    /// A clock for `runner`'s task when its environment's clock waits for actions.
    pub fn for_runner(runner: &EpisodeRunner) -> Option<Self> {
        let clock = runner.clock()?;
        (clock.mode == ClockMode::IdleTimeout).then(|| Self {
            clock: VirtualClock::new(clock),
            observation_delay_ms: runner.env().observation_delay_ms(),
            started: false,
        })
    }

    /// Virtual time of the last observation (ms since the first).
    pub fn now_ms(&self) -> u64 {
        self.clock.now_ms()
    }

    /// One decision whose reply came `latency_ms` after the last observation: the idle
    /// steps due by its arrival, the reply (`act`, which records the decision, unless an
    /// idle step ended the episode first), and the idle steps due by the next
    /// observation. The recorded decision carries the latency.
    pub fn play(
        &mut self,
        runner: &mut EpisodeRunner,
        latency_ms: u64,
        act: impl FnOnce(&mut EpisodeRunner) -> Result<(), EpisodeError>,
    ) -> Result<(), EpisodeError> {
        let due = self.clock.wait(latency_ms);
        runner.set_latency(latency_ms);
        if self.started && due > 0 {
            runner.idle(due)?;
            if runner.is_done() {
                return Ok(());
            }
        }
        runner.set_action_time(self.clock.now_ms());
        let before = runner.env().snapshot();
        act(runner)?;
        if !self.started || runner.env().snapshot() != before {
            self.clock.act();
            self.started = true;
        }
        let late = self.clock.wait(self.observation_delay_ms);
        if !runner.is_done() && late > 0 {
            runner.idle(late)?;
        }
        Ok(())
    }
}

/// A recorded episode played again decision by decision as it was played: a model's
/// timed real-time record on its thinking-time clock, any other by its idle steps then
/// its action (at its recorded time, for a person's real-time play). One rule for every replay of a record (the auditor's evidence, step
/// videos).
pub struct RecordReplay {
    timed: Option<LatencyClock>,
}

impl RecordReplay {
    /// For `record`, played on `runner` from the task's start.
    pub fn new(runner: &EpisodeRunner, record: &EpisodeRecord) -> Self {
        let timed = record
            .decisions
            .iter()
            .any(|d| d.latency_ms.is_some())
            .then(|| LatencyClock::for_runner(runner))
            .flatten();
        Self { timed }
    }

    /// Whether the record replays on its thinking times.
    pub fn is_timed(&self) -> bool {
        self.timed.is_some()
    }

    /// Plays `d` with `apply` (which makes its action). Decision `index` (0-based) may
    /// already be recorded: an idle step after the last reply ended the episode, and
    /// the clock recorded it; then nothing is played, nor when `d`'s idle steps end the
    /// episode.
    pub fn play(
        &mut self,
        runner: &mut EpisodeRunner,
        index: usize,
        d: &Decision,
        apply: impl FnOnce(&mut EpisodeRunner) -> Result<(), EpisodeError>,
    ) -> Result<(), EpisodeError> {
        if runner.decisions().len() > index {
            return Ok(());
        }
        match (&mut self.timed, d.latency_ms) {
            (Some(clock), Some(latency)) => clock.play(runner, latency, apply),
            _ => {
                if d.idle_before > 0 {
                    runner.idle(d.idle_before)?;
                    if runner.is_done() {
                        return Ok(());
                    }
                }
                if let Some(at) = d.at_ms {
                    runner.record_action_time(at);
                }
                apply(runner)
            }
        }
    }
}

/// The thinking times of an episode's decisions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LatencyStats {
    pub count: usize,
    pub min_ms: u64,
    pub median_ms: u64,
    pub max_ms: u64,
}

impl LatencyStats {
    /// Over every decision that carries a latency; `None` when none does.
    pub fn of<'a>(decisions: impl IntoIterator<Item = &'a Decision>) -> Option<Self> {
        let mut l: Vec<u64> = decisions.into_iter().filter_map(|d| d.latency_ms).collect();
        l.sort_unstable();
        let n = l.len();
        let (&min_ms, &max_ms) = (l.first()?, l.last()?);
        let median_ms = if n % 2 == 1 {
            l[n / 2]
        } else {
            (l[n / 2 - 1] + l[n / 2]) / 2
        };
        Some(Self {
            count: n,
            min_ms,
            median_ms,
            max_ms,
        })
    }

    /// `latency min 3.0 s · median 12.0 s · max 35.0 s (40 replies)`.
    pub fn summary(&self) -> String {
        let s = |ms: u64| format!("{:.1} s", ms as f64 / 1000.0);
        format!(
            "latency min {} · median {} · max {} ({} replies)",
            s(self.min_ms),
            s(self.median_ms),
            s(self.max_ms),
            self.count
        )
    }
}

#[cfg(test)]
mod tests;
