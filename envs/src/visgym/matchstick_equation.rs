//! Matchstick Equation: a correct equation broken by one (easy) or two (hard) match
//! moves; the agent moves matches back (`('move', [i, s, j, t])`), may undo, and stops.
//!
//! Generation draws from numpy's `default_rng(seed)` exactly as the reference does
//! (template, operands, then per broken move two symbol indices and shuffles of the
//! candidate segments), so a seed gives the reference's puzzle.

use std::collections::{HashSet, VecDeque};

use serde_json::{json, Value};

use super::action::{resolve, Resolved, StepResult, EXECUTED};
use super::equation_eval::is_equation_correct;
use super::matchstick_frame::{self, canvas_width, IMAGE_H, IMAGE_W};
use super::matchstick_glyphs::{
    ids, segment_art, segments, symbol, symbol_with_aliases, ALL_SEGMENTS, SEGMENT_COORDS,
};
use super::python::{PyException, PyValue};
use super::signature::{FnSig, Payload};
use super::solve_kwargs::SolveKwargs;
use super::spaces::ArgSpace;
use super::{RenderMode, VisGymEnv};
use crate::core::env::{KeyBinding, Words};
use crate::core::frame::Frame;
use crate::core::input::{Gesture, PointerMode};
use crate::rng::NpRandom;

const MAX_EQUATION_LEN: i64 = 30;

/// Constructor arguments (the evaluation uses `break_moves` 1 or 2 and the defaults).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchstickEquationConfig {
    pub seed: u64,
    pub break_moves: usize,
    pub enforce_min_distance: bool,
    pub gen_retry_limit: usize,
}

impl Default for MatchstickEquationConfig {
    fn default() -> Self {
        MatchstickEquationConfig {
            seed: 42,
            break_moves: 1,
            enforce_min_distance: true,
            gen_retry_limit: 300,
        }
    }
}

/// The reference's solver strategies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveStrategy {
    /// Shortest fix by breadth-first search.
    Bfs,
    /// The whole depth-first backtracking trace, undos included.
    Dfs,
    /// The shortest fix with random reversible detours (`sos_seed`, `sos_max_len`);
    /// without a seed one is drawn from the environment's generator.
    Sos {
        seed: Option<u64>,
        max_len: Option<usize>,
    },
}

type Move = [usize; 4];

#[derive(Clone, Debug)]
pub struct MatchstickEquation {
    config: MatchstickEquationConfig,
    rng: NpRandom,
    symbols: Vec<char>,
    history: Vec<Vec<char>>,
    current_moves: i64,
    /// The puzzle as generated and its distance to a true equation, when generation
    /// proved it: `break_moves` legal moves from a true equation, and not fixable in
    /// fewer (`enforce_min_distance`), so exactly `break_moves` (moves are reversible).
    known_distance: Option<(Vec<char>, usize)>,
}

fn functions() -> Vec<(&'static str, ArgSpace)> {
    vec![
        (
            "move",
            ArgSpace::MultiDiscrete {
                nvec: vec![MAX_EQUATION_LEN, 13, MAX_EQUATION_LEN, 13],
            },
        ),
        ("undo", ArgSpace::text4()),
        ("stop", ArgSpace::text4()),
    ]
}

fn index(rng: &mut NpRandom, n: usize) -> usize {
    rng.index(n).unwrap_or(0)
}

/// All states one legal move away, in the reference's enumeration order.
fn neighbours(state: &[char]) -> Vec<(Vec<char>, Move)> {
    let mut out = Vec::new();
    for (i, &si) in state.iter().enumerate() {
        let Some(src) = segments(si) else { continue };
        for s in ids(src) {
            let Some(new_src) = symbol(src & !(1 << s)) else {
                continue;
            };
            for (j, &sj) in state.iter().enumerate() {
                if j == i {
                    continue;
                }
                let Some(dst) = segments(sj) else { continue };
                for t in ids(ALL_SEGMENTS & !dst) {
                    let Some(new_dst) = symbol(dst | (1 << t)) else {
                        continue;
                    };
                    let mut next = state.to_vec();
                    next[i] = new_src;
                    next[j] = new_dst;
                    out.push((next, [i, usize::from(s), j, usize::from(t)]));
                }
            }
        }
    }
    out
}

