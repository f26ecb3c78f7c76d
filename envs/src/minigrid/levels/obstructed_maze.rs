//! ObstructedMaze-1Dl, -1Dlh, -1Dlhb: two rooms joined by a locked door; its key may be
//! hidden in a box and a ball may block the door. Pick up the blue ball behind it.

use super::room_grid::{pickup_target_step, RoomGrid};
use crate::minigrid::env::Level;
use crate::minigrid::object::{Color, Obj, ObjKind};
use crate::minigrid::world::{dir_vec, GenError, Outcome, World};

/// The ball to find is the first colour, blocking balls the second, boxes the third
/// (of the alphabetical colours).
const TARGET_COLOR: Color = Color::Blue;
const BLOCKING_COLOR: Color = Color::Green;
const BOX_COLOR: Color = Color::Grey;

#[derive(Clone)]
pub struct ObstructedMaze1D {
    rooms: RoomGrid,
    /// The key hides in a box that must be toggled open.
    pub key_in_box: bool,
    /// A ball sits in front of the door on the agent's side.
    pub blocked: bool,
    target: Option<u32>,
}

impl ObstructedMaze1D {
    pub fn new(key_in_box: bool, blocked: bool) -> Self {
        Self {
            rooms: RoomGrid::new(6, 1, 2),
            key_in_box,
            blocked,
            target: None,
        }
    }

    /// The reference's obstructed `add_door`: the door, then a blocking ball just inside
    /// room (i, j), then (for a locked door) its key, boxed or not, placed in the room.
    fn add_obstructed_door(
        &mut self,
        w: &mut World,
        i: i64,
        j: i64,
        door_idx: usize,
        color: Color,
        locked: bool,
    ) -> Result<Obj, GenError> {
        let (door, pos) =
            self.rooms
                .add_door(w, i, j, Some(door_idx), Some(color), Some(locked))?;
        if self.blocked {
            let v = dir_vec(door_idx as i64);
            let ball = w.obj(ObjKind::Ball, BLOCKING_COLOR);
            w.put((pos.0 - v.0, pos.1 - v.1), ball);
        }
        if locked {
            let mut obj = w.obj(ObjKind::Key, door.color);
            if self.key_in_box {
                obj = w.obj(ObjKind::Box(Some(Box::new(obj))), BOX_COLOR);
            }
            self.rooms.place_in_room(w, i, j, obj)?;
        }
        Ok(door)
    }
}

impl Level for ObstructedMaze1D {
    fn size(&self) -> (usize, usize) {
        self.rooms.grid_size()
    }
    fn max_steps(&self) -> u32 {
        // 4 × rooms to visit (2) × room size².
        4 * 2 * 36
    }
    fn generate(&mut self, w: &mut World) -> Result<(), GenError> {
        self.rooms.generate(w);
        let door_colors = w.rand_subset(&Color::ALPHABETICAL, Color::ALPHABETICAL.len());
        w.mission = format!("pick up the {} ball", TARGET_COLOR.name());
        let color = door_colors.first().copied().unwrap_or(Color::Blue);
        self.add_obstructed_door(w, 0, 0, 0, color, true)?;
        let (target, _) =
            self.rooms
                .add_object(w, 1, 0, Some(ObjKind::Ball), Some(TARGET_COLOR))?;
        self.target = Some(target.id);
        self.rooms.place_agent(w, Some(0), Some(0))?;
        Ok(())
    }
    fn step(&mut self, w: &mut World, action: usize) -> Outcome {
        pickup_target_step(w, action, self.target)
    }
}
