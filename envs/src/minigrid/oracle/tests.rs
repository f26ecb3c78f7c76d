//! The oracle on every registered MiniGrid id. Run with `--release --nocapture` to see
//! the per-id table.

use super::*;
use crate::core::env::Action;

const SEEDS: u64 = 20;

/// The lowest success rate allowed on Dynamic-Obstacles (balls move at random).
const DYNAMIC_MIN_RATE: f64 = 0.95;

struct Episode {
    success: bool,
    steps: u32,
    /// The distance to the goal at the start, for navigation objectives.
    start_distance: Option<u32>,
    /// Every step after which the distance did not drop by exactly one.
    distance_slips: u32,
}

fn play(id: &str, seed: u64) -> Episode {
    let mut env = crate::make_default(id).unwrap();
    env.reset(Some(seed));
    let mut solver = env.oracle(Control::default()).unwrap();
    let start_distance = env.distance_to_goal();
    let mut last = start_distance;
    let mut distance_slips = 0;
    let mut steps = 0;
    loop {
        let Some(a) = solver.act(&*env) else {
            return Episode {
                success: false,
                steps,
                start_distance,
                distance_slips,
            };
        };
        assert!(a < env.action_names().len(), "{id} seed {seed}: action {a}");
        let s = env.step(Action::Index(a)).unwrap();
        steps += 1;
        if s.terminated || s.truncated {
            return Episode {
                success: s.terminated && s.reward > 0.0,
                steps,
                start_distance,
                distance_slips,
            };
        }
        let d = env.distance_to_goal();
        if let (Some(before), Some(now)) = (last, d) {
            if now + 1 != before {
                distance_slips += 1;
            }
        }
        last = d;
    }
}

fn minigrid_ids() -> Vec<&'static str> {
    crate::minigrid::FAMILY.specs.iter().map(|s| s.id).collect()
}

#[test]
fn solves_every_minigrid_id() {
    let mut failures = Vec::new();
    println!("{:<44} {:>7} {:>11}", "id", "success", "mean steps");
    for id in minigrid_ids() {
        let dynamic = id.contains("Dynamic-Obstacles");
        let mut wins = 0;
        let mut steps = 0;
        for seed in 0..SEEDS {
            let e = play(id, seed);
            if e.success {
                wins += 1;
                steps += e.steps;
                let navigation = Objective::parse(
                    crate::make_default(id)
                        .map(|mut env| {
                            env.reset(Some(seed));
                            env
                        })
                        .unwrap()
                        .world_any()
                        .and_then(|w| w.downcast_ref::<crate::minigrid::world::World>())
                        .unwrap(),
                )
                .is_some_and(Objective::is_navigation);
                if navigation && !dynamic {
                    // The distance is the oracle's own plan: exact, and one less per step.
                    assert_eq!(e.start_distance, Some(e.steps), "{id} seed {seed}");
                    assert_eq!(e.distance_slips, 0, "{id} seed {seed}");
                }
            } else if !dynamic {
                failures.push(format!("{id} seed {seed}"));
            }
        }
        let rate = f64::from(wins) / SEEDS as f64;
        let mean = f64::from(steps) / f64::from(wins.max(1));
        println!("{id:<44} {:>6.0}% {mean:>11.1}", rate * 100.0);
        if dynamic && rate < DYNAMIC_MIN_RATE {
            failures.push(format!("{id}: success rate {rate}"));
        }
    }
    assert!(failures.is_empty(), "failed: {failures:?}");
}

#[test]
fn distance_only_for_navigation() {
    for (id, expected) in [
        ("MiniGrid-Empty-5x5-v0", true),
        ("MiniGrid-DoorKey-8x8-v0", true),
        ("MiniGrid-MemoryS7-v0", true),
        ("MiniGrid-Dynamic-Obstacles-8x8-v0", true),
        ("MiniGrid-Fetch-5x5-N2-v0", false),
        ("MiniGrid-KeyCorridorS3R1-v0", false),
        ("MiniGrid-PutNear-6x6-N2-v0", false),
    ] {
        let mut env = crate::make_default(id).unwrap();
        env.reset(Some(1));
        assert_eq!(env.distance_to_goal().is_some(), expected, "{id}");
    }
}

