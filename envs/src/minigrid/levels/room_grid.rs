//! The reference `RoomGrid`: square rooms in rows and columns with door positions drawn
//! up front, and the helpers room-based levels build from.

use crate::minigrid::grid::Pos;
use crate::minigrid::object::{Color, DoorState, Obj, ObjKind};
use crate::minigrid::world::{GenError, World};

#[derive(Clone, Debug)]
pub struct Room {
    pub top: Pos,
    pub size: Pos,
    /// Door positions on the right, bottom, left and top walls.
    pub door_pos: [Option<Pos>; 4],
    pub neighbors: [Option<usize>; 4],
    /// Whether each wall has a door or was removed.
    pub linked: [bool; 4],
    pub locked: bool,
    /// (type, colour) of the objects added to this room.
    pub objs: Vec<(u8, Color)>,
}

#[derive(Clone, Debug)]
pub struct RoomGrid {
    pub room_size: i64,
    pub rows: i64,
    pub cols: i64,
    pub rooms: Vec<Room>,
}

/// The reference `reject_next_to`: not on or next to the agent's (placeholder) cell.
pub fn reject_next_to(w: &World, pos: Pos) -> bool {
    let (sx, sy) = w.agent_pos;
    (sx - pos.0).abs() + (sy - pos.1).abs() < 2
}

impl RoomGrid {
    pub fn new(room_size: i64, rows: i64, cols: i64) -> Self {
        Self {
            room_size,
            rows,
            cols,
            rooms: Vec::new(),
        }
    }

    pub fn grid_size(&self) -> (usize, usize) {
        (
            ((self.room_size - 1) * self.cols + 1) as usize,
            ((self.room_size - 1) * self.rows + 1) as usize,
        )
    }

    pub fn index(&self, i: i64, j: i64) -> usize {
        (j * self.cols + i) as usize
    }

    pub fn room(&self, i: i64, j: i64) -> &Room {
        &self.rooms[self.index(i, j)]
    }

    pub fn room_of(&self, (x, y): Pos) -> usize {
        let i = (x / (self.room_size - 1)).min(self.cols - 1);
        let j = (y / (self.room_size - 1)).min(self.rows - 1);
        self.index(i, j)
    }

    /// Walls of every room, door positions (drawn), and the agent at the centre
    /// placeholder facing east.
    pub fn generate(&mut self, w: &mut World) {
        let rs = self.room_size;
        self.rooms.clear();
        for j in 0..self.rows {
            for i in 0..self.cols {
                let top = (i * (rs - 1), j * (rs - 1));
                w.grid.wall_rect(top.0, top.1, rs, rs);
                self.rooms.push(Room {
                    top,
                    size: (rs, rs),
                    door_pos: [None; 4],
                    neighbors: [None; 4],
                    linked: [false; 4],
                    locked: false,
                    objs: Vec::new(),
                });
            }
        }
        for j in 0..self.rows {
            for i in 0..self.cols {
                let idx = self.index(i, j);
                let top = self.rooms[idx].top;
                let (x_l, y_l) = (top.0 + 1, top.1 + 1);
                let (x_m, y_m) = (top.0 + rs - 1, top.1 + rs - 1);
                if i < self.cols - 1 {
                    self.rooms[idx].neighbors[0] = Some(self.index(i + 1, j));
                    self.rooms[idx].door_pos[0] = Some((x_m, w.rand_int(y_l, y_m)));
                }
                if j < self.rows - 1 {
                    self.rooms[idx].neighbors[1] = Some(self.index(i, j + 1));
                    self.rooms[idx].door_pos[1] = Some((w.rand_int(x_l, x_m), y_m));
                }
                if i > 0 {
                    let left = self.index(i - 1, j);
                    self.rooms[idx].neighbors[2] = Some(left);
                    self.rooms[idx].door_pos[2] = self.rooms[left].door_pos[0];
                }
                if j > 0 {
                    let up = self.index(i, j - 1);
                    self.rooms[idx].neighbors[3] = Some(up);
                    self.rooms[idx].door_pos[3] = self.rooms[up].door_pos[1];
                }
            }
        }
        w.agent_pos = (
            (self.cols / 2) * (rs - 1) + rs / 2,
            (self.rows / 2) * (rs - 1) + rs / 2,
        );
        w.agent_dir = 0;
    }

