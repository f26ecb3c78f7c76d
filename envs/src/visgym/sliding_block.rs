//! Sliding Block (Klotski, 5×4): the agent starts from the classic layout and must
//! reach a shuffled target layout (shown on the left) by `('move', (block, dir))`
//! (0 up, 1 right, 2 down, 3 left); blocks are not interchangeable.
//!
//! The target comes from numpy's legacy `RandomState`: moves of the red block, a
//! random walk without immediate reversals, then a deterministic displacement fix.

use std::collections::{HashSet, VecDeque};

use serde_json::{json, Map, Value};

use super::action::{resolve, Resolved, StepResult, EXECUTED};
use super::python::{py_repr, py_str, PyException, PyValue};
use super::signature::{FnSig, Payload};
use super::solve_kwargs::SolveKwargs;
use super::spaces::ArgSpace;
use super::{RenderMode, VisGymEnv};
use crate::core::env::{KeyBinding, Words};
use crate::core::frame::{Frame, Rgb};
use crate::core::input::{Gesture, GridGeometry, PointerMode};
use crate::render::{font, raster};
use crate::rng::RandomState;

const ROWS: i64 = 5;
const COLS: i64 = 4;
const BLOCKS: usize = 10;
/// (height, width) of blocks 1..=10.
const SIZES: [(i64, i64); BLOCKS] = [
    (2, 2),
    (1, 2),
    (2, 1),
    (2, 1),
    (2, 1),
    (2, 1),
    (1, 1),
    (1, 1),
    (1, 1),
    (1, 1),
];
/// The classic start layout of blocks 1..=10.
const START: [(i64, i64); BLOCKS] = [
    (0, 1),
    (2, 1),
    (0, 0),
    (0, 3),
    (2, 0),
    (2, 3),
    (4, 0),
    (4, 3),
    (3, 1),
    (3, 2),
];
const DIRS: [(i64, i64); 4] = [(-1, 0), (0, 1), (1, 0), (0, -1)];
const DIR_NAMES: [&str; 4] = ["up", "right", "down", "left"];

type Layout = [(i64, i64); BLOCKS];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlidingBlockConfig {
    pub num_shuffle_moves: i64,
    pub seed: u32,
}

#[derive(Clone, Debug)]
pub struct SlidingBlock {
    config: SlidingBlockConfig,
    rng: RandomState,
    blocks: Layout,
    target: Layout,
    moves: u64,
}

fn functions() -> Vec<(&'static str, ArgSpace)> {
    vec![
        (
            "move",
            ArgSpace::MultiDiscrete {
                nvec: vec![BLOCKS as i64 + 1, 4],
            },
        ),
        ("stop", ArgSpace::text4()),
    ]
}

/// The board (block id per cell, 0 empty) of a layout.
fn board(layout: &Layout) -> [[usize; COLS as usize]; ROWS as usize] {
    let mut b = [[0usize; COLS as usize]; ROWS as usize];
    for (i, &(r, c)) in layout.iter().enumerate() {
        let (h, w) = SIZES[i];
        for dr in 0..h {
            for dc in 0..w {
                b[(r + dr) as usize][(c + dc) as usize] = i + 1;
            }
        }
    }
    b
}

/// Whether block `id` (1-based) can move one cell in `d` on `layout`.
fn can_move(layout: &Layout, id: usize, d: usize) -> bool {
    let (h, w) = SIZES[id - 1];
    let (r, c) = layout[id - 1];
    let (nr, nc) = (r + DIRS[d].0, c + DIRS[d].1);
    if nr < 0 || nc < 0 || nr + h > ROWS || nc + w > COLS {
        return false;
    }
    let b = board(layout);
    (0..h).all(|dr| {
        (0..w).all(|dc| {
            let v = b[(nr + dr) as usize][(nc + dc) as usize];
            v == 0 || v == id
        })
    })
}

fn valid_moves(layout: &Layout) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for id in 1..=BLOCKS {
        for d in 0..4 {
            if can_move(layout, id, d) {
                out.push((id, d));
            }
        }
    }
    out
}

fn shift(layout: &mut Layout, id: usize, d: usize) {
    let p = &mut layout[id - 1];
    *p = (p.0 + DIRS[d].0, p.1 + DIRS[d].1);
}

fn displacement(a: (i64, i64), b: (i64, i64)) -> i64 {
    (a.0 - b.0).abs() + (a.1 - b.1).abs()
}

impl SlidingBlock {
    /// The reference's constructor already resets once from its generator.
    pub fn new(config: SlidingBlockConfig) -> Self {
        let mut env = SlidingBlock {
            rng: RandomState::new(config.seed),
            config,
            blocks: START,
            target: START,
            moves: 0,
        };
        env.reset(None);
        env
    }