/// Whether `f` holds for some state one legal move away, tried in [`neighbours`]'s
/// order on `state` itself (each move made, then undone), without building a list.
fn any_neighbour(state: &mut [char], f: &mut impl FnMut(&mut [char]) -> bool) -> bool {
    for i in 0..state.len() {
        let si = state[i];
        let Some(src) = segments(si) else { continue };
        for s in ids(src) {
            let Some(new_src) = symbol(src & !(1 << s)) else {
                continue;
            };
            for j in 0..state.len() {
                if j == i {
                    continue;
                }
                let sj = state[j];
                let Some(dst) = segments(sj) else { continue };
                for t in ids(ALL_SEGMENTS & !dst) {
                    let Some(new_dst) = symbol(dst | (1 << t)) else {
                        continue;
                    };
                    state[i] = new_src;
                    state[j] = new_dst;
                    let found = f(state);
                    state[i] = si;
                    state[j] = sj;
                    if found {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// Whether a correct equation is exactly `moves` legal moves from `state` (revisits
/// allowed, so the least such count is the distance).
fn correct_after(state: &mut [char], moves: usize) -> bool {
    if moves == 0 {
        return correct(state);
    }
    any_neighbour(state, &mut |next| correct_after(next, moves - 1))
}

fn correct(state: &[char]) -> bool {
    // Exactly one `=` (what the split in `is_equation_correct` asks first), before
    // building the text: most states a search meets fail here or in the evaluation.
    if state.iter().filter(|&&c| c == '=').count() != 1 {
        return false;
    }
    is_equation_correct(&state.iter().collect::<String>())
}

/// A legal move applied to a state (`_apply_action_to_state_once`).
fn apply(state: &[char], m: Move) -> Option<Vec<char>> {
    let [i, s, j, t] = m;
    if i >= state.len() || j >= state.len() || i == j {
        return None;
    }
    let (src, dst) = (segments(state[i])?, segments(state[j])?);
    if s > 12 || t > 12 || src & (1 << s) == 0 || dst & (1 << t) != 0 {
        return None;
    }
    let mut next = state.to_vec();
    next[i] = symbol(src & !(1 << s))?;
    next[j] = symbol(dst | (1 << t))?;
    Some(next)
}

fn move_text(m: Move) -> String {
    format!("('move', [{}, {}, {}, {}])", m[0], m[1], m[2], m[3])
}

const UNDO: &str = "('undo', 'undo')";
const STOP: &str = "('stop', 'stop')";

impl MatchstickEquation {
    pub fn new(config: MatchstickEquationConfig) -> Self {
        MatchstickEquation {
            rng: NpRandom::seeded(u128::from(config.seed)),
            config,
            symbols: Vec::new(),
            history: Vec::new(),
            current_moves: 0,
            known_distance: None,
        }
    }

    pub fn symbols(&self) -> &[char] {
        &self.symbols
    }

    fn equation(&self) -> String {
        self.symbols.iter().collect()
    }

    fn random_equation(&mut self) -> String {
        let rng = &mut self.rng;
        let mut int = |lo: i64, hi: i64| rng.integers(lo, hi).unwrap_or(lo);
        match int(0, 5) {
            0 => {
                let (a, b) = (int(0, 100), int(0, 100));
                format!("{a}+{b}={}", a + b)
            }
            1 => {
                let a = int(0, 100);
                let b = int(0, a + 1);
                format!("{a}-{b}={}", a - b)
            }
            2 => {
                let (a, b) = (int(0, 21), int(0, 21));
                format!("{a}*{b}={}", a * b)
            }
            3 => {
                let (b, c) = (int(1, 21), int(0, 21));
                format!("{}/{b}={c}", b * c)
            }
            _ => {
                let (a, b, c) = (int(0, 21), int(0, 21), int(0, 11));
                format!("{a}+{b}*{c}={}", a + b * c)
            }
        }
    }

    /// Whether a correct equation is reachable in fewer than `cap` moves.
    fn fixable_below(start: &[char], cap: usize) -> bool {
        if correct(start) {
            return true;
        }
        let mut seen: HashSet<Vec<char>> = HashSet::from([start.to_vec()]);
        let mut queue = VecDeque::from([(start.to_vec(), 0usize)]);
        while let Some((state, d)) = queue.pop_front() {
            // Only states under `cap` moves count: those of a state at cap − 1 would be
            // neither checked nor expanded (the reference enumerates them to no effect).
            if d + 1 >= cap {
                continue;
            }
            for (next, _) in neighbours(&state) {
                if seen.contains(&next) {
                    continue;
                }
                let nd = d + 1;
                if nd < cap && correct(&next) {
                    return true;
                }
                seen.insert(next.clone());
                if nd < cap {
                    queue.push_back((next, nd));
                }
            }
        }
        false
    }

    fn create_puzzle(&mut self) -> Vec<char> {
        let moves = self.config.break_moves;
        self.known_distance = None;
        for _ in 0..self.config.gen_retry_limit {
            let mut eq: Vec<char> = self.random_equation().chars().collect();
            let from_true = correct(&eq);
            let n = eq.len();
            let mut ok = true;
            for _ in 0..moves {
                let mut moved = false;
                for _ in 0..200 {
                    let i = index(&mut self.rng, n);
                    let j = index(&mut self.rng, n);
                    if i == j {
                        continue;
                    }
                    let (Some(src), Some(dst)) = (segments(eq[i]), segments(eq[j])) else {
                        continue;
                    };
                    let mut s_choices: Vec<u8> = ids(src).collect();
                    self.rng.shuffle(&mut s_choices);
                    let mut t_choices: Vec<u8> = ids(ALL_SEGMENTS & !dst).collect();
                    self.rng.shuffle(&mut t_choices);
                    'search: for &s in &s_choices {
                        let Some(new_src) = symbol(src & !(1 << s)) else {
                            continue;
                        };
                        for &t in &t_choices {
                            if let Some(new_dst) = symbol(dst | (1 << t)) {
                                eq[i] = new_src;
                                eq[j] = new_dst;
                                moved = true;
                                break 'search;
                            }
                        }
                    }
                    if moved {
                        break;
                    }
                }
                if !moved {
                    ok = false;
                    break;
                }
            }
            if !ok || correct(&eq) {
                continue;
            }
            if self.config.enforce_min_distance && Self::fixable_below(&eq, moves) {
                continue;
            }
            if self.config.enforce_min_distance && from_true {
                self.known_distance = Some((eq.clone(), moves));
            }
            return eq;
        }
        self.fallback_puzzle()
    }

    /// The reference's fallback after `gen_retry_limit` failures (with the helper
    /// module's glyph aliases); never reached with the evaluation settings.
    fn fallback_puzzle(&mut self) -> Vec<char> {
        for _ in 0..100 {
            let mut eq: Vec<char> = self.random_equation().chars().collect();
            let n = eq.len();
            for i in 0..n {
                for j in 0..n {
                    if i == j {
                        continue;
                    }
                    let (Some(src), Some(dst)) = (segments(eq[i]), segments(eq[j])) else {
                        continue;
                    };
                    for s in ids(src) {
                        for t in ids(ALL_SEGMENTS & !dst) {
                            let (Some(a), Some(b)) = (
                                symbol_with_aliases(src & !(1 << s)),
                                symbol_with_aliases(dst | (1 << t)),
                            ) else {
                                continue;
                            };
                            let (old_i, old_j) = (eq[i], eq[j]);
                            eq[i] = a;
                            eq[j] = b;
                            if !correct(&eq) {
                                return eq;
                            }
                            eq[i] = old_i;
                            eq[j] = old_j;
                        }
                    }
                }
            }
        }
        self.random_equation().chars().collect()
    }

    fn apply_move(&mut self, payload: &PyValue) -> bool {
        let items = match payload {
            PyValue::Tuple(v) | PyValue::List(v) => v,
            _ => return false,
        };
        // `map(int, payload)`: floats truncate; anything else (complex) fails.
        let mut m = [0usize; 4];
        for (slot, v) in m.iter_mut().zip(items) {
            let n = match v {
                PyValue::Int(i) => i.as_i128().unwrap_or(-1),
                PyValue::Bool(b) => i128::from(*b),
                PyValue::Float(f) if f.is_finite() => f.trunc() as i128,
                _ => return false,
            };
            match usize::try_from(n) {
                Ok(u) => *slot = u,
                Err(_) => return false,
            }
        }
        match apply(&self.symbols, m) {
            Some(next) => {
                self.history.push(next.clone());
                self.symbols = next;
                true
            }
            None => false,
        }
    }

    fn shortest_fix(&self, start: &[char], cap: usize) -> Option<Vec<Move>> {
        let mut seen: HashSet<Vec<char>> = HashSet::from([start.to_vec()]);
        let mut queue = VecDeque::from([(start.to_vec(), Vec::<Move>::new())]);
        while let Some((state, path)) = queue.pop_front() {
            if correct(&state) {
                return Some(path);
            }
            if path.len() >= cap {
                continue;
            }
            for (next, m) in neighbours(&state) {
                if seen.insert(next.clone()) {
                    let mut p = path.clone();
                    p.push(m);
                    queue.push_back((next, p));
                }
            }
        }
        None
    }

    /// `_dry_rollout_ok`: whether the stream is legal and ends correct.
    fn dry_rollout_ok(&self, stream: &[Step]) -> bool {
        let mut stack = vec![self.symbols.clone()];
        let mut moves = 0usize;
        for step in stream {
            match step {
                Step::Move(m) => {
                    if moves >= self.config.break_moves {
                        return false;
                    }
                    let Some(next) = stack.last().and_then(|s| apply(s, *m)) else {
                        return false;
                    };
                    stack.push(next);
                    moves += 1;
                }
                Step::Undo => {
                    if stack.len() == 1 {
                        return false;
                    }
                    stack.pop();
                    moves = moves.saturating_sub(1);
                }
            }
        }
        stack.last().is_some_and(|s| correct(s))
    }

    fn texts(stream: &[Step]) -> Vec<String> {
        let mut out: Vec<String> = stream
            .iter()
            .map(|s| match s {
                Step::Move(m) => move_text(*m),
                Step::Undo => UNDO.to_string(),
            })
            .collect();
        out.push(STOP.to_string());
        out
    }

    /// The reference's `solve(strategy, …)`.
    pub fn solve_with(&self, strategy: SolveStrategy) -> Vec<String> {
        let start = self.symbols.clone();
        if correct(&start) {
            return vec![STOP.to_string()];
        }
        let max_moves = self.config.break_moves;
        let Some(golden) = self.shortest_fix(&start, max_moves) else {
            return Vec::new();
        };
        let golden_stream: Vec<Step> = golden.iter().map(|&m| Step::Move(m)).collect();
        match strategy {
            SolveStrategy::Bfs => {
                if self.dry_rollout_ok(&golden_stream) {
                    Self::texts(&golden_stream)
                } else {
                    Vec::new()
                }
            }
            SolveStrategy::Dfs => {
                let mut visited: HashSet<Vec<char>> = HashSet::from([start.clone()]);
                let mut out = Vec::new();
                let found = dfs(&start, 0, max_moves, &mut visited, &mut out);
                if !found {
                    return Vec::new();
                }
                if self.dry_rollout_ok(&out) {
                    Self::texts(&out)
                } else {
                    Self::texts(&golden_stream)
                }
            }
            SolveStrategy::Sos { seed, max_len } => {
                let seed = match seed {
                    Some(s) => s,
                    None => {
                        let mut rng = self.rng.clone();
                        rng.integers(0, 1 << 32).unwrap_or(0) as u64
                    }
                };
                let mut local = NpRandom::seeded(u128::from(seed));
                let g = golden.len();
                let mut budget = match max_len {
                    Some(l) => (l as i64 - 1 - g as i64).div_euclid(2).max(0) as usize,
                    None => 2 * g,
                };
                let mut golden_states = vec![start.clone()];
                for &m in &golden {
                    let next = golden_states
                        .last()
                        .and_then(|s| apply(s, m))
                        .unwrap_or_default();
                    golden_states.push(next);
                }
                let mut stream = Vec::new();
                let mut cur = start.clone();
                for (k, &golden_move) in golden.iter().enumerate() {
                    let slack = self.config.break_moves as i64 - k as i64 - 1;
                    if budget > 0 && slack > 0 {
                        let per_cap = 2.min(slack as usize).min(budget);
                        let depth = local.integers(0, per_cap as i64 + 1).unwrap_or(0);
                        let mut detour = cur.clone();
                        let mut done = 0;
                        for _ in 0..depth {
                            let mut nbrs = neighbours(&detour);
                            if nbrs.is_empty() {
                                break;
                            }
                            local.shuffle(&mut nbrs);
                            let avoid = &golden_states[k + 1];
                            let pick = nbrs
                                .iter()
                                .find(|p| &p.0 != avoid)
                                .or_else(|| nbrs.first())
                                .cloned();
                            let Some((next, m)) = pick else { break };
                            stream.push(Step::Move(m));
                            detour = next;
                            done += 1;
                        }
                        stream.extend(std::iter::repeat_n(Step::Undo, done));
                        budget -= done;
                    }
                    stream.push(Step::Move(golden_move));
                    cur = apply(&cur, golden_move).unwrap_or_default();
                }
                if self.dry_rollout_ok(&stream) {
                    Self::texts(&stream)
                } else {
                    Self::texts(&golden_stream)
                }
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Move(Move),
    Undo,
}

fn dfs(
    state: &[char],
    depth: usize,
    max_moves: usize,
    visited: &mut HashSet<Vec<char>>,
    out: &mut Vec<Step>,
) -> bool {
    if correct(state) {
        return true;
    }
    if depth >= max_moves {
        return false;
    }
    for (next, m) in neighbours(state) {
        if !visited.insert(next.clone()) {
            continue;
        }
        out.push(Step::Move(m));
        if dfs(&next, depth + 1, max_moves, visited, out) {
            return true;
        }
        out.push(Step::Undo);
    }
    false
}

impl VisGymEnv for MatchstickEquation {
    fn reset(&mut self, seed: Option<u64>) {
        if let Some(s) = seed {
            self.rng = NpRandom::seeded(u128::from(s));
        }
        let broken = self.create_puzzle();
        self.current_moves = 0;
        self.history = vec![broken.clone()];
        self.symbols = broken;
    }

    fn step(&mut self, action: &str) -> Result<StepResult, PyException> {
        let (index, payload) = match resolve(action, &functions())? {
            Resolved::Rejected(f) => return Ok(StepResult::feedback(f)),
            Resolved::Call { index, payload } => (index, payload),
        };
        let mut result = StepResult::feedback(EXECUTED);
        match index {
            0 => {
                if self.current_moves >= self.config.break_moves as i64 {
                    result.feedback = "Move budget exhausted. Please try to undo.".into();
                } else if self.apply_move(&payload) {
                    self.current_moves += 1;
                } else {
                    result.feedback = "Illegal move.".into();
                }
            }
            1 => {
                if self.history.len() <= 1 {
                    result.feedback = "Nothing to undo.".into();
                } else {
                    self.current_moves -= 1;
                    self.history.pop();
                    self.symbols = self.history.last().cloned().unwrap_or_default();
                }
            }
            _ => {
                result.terminated = true;
                result.reward = if correct(&self.symbols) { 1.0 } else { 0.0 };
            }
        }
        Ok(result)
    }

    fn state_json(&self, _at_reset: bool) -> Value {
        json!({
            "symbols": self.symbols.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            "equation": self.equation(),
            "history_depth": self.history.len(),
            "current_moves": self.current_moves,
        })
    }

    fn prompt(&self, mode: RenderMode) -> Option<String> {
        let view = match mode {
            RenderMode::Ansi => "You see an ASCII visualization in text for the equation. A single match could be represented by two or three characters depending on its orientation.",
            RenderMode::RgbArray => "You see an image of the equation.",
        };
        Some(format!(
            "You see a broken matchstick equation.\n\
Your goal is to fix the equation by moving ONE match per action.\n\
{view}\n\
\n\
Symbols are indexed 0..N-1 from left to right (N = number of symbols).\n\
\n\
Available actions:\n\
1. 'move': Remove one match from segment 'src_seg' of symbol at 'src_idx', then add it to segment 'dst_seg' of symbol at 'dst_idx'. Format: `('move', [src_idx, src_seg, dst_idx, dst_seg])` where:\n   \
• src_idx, dst_idx ∈ [0, N−1], with src_idx ≠ dst_idx\n   \
• src_seg, dst_seg ∈ matchstick_puzzles.TOTAL (e.g., {{0..12}})\n   \
• The move must result in valid symbols at BOTH positions.\n\
2. 'undo': Revert the last move (if any). Format: `('undo', 'undo')`\n\
3. 'stop': Submit your current equation as final. Format: `('stop', 'stop')`\n\
\n\
Success: The submitted equation must be mathematically correct (evaluated as lhs == rhs).\n\
\n\
Segment legend (indices depend on symbol):\n  \
0..6 : 7-seg digits (a,b,c,d,e,f,g), 6 is also the horizontal stroke used by '+'\n  \
7    : plus vertical stroke (used by '+')\n  \
8    : the multiply sign that goes from top left to bottom right\n  \
9    : the multiply sign that goes from top right to bottom left\n  \
11,12: equals upper/lower bars (used by '=')\n\
A segment is valid for a symbol only if the resulting set of segments maps to a known glyph.\n\
\n\
Please respond with exactly one action and its arguments in the specified format. For example:\n\
- To move a match: `('move', [0, 6, 2, 0])`\n\
- To undo: `('undo', 'undo')`\n\
- To stop: `('stop', 'stop')`"
        ))
    }

    fn text_frame(&self) -> Option<String> {
        let n = self.symbols.len();
        let width = n * 6;
        let mut canvas = vec![vec![' '; width]; 8];
        for (i, &c) in self.symbols.iter().enumerate() {
            let Some(set) = segments(c) else { continue };
            let x0 = i * 6;
            for s in ids(set) {
                for &(r, col, text) in segment_art(s) {
                    for (k, ch) in text.chars().enumerate() {
                        if r < 6 && x0 + col + k < width {
                            canvas[r][x0 + col + k] = ch;
                        }
                    }
                }
            }
            let label = i.to_string();
            let lx = x0 + (5usize.saturating_sub(label.len())) / 2;
            for (k, ch) in label.chars().enumerate() {
                if lx + k < width {
                    canvas[6][lx + k] = ch;
                }
            }
        }
        Some(
            canvas
                .iter()
                .map(|row| row.iter().collect::<String>())
                .collect::<Vec<_>>()
                .join("\n"),
        )
    }

    fn frame_size(&self) -> (u32, u32) {
        (IMAGE_W, IMAGE_H)
    }

    fn render(&self, frame: &mut Frame) {
        matchstick_frame::render(&self.symbols, frame);
    }

    /// The evaluation harness's ground truth: `sos` with seed 12 and at most 80 actions.
    fn solve(&self) -> Vec<String> {
        self.solve_with(SolveStrategy::Sos {
            seed: Some(12),
            max_len: Some(80),
        })
    }

    /// `bfs`, `dfs`, and `sos_rng` (the reference's default `solve()`, its detour
    /// seed drawn from a copy of the environment's generator).
    fn solve_named(&self, name: &str) -> Option<Vec<String>> {
        match name {
            "oracle" => Some(self.solve()),
            "bfs" => Some(self.solve_with(SolveStrategy::Bfs)),
            "dfs" => Some(self.solve_with(SolveStrategy::Dfs)),
            "sos_rng" => Some(self.solve_with(SolveStrategy::Sos {
                seed: None,
                max_len: None,
            })),
            _ => None,
        }
    }

    fn clone_box(&self) -> Box<dyn VisGymEnv> {
        Box::new(self.clone())
    }

    fn functions(&self) -> Vec<(&'static str, ArgSpace)> {
        functions()
    }

    fn signatures(&self) -> Vec<FnSig> {
        let index = FnSig::int(0, MAX_EQUATION_LEN - 1);
        let segment = FnSig::int(0, 12);
        vec![
            FnSig::new(
                "move",
                "Take the match of segment src_seg from symbol src_idx and put it on segment dst_seg of symbol dst_idx",
                Payload::List,
                &[
                    ("src_idx", index.clone()),
                    ("src_seg", segment.clone()),
                    ("dst_idx", index),
                    ("dst_seg", segment),
                ],
            ),
            FnSig::new(
                "undo",
                "Undo the last move (the word is usually 'undo')",
                Payload::Value,
                &[("word", crate::core::action::ArgKind::Word { max_len: 4 })],
            ),
            FnSig::stop(),
        ]
    }

    /// `solve(strategy="sos", num_steps=None, max_moves=None, sos_seed=None,
    /// sos_max_len=None, validate=True)` with the strategies `bfs`, `dfs` and `sos`.
    fn solve_kwargs(&self, kw: &mut SolveKwargs) -> Result<Vec<String>, String> {
        let strategy = kw.choice("strategy", "sos", &["sos", "bfs", "dfs"])?;
        let seed = kw.count("sos_seed")?;
        let max_len = kw.count("sos_max_len")?.map(|n| n as usize);
        kw.default_only("num_steps", Value::Null)?;
        kw.default_only("max_moves", Value::from(self.config.break_moves))?;
        kw.default_only("validate", Value::Bool(true))?;
        Ok(self.solve_with(match strategy {
            "bfs" => SolveStrategy::Bfs,
            "dfs" => SolveStrategy::Dfs,
            _ => SolveStrategy::Sos { seed, max_len },
        }))
    }

    fn presets(&self) -> Vec<String> {
        vec![UNDO.to_string(), STOP.to_string()]
    }

    fn keymap(&self) -> Vec<KeyBinding> {
        vec![
            KeyBinding::new("Backspace", 0),
            KeyBinding::new("z", 0),
            KeyBinding::new("Enter", 1),
        ]
    }

    fn pointer_mode(&self) -> Option<PointerMode> {
        Some(PointerMode::Drag)
    }

    /// Dragging a match onto another symbol moves it: the source is the nearest lit
    /// segment to where the drag starts, the destination the nearest free segment
    /// (one that makes a glyph, if any) to where it ends.
    fn pointer_action(&self, gesture: Gesture) -> Option<String> {
        let Gesture::Drag { from, to } = gesture else {
            return None;
        };
        let (i, s) = self.segment_near(from, |set, seg| set & (1 << seg) != 0)?;
        let near_free = |set: u16, seg: u8| set & (1 << seg) == 0 && seg != 10;
        let (j, t) = self
            .segment_near(to, |set, seg| {
                near_free(set, seg) && symbol(set | (1 << seg)).is_some()
            })
            .or_else(|| self.segment_near(to, near_free))?;
        Some(move_text([i, usize::from(s), j, usize::from(t)]))
    }

    fn words(&self) -> Words {
        Words {
            goal: "Move matches until the equation is true, then stop",
            success: "stopped with a true equation",
            failure: "stopped with a false equation",
        }
    }

    /// Match moves to the nearest true equation, counted up to the number of moves
    /// that broke it (one more beyond that).
    fn remaining(&self) -> f64 {
        let cap = self.config.break_moves;
        if let Some((puzzle, d)) = &self.known_distance {
            if *puzzle == self.symbols {
                return *d as f64;
            }
        }
        let mut state = self.symbols.clone();
        // What `shortest_fix` finds, without its queue of paths: it asks after every step.
        (0..=cap)
            .find(|&moves| correct_after(&mut state, moves))
            .unwrap_or(cap + 1) as f64
    }
}

impl MatchstickEquation {
    /// The symbol under a frame point and its segment nearest to it among those
    /// `wanted` accepts (given the symbol's segment set and the segment).
    fn segment_near(
        &self,
        (x, y): (f64, f64),
        wanted: impl Fn(u16, u8) -> bool,
    ) -> Option<(usize, u8)> {
        let n = self.symbols.len();
        let width = f64::from(canvas_width(n));
        // The frame is the 100-pixel-high canvas squeezed to IMAGE_W × IMAGE_H.
        let cx = (x + 0.5) * width / f64::from(IMAGE_W) - 0.5;
        let cy = (y + 0.5) * 100.0 / f64::from(IMAGE_H) - 0.5;
        let k = (cx / 68.0).floor();
        if k < 0.0 || k >= n as f64 {
            return None;
        }
        let k = k as usize;
        let (bx, by) = (cx - 68.0 * k as f64, cy);
        let set = segments(self.symbols[k])?;
        let distance = |seg: u8| {
            let ((sx, sy), (ex, ey)) = SEGMENT_COORDS[usize::from(seg)];
            let (ax, ay, dx, dy) = (
                f64::from(sx),
                f64::from(sy),
                f64::from(ex - sx),
                f64::from(ey - sy),
            );
            let u = (((bx - ax) * dx + (by - ay) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
            let (px, py) = (ax + u * dx - bx, ay + u * dy - by);
            px * px + py * py
        };
        (0u8..13)
            .filter(|&seg| wanted(set, seg))
            .map(|seg| (seg, distance(seg)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(seg, _)| (k, seg))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remaining_is_the_length_of_the_shortest_fix() {
        for break_moves in [1, 2] {
            let mut env = MatchstickEquation::new(MatchstickEquationConfig {
                break_moves,
                ..MatchstickEquationConfig::default()
            });
            let mut rng = NpRandom::seeded(7);
            for seed in 0..12 {
                env.reset(Some(seed));
                for _ in 0..3 {
                    let want = env
                        .shortest_fix(&env.symbols.clone(), break_moves)
                        .map_or(break_moves + 1, |p| p.len());
                    assert_eq!(env.remaining(), want as f64, "{:?}", env.symbols);
                    // A random legal move (or none), then ask again.
                    let next = neighbours(&env.symbols);
                    if next.is_empty() {
                        break;
                    }
                    env.symbols = next[index(&mut rng, next.len())].0.clone();
                }
            }
        }
    }

    #[test]
    fn reset_gives_a_broken_equation() {
        let mut env = MatchstickEquation::new(MatchstickEquationConfig::default());
        env.reset(Some(0));
        assert!(!correct(env.symbols()));
        let plan = env.solve_with(SolveStrategy::Bfs);
        for a in &plan {
            let r = env.step(a).unwrap();
            assert_eq!(r.feedback, EXECUTED, "{a}");
            if r.terminated {
                assert_eq!(r.reward, 1.0);
            }
        }
    }
}
