//! The Atari oracle: a receding-horizon search on copies of the console, for games
//! where no rule-based player is practical (the `vical` suite records its play once and
//! replays the recording, docs/tasks.md "Atari tasks").
//!
//! Each decision it scores candidate plans by playing them on a copy of the game, as
//! the episode engine plays decisions (the action, then the task's no-op fill):
//! * the plan it kept from the last decision, shifted by one;
//! * every action followed by the rest of that plan;
//! * every action held.
//!
//! A plan's value is the number of decisions it lasts before a life is lost or the game
//! ends, then the reward it collects, over 12 decisions, then over 32 (a mixed plan goes
//! on with its last action held); candidates are tried in the order above and only a
//! strictly better one replaces the best, so the kept plan wins ties. When nothing scores
//! within 32 decisions, the held action that scores most within 128 (lives lost or not)
//! is chosen (Breakout's serve, Freeway's crossing). Deterministic: the emulator is, and
//! nothing here draws a random number.

use crate::core::env::Env;
use crate::core::oracle::{Control, Solver};

use super::ale_env::AleEnv;
use super::env::AtariEnv;

/// Decisions a mixed plan looks ahead.
const HORIZON: usize = 12;
/// Decisions every candidate is played for.
const HELD_HORIZON: usize = 32;
/// Decisions a held action is played for when nothing scores within `HELD_HORIZON`.
const FAR_HORIZON: usize = 128;

pub struct Planner {
    control: Control,
    plan: Vec<usize>,
}

impl Planner {
    pub fn new(control: Control) -> Self {
        Self {
            control,
            plan: Vec::new(),
        }
    }

    /// Plays one decision on `game`; `Err(())` when it loses a life or ends the game
    /// (the reward until then is still added).
    fn decide(&self, game: &mut AtariEnv, action: usize, reward: &mut f64) -> Result<(), ()> {
        let lives = game.lives();
        for a in self.control.decision_actions(action) {
            let s = game.step(a).map_err(|_| ())?;
            *reward += s.reward;
            if s.terminated || s.truncated || game.lives() < lives {
                return Err(());
            }
        }
        Ok(())
    }

    /// The (decisions lasted, reward) of `plan` from `game` over its first `HORIZON`
    /// decisions and over all of it.
    fn value(&self, game: &AtariEnv, plan: &[usize]) -> (Value, Value) {
        let mut sim = game.clone();
        let mut reward = 0.0;
        let mut short = None;
        for (k, &a) in plan.iter().enumerate() {
            if k == HORIZON {
                short = Some((k, reward));
            }
            if self.decide(&mut sim, a, &mut reward).is_err() {
                let lasted = (k, reward);
                return (short.unwrap_or(lasted), lasted);
            }
        }
        let lasted = (plan.len(), reward);
        (short.unwrap_or(lasted), lasted)
    }
}

impl Planner {
    /// The reward of `action` held for `FAR_HORIZON` decisions, lives lost or not (a
    /// Breakout serve that is missed still shows that serving scores), until the game
    /// ends.
    fn far_reward(&self, game: &AtariEnv, action: usize) -> f64 {
        let mut sim = game.clone();
        let mut reward = 0.0;
        for _ in 0..FAR_HORIZON {
            for a in self.control.decision_actions(action) {
                match sim.step(a) {
                    Ok(s) => {
                        reward += s.reward;
                        if s.terminated || s.truncated {
                            return reward;
                        }
                    }
                    Err(_) => return reward,
                }
            }
        }
        reward
    }
}

/// (decisions lasted, reward) of a plan.
type Value = (usize, f64);

fn better(a: Value, b: Value) -> bool {
    a.0 > b.0 || (a.0 == b.0 && a.1 > b.1)
}

impl Solver for Planner {
    fn act(&mut self, env: &dyn Env) -> Option<usize> {
        let game = env.as_any().downcast_ref::<AleEnv>()?.atari();
        if game.terminated() || game.truncated() {
            return None;
        }
        let actions = game.action_set().len();
        let idle = self.control.noop.unwrap_or(0);
        // The kept plan, shifted by one decision and refilled with its last action.
        let mut kept: Vec<usize> = self.plan.iter().skip(1).copied().collect();
        kept.resize(HORIZON, kept.last().copied().unwrap_or(idle));
        // Every candidate is played for `HELD_HORIZON` decisions (a mixed plan goes on
        // with its last action held): compared over the short horizon first, ties broken
        // by what the long one adds.
        let mut candidates = vec![kept.clone()];
        for a in 0..actions {
            let mut c = Vec::with_capacity(HELD_HORIZON);
            c.push(a);
            c.extend_from_slice(&kept[..HORIZON - 1]);
            candidates.push(c);
        }
        for a in 0..actions {
            candidates.push(vec![a; HELD_HORIZON]);
        }
        let values: Vec<(Value, Value)> = candidates
            .iter_mut()
            .map(|c| {
                let last = c.last().copied().unwrap_or(idle);
                c.resize(HELD_HORIZON, last);
                self.value(game, c)
            })
            .collect();
        let mut best: Option<((Value, Value), usize)> = None;
        for (i, &(short, long)) in values.iter().enumerate() {
            let replace =
                best.is_none_or(|((s, l), _)| better(short, s) || (short == s && better(long, l)));
            if replace {
                best = Some(((short, long), i));
            }
        }
        // Nothing scores within reach: the held action, as safe over the short horizon as
        // the best plan, that scores most further on (Breakout's serve, Freeway's
        // crossing).
        if let Some(((short, _), _)) = best.filter(|_| values.iter().all(|(_, l)| l.1 <= 0.0)) {
            let mut far_best: Option<(f64, usize)> = None;
            for a in 0..actions {
                let i = 1 + actions + a;
                if values[i].0 != short {
                    continue;
                }
                let reward = self.far_reward(game, a);
                if reward > far_best.map_or(0.0, |(r, _)| r) {
                    far_best = Some((reward, i));
                }
            }
            if let Some((_, i)) = far_best {
                best = Some((values[i], i));
            }
        }
        let (_, i) = best?;
        let mut plan = candidates.swap_remove(i);
        plan.truncate(HORIZON);
        let first = plan[0];
        self.plan = plan;
        Some(first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lost_life_outweighs_any_reward_and_ties_keep_the_earlier_plan() {
        assert!(better((5, 0.0), (4, 100.0)));
        assert!(better((5, 1.0), (5, 0.0)));
        assert!(!better((5, 0.0), (5, 0.0)));
    }
}