    fn randint(&mut self, n: usize) -> usize {
        self.rng.randint_below(n as i64).unwrap_or(0) as usize
    }

    fn shuffled_target(&mut self) -> Layout {
        let n = self.config.num_shuffle_moves;
        let mut layout = START;
        if n <= 0 {
            return layout;
        }
        // 1. Moves of the red block (or of another block when it is stuck).
        let mut attempted = 0;
        while attempted < n / 3 {
            let d = self.randint(4);
            if can_move(&layout, 1, d) {
                shift(&mut layout, 1, d);
                attempted += 1;
            } else {
                let v = valid_moves(&layout);
                if !v.is_empty() {
                    let (id, d) = v[self.randint(v.len())];
                    shift(&mut layout, id, d);
                    attempted += 1;
                }
            }
        }
        // 2. A random walk that never undoes its previous move.
        let mut made = 0;
        let mut last: Option<(usize, usize)> = None;
        while made < (n * 2) / 3 {
            let all = valid_moves(&layout);
            if all.is_empty() {
                break;
            }
            let mut v = all.clone();
            if let Some((b, d)) = last {
                v.retain(|&(id, dir)| !(id == b && dir == (d + 2) % 4));
            }
            if v.is_empty() {
                v = all;
            }
            let (id, d) = v[self.randint(v.len())];
            shift(&mut layout, id, d);
            last = Some((id, d));
            made += 1;
        }
        // 3. Push blocks still on their start cell further away (no randomness).
        let mut remaining = n / 6;
        for id in 1..=BLOCKS {
            let origin = START[id - 1];
            let mut disp = displacement(origin, layout[id - 1]);
            if disp >= 1 || remaining <= 0 {
                continue;
            }
            let mut attempts = 0;
            while disp < 1 && attempts < 10 && remaining > 0 {
                let mut best: Option<(usize, i64)> = None;
                for (d, step) in DIRS.iter().enumerate() {
                    if can_move(&layout, id, d) {
                        let p = layout[id - 1];
                        let np = (p.0 + step.0, p.1 + step.1);
                        let nd = displacement(origin, np);
                        if nd > disp && best.is_none_or(|(_, b)| nd > b) {
                            best = Some((d, nd));
                        }
                    }
                }
                if let Some((d, _)) = best {
                    shift(&mut layout, id, d);
                    disp = displacement(origin, layout[id - 1]);
                    remaining -= 1;
                }
                attempts += 1;
            }
        }
        layout
    }

    fn layout_json(layout: &Layout) -> Value {
        let mut m = Map::new();
        for (i, &(r, c)) in layout.iter().enumerate() {
            m.insert((i + 1).to_string(), json!([r, c]));
        }
        Value::Object(m)
    }

    fn board_lines(layout: &Layout) -> Vec<String> {
        board(layout)
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&v| match v {
                        0 => '.',
                        10 => '0',
                        v => char::from(b'0' + v as u8),
                    })
                    .collect()
            })
            .collect()
    }

    /// Breadth-first search over layouts to the target (ids 1..10, directions 0..3).
    fn bfs(&self) -> Option<Vec<(usize, usize)>> {
        if self.blocks == self.target {
            return Some(Vec::new());
        }
        let mut seen: HashSet<Layout> = HashSet::from([self.blocks]);
        let mut parent: Vec<(usize, (usize, usize))> = Vec::new();
        let mut states: Vec<Layout> = vec![self.blocks];
        let mut queue = VecDeque::from([0usize]);
        while let Some(i) = queue.pop_front() {
            let state = states[i];
            for (id, d) in valid_moves(&state) {
                let mut next = state;
                shift(&mut next, id, d);
                if seen.contains(&next) {
                    continue;
                }
                if next == self.target {
                    let mut path = vec![(id, d)];
                    let mut j = i;
                    while j != 0 {
                        let (p, m) = parent[j - 1];
                        path.push(m);
                        j = p;
                    }
                    path.reverse();
                    return Some(path);
                }
                seen.insert(next);
                states.push(next);
                parent.push((i, (id, d)));
                queue.push_back(states.len() - 1);
            }
        }
        None
    }

    fn draw_board(frame: &mut Frame, layout: &Layout, x0: i64, y0: i64) {
        const COLORS: [Rgb; 11] = [
            [255, 255, 255],
            [255, 0, 0],
            [0, 255, 0],
            [0, 0, 255],
            [0, 0, 255],
            [0, 0, 255],
            [0, 0, 255],
            [255, 255, 0],
            [255, 255, 0],
            [255, 255, 0],
            [255, 255, 0],
        ];
        let b = board(layout);
        for (r, row) in b.iter().enumerate() {
            for (c, &v) in row.iter().enumerate() {
                let (x, y) = (x0 + 50 * c as i64, y0 + 50 * r as i64);
                raster::fill_rect(
                    frame,
                    x as f64,
                    y as f64,
                    (x + 50) as f64,
                    (y + 50) as f64,
                    COLORS[v],
                );
            }
        }
        for (i, &(r, c)) in layout.iter().enumerate() {
            let (h, w) = SIZES[i];
            let (x1, y1) = ((x0 + 50 * c) as f64, (y0 + 50 * r) as f64);
            let (x2, y2) = (x1 + 50.0 * w as f64, y1 + 50.0 * h as f64);
            let black = [0, 0, 0];
            raster::fill_rect(frame, x1, y1, x2, y1 + 2.0, black);
            raster::fill_rect(frame, x1, y2 - 2.0, x2, y2, black);
            raster::fill_rect(frame, x1, y1, x1 + 2.0, y2, black);
            raster::fill_rect(frame, x2 - 2.0, y1, x2, y2, black);
            let label = (i + 1).to_string();
            font::draw_text_centered(
                frame,
                ((x1 + x2) / 2.0) as i64,
                ((y1 + y2) / 2.0) as i64,
                &label,
                3,
                black,
            );
        }
    }
}

