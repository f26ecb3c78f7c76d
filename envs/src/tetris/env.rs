//! The Tetris environment of tetris-gymnasium 0.3.1 (`tetris_gymnasium/Tetris`): a padded
//! board, gravity after every action but the hard drop, a 7-bag, a queue of four and a
//! holder of one. Integer throughout; the only randomness is the bag's shuffles.

use std::collections::VecDeque;

use serde_json::{json, Value};

use crate::core::error::EnvError;
use crate::core::kwargs::Kwargs;

use super::bag::Bag;
use super::pieces::{Piece, BEDROCK, EMPTY, PADDING};
use super::{ACTION_NAMES, HARD_DROP, ID, SWAP};

/// Upcoming pieces shown to the player.
pub const QUEUE_SIZE: usize = 4;

/// Reward for each locked piece that does not end the game (the package's `alife`).
const ALIVE_REWARD: f64 = 1.0;
/// Reward of the lock that ends the game.
const GAME_OVER_REWARD: f64 = 0.0;

/// Constructor kwargs as the package names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TetrisConfig {
    pub width: usize,
    pub height: usize,
    pub gravity: bool,
    pub render_upscale: u32,
}

impl Default for TetrisConfig {
    fn default() -> Self {
        Self {
            width: 10,
            height: 20,
            gravity: true,
            render_upscale: 10,
        }
    }
}

impl TetrisConfig {
    /// The package's kwargs, each optional (unknown keys are left for `Kwargs::finish`).
    pub fn from_kwargs(kw: &mut Kwargs) -> Result<Self, EnvError> {
        let d = Self::default();
        Ok(Self {
            width: kw.value("width", "a whole number", d.width)?,
            height: kw.value("height", "a whole number", d.height)?,
            gravity: kw.bool("gravity", d.gravity)?,
            render_upscale: kw.value("render_upscale", "a whole number", d.render_upscale)?,
        })
    }
}

/// The observation dict, every array row-major uint8.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TetrisObservation {
    /// Rows and columns of `board` and `active_tetromino_mask` (padding included).
    pub rows: usize,
    pub cols: usize,
    /// Locked cells plus the active piece (unless it overlaps something).
    pub board: Vec<u8>,
    /// 1 on the whole square box of the active piece's matrix.
    pub active_tetromino_mask: Vec<u8>,
    /// 4×4: the held piece's matrix padded with 0, or all 1 when nothing is held.
    pub holder: Vec<u8>,
    /// 4×16: the queued pieces' spawn matrices side by side.
    pub queue: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StepResult {
    pub obs: TetrisObservation,
    pub reward: f64,
    pub terminated: bool,
    pub truncated: bool,
    /// `{"lines_cleared": n}`.
    pub info: Value,
}

/// The active piece as it is turned, and the top-left corner of its matrix on the padded
/// board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Placement {
    pub piece: Piece,
    pub x: usize,
    pub y: usize,
}

#[derive(Clone, Debug)]
pub struct Tetris {
    config: TetrisConfig,
    rows: usize,
    cols: usize,
    board: Vec<u8>,
    active: Piece,
    x: usize,
    y: usize,
    queue: VecDeque<usize>,
    holder: Option<Piece>,
    has_swapped: bool,
    game_over: bool,
    bag: Bag,
    /// Rows cleared by the last step (the info dict's `lines_cleared`).
    lines_cleared: usize,
    was_reset: bool,
}

impl Tetris {
    pub fn with_config(config: TetrisConfig) -> Result<Self, EnvError> {
        // The frame's side panel stacks the queue and the holder (4 rows each) beside the
        // board's height + 4 rows, so the well needs at least 4 rows.
        if !(1..=100).contains(&config.width) || !(PADDING..=100).contains(&config.height) {
            return Err(EnvError::BadKwargs(format!(
                "{ID}: width must be 1..=100 and height 4..=100, got {}×{}",
                config.width, config.height
            )));
        }
        if !(1..=64).contains(&config.render_upscale) {
            return Err(EnvError::BadKwargs(format!(
                "{ID}: render_upscale must be 1..=64, got {}",
                config.render_upscale
            )));
        }
        let rows = config.height + PADDING;
        let cols = config.width + 2 * PADDING;
        let mut env = Self {
            config,
            rows,
            cols,
            board: Vec::new(),
            active: Piece::spawn(0),
            x: 0,
            y: 0,
            queue: VecDeque::with_capacity(QUEUE_SIZE + 1),
            holder: None,
            has_swapped: false,
            game_over: false,
            bag: Bag::default(),
            lines_cleared: 0,
            was_reset: false,
        };
        env.board = env.empty_board();
        Ok(env)
    }

