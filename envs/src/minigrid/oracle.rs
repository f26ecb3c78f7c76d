//! The MiniGrid oracle: plans over the true state (the level's [`World`]) and replans at
//! every decision, so it needs no memory of its own.
//!
//! - [`missions`] reads what the level asks for;
//! - [`strategy`] turns it into the next stage — the goal itself, or what clears the
//!   way first (a key to fetch, a box to open, a ball to carry off, something to drop);
//! - [`planner`] finds the shortest way over poses (cell, direction);
//! - [`dynamic`] plays Dynamic-Obstacles, where the balls move every step.
//!
//! MiniGrid tasks play one action per decision; `Control` is not consulted.

mod dynamic;
mod missions;
mod planner;
mod strategy;
#[cfg(test)]
mod tests;

use crate::core::env::Env;
use crate::core::oracle::{Control, Solver};
use crate::minigrid::world::World;
use missions::Objective;
use planner::{MoveKind, Pose};

/// More stages than any level needs (blocker, drop, box, key, door, drop, target ...).
const MAX_STAGES: usize = 32;

struct Oracle {
    dynamic: bool,
}

fn is_dynamic(id: &str) -> bool {
    id.contains("Dynamic-Obstacles")
}

/// The world of a MiniGrid environment (through any wrapper).
pub(crate) fn world_of(env: &dyn Env) -> Option<&World> {
    env.world_any()?.downcast_ref::<World>()
}

pub(super) fn solver(id: &str, _control: Control) -> Option<Box<dyn Solver>> {
    Some(Box::new(Oracle {
        dynamic: is_dynamic(id),
    }))
}

impl Solver for Oracle {
    fn act(&mut self, env: &dyn Env) -> Option<usize> {
        let world = world_of(env)?;
        if self.dynamic {
            return dynamic::act(world);
        }
        let objective = Objective::parse(world)?;
        strategy::decide(world, &objective)?.action(world)
    }
}

/// The oracle's number of decisions to success from here, for objectives reached by
/// walking (the goal square, Memory's object, GoToDoor's door). Dynamic-Obstacles: the
/// shortest way with the (moving) balls ignored.
pub(super) fn distance_to_goal(id: &str, world: &World) -> Option<u32> {
    if is_dynamic(id) {
        return dynamic::distance(world);
    }
    let objective = Objective::parse(world)?;
    if !objective.is_navigation() {
        return None;
    }
    rollout(world, &objective)
}

/// Plays the oracle's plan on a copy of the world, a stage at a time (each stage's field
/// is made once and followed to its end), and counts the decisions. The levels whose
/// objective is navigation step exactly as the base world does.
fn rollout(world: &World, objective: &Objective) -> Option<u32> {
    let mut w = world.clone();
    let cap = 4 * (w.grid.width * w.grid.height) as u32 * 4;
    let mut steps = 0u32;
    for _ in 0..MAX_STAGES {
        let stage = strategy::decide(&w, objective)?;
        loop {
            let m = stage.field.best(&w, &stage.rules, Pose::of(&w))?;
            if m.kind == MoveKind::Finish {
                if let Some(a) = m.action {
                    w.base_step(a);
                    steps += 1;
                }
                break;
            }
            w.base_step(m.action?);
            steps += 1;
            if steps > cap {
                return None;
            }
        }
        if stage.last {
            return Some(steps);
        }
    }
    None
}
