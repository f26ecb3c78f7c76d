//! The Tetris oracle: a placement search. For the falling piece it finds every resting
//! place the engine's control can reach — each decision is one action and then the
//! no-op fill, with the package's gravity after every step — by a breadth-first search
//! over (orientation, x, y) on the current board; it scores the board each place would
//! leave with a fixed linear evaluation (Dellacherie's six features with the El-Tetris
//! weights: landing height, eroded cells, row and column transitions, holes, wells), and
//! plays the shortest path to the best. A place after which the next piece cannot spawn
//! is never chosen while another exists. Deterministic: the search visits decisions in
//! preset order and keeps the first of equal scores.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::core::env::Env;
use crate::core::oracle::{Control, Solver};

use super::env::{Placement, Tetris};
use super::pieces::{Piece, EMPTY, PADDING};
use super::{HARD_DROP, NOOP_ACTION, SWAP};

/// The decisions the search tries, in order: move left, move right, move down, the two
/// turns, hard drop, no-op (the hold is not used).
const DECISIONS: [usize; 7] = [0, 1, 2, 3, 4, HARD_DROP, NOOP_ACTION];

// El-Tetris weights (Islam El-Ashi's tuning of Dellacherie's features).
const LANDING_HEIGHT: f64 = -4.500_158_825_082_766;
const ERODED_CELLS: f64 = 3.418_126_810_139_269_4;
const ROW_TRANSITIONS: f64 = -3.217_888_286_848_775_3;
const COLUMN_TRANSITIONS: f64 = -9.348_695_305_445_199;
const HOLES: f64 = -7.899_265_427_351_652;
const WELLS: f64 = -3.385_597_224_726_362_6;
/// The best places by their own evaluation that the one-piece lookahead examines.
const LOOKAHEAD_CANDIDATES: usize = 6;
/// Below every board that keeps the game going.
const GAME_OVER: f64 = -1e12;

pub struct PlacementSearch {
    control: Control,
    /// The planned decisions, each with the placement it starts from.
    plan: VecDeque<(usize, Placement)>,
    /// The locked board the plan was made on.
    planned_on: Vec<u8>,
}

impl PlacementSearch {
    pub fn new(control: Control) -> Self {
        Self {
            control,
            plan: VecDeque::new(),
            planned_on: Vec::new(),
        }
    }
}

impl Solver for PlacementSearch {
    fn act(&mut self, env: &dyn Env) -> Option<usize> {
        let game = env.as_any().downcast_ref::<Tetris>()?;
        if game.game_over() {
            return None;
        }
        let on_plan = self
            .plan
            .front()
            .is_some_and(|&(_, from)| from == game.placement())
            && self.planned_on == game.locked_board();
        if !on_plan {
            self.plan = best_path(game, self.control).into();
            self.planned_on = game.locked_board().to_vec();
        }
        self.plan.pop_front().map(|(decision, _)| decision)
    }
}

/// What one decision does to the falling piece.
enum Outcome {
    Moves(Placement),
    /// The piece locks at this (resting) placement.
    Locks(Placement),
}

fn simulate(game: &Tetris, mut p: Placement, steps: &[usize]) -> Outcome {
    for &action in steps {
        if action == HARD_DROP {
            return Outcome::Locks(game.dropped(p));
        }
        if action == SWAP {
            continue;
        }
        p = game.moved(p, action);
        if game.config().gravity {
            match game.fallen(p) {
                Some(q) => p = q,
                None => return Outcome::Locks(p),
            }
        }
    }
    Outcome::Moves(p)
}

/// A resting place of the falling piece and the decisions that lead there, each with the
/// placement it starts from.
struct Route {
    target: Placement,
    path: Vec<(usize, Placement)>,
}

