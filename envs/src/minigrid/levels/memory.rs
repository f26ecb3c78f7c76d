//! Memory-Sn: remember the object in the start room, walk the hallway and stand next to
//! the matching one of the two objects at its end.

use crate::minigrid::env::Level;
use crate::minigrid::grid::{wall, Pos};
use crate::minigrid::object::{Color, ObjKind};
use crate::minigrid::world::{GenError, Outcome, World, PICKUP, TOGGLE};

#[derive(Clone)]
pub struct Memory {
    pub size: usize,
    /// The hallway ends at a random column instead of `size - 3`.
    pub random_length: bool,
    success_pos: Pos,
    failure_pos: Pos,
}

impl Memory {
    pub fn new(size: usize, random_length: bool) -> Self {
        Self {
            size,
            random_length,
            success_pos: (-1, -1),
            failure_pos: (-1, -1),
        }
    }
}

impl Level for Memory {
    fn size(&self) -> (usize, usize) {
        (self.size, self.size)
    }
    fn max_steps(&self) -> u32 {
        5 * (self.size * self.size) as u32
    }
    fn generate(&mut self, w: &mut World) -> Result<(), GenError> {
        let n = self.size as i64;
        let mid = n / 2;
        w.grid.horz_wall(0, 0, n);
        w.grid.horz_wall(0, n - 1, n);
        w.grid.vert_wall(0, 0, n);
        w.grid.vert_wall(n - 1, 0, n);
        let (upper, lower) = (mid - 2, mid + 2);
        let hallway_end = if self.random_length {
            w.rand_int(4, n - 2)
        } else {
            n - 3
        };
        // The start room, then the hallway walls.
        for i in 1..5 {
            w.grid.set((i, upper), Some(wall()));
            w.grid.set((i, lower), Some(wall()));
        }
        w.grid.set((4, upper + 1), Some(wall()));
        w.grid.set((4, lower - 1), Some(wall()));
        for i in 5..hallway_end {
            w.grid.set((i, upper + 1), Some(wall()));
            w.grid.set((i, lower - 1), Some(wall()));
        }
        for j in 0..n {
            if j != mid {
                w.grid.set((hallway_end, j), Some(wall()));
            }
            w.grid.set((hallway_end + 2, j), Some(wall()));
        }
        w.agent_pos = (w.rand_int(1, hallway_end + 1), mid);
        w.agent_dir = 0;
        let kinds = [ObjKind::Key, ObjKind::Ball];
        let start = w.rand_elem(&kinds).unwrap_or(ObjKind::Key);
        let cue = w.obj(start.clone(), Color::Green);
        w.put((1, mid - 1), cue);
        // `[Ball, Key]` or `[Key, Ball]`.
        let first = if w.rand_int(0, 2) == 0 {
            ObjKind::Ball
        } else {
            ObjKind::Key
        };
        let second = if first == ObjKind::Ball {
            ObjKind::Key
        } else {
            ObjKind::Ball
        };
        let pos0 = (hallway_end + 1, mid - 2);
        let pos1 = (hallway_end + 1, mid + 2);
        let obj0 = w.obj(first.clone(), Color::Green);
        w.put(pos0, obj0);
        let obj1 = w.obj(second, Color::Green);
        w.put(pos1, obj1);
        let below0 = (pos0.0, pos0.1 + 1);
        let above1 = (pos1.0, pos1.1 - 1);
        (self.success_pos, self.failure_pos) = if start == first {
            (below0, above1)
        } else {
            (above1, below0)
        };
        w.mission = "go to the matching object at the end of the hallway".into();
        Ok(())
    }
    /// Pickup acts as toggle; standing next to either end object ends the episode.
    fn step(&mut self, w: &mut World, action: usize) -> Outcome {
        let action = if action == PICKUP { TOGGLE } else { action };
        let mut out = w.base_step(action);
        if w.agent_pos == self.success_pos {
            out.reward = w.success_reward();
            out.terminated = true;
        }
        if w.agent_pos == self.failure_pos {
            out.reward = 0.0;
            out.terminated = true;
        }
        out
    }
}
