//! The grid of cells and the agent's 7×7 view with its visibility rule
//! (`docs/environments.md`, "The agent's view").

use super::object::{kind, Obj, ObjKind};

pub type Pos = (i64, i64);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub width: usize,
    pub height: usize,
    cells: Vec<Option<Obj>>,
}

/// The wall objects grids are built from carry no identity.
pub fn wall() -> Obj {
    Obj {
        kind: ObjKind::Wall,
        color: super::object::Color::Grey,
        id: 0,
    }
}

impl Grid {
    pub fn new(width: usize, height: usize) -> Self {
        Self {
            width,
            height,
            cells: vec![None; width * height],
        }
    }

    pub fn contains(&self, (x, y): Pos) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height
    }

    pub fn get(&self, (x, y): Pos) -> Option<&Obj> {
        if !self.contains((x, y)) {
            return None;
        }
        self.cells[y as usize * self.width + x as usize].as_ref()
    }

    pub fn get_mut(&mut self, (x, y): Pos) -> Option<&mut Obj> {
        if !self.contains((x, y)) {
            return None;
        }
        self.cells[y as usize * self.width + x as usize].as_mut()
    }

    /// Puts `obj` at (x, y); positions outside the grid are ignored.
    pub fn set(&mut self, (x, y): Pos, obj: Option<Obj>) {
        if self.contains((x, y)) {
            self.cells[y as usize * self.width + x as usize] = obj;
        }
    }

    pub fn take(&mut self, (x, y): Pos) -> Option<Obj> {
        if !self.contains((x, y)) {
            return None;
        }
        self.cells[y as usize * self.width + x as usize].take()
    }

    pub fn horz_wall(&mut self, x: i64, y: i64, length: i64) {
        for i in 0..length {
            self.set((x + i, y), Some(wall()));
        }
    }

    pub fn vert_wall(&mut self, x: i64, y: i64, length: i64) {
        for j in 0..length {
            self.set((x, y + j), Some(wall()));
        }
    }

    /// A horizontal run of any object made by `make`.
    pub fn horz_fill(&mut self, x: i64, y: i64, length: i64, make: impl Fn() -> Obj) {
        for i in 0..length {
            self.set((x + i, y), Some(make()));
        }
    }

    pub fn vert_fill(&mut self, x: i64, y: i64, length: i64, make: impl Fn() -> Obj) {
        for j in 0..length {
            self.set((x, y + j), Some(make()));
        }
    }

    pub fn wall_rect(&mut self, x: i64, y: i64, w: i64, h: i64) {
        self.horz_wall(x, y, w);
        self.horz_wall(x, y + h - 1, w);
        self.vert_wall(x, y, h);
        self.vert_wall(x + w - 1, y, h);
    }

    /// The `[x][y][3]` encoding, flattened x-major.
    pub fn encode(&self) -> Vec<[u8; 3]> {
        let mut out = Vec::with_capacity(self.width * self.height);
        for x in 0..self.width {
            for y in 0..self.height {
                out.push(encode_cell(self.cells[y * self.width + x].as_ref()));
            }
        }
        out
    }

    pub fn cells(&self) -> impl Iterator<Item = (Pos, &Obj)> {
        self.cells.iter().enumerate().filter_map(|(i, c)| {
            c.as_ref()
                .map(|o| (((i % self.width) as i64, (i / self.width) as i64), o))
        })
    }
}

pub fn encode_cell(cell: Option<&Obj>) -> [u8; 3] {
    cell.map_or([kind::EMPTY, 0, 0], Obj::encode)
}

pub const VIEW: usize = 7;
const CELLS: usize = VIEW * VIEW;
/// The agent's cell in its own view: bottom centre.
pub const VIEW_AGENT: (usize, usize) = (VIEW / 2, VIEW - 1);

/// The agent's view: the 7×7 square ahead of it as the agent sees it (itself at (3, 6)
/// facing up), as encodings, with the cells it cannot see blanked. Built without
/// allocating: it is made on every step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// Encoding of view cell (i, j) at `[j * VIEW + i]`; invisible cells are empty.
    cells: [[u8; 3]; CELLS],
    visible: [bool; CELLS],
}