/// Every resting place the control can reach, each by its shortest route (breadth-first,
/// decisions in preset order).
fn resting_places(game: &Tetris, control: Control) -> Vec<Route> {
    let start = game.placement();
    // Search nodes: placement and how it was reached (parent node, decision).
    let mut nodes: Vec<(Placement, Option<(usize, usize)>)> = vec![(start, None)];
    let mut seen = BTreeSet::from([start]);
    let mut resting: BTreeMap<Placement, (usize, usize)> = BTreeMap::new();
    let mut order = Vec::new();
    let mut queue = VecDeque::from([0usize]);
    let decisions: Vec<Vec<usize>> = DECISIONS
        .iter()
        .map(|&d| control.decision_actions(d))
        .collect();
    while let Some(n) = queue.pop_front() {
        let p = nodes[n].0;
        for (&d, steps) in DECISIONS.iter().zip(&decisions) {
            match simulate(game, p, steps) {
                Outcome::Moves(q) => {
                    if seen.insert(q) {
                        nodes.push((q, Some((n, d))));
                        queue.push_back(nodes.len() - 1);
                    }
                }
                Outcome::Locks(q) => {
                    if let std::collections::btree_map::Entry::Vacant(e) = resting.entry(q) {
                        e.insert((n, d));
                        order.push(q);
                    }
                }
            }
        }
    }
    order
        .into_iter()
        .filter_map(|target| {
            let &(mut n, last) = resting.get(&target)?;
            let mut path = vec![(last, nodes[n].0)];
            while let Some((parent, d)) = nodes[n].1 {
                path.push((d, nodes[parent].0));
                n = parent;
            }
            path.reverse();
            Some(Route { target, path })
        })
        .collect()
}

/// The route to the best resting place, looking one piece ahead: each of the best few
/// places by their own evaluation is scored by
/// its own landing height and eroded cells plus the best evaluation the next piece can
/// reach after it (the route is played on a copy of the game, so the next piece starts
/// exactly where the engine will leave it).
fn best_path(game: &Tetris, control: Control) -> Vec<(usize, Placement)> {
    let mut routes: Vec<(f64, Route)> = resting_places(game, control)
        .into_iter()
        .map(|r| (evaluate(game, r.target), r))
        .collect();
    // Stable: equal scores keep the search order.
    routes.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut best: Option<(f64, Route)> = None;
    for (_, route) in routes.into_iter().take(LOOKAHEAD_CANDIDATES) {
        let score = match after_route(game, &route, control) {
            None => GAME_OVER,
            Some(next) => {
                let o = lock(game, route.target);
                let own = LANDING_HEIGHT * o.landing_height + ERODED_CELLS * o.eroded as f64;
                let ahead = resting_places(&next, control)
                    .iter()
                    .map(|r| evaluate(&next, r.target))
                    .fold(GAME_OVER, f64::max);
                own + ahead
            }
        };
        if best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((score, route));
        }
    }
    best.map(|(_, r)| r.path).unwrap_or_default()
}

/// The game after playing `route` (`None` if it ends the game).
fn after_route(game: &Tetris, route: &Route, control: Control) -> Option<Tetris> {
    let mut next = game.clone();
    for &(d, _) in &route.path {
        for a in control.decision_actions(d) {
            if next.play(a).ok()?.terminated {
                return None;
            }
        }
    }
    Some(next)
}

/// The visible well after locking `p`: cells (true = filled), width, height, the landing
/// height and the eroded cells (rows cleared × the piece's cells in them).
struct Outlook {
    filled: Vec<bool>,
    width: usize,
    height: usize,
    landing_height: f64,
    eroded: usize,
}

fn lock(game: &Tetris, p: Placement) -> Outlook {
    let (width, height, cols) = (game.config().width, game.config().height, game.cols());
    let board = game.locked_board();
    let mut filled: Vec<bool> = (0..height)
        .flat_map(|r| (0..width).map(move |c| (r, c)))
        .map(|(r, c)| board[r * cols + PADDING + c] != EMPTY)
        .collect();
    let mut piece_rows = Vec::new();
    let n = p.piece.size();
    for r in 0..n {
        for c in 0..n {
            if p.piece.cell(r, c) != EMPTY && p.y + r < height && p.x + c >= PADDING {
                filled[(p.y + r) * width + p.x + c - PADDING] = true;
                piece_rows.push(p.y + r);
            }
        }
    }
    let top = piece_rows.iter().min().copied().unwrap_or(0);
    let bottom = piece_rows.iter().max().copied().unwrap_or(0);
    let landing_height = ((height - bottom) + (height - top)) as f64 / 2.0;
    let full: Vec<usize> = (0..height)
        .filter(|&r| filled[r * width..(r + 1) * width].iter().all(|&f| f))
        .collect();
    let eroded = full.len() * piece_rows.iter().filter(|r| full.contains(r)).count();
    if !full.is_empty() {
        let mut kept = vec![false; full.len() * width];
        for r in (0..height).filter(|r| !full.contains(r)) {
            kept.extend_from_slice(&filled[r * width..(r + 1) * width]);
        }
        filled = kept;
    }
    Outlook {
        filled,
        width,
        height,
        landing_height,
        eroded,
    }
}

