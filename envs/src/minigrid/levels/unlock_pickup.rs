//! UnlockPickup and KeyCorridor: fetch a key, unlock a door, pick up the target.

use super::room_grid::{box_behind_locked_door, pickup_target_step, RoomGrid};
use crate::minigrid::env::Level;
use crate::minigrid::object::{Color, ObjKind};
use crate::minigrid::world::{GenError, Outcome, World};

/// `MiniGrid-UnlockPickup-v0`: two 6×6 rooms, the box behind a locked door.
#[derive(Clone)]
pub struct UnlockPickup {
    rooms: RoomGrid,
    target: Option<u32>,
}

impl Default for UnlockPickup {
    fn default() -> Self {
        Self::new()
    }
}

impl UnlockPickup {
    pub fn new() -> Self {
        Self {
            rooms: RoomGrid::new(6, 1, 2),
            target: None,
        }
    }
}

impl Level for UnlockPickup {
    fn size(&self) -> (usize, usize) {
        self.rooms.grid_size()
    }
    fn max_steps(&self) -> u32 {
        8 * 36
    }
    fn generate(&mut self, w: &mut World) -> Result<(), GenError> {
        self.rooms.generate(w);
        let (target, door, _) = box_behind_locked_door(&mut self.rooms, w)?;
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

/// `MiniGrid-KeyCorridorSsRr`: a corridor of rooms; the ball is behind a locked door
/// and its key in a room on the other side.
#[derive(Clone)]
pub struct KeyCorridor {
    rooms: RoomGrid,
    target: Option<u32>,
}

impl KeyCorridor {
    pub fn new(room_size: i64, rows: i64) -> Self {
        Self {
            rooms: RoomGrid::new(room_size, rows, 3),
            target: None,
        }
    }
}

impl Level for KeyCorridor {
    fn size(&self) -> (usize, usize) {
        self.rooms.grid_size()
    }
    fn max_steps(&self) -> u32 {
        (30 * self.rooms.room_size * self.rooms.room_size) as u32
    }
    fn generate(&mut self, w: &mut World) -> Result<(), GenError> {
        self.rooms.generate(w);
        let rows = self.rooms.rows;
        for j in 1..rows {
            self.rooms.remove_wall(w, 1, j, 3);
        }
        let room = w.rand_int(0, rows);
        let (door, _) = self.rooms.add_door(w, 2, room, Some(2), None, Some(true))?;
        let (target, _) = self
            .rooms
            .add_object(w, 2, room, Some(ObjKind::Ball), None)?;
        let key_room = w.rand_int(0, rows);
        self.rooms
            .add_object(w, 0, key_room, Some(ObjKind::Key), Some(door.color))?;
        self.rooms.place_agent(w, Some(1), Some(rows / 2))?;
        self.rooms.connect_all(w, &Color::ALPHABETICAL, 5000)?;
        w.mission = format!("pick up the {} {}", target.color.name(), target.type_name());
        self.target = Some(target.id);
        Ok(())
    }
    fn step(&mut self, w: &mut World, action: usize) -> Outcome {
        pickup_target_step(w, action, self.target)
    }
}
