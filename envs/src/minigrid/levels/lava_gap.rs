//! LavaGap-Sn: one column of lava with a single gap between the agent and the goal.

use crate::minigrid::env::Level;
use crate::minigrid::world::{GenError, World};

#[derive(Clone)]
pub struct LavaGap {
    pub size: usize,
}

impl Level for LavaGap {
    fn size(&self) -> (usize, usize) {
        (self.size, self.size)
    }
    fn max_steps(&self) -> u32 {
        4 * (self.size * self.size) as u32
    }
    fn generate(&mut self, w: &mut World) -> Result<(), GenError> {
        let n = self.size as i64;
        w.grid.wall_rect(0, 0, n, n);
        w.agent_pos = (1, 1);
        w.agent_dir = 0;
        let goal = w.goal();
        w.put((n - 2, n - 2), goal);
        let gap = (w.rand_int(2, n - 2), w.rand_int(1, n - 1));
        for y in 1..n - 1 {
            let lava = w.lava();
            w.put((gap.0, y), lava);
        }
        w.grid.set(gap, None);
        w.mission = "avoid the lava and get to the green goal square".into();
        Ok(())
    }
}
