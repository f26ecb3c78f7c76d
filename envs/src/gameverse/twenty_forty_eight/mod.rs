//! GameVerse's 2048: a 4×4 board, one tile spawned after every move that changes it, the
//! game won at the 2048 tile and lost on a full board without merges or after five
//! consecutive moves that change nothing. The reference draws spawns from CPython's
//! module-level `random` and never seeds it; here `reset(Some(s))` is `random.seed(s)`
//! followed by a new game, and `reset(None)` starts a new game from where the generator
//! is (a new environment starts as if reset with seed 0).
//!
//! Both action modes read the reply with the same direction reader
//! ([`crate::gameverse::direction_words`]); GUI replies move because `up` etc. appear as
//! words in `{"key": "up"}`. A reply that names no direction sends no key: the step is
//! used and nothing changes, not even the count of unchanged moves.

mod env;
mod oracle;
mod render;

pub use env::{TwentyFortyEightEnv, ID};
pub use oracle::{best_move, demonstration};

use serde_json::{json, Value};

use super::direction_words::{first_direction, Direction};
use super::prompt::PromptTemplates;
use super::{ActionMode, StepResult};
use crate::core::agent_prompts::MemoryTemplates;
use crate::rng::PyRandom;
use crate::Frame;

/// GameVerse's runner stops a 2048 episode after this many steps.
pub const STEP_CAP: u32 = 1000;
/// The tile that wins.
pub const TARGET_TILE: u32 = 2048;
/// Consecutive unchanged moves that end the game.
pub const UNCHANGED_LIMIT: u32 = 5;
/// The paper normalizes the merge score by this (App. D.3), clipped to 0-100.
pub const SCORE_SCALE: f64 = 20000.0;
/// The observation is a 500×500 window.
pub const FRAME_SIZE: u32 = 500;
/// `{task_description}` of the prompts.
pub const TASK: &str = "Merge tiles to make a tile with the value of 2048";

pub type Board = [[u32; 4]; 4];

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Play,
    Win,
    Lose,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Play => "PLAY",
            Status::Win => "WIN",
            Status::Lose => "LOSE",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TwentyFortyEightConfig {
    pub action_mode: ActionMode,
    pub step_cap: u32,
}

impl Default for TwentyFortyEightConfig {
    fn default() -> Self {
        TwentyFortyEightConfig {
            action_mode: ActionMode::Semantic,
            step_cap: STEP_CAP,
        }
    }
}

/// The zero-shot prompt templates of an action mode.
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
pub struct TwentyFortyEight {
    config: TwentyFortyEightConfig,
    rng: PyRandom,
    board: Board,
    score: u64,
    unchanged_moves: u32,
    status: Status,
    steps: u32,
}

/// Slides the non-zero values of a row to the front, in order.
fn shift_left(row: &mut [u32; 4]) {
    let mut out = [0; 4];
    for (slot, v) in out.iter_mut().zip(row.iter().copied().filter(|&v| v != 0)) {
        *slot = v;
    }
    *row = out;
}

/// Left move of one board: slide, merge each pair once from the left, slide.
fn move_left(board: &mut Board) -> u64 {
    let mut gained = 0;
    for row in board.iter_mut() {
        shift_left(row);
        for j in 0..3 {
            if row[j] != 0 && row[j] == row[j + 1] {
                row[j] *= 2;
                gained += u64::from(row[j]);
                row[j + 1] = 0;
            }
        }
        shift_left(row);
    }
    gained
}

/// Right move: the mirror of the left one (merges start at the right edge).
fn move_right(board: &mut Board) -> u64 {
    let mut gained = 0;
    for row in board.iter_mut() {
        row.reverse();
        shift_left(row);
        for j in 0..3 {
            if row[j] != 0 && row[j] == row[j + 1] {
                row[j] *= 2;
                gained += u64::from(row[j]);
                row[j + 1] = 0;
            }
        }
        shift_left(row);
        row.reverse();
    }
    gained
}

/// Quarter turn counter-clockwise (the reference moves up and down by turning the board,
/// moving left or right, and turning it back).
fn rotate_ccw(board: &Board) -> Board {
    let mut out = [[0; 4]; 4];
    for (k, row) in out.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().enumerate() {
            *cell = board[j][3 - k];
        }
    }
    out
}

fn rotate_cw(board: &Board) -> Board {
    rotate_ccw(&rotate_ccw(&rotate_ccw(board)))
}

