//! Navigation over the agent's poses (cell, direction) with MiniGrid's moves: turn
//! left, turn right, move forward. Entering a closed door costs a toggle more;
//! a *relaxed* search may also cross locked doors and movable objects at a large
//! penalty, which tells the strategy what stands in the way.
//!
//! A [`Field`] holds the cost-to-go of every pose toward a [`Target`] (a backward
//! Dijkstra); its cheapest [`Move`] from the agent's pose is the next decision.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::minigrid::grid::Pos;
use crate::minigrid::object::{Color, DoorState, ObjKind};
use crate::minigrid::world::{dir_vec, World, DROP, FORWARD, LEFT, RIGHT, TOGGLE};

/// No way there.
pub(super) const INF: u32 = u32::MAX;

/// The extra cost of crossing an obstacle in a relaxed search: larger than any path, so
/// a relaxed cost divided by it counts the obstacles on the way.
pub(super) const PENALTY: u32 = 100_000;

/// Where the agent stands and which way it faces (0 east, 1 south, 2 west, 3 north).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Pose {
    pub pos: Pos,
    pub dir: usize,
}

impl Pose {
    pub fn of(world: &World) -> Self {
        Self {
            pos: world.agent_pos,
            dir: world.agent_dir.rem_euclid(4) as usize,
        }
    }

    pub fn front(self) -> Pos {
        step(self.pos, self.dir, 1)
    }

    /// The pose after turning left.
    pub fn left(self) -> Self {
        Self {
            dir: (self.dir + 3) % 4,
            ..self
        }
    }

    /// The pose after turning right.
    pub fn right(self) -> Self {
        Self {
            dir: (self.dir + 1) % 4,
            ..self
        }
    }
}

/// `pos` moved `n` cells along `dir`.
pub(super) fn step(pos: Pos, dir: usize, n: i64) -> Pos {
    let v = dir_vec(dir as i64);
    (pos.0 + n * v.0, pos.1 + n * v.1)
}

/// How a cell is entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Entry {
    /// Move forward.
    Walk,
    /// Toggle the door open (a closed one, or a locked one with its key), then forward.
    Open,
    /// Relaxed searches only: an obstacle (locked door, movable object) to clear first.
    Cross,
}

/// What the agent may do on the way.
#[derive(Clone, Debug, Default)]
pub(super) struct Rules {
    /// The agent's cell: always a place to stand, whatever lies there.
    pub origin: Pos,
    /// Closed doors may be toggled open.
    pub open_doors: bool,
    /// The colour of the carried key: locked doors of that colour open.
    pub key: Option<Color>,
    /// Locked doors (and movable objects, with `move_objects`) can be crossed at
    /// [`PENALTY`].
    pub relaxed: bool,
    pub move_objects: bool,
    /// Cells never entered (Memory's wrong object).
    pub avoid: Vec<Pos>,
    /// Cells treated as walls (where an object is about to be dropped).
    pub walls: Vec<Pos>,
    /// Cells treated as empty (an object about to be picked up, balls that move away).
    pub clear: Vec<Pos>,
    /// Extra cost of entering each cell (`y * width + x`), when not empty.
    pub extra: Vec<u32>,
}

impl Rules {
    /// The cost of entering `p` from a neighbouring cell, and how; `None` when it cannot
    /// be entered.
    pub fn enter(&self, world: &World, p: Pos) -> Option<(u32, Entry)> {
        if !world.grid.contains(p) || self.avoid.contains(&p) || self.walls.contains(&p) {
            return None;
        }
        let extra = self
            .extra
            .get(p.1 as usize * world.grid.width + p.0 as usize)
            .copied()
            .unwrap_or(0);
        let plain = Some((1 + extra, Entry::Walk));
        if self.clear.contains(&p) {
            return plain;
        }
        let Some(obj) = world.grid.get(p) else {
            return plain;
        };
        let crossing = (2 + PENALTY + extra, Entry::Cross);
        match &obj.kind {
            ObjKind::Floor | ObjKind::Goal | ObjKind::Door(DoorState::Open) => plain,
            ObjKind::Wall | ObjKind::Lava => None,
            ObjKind::Door(DoorState::Closed) => self.open_doors.then_some((2 + extra, Entry::Open)),
            ObjKind::Door(DoorState::Locked) if self.key == Some(obj.color) => {
                Some((2 + extra, Entry::Open))
            }
            ObjKind::Door(DoorState::Locked) => self.relaxed.then_some(crossing),
            // (A box with something inside is cleared by opening it.)
            ObjKind::Key | ObjKind::Ball | ObjKind::Box(_) => {
                (self.relaxed && self.move_objects).then_some(crossing)
            }
        }
    }

