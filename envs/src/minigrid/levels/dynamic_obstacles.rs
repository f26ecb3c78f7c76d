//! Dynamic-Obstacles: blue balls that move at random every step; touching one (or a
//! wall) ends the episode with -1.

use crate::minigrid::env::Level;
use crate::minigrid::grid::Pos;
use crate::minigrid::object::{Color, ObjKind};
use crate::minigrid::world::{GenError, Outcome, World, FORWARD, LEFT};

#[derive(Clone)]
pub struct DynamicObstacles {
    pub size: usize,
    pub obstacles: usize,
    pub random_start: bool,
    /// Where each ball is, in creation order.
    positions: Vec<Pos>,
}

impl DynamicObstacles {
    pub fn new(size: usize, obstacles: usize, random_start: bool) -> Self {
        // The reference caps the count at size / 2 when more would not fit.
        let obstacles = if obstacles as f64 <= size as f64 / 2.0 + 1.0 {
            obstacles
        } else {
            size / 2
        };
        Self {
            size,
            obstacles,
            random_start,
            positions: Vec::new(),
        }
    }
}

impl Level for DynamicObstacles {
    fn size(&self) -> (usize, usize) {
        (self.size, self.size)
    }
    fn max_steps(&self) -> u32 {
        4 * (self.size * self.size) as u32
    }
    fn see_through_walls(&self) -> bool {
        true
    }
    fn num_actions(&self) -> usize {
        3
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
        self.positions.clear();
        for _ in 0..self.obstacles {
            let ball = w.obj(ObjKind::Ball, Color::Blue);
            let size = (w.width(), w.height());
            self.positions
                .push(w.place_obj(Some(ball), (0, 0), size, None, Some(100))?);
        }
        w.mission = "get to the green goal square".into();
        Ok(())
    }
    fn step(&mut self, w: &mut World, action: usize) -> Outcome {
        let action = if action > FORWARD { LEFT } else { action };
        // Judged before anything moves.
        let not_clear = w
            .grid
            .get(w.front_pos())
            .is_some_and(|o| o.kind != ObjKind::Goal);
        for old in self.positions.iter_mut() {
            let ball = w.grid.get(*old).cloned();
            let top = (old.0 - 1, old.1 - 1);
            if let Ok(new) = w.place_obj(ball, top, (3, 3), None, Some(100)) {
                w.grid.set(*old, None);
                *old = new;
            }
        }
        let mut out = w.base_step(action);
        if action == FORWARD && not_clear {
            out.reward = -1.0;
            out.terminated = true;
        }
        out
    }
}
