//! The MiniGrid world every level builds on: grid, agent, generator helpers with the
//! reference's exact draw pattern, and the base step (`docs/environments.md`,
//! "Generator helpers" and "The base step").

use super::grid::{agent_view, Grid, Pos, View};
use super::object::{Color, DoorState, Obj, ObjKind};
use crate::rng::EnvRng;

pub const LEFT: usize = 0;
pub const RIGHT: usize = 1;
pub const FORWARD: usize = 2;
pub const PICKUP: usize = 3;
pub const DROP: usize = 4;
pub const TOGGLE: usize = 5;
pub const DONE: usize = 6;

pub fn dir_vec(dir: i64) -> Pos {
    match dir.rem_euclid(4) {
        0 => (1, 0),
        1 => (0, 1),
        2 => (-1, 0),
        _ => (0, -1),
    }
}

/// Level generation that the reference would abort (rejection sampling ran out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenError(pub String);

/// The outcome of one step before the observation is built.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub reward: f64,
    pub terminated: bool,
    pub truncated: bool,
}

#[derive(Clone, Debug)]
pub struct World {
    pub grid: Grid,
    pub agent_pos: Pos,
    pub agent_dir: i64,
    pub carrying: Option<Obj>,
    pub step_count: u32,
    pub max_steps: u32,
    pub mission: String,
    pub see_through_walls: bool,
    pub rng: EnvRng,
    next_id: u32,
}

/// Rejects positions by a rule of the level.
pub type Reject<'a> = &'a dyn Fn(&World, Pos) -> bool;

impl World {
    pub fn new(width: usize, height: usize, max_steps: u32, see_through_walls: bool) -> Self {
        Self {
            grid: Grid::new(width, height),
            agent_pos: (-1, -1),
            agent_dir: -1,
            carrying: None,
            step_count: 0,
            max_steps,
            mission: String::new(),
            see_through_walls,
            rng: EnvRng::default(),
            next_id: 1,
        }
    }

    pub fn width(&self) -> i64 {
        self.grid.width as i64
    }

    pub fn height(&self) -> i64 {
        self.grid.height as i64
    }

    /// A new object with its own identity.
    pub fn obj(&mut self, kind: ObjKind, color: Color) -> Obj {
        self.next_id += 1;
        Obj {
            kind,
            color,
            id: self.next_id,
        }
    }

    pub fn door(&mut self, color: Color, state: DoorState) -> Obj {
        self.obj(ObjKind::Door(state), color)
    }

    pub fn goal(&mut self) -> Obj {
        self.obj(ObjKind::Goal, Color::Green)
    }

    pub fn lava(&mut self) -> Obj {
        self.obj(ObjKind::Lava, Color::Red)
    }

    // ------------------------------------------------------------ generator helpers

    /// `integers(lo, hi)`; an empty range (never asked by a valid level) yields `lo`.
    pub fn rand_int(&mut self, lo: i64, hi: i64) -> i64 {
        self.rng.get().integers(lo, hi).unwrap_or(lo)
    }

    pub fn rand_bool(&mut self) -> bool {
        self.rand_int(0, 2) == 0
    }

    pub fn rand_elem<T: Clone>(&mut self, items: &[T]) -> Option<T> {
        let i = self.rand_int(0, items.len() as i64);
        items.get(i as usize).cloned()
    }

    pub fn rand_color(&mut self) -> Color {
        self.rand_elem(&Color::ALPHABETICAL).unwrap_or(Color::Blue)
    }

    /// `_rand_subset`: `n` distinct elements, each drawn from what is left.
    pub fn rand_subset<T: Clone + PartialEq>(&mut self, items: &[T], n: usize) -> Vec<T> {
        let mut left: Vec<T> = items.to_vec();
        let mut out = Vec::with_capacity(n);
        while out.len() < n && !left.is_empty() {
            let i = self.rand_int(0, left.len() as i64) as usize;
            out.push(left.remove(i));
        }
        out
    }

    /// `place_obj`: draws x then y in `top..top+size` (clipped to the grid) until the
    /// cell is empty, not the agent's and not rejected; `None` places nothing.
    pub fn place_obj(
        &mut self,
        obj: Option<Obj>,
        top: Pos,
        size: Pos,
        reject: Option<Reject<'_>>,
        max_tries: Option<u32>,
    ) -> Result<Pos, GenError> {
        let top = (top.0.max(0), top.1.max(0));
        let mut tries: u32 = 0;
        loop {
            if max_tries.is_some_and(|m| tries > m) {
                return Err(GenError("rejection sampling failed in place_obj".into()));
            }
            tries += 1;
            let x = self.rand_int(top.0, (top.0 + size.0).min(self.width()));
            let y = self.rand_int(top.1, (top.1 + size.1).min(self.height()));
            let pos = (x, y);
            if self.grid.get(pos).is_some() || pos == self.agent_pos {
                continue;
            }
            if reject.is_some_and(|r| r(self, pos)) {
                continue;
            }
            self.grid.set(pos, obj);
            return Ok(pos);
        }
    }

