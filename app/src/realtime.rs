//! Real-time play: a person's input and the passing of real time turned into the steps
//! an environment with a clock (`Env::clock`) plays, on its virtual clock
//! (`envs::core::clock::VirtualClock`). The page feeds it the time from one timer and
//! every key press; it answers with what falls due:
//!
//! - `Fixed`: every tick is one step: the input pending since the last tick, or the idle
//!   preset when there is none (the latest input wins);
//! - `IdleTimeout`: input plays at once and restarts the timeout; each timeout that
//!   passes without input plays the idle preset.
//!
//! Only virtual time is recorded (the idle steps before each decision), so a replay
//! re-simulates exactly what happened however late the timer fired. Paused, nothing
//! falls due; the first input of a paused game starts it. Plain logic, tested natively.

use envs::core::clock::{Clock, ClockMode, VirtualClock};

/// The most real time one update counts: a tab the browser stopped timing (hidden,
/// asleep) does not play minutes of game at once when it comes back.
pub const MAX_CATCH_UP_MS: f64 = 1000.0;

/// What the environment plays, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Due<A> {
    /// This many idle steps (the clock's idle preset).
    Idle(u32),
    /// The person's input.
    Act(A),
}

/// The clock of one real-time game, fed with real time and input of type `A`.
#[derive(Clone, Debug)]
pub struct RealtimeDriver<A> {
    clock: VirtualClock,
    /// Input waiting for the next tick (`Fixed` mode).
    pending: Option<A>,
    /// The real time (ms) last counted; `None` while paused.
    last_real: Option<f64>,
    /// Real milliseconds counted but not yet whole.
    carry: f64,
}

impl<A> RealtimeDriver<A> {
    /// A game on `clock`, paused until [`resume`](Self::resume) or the first input.
    pub fn new(clock: Clock) -> Self {
        Self {
            clock: VirtualClock::new(clock),
            pending: None,
            last_real: None,
            carry: 0.0,
        }
    }

    pub fn clock(&self) -> Clock {
        self.clock.clock()
    }

    /// Virtual milliseconds since the start.
    pub fn virtual_ms(&self) -> u64 {
        self.clock.now_ms()
    }

    /// The game time of an input played now, for an environment whose clock waits for
    /// actions and which keeps game time itself (`Env::set_action_time`: GameVerse
    /// Snake ends on time); `None` for fixed ticks.
    pub fn action_time_ms(&self) -> Option<u64> {
        (self.clock.clock().mode == ClockMode::IdleTimeout).then(|| self.clock.now_ms())
    }

    pub fn is_paused(&self) -> bool {
        self.last_real.is_none()
    }

    /// How often the page's timer should call [`advance`](Self::advance): a few times
    /// per tick, so a step shows soon after it falls due.
    pub fn poll_ms(&self) -> u32 {
        (self.clock.clock().tick_ms / 4).clamp(10, 50)
    }

    /// Starts counting real time from `real_ms`.
    pub fn resume(&mut self, real_ms: f64) {
        if self.last_real.is_none() {
            self.last_real = Some(real_ms);
        }
    }

    /// Counts the time up to `real_ms`, then stops counting; returns what fell due.
    pub fn pause(&mut self, real_ms: f64) -> Vec<Due<A>> {
        let due = self.advance(real_ms);
        self.last_real = None;
        due
    }

    /// Pauses a running game, resumes a paused one.
    pub fn toggle(&mut self, real_ms: f64) -> Vec<Due<A>> {
        if self.is_paused() {
            self.resume(real_ms);
            Vec::new()
        } else {
            self.pause(real_ms)
        }
    }

    /// Lets real time pass up to `real_ms`; returns the steps that fell due.
    pub fn advance(&mut self, real_ms: f64) -> Vec<Due<A>> {
        let Some(last) = self.last_real else {
            return Vec::new();
        };
        self.last_real = Some(real_ms.max(last));
        let elapsed = (real_ms - last).clamp(0.0, MAX_CATCH_UP_MS) + self.carry;
        let whole = elapsed.floor();
        self.carry = elapsed - whole;
        let ticks = self.clock.wait(whole as u64);
        let mut due = Vec::new();
        match self.clock.clock().mode {
            ClockMode::IdleTimeout => push_idle(&mut due, ticks),
            ClockMode::Fixed => {
                for _ in 0..ticks {
                    match self.pending.take() {
                        Some(a) => due.push(Due::Act(a)),
                        None => push_idle(&mut due, 1),
                    }
                }
            }
        }
        due
    }

