//! The reference's maze generator, draw for draw on CPython's `random`: a depth-first
//! carve from the top-left corner in steps of two (candidates right, down, left, up;
//! `choice` among the unvisited), the corners joined by an L-shaped corridor if needed,
//! open cells walled up one by one in `shuffle` order while everything stays connected
//! until more than half are walls (one pass, so sometimes fewer), then ball and target
//! by `sample(open cells, 2)` until they are more than n + 2 steps apart (500 tries, then
//! the farthest pair, then the corners).

use crate::rng::PyRandom;

/// (row, column).
pub type Cell = (usize, usize);
/// `true` = open (white), `false` = wall (black).
pub type Grid = Vec<Vec<bool>>;

const MOVES: [(i64, i64); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

fn neighbours(grid: &Grid, (r, c): Cell) -> impl Iterator<Item = Cell> + '_ {
    let n = grid.len() as i64;
    MOVES.iter().filter_map(move |&(dr, dc)| {
        let (nr, nc) = (r as i64 + dr, c as i64 + dc);
        (nr >= 0 && nr < n && nc >= 0 && nc < n && grid[nr as usize][nc as usize])
            .then_some((nr as usize, nc as usize))
    })
}

/// Breadth-first distances from `start` over open cells, into `dist` (row-major, −1
/// where unreached), stopping early once `end` is reached; returns `end`'s distance.
/// A generation asks hundreds of these of a small grid, so the scratch is the caller's.
fn distances(
    grid: &Grid,
    start: Cell,
    end: Option<Cell>,
    dist: &mut [i32],
    queue: &mut [u32],
) -> i64 {
    let n = grid.len();
    dist.fill(-1);
    dist[start.0 * n + start.1] = 0;
    queue[0] = (start.0 * n + start.1) as u32;
    let (mut head, mut tail) = (0, 1);
    while head < tail {
        let k = queue[head] as usize;
        head += 1;
        let cell = (k / n, k % n);
        if Some(cell) == end {
            return i64::from(dist[k]);
        }
        for next in neighbours(grid, cell) {
            let j = next.0 * n + next.1;
            if dist[j] < 0 {
                dist[j] = dist[k] + 1;
                queue[tail] = j as u32;
                tail += 1;
            }
        }
    }
    -1
}

/// Runs `f` with scratch for [`distances`] over an n×n grid (on the stack when small).
fn with_scratch<T>(n: usize, f: impl FnOnce(&mut [i32], &mut [u32]) -> T) -> T {
    const SMALL: usize = 64;
    let cells = n * n;
    if cells <= SMALL {
        let (mut dist, mut queue) = ([0i32; SMALL], [0u32; SMALL]);
        f(&mut dist[..cells], &mut queue[..cells])
    } else {
        f(&mut vec![0; cells], &mut vec![0; cells])
    }
}

/// Steps of the shortest open path between two cells; −1 if either is a wall or none
/// exists.
pub fn shortest_distance(grid: &Grid, start: Cell, end: Cell) -> i64 {
    if !grid[start.0][start.1] || !grid[end.0][end.1] {
        return -1;
    }
    with_scratch(grid.len(), |dist, queue| {
        distances(grid, start, Some(end), dist, queue)
    })
}

fn connected(grid: &Grid, a: Cell, b: Cell) -> bool {
    shortest_distance(grid, a, b) >= 0
}

fn open_cells(grid: &Grid) -> Vec<Cell> {
    let n = grid.len();
    (0..n * n)
        .map(|k| (k / n, k % n))
        .filter(|&(r, c)| grid[r][c])
        .collect()
}

/// Whether every open cell is reachable from the first (one search from it).
fn all_open_connected(grid: &Grid) -> bool {
    let cells = open_cells(grid);
    let Some(&first) = cells.first() else {
        return false;
    };
    let n = grid.len();
    with_scratch(n, |dist, queue| {
        distances(grid, first, None, dist, queue);
        cells.iter().all(|&(r, c)| dist[r * n + c] >= 0)
    })
}

/// Right along the top row, then down the last column.
fn carve_corridor(grid: &mut Grid) {
    let n = grid.len();
    for cell in grid[0].iter_mut().take(n - 1) {
        *cell = true;
    }
    for row in grid.iter_mut().take(n - 1) {
        row[n - 1] = true;
    }
    grid[n - 1][n - 1] = true;
}

