//! The mazes of Maze 2D and Maze 3D: Wilson's loop-erased random walk over CPython's
//! `random.Random`, seeded from numpy's generator, then the start/target corners; and
//! the reference's breadth-first path between two cells.

use std::collections::VecDeque;

use crate::rng::{NpRandom, PyRandom};

/// A maze: `walls[r][c]` is true for a wall; agent and target as (row, column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Maze {
    pub walls: Vec<Vec<bool>>,
    pub agent: (usize, usize),
    pub target: (usize, usize),
}

impl Maze {
    pub fn height(&self) -> usize {
        self.walls.len()
    }

    pub fn width(&self) -> usize {
        self.walls.first().map_or(0, Vec::len)
    }

    pub fn is_wall(&self, r: i64, c: i64) -> bool {
        r < 0
            || c < 0
            || self
                .walls
                .get(r as usize)
                .and_then(|row| row.get(c as usize))
                .is_none_or(|&w| w)
    }

    /// `maze_map` as the reference reports it (1 = wall, 0 = floor).
    pub fn map_json(&self) -> Vec<Vec<u8>> {
        self.walls
            .iter()
            .map(|row| row.iter().map(|&w| u8::from(w)).collect())
            .collect()
    }
}

const DIRS: [(i64, i64); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

fn randint(rng: &mut PyRandom, a: i64, b: i64) -> i64 {
    rng.randint(a, b).unwrap_or(a)
}

/// Wilson's algorithm on an odd `h`×`w` grid (true = cut), the reference's draws.
fn wilson(h: usize, w: usize, rng: &mut PyRandom) -> Vec<Vec<bool>> {
    let (h, w) = (2 * (h / 2) + 1, 2 * (w / 2) + 1);
    let mut grid = vec![vec![false; w]; h];
    let mut unvisited: Vec<(i64, i64)> = Vec::new();
    for r in (0..h).step_by(2) {
        for c in (0..w).step_by(2) {
            unvisited.push((r as i64, c as i64));
        }
    }
    let mut visited = vec![vec![false; w]; h];
    let valid = |cell: (i64, i64), d: usize| {
        let (r, c) = (cell.0 + 2 * DIRS[d].0, cell.1 + 2 * DIRS[d].1);
        r >= 0 && c >= 0 && r < h as i64 && c < w as i64
    };
    let step =
        |cell: (i64, i64), d: usize, k: i64| (cell.0 + k * DIRS[d].0, cell.1 + k * DIRS[d].1);
    let cut = |grid: &mut Vec<Vec<bool>>, cell: (i64, i64)| {
        grid[cell.0 as usize][cell.1 as usize] = true;
    };

    let i = randint(rng, 0, unvisited.len() as i64 - 1) as usize;
    let first = unvisited.remove(i);
    visited[first.0 as usize][first.1 as usize] = true;
    cut(&mut grid, first);

    let mut path: Vec<Vec<Option<usize>>> = vec![vec![None; w]; h];
    while !unvisited.is_empty() {
        let first = unvisited[randint(rng, 0, unvisited.len() as i64 - 1) as usize];
        let mut current = first;
        loop {
            let mut d = randint(rng, 0, 3) as usize;
            while !valid(current, d) {
                d = randint(rng, 0, 3) as usize;
            }
            path[current.0 as usize][current.1 as usize] = Some(d);
            current = step(current, d, 2);
            if visited[current.0 as usize][current.1 as usize] {
                break;
            }
        }
        current = first;
        loop {
            visited[current.0 as usize][current.1 as usize] = true;
            if let Some(pos) = unvisited.iter().position(|&c| c == current) {
                unvisited.remove(pos);
            }
            cut(&mut grid, current);
            let d = path[current.0 as usize][current.1 as usize].unwrap_or(0);
            cut(&mut grid, step(current, d, 1));
            current = step(current, d, 2);
            if visited[current.0 as usize][current.1 as usize] {
                path = vec![vec![None; w]; h];
                break;
            }
        }
    }
    grid
}

/// The reference's `_generate_maze` for an odd `height`×`width` maze: one
/// `integers(2**32)` seeds the Wilson generator, one `integers(0, 4)` picks the corners.
pub fn generate(height: usize, width: usize, rng: &mut NpRandom) -> Maze {
    let seed = rng.integers(0, 1 << 32).unwrap_or(0);
    let mut py = PyRandom::new(seed);
    let grid = wilson(height - 2, width - 2, &mut py);
    let mut walls = vec![vec![true; width]; height];
    for (r, row) in grid.iter().enumerate() {
        for (c, &open) in row.iter().enumerate() {
            if r + 1 < height - 1 && c + 1 < width - 1 {
                walls[r + 1][c + 1] = !open;
            }
        }
    }
    let (h2, w2) = (height - 2, width - 2);
    let corners = [
        ((1, 1), (h2, w2)),
        ((h2, w2), (1, 1)),
        ((h2, 1), (1, w2)),
        ((1, w2), (h2, 1)),
    ];
    let (agent, target) = corners[rng.index(4).unwrap_or(0)];
    Maze {
        walls,
        agent,
        target,
    }
}

/// The reference's `MazeSolver.solve`: breadth-first, neighbours up, down, left,
/// right; the first path found, start and end included (empty if none).
pub fn bfs_path(maze: &Maze, from: (usize, usize), to: (usize, usize)) -> Vec<(usize, usize)> {
    let (h, w) = (maze.height(), maze.width());
    let mut prev: Vec<Vec<Option<(usize, usize)>>> = vec![vec![None; w]; h];
    let mut seen = vec![vec![false; w]; h];
    seen[from.0][from.1] = true;
    let mut queue = VecDeque::from([from]);
    while let Some(cur) = queue.pop_front() {
        if cur == to {
            let mut path = vec![cur];
            let mut p = cur;
            while let Some(q) = prev[p.0][p.1] {
                path.push(q);
                p = q;
            }
            path.reverse();
            return path;
        }
        for (dr, dc) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
            let (r, c) = (cur.0 as i64 + dr, cur.1 as i64 + dc);
            if maze.is_wall(r, c) {
                continue;
            }
            let (r, c) = (r as usize, c as usize);
            if !seen[r][c] {
                seen[r][c] = true;
                prev[r][c] = Some(cur);
                queue.push_back((r, c));
            }
        }
    }
    Vec::new()
}
