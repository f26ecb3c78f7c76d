//! PutNear-NxN-Nk: pick up the named object and drop it next to another; picking up the
//! wrong object or dropping anywhere ends the episode.

use crate::minigrid::env::Level;
use crate::minigrid::grid::Pos;
use crate::minigrid::object::{Color, ObjKind};
use crate::minigrid::world::{GenError, Outcome, World, DROP, PICKUP};

#[derive(Clone)]
pub struct PutNear {
    pub size: usize,
    pub num_objs: usize,
    /// (type index, colour) of the object to move.
    moved: (u8, Color),
    /// Where the object to put it near was generated.
    target_pos: Pos,
}

impl PutNear {
    pub fn new(size: usize, num_objs: usize) -> Self {
        Self {
            size,
            num_objs,
            moved: (0, Color::Red),
            target_pos: (-1, -1),
        }
    }
}

impl Level for PutNear {
    fn size(&self) -> (usize, usize) {
        (self.size, self.size)
    }
    fn max_steps(&self) -> u32 {
        5 * self.size as u32
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
        let kinds = [ObjKind::Key, ObjKind::Ball, ObjKind::Box(None)];
        // (type index, colour, type name) and position of each object.
        let mut objs: Vec<(u8, Color, &'static str)> = Vec::with_capacity(self.num_objs);
        let mut positions: Vec<Pos> = Vec::with_capacity(self.num_objs);
        while objs.len() < self.num_objs {
            let kind = w.rand_elem(&kinds).unwrap_or(ObjKind::Key);
            let color = w.rand_color();
            let obj = w.obj(kind, color);
            let desc = (obj.type_index(), color, obj.type_name());
            if objs.contains(&desc) {
                continue;
            }
            let taken = positions.clone();
            let near = move |_: &World, p: Pos| {
                taken
                    .iter()
                    .any(|q| (p.0 - q.0).abs() <= 1 && (p.1 - q.1).abs() <= 1)
            };
            let size = (w.width(), w.height());
            let pos = w.place_obj(Some(obj), (0, 0), size, Some(&near), None)?;
            objs.push(desc);
            positions.push(pos);
        }
        w.place_agent_anywhere()?;
        let count = objs.len() as i64;
        let moved = w.rand_int(0, count) as usize;
        let target = loop {
            let t = w.rand_int(0, count) as usize;
            if t != moved {
                break t;
            }
        };
        let (mt, mc, mname) = objs[moved];
        let (_, tc, tname) = objs[target];
        self.moved = (mt, mc);
        self.target_pos = positions[target];
        w.mission = format!(
            "put the {} {mname} near the {} {tname}",
            mc.name(),
            tc.name()
        );
        Ok(())
    }
    fn step(&mut self, w: &mut World, action: usize) -> Outcome {
        let carried_before = w.carrying.as_ref().map(|c| c.id);
        let mut out = w.base_step(action);
        let front = w.front_pos();
        if action == PICKUP {
            if let Some(c) = &w.carrying {
                if (c.type_index(), c.color) != self.moved {
                    out.terminated = true;
                }
            }
        }
        if action == DROP && carried_before.is_some() {
            let dropped = w.grid.get(front).map(|o| o.id) == carried_before;
            let (tx, ty) = self.target_pos;
            if dropped && (front.0 - tx).abs() <= 1 && (front.1 - ty).abs() <= 1 {
                out.reward = w.success_reward();
            }
            out.terminated = true;
        }
        out
    }
}
