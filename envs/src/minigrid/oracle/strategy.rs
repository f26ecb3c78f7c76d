//! From an objective to the next stage of the plan: the goal itself when the way is
//! open, otherwise what clears the way first — fetch the key of a locked door (opening
//! the box that hides it), carry off an object that blocks a passage, drop what the
//! agent holds when its hands must be free. Everything is recomputed from the current
//! state at every decision.

use super::missions::{self, Objective};
use super::planner::{End, Field, Pose, Reach, Rules, Target, INF, PENALTY};
use crate::minigrid::grid::Pos;
use crate::minigrid::object::{Color, DoorState, ObjKind};
use crate::minigrid::world::{World, DONE, DROP, PICKUP, TOGGLE};

/// How deep the chain of preconditions may go (blocker → key → box ...).
const MAX_DEPTH: u32 = 6;

/// One leg of the plan: a field toward its target under the rules it was made with.
pub(super) struct Stage {
    pub field: Field,
    pub rules: Rules,
    /// Finishing this stage achieves the objective.
    pub last: bool,
}

impl Stage {
    /// The next action (`None` when the stage is already finished or has no way).
    pub fn action(&self, world: &World) -> Option<usize> {
        self.field
            .best(world, &self.rules, Pose::of(world))
            .and_then(|m| m.action)
    }
}

/// Something to bring about.
#[derive(Clone, Debug)]
struct Goal {
    target: Target,
    /// The hands must be free for the final action (a pickup, or what follows it).
    empty_hands: bool,
    /// The final action opens a locked door of this colour.
    key: Option<Color>,
    last: bool,
}

impl Goal {
    fn pick(cells: &[Pos]) -> Self {
        Self {
            target: Target::Face(cells.iter().map(|&c| (c, PICKUP)).collect()),
            empty_hands: true,
            key: None,
            last: false,
        }
    }

    fn toggle(cells: &[Pos]) -> Self {
        Self {
            target: Target::Face(cells.iter().map(|&c| (c, TOGGLE)).collect()),
            empty_hands: false,
            key: None,
            last: false,
        }
    }

    fn last(self) -> Self {
        Self { last: true, ..self }
    }
}

/// What the level allows on the way.
struct Style {
    open_doors: bool,
    move_objects: bool,
    avoid: Vec<Pos>,
}

struct Planner<'a> {
    world: &'a World,
    style: Style,
    /// The objective's own goal, which clearing the way must not obstruct.
    top: Goal,
}

/// The stage to play now toward `objective`, `None` when it cannot be achieved.
pub(super) fn decide(world: &World, objective: &Objective) -> Option<Stage> {
    let mut style = Style {
        // Toggling fails GoToDoor; RedBlueDoors' doors are the objective itself.
        open_doors: !matches!(objective, Objective::GoToDoor(_) | Objective::RedThenBlue),
        // Picking up the wrong object fails Fetch and PutNear.
        move_objects: matches!(objective, Objective::ReachGoal | Objective::Pick(_)),
        avoid: Vec::new(),
    };
    let top = top_goal(world, *objective, &mut style)?;
    let planner = Planner { world, style, top };
    planner.pursue(&planner.top, 0)
}

/// The objective as a goal from the current state (the next of its steps, for the
/// objectives that have several).
fn top_goal(world: &World, objective: Objective, style: &mut Style) -> Option<Goal> {
    let reach = |cells: Vec<Pos>, then: Option<usize>| Goal {
        target: Target::At { cells, then },
        empty_hands: false,
        key: None,
        last: true,
    };
    Some(match objective {
        Objective::ReachGoal => reach(missions::goals(world), None),
        Objective::Pick(desc) | Objective::Fetch(desc) => {
            Goal::pick(&missions::find(world, desc)).last()
        }
        Objective::Unlock => {
            let &(door, color) = missions::doors(world, None, DoorState::Locked).first()?;
            Goal {
                key: Some(color),
                ..Goal::toggle(&[door]).last()
            }
        }
        Objective::RedThenBlue => {
            let red = missions::doors(world, Some(Color::Red), DoorState::Closed);
            if let Some(&(red, _)) = red.first() {
                Goal::toggle(&[red])
            } else {
                let blue = missions::doors(world, Some(Color::Blue), DoorState::Closed);
                Goal::toggle(&[blue.first()?.0]).last()
            }
        }
        Objective::GoToDoor(color) => {
            let &(door, _) = missions::doors(world, Some(color), DoorState::Closed).first()?;
            reach(neighbours4(door), Some(DONE))
        }
        Objective::PutNear { moved, near } => {
            let near = *missions::find(world, near).first()?;
            let drop_on = Target::DropOn(neighbours8(near));
            if world.carrying.as_ref().is_some_and(|c| moved.matches(c)) {
                Goal {
                    target: drop_on,
                    ..reach(Vec::new(), None)
                }
            } else {
                let at = *missions::find(world, moved).first()?;
                put_near_pickup(world, at, &drop_on)
            }
        }
        Objective::Memory => {
            let (success, failure) = missions::memory_cells(world)?;
            style.avoid.push(failure);
            reach(vec![success], None)
        }
    })
}

