//! Fetch-NxN-Nk: keys and balls scattered in a room; picking up any object ends the
//! episode, with success when its type and colour are the named ones.

use crate::minigrid::env::Level;
use crate::minigrid::object::{Color, ObjKind};
use crate::minigrid::world::{GenError, Outcome, World};

const SYNTAX: [&str; 5] = [
    "get a",
    "go get a",
    "fetch a",
    "go fetch a",
    "you must fetch a",
];

#[derive(Clone)]
pub struct Fetch {
    pub size: usize,
    pub num_objs: usize,
    /// (type index, colour) of the object to fetch: any object alike will do.
    target: (u8, Color),
}

impl Fetch {
    pub fn new(size: usize, num_objs: usize) -> Self {
        Self {
            size,
            num_objs,
            target: (0, Color::Red),
        }
    }
}

impl Level for Fetch {
    fn size(&self) -> (usize, usize) {
        (self.size, self.size)
    }
    fn max_steps(&self) -> u32 {
        5 * (self.size * self.size) as u32
    }
    fn see_through_walls(&self) -> bool {
        true
    }
    fn generate(&mut self, w: &mut World) -> Result<(), GenError> {
        let n = self.size as i64;
        w.grid.horz_wall(0, 0, n);
        w.grid.horz_wall(0, n - 1, n);
        w.grid.vert_wall(0, 0, n);
        w.grid.vert_wall(n - 1, 0, n);
        let mut objs = Vec::with_capacity(self.num_objs);
        while objs.len() < self.num_objs {
            let kind = w
                .rand_elem(&[ObjKind::Key, ObjKind::Ball])
                .unwrap_or(ObjKind::Key);
            let color = w.rand_color();
            let obj = w.obj(kind, color);
            objs.push((obj.type_index(), obj.color, obj.type_name()));
            w.place_anywhere(obj)?;
        }
        w.place_agent_anywhere()?;
        let i = w.rand_int(0, objs.len() as i64) as usize;
        let (type_index, color, type_name) = objs[i];
        self.target = (type_index, color);
        let syntax = SYNTAX[w.rand_int(0, 5) as usize];
        w.mission = format!("{syntax} {} {type_name}", color.name());
        Ok(())
    }
    fn step(&mut self, w: &mut World, action: usize) -> Outcome {
        let mut out = w.base_step(action);
        if let Some(c) = &w.carrying {
            out.reward = if (c.type_index(), c.color) == self.target {
                w.success_reward()
            } else {
                0.0
            };
            out.terminated = true;
        }
        out
    }
}
