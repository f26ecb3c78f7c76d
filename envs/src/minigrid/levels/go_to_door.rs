//! GoToDoor-N: a room of random size with four coloured doors; say `done` next to the
//! named one. Toggling any door ends the episode.

use crate::minigrid::env::Level;
use crate::minigrid::grid::Pos;
use crate::minigrid::object::{Color, DoorState};
use crate::minigrid::world::{GenError, Outcome, World, DONE, TOGGLE};

#[derive(Clone)]
pub struct GoToDoor {
    pub size: usize,
    target: Pos,
}

impl GoToDoor {
    pub fn new(size: usize) -> Self {
        Self {
            size,
            target: (-1, -1),
        }
    }
}

impl Level for GoToDoor {
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
        let width = w.rand_int(5, n + 1);
        let height = w.rand_int(5, n + 1);
        w.grid.wall_rect(0, 0, width, height);
        let doors = [
            (w.rand_int(2, width - 2), 0),
            (w.rand_int(2, width - 2), height - 1),
            (0, w.rand_int(2, height - 2)),
            (width - 1, w.rand_int(2, height - 2)),
        ];
        let mut colors: Vec<Color> = Vec::with_capacity(doors.len());
        while colors.len() < doors.len() {
            let color = w.rand_color();
            if !colors.contains(&color) {
                colors.push(color);
            }
        }
        for (&pos, &color) in doors.iter().zip(&colors) {
            let door = w.door(color, DoorState::Closed);
            w.put(pos, door);
        }
        w.place_agent((0, 0), (width, height), None)?;
        let idx = w.rand_int(0, doors.len() as i64) as usize;
        self.target = doors[idx];
        w.mission = format!("go to the {} door", colors[idx].name());
        Ok(())
    }
    fn step(&mut self, w: &mut World, action: usize) -> Outcome {
        let mut out = w.base_step(action);
        let ((ax, ay), (tx, ty)) = (w.agent_pos, self.target);
        if action == TOGGLE {
            out.terminated = true;
        }
        if action == DONE {
            // Next to the door suffices; the agent need not face it.
            if (ax == tx && (ay - ty).abs() == 1) || (ay == ty && (ax - tx).abs() == 1) {
                out.reward = w.success_reward();
            }
            out.terminated = true;
        }
        out
    }
}