/// PutNear's pickup, valued by the whole rest of the plan: the pickup pose that makes
/// pickup plus the walk to the drop cheapest wins.
fn put_near_pickup(world: &World, at: Pos, drop_on: &Target) -> Goal {
    let carrying = Rules {
        origin: world.agent_pos,
        clear: vec![at],
        ..Rules::default()
    };
    let after = Field::toward(world, &carrying, drop_on);
    let rules = Rules {
        origin: world.agent_pos,
        ..Rules::default()
    };
    let ends = Target::Face(vec![(at, PICKUP)])
        .ends(world, &rules)
        .into_iter()
        .filter_map(|end| {
            let rest = after.cost(end.pose);
            (rest != INF).then_some(End {
                cost: end.cost.saturating_add(rest),
                ..end
            })
        })
        .collect();
    Goal {
        target: Target::Ends(ends),
        ..Goal::pick(&[at])
    }
}

fn neighbours4((x, y): Pos) -> Vec<Pos> {
    vec![(x + 1, y), (x, y + 1), (x - 1, y), (x, y - 1)]
}

fn neighbours8((x, y): Pos) -> Vec<Pos> {
    let mut out = Vec::with_capacity(8);
    for dy in -1..=1 {
        for dx in -1..=1 {
            if (dx, dy) != (0, 0) {
                out.push((x + dx, y + dy));
            }
        }
    }
    out
}