    /// `place_obj` over the whole grid.
    pub fn place_anywhere(&mut self, obj: Obj) -> Result<Pos, GenError> {
        let size = (self.width(), self.height());
        self.place_obj(Some(obj), (0, 0), size, None, None)
    }

    /// `place_agent(top, size, rand_dir=True)`.
    pub fn place_agent(
        &mut self,
        top: Pos,
        size: Pos,
        max_tries: Option<u32>,
    ) -> Result<Pos, GenError> {
        self.agent_pos = (-1, -1);
        let pos = self.place_obj(None, top, size, None, max_tries)?;
        self.agent_pos = pos;
        self.agent_dir = self.rand_int(0, 4);
        Ok(pos)
    }

    pub fn place_agent_anywhere(&mut self) -> Result<Pos, GenError> {
        let size = (self.width(), self.height());
        self.place_agent((0, 0), size, None)
    }

    pub fn put(&mut self, pos: Pos, obj: Obj) {
        self.grid.set(pos, Some(obj));
    }

    // ------------------------------------------------------------ stepping

    pub fn front_pos(&self) -> Pos {
        let d = dir_vec(self.agent_dir);
        (self.agent_pos.0 + d.0, self.agent_pos.1 + d.1)
    }

    /// `1 - 0.9 * (step_count / max_steps)`, in that order.
    pub fn success_reward(&self) -> f64 {
        1.0 - 0.9 * (f64::from(self.step_count) / f64::from(self.max_steps))
    }

    /// The reference `MiniGridEnv.step` for the seven actions.
    pub fn base_step(&mut self, action: usize) -> Outcome {
        self.step_count += 1;
        let mut reward = 0.0;
        let mut terminated = false;
        let front = self.front_pos();
        let front_kind = self.grid.get(front).map(|o| o.kind.clone());
        match action {
            LEFT => self.agent_dir = (self.agent_dir + 3) % 4,
            RIGHT => self.agent_dir = (self.agent_dir + 1) % 4,
            FORWARD => {
                let cell = self.grid.get(front);
                if cell.is_none_or(Obj::can_overlap) {
                    self.agent_pos = front;
                }
                match front_kind {
                    Some(ObjKind::Goal) => {
                        terminated = true;
                        reward = self.success_reward();
                    }
                    Some(ObjKind::Lava) => terminated = true,
                    _ => {}
                }
            }
            PICKUP
                if self.carrying.is_none() && self.grid.get(front).is_some_and(Obj::can_pickup) =>
            {
                self.carrying = self.grid.take(front);
            }
            DROP if self.grid.get(front).is_none() && self.grid.contains(front) => {
                if let Some(obj) = self.carrying.take() {
                    self.grid.set(front, Some(obj));
                }
            }
            TOGGLE => self.toggle(front),
            _ => {}
        }
        Outcome {
            reward,
            terminated,
            truncated: self.step_count >= self.max_steps,
        }
    }

    fn toggle(&mut self, pos: Pos) {
        let carrying_key = self
            .carrying
            .as_ref()
            .filter(|c| c.kind == ObjKind::Key)
            .map(|c| c.color);
        let Some(obj) = self.grid.get_mut(pos) else {
            return;
        };
        match &mut obj.kind {
            ObjKind::Door(state) => {
                *state = match *state {
                    DoorState::Locked if carrying_key == Some(obj.color) => DoorState::Open,
                    DoorState::Locked => DoorState::Locked,
                    DoorState::Open => DoorState::Closed,
                    DoorState::Closed => DoorState::Open,
                };
            }
            ObjKind::Box(contents) => {
                let inside = contents.take().map(|b| *b);
                self.grid.set(pos, inside);
            }
            _ => {}
        }
    }

    /// The agent's 7×7 view.
    pub fn view(&self) -> View {
        agent_view(
            &self.grid,
            self.agent_pos,
            self.agent_dir,
            self.see_through_walls,
            self.carrying.as_ref(),
        )
    }
}