impl View {
    /// The encoding of view cell (i, j) (`(1, 0, 0)` for empty).
    pub fn get(&self, i: usize, j: usize) -> [u8; 3] {
        self.cells[j * VIEW + i]
    }

    pub fn is_visible(&self, i: usize, j: usize) -> bool {
        self.visible[j * VIEW + i]
    }

    /// The observation image `[i][j][3]`, flattened i-major; unseen cells are (0, 0, 0).
    pub fn encode(&self) -> Vec<[u8; 3]> {
        let mut out = Vec::with_capacity(CELLS);
        for i in 0..VIEW {
            for j in 0..VIEW {
                out.push(if self.is_visible(i, j) {
                    self.get(i, j)
                } else {
                    [0, 0, 0]
                });
            }
        }
        out
    }
}

/// World cell seen at view cell (i, j): the view's top-left corner is
/// `agent + 6·forward − 3·right`, and view rows run backwards along `forward`.
fn view_to_world(pos: Pos, dir: i64, i: usize, j: usize) -> Pos {
    let f = super::world::dir_vec(dir);
    let r = (-f.1, f.0);
    let n = VIEW as i64;
    let (i, j) = (i as i64, j as i64);
    (
        pos.0 + f.0 * (n - 1) - r.0 * (n / 2) - f.0 * j + r.0 * i,
        pos.1 + f.1 * (n - 1) - r.1 * (n / 2) - f.1 * j + r.1 * i,
    )
}

/// The view of `grid` from `pos`/`dir`: the reference's slice, rotation, visibility
/// sweep and carried-object rule, computed by coordinate mapping.
pub fn agent_view(
    grid: &Grid,
    pos: Pos,
    dir: i64,
    see_through_walls: bool,
    carrying: Option<&Obj>,
) -> View {
    let mut cells = [[kind::EMPTY, 0, 0]; CELLS];
    let mut opaque = [false; CELLS];
    for j in 0..VIEW {
        for i in 0..VIEW {
            let p = view_to_world(pos, dir, i, j);
            // Outside the grid the reference sees walls.
            let (enc, blocks) = if grid.contains(p) {
                grid.get(p).map_or(([kind::EMPTY, 0, 0], false), |o| {
                    (o.encode(), !o.see_behind())
                })
            } else {
                (wall().encode(), true)
            };
            cells[j * VIEW + i] = enc;
            opaque[j * VIEW + i] = blocks;
        }
    }
    let visible = if see_through_walls {
        [true; CELLS]
    } else {
        process_vis(&opaque)
    };
    for (c, &v) in cells.iter_mut().zip(&visible) {
        if !v {
            *c = [kind::EMPTY, 0, 0];
        }
    }
    cells[VIEW_AGENT.1 * VIEW + VIEW_AGENT.0] = encode_cell(carrying);
    View { cells, visible }
}

/// The reference's `process_vis` from the agent cell (3, 6).
fn process_vis(opaque: &[bool; CELLS]) -> [bool; CELLS] {
    let mut mask = [false; CELLS];
    mask[VIEW_AGENT.1 * VIEW + VIEW_AGENT.0] = true;
    for j in (0..VIEW).rev() {
        for i in 0..VIEW - 1 {
            if !mask[j * VIEW + i] || opaque[j * VIEW + i] {
                continue;
            }
            mask[j * VIEW + i + 1] = true;
            if j > 0 {
                mask[(j - 1) * VIEW + i + 1] = true;
                mask[(j - 1) * VIEW + i] = true;
            }
        }
        for i in (1..VIEW).rev() {
            if !mask[j * VIEW + i] || opaque[j * VIEW + i] {
                continue;
            }
            mask[j * VIEW + i - 1] = true;
            if j > 0 {
                mask[(j - 1) * VIEW + i - 1] = true;
                mask[(j - 1) * VIEW + i] = true;
            }
        }
    }
    mask
}

/// The world cells the agent sees (for the highlight), from its view mask.
pub fn seen_cells(grid: &Grid, pos: Pos, dir: i64, view: &View) -> Vec<Pos> {
    let mut out = Vec::new();
    for j in 0..VIEW {
        for i in 0..VIEW {
            let p = view_to_world(pos, dir, i, j);
            if view.is_visible(i, j) && grid.contains(p) {
                out.push(p);
            }
        }
    }
    out
}