    fn standable(&self, world: &World, p: Pos) -> bool {
        p == self.origin || self.enter(world, p).is_some()
    }
}

/// One way to finish: at `pose`, do `action` (`None`: being there is enough) at `cost`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct End {
    pub pose: Pose,
    pub action: Option<usize>,
    pub cost: u32,
}

/// Where a plan finishes.
#[derive(Clone, Debug)]
pub(super) enum Target {
    /// Stand on one of the cells, facing anywhere, then do `then` if any.
    At {
        cells: Vec<Pos>,
        then: Option<usize>,
    },
    /// Face one of the cells and do its action.
    Face(Vec<(Pos, usize)>),
    /// Face one of the cells, empty, and drop the carried object there.
    DropOn(Vec<Pos>),
    /// Explicit ends (a pose's cost may include what follows it).
    Ends(Vec<End>),
}

impl Target {
    /// The ends that exist under `rules`.
    pub fn ends(&self, world: &World, rules: &Rules) -> Vec<End> {
        let mut out = Vec::new();
        let mut facing = |cell: Pos, action: usize| {
            for dir in 0..4 {
                let pos = step(cell, dir, -1);
                if world.grid.contains(pos) && rules.standable(world, pos) {
                    out.push(End {
                        pose: Pose { pos, dir },
                        action: Some(action),
                        cost: 1,
                    });
                }
            }
        };
        match self {
            Self::At { cells, then } => {
                for &pos in cells {
                    if world.grid.contains(pos) && rules.standable(world, pos) {
                        for dir in 0..4 {
                            out.push(End {
                                pose: Pose { pos, dir },
                                action: *then,
                                cost: u32::from(then.is_some()),
                            });
                        }
                    }
                }
            }
            Self::Face(cells) => cells.iter().for_each(|&(c, a)| facing(c, a)),
            Self::DropOn(cells) => {
                for &c in cells {
                    let free = world.grid.contains(c)
                        && world.grid.get(c).is_none()
                        && !rules.walls.contains(&c)
                        && !rules.avoid.contains(&c);
                    if free {
                        facing(c, DROP);
                    }
                }
            }
            Self::Ends(ends) => {
                return ends
                    .iter()
                    .filter(|e| rules.standable(world, e.pose.pos))
                    .copied()
                    .collect()
            }
        }
        out
    }
}

/// A candidate decision at a pose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Move {
    /// The action to take; `None` for a finish that needs none, or a relaxed crossing.
    pub action: Option<usize>,
    pub kind: MoveKind,
    /// The cost of the whole remaining plan through this move.
    pub total: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MoveKind {
    Finish,
    Turn(Pose),
    Forward(Pos, Entry),
}

/// Cells of the world, flattened, with the rules evaluated once per cell.
struct Cells {
    width: usize,
    height: usize,
    enter: Vec<Option<(u32, Entry)>>,
    standable: Vec<bool>,
}

impl Cells {
    fn new(world: &World, rules: &Rules) -> Self {
        let (width, height) = (world.grid.width, world.grid.height);
        let mut enter = Vec::with_capacity(width * height);
        let mut standable = Vec::with_capacity(width * height);
        for y in 0..height as i64 {
            for x in 0..width as i64 {
                let e = rules.enter(world, (x, y));
                enter.push(e);
                standable.push(e.is_some() || (x, y) == rules.origin);
            }
        }
        Self {
            width,
            height,
            enter,
            standable,
        }
    }

    fn cell(&self, (x, y): Pos) -> Option<usize> {
        (x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height)
            .then(|| y as usize * self.width + x as usize)
    }