/// The board after a move and the merge points it earns.
pub fn slide(board: &Board, direction: Direction) -> (Board, u64) {
    let mut b = *board;
    let gained = match direction {
        Direction::Left => move_left(&mut b),
        Direction::Right => move_right(&mut b),
        Direction::Up | Direction::Down => {
            let mut turned = rotate_ccw(&b);
            let g = if direction == Direction::Up {
                move_left(&mut turned)
            } else {
                move_right(&mut turned)
            };
            b = rotate_cw(&turned);
            g
        }
    };
    (b, gained)
}

/// The status the reference computes after a move that changed the board.
pub fn status_of(board: &Board) -> Status {
    if board.iter().flatten().any(|&v| v == TARGET_TILE) {
        return Status::Win;
    }
    for i in 0..4 {
        for j in 0..4 {
            if (j != 3 && board[i][j] == board[i][j + 1])
                || (i != 3 && board[i][j] == board[i + 1][j])
            {
                return Status::Play;
            }
        }
    }
    if board.iter().flatten().any(|&v| v == 0) {
        Status::Play
    } else {
        Status::Lose
    }
}

/// One spawn, drawn as the reference draws it: row then column with `randint(0, 3)` until
/// the cell is empty; a 2 without a further draw while the tiles sum to 0 or 2 (the two
/// starting tiles), else a 2 if `random() < 0.9` and a 4 otherwise.
fn spawn(board: &mut Board, rng: &mut PyRandom) {
    if !board.iter().flatten().any(|&v| v == 0) {
        return;
    }
    let draw = |rng: &mut PyRandom| rng.randint(0, 3).map_or(0, |v| v as usize);
    let (mut a, mut b) = (draw(rng), draw(rng));
    while board[a][b] != 0 {
        a = draw(rng);
        b = draw(rng);
    }
    let sum: u32 = board.iter().flatten().sum();
    board[a][b] = if sum == 0 || sum == 2 || rng.random() < 0.9 {
        2
    } else {
        4
    };
}

impl TwentyFortyEight {
    pub fn new(config: TwentyFortyEightConfig) -> Self {
        let mut game = TwentyFortyEight {
            config,
            rng: PyRandom::new(0),
            board: [[0; 4]; 4],
            score: 0,
            unchanged_moves: 0,
            status: Status::Play,
            steps: 0,
        };
        game.reset(Some(0));
        game
    }

    /// A new game: `Some(seed)` reseeds the generator first, `None` continues it.
    pub fn reset(&mut self, seed: Option<u64>) {
        if let Some(seed) = seed {
            self.rng = PyRandom::new(seed);
        }
        self.board = [[0; 4]; 4];
        spawn(&mut self.board, &mut self.rng);
        spawn(&mut self.board, &mut self.rng);
        self.score = 0;
        self.unchanged_moves = 0;
        self.status = Status::Play;
        self.steps = 0;
    }

    /// The move a reply makes (the same reader in both action modes).
    pub fn parse_action(text: &str) -> Option<Direction> {
        first_direction(text)
    }

    /// One step with the text under `### Actions`.
    pub fn step(&mut self, action_text: &str) -> StepResult {
        self.step_direction(Self::parse_action(action_text))
    }

    /// One step with the move already read (`None`: the reply named no direction).
    pub fn step_direction(&mut self, direction: Option<Direction>) -> StepResult {
        let before = self.score;
        self.steps += 1;
        if let Some(d) = direction {
            self.press(d);
        }
        let terminated = self.status != Status::Play;
        StepResult {
            reward: (self.score - before) as f64,
            terminated,
            truncated: !terminated && self.steps >= self.config.step_cap,
        }
    }

