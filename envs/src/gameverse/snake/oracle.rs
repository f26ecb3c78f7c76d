//! The expert for Snake's tutorial clips: a safe greedy player. The 7×7 playing area has
//! an odd number of cells, so no Hamiltonian cycle covers it; instead the expert takes a
//! shortest path to a food when, having eaten it, the snake could still reach its own
//! tail, and otherwise keeps to the move that leaves its head farthest along a route to
//! the tail (or, failing that, with the most room). Deterministic: ties go to the first
//! of L, R, U, D.

use std::collections::VecDeque;

use super::env::SnakeEnv;
use super::{Heading, Point, Snake, SnakeConfig};
use crate::core::env::{Action, Env};
use crate::core::oracle::Solver;

/// What the expert needs of a position: the body tail first, the heading, the board.
#[derive(Clone, Debug)]
struct View {
    body: Vec<Point>,
    heading: Heading,
    size: i64,
    food: Vec<Point>,
}

impl View {
    fn of(game: &Snake) -> Self {
        View {
            body: game.body.clone(),
            heading: game.heading,
            size: game.config().board_size,
            food: game.food.clone(),
        }
    }

    fn head(&self) -> Point {
        self.body.last().copied().unwrap_or((1, 1))
    }

    fn inside(&self, p: Point) -> bool {
        p.0 > 0 && p.1 > 0 && p.0 < self.size - 1 && p.1 < self.size - 1
    }

    /// Cells the head may enter next: inside and not body (the tail will have moved).
    fn free(&self, p: Point) -> bool {
        self.inside(p) && !self.body[1..].contains(&p)
    }

    fn moves(&self) -> impl Iterator<Item = (Heading, Point)> + '_ {
        let head = self.head();
        Heading::ALL.into_iter().filter_map(move |h| {
            if h == self.heading.reverse() {
                return None;
            }
            let (dx, dy) = h.delta();
            let p = (head.0 + dx, head.1 + dy);
            self.free(p).then_some((h, p))
        })
    }

    fn advance(&mut self, h: Heading, grow: bool) {
        let (dx, dy) = h.delta();
        let head = self.head();
        self.body.push((head.0 + dx, head.1 + dy));
        if !grow {
            self.body.remove(0);
        }
        self.heading = h;
    }

    /// Shortest path (as headings) from the head to a cell satisfying `goal`, through
    /// cells outside the body; the first step may not reverse.
    fn path_to(&self, goal: impl Fn(Point) -> bool) -> Option<Vec<Heading>> {
        let n = self.size as usize;
        let mut came: Vec<Option<(Point, Heading)>> = vec![None; n * n];
        let idx = |p: Point| p.0 as usize * n + p.1 as usize;
        let start = self.head();
        let mut seen = vec![false; n * n];
        seen[idx(start)] = true;
        let mut queue = VecDeque::from([start]);
        let blocked: Vec<Point> = self.body.clone();
        while let Some(cell) = queue.pop_front() {
            if cell != start && goal(cell) {
                let mut path = Vec::new();
                let mut at = cell;
                while let Some((prev, h)) = came[idx(at)] {
                    path.push(h);
                    at = prev;
                }
                path.reverse();
                return Some(path);
            }
            for h in Heading::ALL {
                if cell == start && h == self.heading.reverse() {
                    continue;
                }
                let (dx, dy) = h.delta();
                let p = (cell.0 + dx, cell.1 + dy);
                let passable = self.inside(p) && (!blocked.contains(&p) || goal(p));
                if passable && !seen[idx(p)] {
                    seen[idx(p)] = true;
                    came[idx(p)] = Some((cell, h));
                    queue.push_back(p);
                }
            }
        }
        None
    }

    fn tail_reachable(&self) -> bool {
        let tail = self.body[0];
        self.body.len() < 3 || self.path_to(|p| p == tail).is_some()
    }

    fn room(&self, from: Point) -> usize {
        let mut seen = vec![from];
        let mut queue = VecDeque::from([from]);
        while let Some(c) = queue.pop_front() {
            for h in Heading::ALL {
                let (dx, dy) = h.delta();
                let p = (c.0 + dx, c.1 + dy);
                if self.free(p) && !seen.contains(&p) {
                    seen.push(p);
                    queue.push_back(p);
                }
            }
        }
        seen.len()
    }
}

/// The expert's heading for the current position (the current heading when every move
/// loses).
pub fn best_move(game: &Snake) -> Heading {
    let view = View::of(game);
    // Food can lie under the body (spawns ignore it); only free food is a target.
    let meal = |p: Point| view.food.contains(&p) && !view.body.contains(&p);
    if let Some(path) = view.path_to(meal) {
        let mut after = view.clone();
        for (k, &h) in path.iter().enumerate() {
            after.advance(h, k + 1 == path.len());
        }
        if let Some(&first) = path.first() {
            if after.tail_reachable() {
                return first;
            }
        }
    }
    // No safe meal: chase the tail along the longest of the first steps, else seek room.
    let mut best: Option<(Heading, (usize, usize))> = None;
    for (h, _) in view.moves() {
        let mut next = view.clone();
        next.advance(h, false);
        let tail = next.body[0];
        let to_tail = next.path_to(|p| p == tail).map_or(0, |p| p.len() + 1000);
        let score = (to_tail, next.room(next.head()));
        if best.is_none_or(|(_, s)| score > s) {
            best = Some((h, score));
        }
    }
    best.map_or(view.heading, |(h, _)| h)
}

/// The expert's headings, one per step in Stop mode, in the game `reset(Some(seed))`
/// starts, until the game ends or `max_steps` steps were made.
pub fn demonstration(seed: u64, max_steps: u32) -> Vec<Heading> {
    let mut game = Snake::new(SnakeConfig {
        step_cap: max_steps,
        ..SnakeConfig::default()
    });
    game.reset(Some(seed));
    let mut moves = Vec::new();
    while !game.game_over() && moves.len() < max_steps as usize {
        let h = best_move(&game);
        moves.push(h);
        game.step_keys(&[super::SnakeKey::Arrow(h)]);
    }
    moves
}

/// The expert as the environment's oracle: [`best_move`] from the true state, one key
/// per reply, while the game is on.
pub(super) struct Expert;

impl Solver for Expert {
    fn next_action(&mut self, env: &dyn Env) -> Option<Action> {
        let env = env.as_any().downcast_ref::<SnakeEnv>()?;
        if env.game().game_over() {
            return None;
        }
        env.move_action(best_move(env.game()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_expert_eats_and_survives_the_benchmark_game() {
        let moves = demonstration(42, 100);
        let mut game = Snake::new(SnakeConfig::default());
        for h in &moves {
            game.step(h.letter());
        }
        eprintln!(
            "snake expert: {} steps, {} foods",
            moves.len(),
            game.foods_eaten()
        );
        assert!(game.foods_eaten() >= 8, "{} foods", game.foods_eaten());
        assert!(
            moves.len() == 100 || game.turn() >= 100,
            "died after {}: {}",
            moves.len(),
            game.state_json()
        );
    }
}
