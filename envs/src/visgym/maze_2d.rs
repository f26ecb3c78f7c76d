//! Maze 2D: a top-down maze of 25-pixel cells; the agent (blue disk) moves with
//! `('move', d)` (0 right, 1 up, 2 left, 3 down) and stops on the red target.
//!
//! The reference draws into a canvas kept between frames: after each step it paints
//! a white disk where the agent was and a blue one where it is, so once the agent has
//! walked over the red target and left, a white disk stays on it until the next reset.
//! That mark is the only trace the persistent canvas leaves; it is kept as a flag.

use serde_json::{json, Value};

use super::action::{resolve, Resolved, StepResult, EXECUTED};
use super::maze_gen::{bfs_path, generate, Maze};
use super::python::PyException;
use super::signature::{FnSig, Payload};
use super::solve_kwargs::SolveKwargs;
use super::spaces::ArgSpace;
use super::{RenderMode, VisGymEnv};
use crate::core::env::{KeyBinding, Words};
use crate::core::frame::{Frame, Rgb};
use crate::core::input::{Gesture, GridGeometry, PointerMode};
use crate::rng::NpRandom;

const CELL: u32 = 25;
const WALL: Rgb = [169, 169, 169];
const TARGET: Rgb = [255, 0, 0];
const AGENT: Rgb = [0, 0, 255];
const WHITE: Rgb = [255, 255, 255];

/// The column spans (inclusive, relative to the cell) of pygame's disk of radius 6.25
/// at the cell centre, for rows 6..=17 of the cell.
const DISK_ROWS: [(u32, u32); 12] = [
    (10, 13),
    (9, 14),
    (8, 15),
    (7, 16),
    (6, 17),
    (6, 17),
    (6, 17),
    (6, 17),
    (7, 16),
    (8, 15),
    (9, 14),
    (10, 13),
];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Maze2dConfig {
    pub width: usize,
    pub height: usize,
    pub seed: u64,
}

#[derive(Clone, Debug)]
pub struct Maze2d {
    config: Maze2dConfig,
    rng: NpRandom,
    maze: Maze,
    prev_agent: Option<(usize, usize)>,
    /// The agent has stood on the target and left since the reset.
    target_marked: bool,
}

/// `(drow, dcol)` of `('move', d)`.
const MOVES: [(i64, i64); 4] = [(0, 1), (-1, 0), (0, -1), (1, 0)];

fn functions() -> Vec<(&'static str, ArgSpace)> {
    vec![("move", ArgSpace::discrete(4)), ("stop", ArgSpace::text4())]
}

impl Maze2d {
    pub fn new(config: Maze2dConfig) -> Self {
        Maze2d {
            rng: NpRandom::seeded(u128::from(config.seed)),
            maze: Maze {
                walls: vec![vec![true; config.width]; config.height],
                agent: (0, 0),
                target: (0, 0),
            },
            config,
            prev_agent: None,
            target_marked: false,
        }
    }

    pub fn maze(&self) -> &Maze {
        &self.maze
    }

    /// Path moves from the agent to the target (`('move', d)` indices).
    fn path_moves(&self) -> Vec<usize> {
        let path = bfs_path(&self.maze, self.maze.agent, self.maze.target);
        path.windows(2)
            .filter_map(|p| {
                let d = (p[1].0 as i64 - p[0].0 as i64, p[1].1 as i64 - p[0].1 as i64);
                MOVES.iter().position(|&m| m == d)
            })
            .collect()
    }

    fn paint_disk(frame: &mut Frame, cell: (usize, usize), color: Rgb) {
        let (x0, y0) = (cell.1 as u32 * CELL, cell.0 as u32 * CELL);
        for (i, &(a, b)) in DISK_ROWS.iter().enumerate() {
            for x in a..=b {
                frame.set(i64::from(x0 + x), i64::from(y0 + 6 + i as u32), color);
            }
        }
    }
}

impl VisGymEnv for Maze2d {
    fn reset(&mut self, seed: Option<u64>) {
        if let Some(s) = seed {
            self.rng = NpRandom::seeded(u128::from(s));
        }
        self.maze = generate(self.config.height, self.config.width, &mut self.rng);
        self.prev_agent = None;
        self.target_marked = false;
    }

