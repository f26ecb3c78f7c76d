//! GameVerse's Maze: a 4×4 grid of walls and open cells carved by a randomized depth-first
//! search, thinned towards more than half walls, with a ball and a target at least
//! seven steps apart when the maze allows it. Each step moves the ball one cell (into a
//! wall or off the grid: it stays); reaching the target wins. The score after every step
//! is 1 − d/d₀ (d the shortest-path distance to the target, d₀ the initial one), floored
//! at 0, and 1 on the target.
//!
//! The reference draws everything from CPython's module-level `random`, unseeded; here
//! `reset(Some(s))` is `random.seed(s)` followed by a new maze, and `reset(None)` makes the
//! next maze from where the generator is (a new environment starts as if reset with 0).
//!
//! Semantic replies are read by the direction reader shared with 2048; GUI replies must
//! hold one JSON PRESS action whose key is a direction. Anything else is a step without a
//! move.

mod env;
mod generate;
mod oracle;
pub mod render;

pub use env::{MazeEnv, ID};
pub use generate::{generate, shortest_distance, Cell, Grid};
pub use oracle::{best_move, solution};

use serde_json::{json, Value};

use super::direction_words::{first_direction, Direction};
use super::gui_action::parse_single_action;
use super::prompt::PromptTemplates;
use super::{ActionMode, StepResult};
use crate::core::agent_prompts::MemoryTemplates;
use crate::rng::PyRandom;
use crate::Frame;

/// GameVerse's runner stops a Maze episode after this many steps.
pub const STEP_CAP: u32 = 20;
/// The benchmark's maze size.
pub const SIZE: usize = 4;
/// The observation is 500×500.
pub const FRAME_SIZE: u32 = 500;
/// `{task_description}` of the prompts.
pub const TASK: &str = "Navigate the ball to the red flag";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MazeConfig {
    pub action_mode: ActionMode,
    pub step_cap: u32,
}

impl Default for MazeConfig {
    fn default() -> Self {
        MazeConfig {
            action_mode: ActionMode::Semantic,
            step_cap: STEP_CAP,
        }
    }
}

/// The zero-shot prompt templates of an action mode (`{maze_size}` renders `4`).
pub fn prompts(mode: ActionMode) -> PromptTemplates {
    match mode {
        ActionMode::Semantic => PromptTemplates {
            system: include_str!("prompts/semantic_system.txt"),
            user: include_str!("prompts/semantic_user.txt"),
        },
        ActionMode::Gui => PromptTemplates {
            system: include_str!("prompts/gui_system.txt"),
            user: include_str!("prompts/gui_user.txt"),
        },
    }
}

/// The memory agent's templates: Playbench's adaptation of GameVerse's memory-agent
/// templates to this game (docs/gameverse.md, "Memory agent"), semantic mode only.
pub fn memory_prompts(mode: ActionMode) -> Option<MemoryTemplates> {
    match mode {
        ActionMode::Semantic => Some(MemoryTemplates {
            review_system: include_str!("prompts/memory_review_system.txt"),
            review_user: include_str!("prompts/memory_review_user.txt"),
            action_system: include_str!("prompts/memory_action_system.txt"),
            action_user: include_str!("prompts/memory_action_user.txt"),
        }),
        ActionMode::Gui => None,
    }
}

#[derive(Clone, Debug)]
pub struct Maze {
    config: MazeConfig,
    rng: PyRandom,
    grid: Grid,
    ball: Cell,
    target: Cell,
    initial_distance: i64,
    won: bool,
    steps: u32,
    /// Moves that went through (the reference's `step_count`).
    moves: u32,
    score: f64,
}

impl Maze {
    pub fn new(config: MazeConfig) -> Self {
        let mut rng = PyRandom::new(0);
        let (grid, ball, target) = generate(&mut rng, SIZE);
        let mut maze = Maze {
            config,
            rng,
            grid,
            ball,
            target,
            initial_distance: 0,
            won: false,
            steps: 0,
            moves: 0,
            score: 0.0,
        };
        maze.start();
        maze
    }

    /// A new maze: `Some(seed)` reseeds the generator first, `None` continues it.
    pub fn reset(&mut self, seed: Option<u64>) {
        if let Some(seed) = seed {
            self.rng = PyRandom::new(seed);
        }
        let (grid, ball, target) = generate(&mut self.rng, SIZE);
        self.grid = grid;
        self.ball = ball;
        self.target = target;
        self.start();
    }

    fn start(&mut self) {
        self.initial_distance = shortest_distance(&self.grid, self.ball, self.target);
        self.won = false;
        self.steps = 0;
        self.moves = 0;
        self.score = self.evaluate();
    }

    /// The move a reply makes in an action mode.
    pub fn parse_action(mode: ActionMode, text: &str) -> Option<Direction> {
        match mode {
            ActionMode::Semantic => first_direction(text),
            ActionMode::Gui => {
                let key = parse_single_action(text).ok()?.pressed_key().ok()??;
                Direction::from_word(&key)
            }
        }
    }