    /// Places an existing object in room (i, j), away from the agent.
    pub fn place_in_room(
        &mut self,
        w: &mut World,
        i: i64,
        j: i64,
        obj: Obj,
    ) -> Result<Pos, GenError> {
        let idx = self.index(i, j);
        let (top, size) = (self.rooms[idx].top, self.rooms[idx].size);
        let entry = (obj.type_index(), obj.color);
        let pos = w.place_obj(Some(obj), top, size, Some(&reject_next_to), Some(1000))?;
        self.rooms[idx].objs.push(entry);
        Ok(pos)
    }

    /// `add_object(i, j, kind, color)`: kind drawn from key/ball/box and colour drawn when
    /// not given. Returns the object (with its identity) and where it went.
    pub fn add_object(
        &mut self,
        w: &mut World,
        i: i64,
        j: i64,
        kind: Option<ObjKind>,
        color: Option<Color>,
    ) -> Result<(Obj, Pos), GenError> {
        let kind = match kind {
            Some(k) => k,
            None => w
                .rand_elem(&[ObjKind::Key, ObjKind::Ball, ObjKind::Box(None)])
                .unwrap_or(ObjKind::Ball),
        };
        let color = match color {
            Some(c) => c,
            None => w.rand_color(),
        };
        let obj = w.obj(kind, color);
        let pos = self.place_in_room(w, i, j, obj.clone())?;
        Ok((obj, pos))
    }

    /// `add_door(i, j, door_idx, color, locked)`; unspecified parts are drawn.
    pub fn add_door(
        &mut self,
        w: &mut World,
        i: i64,
        j: i64,
        door_idx: Option<usize>,
        color: Option<Color>,
        locked: Option<bool>,
    ) -> Result<(Obj, Pos), GenError> {
        let idx = self.index(i, j);
        let k = match door_idx {
            Some(k) => k,
            None => loop {
                let k = w.rand_int(0, 4) as usize;
                if self.rooms[idx].neighbors[k].is_some() && !self.rooms[idx].linked[k] {
                    break k;
                }
            },
        };
        let color = match color {
            Some(c) => c,
            None => w.rand_color(),
        };
        let locked = match locked {
            Some(l) => l,
            None => w.rand_bool(),
        };
        let (Some(pos), Some(neighbor)) =
            (self.rooms[idx].door_pos[k], self.rooms[idx].neighbors[k])
        else {
            return Err(GenError(format!(
                "room ({i}, {j}) has no wall {k} to put a door in"
            )));
        };
        if self.rooms[idx].linked[k] {
            return Err(GenError("door already exists".into()));
        }
        self.rooms[idx].locked = locked;
        let state = if locked {
            DoorState::Locked
        } else {
            DoorState::Closed
        };
        let door = w.door(color, state);
        w.put(pos, door.clone());
        self.rooms[idx].linked[k] = true;
        self.rooms[neighbor].linked[(k + 2) % 4] = true;
        Ok((door, pos))
    }

    /// Opens the whole wall `wall_idx` of room (i, j) into its neighbour.
    pub fn remove_wall(&mut self, w: &mut World, i: i64, j: i64, wall_idx: usize) {
        let idx = self.index(i, j);
        let Some(neighbor) = self.rooms[idx].neighbors[wall_idx] else {
            return;
        };
        let ((tx, ty), (sw, sh)) = (self.rooms[idx].top, self.rooms[idx].size);
        match wall_idx {
            0 => (1..sh - 1).for_each(|k| w.grid.set((tx + sw - 1, ty + k), None)),
            1 => (1..sw - 1).for_each(|k| w.grid.set((tx + k, ty + sh - 1), None)),
            2 => (1..sh - 1).for_each(|k| w.grid.set((tx, ty + k), None)),
            _ => (1..sw - 1).for_each(|k| w.grid.set((tx + k, ty), None)),
        }
        self.rooms[idx].linked[wall_idx] = true;
        self.rooms[neighbor].linked[(wall_idx + 2) % 4] = true;
    }