    pub fn config(&self) -> &TetrisConfig {
        &self.config
    }

    fn empty_board(&self) -> Vec<u8> {
        let mut board = vec![BEDROCK; self.rows * self.cols];
        for r in 0..self.config.height {
            board[r * self.cols + PADDING..r * self.cols + PADDING + self.config.width].fill(EMPTY);
        }
        board
    }

    /// The package's `reset`: only `seed > 0` reseeds the bag's generator (see
    /// [`Bag::reset`]). Its observation and info are [`Self::observation_dict`] and
    /// [`Self::info`], built only when asked for.
    pub fn start(&mut self, seed: Option<u64>) {
        self.board = self.empty_board();
        self.game_over = false;
        self.bag.reset(seed);
        self.queue.clear();
        for _ in 0..QUEUE_SIZE {
            self.queue.push_back(self.bag.next_piece());
        }
        self.active = Piece::spawn(self.next_from_queue());
        self.place_at_spawn();
        self.holder = None;
        self.has_swapped = false;
        self.lines_cleared = 0;
        self.was_reset = true;
    }

    fn next_from_queue(&mut self) -> usize {
        let head = self.queue.pop_front().unwrap_or(0);
        self.queue.push_back(self.bag.next_piece());
        head
    }

    fn place_at_spawn(&mut self) {
        self.x = self.spawn_x(&self.active);
        self.y = 0;
    }

    fn spawn_x(&self, piece: &Piece) -> usize {
        self.cols / 2 - piece.size() / 2
    }

    /// Whether `piece` at (x, y) overlaps a non-empty cell (outside the array counts as
    /// bedrock; the padding keeps legal pieces inside it).
    pub(super) fn collides(&self, piece: &Piece, x: usize, y: usize) -> bool {
        let n = piece.size();
        (0..n).any(|r| {
            (0..n).any(|c| {
                piece.cell(r, c) != EMPTY
                    && (y + r >= self.rows
                        || x + c >= self.cols
                        || self.board[(y + r) * self.cols + x + c] != EMPTY)
            })
        })
    }

    /// The active piece where it is.
    pub fn placement(&self) -> Placement {
        Placement {
            piece: self.active,
            x: self.x,
            y: self.y,
        }
    }

    /// A move or turn (actions 0..=4 and 7, before gravity): the placement it leads to on
    /// the current board, unchanged when blocked.
    pub(super) fn moved(&self, p: Placement, action: usize) -> Placement {
        let Placement { piece, x, y } = p;
        match action {
            0 if x > 0 && !self.collides(&piece, x - 1, y) => Placement { x: x - 1, ..p },
            1 if !self.collides(&piece, x + 1, y) => Placement { x: x + 1, ..p },
            2 if !self.collides(&piece, x, y + 1) => Placement { y: y + 1, ..p },
            3 | 4 => {
                let turned = piece.rotated(action == 3);
                if self.collides(&turned, x, y) {
                    p
                } else {
                    Placement { piece: turned, ..p }
                }
            }
            _ => p,
        }
    }

    /// Gravity: one row down, or `None` when the piece cannot fall (it locks).
    pub(super) fn fallen(&self, p: Placement) -> Option<Placement> {
        (!self.collides(&p.piece, p.x, p.y + 1)).then_some(Placement { y: p.y + 1, ..p })
    }

    /// Where a piece comes to rest when dropped from `p`.
    pub(super) fn dropped(&self, mut p: Placement) -> Placement {
        while let Some(next) = self.fallen(p) {
            p = next;
        }
        p
    }

    /// The package's `step`.
    pub fn play(&mut self, action: usize) -> Result<StepResult, EnvError> {
        let reward = self.advance(action)?;
        Ok(StepResult {
            obs: self.observation_dict(),
            reward,
            terminated: self.game_over,
            truncated: false,
            info: self.info(),
        })
    }

