//! What a level asks for, read from its mission string (and the grid: every level with a
//! green goal square is won by reaching it).

use crate::minigrid::grid::Pos;
use crate::minigrid::object::{kind, Color, DoorState, Obj, ObjKind};
use crate::minigrid::world::World;

/// An object as missions name it: type and colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Desc {
    pub kind: u8,
    pub color: Color,
}

impl Desc {
    pub fn matches(self, obj: &Obj) -> bool {
        obj.type_index() == self.kind && obj.color == self.color
    }

    /// "red ball" (the last two words of `text`).
    fn parse(text: &str) -> Option<Self> {
        let mut words = text.split_whitespace().rev();
        let kind_name = words.next()?;
        let color_name = words.next()?;
        let color = Color::ALPHABETICAL
            .into_iter()
            .find(|c| c.name() == color_name)?;
        let kind = (kind::WALL..=kind::LAVA).find(|&k| kind::name(k) == kind_name)?;
        Some(Self { kind, color })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Objective {
    /// Step onto the goal square (Empty, DoorKey, crossings, MultiRoom, FourRooms,
    /// DistShift, LavaGap, LockedRoom, Dynamic-Obstacles).
    ReachGoal,
    /// "pick up the {color} {type}": the target may lie behind locked doors, blocked
    /// doors and keys in boxes (UnlockPickup, KeyCorridor, BlockedUnlockPickup,
    /// ObstructedMaze).
    Pick(Desc),
    /// Fetch: picking up any other object fails, so nothing else is ever moved.
    Fetch(Desc),
    /// Unlock: "open the door" (the locked one).
    Unlock,
    /// RedBlueDoors: open the red door, then the blue one.
    RedThenBlue,
    /// GoToDoor: say done next to the named door; toggling fails.
    GoToDoor(Color),
    /// PutNear: pick up `moved` and drop it next to `near`.
    PutNear { moved: Desc, near: Desc },
    /// Memory: stand next to the end object that matches the one in the start room.
    Memory,
}

impl Objective {
    pub fn parse(world: &World) -> Option<Self> {
        if world.grid.cells().any(|(_, o)| o.kind == ObjKind::Goal) {
            return Some(Self::ReachGoal);
        }
        let m = world.mission.as_str();
        Some(match m {
            "go to the matching object at the end of the hallway" => Self::Memory,
            "open the door" => Self::Unlock,
            "open the red door then the blue door" => Self::RedThenBlue,
            _ => {
                if let Some(rest) = m.strip_prefix("put the ") {
                    let (moved, near) = rest.split_once(" near the ")?;
                    Self::PutNear {
                        moved: Desc::parse(moved)?,
                        near: Desc::parse(near)?,
                    }
                } else if let Some(rest) = m.strip_prefix("go to the ") {
                    Self::GoToDoor(Desc::parse(rest).filter(|d| d.kind == kind::DOOR)?.color)
                } else if m.starts_with("pick up the ") {
                    Self::Pick(Desc::parse(m)?)
                } else {
                    // Fetch: "get a", "go get a", "fetch a", ... "{color} {type}".
                    Self::Fetch(Desc::parse(m)?)
                }
            }
        })
    }

    /// Objectives reached by walking somewhere, whose progress is a distance.
    pub fn is_navigation(self) -> bool {
        matches!(self, Self::ReachGoal | Self::Memory | Self::GoToDoor(_))
    }
}

/// Where the objects matching `desc` lie.
pub(super) fn find(world: &World, desc: Desc) -> Vec<Pos> {
    world
        .grid
        .cells()
        .filter(|(_, o)| desc.matches(o))
        .map(|(p, _)| p)
        .collect()
}

/// Where the goal squares are.
pub(super) fn goals(world: &World) -> Vec<Pos> {
    world
        .grid
        .cells()
        .filter(|(_, o)| o.kind == ObjKind::Goal)
        .map(|(p, _)| p)
        .collect()
}

/// Where the doors of `color` in `state` are.
pub(super) fn doors(world: &World, color: Option<Color>, state: DoorState) -> Vec<(Pos, Color)> {
    world
        .grid
        .cells()
        .filter(|(_, o)| o.kind == ObjKind::Door(state) && color.is_none_or(|c| c == o.color))
        .map(|(p, o)| (p, o.color))
        .collect()
}

/// Memory's success and failure cells: beside the end object that matches the cue (the
/// one in the start room, leftmost) and beside the other, on the hallway's side.
pub(super) fn memory_cells(world: &World) -> Option<(Pos, Pos)> {
    let mut objs: Vec<(Pos, u8)> = world
        .grid
        .cells()
        .filter(|(_, o)| matches!(o.kind, ObjKind::Key | ObjKind::Ball))
        .map(|(p, o)| (p, o.type_index()))
        .collect();
    objs.sort_by_key(|&((x, y), _)| (x, y));
    let [(_, cue), upper, lower] = objs.as_slice() else {
        return None;
    };
    // The upper end object is reached from below, the lower one from above.
    let beside_upper = (upper.0 .0, upper.0 .1 + 1);
    let beside_lower = (lower.0 .0, lower.0 .1 - 1);
    if upper.1 == *cue {
        Some((beside_upper, beside_lower))
    } else {
        Some((beside_lower, beside_upper))
    }
}