    /// Places the agent in room (i, j) (drawn when `None`), facing an empty cell or a wall.
    pub fn place_agent(
        &mut self,
        w: &mut World,
        i: Option<i64>,
        j: Option<i64>,
    ) -> Result<Pos, GenError> {
        let i = match i {
            Some(i) => i,
            None => w.rand_int(0, self.cols),
        };
        let j = match j {
            Some(j) => j,
            None => w.rand_int(0, self.rows),
        };
        let (top, size) = (self.room(i, j).top, self.room(i, j).size);
        loop {
            w.place_agent(top, size, Some(1000))?;
            if w.grid
                .get(w.front_pos())
                .is_none_or(|o| o.kind == ObjKind::Wall)
            {
                return Ok(w.agent_pos);
            }
        }
    }

    fn reachable_count(&self, start: usize) -> usize {
        let mut seen = vec![false; self.rooms.len()];
        let mut stack = vec![start];
        while let Some(r) = stack.pop() {
            if seen[r] {
                continue;
            }
            seen[r] = true;
            for k in 0..4 {
                if let (true, Some(n)) = (self.rooms[r].linked[k], self.rooms[r].neighbors[k]) {
                    stack.push(n);
                }
            }
        }
        seen.iter().filter(|&&s| s).count()
    }

    /// Adds unlocked doors until every room is reachable from the agent's.
    pub fn connect_all(
        &mut self,
        w: &mut World,
        colors: &[Color],
        max_itrs: u32,
    ) -> Result<Vec<Obj>, GenError> {
        let start = self.room_of(w.agent_pos);
        let mut added = Vec::new();
        let mut itrs = 0;
        loop {
            if itrs > max_itrs {
                return Err(GenError("connect_all failed".into()));
            }
            itrs += 1;
            if self.reachable_count(start) == self.rooms.len() {
                return Ok(added);
            }
            let i = w.rand_int(0, self.cols);
            let j = w.rand_int(0, self.rows);
            let k = w.rand_int(0, 4) as usize;
            let room = self.room(i, j);
            if room.door_pos[k].is_none() || room.linked[k] {
                continue;
            }
            let Some(neighbor) = room.neighbors[k] else {
                continue;
            };
            if room.locked || self.rooms[neighbor].locked {
                continue;
            }
            let color = w.rand_elem(colors).unwrap_or(Color::Blue);
            let (door, _) = self.add_door(w, i, j, Some(k), Some(color), Some(false))?;
            added.push(door);
        }
    }
}

/// Levels won by picking up one target object (UnlockPickup, KeyCorridor, ...): the
/// base step, then success when the carried object is the target itself.
pub fn pickup_target_step(
    w: &mut World,
    action: usize,
    target: Option<u32>,
) -> crate::minigrid::world::Outcome {
    let mut out = w.base_step(action);
    if action == crate::minigrid::world::PICKUP
        && w.carrying.as_ref().is_some_and(|c| Some(c.id) == target)
    {
        out.reward = w.success_reward();
        out.terminated = true;
    }
    out
}

/// The UnlockPickup layout: a box of a drawn colour in the right room, and a locked door
/// of a drawn colour in the left room's right wall (drawn in that order). Returns the
/// box, the door and the door's position.
pub fn box_behind_locked_door(
    rooms: &mut RoomGrid,
    w: &mut World,
) -> Result<(Obj, Obj, Pos), GenError> {
    let (target, _) = rooms.add_object(w, 1, 0, Some(ObjKind::Box(None)), None)?;
    let (door, pos) = rooms.add_door(w, 0, 0, Some(0), None, Some(true))?;
    Ok((target, door, pos))
}