    fn index(&self, pose: Pose) -> Option<usize> {
        self.cell(pose.pos).map(|c| c * 4 + pose.dir)
    }

    fn pose(&self, index: usize) -> Pose {
        let c = index / 4;
        Pose {
            pos: ((c % self.width) as i64, (c / self.width) as i64),
            dir: index % 4,
        }
    }

    fn enter(&self, p: Pos) -> Option<(u32, Entry)> {
        self.cell(p).and_then(|c| self.enter[c])
    }

    fn standable(&self, p: Pos) -> bool {
        self.cell(p).is_some_and(|c| self.standable[c])
    }
}

/// The cost-to-go of every pose toward a target.
pub(super) struct Field {
    width: usize,
    height: usize,
    cost: Vec<u32>,
    /// Per pose, the cost and action of finishing there (`INF` when it is no end).
    end: Vec<(u32, Option<usize>)>,
}

impl Field {
    /// Backward Dijkstra from the target's ends.
    pub fn toward(world: &World, rules: &Rules, target: &Target) -> Self {
        let cells = Cells::new(world, rules);
        let n = cells.width * cells.height * 4;
        let mut cost = vec![INF; n];
        let mut end = vec![(INF, None); n];
        let mut heap = BinaryHeap::new();
        for e in target.ends(world, rules) {
            let Some(i) = cells.index(e.pose) else {
                continue;
            };
            if e.cost < end[i].0 {
                end[i] = (e.cost, e.action);
            }
            if e.cost < cost[i] {
                cost[i] = e.cost;
                heap.push(Reverse((e.cost, i)));
            }
        }
        while let Some(Reverse((c, i))) = heap.pop() {
            if c > cost[i] {
                continue;
            }
            let pose = cells.pose(i);
            let mut relax = |p: Pose, step_cost: u32| {
                if let Some(j) = cells.index(p) {
                    let nc = c.saturating_add(step_cost);
                    if nc < cost[j] {
                        cost[j] = nc;
                        heap.push(Reverse((nc, j)));
                    }
                }
            };
            // Turning left from the right-hand pose (and right from the left-hand one)
            // gives this one.
            relax(pose.right(), 1);
            relax(pose.left(), 1);
            let back = step(pose.pos, pose.dir, -1);
            if let (true, Some((e, _))) = (cells.standable(back), cells.enter(pose.pos)) {
                relax(
                    Pose {
                        pos: back,
                        dir: pose.dir,
                    },
                    e,
                );
            }
        }
        Self {
            width: cells.width,
            height: cells.height,
            cost,
            end,
        }
    }

    fn index(&self, pose: Pose) -> Option<usize> {
        let (x, y) = pose.pos;
        (x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height)
            .then(|| (y as usize * self.width + x as usize) * 4 + pose.dir)
    }

    /// The cost of the plan from `pose` (`INF` when there is none).
    pub fn cost(&self, pose: Pose) -> u32 {
        self.index(pose).map_or(INF, |i| self.cost[i])
    }

    /// Every decision at `pose` that leads somewhere, with the cost of the plan through
    /// it, in order of preference among equals: finish, forward, left, right. The moves
    /// are evaluated on the current `world` (a door opened since the field was made
    /// costs one less to enter).
    pub fn moves(&self, world: &World, rules: &Rules, pose: Pose) -> Vec<Move> {
        let mut out = Vec::with_capacity(4);
        let Some(i) = self.index(pose) else {
            return out;
        };
        let (end_cost, end_action) = self.end[i];
        if end_cost != INF {
            out.push(Move {
                action: end_action,
                kind: MoveKind::Finish,
                total: end_cost,
            });
        }
        let front = pose.front();
        if let Some((e, entry)) = rules.enter(world, front) {
            let to = self.cost(Pose { pos: front, ..pose });
            if to != INF {
                let action = match entry {
                    Entry::Walk => Some(FORWARD),
                    Entry::Open => Some(TOGGLE),
                    Entry::Cross => None,
                };
                out.push(Move {
                    action,
                    kind: MoveKind::Forward(front, entry),
                    total: to.saturating_add(e),
                });
            }
        }
        for (action, turned) in [(LEFT, pose.left()), (RIGHT, pose.right())] {
            let to = self.cost(turned);
            if to != INF {
                out.push(Move {
                    action: Some(action),
                    kind: MoveKind::Turn(turned),
                    total: to + 1,
                });
            }
        }
        out
    }

