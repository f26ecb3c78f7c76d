//! RedBlueDoors-N: a room with a red door on the left and a blue one on the right; open
//! red first, then blue. Opening blue before red fails.

use crate::minigrid::env::Level;
use crate::minigrid::grid::Pos;
use crate::minigrid::object::{Color, DoorState, ObjKind};
use crate::minigrid::world::{GenError, Outcome, World};

#[derive(Clone)]
pub struct RedBlueDoors {
    pub size: usize,
    red: Pos,
    blue: Pos,
}

impl RedBlueDoors {
    pub fn new(size: usize) -> Self {
        Self {
            size,
            red: (-1, -1),
            blue: (-1, -1),
        }
    }
}

fn is_open(w: &World, pos: Pos) -> bool {
    w.grid
        .get(pos)
        .is_some_and(|d| d.kind == ObjKind::Door(DoorState::Open))
}

impl Level for RedBlueDoors {
    fn size(&self) -> (usize, usize) {
        (2 * self.size, self.size)
    }
    fn max_steps(&self) -> u32 {
        20 * (self.size * self.size) as u32
    }
    fn generate(&mut self, w: &mut World) -> Result<(), GenError> {
        let s = self.size as i64;
        w.grid.wall_rect(0, 0, 2 * s, s);
        w.grid.wall_rect(s / 2, 0, s, s);
        w.place_agent((s / 2, 0), (s, s), None)?;
        self.red = (s / 2, w.rand_int(1, s - 1));
        let red = w.door(Color::Red, DoorState::Closed);
        w.put(self.red, red);
        self.blue = (s / 2 + s - 1, w.rand_int(1, s - 1));
        let blue = w.door(Color::Blue, DoorState::Closed);
        w.put(self.blue, blue);
        w.mission = "open the red door then the blue door".into();
        Ok(())
    }
    fn step(&mut self, w: &mut World, action: usize) -> Outcome {
        let red_before = is_open(w, self.red);
        let blue_before = is_open(w, self.blue);
        let mut out = w.base_step(action);
        if is_open(w, self.blue) {
            out.reward = if red_before { w.success_reward() } else { 0.0 };
            out.terminated = true;
        } else if is_open(w, self.red) && blue_before {
            out.reward = 0.0;
            out.terminated = true;
        }
        out
    }
}
