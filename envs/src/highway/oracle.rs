//! The Highway oracle: a rule-based driver improved by look-ahead on the true state.
//!
//! The rules (the *base* policy) read the gaps around the ego in its target lane and the
//! lanes beside it: keep right when the right lane has room, leave a lane that closes up
//! for a free lane on the left, slow down when boxed in, speed up on open road. Each
//! decision every meta-action is tried on a copy of the game — played as the engine will
//! play it (the action, then the no-op fill) and followed by the rules for a few more
//! decisions — and the one whose rollout survives longest and then collects the most
//! reward is chosen, the rules' own choice winning ties. The simulator is deterministic,
//! so this is never worse than the rules over the horizon. Deterministic.

use crate::core::env::Env;
use crate::core::oracle::{Control, Solver};

use super::env::Highway;
use super::vehicle::{Vehicle, LENGTH, TARGET_SPEEDS};
use super::NOOP_ACTION;

const LANE_LEFT: usize = 0;
const LANE_RIGHT: usize = 2;
const FASTER: usize = 3;
const SLOWER: usize = 4;
/// Decisions simulated after the tried one.
const HORIZON: u32 = 8;
const ACTIONS: usize = 5;
/// The longest opening (decisions searched before the rules take over).
const MAX_OPENING: usize = 3;

/// Bumper gaps (metres) the rules ask for.
const FREE_AHEAD: f64 = 35.0;
const FREE_BEHIND: f64 = 12.0;
const CLOSING_AHEAD: f64 = 25.0;
/// Seconds to reach the car ahead at the current closing speed below which a lane closes.
const CLOSING_TIME: f64 = 4.0;

pub struct RuleDriver {
    control: Control,
}

impl RuleDriver {
    pub fn new(control: Control) -> Self {
        Self { control }
    }

    /// Plays one decision; `None` once the episode has ended (with the step's
    /// reward added to `reward` and whether it crashed).
    fn decide(&self, game: &mut Highway, action: usize, reward: &mut f64) -> Option<bool> {
        for a in self.control.decision_actions(action) {
            let s = game.play(a).ok()?;
            *reward += s.reward;
            if s.terminated || s.truncated {
                return Some(true);
            }
        }
        Some(false)
    }

    /// (decisions survived, reward) of `first` followed by the rules, over `HORIZON + 1`
    /// decisions.
    fn rollout(&self, game: &Highway, first: &[usize]) -> Value {
        let mut sim = game.clone();
        let mut reward = 0.0;
        for k in 0..=HORIZON {
            let next = first
                .get(k as usize)
                .copied()
                .unwrap_or_else(|| rules(&sim));
            match self.decide(&mut sim, next, &mut reward) {
                Some(false) => {}
                Some(true) if !sim.vehicles().first().is_some_and(|e| e.crashed) => {
                    // The drive ended without a crash: as good as surviving the horizon.
                    return (HORIZON + 1, reward);
                }
                _ => return (k, reward),
            }
        }
        (HORIZON + 1, reward)
    }

    /// The best first decision over the openings of `depth` decisions (each followed by
    /// the rules), the rules' own choices tried first so that they win ties.
    fn best_opening(&self, game: &Highway, depth: usize) -> (Value, usize) {
        let mut openings: Vec<Vec<usize>> = vec![Vec::new()];
        for _ in 0..depth {
            openings = openings
                .into_iter()
                .flat_map(|o| {
                    let mut sim = game.clone();
                    let mut r = 0.0;
                    let alive = o
                        .iter()
                        .all(|&a| self.decide(&mut sim, a, &mut r) == Some(false));
                    let preferred = if alive { rules(&sim) } else { NOOP_ACTION };
                    std::iter::once(preferred)
                        .chain((0..ACTIONS).filter(move |&a| a != preferred))
                        .map(move |a| {
                            let mut longer = o.clone();
                            longer.push(a);
                            longer
                        })
                })
                .collect();
        }
        let mut best: Option<(Value, usize)> = None;
        for opening in openings {
            let value = self.rollout(game, &opening);
            let better = best.is_none_or(|((life, reward), _)| {
                value.0 > life || (value.0 == life && value.1 > reward)
            });
            if better {
                best = Some((value, opening[0]));
            }
        }
        best.unwrap_or(((0, 0.0), NOOP_ACTION))
    }
}

/// (decisions survived, reward collected) of a rollout.
type Value = (u32, f64);