    /// [`Tetris::play`]'s move without building its observation and info: the reward.
    pub fn advance(&mut self, action: usize) -> Result<f64, EnvError> {
        if !self.was_reset {
            return Err(EnvError::NotReset);
        }
        if action >= ACTION_NAMES.len() {
            return Err(EnvError::InvalidAction(format!(
                "action {action} is out of range: {ID} has actions 0..{}",
                ACTION_NAMES.len() - 1
            )));
        }
        let mut reward = 0.0;
        let mut lines = 0;
        match action {
            HARD_DROP => (reward, lines) = self.commit(),
            SWAP => self.swap(),
            _ => {
                let p = self.moved(self.placement(), action);
                (self.active, self.x, self.y) = (p.piece, p.x, p.y);
            }
        }
        if self.config.gravity && action != HARD_DROP {
            match self.fallen(self.placement()) {
                Some(p) => self.y = p.y,
                None => (reward, lines) = self.commit(),
            }
        }
        self.lines_cleared = lines;
        Ok(reward)
    }

    /// The info dict of the last reset or step.
    pub fn info(&self) -> Value {
        json!({ "lines_cleared": self.lines_cleared })
    }

    /// Hold: the active piece (as it is turned) goes into the holder and the held one, or
    /// the next queued one, comes in at its spawn position without a collision test.
    fn swap(&mut self) {
        if self.has_swapped {
            return;
        }
        let incoming = self.holder.replace(self.active);
        self.active = match incoming {
            Some(piece) => piece,
            None => Piece::spawn(self.next_from_queue()),
        };
        self.place_at_spawn();
        self.has_swapped = true;
    }

    /// Locks the active piece (dropped as far as it goes), clears full rows and spawns the
    /// next piece. Returns (reward, lines cleared).
    fn commit(&mut self) -> (f64, usize) {
        if self.collides(&self.active, self.x, self.y) {
            self.game_over = true;
            return (GAME_OVER_REWARD, 0);
        }
        self.y = self.dropped(self.placement()).y;
        let mut board = vec![EMPTY; self.board.len()];
        self.write_projected(&mut board);
        self.board = board;
        let lines = self.clear_full_rows();
        let width = self.config.width as f64;
        let mut reward = (lines * lines) as f64 * width;
        self.active = Piece::spawn(self.next_from_queue());
        self.place_at_spawn();
        self.game_over = self.collides(&self.active, self.x, self.y);
        reward += ALIVE_REWARD;
        if self.game_over {
            reward = GAME_OVER_REWARD;
        }
        self.has_swapped = false;
        (reward, lines)
    }

    /// Removes rows with no empty cell that are not all bedrock, adding fresh rows on top.
    fn clear_full_rows(&mut self) -> usize {
        let cols = self.cols;
        let kept: Vec<&[u8]> = self
            .board
            .chunks_exact(cols)
            .filter(|row| row.contains(&EMPTY) || row.iter().all(|&v| v == BEDROCK))
            .collect();
        let lines = self.rows - kept.len();
        if lines == 0 {
            return 0;
        }
        let mut board = Vec::with_capacity(self.board.len());
        for _ in 0..lines {
            board.extend((0..cols).map(|c| {
                if (PADDING..cols - PADDING).contains(&c) {
                    EMPTY
                } else {
                    BEDROCK
                }
            }));
        }
        for row in kept {
            board.extend_from_slice(row);
        }
        self.board = board;
        lines
    }

    /// Writes the board with the active piece added, unless the piece overlaps
    /// something, into `out` (as long as the board).
    fn write_projected<T: From<u8>>(&self, out: &mut [T]) {
        for (o, &v) in out.iter_mut().zip(&self.board) {
            *o = T::from(v);
        }
        if self.collides(&self.active, self.x, self.y) {
            return;
        }
        let n = self.active.size();
        for r in 0..n {
            for c in 0..n {
                let v = self.active.cell(r, c);
                if v != EMPTY {
                    out[(self.y + r) * self.cols + self.x + c] = T::from(v);
                }
            }
        }
    }

