//! A virtual-clock driver for Snake's real-time modes, timed as the reference's game loop
//! and environment are (integer milliseconds, no wall clock):
//!
//! - The loop starts when the first reply is executed; before that nothing moves.
//! - A reply to the observation captured at `c` arrives at `a = c + latency`. First every
//!   auto-advance due by then happens (one cell in the current heading at `m + T`,
//!   `m` the time of the last move, while `m + T ≤ a`); then the reply's first key moves
//!   the snake at `a`.
//! - The next observation is captured 500 ms later, after the auto-advances due by then.
//! - After each move the loop checks the time: the game ends at the first move at or
//!   after `max_duration`.
//!
//! The golden generator drives the reference's own loop on the same virtual clock, so a
//! run with recorded latencies replays exactly.

use super::{LatencyMode, Snake, OBSERVATION_DELAY_MS};
use crate::gameverse::StepResult;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RealtimeDriver {
    timeout_ms: u64,
    capture_ms: u64,
    loop_start_ms: Option<u64>,
    last_move_ms: u64,
}

impl RealtimeDriver {
    /// A driver for a real-time latency mode (`None` for Stop, which needs none).
    pub fn new(latency: LatencyMode) -> Option<Self> {
        Some(RealtimeDriver {
            timeout_ms: latency.auto_advance_after_ms()?,
            capture_ms: 0,
            loop_start_ms: None,
            last_move_ms: 0,
        })
    }

    /// Virtual time of the last observation.
    pub fn capture_ms(&self) -> u64 {
        self.capture_ms
    }

    /// Virtual time at which the game loop started, once it has.
    pub fn loop_start_ms(&self) -> Option<u64> {
        self.loop_start_ms
    }

    fn after_move(&self, game: &mut Snake, at_ms: u64, start: u64) {
        // The loop re-checks the time only while the game goes on.
        if !game.game_over() {
            game.loop_check(at_ms - start);
        }
    }

    /// Auto-advances due by `until_ms` (inclusive).
    fn advance_until(&mut self, game: &mut Snake, until_ms: u64) {
        let Some(start) = self.loop_start_ms else {
            return;
        };
        while !game.game_over() && self.last_move_ms + self.timeout_ms <= until_ms {
            self.last_move_ms += self.timeout_ms;
            game.auto_advance();
            self.after_move(game, self.last_move_ms, start);
        }
    }

    /// One step: the reply `text` to the last observation arrives `latency_ms` later.
    /// Returns the step's outcome as of the next observation.
    pub fn step(&mut self, game: &mut Snake, text: &str, latency_ms: u64) -> StepResult {
        let arrival = self.capture_ms + latency_ms;
        let start = match self.loop_start_ms {
            Some(start) => {
                self.advance_until(game, arrival);
                start
            }
            None => {
                self.loop_start_ms = Some(arrival);
                self.last_move_ms = arrival;
                if !game.game_over() {
                    game.loop_check(0);
                }
                arrival
            }
        };
        let key = Snake::parse_realtime_key(game.config().action_mode, text);
        let was_over = game.game_over();
        let first = game.step_realtime(key);
        if key.is_some() && !was_over {
            self.last_move_ms = arrival;
            self.after_move(game, arrival, start);
        }
        self.capture_ms = arrival + OBSERVATION_DELAY_MS;
        self.advance_until(game, self.capture_ms);
        let rest = game.settle();
        StepResult {
            reward: first.reward + rest.reward,
            ..rest
        }
    }
}
