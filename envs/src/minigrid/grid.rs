//! The grid of cells and the agent's 7×7 view with its visibility rule (reference-envs §5.1).

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

/// The agent's view: the 7×7 square ahead of it, rotated so the agent sits at (3, 6)
/// facing up, with the cells it cannot see emptied.
#[derive(Clone, Debug)]
pub struct View {
    /// Indexed `[j * VIEW + i]`.
    pub cells: Vec<Option<Obj>>,
    pub visible: Vec<bool>,
}

impl View {
    pub fn get(&self, i: usize, j: usize) -> Option<&Obj> {
        self.cells[j * VIEW + i].as_ref()
    }

    pub fn is_visible(&self, i: usize, j: usize) -> bool {
        self.visible[j * VIEW + i]
    }

    /// The observation image `[i][j][3]`, flattened i-major; unseen cells are (0, 0, 0).
    pub fn encode(&self) -> Vec<[u8; 3]> {
        let mut out = Vec::with_capacity(VIEW * VIEW);
        for i in 0..VIEW {
            for j in 0..VIEW {
                out.push(if self.is_visible(i, j) {
                    encode_cell(self.get(i, j))
                } else {
                    [0, 0, 0]
                });
            }
        }
        out
    }
}

/// Top-left corner of the view square for an agent at `pos` facing `dir`.
fn view_top_left(pos: Pos, dir: i64) -> Pos {
    let (ax, ay) = pos;
    let half = (VIEW / 2) as i64;
    let full = VIEW as i64;
    match dir {
        0 => (ax, ay - half),
        1 => (ax - half, ay),
        2 => (ax - full + 1, ay - half),
        _ => (ax - half, ay - full + 1),
    }
}

/// The view of `grid` from `pos`/`dir` (slice, rotate, visibility, carried object).
pub fn agent_view(
    grid: &Grid,
    pos: Pos,
    dir: i64,
    see_through_walls: bool,
    carrying: Option<&Obj>,
) -> View {
    let (tx, ty) = view_top_left(pos, dir);
    let mut cells: Vec<Option<Obj>> = Vec::with_capacity(VIEW * VIEW);
    for j in 0..VIEW as i64 {
        for i in 0..VIEW as i64 {
            let p = (tx + i, ty + j);
            cells.push(if grid.contains(p) {
                grid.get(p).cloned()
            } else {
                Some(wall())
            });
        }
    }
    for _ in 0..=dir {
        cells = rotate_left(cells);
    }
    let visible = if see_through_walls {
        vec![true; VIEW * VIEW]
    } else {
        let mask = process_vis(&cells);
        for (c, &v) in cells.iter_mut().zip(&mask) {
            if !v {
                *c = None;
            }
        }
        mask
    };
    cells[(VIEW - 1) * VIEW + VIEW / 2] = carrying.cloned();
    View { cells, visible }
}

/// Counter-clockwise rotation: new[j][n-1-i] = old[i][j] in (x, y) terms.
fn rotate_left(cells: Vec<Option<Obj>>) -> Vec<Option<Obj>> {
    let mut out = vec![None; VIEW * VIEW];
    for (idx, cell) in cells.into_iter().enumerate() {
        let (i, j) = (idx % VIEW, idx / VIEW);
        out[(VIEW - 1 - i) * VIEW + j] = cell;
    }
    out
}

fn transparent(cells: &[Option<Obj>], i: usize, j: usize) -> bool {
    cells[j * VIEW + i].as_ref().is_none_or(Obj::see_behind)
}

/// The reference's `process_vis` from the agent cell (3, 6).
fn process_vis(cells: &[Option<Obj>]) -> Vec<bool> {
    let mut mask = vec![false; VIEW * VIEW];
    mask[(VIEW - 1) * VIEW + VIEW / 2] = true;
    for j in (0..VIEW).rev() {
        for i in 0..VIEW - 1 {
            if !mask[j * VIEW + i] || !transparent(cells, i, j) {
                continue;
            }
            mask[j * VIEW + i + 1] = true;
            if j > 0 {
                mask[(j - 1) * VIEW + i + 1] = true;
                mask[(j - 1) * VIEW + i] = true;
            }
        }
        for i in (1..VIEW).rev() {
            if !mask[j * VIEW + i] || !transparent(cells, i, j) {
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
    let f = super::world::dir_vec(dir);
    let r = (-f.1, f.0);
    let n = VIEW as i64;
    let top_left = (
        pos.0 + f.0 * (n - 1) - r.0 * (n / 2),
        pos.1 + f.1 * (n - 1) - r.1 * (n / 2),
    );
    let mut out = Vec::new();
    for j in 0..VIEW {
        for i in 0..VIEW {
            if !view.is_visible(i, j) {
                continue;
            }
            let p = (
                top_left.0 - f.0 * j as i64 + r.0 * i as i64,
                top_left.1 - f.1 * j as i64 + r.1 * i as i64,
            );
            if grid.contains(p) {
                out.push(p);
            }
        }
    }
    out
}