    /// The person's input at `real_ms`: what fell due before it, then (`IdleTimeout`)
    /// the input itself; in `Fixed` mode the input waits for the next tick. Input to a
    /// paused game starts it.
    pub fn input(&mut self, input: A, real_ms: f64) -> Vec<Due<A>> {
        self.resume(real_ms);
        let mut due = self.advance(real_ms);
        match self.clock.clock().mode {
            ClockMode::Fixed => self.pending = Some(input),
            ClockMode::IdleTimeout => {
                self.clock.act();
                due.push(Due::Act(input));
            }
        }
        due
    }

    /// Whether an input waits for the next tick.
    pub fn has_pending(&self) -> bool {
        self.pending.is_some()
    }
}

fn push_idle<A>(due: &mut Vec<Due<A>>, n: u32) {
    if n == 0 {
        return;
    }
    if let Some(Due::Idle(k)) = due.last_mut() {
        *k += n;
    } else {
        due.push(Due::Idle(n));
    }
}

/// Virtual time as the page shows it: `12.3 s`.
pub fn virtual_time_text(ms: u64) -> String {
    format!("{}.{} s", ms / 1000, (ms % 1000) / 100)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_envs::Runner;
    use envs::core::env::{Action, Env};

    fn fixed(tick: u32) -> RealtimeDriver<&'static str> {
        RealtimeDriver::new(Clock {
            mode: ClockMode::Fixed,
            tick_ms: tick,
            idle: 0,
        })
    }

    fn timeout(tick: u32) -> RealtimeDriver<&'static str> {
        RealtimeDriver::new(Clock {
            mode: ClockMode::IdleTimeout,
            tick_ms: tick,
            idle: 0,
        })
    }

    #[test]
    fn a_paused_game_plays_nothing_and_starts_on_input() {
        let mut d = fixed(100);
        assert!(d.is_paused());
        assert_eq!(d.advance(5_000.0), []);
        assert_eq!(d.virtual_ms(), 0);
        assert_eq!(d.input("right", 5_000.0), []);
        assert!(!d.is_paused() && d.has_pending());
        assert_eq!(d.advance(5_100.0), [Due::Act("right")]);
        assert_eq!(d.virtual_ms(), 100);
    }

    #[test]
    fn fixed_ticks_play_the_pending_input_or_idle() {
        let mut d = fixed(100);
        d.resume(0.0);
        assert_eq!(d.advance(99.0), []);
        assert_eq!(d.advance(250.0), [Due::Idle(2)]);
        // Two presses before the next tick: the latest wins.
        assert_eq!(d.input("left", 260.0), []);
        assert_eq!(d.input("right", 280.0), []);
        assert_eq!(d.advance(300.0), [Due::Act("right")]);
        assert_eq!(d.advance(410.0), [Due::Idle(1)]);
        // A press after a tick fell due but before the timer fired: the tick plays
        // first (idle), the press waits for the one after.
        assert_eq!(d.input("left", 505.0), [Due::Idle(1)]);
        assert_eq!(d.advance(599.0), []);
        assert_eq!(d.advance(600.0), [Due::Act("left")]);
        // A late timer plays every tick it missed, the pending input on the first.
        d.input("right", 610.0);
        assert_eq!(d.advance(950.0), [Due::Act("right"), Due::Idle(2)]);
        assert_eq!(d.virtual_ms(), 950);
    }

    #[test]
    fn idle_timeouts_play_idle_steps_and_input_restarts_them() {
        let mut d = timeout(1000);
        d.resume(0.0);
        assert_eq!(d.advance(999.0), []);
        assert_eq!(d.advance(1900.0), [Due::Idle(1)]);
        assert_eq!(d.advance(2500.0), [Due::Idle(1)]);
        // Input plays at once and restarts the timeout.
        assert_eq!(d.input("left", 2600.0), [Due::Act("left")]);
        assert_eq!(d.advance(3599.0), []);
        assert_eq!(d.advance(3600.0), [Due::Idle(1)]);
        // Idle time that fell due before an input plays before it.
        assert_eq!(d.advance(4000.0), []);
        assert_eq!(d.input("right", 4700.0), [Due::Idle(1), Due::Act("right")]);
        assert!(!d.has_pending());
    }

    #[test]
    fn pausing_stops_the_clock_and_catch_up_is_bounded() {
        let mut d = timeout(100);
        d.resume(0.0);
        assert_eq!(d.pause(150.0), [Due::Idle(1)]);
        assert!(d.is_paused());
        assert_eq!(d.advance(10_000.0), []);
        assert_eq!(d.toggle(10_000.0), []);
        assert!(!d.is_paused());
        assert_eq!(d.advance(10_050.0), [Due::Idle(1)], "150 + 50 ms");
        assert_eq!(d.virtual_ms(), 200);
        // A tab that slept for a minute counts one second.
        assert_eq!(d.advance(70_050.0), [Due::Idle(10)]);
        assert_eq!(d.virtual_ms(), 1200);
        assert_eq!(d.toggle(70_060.0), []);
        assert!(d.is_paused());
        // Fractions of milliseconds add up.
        let mut f = fixed(10);
        f.resume(0.0);
        let mut idle = 0;
        for i in 1..=30 {
            if let Some(Due::Idle(n)) = f.advance(f64::from(i) * 0.5).first() {
                idle += n;
            }
        }
        assert_eq!((idle, f.virtual_ms()), (1, 15));
        assert_eq!(f.poll_ms(), 10);
        assert_eq!(timeout(10_000).poll_ms(), 50);
        assert_eq!(virtual_time_text(12_345), "12.3 s");
    }

    /// Plays what fell due on `env`, as the pages do.
    fn play(env: &mut Runner, due: Vec<Due<usize>>, log: &mut Vec<(u32, usize)>, idle: &mut u32) {
        for d in due {
            match d {
                Due::Idle(n) => {
                    for _ in 0..n {
                        env.step(Action::Index(0)).unwrap();
                    }
                    *idle += n;
                }
                Due::Act(a) => {
                    env.step(Action::Index(a)).unwrap();
                    log.push((std::mem::take(idle), a));
                }
            }
        }
    }

    #[test]
    fn a_played_game_replays_from_its_idle_counts() {
        for mode in [ClockMode::Fixed, ClockMode::IdleTimeout] {
            let mut env = Runner::new(mode, 100);
            let mut d = RealtimeDriver::new(env.clock);
            let (mut log, mut idle) = (Vec::new(), 0);
            // Presses at uneven real times, a timer that fires every 40 ms.
            let presses = [(130.0, 2), (135.0, 2), (480.0, 1), (900.0, 2)];
            let mut t = 0.0;
            for (at, a) in presses {
                while t + 40.0 < at {
                    t += 40.0;
                    play(&mut env, d.advance(t), &mut log, &mut idle);
                }
                play(&mut env, d.input(a, at), &mut log, &mut idle);
            }
            play(&mut env, d.advance(1500.0), &mut log, &mut idle);
            assert!(!log.is_empty(), "{mode:?}");
            // Replaying the recorded idle counts and actions reaches the same state.
            let mut again = Runner::new(mode, 100);
            for &(idle_before, a) in &log {
                for _ in 0..idle_before {
                    again.step(Action::Index(0)).unwrap();
                }
                again.step(Action::Index(a)).unwrap();
            }
            for _ in 0..idle {
                again.step(Action::Index(0)).unwrap();
            }
            assert_eq!((again.pos, again.steps), (env.pos, env.steps), "{mode:?}");
            if mode == ClockMode::Fixed {
                // One step per tick of virtual time.
                assert_eq!(u64::from(env.steps), d.virtual_ms() / 100);
            }
        }
    }
}