    fn step(&mut self, action: &str) -> Result<StepResult, PyException> {
        let mut result = match resolve(action, &functions())? {
            Resolved::Rejected(f) => StepResult::feedback(f),
            Resolved::Call { index: 0, payload } => {
                let d = payload
                    .as_int()
                    .and_then(|i| i.as_i128())
                    .and_then(|i| usize::try_from(i).ok())
                    .unwrap_or(0);
                let (dr, dc) = MOVES[d % 4];
                let (r, c) = (self.maze.agent.0 as i64 + dr, self.maze.agent.1 as i64 + dc);
                if self.maze.is_wall(r, c) {
                    StepResult::feedback("Cannot move into a wall.")
                } else {
                    self.prev_agent = Some(self.maze.agent);
                    self.maze.agent = (r as usize, c as usize);
                    StepResult::feedback(EXECUTED)
                }
            }
            Resolved::Call { .. } => {
                let mut r = StepResult::feedback(EXECUTED);
                r.terminated = true;
                r.reward = if self.maze.agent == self.maze.target {
                    1.0
                } else {
                    0.0
                };
                r
            }
        };
        // Every step renders: the white disk lands on the previous cell.
        if self.prev_agent == Some(self.maze.target) {
            self.target_marked = true;
        }
        result.truncated = false;
        Ok(result)
    }

    fn state_json(&self, at_reset: bool) -> Value {
        let m = &self.maze;
        let mut v = json!({
            "agent": [m.agent.0, m.agent.1],
            "target": [m.target.0, m.target.1],
        });
        if at_reset {
            v["maze_map"] = json!(m.map_json());
        }
        v
    }

    fn prompt(&self, mode: RenderMode) -> Option<String> {
        let (h, w) = (self.config.height, self.config.width);
        let intro = match mode {
            RenderMode::Ansi => "You are given a text-based representation of the maze where:\n\
- Walls are represented by '#'.\n\
- Paths are represented by ' ' (empty space).\n\
- Your position is marked with 'A'.\n\
- The target is marked with 'T'.\n\
Your goal is to navigate from 'A' to 'T'.",
            RenderMode::RgbArray => "The maze consists of walls (gray) and paths (white). You are represented by a blue circle, and your goal is to reach the red target square.",
        };
        Some(format!(
            "You are navigating a {h}x{w} maze. {intro}\n\
\n\
Available actions:\n\
1. 'move': Move in one of four directions. Format: `('move', direction)` where direction is an integer:\n   \
- 0=right, 1=up, 2=left, 3=down\n\
2. 'stop': End the navigation session. Format: `('stop', 'stop')`\n\
\n\
Success: You succeed if you reach the red target square.\n\
\n\
Please respond with exactly one action and its arguments in the specified format. For example:\n\
- To move right: `('move', 0)`\n\
- To move up: `('move', 1)`\n\
- To move left: `('move', 2)`\n\
- To move down: `('move', 3)`\n\
- To stop: `('stop', 'stop')`"
        ))
    }

    fn text_frame(&self) -> Option<String> {
        let m = &self.maze;
        let (h, w) = (m.height(), m.width());
        let mut rows = vec!["#".repeat(w + 2)];
        for r in 0..h {
            let mut line = String::from("#");
            for c in 0..w {
                line.push(if (r, c) == m.agent {
                    'A'
                } else if (r, c) == m.target {
                    'T'
                } else if m.walls[r][c] {
                    '#'
                } else {
                    ' '
                });
            }
            line.push('#');
            rows.push(line);
        }
        rows.push("#".repeat(w + 2));
        Some(rows.join("\n"))
    }

    fn frame_size(&self) -> (u32, u32) {
        (
            self.config.width as u32 * CELL,
            self.config.height as u32 * CELL,
        )
    }