    /// Writes 1 on the active piece's whole square box into `out` (as long as the
    /// board, all 0).
    fn write_mask<T: From<u8>>(&self, out: &mut [T]) {
        let n = self.active.size();
        for r in self.y..(self.y + n).min(self.rows) {
            for c in self.x..(self.x + n).min(self.cols) {
                out[r * self.cols + c] = T::from(1);
            }
        }
    }

    /// Appends the holder (the held piece padded, or all bedrock) and the queue.
    fn push_holder_and_queue<T: From<u8> + Copy>(&self, out: &mut Vec<T>) {
        match &self.holder {
            Some(piece) => push_padded_row(std::iter::once(*piece), out),
            None => out.extend(std::iter::repeat_n(T::from(BEDROCK), PADDING * PADDING)),
        }
        push_padded_row(self.queue.iter().map(|&i| Piece::spawn(i)), out);
    }

    /// The package's observation dict.
    pub fn observation_dict(&self) -> TetrisObservation {
        let mut board = vec![EMPTY; self.board.len()];
        self.write_projected(&mut board);
        let mut mask = vec![0; board.len()];
        self.write_mask(&mut mask);
        let mut holder = Vec::new();
        self.push_holder_and_queue(&mut holder);
        let queue = holder.split_off(PADDING * PADDING);
        TetrisObservation {
            rows: self.rows,
            cols: self.cols,
            board,
            active_tetromino_mask: mask,
            holder,
            queue,
        }
    }

    /// The observation dict flattened as floats (`board`, `active_tetromino_mask`,
    /// `holder`, `queue`), written straight into one vector: a step builds no dict.
    pub fn observation_floats(&self) -> Vec<f32> {
        let cells = self.board.len();
        let pieces = PADDING * PADDING * (1 + self.queue.len());
        let mut out = vec![0.0; 2 * cells];
        out.reserve(pieces);
        let (board, mask) = out.split_at_mut(cells);
        self.write_projected(board);
        self.write_mask(mask);
        self.push_holder_and_queue(&mut out);
        out
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The locked cells (without the active piece), row-major, padding included.
    pub fn locked_board(&self) -> &[u8] {
        &self.board
    }

    /// The queued piece indices (0..7, I O T S Z J L), next first.
    pub fn queue(&self) -> impl Iterator<Item = usize> + '_ {
        self.queue.iter().copied()
    }

    /// The held piece, if any.
    pub fn holder(&self) -> Option<Piece> {
        self.holder
    }

    pub fn has_swapped(&self) -> bool {
        self.has_swapped
    }

    pub fn game_over(&self) -> bool {
        self.game_over
    }

    /// The driver's STATE: locked board, active piece, queue, holder, flags and bag.
    pub fn state_json(&self) -> Value {
        let board: Vec<String> = self
            .board
            .chunks_exact(self.cols)
            .map(|row| row.iter().map(|&v| char::from(b'0' + v)).collect())
            .collect();
        let queue: Vec<u8> = self
            .queue
            .iter()
            .map(|&i| Piece::spawn(i).value())
            .collect();
        let holder = match &self.holder {
            Some(p) => json!({ "id": p.value(), "matrix": p.rows() }),
            None => Value::Null,
        };
        json!({
            "board": board,
            "active": {
                "id": self.active.value(),
                "matrix": self.active.rows(),
                "x": self.x,
                "y": self.y,
            },
            "queue": queue,
            "holder": holder,
            "has_swapped": self.has_swapped,
            "game_over": self.game_over,
            "bag": self.bag.pieces(),
            "bag_index": self.bag.index(),
        })
    }
}

