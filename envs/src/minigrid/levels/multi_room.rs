//! MultiRoom: a chain of rooms joined by closed doors, the goal in the last one.

use crate::minigrid::env::Level;
use crate::minigrid::grid::{wall, Grid, Pos};
use crate::minigrid::object::{Color, DoorState};
use crate::minigrid::world::{GenError, World};

const SIDE: i64 = 25;

#[derive(Clone)]
pub struct MultiRoom {
    pub min_rooms: i64,
    pub max_rooms: i64,
    pub max_room_size: i64,
}

#[derive(Clone)]
struct Room {
    top: Pos,
    size: Pos,
    entry: Pos,
}

impl MultiRoom {
    /// The reference `_placeRoom`: appends this room and (recursively) its successors.
    fn place_room(
        &self,
        w: &mut World,
        left: i64,
        rooms: &mut Vec<Room>,
        wall_idx: i64,
        entry: Pos,
    ) -> bool {
        let sx = w.rand_int(4, self.max_room_size + 1);
        let sy = w.rand_int(4, self.max_room_size + 1);
        let top = if rooms.is_empty() {
            entry
        } else {
            match wall_idx {
                0 => (entry.0 - sx + 1, w.rand_int(entry.1 - sy + 2, entry.1)),
                1 => (w.rand_int(entry.0 - sx + 2, entry.0), entry.1 - sy + 1),
                2 => (entry.0, w.rand_int(entry.1 - sy + 2, entry.1)),
                _ => (w.rand_int(entry.0 - sx + 2, entry.0), entry.1),
            }
        };
        if top.0 < 0 || top.1 < 0 || top.0 + sx > SIDE || top.1 + sy >= SIDE {
            return false;
        }
        let overlaps = rooms.iter().take(rooms.len().saturating_sub(1)).any(|r| {
            !(top.0 + sx < r.top.0
                || r.top.0 + r.size.0 <= top.0
                || top.1 + sy < r.top.1
                || r.top.1 + r.size.1 <= top.1)
        });
        if overlaps {
            return false;
        }
        rooms.push(Room {
            top,
            size: (sx, sy),
            entry,
        });
        if left == 1 {
            return true;
        }
        for _ in 0..8 {
            let walls: Vec<i64> = (0..4).filter(|&k| k != wall_idx).collect();
            let exit_wall = w.rand_elem(&walls).unwrap_or(0);
            let exit = match exit_wall {
                0 => (top.0 + sx - 1, top.1 + w.rand_int(1, sy - 1)),
                1 => (top.0 + w.rand_int(1, sx - 1), top.1 + sy - 1),
                2 => (top.0, top.1 + w.rand_int(1, sy - 1)),
                _ => (top.0 + w.rand_int(1, sx - 1), top.1),
            };
            if self.place_room(w, left - 1, rooms, (exit_wall + 2) % 4, exit) {
                break;
            }
        }
        true
    }
}

impl Level for MultiRoom {
    fn size(&self) -> (usize, usize) {
        (SIDE as usize, SIDE as usize)
    }
    fn max_steps(&self) -> u32 {
        (self.max_rooms * 20) as u32
    }
    fn generate(&mut self, w: &mut World) -> Result<(), GenError> {
        let count = w.rand_int(self.min_rooms, self.max_rooms + 1) as usize;
        let mut best: Vec<Room> = Vec::new();
        while best.len() < count {
            let mut rooms = Vec::new();
            // Both coordinates use the width, as in the reference.
            let entry = (w.rand_int(0, SIDE - 2), w.rand_int(0, SIDE - 2));
            self.place_room(w, count as i64, &mut rooms, 2, entry);
            if rooms.len() > best.len() {
                best = rooms;
            }
        }
        w.grid = Grid::new(SIDE as usize, SIDE as usize);
        let mut prev_color: Option<Color> = None;
        for (idx, room) in best.iter().enumerate() {
            let ((tx, ty), (sx, sy)) = (room.top, room.size);
            for i in 0..sx {
                w.grid.set((tx + i, ty), Some(wall()));
                w.grid.set((tx + i, ty + sy - 1), Some(wall()));
            }
            for j in 0..sy {
                w.grid.set((tx, ty + j), Some(wall()));
                w.grid.set((tx + sx - 1, ty + j), Some(wall()));
            }
            if idx > 0 {
                let colors: Vec<Color> = Color::ALPHABETICAL
                    .iter()
                    .copied()
                    .filter(|&c| Some(c) != prev_color)
                    .collect();
                let color = w.rand_elem(&colors).unwrap_or(Color::Blue);
                let door = w.door(color, DoorState::Closed);
                w.put(room.entry, door);
                prev_color = Some(color);
            }
        }
        let (first, last) = (best[0].clone(), best[best.len() - 1].clone());
        w.place_agent(first.top, first.size, None)?;
        let goal = w.goal();
        w.place_obj(Some(goal), last.top, last.size, None, None)?;
        w.mission = "traverse the rooms to get to the goal".into();
        Ok(())
    }
}
