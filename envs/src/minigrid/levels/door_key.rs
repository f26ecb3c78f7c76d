//! DoorKey-N: a wall splits the grid; the key is on the agent's side of a locked door.

use crate::minigrid::env::Level;
use crate::minigrid::object::{Color, DoorState, ObjKind};
use crate::minigrid::world::{GenError, World};

#[derive(Clone)]
pub struct DoorKey {
    pub size: usize,
}

impl Level for DoorKey {
    fn size(&self) -> (usize, usize) {
        (self.size, self.size)
    }
    fn max_steps(&self) -> u32 {
        10 * (self.size * self.size) as u32
    }
    fn generate(&mut self, w: &mut World) -> Result<(), GenError> {
        let n = self.size as i64;
        w.grid.wall_rect(0, 0, n, n);
        let goal = w.goal();
        w.put((n - 2, n - 2), goal);
        let split = w.rand_int(2, n - 2);
        w.grid.vert_wall(split, 0, n);
        w.place_agent((0, 0), (split, n), None)?;
        let door_y = w.rand_int(1, n - 2);
        let door = w.door(Color::Yellow, DoorState::Locked);
        w.put((split, door_y), door);
        let key = w.obj(ObjKind::Key, Color::Yellow);
        w.place_obj(Some(key), (0, 0), (split, n), None, None)?;
        w.mission = "use the key to open the door and then get to the goal".into();
        Ok(())
    }
}