    fn render(&self, frame: &mut Frame) {
        let (w, h) = self.frame_size();
        frame.resize(w, h);
        frame.fill(WHITE);
        let m = &self.maze;
        let stride = w as usize * 3;
        let fill_cell = |frame: &mut Frame, r: usize, c: usize, color: Rgb| {
            let cell = CELL as usize;
            for y in r * cell..(r + 1) * cell {
                let row = &mut frame.data_mut()[y * stride + c * cell * 3..][..cell * 3];
                for px in row.chunks_exact_mut(3) {
                    px.copy_from_slice(&color);
                }
            }
        };
        for r in 0..m.height() {
            for c in 0..m.width() {
                if m.walls[r][c] {
                    fill_cell(frame, r, c, WALL);
                }
            }
        }
        fill_cell(frame, m.target.0, m.target.1, TARGET);
        if self.target_marked {
            Self::paint_disk(frame, m.target, WHITE);
        }
        Self::paint_disk(frame, m.agent, AGENT);
    }

    /// BFS moves, then two stops (the reference's solver appends a second one).
    fn solve(&self) -> Vec<String> {
        let stop = "('stop', 'stop')".to_string();
        if self.maze.agent == self.maze.target {
            return vec![stop];
        }
        let moves = self.path_moves();
        if moves.is_empty() {
            return vec![stop];
        }
        let mut out: Vec<String> = moves.iter().map(|d| format!("('move', {d})")).collect();
        out.push(stop.clone());
        out.push(stop);
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
                "Move one cell: 0 right, 1 up, 2 left, 3 down",
                Payload::Value,
                &[("direction", FnSig::int(0, 3))],
            ),
            FnSig::stop(),
        ]
    }

    /// `solve(strategy, num_steps)`: the strategy is not read; padding is not
    /// reproduced.
    fn solve_kwargs(&self, kw: &mut SolveKwargs) -> Result<Vec<String>, String> {
        kw.ignored("strategy");
        kw.default_only("num_steps", Value::Null)?;
        Ok(self.solve())
    }

    fn presets(&self) -> Vec<String> {
        let mut p: Vec<String> = (0..4).map(|d| format!("('move', {d})")).collect();
        p.push(STOP.to_string());
        p
    }

    fn keymap(&self) -> Vec<KeyBinding> {
        vec![
            KeyBinding::new("ArrowRight", 0),
            KeyBinding::new("d", 0),
            KeyBinding::new("ArrowUp", 1),
            KeyBinding::new("w", 1),
            KeyBinding::new("ArrowLeft", 2),
            KeyBinding::new("a", 2),
            KeyBinding::new("ArrowDown", 3),
            KeyBinding::new("s", 3),
            KeyBinding::new("Enter", 4),
        ]
    }

    fn pointer_mode(&self) -> Option<PointerMode> {
        Some(PointerMode::Click)
    }

    /// A click on a cell moves one step toward it (along the longer axis); a click on
    /// the agent stops.
    fn pointer_action(&self, gesture: Gesture) -> Option<String> {
        let Gesture::Click { x, y } = gesture else {
            return None;
        };
        let grid = GridGeometry {
            left: 0.0,
            top: 0.0,
            cell_width: f64::from(CELL),
            cell_height: f64::from(CELL),
            rows: self.config.height as u32,
            cols: self.config.width as u32,
        };
        let (r, c) = grid.cell_at(x, y)?;
        let (dr, dc) = (
            i64::from(r) - self.maze.agent.0 as i64,
            i64::from(c) - self.maze.agent.1 as i64,
        );
        let d = match (dr.abs().cmp(&dc.abs()), dr.signum(), dc.signum()) {
            (_, 0, 0) => return Some(STOP.to_string()),
            (std::cmp::Ordering::Less, _, 1) => 0,
            (std::cmp::Ordering::Less, _, _) => 2,
            (std::cmp::Ordering::Greater, -1, _) => 1,
            (std::cmp::Ordering::Greater, _, _) => 3,
            (std::cmp::Ordering::Equal, _, _) => return None,
        };
        Some(format!("('move', {d})"))
    }

    fn words(&self) -> Words {
        Words {
            goal: "Walk the blue circle to the red square, then stop",
            success: "stopped on the target",
            failure: "stopped away from the target",
        }
    }

    /// Cells left on the shortest path to the target.
    fn remaining(&self) -> f64 {
        self.path_moves().len() as f64
    }

    /// The moves left and the stop.
    fn distance_to_goal(&self) -> Option<u32> {
        u32::try_from(self.path_moves().len() + 1).ok()
    }
}

const STOP: &str = "('stop', 'stop')";
