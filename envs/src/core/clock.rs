//! Real-time play on a virtual clock. An environment that advances on its own declares a
//! [`Clock`]; whoever plays it (a person's key presses on a timer, a model's measured
//! latency) turns elapsed time into idle steps with [`VirtualClock`], and the episode
//! records how many idle steps came before each action, so a replay re-simulates exactly
//! what happened while the player was thinking. Nothing here reads a real clock.

use serde::Serialize;

/// How an environment advances without input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockMode {
    /// One step every tick: an action pressed between ticks is played at the next tick,
    /// otherwise the idle action is (FlappyBird, Highway). Every tick is a decision.
    Fixed,
    /// Actions are played at once; after `tick_ms` without one, the idle action is
    /// played (GameVerse Snake's Slow and Normal modes). Idle steps are not decisions.
    IdleTimeout,
}

/// An environment's real-time rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Clock {
    pub mode: ClockMode,
    /// Virtual milliseconds per tick (or of the idle timeout).
    pub tick_ms: u32,
    /// The action preset played when no action comes.
    pub idle: usize,
}

/// Virtual time in milliseconds and the idle steps it makes due.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VirtualClock {
    clock: Clock,
    now_ms: u64,
    /// When the last step (Fixed) or the last action (IdleTimeout) happened.
    mark_ms: u64,
}

impl VirtualClock {
    pub fn new(clock: Clock) -> Self {
        Self {
            clock,
            now_ms: 0,
            mark_ms: 0,
        }
    }

    pub fn clock(&self) -> Clock {
        self.clock
    }

    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// Lets `ms` pass without an action; returns the idle steps that fall due.
    pub fn wait(&mut self, ms: u64) -> u32 {
        self.now_ms += ms;
        let tick = u64::from(self.clock.tick_ms.max(1));
        let due = (self.now_ms - self.mark_ms) / tick;
        self.mark_ms += due * tick;
        u32::try_from(due).unwrap_or(u32::MAX)
    }

    /// An action is played now. In `Fixed` mode it takes the next tick, which the caller
    /// plays (the clock moves to it); in `IdleTimeout` mode it restarts the timeout.
    pub fn act(&mut self) {
        match self.clock.mode {
            ClockMode::Fixed => {
                let tick = u64::from(self.clock.tick_ms.max(1));
                self.mark_ms += tick;
                self.now_ms = self.now_ms.max(self.mark_ms);
            }
            ClockMode::IdleTimeout => self.mark_ms = self.now_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_timeout_counts_whole_timeouts_since_the_last_action() {
        let mut c = VirtualClock::new(Clock {
            mode: ClockMode::IdleTimeout,
            tick_ms: 10_000,
            idle: 0,
        });
        assert_eq!(c.wait(9_999), 0);
        assert_eq!(c.wait(1), 1);
        assert_eq!(c.wait(25_000), 2);
        c.act();
        assert_eq!(c.wait(9_000), 0);
        assert_eq!(c.now_ms(), 44_000);
    }

    #[test]
    fn fixed_ticks_keep_their_phase() {
        let mut c = VirtualClock::new(Clock {
            mode: ClockMode::Fixed,
            tick_ms: 33,
            idle: 0,
        });
        assert_eq!(c.wait(100), 3);
        c.act();
        assert_eq!(c.now_ms(), 132);
        assert_eq!(c.wait(10), 0);
        assert_eq!(c.wait(23), 1);
    }
}
