//! The FlappyBird oracle: a flap controller that looks ahead on the true state. Pipe
//! positions and gaps depend only on time (the generator is drawn at respawns, whatever
//! the bird does), so the bird's future is a function of its height, speed and the
//! flaps it chooses. Each decision the planner searches, depth first with idling tried
//! before flapping, for decisions that keep the bird alive for the next `HORIZON` steps
//! (simulated on a copy of the game, motion only), remembering the (time, height, speed)
//! states from which no such plan exists; it plays the first decision of the plan it
//! finds, or the decision that survives longest when none does. Deterministic.

use std::collections::BTreeSet;

use crate::core::env::Env;
use crate::core::oracle::{Control, Solver};

use super::env::FlappyBird;
use super::NOOP_ACTION;

const FLAP: usize = 1;
/// Steps looked ahead: enough to pass one pipe pair and line up with the next (pairs come
/// every 36 steps).
const HORIZON: u32 = 72;

pub struct FlapPlanner {
    /// The per-step actions of idling and of flapping.
    decisions: [(usize, Vec<usize>); 2],
}

impl FlapPlanner {
    pub fn new(control: Control) -> Self {
        Self {
            decisions: [NOOP_ACTION, FLAP].map(|a| (a, control.decision_actions(a))),
        }
    }

    /// Plays one decision on `bird`: `None` when it crashes.
    fn play(bird: &FlappyBird, steps: &[usize]) -> Option<FlappyBird> {
        let mut next = bird.clone();
        for &a in steps {
            next.advance(a);
            if next.crashed() {
                return None;
            }
        }
        Some(next)
    }

    /// Whether some decisions keep `bird` alive for `remaining` more steps.
    fn survives(&self, bird: &FlappyBird, remaining: u32, dead: &mut BTreeSet<Key>) -> bool {
        if remaining == 0 {
            return true;
        }
        let key = (remaining, bird.player_y.to_bits(), bird.vel_y);
        if dead.contains(&key) {
            return false;
        }
        for (_, steps) in &self.decisions {
            if let Some(next) = Self::play(bird, steps) {
                let after = remaining.saturating_sub(steps.len() as u32);
                if self.survives(&next, after, dead) {
                    return true;
                }
            }
        }
        dead.insert(key);
        false
    }

    /// Steps survived (up to `HORIZON`) by the longest-lived plan from `bird`.
    fn lifetime(&self, bird: &FlappyBird, remaining: u32) -> u32 {
        if remaining == 0 {
            return 0;
        }
        let mut best = 0;
        for (_, steps) in &self.decisions {
            if let Some(next) = Self::play(bird, steps) {
                let n = steps.len() as u32;
                let after = remaining.saturating_sub(n);
                best = best.max(n.min(remaining) + self.lifetime(&next, after));
                if best >= remaining {
                    break;
                }
            }
        }
        best
    }
}

/// (steps remaining, height bits, vertical speed).
type Key = (u32, u64, i64);

impl Solver for FlapPlanner {
    fn act(&mut self, env: &dyn Env) -> Option<usize> {
        let bird = env.as_any().downcast_ref::<FlappyBird>()?;
        let mut dead = BTreeSet::new();
        for (action, steps) in &self.decisions {
            if let Some(next) = Self::play(bird, steps) {
                let after = HORIZON.saturating_sub(steps.len() as u32);
                if self.survives(&next, after, &mut dead) {
                    return Some(*action);
                }
            }
        }
        // Doomed within the horizon: put the crash off as long as possible (a short
        // horizon keeps this search small).
        let horizon: u32 = 24;
        let mut best = (0, NOOP_ACTION);
        for (action, steps) in &self.decisions {
            if let Some(next) = Self::play(bird, steps) {
                let n = steps.len() as u32;
                let life = n + self.lifetime(&next, horizon.saturating_sub(n));
                if life > best.0 {
                    best = (life, *action);
                }
            }
        }
        Some(best.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Action;

    /// Plays the oracle for at most `limit` steps: (steps, score, crashed).
    fn play(kwargs: &str, seed: u64, control: Control, limit: usize) -> (usize, i64, bool) {
        let mut env =
            crate::make(super::super::ID, &serde_json::from_str(kwargs).unwrap()).unwrap();
        env.reset(Some(seed));
        let mut oracle = env.oracle(control).unwrap();
        let mut steps = 0;
        while steps < limit {
            let d = oracle.act(env.as_ref()).unwrap();
            for a in control.decision_actions(d) {
                let s = env.step(Action::Index(a)).unwrap();
                steps += 1;
                if s.terminated {
                    let score = env.reply_fields()["info"]["score"].as_i64().unwrap();
                    return (steps, score, true);
                }
            }
        }
        let score = env.reply_fields()["info"]["score"].as_i64().unwrap();
        (steps, score, false)
    }

    #[test]
    fn the_oracle_keeps_flying() {
        for (kwargs, seed) in [("{}", 0), ("{}", 1), (r#"{"use_lidar": false}"#, 2)] {
            let (steps, score, crashed) = play(kwargs, seed, Control::default(), 1500);
            assert!(!crashed, "seed {seed}: crashed after {steps} steps");
            // A pipe pair every 36 steps, the first after 58: 40 pipes in 1500 steps.
            assert!(score >= 39, "seed {seed}: score {score}");
        }
    }

    #[test]
    fn the_oracle_copes_with_frame_skip_and_a_narrow_gap() {
        let skip = Control {
            frame_skip: 3,
            action_steps: 1,
            noop: Some(NOOP_ACTION),
        };
        let (steps, _, crashed) = play("{}", 3, skip, 1500);
        assert!(!crashed, "frame skip 3: crashed after {steps} steps");
        let (steps, _, crashed) = play(r#"{"pipe_gap": 80}"#, 4, Control::default(), 1500);
        assert!(!crashed, "gap 80: crashed after {steps} steps");
    }
}