impl VisGymEnv for SlidingBlock {
    fn reset(&mut self, seed: Option<u64>) {
        if let Some(s) = seed {
            // Seeds are passed to `RandomState`, which only takes 32-bit values.
            self.rng = RandomState::new(s as u32);
        }
        self.target = self.shuffled_target();
        self.blocks = START;
        self.moves = 0;
    }

    fn step(&mut self, action: &str) -> Result<StepResult, PyException> {
        let (index, payload) = match resolve(action, &functions())? {
            Resolved::Rejected(f) => return Ok(StepResult::feedback(f)),
            Resolved::Call { index, payload } => (index, payload),
        };
        if index == 1 {
            let mut r = StepResult::feedback(EXECUTED);
            r.terminated = true;
            r.reward = if self.blocks == self.target { 1.0 } else { 0.0 };
            return Ok(r);
        }
        let items = match &payload {
            PyValue::Tuple(v) | PyValue::List(v) => v.clone(),
            _ => Vec::new(),
        };
        let (block, direction) = (&items[0], &items[1]);
        // Python dict lookups: any number equal to 1..=10 names a block.
        let id = (1..=BLOCKS).find(|&i| block.py_eq(&PyValue::int(i as i128)));
        let dir = (0..4).find(|&d| direction.py_eq(&PyValue::int(d as i128)));
        // `if direction == 0 / 1 / 2, else left`.
        let effective = dir.unwrap_or(3);
        if let Some(id) = id.filter(|&id| can_move(&self.blocks, id, effective)) {
            shift(&mut self.blocks, id, effective);
            self.moves += 1;
            return Ok(StepResult::feedback(EXECUTED));
        }
        let Some(d) = dir else {
            return Err(PyException {
                class: "KeyError",
                message: py_repr(direction),
            });
        };
        Ok(StepResult::feedback(format!(
            "The action {} is not valid because the block {} cannot move in the direction {}.",
            py_str(&payload),
            py_str(block),
            DIR_NAMES[d]
        )))
    }

    fn state_json(&self, at_reset: bool) -> Value {
        let mut v = json!({
            "blocks": Self::layout_json(&self.blocks),
            "moves": self.moves,
        });
        if at_reset {
            v["target_blocks"] = Self::layout_json(&self.target);
            v["board"] = json!(board(&self.blocks));
            v["target_board"] = json!(board(&self.target));
        }
        v
    }

    fn prompt(&self, mode: RenderMode) -> Option<String> {
        let view = match mode {
            RenderMode::Ansi => "\nYou are given a text-based representation of the puzzle. You see two boards side-by-side:\n\
- Left: the target configuration\n\
- Right: the current configuration that you need to rearrange\n\
Each number on the board represents a block, and '.' represents an empty space.",
            RenderMode::RgbArray => "\nYou see two boards side-by-side:\n\
- Left: the target configuration\n\
- Right: the current configuration that you need to rearrange\n",
        };
        Some(format!(
            "You are solving a 5x4 sliding block puzzle (Klotski). The puzzle consists of rectangular blocks that can be moved in four directions. Your goal is to rearrange the blocks to match the target configuration.{view}\n\
\n\
Available actions:\n\
1. 'move': Move a block in one of four directions. Format: `('move', (block_id, direction))` where:\n   \
- block_id is the number of the block to move (1-10)\n   \
- direction is 0=up, 1=right, 2=down, 3=left\n\
2. 'stop': End the puzzle solving session. Format: `('stop', 'stop')`\n\
\n\
Success: You succeed if all blocks are in their target positions when you stop.\n\
\n\
Please respond with exactly one action and its arguments in the specified format. For example:\n\
- To move block 1 up: `('move', (1, 0))`\n\
- To move block 2 right: `('move', (2, 1))`\n\
- To move block 3 down: `('move', (3, 2))`\n\
- To move block 4 left: `('move', (4, 3))`\n\
- To stop: `('stop', 'stop')`"
        ))
    }

