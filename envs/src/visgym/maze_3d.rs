//! Maze 3D: the Maze 2D maze seen in first person; the agent moves forward
//! (`('move', 0)`) or turns (`('turn', 1|2|3)` = left, right, around) and stops on the
//! red sphere. The initial facing avoids looking straight at the target.

use serde_json::{json, Value};

use super::action::{resolve, Resolved, StepResult, EXECUTED};
use super::maze_3d_view::draw_view;
use super::maze_gen::{bfs_path, generate, Maze};
use super::python::PyException;
use super::signature::{FnSig, Payload};
use super::solve_kwargs::SolveKwargs;
use super::spaces::ArgSpace;
use super::{RenderMode, VisGymEnv};
use crate::core::env::{KeyBinding, Words};
use crate::core::frame::Frame;
use crate::core::input::{Gesture, PointerMode};
use crate::rng::NpRandom;

/// The facing vectors `(drow, dcol)` of `cam_dir` 0..3.
pub const FACING: [(i64, i64); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Maze3dConfig {
    pub width: usize,
    pub height: usize,
    pub seed: u64,
    /// Frame size in pixels (the evaluation uses 336×336).
    pub render_size: (u32, u32),
}

#[derive(Clone, Debug)]
pub struct Maze3d {
    config: Maze3dConfig,
    rng: NpRandom,
    maze: Maze,
    cam_dir: usize,
}

fn functions() -> Vec<(&'static str, ArgSpace)> {
    vec![
        ("move", ArgSpace::discrete(1)),
        ("turn", ArgSpace::Discrete { n: 3, start: 1 }),
        ("stop", ArgSpace::text4()),
    ]
}

impl Maze3d {
    pub fn new(config: Maze3dConfig) -> Self {
        Maze3d {
            rng: NpRandom::seeded(u128::from(config.seed)),
            maze: Maze {
                walls: vec![vec![true; config.width]; config.height],
                agent: (0, 0),
                target: (0, 0),
            },
            config,
            cam_dir: 0,
        }
    }

    pub fn maze(&self) -> &Maze {
        &self.maze
    }

    pub fn cam_dir(&self) -> usize {
        self.cam_dir
    }

    fn ahead(&self, cell: (usize, usize), d: usize, k: i64) -> (i64, i64) {
        (
            cell.0 as i64 + k * FACING[d].0,
            cell.1 as i64 + k * FACING[d].1,
        )
    }

    /// The target lies straight ahead along `d` with only floor between.
    fn sees_target(&self, d: usize) -> bool {
        let (a, t) = (self.maze.agent, self.maze.target);
        let (dr, dc) = FACING[d];
        let along_row = dr == 0 && a.0 == t.0 && ((dc > 0 && t.1 > a.1) || (dc < 0 && t.1 < a.1));
        let along_col = dc == 0 && a.1 == t.1 && ((dr > 0 && t.0 > a.0) || (dr < 0 && t.0 < a.0));
        if !(along_row || along_col) {
            return false;
        }
        let steps = (t.0 as i64 - a.0 as i64).abs() + (t.1 as i64 - a.1 as i64).abs();
        (1..steps).all(|k| {
            let (r, c) = self.ahead(a, d, k);
            !self.maze.is_wall(r, c)
        })
    }

    fn free_cells_ahead(&self, d: usize) -> usize {
        let mut k = 1;
        loop {
            let (r, c) = self.ahead(self.maze.agent, d, k);
            if self.maze.is_wall(r, c) {
                return (k - 1) as usize;
            }
            k += 1;
        }
    }

    /// `_pick_initial_camera_dir`.
    fn pick_camera_dir(&mut self) -> usize {
        let open: Vec<usize> = (0..4)
            .filter(|&d| {
                let (r, c) = self.ahead(self.maze.agent, d, 1);
                !self.maze.is_wall(r, c)
            })
            .collect();
        let safe: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&d| !self.sees_target(d))
            .collect();
        if !safe.is_empty() {
            return safe[self.rng.index(safe.len()).unwrap_or(0)];
        }
        let mut best: Option<(usize, usize)> = None;
        for &d in &open {
            let dist = self.free_cells_ahead(d);
            if best.is_none_or(|(_, b)| dist < b) {
                best = Some((d, dist));
            }
        }
        best.map_or(0, |(d, _)| d)
    }
}

impl VisGymEnv for Maze3d {
    fn reset(&mut self, seed: Option<u64>) {
        if let Some(s) = seed {
            self.rng = NpRandom::seeded(u128::from(s));
        }
        self.maze = generate(self.config.height, self.config.width, &mut self.rng);
        self.cam_dir = self.pick_camera_dir();
    }