    /// The cheapest decision at `pose` (the first of equals in [`Field::moves`] order).
    pub fn best(&self, world: &World, rules: &Rules, pose: Pose) -> Option<Move> {
        let moves = self.moves(world, rules, pose);
        let min = moves.iter().map(|m| m.total).min()?;
        moves.into_iter().find(|m| m.total == min)
    }

    /// Follows the cheapest moves from `start` without changing the world and returns the
    /// first obstacle crossed, if the way to the target has one.
    pub fn first_obstacle(&self, world: &World, rules: &Rules, start: Pose) -> Option<Pos> {
        let mut pose = start;
        for _ in 0..self.cost.len() {
            match self.best(world, rules, pose)?.kind {
                MoveKind::Finish => return None,
                MoveKind::Turn(p) => pose = p,
                MoveKind::Forward(p, Entry::Cross) => return Some(p),
                MoveKind::Forward(p, _) => pose.pos = p,
            }
        }
        None
    }
}

/// Forward Dijkstra from `start`: the cost of reaching every pose, and (with `target`)
/// the cheapest cost of finishing, stopping as soon as it is known.
pub(super) struct Reach {
    width: usize,
    height: usize,
    cost: Vec<u32>,
    /// The cost of the cheapest finish, when `target` was given and can be reached.
    pub finish: Option<u32>,
}

impl Reach {
    pub fn from(world: &World, rules: &Rules, start: Pose, target: Option<&Target>) -> Self {
        let cells = Cells::new(world, rules);
        let n = cells.width * cells.height * 4;
        let mut cost = vec![INF; n];
        let mut end = vec![INF; if target.is_some() { n } else { 0 }];
        for e in target.map(|t| t.ends(world, rules)).unwrap_or_default() {
            if let Some(i) = cells.index(e.pose) {
                end[i] = end[i].min(e.cost);
            }
        }
        // Index `n` stands for "finished".
        let mut heap = BinaryHeap::new();
        let mut finish = None;
        if let Some(s) = cells.index(start) {
            cost[s] = 0;
            heap.push(Reverse((0, s)));
        }
        while let Some(Reverse((c, i))) = heap.pop() {
            if i == n {
                finish = Some(c);
                break;
            }
            if c > cost[i] {
                continue;
            }
            if let Some(&e) = end.get(i).filter(|&&e| e != INF) {
                heap.push(Reverse((c.saturating_add(e), n)));
            }
            let pose = cells.pose(i);
            let mut relax = |p: Pose, step_cost: u32| {
                if let Some(j) = cells.index(p) {
                    let nc = c.saturating_add(step_cost);
                    if nc < cost[j] {
                        cost[j] = nc;
                        heap.push(Reverse((nc, j)));
                    }
                }
            };
            relax(pose.left(), 1);
            relax(pose.right(), 1);
            let front = pose.front();
            if let Some((e, _)) = cells.enter(front) {
                relax(
                    Pose {
                        pos: front,
                        dir: pose.dir,
                    },
                    e,
                );
            }
        }
        Self {
            width: cells.width,
            height: cells.height,
            cost,
            finish,
        }
    }

    pub fn cost(&self, pose: Pose) -> u32 {
        let (x, y) = pose.pos;
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            return INF;
        }
        self.cost[(y as usize * self.width + x as usize) * 4 + pose.dir]
    }

    /// Every pose this search reached, with its cost.
    pub fn reached(&self) -> impl Iterator<Item = (Pose, u32)> + '_ {
        self.cost.iter().enumerate().filter_map(|(i, &c)| {
            let cell = i / 4;
            (c != INF).then_some((
                Pose {
                    pos: ((cell % self.width) as i64, (cell / self.width) as i64),
                    dir: i % 4,
                },
                c,
            ))
        })
    }
}