fn evaluate(game: &Tetris, p: Placement) -> f64 {
    let o = lock(game, p);
    if next_spawn_blocked(game, &o) {
        return GAME_OVER;
    }
    let (w, h) = (o.width, o.height);
    let at = |r: usize, c: usize| o.filled[r * w + c];
    let mut row_transitions = 0;
    for r in 0..h {
        let mut prev = true; // the left wall
        for c in 0..w {
            row_transitions += usize::from(at(r, c) != prev);
            prev = at(r, c);
        }
        row_transitions += usize::from(!prev); // the right wall
    }
    let mut column_transitions = 0;
    let mut holes = 0;
    let mut wells = 0;
    for c in 0..w {
        let mut prev = false; // open above the well
        let mut covered = false;
        let mut depth = 0;
        for r in 0..h {
            let f = at(r, c);
            column_transitions += usize::from(f != prev);
            prev = f;
            covered |= f;
            holes += usize::from(covered && !f);
            let walled = |cc: Option<usize>| cc.is_none_or(|cc| at(r, cc));
            if !f && walled(c.checked_sub(1)) && walled((c + 1 < w).then_some(c + 1)) {
                depth += 1;
                wells += depth;
            } else {
                depth = 0;
            }
        }
        column_transitions += usize::from(!prev); // the floor
    }
    LANDING_HEIGHT * o.landing_height
        + ERODED_CELLS * o.eroded as f64
        + ROW_TRANSITIONS * row_transitions as f64
        + COLUMN_TRANSITIONS * column_transitions as f64
        + HOLES * holes as f64
        + WELLS * wells as f64
}

/// Whether the next queued piece would overlap the well left by `o` at its spawn place.
fn next_spawn_blocked(game: &Tetris, o: &Outlook) -> bool {
    let Some(next) = game.queue().next() else {
        return false;
    };
    let piece = Piece::spawn(next);
    let x = game.cols() / 2 - piece.size() / 2;
    let n = piece.size();
    (0..n).any(|r| {
        (0..n).any(|c| {
            piece.cell(r, c) != EMPTY
                && (x + c < PADDING
                    || x + c - PADDING >= o.width
                    || r >= o.height
                    || o.filled[r * o.width + x + c - PADDING])
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::oracle::solve;

    /// Plays the oracle from `seed` for at most `limit` steps: (steps, lines).
    fn play(kwargs: &str, seed: u64, control: Control, limit: usize) -> (usize, u64) {
        let mut env =
            crate::make(super::super::ID, &serde_json::from_str(kwargs).unwrap()).unwrap();
        env.reset(Some(seed));
        let mut oracle = env.oracle(control).unwrap();
        let (mut steps, mut lines) = (0, 0);
        while steps < limit {
            let Some(d) = oracle.act(env.as_ref()) else {
                break;
            };
            let mut over = false;
            for a in control.decision_actions(d) {
                let s = env.step(crate::Action::Index(a)).unwrap();
                steps += 1;
                lines += env.reply_fields()["info"]["lines_cleared"]
                    .as_u64()
                    .unwrap();
                over |= s.terminated;
                if over {
                    break;
                }
            }
            if over {
                break;
            }
        }
        (steps, lines)
    }

    #[test]
    fn the_oracle_clears_rows_and_survives() {
        for seed in [1, 2] {
            let (steps, lines) = play("{}", seed, Control::default(), 1500);
            assert_eq!(steps, 1500, "seed {seed}: topped out after {steps} steps");
            assert!(lines >= 40, "seed {seed}: {lines} lines");
        }
    }

    #[test]
    fn the_oracle_copes_with_frame_skip_and_no_gravity() {
        let skip = Control {
            frame_skip: 3,
            action_steps: 1,
            noop: Some(NOOP_ACTION),
        };
        let (steps, lines) = play("{}", 3, skip, 1500);
        assert_eq!(steps, 1500, "topped out with frame skip 3");
        assert!(lines >= 30, "{lines}");
        let (steps, lines) = play(r#"{"gravity": false}"#, 4, Control::default(), 1500);
        assert_eq!(steps, 1500, "topped out without gravity");
        assert!(lines >= 40, "{lines}");
    }

    #[test]
    fn solve_returns_preset_names() {
        let mut env = crate::make_default(super::super::ID).unwrap();
        env.reset(Some(5));
        let plan = solve(env.as_ref(), 30);
        assert_eq!(plan.len(), 30);
        assert!(plan
            .iter()
            .all(|a| super::super::ACTION_NAMES.contains(&a.as_str())));
    }
}
