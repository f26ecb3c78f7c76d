//! The expert for 2048's tutorial clips: expectimax over the spawn (2 with 0.9, 4 with
//! 0.1, every empty cell alike) two moves deep, three when the board is nearly full, on
//! a position score that rewards empty cells and merges and punishes lines that are not
//! monotonic (a corner strategy emerges from it). Deterministic: ties go to the first of
//! down, left, right, up.

use super::env::TwentyFortyEightEnv;
use super::{slide, Board, TwentyFortyEight, TwentyFortyEightConfig};
use crate::core::env::{Action, Env};
use crate::core::oracle::Solver;
use crate::gameverse::direction_words::Direction;

const ORDER: [Direction; 4] = [
    Direction::Down,
    Direction::Left,
    Direction::Right,
    Direction::Up,
];

fn rank(v: u32) -> f64 {
    if v == 0 {
        0.0
    } else {
        f64::from(31 - v.leading_zeros())
    }
}

/// Score of one row or column of tile ranks.
fn line_score(line: [f64; 4]) -> f64 {
    let empty = line.iter().filter(|&&r| r == 0.0).count() as f64;
    let mut merges = 0.0;
    let mut prev = 0.0;
    let mut counter = 0.0;
    for &r in &line {
        if r == 0.0 {
            continue;
        }
        if prev == r {
            counter += 1.0;
        } else if counter > 0.0 {
            merges += 1.0 + counter;
            counter = 0.0;
        }
        prev = r;
    }
    if counter > 0.0 {
        merges += 1.0 + counter;
    }
    let (mut mono_left, mut mono_right) = (0.0, 0.0);
    for k in 1..4 {
        let (a, b) = (libm::pow(line[k - 1], 4.0), libm::pow(line[k], 4.0));
        if line[k - 1] > line[k] {
            mono_left += a - b;
        } else {
            mono_right += b - a;
        }
    }
    let sum: f64 = line.iter().map(|&r| libm::pow(r, 3.5)).sum();
    200_000.0 + 270.0 * empty + 700.0 * merges - 47.0 * mono_left.min(mono_right) - 11.0 * sum
}

/// Line scores for every line of ranks 0..15, computed once.
fn line_table() -> &'static [f64] {
    static TABLE: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        (0..1usize << 16)
            .map(|k| line_score([12, 8, 4, 0].map(|s| ((k >> s) & 15) as f64)))
            .collect()
    })
}

fn position_score(board: &Board) -> f64 {
    let table = line_table();
    let key = |line: [u32; 4]| {
        line.iter()
            .fold(0usize, |acc, &v| (acc << 4) | (rank(v) as usize).min(15))
    };
    let mut total = 0.0;
    for i in 0..4 {
        total += table[key([0, 1, 2, 3].map(|j| board[i][j]))];
        total += table[key([0, 1, 2, 3].map(|j| board[j][i]))];
    }
    total
}

fn best_after_spawns(board: &Board, depth: u32) -> f64 {
    let empties: Vec<(usize, usize)> = (0..16)
        .map(|k| (k / 4, k % 4))
        .filter(|&(i, j)| board[i][j] == 0)
        .collect();
    if empties.is_empty() {
        return position_score(board);
    }
    let mut total = 0.0;
    for &(i, j) in &empties {
        for (value, p) in [(2, 0.9), (4, 0.1)] {
            let mut b = *board;
            b[i][j] = value;
            total += p * best_value(&b, depth);
        }
    }
    total / empties.len() as f64
}

fn best_value(board: &Board, depth: u32) -> f64 {
    if depth == 0 {
        return position_score(board);
    }
    let mut best: Option<f64> = None;
    for d in ORDER {
        let (b, _) = slide(board, d);
        if b == *board {
            continue;
        }
        let v = best_after_spawns(&b, depth - 1);
        if best.is_none_or(|x| v > x) {
            best = Some(v);
        }
    }
    best.unwrap_or(0.0)
}

/// The expert's move on a board; `None` when no move changes it.
pub fn best_move(board: &Board) -> Option<Direction> {
    let empty = board.iter().flatten().filter(|&&v| v == 0).count();
    let depth = if empty <= 3 { 3 } else { 2 };
    let mut best: Option<(Direction, f64)> = None;
    for d in ORDER {
        let (b, _) = slide(board, d);
        if b == *board {
            continue;
        }
        let v = best_after_spawns(&b, depth - 1);
        if best.is_none_or(|(_, x)| v > x) {
            best = Some((d, v));
        }
    }
    best.map(|(d, _)| d)
}

/// The expert's moves in the game `reset(Some(seed))` starts, until the game ends or
/// `max_steps` moves were made.
pub fn demonstration(seed: u64, max_steps: u32) -> Vec<Direction> {
    let mut game = TwentyFortyEight::new(TwentyFortyEightConfig {
        step_cap: max_steps,
        ..TwentyFortyEightConfig::default()
    });
    game.reset(Some(seed));
    let mut moves = Vec::new();
    while !game.game_over() && moves.len() < max_steps as usize {
        let Some(d) = best_move(game.board()) else {
            break;
        };
        moves.push(d);
        game.step_direction(Some(d));
    }
    moves
}

/// The expert as the environment's oracle: [`best_move`] on the true board, while the
/// game is on and some move changes the board.
pub(super) struct Expert;

impl Solver for Expert {
    fn next_action(&mut self, env: &dyn Env) -> Option<Action> {
        let env = env.as_any().downcast_ref::<TwentyFortyEightEnv>()?;
        if env.game().game_over() {
            return None;
        }
        env.move_action(best_move(env.game().board())?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_expert_builds_big_tiles() {
        let moves = demonstration(0, 400);
        let mut game = TwentyFortyEight::new(TwentyFortyEightConfig::default());
        for d in &moves {
            game.step(d.word());
        }
        let best = game.board().iter().flatten().copied().max().unwrap_or(0);
        eprintln!(
            "2048 expert: {} moves, score {}, best tile {best}, {:?}",
            moves.len(),
            game.score(),
            game.status()
        );
        assert!(best >= 512 && !game.game_over(), "best tile {best}");
    }
}