    fn step(&mut self, action: &str) -> Result<StepResult, PyException> {
        Ok(match resolve(action, &functions())? {
            Resolved::Rejected(f) => StepResult::feedback(f),
            Resolved::Call { index: 0, .. } => {
                let (r, c) = self.ahead(self.maze.agent, self.cam_dir, 1);
                if self.maze.is_wall(r, c) {
                    StepResult::feedback("Cannot move forward - wall collision")
                } else {
                    self.maze.agent = (r as usize, c as usize);
                    StepResult::feedback(EXECUTED)
                }
            }
            Resolved::Call { index: 1, payload } => {
                let turn = payload.as_int().and_then(|i| i.as_i128()).unwrap_or(0);
                self.cam_dir = match turn {
                    1 => (self.cam_dir + 1) % 4,
                    2 => (self.cam_dir + 3) % 4,
                    3 => (self.cam_dir + 2) % 4,
                    _ => self.cam_dir,
                };
                StepResult::feedback(EXECUTED)
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
        })
    }

    fn state_json(&self, at_reset: bool) -> Value {
        let m = &self.maze;
        let mut v = json!({
            "agent": [m.agent.0, m.agent.1],
            "target": [m.target.0, m.target.1],
            "cam_dir": self.cam_dir,
        });
        if at_reset {
            v["maze_map"] = json!(m.map_json());
        }
        v
    }

    fn prompt(&self, mode: RenderMode) -> Option<String> {
        if mode == RenderMode::Ansi {
            return None;
        }
        let (h, w) = (self.config.height, self.config.width);
        Some(format!(
            "You are navigating a {h}x{w} 3D maze environment. The maze consists of walls and open paths. You are given the first-person view from your current position and orientation.\n\
\n\
Your goal is to reach the target location which ismarked by a red sphere.\n\
\n\
Available actions:\n\
1. 'move': Move one step forward in your current facing direction. Format: `('move', 0)`\n\
2. 'turn': Rotate your view in the specified direction. Format: `('turn', direction)` where direction is 1 (left), 2 (right), or 3 (around).\n\
3. 'stop': Stop the episode. Format: `('stop', 'stop')`\n\
\n\
Success: You succeed when you reach the target location (red sphere).\n\
\n\
Please respond with exactly one action and its arguments in the specified format. For example:\n\
- To move forward: `('move', 0)`\n\
- To turn left: `('turn', 1)`\n\
- To turn right: `('turn', 2)`\n\
- To turn around: `('turn', 3)`\n\
- To stop: `('stop', 'stop')`\n\
\n\
Note: If you try to move forward into a wall, you will remain in your current position. Turning actions do not change your position, only your facing direction."
        ))
    }

    fn text_frame(&self) -> Option<String> {
        None
    }

    fn frame_size(&self) -> (u32, u32) {
        self.config.render_size
    }

    fn render(&self, frame: &mut Frame) {
        let (w, h) = self.config.render_size;
        frame.resize(w, h);
        draw_view(frame, &self.maze, self.cam_dir);
    }

    /// Turns and forward moves along the BFS path, then one stop.
    fn solve(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.maze.agent == self.maze.target {
            out.push("('move', 0)".to_string());
        } else {
            let path = bfs_path(&self.maze, self.maze.agent, self.maze.target);
            let mut facing = self.cam_dir;
            for p in path.windows(2) {
                let delta = (p[1].0 as i64 - p[0].0 as i64, p[1].1 as i64 - p[0].1 as i64);
                let Some(want) = FACING.iter().position(|&f| f == delta) else {
                    continue;
                };
                match (want + 4 - facing) % 4 {
                    1 => out.push("('turn', 1)".to_string()),
                    2 => out.push("('turn', 3)".to_string()),
                    3 => out.push("('turn', 2)".to_string()),
                    _ => {}
                }
                out.push("('move', 0)".to_string());
                facing = want;
            }
        }
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
                "Step one cell forward (the argument is always 0)",
                Payload::Value,
                &[("forward", FnSig::int(0, 0))],
            ),
            FnSig::new(
                "turn",
                "Turn 1 left, 2 right, 3 around",
                Payload::Value,
                &[("direction", FnSig::int(1, 3))],
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
        [
            "('move', 0)",
            "('turn', 1)",
            "('turn', 2)",
            "('turn', 3)",
            "('stop', 'stop')",
        ]
        .map(String::from)
        .to_vec()
    }

    fn keymap(&self) -> Vec<KeyBinding> {
        vec![
            KeyBinding::new("ArrowUp", 0),
            KeyBinding::new("w", 0),
            KeyBinding::new("ArrowLeft", 1),
            KeyBinding::new("a", 1),
            KeyBinding::new("ArrowRight", 2),
            KeyBinding::new("d", 2),
            KeyBinding::new("ArrowDown", 3),
            KeyBinding::new("s", 3),
            KeyBinding::new("Enter", 4),
        ]
    }

    fn pointer_mode(&self) -> Option<PointerMode> {
        Some(PointerMode::Click)
    }

    /// A click on the left third of the view turns left, on the right third turns
    /// right, in the middle steps forward.
    fn pointer_action(&self, gesture: Gesture) -> Option<String> {
        let Gesture::Click { x, .. } = gesture else {
            return None;
        };
        let w = f64::from(self.config.render_size.0);
        let action = if x < w / 3.0 {
            "('turn', 1)"
        } else if x > 2.0 * w / 3.0 {
            "('turn', 2)"
        } else {
            "('move', 0)"
        };
        Some(action.to_string())
    }

    fn words(&self) -> Words {
        Words {
            goal: "Find the red sphere and stop in its cell",
            success: "stopped at the sphere",
            failure: "stopped away from the sphere",
        }
    }

    /// Cells left on the shortest path to the target.
    fn remaining(&self) -> f64 {
        bfs_path(&self.maze, self.maze.agent, self.maze.target)
            .len()
            .saturating_sub(1) as f64
    }

    /// The turns and moves of the solver's route and the stop.
    fn distance_to_goal(&self) -> Option<u32> {
        if self.maze.agent == self.maze.target {
            return Some(1);
        }
        u32::try_from(self.solve().len()).ok()
    }
}
