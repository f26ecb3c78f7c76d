//! LockedRoom: six rooms off a central hallway; the goal is in the locked one and its
//! key in another.

use crate::minigrid::env::Level;
use crate::minigrid::grid::Pos;
use crate::minigrid::object::{Color, DoorState, ObjKind};
use crate::minigrid::world::{GenError, World};

#[derive(Clone)]
pub struct LockedRoom {
    pub size: usize,
}

struct SideRoom {
    top: Pos,
    size: Pos,
    door: Pos,
}

impl SideRoom {
    /// A random cell inside the walls (x drawn first).
    fn rand_pos(&self, w: &mut World) -> Pos {
        let x = w.rand_int(self.top.0 + 1, self.top.0 + self.size.0 - 1);
        let y = w.rand_int(self.top.1 + 1, self.top.1 + self.size.1 - 1);
        (x, y)
    }
}

impl Level for LockedRoom {
    fn size(&self) -> (usize, usize) {
        (self.size, self.size)
    }
    fn max_steps(&self) -> u32 {
        10 * self.size as u32
    }
    fn generate(&mut self, w: &mut World) -> Result<(), GenError> {
        let (width, height) = (self.size as i64, self.size as i64);
        w.grid.horz_wall(0, 0, width);
        w.grid.horz_wall(0, height - 1, width);
        w.grid.vert_wall(0, 0, height);
        w.grid.vert_wall(width - 1, 0, height);
        let (l, r) = (width / 2 - 2, width / 2 + 2);
        w.grid.vert_wall(l, 0, height);
        w.grid.vert_wall(r, 0, height);
        let mut rooms = Vec::with_capacity(6);
        for n in 0..3 {
            let j = n * (height / 3);
            w.grid.horz_wall(0, j, l);
            w.grid.horz_wall(r, j, width - r);
            let size = (l + 1, height / 3 + 1);
            rooms.push(SideRoom {
                top: (0, j),
                size,
                door: (l, j + 3),
            });
            rooms.push(SideRoom {
                top: (r, j),
                size,
                door: (r, j + 3),
            });
        }
        let locked = w.rand_int(0, rooms.len() as i64) as usize;
        let goal_pos = rooms[locked].rand_pos(w);
        let goal = w.goal();
        w.put(goal_pos, goal);
        // Each room's door colour, drawn from the colours left (alphabetical).
        let mut left = Color::ALPHABETICAL.to_vec();
        let mut colors = Vec::with_capacity(rooms.len());
        for (k, room) in rooms.iter().enumerate() {
            let i = w.rand_int(0, left.len() as i64) as usize;
            let color = left.remove(i);
            colors.push(color);
            let state = if k == locked {
                DoorState::Locked
            } else {
                DoorState::Closed
            };
            let door = w.door(color, state);
            w.put(room.door, door);
        }
        let key_room = loop {
            let k = w.rand_int(0, rooms.len() as i64) as usize;
            if k != locked {
                break k;
            }
        };
        let key_pos = rooms[key_room].rand_pos(w);
        let key = w.obj(ObjKind::Key, colors[locked]);
        w.put(key_pos, key);
        w.place_agent((l, 0), (r - l, height), None)?;
        w.mission = format!(
            "get the {} key from the {} room, unlock the {} door and go to the goal",
            colors[locked].name(),
            colors[key_room].name(),
            colors[locked].name()
        );
        Ok(())
    }
}