impl Planner<'_> {
    fn rules(&self, key: Option<Color>, relaxed: bool) -> Rules {
        Rules {
            origin: self.world.agent_pos,
            open_doors: self.style.open_doors,
            key,
            relaxed,
            move_objects: self.style.move_objects,
            avoid: self.style.avoid.clone(),
            ..Rules::default()
        }
    }

    fn carried_key(&self) -> Option<Color> {
        self.world
            .carrying
            .as_ref()
            .filter(|c| c.kind == ObjKind::Key)
            .map(|c| c.color)
    }

    /// The stage that brings `goal` closer.
    fn pursue(&self, goal: &Goal, depth: u32) -> Option<Stage> {
        if depth > MAX_DEPTH {
            return None;
        }
        let key = self.carried_key();
        if let Some(color) = goal.key.filter(|&c| key != Some(c)) {
            return self.fetch_key(color, goal, depth);
        }
        let agent = Pose::of(self.world);
        let rules = self.rules(key, false);
        let field = Field::toward(self.world, &rules, &goal.target);
        if field.cost(agent) != INF {
            if goal.empty_hands && self.world.carrying.is_some() {
                return self.drop_for(goal);
            }
            return Some(Stage {
                field,
                rules,
                last: goal.last,
            });
        }
        // Blocked: clear the first obstacle on the way that crosses the fewest.
        let relaxed = self.rules(key, true);
        let field = Field::toward(self.world, &relaxed, &goal.target);
        let obstacle = field.first_obstacle(self.world, &relaxed, agent)?;
        let obj = self.world.grid.get(obstacle)?;
        match obj.kind {
            ObjKind::Door(DoorState::Locked) => self.fetch_key(obj.color, goal, depth),
            // Opened, a box leaves what it holds in its place.
            ObjKind::Box(Some(_)) => self.pursue(&Goal::toggle(&[obstacle]), depth + 1),
            _ => self.pursue(&Goal::pick(&[obstacle]), depth + 1),
        }
    }

    /// Gets the key of `color` on the way to `then`: picks it up, or opens the box that
    /// holds it.
    fn fetch_key(&self, color: Color, then: &Goal, depth: u32) -> Option<Stage> {
        let is_key = |o: &crate::minigrid::object::Obj| o.kind == ObjKind::Key && o.color == color;
        let keys: Vec<Pos> = self
            .world
            .grid
            .cells()
            .filter(|(_, o)| is_key(o))
            .map(|(p, _)| p)
            .collect();
        if !keys.is_empty() {
            let pick = self.valued(&keys, PICKUP, color, then);
            return self.pursue(&pick, depth + 1);
        }
        let boxes: Vec<Pos> = self
            .world
            .grid
            .cells()
            .filter(|(_, o)| matches!(&o.kind, ObjKind::Box(Some(inside)) if is_key(inside)))
            .map(|(p, _)| p)
            .collect();
        if !boxes.is_empty() {
            // Opened, the box leaves the key in its place, picked up right after from
            // where the agent stands: free the hands first.
            let open = Goal {
                empty_hands: true,
                ..self.valued(&boxes, TOGGLE, color, then)
            };
            return self.pursue(&open, depth + 1);
        }
        // The agent carries the box: put it down where it can be opened.
        let carried = self.world.carrying.as_ref()?;
        if !matches!(&carried.kind, ObjKind::Box(Some(inside)) if is_key(inside)) {
            return None;
        }
        let free: Vec<Pos> = (0..self.world.height())
            .flat_map(|y| (0..self.world.width()).map(move |x| (x, y)))
            .filter(|&p| self.world.grid.get(p).is_none())
            .collect();
        self.pursue(&self.valued(&free, DROP, color, then), depth + 1)
    }

    /// Doing `action` on one of `cells` toward the key of `color` — picking the key up,
    /// opening the box that holds it (then picking it up), or dropping that box (then
    /// opening it and picking the key up) — each way valued by what follows on the spot
    /// and the way on to `then` with the key in hand, when that way is open.
    fn valued(&self, cells: &[Pos], action: usize, color: Color, then: &Goal) -> Goal {
        let plain = Goal {
            target: match action {
                DROP => Target::DropOn(cells.to_vec()),
                _ => Target::Face(cells.iter().map(|&c| (c, action)).collect()),
            },
            empty_hands: action == PICKUP,
            key: None,
            last: false,
        };
        let (on_the_spot, clears) = match action {
            PICKUP => (0, true),
            TOGGLE => (1, true),
            // The cells are empty already: one field serves them all.
            _ => (2, false),
        };
        let holding = self.rules(Some(color), false);
        let shared = (!clears).then(|| Field::toward(self.world, &holding, &then.target));
        let now = self.rules(self.carried_key(), false);
        let mut ends = Vec::new();
        for &cell in cells {
            let own;
            let rest = match &shared {
                Some(field) => field,
                None => {
                    let mut cleared = holding.clone();
                    cleared.clear.push(cell);
                    own = Field::toward(self.world, &cleared, &then.target);
                    &own
                }
            };
            for end in Target::Face(vec![(cell, action)]).ends(self.world, &now) {
                let r = rest.cost(end.pose);
                if r != INF {
                    ends.push(End {
                        cost: end.cost + on_the_spot + r,
                        ..end
                    });
                }
            }
        }
        if ends.is_empty() {
            return plain;
        }
        Goal {
            target: Target::Ends(ends),
            ..plain
        }
    }

    /// Drops the carried object where it costs least before `goal` (a pickup), without
    /// putting a new obstacle on the way to the objective.
    fn drop_for(&self, goal: &Goal) -> Option<Stage> {
        let w = self.world;
        let agent = Pose::of(w);
        let before = self.rules(self.carried_key(), false);
        let after = self.rules(None, false);
        let to_goal = Field::toward(w, &after, &goal.target);
        let reach = Reach::from(w, &before, agent, None);
        let top = self.rules(None, true);
        let to_top = Field::toward(w, &top, &self.top.target);
        let mut candidates: Vec<(u32, usize, Pose)> = reach
            .reached()
            .enumerate()
            .filter_map(|(i, (pose, d))| {
                let c = pose.front();
                let free =
                    w.grid.contains(c) && w.grid.get(c).is_none() && !after.avoid.contains(&c);
                let rest = to_goal.cost(pose);
                (free && rest != INF).then_some((d.saturating_add(1).saturating_add(rest), i, pose))
            })
            .collect();
        candidates.sort_unstable_by_key(|&(bound, i, _)| (bound, i));
        let mut best: Option<(u32, Pose)> = None;
        for (bound, _, pose) in candidates {
            if best.is_some_and(|(b, _)| bound >= b) {
                break;
            }
            let cell = pose.front();
            let mut blocked = after.clone();
            blocked.walls.push(cell);
            let Some(rest) = Reach::from(w, &blocked, pose, Some(&goal.target)).finish else {
                continue;
            };
            // The drop must not add an obstacle on the way to the objective.
            let obstacles = to_top.cost(pose);
            if obstacles != INF {
                let mut top_blocked = top.clone();
                top_blocked.walls.push(cell);
                let with = Reach::from(w, &top_blocked, pose, Some(&self.top.target)).finish;
                if with.is_none_or(|c| c / PENALTY != obstacles / PENALTY) {
                    continue;
                }
            }
            let total = reach.cost(pose).saturating_add(1).saturating_add(rest);
            if best.is_none_or(|(b, _)| total < b) {
                best = Some((total, pose));
            }
        }
        if let Some((_, pose)) = best {
            let target = Target::Ends(vec![End {
                pose,
                action: Some(DROP),
                cost: 1,
            }]);
            return Some(Stage {
                field: Field::toward(w, &before, &target),
                rules: before,
                last: false,
            });
        }
        // Nowhere to drop yet: the goal may be behind a door only the carried key
        // opens. Go on toward it; the drop comes once through.
        let field = Field::toward(w, &before, &goal.target);
        (field.cost(agent) != INF).then_some(Stage {
            field,
            rules: before,
            last: false,
        })
    }
}