/// Appends `pieces` side by side, each padded with 0 to 4×4 (top-left aligned): 4 rows.
fn push_padded_row<T: From<u8> + Copy>(
    pieces: impl ExactSizeIterator<Item = Piece> + Clone,
    out: &mut Vec<T>,
) {
    let width = PADDING * pieces.len();
    let start = out.len();
    out.resize(start + PADDING * width, T::from(EMPTY));
    for (k, p) in pieces.enumerate() {
        for r in 0..p.size() {
            for c in 0..p.size() {
                out[start + r * width + k * PADDING + c] = T::from(p.cell(r, c));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh() -> Tetris {
        Tetris::with_config(TetrisConfig::default()).unwrap()
    }

    #[test]
    fn seed_one_reset() {
        let mut env = fresh();
        env.start(Some(1));
        let s = env.state_json();
        assert_eq!(s["active"]["id"], 7);
        assert_eq!(s["active"]["x"], 8);
        assert_eq!(s["queue"], json!([2, 3, 6, 4]));
        assert_eq!(s["bag"], json!([5, 0, 1, 4, 2, 6, 3]));
        assert_eq!(s["bag_index"], 5);
        assert_eq!(s["board"][0], "111100000000001111");
        assert_eq!(s["board"][23], "111111111111111111");
    }

    #[test]
    fn hard_drop_locks_at_the_bottom_and_spawns_the_next_piece() {
        let mut env = fresh();
        env.start(Some(1));
        let s = env.play(5).unwrap();
        assert_eq!(s.reward, 1.0);
        assert!(!s.terminated);
        let st = env.state_json();
        assert_eq!(st["board"][18], "111100007000001111");
        assert_eq!(st["board"][19], "111100007770001111");
        assert_eq!(st["active"]["id"], 2);
        assert_eq!(st["active"]["y"], 0);
    }

    #[test]
    fn gravity_moves_one_row_and_move_down_two() {
        let mut env = fresh();
        env.start(Some(1));
        env.play(7).unwrap();
        assert_eq!(env.state_json()["active"]["y"], 1);
        env.play(2).unwrap();
        assert_eq!(env.state_json()["active"]["y"], 3);
    }

    #[test]
    fn swap_holds_once_per_piece() {
        let mut env = fresh();
        env.start(Some(1));
        env.play(6).unwrap();
        let st = env.state_json();
        assert_eq!(st["holder"]["id"], 7);
        assert_eq!(st["active"]["id"], 2);
        assert_eq!(st["has_swapped"], true);
        env.play(6).unwrap();
        assert_eq!(env.state_json()["active"]["id"], 2);
        assert_eq!(env.observation_dict().holder[..4], [7, 0, 0, 0]);
    }

    #[test]
    fn the_floats_are_the_flattened_dict() {
        let mut env = fresh();
        env.start(Some(3));
        let mut rng = crate::rng::NpRandom::seeded(7);
        for t in 0..400 {
            let dict = env.observation_dict();
            let flat: Vec<f32> = [
                &dict.board,
                &dict.active_tetromino_mask,
                &dict.holder,
                &dict.queue,
            ]
            .iter()
            .flat_map(|p| p.iter().map(|&v| f32::from(v)))
            .collect();
            assert_eq!(env.observation_floats(), flat, "step {t}");
            if env.game_over() {
                env.start(None);
            } else {
                env.advance(rng.index(ACTION_NAMES.len()).unwrap()).unwrap();
            }
        }
        assert!(env.holder().is_some(), "the walk held a piece");
    }

    #[test]
    fn stepping_before_reset_and_bad_actions_are_errors() {
        let mut env = fresh();
        assert_eq!(env.play(0), Err(EnvError::NotReset));
        env.start(Some(1));
        assert!(matches!(env.play(8), Err(EnvError::InvalidAction(_))));
        let make = |kwargs: &str| crate::make(ID, &serde_json::from_str(kwargs).unwrap());
        assert!(make(r#"{"width": 0}"#).is_err());
        assert!(make(r#"{"width": 2.5}"#).is_err());
        assert!(make(r#"{"colour": 1}"#).is_err());
        assert!(make(r#"{"width": 7, "height": 12, "gravity": false}"#).is_ok());
    }

    #[test]
    fn frame_is_the_wrapper_layout() {
        let mut env = fresh();
        env.start(Some(1));
        let mut frame = crate::Frame::default();
        env.draw(&mut frame);
        assert_eq!((frame.width(), frame.height()), (340, 240));
        // Bedrock left of the well, the J at the top, the queue's I in the panel.
        assert_eq!(frame.get(5, 5), Some([128, 128, 128]));
        assert_eq!(frame.get(85, 5), Some([0, 0, 240]));
        assert_eq!(frame.get(185, 15), Some([0, 240, 240]));
        // An empty holder is bedrock grey.
        assert_eq!(frame.get(185, 235), Some([128, 128, 128]));
    }
}