    /// One step with the text under `### Actions`.
    pub fn step(&mut self, action_text: &str) -> StepResult {
        self.step_direction(Self::parse_action(self.config.action_mode, action_text))
    }

    /// One step with the move already read (`None`: no move).
    pub fn step_direction(&mut self, direction: Option<Direction>) -> StepResult {
        self.steps += 1;
        if let Some(d) = direction {
            self.move_ball(d);
        }
        let before = self.score;
        self.score = self.evaluate();
        StepResult {
            reward: self.score - before,
            terminated: self.won,
            truncated: !self.won && self.steps >= self.config.step_cap,
        }
    }

    fn move_ball(&mut self, d: Direction) {
        if self.won {
            return;
        }
        let (dr, dc) = match d {
            Direction::Up => (-1, 0),
            Direction::Down => (1, 0),
            Direction::Left => (0, -1),
            Direction::Right => (0, 1),
        };
        let (r, c) = (self.ball.0 as i64 + dr, self.ball.1 as i64 + dc);
        let n = SIZE as i64;
        if r < 0 || r >= n || c < 0 || c >= n || !self.grid[r as usize][c as usize] {
            return;
        }
        self.ball = (r as usize, c as usize);
        self.moves += 1;
        if self.ball == self.target {
            self.won = true;
        }
    }

    /// The reference's score: 1 on the target, else max(0, 1 − d/d₀).
    fn evaluate(&self) -> f64 {
        if self.ball == self.target || self.won {
            return 1.0;
        }
        let d = self.distance();
        if d == 0 {
            1.0
        } else if d < 0 || self.initial_distance <= 0 {
            0.0
        } else {
            (1.0 - d as f64 / self.initial_distance as f64).max(0.0)
        }
    }

    /// Shortest-path steps from the ball to the target.
    pub fn distance(&self) -> i64 {
        shortest_distance(&self.grid, self.ball, self.target)
    }

    /// The score in 0-1 (the reference's `evaluate`).
    pub fn score(&self) -> f64 {
        self.score
    }

    /// The paper's 0-100 score.
    pub fn normalized_score(&self) -> f64 {
        100.0 * self.score
    }

    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    pub fn ball(&self) -> Cell {
        self.ball
    }

    pub fn target(&self) -> Cell {
        self.target
    }

    pub fn initial_distance(&self) -> i64 {
        self.initial_distance
    }

    /// Moves that moved the ball.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    pub fn won(&self) -> bool {
        self.won
    }

    pub fn steps(&self) -> u32 {
        self.steps
    }

    pub fn config(&self) -> &MazeConfig {
        &self.config
    }

    /// The reference's observation text (`MazeObs.to_text`), which GameVerse's memory
    /// agent keeps: the ball, the target, the shortest path at the start and whether
    /// the ball is on the target.
    pub fn observation_text(&self) -> String {
        let py_bool = if self.won { "True" } else { "False" };
        format!(
            "Maze - Ball: ({}, {}), Target: ({}, {}), Steps: {}, Terminated: {py_bool}",
            self.ball.0, self.ball.1, self.target.0, self.target.1, self.initial_distance
        )
    }

    /// The placeholder values the game supplies to its prompts (the reference's
    /// `get_game_info`); `{action}` and `{reflection_experience}` come from the agent.
    pub fn prompt_values(&self) -> Vec<(&'static str, String)> {
        vec![
            ("task_description", TASK.to_string()),
            ("maze_size", SIZE.to_string()),
            ("best_steps", self.initial_distance.to_string()),
            ("current_steps", self.moves.to_string()),
        ]
    }

    /// The driver's state: grid rows (`#` wall, `.` open), agent, goal, distance.
    pub fn state_json(&self) -> Value {
        let rows: Vec<String> = self
            .grid
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&open| if open { '.' } else { '#' })
                    .collect()
            })
            .collect();
        json!({
            "grid": rows,
            "agent": [self.ball.0, self.ball.1],
            "goal": [self.target.0, self.target.1],
            "distance": self.distance(),
        })
    }

    /// Draws the 500×500 observation; `drawn` is what the caller's frame last showed
    /// ([`render::Drawn`]).
    pub fn render(&self, frame: &mut Frame, drawn: &mut render::Drawn) {
        render::draw(&self.grid, self.ball, self.target, frame, drawn);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gui_replies_need_one_press_of_a_direction() {
        let gui = |t: &str| Maze::parse_action(ActionMode::Gui, t);
        assert_eq!(
            gui("{\"action_type\": \"press\", \"parameters\": {\"key\": \"UP\"}}"),
            Some(Direction::Up)
        );
        assert_eq!(
            gui("[{\"action_type\": \"PRESS\", \"parameters\": {\"key\": \"up\"}}]"),
            None
        );
        assert_eq!(
            gui("{\"action_type\": \"CLICK\", \"parameters\": {\"key\": \"up\"}}"),
            None
        );
        assert_eq!(gui("up"), None);
    }
}
