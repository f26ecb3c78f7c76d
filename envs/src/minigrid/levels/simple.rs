//! Empty, DistShift and FourRooms: fixed or lightly randomised single spaces.

use crate::minigrid::env::Level;
use crate::minigrid::world::{GenError, World};

/// `MiniGrid-Empty-N` (agent at (1, 1) facing east) and `Empty-Random-N`.
#[derive(Clone)]
pub struct Empty {
    pub size: usize,
    pub random_start: bool,
}

impl Level for Empty {
    fn size(&self) -> (usize, usize) {
        (self.size, self.size)
    }
    fn max_steps(&self) -> u32 {
        4 * (self.size * self.size) as u32
    }
    fn see_through_walls(&self) -> bool {
        true
    }
    fn generate(&mut self, w: &mut World) -> Result<(), GenError> {
        let n = self.size as i64;
        w.grid.wall_rect(0, 0, n, n);
        let goal = w.goal();
        w.put((n - 2, n - 2), goal);
        if self.random_start {
            w.place_agent_anywhere()?;
        } else {
            w.agent_pos = (1, 1);
            w.agent_dir = 0;
        }
        w.mission = "get to the green goal square".into();
        Ok(())
    }
}

/// `MiniGrid-DistShift1/2`: 9×7, lava strips on row 1 and on `strip2_row`.
#[derive(Clone)]
pub struct DistShift {
    pub strip2_row: i64,
}

impl Level for DistShift {
    fn size(&self) -> (usize, usize) {
        (9, 7)
    }
    fn max_steps(&self) -> u32 {
        4 * 9 * 7
    }
    fn see_through_walls(&self) -> bool {
        true
    }
    fn generate(&mut self, w: &mut World) -> Result<(), GenError> {
        w.grid.wall_rect(0, 0, 9, 7);
        let goal = w.goal();
        w.put((7, 1), goal);
        for i in 0..3 {
            let lava = w.lava();
            w.put((3 + i, 1), lava);
            let lava = w.lava();
            w.put((3 + i, self.strip2_row), lava);
        }
        w.agent_pos = (1, 1);
        w.agent_dir = 0;
        w.mission = "get to the green goal square".into();
        Ok(())
    }
}

/// `MiniGrid-FourRooms-v0`: 19×19, four rooms joined by one gap per inner wall.
#[derive(Clone)]
pub struct FourRooms;

impl Level for FourRooms {
    fn size(&self) -> (usize, usize) {
        (19, 19)
    }
    fn max_steps(&self) -> u32 {
        100
    }
    fn generate(&mut self, w: &mut World) -> Result<(), GenError> {
        let (width, height) = (19, 19);
        w.grid.horz_wall(0, 0, width);
        w.grid.horz_wall(0, height - 1, width);
        w.grid.vert_wall(0, 0, height);
        w.grid.vert_wall(width - 1, 0, height);
        let (room_w, room_h) = (width / 2, height / 2);
        for j in 0..2 {
            for i in 0..2 {
                let (x_l, y_t) = (i * room_w, j * room_h);
                let (x_r, y_b) = (x_l + room_w, y_t + room_h);
                if i + 1 < 2 {
                    w.grid.vert_wall(x_r, y_t, room_h);
                    let y = w.rand_int(y_t + 1, y_b);
                    w.grid.set((x_r, y), None);
                }
                if j + 1 < 2 {
                    w.grid.horz_wall(x_l, y_b, room_w);
                    let x = w.rand_int(x_l + 1, x_r);
                    w.grid.set((x, y_b), None);
                }
            }
        }
        w.place_agent_anywhere()?;
        let goal = w.goal();
        w.place_anywhere(goal)?;
        w.mission = "reach the goal".into();
        Ok(())
    }
}