    fn text_frame(&self) -> Option<String> {
        let (t, c) = (
            Self::board_lines(&self.target),
            Self::board_lines(&self.blocks),
        );
        let mut lines = vec!["Target   Current".to_string(), "-".repeat(11)];
        for (a, b) in t.iter().zip(&c) {
            lines.push(format!("{a} | {b}"));
        }
        Some(lines.join("\n"))
    }

    fn frame_size(&self) -> (u32, u32) {
        (420, 290)
    }

    fn render(&self, frame: &mut Frame) {
        frame.resize(420, 290);
        frame.fill([255, 255, 255]);
        Self::draw_board(frame, &self.target, 0, 40);
        Self::draw_board(frame, &self.blocks, 220, 40);
        font::draw_text_centered(frame, 100, 20, "target board", 2, [0, 0, 0]);
        font::draw_text_centered(frame, 320, 20, "current board", 2, [0, 0, 0]);
    }

    fn solve(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .bfs()
            .unwrap_or_default()
            .iter()
            .map(|(id, d)| format!("('move', ({id}, {d}))"))
            .collect();
        out.push("('stop', 'stop')".to_string());
        out
    }

    fn solve_named(&self, name: &str) -> Option<Vec<String>> {
        (name == "oracle").then(|| self.solve())
    }

    fn clone_box(&self) -> Box<dyn VisGymEnv> {
        Box::new(self.clone())
    }

    fn functions(&self) -> Vec<(&'static str, ArgSpace)> {
        functions()
    }

    fn signatures(&self) -> Vec<FnSig> {
        vec![
            FnSig::new(
                "move",
                "Slide a block one cell: direction 0 up, 1 right, 2 down, 3 left",
                Payload::Tuple,
                &[
                    ("block", FnSig::int(0, BLOCKS as i64)),
                    ("direction", FnSig::int(0, 3)),
                ],
            ),
            FnSig::stop(),
        ]
    }

    /// `solve(strategy="bfs", num_steps=None)`: padding is not reproduced.
    fn solve_kwargs(&self, kw: &mut SolveKwargs) -> Result<Vec<String>, String> {
        kw.choice("strategy", "bfs", &["bfs"])?;
        kw.default_only("num_steps", Value::Null)?;
        Ok(self.solve())
    }

    /// Every block in every direction, then stop.
    fn presets(&self) -> Vec<String> {
        let mut p: Vec<String> = (1..=BLOCKS)
            .flat_map(|id| (0..4).map(move |d| format!("('move', ({id}, {d}))")))
            .collect();
        p.push("('stop', 'stop')".to_string());
        p
    }

    fn keymap(&self) -> Vec<KeyBinding> {
        vec![KeyBinding::new("Enter", 4 * BLOCKS)]
    }

    fn pointer_mode(&self) -> Option<PointerMode> {
        Some(PointerMode::Drag)
    }

    /// Dragging a block of the current (right) board moves it one cell toward the
    /// drag's longer axis.
    fn pointer_action(&self, gesture: Gesture) -> Option<String> {
        let Gesture::Drag { from, to } = gesture else {
            return None;
        };
        let grid = GridGeometry {
            left: 220.0,
            top: 40.0,
            cell_width: 50.0,
            cell_height: 50.0,
            rows: ROWS as u32,
            cols: COLS as u32,
        };
        let (r, c) = grid.cell_at(from.0, from.1)?;
        let id = board(&self.blocks)[r as usize][c as usize];
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        if id == 0 || dx.abs().max(dy.abs()) < 10.0 || dx.abs() == dy.abs() {
            return None;
        }
        let d = match (dx.abs() > dy.abs(), dx > 0.0, dy > 0.0) {
            (true, true, _) => 1,
            (true, false, _) => 3,
            (false, _, true) => 2,
            (false, _, false) => 0,
        };
        Some(format!("('move', ({id}, {d}))"))
    }

    fn words(&self) -> Words {
        Words {
            goal: "Slide the blocks until the right board matches the left one, then stop",
            success: "stopped with the target layout",
            failure: "stopped before the layout matched",
        }
    }

    /// Cells the blocks still have to travel: the sum of each block's Manhattan
    /// distance to its target position.
    fn remaining(&self) -> f64 {
        self.blocks
            .iter()
            .zip(&self.target)
            .map(|(&a, &b)| displacement(a, b))
            .sum::<i64>() as f64
    }
}
