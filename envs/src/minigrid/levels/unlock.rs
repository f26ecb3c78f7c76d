//! Unlock and BlockedUnlockPickup: two rooms joined by a locked door whose key lies in
//! the agent's room.

use super::room_grid::{box_behind_locked_door, pickup_target_step, RoomGrid};
use crate::minigrid::env::Level;
use crate::minigrid::grid::Pos;
use crate::minigrid::object::{DoorState, ObjKind};
use crate::minigrid::world::{GenError, Outcome, World, TOGGLE};

/// `MiniGrid-Unlock-v0`: open the locked door; success the moment it opens.
#[derive(Clone)]
pub struct Unlock {
    rooms: RoomGrid,
    door: Pos,
}

impl Unlock {
    pub fn new() -> Self {
        Self {
            rooms: RoomGrid::new(6, 1, 2),
            door: (-1, -1),
        }
    }
}

impl Default for Unlock {
    fn default() -> Self {
        Self::new()
    }
}

impl Level for Unlock {
    fn size(&self) -> (usize, usize) {
        self.rooms.grid_size()
    }
    fn max_steps(&self) -> u32 {
        8 * 36
    }
    fn generate(&mut self, w: &mut World) -> Result<(), GenError> {
        self.rooms.generate(w);
        let (door, pos) = self.rooms.add_door(w, 0, 0, Some(0), None, Some(true))?;
        self.rooms
            .add_object(w, 0, 0, Some(ObjKind::Key), Some(door.color))?;
        self.rooms.place_agent(w, Some(0), Some(0))?;
        self.door = pos;
        w.mission = "open the door".into();
        Ok(())
    }
    fn step(&mut self, w: &mut World, action: usize) -> Outcome {
        let mut out = w.base_step(action);
        let open = w
            .grid
            .get(self.door)
            .is_some_and(|d| d.kind == ObjKind::Door(DoorState::Open));
        if action == TOGGLE && open {
            out.reward = w.success_reward();
            out.terminated = true;
        }
        out
    }
}

/// `MiniGrid-BlockedUnlockPickup-v0`: as UnlockPickup, but a ball blocks the door on
/// the agent's side.
#[derive(Clone)]
pub struct BlockedUnlockPickup {
    rooms: RoomGrid,
    target: Option<u32>,
}

impl BlockedUnlockPickup {
    pub fn new() -> Self {
        Self {
            rooms: RoomGrid::new(6, 1, 2),
            target: None,
        }
    }
}

impl Default for BlockedUnlockPickup {
    fn default() -> Self {
        Self::new()
    }
}

impl Level for BlockedUnlockPickup {
    fn size(&self) -> (usize, usize) {
        self.rooms.grid_size()
    }
    fn max_steps(&self) -> u32 {
        16 * 36
    }
    fn generate(&mut self, w: &mut World) -> Result<(), GenError> {
        self.rooms.generate(w);
        let (target, door, pos) = box_behind_locked_door(&mut self.rooms, w)?;
        let color = w.rand_color();
        let ball = w.obj(ObjKind::Ball, color);
        w.put((pos.0 - 1, pos.1), ball);
        self.rooms
            .add_object(w, 0, 0, Some(ObjKind::Key), Some(door.color))?;
        self.rooms.place_agent(w, Some(0), Some(0))?;
        w.mission = format!("pick up the {} {}", target.color.name(), target.type_name());
        self.target = Some(target.id);
        Ok(())
    }
    fn step(&mut self, w: &mut World, action: usize) -> Outcome {
        pickup_target_step(w, action, self.target)
    }
}