#[test]
fn empty_5x5_plan_is_shortest() {
    // Agent at (1, 1) facing east, goal at (3, 3): forward ×2, right, forward ×2.
    let mut env = crate::make_default("MiniGrid-Empty-5x5-v0").unwrap();
    env.reset(Some(0));
    assert_eq!(env.distance_to_goal(), Some(5));
    let e = play("MiniGrid-Empty-5x5-v0", 0);
    assert!(e.success);
    assert_eq!(e.steps, 5);
}

/// A fixed pseudo-random sequence (an LCG), for detours.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

#[test]
fn recovers_from_random_detours() {
    // From wherever random actions leave the agent, the oracle still succeeds unless the
    // time runs out or the objective is gone (PutNear: toggling a box destroys it).
    let mut rng = Lcg(7);
    let mut failures = Vec::new();
    for id in minigrid_ids() {
        for seed in 0..10 {
            let mut env = crate::make_default(id).unwrap();
            env.reset(Some(seed));
            let n = env.action_names().len();
            let mut over = false;
            for _ in 0..5 + rng.below(20) {
                let s = env.step(Action::Index(rng.below(n))).unwrap();
                over |= s.terminated || s.truncated;
                if over {
                    break;
                }
            }
            if over {
                continue;
            }
            env.distance_to_goal();
            let mut solver = env.oracle(Control::default()).unwrap();
            loop {
                let Some(a) = solver.act(&*env) else {
                    if !id.contains("PutNear") {
                        failures.push(format!("{id} seed {seed}: no plan"));
                    }
                    break;
                };
                let s = env.step(Action::Index(a)).unwrap();
                if s.terminated || s.truncated {
                    if !s.truncated && s.reward <= 0.0 {
                        failures.push(format!("{id} seed {seed}: failed"));
                    }
                    break;
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}

/// The fewest steps to success, by breadth-first search over whole states (agent,
/// carried object, grid).
fn brute_force(env: &dyn crate::Env) -> Option<u32> {
    use std::collections::{HashSet, VecDeque};
    let key = |e: &dyn crate::Env| {
        let w = super::world_of(e).unwrap();
        (
            w.agent_pos,
            w.agent_dir,
            crate::minigrid::grid::encode_cell(w.carrying.as_ref()),
            w.grid.encode(),
        )
    };
    let mut seen = HashSet::from([key(env)]);
    let mut queue = VecDeque::from([(env.clone_box(), 0)]);
    while let Some((e, d)) = queue.pop_front() {
        for a in 0..e.action_names().len() {
            let mut next = e.clone_box();
            let s = next.step(Action::Index(a)).unwrap();
            if s.terminated && s.reward > 0.0 {
                return Some(d + 1);
            }
            if !s.terminated && seen.insert(key(&*next)) {
                queue.push_back((next, d + 1));
            }
        }
    }
    None
}

#[test]
fn plans_are_shortest_on_small_levels() {
    for id in [
        "MiniGrid-DoorKey-5x5-v0",
        "MiniGrid-KeyCorridorS3R1-v0",
        "MiniGrid-Unlock-v0",
        "MiniGrid-PutNear-6x6-N2-v0",
        "MiniGrid-GoToDoor-5x5-v0",
        "MiniGrid-MemoryS7-v0",
        "MiniGrid-RedBlueDoors-6x6-v0",
        "MiniGrid-ObstructedMaze-1Dlh-v0",
    ] {
        for seed in 0..3 {
            let mut env = crate::make_default(id).unwrap();
            env.reset(Some(seed));
            let best = brute_force(&*env);
            let e = play(id, seed);
            assert!(e.success, "{id} seed {seed}");
            assert_eq!(Some(e.steps), best, "{id} seed {seed}");
        }
    }
}