    /// The game's handling of an arrow key.
    fn press(&mut self, direction: Direction) {
        if self.status != Status::Play {
            return;
        }
        let (moved, gained) = slide(&self.board, direction);
        if moved != self.board {
            self.unchanged_moves = 0;
            self.board = moved;
            spawn(&mut self.board, &mut self.rng);
            self.score += gained;
            self.status = status_of(&self.board);
        } else {
            self.unchanged_moves += 1;
            if self.unchanged_moves >= UNCHANGED_LIMIT {
                self.status = Status::Lose;
            }
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The merge score (the reference's `evaluate`).
    pub fn score(&self) -> u64 {
        self.score
    }

    /// The paper's 0-100 score: merge score / 20000, clipped.
    pub fn normalized_score(&self) -> f64 {
        (100.0 * self.score as f64 / SCORE_SCALE).clamp(0.0, 100.0)
    }

    pub fn status(&self) -> Status {
        self.status
    }

    pub fn unchanged_moves(&self) -> u32 {
        self.unchanged_moves
    }

    pub fn game_over(&self) -> bool {
        self.status != Status::Play
    }

    pub fn steps(&self) -> u32 {
        self.steps
    }

    pub fn config(&self) -> &TwentyFortyEightConfig {
        &self.config
    }

    /// The reference's observation text (`TwentyFourtyEightObs.to_text`), which
    /// GameVerse's memory agent keeps: the rows as Python lists and the score.
    pub fn observation_text(&self) -> String {
        let rows: Vec<String> = self
            .board
            .iter()
            .map(|row| {
                let cells: Vec<String> = row.iter().map(u32::to_string).collect();
                format!("[{}]", cells.join(", "))
            })
            .collect();
        format!(
            "Board of 2048 Games: \n {} \n {} \n {} \n {} \n Score: {}",
            rows[0], rows[1], rows[2], rows[3], self.score
        )
    }

    /// The placeholder values the game supplies to its prompts (the reference's
    /// `get_game_info`); `{action}` and `{reflection_experience}` come from the agent.
    pub fn prompt_values(&self) -> Vec<(&'static str, String)> {
        vec![("task_description", TASK.to_string())]
    }

    /// The driver's state: board, score, unchanged moves, game over.
    pub fn state_json(&self) -> Value {
        json!({
            "board": self.board,
            "score": self.score,
            "unchanged_moves": self.unchanged_moves,
            "game_over": self.game_over(),
        })
    }

    /// Draws the window: 500×500 (the frame is resized to it).
    pub fn render(&self, frame: &mut Frame) {
        render::draw(&self.board, self.status, frame);
    }

    /// Places a board (for tests and demonstrations that start from a given position).
    pub fn set_board(&mut self, board: Board) {
        self.board = board;
        self.status = Status::Play;
        self.unchanged_moves = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Direction::*;

    #[test]
    fn moves_merge_once_from_the_moving_side() {
        let row = |r: [u32; 4], d| {
            let (b, g) = slide(&[r, [0; 4], [0; 4], [0; 4]], d);
            (b[0], g)
        };
        assert_eq!(row([2, 2, 2, 2], Left), ([4, 4, 0, 0], 8));
        assert_eq!(row([4, 4, 8, 0], Left), ([8, 8, 0, 0], 8));
        assert_eq!(row([2, 0, 2, 4], Left), ([4, 4, 0, 0], 4));
        assert_eq!(row([2, 2, 2, 0], Right), ([0, 0, 2, 4], 4));
        let (b, _) = slide(
            &[[2, 0, 0, 0], [2, 0, 0, 0], [4, 0, 0, 0], [4, 0, 0, 0]],
            Up,
        );
        assert_eq!(b, [[4, 0, 0, 0], [8, 0, 0, 0], [0; 4], [0; 4]]);
        let (b, _) = slide(&[[2, 0, 0, 0], [2, 0, 0, 0], [2, 0, 0, 0], [0; 4]], Down);
        assert_eq!(b, [[0; 4], [0; 4], [2, 0, 0, 0], [4, 0, 0, 0]]);
    }

    #[test]
    fn win_and_loss_statuses() {
        assert_eq!(
            status_of(&[[2048, 0, 0, 0], [0; 4], [0; 4], [0; 4]]),
            Status::Win
        );
        let full = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]];
        assert_eq!(status_of(&full), Status::Lose);
        let mut g = TwentyFortyEight::new(TwentyFortyEightConfig::default());
        g.set_board([[1024, 1024, 0, 0], [0; 4], [0; 4], [0; 4]]);
        let r = g.step("left");
        assert!(r.terminated && g.status() == Status::Win && r.reward == 2048.0);
        assert_eq!(g.step("right").reward, 0.0);
    }

    #[test]
    fn unchanged_moves_end_the_game_and_unreadable_replies_do_not_count() {
        let mut g = TwentyFortyEight::new(TwentyFortyEightConfig::default());
        g.set_board([[2, 0, 0, 0], [0; 4], [0; 4], [0; 4]]);
        for i in 1..=4 {
            assert!(!g.step("left").terminated);
            assert!(!g.step("move left").terminated);
            assert_eq!(g.unchanged_moves(), i);
        }
        assert!(g.step("up").terminated);
        assert_eq!(g.status(), Status::Lose);
    }
}
