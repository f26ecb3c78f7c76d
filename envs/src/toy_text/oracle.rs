//! Toy Text oracles. Taxi and CliffWalking: breadth-first search over decisions, played
//! on clones of the environment itself (their dynamics are deterministic), so the plan
//! is exact by construction. FrozenLake: value iteration over the reference's
//! transition probabilities (the probability of reaching the goal, then the expected
//! number of decisions among the actions that maximise it); on the deterministic maps
//! that is the shortest path around the holes.
//!
//! A decision is what the episode engine makes of one chosen action under `Control`
//! ([`decision_actions`]); the plans are made over decisions, not single steps.

use std::collections::{HashSet, VecDeque};

use crate::core::env::{Action, Env, Observation, Step};
use crate::core::oracle::{Control, Solver};
use crate::toy_text::cliff_walking::{self, CliffWalking};
use crate::toy_text::frozen_lake::{FrozenLake, LakeMap, FAIL, SUCCESS};
use crate::toy_text::taxi::{self, TaxiState};

pub(super) fn solver(env: &dyn Env, control: Control) -> Option<Box<dyn Solver>> {
    let any = env.as_any();
    if any.is::<taxi::Taxi>() {
        return Some(Box::new(Planner {
            game: Game::Taxi,
            control,
        }));
    }
    if any.is::<CliffWalking>() {
        return Some(Box::new(Planner {
            game: Game::Cliff,
            control,
        }));
    }
    let lake = any.downcast_ref::<FrozenLake>()?;
    Some(Box::new(LakePolicy::new(
        lake.map(),
        lake.is_slippery(),
        control,
    )))
}

pub(super) fn distance_to_goal(env: &dyn Env) -> Option<u32> {
    let any = env.as_any();
    if any.is::<taxi::Taxi>() {
        return shortest_plan(env, Game::Taxi, Control::default()).map(|p| p.1);
    }
    if any.is::<CliffWalking>() {
        return shortest_plan(env, Game::Cliff, Control::default()).map(|p| p.1);
    }
    let lake = any.downcast_ref::<FrozenLake>()?;
    lake_distance(lake.map(), lake.state())
}

