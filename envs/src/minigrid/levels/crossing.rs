//! LavaCrossing and SimpleCrossing: rivers of lava or wall with one opening each.

use crate::minigrid::env::Level;
use crate::minigrid::grid::wall;
use crate::minigrid::world::{GenError, World};

#[derive(Clone)]
pub struct Crossing {
    pub size: usize,
    pub crossings: usize,
    pub lava: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Dir {
    Vertical,
    Horizontal,
}

impl Level for Crossing {
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
        let mut rivers: Vec<(Dir, i64)> =
            (2..n - 2).step_by(2).map(|i| (Dir::Vertical, i)).collect();
        rivers.extend((2..n - 2).step_by(2).map(|j| (Dir::Horizontal, j)));
        w.rng.get().shuffle(&mut rivers);
        rivers.truncate(self.crossings);
        let mut rv: Vec<i64> = rivers
            .iter()
            .filter(|r| r.0 == Dir::Vertical)
            .map(|r| r.1)
            .collect();
        let mut rh: Vec<i64> = rivers
            .iter()
            .filter(|r| r.0 == Dir::Horizontal)
            .map(|r| r.1)
            .collect();
        rv.sort_unstable();
        rh.sort_unstable();
        let lava = self.lava;
        let obstacle = |w: &mut World| if lava { w.lava() } else { wall() };
        for i in 1..n - 1 {
            for &j in &rh {
                let o = obstacle(w);
                w.put((i, j), o);
            }
        }
        for &i in &rv {
            for j in 1..n - 1 {
                let o = obstacle(w);
                w.put((i, j), o);
            }
        }
        // Crossing a vertical river is a horizontal move, and vice versa.
        let mut path: Vec<Dir> = vec![Dir::Horizontal; rv.len()];
        path.extend(vec![Dir::Vertical; rh.len()]);
        w.rng.get().shuffle(&mut path);
        let limits_v: Vec<i64> = std::iter::once(0)
            .chain(rv.iter().copied())
            .chain([n - 1])
            .collect();
        let limits_h: Vec<i64> = std::iter::once(0)
            .chain(rh.iter().copied())
            .chain([n - 1])
            .collect();
        let (mut room_i, mut room_j) = (0, 0);
        for d in path {
            let (i, j) = match d {
                Dir::Horizontal => {
                    let i = limits_v[room_i + 1];
                    let j = w.rand_int(limits_h[room_j] + 1, limits_h[room_j + 1]);
                    room_i += 1;
                    (i, j)
                }
                Dir::Vertical => {
                    let i = w.rand_int(limits_v[room_i] + 1, limits_v[room_i + 1]);
                    let j = limits_h[room_j + 1];
                    room_j += 1;
                    (i, j)
                }
            };
            w.grid.set((i, j), None);
        }
        w.mission = if self.lava {
            "avoid the lava and get to the green goal square"
        } else {
            "find the opening and get to the green goal square"
        }
        .into();
        Ok(())
    }
}