fn carve(rng: &mut PyRandom, n: usize) -> Grid {
    let mut grid = vec![vec![false; n]; n];
    grid[0][0] = true;
    let mut stack: Vec<Cell> = vec![(0, 0)];
    while let Some(&(r, c)) = stack.last() {
        let candidates: Vec<(Cell, (i64, i64))> = MOVES
            .iter()
            .filter_map(|&(dr, dc)| {
                let (nr, nc) = (r as i64 + 2 * dr, c as i64 + 2 * dc);
                let inside = nr >= 0 && nr < n as i64 && nc >= 0 && nc < n as i64;
                (inside && !grid[nr as usize][nc as usize])
                    .then_some(((nr as usize, nc as usize), (dr, dc)))
            })
            .collect();
        // No draw when there is nothing to choose from (the reference tests first).
        if candidates.is_empty() {
            stack.pop();
            continue;
        }
        let Ok(&(next, (dr, dc))) = rng.choice(&candidates) else {
            break;
        };
        grid[(r as i64 + dr) as usize][(c as i64 + dc) as usize] = true;
        grid[next.0][next.1] = true;
        stack.push(next);
    }
    grid
}

fn thicken_walls(rng: &mut PyRandom, grid: &mut Grid) {
    let n = grid.len();
    let target_walls = n * n / 2 + 1;
    let walls = grid.iter().flatten().filter(|&&open| !open).count();
    if walls >= target_walls {
        return;
    }
    let corners = [(0, 0), (n - 1, n - 1)];
    let mut candidates: Vec<Cell> = open_cells(grid)
        .into_iter()
        .filter(|c| !corners.contains(c))
        .collect();
    rng.shuffle(&mut candidates);
    let needed = target_walls - walls;
    let mut added = 0;
    for (r, c) in candidates {
        if added >= needed {
            break;
        }
        grid[r][c] = false;
        if all_open_connected(grid) && connected(grid, corners[0], corners[1]) {
            added += 1;
        } else {
            grid[r][c] = true;
        }
    }
}

fn place_ball_and_target(rng: &mut PyRandom, grid: &mut Grid) -> (Cell, Cell) {
    let n = grid.len();
    let corners = ((0, 0), (n - 1, n - 1));
    let cells = open_cells(grid);
    let force_corners = |grid: &mut Grid| {
        grid[0][0] = true;
        grid[n - 1][n - 1] = true;
        corners
    };
    if cells.len() < 2 {
        return force_corners(grid);
    }
    let min_steps = n as i64 + 2;
    // Every pair's distance, one search per cell: the tries below ask up to 500 pairs.
    let k = cells.len();
    let mut between = vec![-1i64; k * k];
    with_scratch(n, |dist, queue| {
        for (i, &a) in cells.iter().enumerate() {
            distances(grid, a, None, dist, queue);
            for (j, &(r, c)) in cells.iter().enumerate() {
                between[i * k + j] = i64::from(dist[r * n + c]);
            }
        }
    });
    for _ in 0..500 {
        let Ok([a, b]) = rng.sample_two_indices(k) else {
            break;
        };
        if between[a * k + b] > min_steps {
            return (cells[a], cells[b]);
        }
    }
    let mut best: Option<(Cell, Cell)> = None;
    let mut best_steps = 0;
    for (i, &a) in cells.iter().enumerate() {
        for (j, &b) in cells.iter().enumerate().skip(i + 1) {
            let d = between[i * k + j];
            if d > best_steps {
                best_steps = d;
                best = Some((a, b));
            }
        }
    }
    match best {
        Some(pair) if best_steps > min_steps => pair,
        _ => force_corners(grid),
    }
}

/// A maze of size n with its ball and target, as the reference generates it.
pub fn generate(rng: &mut PyRandom, n: usize) -> (Grid, Cell, Cell) {
    let mut grid = carve(rng, n);
    let far = (n - 1, n - 1);
    grid[far.0][far.1] = true;
    if !connected(&grid, (0, 0), far) {
        carve_corridor(&mut grid);
    }
    thicken_walls(rng, &mut grid);
    grid[0][0] = true;
    grid[far.0][far.1] = true;
    if !connected(&grid, (0, 0), far) {
        carve_corridor(&mut grid);
    }
    let (ball, target) = place_ball_and_target(rng, &mut grid);
    (grid, ball, target)
}
