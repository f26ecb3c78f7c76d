//! The expert for Maze's tutorial clips: a breadth-first search for the shortest path,
//! trying right, down, left, up in that order (the reference's own search order), so the
//! route is deterministic.

use std::collections::VecDeque;

use super::env::MazeEnv;
use super::{Cell, Grid};
use crate::core::env::{Action, Env};
use crate::core::oracle::Solver;
use crate::gameverse::direction_words::Direction;

const MOVES: [(Direction, i64, i64); 4] = [
    (Direction::Right, 0, 1),
    (Direction::Down, 1, 0),
    (Direction::Left, 0, -1),
    (Direction::Up, -1, 0),
];

/// The moves of a shortest path from `start` to `goal`; empty if there is none.
pub fn solution(grid: &Grid, start: Cell, goal: Cell) -> Vec<Direction> {
    let n = grid.len();
    let mut came: Vec<Vec<Option<(Cell, Direction)>>> = vec![vec![None; n]; n];
    let mut seen = vec![vec![false; n]; n];
    seen[start.0][start.1] = true;
    let mut queue = VecDeque::from([start]);
    while let Some(cell) = queue.pop_front() {
        if cell == goal {
            let mut moves = Vec::new();
            let mut at = goal;
            while let Some((prev, d)) = came[at.0][at.1] {
                moves.push(d);
                at = prev;
            }
            moves.reverse();
            return moves;
        }
        for (d, dr, dc) in MOVES {
            let (r, c) = (cell.0 as i64 + dr, cell.1 as i64 + dc);
            if r < 0 || c < 0 || r >= n as i64 || c >= n as i64 {
                continue;
            }
            let next = (r as usize, c as usize);
            if grid[next.0][next.1] && !seen[next.0][next.1] {
                seen[next.0][next.1] = true;
                came[next.0][next.1] = Some((cell, d));
                queue.push_back(next);
            }
        }
    }
    Vec::new()
}

/// The first move of a shortest path, if the goal is reachable and not reached.
pub fn best_move(grid: &Grid, start: Cell, goal: Cell) -> Option<Direction> {
    solution(grid, start, goal).first().copied()
}

/// The expert as the environment's oracle: the first move of a shortest path from the
/// ball, until the ball is on the flag.
pub(super) struct Expert;

impl Solver for Expert {
    fn next_action(&mut self, env: &dyn Env) -> Option<Action> {
        let env = env.as_any().downcast_ref::<MazeEnv>()?;
        let game = env.game();
        if game.won() {
            return None;
        }
        env.move_action(best_move(game.grid(), game.ball(), game.target())?)
    }
}