impl Solver for RuleDriver {
    /// Openings of one decision searched; longer ones (each level five times the work)
    /// only while every opening is followed by a crash within the horizon, which is rare.
    fn act(&mut self, env: &dyn Env) -> Option<usize> {
        let game = env.as_any().downcast_ref::<Highway>()?;
        if game.vehicles().first()?.crashed {
            return None;
        }
        let mut best = self.best_opening(game, 1);
        for depth in 2..=MAX_OPENING {
            if best.0 .0 > HORIZON {
                break;
            }
            let deeper = self.best_opening(game, depth);
            if deeper.0 .0 > best.0 .0 || (deeper.0 .0 == best.0 .0 && deeper.0 .1 > best.0 .1) {
                best = deeper;
            }
        }
        Some(best.1)
    }
}

/// The gaps around the ego in one lane: (bumper gap ahead, speed of that car), (bumper
/// gap behind, speed of that car); a car counts in a lane it is on or moving to.
struct Gaps {
    ahead: Option<(f64, f64)>,
    behind: Option<(f64, f64)>,
}

fn gaps(cars: &[Vehicle], lane: usize) -> Gaps {
    let mut out = Gaps {
        ahead: None,
        behind: None,
    };
    let Some(ego) = cars.first() else {
        return out;
    };
    for v in cars.iter().skip(1) {
        if v.lane != lane && v.target_lane != lane {
            continue;
        }
        let dx = v.position[0] - ego.position[0];
        let gap = dx.abs() - LENGTH;
        let slot = if dx >= 0.0 {
            &mut out.ahead
        } else {
            &mut out.behind
        };
        if slot.is_none_or(|(g, _)| gap < g) {
            *slot = Some((gap, v.speed));
        }
    }
    out
}

/// Whether the ego could move into a lane with these gaps: room ahead that does not close
/// within `2 × CLOSING_TIME` (a car slower than the lowest target speed closes for good:
/// the ego cannot follow it), and room behind.
fn free(g: &Gaps, speed: f64) -> bool {
    let ahead_ok = g.ahead.is_none_or(|(gap, v)| {
        let slowest = TARGET_SPEEDS[0];
        let closing_from = speed.max(slowest);
        let lasting = v >= closing_from || gap / (closing_from - v) > 2.0 * CLOSING_TIME;
        (gap > FREE_AHEAD && lasting) || (gap > FREE_BEHIND && v > speed + 2.0)
    });
    let behind_ok = g
        .behind
        .is_none_or(|(gap, v)| gap > FREE_BEHIND && (gap > 2.0 * FREE_BEHIND || v <= speed));
    ahead_ok && behind_ok
}

/// The base policy: keep right, leave a closing lane, adapt the speed.
fn rules(game: &Highway) -> usize {
    let cars = game.vehicles();
    let Some(ego) = cars.first() else {
        return NOOP_ACTION;
    };
    let lanes = game.config().lanes_count;
    let lane = ego.target_lane;
    let here = gaps(cars, lane);
    let closing = here.ahead.is_some_and(|(gap, v)| {
        gap < CLOSING_AHEAD || (ego.speed > v && gap / (ego.speed - v) < CLOSING_TIME)
    });
    let changing = ego.lane != ego.target_lane;
    if !changing && lane + 1 < lanes && free(&gaps(cars, lane + 1), ego.speed) {
        return LANE_RIGHT;
    }
    if closing {
        if !changing && lane > 0 && free(&gaps(cars, lane - 1), ego.speed) {
            return LANE_LEFT;
        }
        return SLOWER;
    }
    let open = here.ahead.is_none_or(|(gap, _)| gap > 2.0 * FREE_AHEAD);
    let top = TARGET_SPEEDS[TARGET_SPEEDS.len() - 1];
    if open && ego.target_speed < top {
        return FASTER;
    }
    NOOP_ACTION
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::highway::{HIGHWAY_FAST_ID, HIGHWAY_ID};
    use crate::Action;

    /// Plays the oracle: (steps, total reward, crashed).
    fn drive(id: &str, seed: u64, control: Control) -> (u32, f64, bool) {
        let mut env = crate::make_default(id).unwrap();
        env.reset(Some(seed));
        let mut oracle = env.oracle(control).unwrap();
        let (mut steps, mut total) = (0, 0.0);
        loop {
            let d = oracle.act(env.as_ref()).unwrap();
            for a in control.decision_actions(d) {
                let s = env.step(Action::Index(a)).unwrap();
                steps += 1;
                total += s.reward;
                if s.terminated || s.truncated {
                    return (steps, total, s.terminated);
                }
            }
        }
    }

    #[test]
    fn the_oracle_drives_to_the_end() {
        for (id, seed) in [(HIGHWAY_ID, 0), (HIGHWAY_ID, 1), (HIGHWAY_FAST_ID, 2)] {
            let (steps, total, crashed) = drive(id, seed, Control::default());
            assert!(!crashed, "{id} seed {seed}: crashed after {steps} steps");
            assert!(total / f64::from(steps) > 0.75, "{id} seed {seed}: {total}");
        }
    }
}