/// The current state index of a Toy Text environment.
fn state_index(env: &dyn Env) -> Option<usize> {
    match env.observation() {
        Observation::Int(s) => usize::try_from(s).ok(),
        _ => None,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Game {
    Taxi,
    Cliff,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Continue,
    Success,
    /// A move the plan must never make: falling off the cliff.
    Forbidden,
}

impl Game {
    fn actions(self) -> usize {
        match self {
            Self::Taxi => taxi::ACTION_NAMES.len(),
            Self::Cliff => cliff_walking::ACTION_NAMES.len(),
        }
    }

    /// Whether the state is already the end of a successful episode.
    fn is_done(self, state: usize) -> bool {
        match self {
            // Only a delivery leaves the passenger at their destination.
            Self::Taxi => {
                let s = TaxiState::decode(state);
                s.passenger == s.destination
            }
            Self::Cliff => state == cliff_walking::GOAL,
        }
    }

    fn judge(self, step: &Step) -> Outcome {
        match self {
            // Taxi terminates only on a delivery.
            Self::Taxi if step.terminated => Outcome::Success,
            Self::Cliff if step.reward <= -100.0 => Outcome::Forbidden,
            Self::Cliff if step.terminated => Outcome::Success,
            _ => Outcome::Continue,
        }
    }
}

/// Plays one decision on `env`, stopping at the first step that is not `Continue`.
fn play_decision(env: &mut dyn Env, game: Game, steps: &[usize]) -> Option<Outcome> {
    for &a in steps {
        let step = env.step(Action::Index(a)).ok()?;
        let outcome = game.judge(&step);
        if outcome != Outcome::Continue {
            return Some(outcome);
        }
    }
    Some(Outcome::Continue)
}

/// Breadth-first search over decisions from the current state: the first decision of a
/// shortest successful plan and the plan's length (0, with no decision, when the
/// episode is already won). Actions are tried in index order, so ties go to the lowest.
fn shortest_plan(env: &dyn Env, game: Game, control: Control) -> Option<(Option<usize>, u32)> {
    let start = state_index(env)?;
    if game.is_done(start) {
        return Some((None, 0));
    }
    let decisions: Vec<Vec<usize>> = (0..game.actions())
        .map(|a| control.decision_actions(a))
        .collect();
    let mut seen = HashSet::from([start]);
    let mut queue: VecDeque<(Box<dyn Env>, Option<usize>, u32)> = VecDeque::new();
    queue.push_back((env.clone_box(), None, 0));
    while let Some((node, first, depth)) = queue.pop_front() {
        for (a, steps) in decisions.iter().enumerate() {
            let mut next = node.clone_box();
            let first = first.unwrap_or(a);
            match play_decision(next.as_mut(), game, steps)? {
                Outcome::Success => return Some((Some(first), depth + 1)),
                Outcome::Forbidden => {}
                Outcome::Continue => {
                    let s = state_index(next.as_ref())?;
                    if seen.insert(s) {
                        queue.push_back((next, Some(first), depth + 1));
                    }
                }
            }
        }
    }
    None
}

/// Taxi and CliffWalking: replans every decision (a few hundred clone steps).
struct Planner {
    game: Game,
    control: Control,
}

impl Solver for Planner {
    fn act(&mut self, env: &dyn Env) -> Option<usize> {
        shortest_plan(env, self.game, self.control)?.0
    }
}

// ---------------------------------------------------------------------------------
// FrozenLake

fn is_terminal(map: LakeMap, s: usize) -> bool {
    matches!(map.tile(s), b'G' | b'H')
}

/// One step's outcomes `(probability, next state)`; terminal states stay put.
fn lake_step(map: LakeMap, slippery: bool, s: usize, a: usize) -> Vec<(f64, usize)> {
    if is_terminal(map, s) {
        vec![(1.0, s)]
    } else if slippery {
        vec![
            (FAIL, map.moved(s, (a + 3) % 4)),
            (SUCCESS, map.moved(s, a)),
            (FAIL, map.moved(s, (a + 1) % 4)),
        ]
    } else {
        vec![(1.0, map.moved(s, a))]
    }
}

/// The outcome distribution of one decision (a sequence of steps), merged by state.
fn lake_decision(map: LakeMap, slippery: bool, s: usize, steps: &[usize]) -> Vec<(f64, usize)> {
    let mut dist = vec![(1.0, s)];
    for &a in steps {
        let mut next: Vec<(f64, usize)> = Vec::new();
        for &(p, from) in &dist {
            for (q, to) in lake_step(map, slippery, from, a) {
                match next.iter_mut().find(|e| e.1 == to) {
                    Some(e) => e.0 += p * q,
                    None => next.push((p * q, to)),
                }
            }
        }
        dist = next;
    }
    dist
}

/// Values within this are ties.
const TIE: f64 = 1e-9;

/// The value-iteration solution of a lake under a control.
#[derive(Clone, Debug)]
struct LakePlan {
    /// The probability of reaching the goal from each state, playing optimally.
    value: Vec<f64>,
    /// `q[s][a]`: that probability after choosing `a` in `s` (kept for the checks).
    #[cfg_attr(not(test), allow(dead_code))]
    q: Vec<[f64; 4]>,
    /// The expected number of decisions until the episode ends, among optimal actions.
    #[cfg_attr(not(test), allow(dead_code))]
    time: Vec<f64>,
    /// The chosen action per non-terminal state.
    policy: Vec<usize>,
}

fn plan_lake(map: LakeMap, slippery: bool, control: Control) -> LakePlan {
    let n = map.size() * map.size();
    let goal = |s: usize| map.tile(s) == b'G';
    let model: Vec<[Vec<(f64, usize)>; 4]> = (0..n)
        .map(|s| {
            std::array::from_fn(|a| lake_decision(map, slippery, s, &control.decision_actions(a)))
        })
        .collect();
    let expect = |v: &[f64], outcomes: &[(f64, usize)]| -> f64 {
        outcomes.iter().map(|&(p, t)| p * v[t]).sum()
    };

    // Probability of reaching the goal: monotone value iteration from below.
    let mut value: Vec<f64> = (0..n).map(|s| if goal(s) { 1.0 } else { 0.0 }).collect();
    for _ in 0..20_000 {
        let mut delta: f64 = 0.0;
        for s in (0..n).filter(|&s| !is_terminal(map, s)) {
            let best = model[s]
                .iter()
                .map(|o| expect(&value, o))
                .fold(0.0, f64::max);
            delta = delta.max(best - value[s]);
            value[s] = best;
        }
        if delta < 1e-15 {
            break;
        }
    }
    let q: Vec<[f64; 4]> = (0..n)
        .map(|s| std::array::from_fn(|a| expect(&value, &model[s][a])))
        .collect();
    let optimal = |s: usize, a: usize| q[s][a] >= value[s] - TIE;

    // Expected decisions to the end of the episode, restricted to optimal actions
    // (a stochastic shortest path; actions that never end the episode diverge).
    let mut time = vec![0.0; n];
    for _ in 0..20_000 {
        let mut delta: f64 = 0.0;
        for s in (0..n).filter(|&s| !is_terminal(map, s)) {
            let best = (0..4)
                .filter(|&a| optimal(s, a))
                .map(|a| 1.0 + expect(&time, &model[s][a]))
                .fold(f64::INFINITY, f64::min);
            delta = delta.max((best - time[s]).abs());
            time[s] = best;
        }
        if delta < 1e-12 {
            break;
        }
    }
    let policy = (0..n)
        .map(|s| {
            let mut best: Option<(usize, f64)> = None;
            for a in (0..4).filter(|&a| optimal(s, a)) {
                let t = 1.0 + expect(&time, &model[s][a]);
                if best.is_none_or(|(_, bt)| t < bt - TIE) {
                    best = Some((a, t));
                }
            }
            best.map_or(0, |b| b.0)
        })
        .collect();
    LakePlan {
        value,
        q,
        time,
        policy,
    }
}

struct LakePolicy {
    map: LakeMap,
    plan: LakePlan,
}

impl LakePolicy {
    fn new(map: LakeMap, slippery: bool, control: Control) -> Self {
        Self {
            map,
            plan: plan_lake(map, slippery, control),
        }
    }
}

impl Solver for LakePolicy {
    fn act(&mut self, env: &dyn Env) -> Option<usize> {
        let s = state_index(env)?;
        if s >= self.plan.policy.len() || is_terminal(self.map, s) || self.plan.value[s] <= 0.0 {
            return None;
        }
        Some(self.plan.policy[s])
    }
}

/// The fewest moves from `s` to the goal around the holes, ignoring slips.
fn lake_distance(map: LakeMap, s: usize) -> Option<u32> {
    let n = map.size() * map.size();
    let mut dist: Vec<Option<u32>> = vec![None; n];
    dist[s] = Some(0);
    let mut queue = VecDeque::from([s]);
    while let Some(u) = queue.pop_front() {
        let d = dist[u]?;
        match map.tile(u) {
            b'G' => return Some(d),
            b'H' => continue,
            _ => {}
        }
        for a in 0..4 {
            let v = map.moved(u, a);
            if dist[v].is_none() {
                dist[v] = Some(d + 1);
                queue.push_back(v);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Map, Value};

    fn make(id: &str, kwargs: Value) -> Box<dyn Env> {
        let kw: Map<String, Value> = kwargs.as_object().cloned().unwrap_or_default();
        crate::make(id, &kw).unwrap()
    }

    fn oracle(env: &dyn Env, control: Control) -> Box<dyn Solver> {
        env.oracle(control).unwrap()
    }

    /// Plays an episode from `seed` the way the engine does; (won, decisions).
    fn play(env: &mut dyn Env, seed: u64, solver: &mut dyn Solver, max: u32) -> (bool, u32) {
        play_with(env, seed, solver, Control::default(), max)
    }

    /// Plays an episode from `seed` the way the engine does; (won, decisions).
    fn play_with(
        env: &mut dyn Env,
        seed: u64,
        solver: &mut dyn Solver,
        control: Control,
        max_decisions: u32,
    ) -> (bool, u32) {
        env.reset(Some(seed));
        for d in 1..=max_decisions {
            let Some(a) = solver.act(env) else {
                return (false, d - 1);
            };
            for step_action in control.decision_actions(a) {
                let s = env.step(Action::Index(step_action)).unwrap();
                if s.terminated {
                    return (s.reward > 0.0 || env.id().starts_with("Cliff"), d);
                }
                if s.truncated {
                    return (false, d);
                }
                assert!(s.reward > -100.0, "the cliff solver fell");
            }
        }
        (false, max_decisions)
    }

    #[test]
    fn taxi_delivers_by_a_shortest_plan() {
        let mut env = make("Taxi-v3", json!({}));
        let mut total = 0;
        for seed in 0..300 {
            env.reset(Some(seed));
            let distance = env.distance_to_goal().unwrap();
            let mut solver = oracle(env.as_ref(), Control::default());
            let (won, decisions) = play(env.as_mut(), seed, solver.as_mut(), 200);
            assert!(won, "seed {seed}");
            assert_eq!(decisions, distance, "seed {seed}");
            total += decisions;
            // A delivered taxi is at distance 0 with nothing left to do.
            assert_eq!(env.distance_to_goal(), Some(0));
        }
        eprintln!(
            "Taxi: 300/300, mean decisions {:.2}",
            f64::from(total) / 300.0
        );
    }

    #[test]
    fn taxi_distance_is_the_manhattan_route_when_walls_allow() {
        // Taxi and passenger at R, destination G: Pickup, then R (0,0) to G (0,4) is
        // down 2, right 4 below the walls, up 2, then Dropoff: 10 decisions.
        let mut env = make("Taxi-v3", json!({}));
        env.reset(Some(0));
        let mut found = false;
        for seed in 0..2000 {
            env.reset(Some(seed));
            let s = TaxiState::decode(state_index(env.as_ref()).unwrap());
            if (s.row, s.col, s.passenger, s.destination) == (0, 0, 0, 1) {
                assert_eq!(env.distance_to_goal(), Some(10));
                found = true;
                break;
            }
        }
        assert!(found);
    }

    #[test]
    fn cliff_walking_takes_the_13_step_edge_without_falling() {
        let mut env = make("CliffWalking-v1", json!({}));
        let mut solver = oracle(env.as_ref(), Control::default());
        for seed in 0..50 {
            env.reset(Some(seed));
            assert_eq!(env.distance_to_goal(), Some(13));
            assert_eq!(play(env.as_mut(), seed, solver.as_mut(), 100), (true, 13));
        }
        // From the top-left corner: 3 down... the safe route is 2 down, 11 right, 1 down.
        let mut env = make("CliffWalking-v1", json!({}));
        env.reset(Some(0));
        for a in [0, 0, 0] {
            env.step(Action::Index(a)).unwrap();
        }
        assert_eq!(env.distance_to_goal(), Some(14));
        eprintln!("CliffWalking: 50/50, 13 decisions");
    }

    #[test]
    fn deterministic_lakes_take_shortest_paths() {
        for (id, expected) in [("FrozenLake-v1", 6), ("FrozenLake8x8-v1", 14)] {
            let mut env = make(id, json!({"is_slippery": false}));
            let mut solver = oracle(env.as_ref(), Control::default());
            for seed in 0..50 {
                env.reset(Some(seed));
                assert_eq!(env.distance_to_goal(), Some(expected));
                assert_eq!(
                    play(env.as_mut(), seed, solver.as_mut(), 200),
                    (true, expected),
                    "{id} seed {seed}"
                );
            }
            eprintln!("{id} not slippery: 50/50, {expected} decisions");
        }
    }

    #[test]
    fn lake_distance_ignores_slips_and_holes_end_it() {
        assert_eq!(lake_distance(LakeMap::FourByFour, 0), Some(6));
        assert_eq!(lake_distance(LakeMap::FourByFour, 5), None); // a hole
        assert_eq!(lake_distance(LakeMap::FourByFour, 15), Some(0));
        assert_eq!(lake_distance(LakeMap::EightByEight, 0), Some(14));
        let mut env = make("FrozenLake-v1", json!({}));
        env.reset(Some(3));
        assert_eq!(env.distance_to_goal(), Some(6));
    }

    /// The policy's action attains the optimal value in every state (the value-iteration
    /// optimum), and the values satisfy the Bellman equation.
    fn assert_optimal(plan: &LakePlan, map: LakeMap) {
        for (s, &a) in plan.policy.iter().enumerate() {
            if is_terminal(map, s) {
                continue;
            }
            let best = plan.q[s].iter().copied().fold(0.0, f64::max);
            assert!((best - plan.value[s]).abs() < 1e-12, "Bellman at {s}");
            assert!(plan.q[s][a] >= plan.value[s] - TIE, "state {s}");
            assert!(plan.time[s].is_finite(), "state {s}");
        }
    }

    /// The exact probability that `policy` reaches the goal within `limit` steps
    /// (decisions of one step), by propagating the state distribution.
    fn success_within(map: LakeMap, policy: impl Fn(usize, u32) -> usize, limit: u32) -> f64 {
        let n = map.size() * map.size();
        let mut dist = vec![0.0; n];
        dist[0] = 1.0;
        for t in 0..limit {
            let mut next = vec![0.0; n];
            for (s, &p) in dist.iter().enumerate().filter(|e| *e.1 > 0.0) {
                for (q, to) in lake_step(map, true, s, policy(s, t)) {
                    next[to] += p * q;
                }
            }
            dist = next;
        }
        (0..n)
            .filter(|&s| map.tile(s) == b'G')
            .map(|s| dist[s])
            .sum()
    }

    /// The best any (time-aware) policy can do within `limit` steps: finite-horizon
    /// value iteration.
    fn finite_horizon_optimum(map: LakeMap, limit: u32) -> f64 {
        let n = map.size() * map.size();
        let mut v: Vec<f64> = (0..n)
            .map(|s| f64::from(u8::from(map.tile(s) == b'G')))
            .collect();
        for _ in 0..limit {
            v = (0..n)
                .map(|s| {
                    if is_terminal(map, s) {
                        return v[s];
                    }
                    (0..4)
                        .map(|a| {
                            lake_step(map, true, s, a)
                                .iter()
                                .map(|&(p, t)| p * v[t])
                                .sum()
                        })
                        .fold(0.0, f64::max)
                })
                .collect();
        }
        v[0]
    }

    #[test]
    fn slippery_lakes_follow_the_optimal_policy() {
        let cases = [
            ("FrozenLake-v1", LakeMap::FourByFour, 100, 0.74),
            ("FrozenLake8x8-v1", LakeMap::EightByEight, 200, 0.88),
        ];
        for (id, map, limit, floor) in cases {
            let plan = plan_lake(map, true, Control::default());
            assert_optimal(&plan, map);
            let exact = success_within(map, |s, _| plan.policy[s], limit);
            let best = finite_horizon_optimum(map, limit);
            assert!(exact >= floor, "{id}: {exact}");
            assert!(exact <= best + 1e-12);

            let mut env = make(id, json!({}));
            let mut solver = oracle(env.as_ref(), Control::default());
            let runs = 1000;
            let (mut wins, mut total) = (0_u32, 0);
            for seed in 0..runs {
                let (won, decisions) = play(env.as_mut(), seed, solver.as_mut(), limit);
                if won {
                    wins += 1;
                    total += decisions;
                }
            }
            let rate = f64::from(wins) / runs as f64;
            eprintln!(
                "{id} slippery: success {wins}/{runs} = {rate:.3} sampled, {exact:.4} exact within \
                 {limit} steps (a time-aware policy: {best:.4}; unlimited: {:.4}); mean \
                 decisions to success {:.1}",
                plan.value[0],
                f64::from(total) / f64::from(wins.max(1))
            );
            // Four standard deviations of 1000 Bernoulli draws.
            assert!((rate - exact).abs() < 0.06, "{id}: {rate} vs {exact}");
        }
    }

    #[test]
    fn taxi_and_cliff_plan_over_repeated_decisions() {
        // The action repeated twice per decision (no no-op in Toy Text).
        let control = Control {
            frame_skip: 2,
            action_steps: 2,
            noop: None,
        };
        for id in ["Taxi-v3", "CliffWalking-v1"] {
            let mut env = make(id, json!({}));
            let mut solver = oracle(env.as_ref(), control);
            let mut total = 0;
            for seed in 0..50 {
                let (won, decisions) = play_with(env.as_mut(), seed, solver.as_mut(), control, 200);
                assert!(won, "{id} seed {seed}");
                total += decisions;
            }
            eprintln!(
                "{id} frame_skip 2: 50/50, mean decisions {:.2}",
                f64::from(total) / 50.0
            );
        }
    }

    #[test]
    fn lake_policies_under_repeated_decisions_stay_optimal() {
        // Decisions of 2 and 4 steps (the action repeated: FrozenLake has no no-op).
        for skip in [2, 4] {
            let control = Control {
                frame_skip: skip,
                action_steps: skip,
                noop: None,
            };
            for map in [LakeMap::FourByFour, LakeMap::EightByEight] {
                for slippery in [false, true] {
                    let plan = plan_lake(map, slippery, control);
                    assert_optimal(&plan, map);
                }
            }
        }
        let control = Control {
            frame_skip: 2,
            action_steps: 2,
            noop: None,
        };
        let mut env = make("FrozenLake8x8-v1", json!({"is_slippery": false}));
        let mut solver = oracle(env.as_ref(), control);
        assert_eq!(
            play_with(env.as_mut(), 0, solver.as_mut(), control, 100),
            (true, 8)
        );
    }
}
