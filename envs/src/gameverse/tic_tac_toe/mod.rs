//! GameVerse's Tic-Tac-Toe (`GameVerse/TicTacToe`): the agent plays `player_mark` (X by
//! default) against GameVerse's deterministic minimax opponent; X always moves first.
//! Rules, the opponent, the action text and the scores follow `docs/environments.md`
//! ("GameVerse Tic-Tac-Toe"). Cells are (row, column), rows A-C from the top, columns
//! 1-3 from the left: `B3` is row 1, column 2 (0-based). In GUI mode a reply is a JSON
//! click on the 500×500 frame ([`gui`]).

pub mod gui;

use serde_json::{json, Value};

use crate::core::action::{ActionError, ActionFn, ArgKind, ArgSpec, ArgValue};
use crate::core::agent_prompts::AgentPrompts;
use crate::core::env::{
    Action, ActionSpace, Env, Info, KeyBinding, Observation, Reset, Signals, Step, Words,
};
use crate::core::error::EnvError;
use crate::core::frame::{Frame, Rgb};
use crate::core::input::{Gesture, GridGeometry, PointerMode};
use crate::core::oracle::{Control, Solver};
use crate::gameverse::gui_action::click_text;
use crate::gameverse::prompt::{agent_prompts, PromptTemplates};
use crate::gameverse::ActionMode;
use crate::render::font::draw_text;
use crate::render::raster::fill_rect;
use gui::{Click, Landing};

/// The game's name inside GameVerse (its reflection and judge prompts use it).
pub const GAME_NAME: &str = "TicTacToe";

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

/// The board as drawn: 150-pixel cells from (50, 50) on a 500×500 frame.
pub const GRID: GridGeometry = GridGeometry {
    left: 50.0,
    top: 50.0,
    cell_width: 150.0,
    cell_height: 150.0,
    rows: 3,
    cols: 3,
};
const SIZE: u32 = 500;
/// The reference ends the game as a loss on a 10th agent step (it cannot happen in a
/// legal game; it guards against stepping forever).
const SAFETY_STEPS: u32 = 9;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    X,
    O,
}

impl Mark {
    fn other(self) -> Self {
        match self {
            Self::X => Self::O,
            Self::O => Self::X,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::X => "X",
            Self::O => "O",
        }
    }
}

/// How the game stands, from the agent's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ongoing,
    Win,
    Loss,
    Draw,
}

impl Outcome {
    fn name(self) -> &'static str {
        match self {
            Self::Ongoing => "ongoing",
            Self::Win => "win",
            Self::Loss => "loss",
            Self::Draw => "draw",
        }
    }

    /// The reference's `evaluate()`: 2 for a win, 1 for a draw, 0 otherwise.
    fn game_score(self) -> f64 {
        match self {
            Self::Win => 2.0,
            Self::Draw => 1.0,
            Self::Ongoing | Self::Loss => 0.0,
        }
    }
}

type Board = [Option<Mark>; 9];

/// The eight lines, in the order the reference checks them.
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

fn winner(board: &Board) -> Option<Mark> {
    LINES.iter().find_map(|&[a, b, c]| {
        let m = board[a]?;
        (board[b] == Some(m) && board[c] == Some(m)).then_some(m)
    })
}

/// The opponent's value of a position: +10 if a line of its marks exists, −10 for the
/// agent's, checked rows, columns, then diagonals; no depth term.
fn value(board: &Board, bot: Mark) -> i32 {
    match winner(board) {
        Some(m) if m == bot => 10,
        Some(_) => -10,
        None => 0,
    }
}

/// Plain minimax without pruning, as the reference searches.
fn minimax(board: &mut Board, bot: Mark, maximizing: bool) -> i32 {
    let v = value(board, bot);
    if v != 0 {
        return v;
    }
    if board.iter().all(Option::is_some) {
        return 0;
    }
    let mut best = if maximizing { -1000 } else { 1000 };
    for i in 0..9 {
        if board[i].is_none() {
            board[i] = Some(if maximizing { bot } else { bot.other() });
            let v = minimax(board, bot, !maximizing);
            board[i] = None;
            best = if maximizing { best.max(v) } else { best.min(v) };
        }
    }
    best
}

/// The opponent's move: the first empty cell (row-major) whose value is strictly
/// greater than every earlier one's.
fn opponent_move(board: &Board, bot: Mark) -> Option<usize> {
    let mut b = *board;
    let mut best: Option<(usize, i32)> = None;
    for i in 0..9 {
        if b[i].is_none() {
            b[i] = Some(bot);
            let v = minimax(&mut b, bot, false);
            b[i] = None;
            if best.is_none_or(|(_, bv)| v > bv) {
                best = Some((i, v));
            }
        }
    }
    best.map(|(i, _)| i)
}

/// A cell's name, e.g. `B3` for index 5.
pub fn cell_name(index: usize) -> String {
    let row = (b'A' + (index / 3) as u8) as char;
    format!("{row}{}", index % 3 + 1)
}

/// Python's `\w` for the boundaries of the reference's `\b([1-9])\b`.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The cells a reply names, in the reference's order of preference: every `A1`-`C3` in
/// the upper-cased text; else every `(row, col)` pair within the board; else every
/// standalone digit 1-9 (row-major). The first is played.
pub fn parse_cells(text: &str) -> Vec<usize> {
    let upper: Vec<char> = text.to_uppercase().chars().collect();
    // A letter A-C and a digit 1-3 cannot overlap, so every adjacent pair is a match.
    let named: Vec<usize> = upper
        .windows(2)
        .filter_map(|w| {
            let row = "ABC".find(w[0])?;
            let col = "123".find(w[1])?;
            Some(row * 3 + col)
        })
        .collect();
    if !named.is_empty() {
        return named;
    }
    let pairs = coordinate_pairs(text);
    if !pairs.is_empty() {
        return pairs;
    }
    let chars: Vec<char> = text.chars().collect();
    (0..chars.len())
        .filter(|&i| {
            ('1'..='9').contains(&chars[i])
                && (i == 0 || !is_word(chars[i - 1]))
                && chars.get(i + 1).is_none_or(|&c| !is_word(c))
        })
        .map(|i| (chars[i] as u8 - b'1') as usize)
        .collect()
}

/// `\((\d+),\s*(\d+)\)` matches whose row and column are on the board.
fn coordinate_pairs(text: &str) -> Vec<usize> {
    let chars: Vec<char> = text.chars().collect();
    let digits = |mut i: usize| -> Option<(u64, usize)> {
        let start = i;
        let mut v: u64 = 0;
        while let Some(d) = chars.get(i).and_then(|c| c.to_digit(10)) {
            v = v.saturating_mul(10).saturating_add(u64::from(d));
            i += 1;
        }
        (i > start).then_some((v, i))
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let matched = (chars[i] == '(')
            .then(|| {
                let (row, j) = digits(i + 1)?;
                let mut k = (chars.get(j) == Some(&',')).then_some(j + 1)?;
                while chars.get(k).is_some_and(|c| c.is_whitespace()) {
                    k += 1;
                }
                let (col, k) = digits(k)?;
                (chars.get(k) == Some(&')')).then_some((row, col, k + 1))
            })
            .flatten();
        match matched {
            Some((row, col, next)) => {
                if row < 3 && col < 3 {
                    out.push((row * 3 + col) as usize);
                }
                i = next;
            }
            None => i += 1,
        }
    }
    out
}

#[derive(Clone, Debug)]
pub struct TicTacToe {
    id: &'static str,
    agent: Mark,
    mode: ActionMode,
    /// GUI replies give points on a 0-1000 scale (GameVerse's `coor_trans`).
    normalized: bool,
    board: Board,
    outcome: Outcome,
    steps: u32,
    has_reset: bool,
    /// What the agent's last move did, for the milestone events.
    last_move: MoveEffect,
}

/// What an agent's move did to the lines of the board (the milestone events `block`
/// and `two in a row`, `docs/judge.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct MoveEffect {
    /// It filled the empty cell of a line holding two of the opponent's marks.
    blocked: bool,
    /// After it, a line holds two of the agent's marks and an empty cell.
    two_in_a_row: bool,
}

/// Lines through `cell` holding `count` marks of `mark` and otherwise empty cells.
fn lines_with(board: &Board, cell: usize, mark: Mark, count: usize) -> bool {
    LINES.iter().filter(|l| l.contains(&cell)).any(|l| {
        let own = l.iter().filter(|&&i| board[i] == Some(mark)).count();
        let empty = l.iter().filter(|&&i| board[i].is_none()).count();
        own == count && own + empty == 3
    })
}

impl TicTacToe {
    pub fn new(id: &'static str, agent: Mark, mode: ActionMode) -> Self {
        Self {
            id,
            agent,
            mode,
            normalized: false,
            board: [None; 9],
            outcome: Outcome::Ongoing,
            steps: 0,
            has_reset: false,
            last_move: MoveEffect::default(),
        }
    }

    /// GUI replies on GameVerse's normalized 0-1000 scale instead of window pixels.
    pub fn with_normalized_coordinates(mut self, normalized: bool) -> Self {
        self.normalized = normalized;
        self
    }

    fn agent_marks(&self) -> usize {
        self.board
            .iter()
            .filter(|&&c| c == Some(self.agent))
            .count()
    }

    /// The milestone events after a step (`docs/gameverse.md`, "Signals"): `marks n`
    /// for each count of the agent's marks up to the current one, `centre` while the
    /// agent holds B2, `block` and `two in a row` for what the last move did, `draw`
    /// and `win` at the end.
    fn events(&self) -> Vec<String> {
        let mut events: Vec<String> = (1..=self.agent_marks())
            .map(|n| format!("marks {n}"))
            .collect();
        if self.board[4] == Some(self.agent) {
            events.push("centre".into());
        }
        if self.last_move.blocked {
            events.push("block".into());
        }
        if self.last_move.two_in_a_row {
            events.push("two in a row".into());
        }
        match self.outcome {
            Outcome::Draw => events.push("draw".into()),
            Outcome::Win => events.push("win".into()),
            Outcome::Ongoing | Outcome::Loss => {}
        }
        events
    }

    fn settle(&mut self) {
        self.outcome = match winner(&self.board) {
            Some(m) if m == self.agent => Outcome::Win,
            Some(_) => Outcome::Loss,
            None if self.board.iter().all(Option::is_some) => Outcome::Draw,
            None => Outcome::Ongoing,
        };
    }

    fn opponent_plays(&mut self) {
        if self.outcome == Outcome::Ongoing {
            if let Some(i) = opponent_move(&self.board, self.agent.other()) {
                self.board[i] = Some(self.agent.other());
                self.settle();
            }
        }
    }

    /// GameVerse's normalized score (0-100): a draw (or a win) 100; a loss or an
    /// unfinished game 100·n/5 playing X and 100·n/4 playing O, n = the agent's marks.
    pub fn score(&self) -> f64 {
        match self.outcome {
            Outcome::Win | Outcome::Draw => 100.0,
            Outcome::Ongoing | Outcome::Loss => {
                let most = match self.agent {
                    Mark::X => 5.0,
                    Mark::O => 4.0,
                };
                100.0 * self.agent_marks() as f64 / most
            }
        }
    }

    /// Plays one agent move given as text, read in the action mode; unreadable text, a
    /// click off the board or an occupied cell loses.
    fn play_text(&mut self, text: &str) {
        match self.cell_of_text(text) {
            Ok(cell) => self.play_cell(cell),
            Err(_) => self.outcome = Outcome::Loss,
        }
    }

    /// The cell a reply names (semantic) or clicks (GUI).
    fn cell_of_text(&self, text: &str) -> Result<usize, String> {
        match self.mode {
            ActionMode::Semantic => parse_cells(text).first().copied().ok_or_else(|| {
                format!("{text:?} names no cell: write a cell such as A1, B2 or C3")
            }),
            ActionMode::Gui => match Click::read(text, self.normalized).landing() {
                Landing::Cell(cell) => Ok(cell),
                Landing::OffBoard => Err(format!(
                    "{text:?} clicks no cell of the board: click one, e.g. {}",
                    self.click_reply(4)
                )),
                Landing::Unplayable => Err(format!(
                    "{text:?} is not a click GameVerse can play (x and y must be integers): \
                     click a cell, e.g. {}",
                    self.click_reply(4)
                )),
            },
        }
    }

    /// The reply that plays `cell`: its name, or a click on its centre (in normalized
    /// coordinates `2p + 1`, which the game maps back to pixel p).
    fn cell_reply(&self, cell: usize) -> String {
        match self.mode {
            ActionMode::Semantic => cell_name(cell),
            ActionMode::Gui => self.click_reply(cell),
        }
    }

    fn click_reply(&self, cell: usize) -> String {
        let (x, y) = GRID.centre((cell / 3) as u32, (cell % 3) as u32);
        self.click_at(x as i64, y as i64)
    }

    /// A click at window pixel (x, y) as the game reads it.
    fn click_at(&self, x: i64, y: i64) -> String {
        let written = |p: i64| if self.normalized { 2 * p + 1 } else { p };
        click_text(written(x), written(y))
    }

    fn play_cell(&mut self, cell: usize) {
        if self.board[cell].is_some() {
            self.outcome = Outcome::Loss;
            return;
        }
        let blocked = lines_with(&self.board, cell, self.agent.other(), 2);
        self.board[cell] = Some(self.agent);
        self.last_move = MoveEffect {
            blocked,
            two_in_a_row: lines_with(&self.board, cell, self.agent, 2),
        };
        self.settle();
        self.opponent_plays();
    }

    fn cell_of(action: &Action) -> Option<usize> {
        match action {
            Action::Call(c) if c.name == "place" => match c.args.as_slice() {
                [ArgValue::List(rc)] if rc.len() == 2 => {
                    let (r, c) = (rc[0], rc[1]);
                    let ok = |v: f64| v.fract() == 0.0 && (0.0..3.0).contains(&v);
                    (ok(r) && ok(c)).then_some(r as usize * 3 + c as usize)
                }
                _ => None,
            },
            _ => None,
        }
    }

    fn place(cell: usize) -> Action {
        Action::call(
            "place",
            vec![ArgValue::List(vec![(cell / 3) as f64, (cell % 3) as f64])],
        )
    }

    /// The reference's `task_description`.
    fn task_description(&self) -> String {
        format!(
            "Play Tic Tac Toe as player {}. Make moves by specifying coordinates like A1, B2, C3.",
            self.agent.name()
        )
    }
}

const RED: Rgb = [255, 0, 0];
const BLUE: Rgb = [0, 0, 255];
const BLACK: Rgb = [0, 0, 0];
const WHITE: Rgb = [255, 255, 255];

impl Env for TicTacToe {
    fn id(&self) -> &str {
        self.id
    }

    fn action_space(&self) -> ActionSpace {
        ActionSpace::Parametric {
            functions: vec![ActionFn {
                name: "place".into(),
                args: vec![ArgSpec {
                    name: "cell".into(),
                    kind: ArgKind::Cell { rows: 3, cols: 3 },
                }],
                doc: "Place your mark on an empty cell (row A-C, column 1-3).".into(),
            }],
        }
    }

    /// One preset per cell, named as models write them: A1 … C3, or in GUI mode the
    /// click on the cell's centre.
    fn action_names(&self) -> Vec<String> {
        (0..9).map(|c| self.cell_reply(c)).collect()
    }

    fn preset_action(&self, index: usize) -> Option<Action> {
        (index < 9).then(|| Self::place(index))
    }

    /// Keys 1-9 are the cells in reading order (the reference reads a lone digit so).
    fn keymap(&self) -> Vec<KeyBinding> {
        const KEYS: [&str; 9] = ["1", "2", "3", "4", "5", "6", "7", "8", "9"];
        KEYS.iter()
            .enumerate()
            .map(|(i, k)| KeyBinding::new(k, i))
            .collect()
    }

    fn action_text(&self, action: &Action) -> String {
        match (Self::cell_of(action), action) {
            (Some(cell), _) => self.cell_reply(cell),
            (None, Action::Text(t)) => t.clone(),
            (None, other) => format!("{other:?}"),
        }
    }

    /// Reads a move the way the reference does (see [`parse_cells`] and [`gui`]).
    fn parse_action(&self, text: &str) -> Result<Action, ActionError> {
        self.cell_of_text(text)
            .map(Self::place)
            .map_err(ActionError)
    }

    fn pointer_mode(&self) -> Option<PointerMode> {
        Some(PointerMode::Click)
    }

    /// A click on the board plays its cell; in GUI mode it is the reply a model would
    /// write for that pixel, which the game reads like any other. A click beside the
    /// board does nothing (people misclick; a model's click there loses).
    fn pointer_action(&self, gesture: Gesture) -> Option<Action> {
        let Gesture::Click { x, y } = gesture else {
            return None;
        };
        let (x, y) = (x.floor(), y.floor());
        let (r, c) = GRID.cell_at(x, y)?;
        Some(match self.mode {
            ActionMode::Semantic => Self::place(r as usize * 3 + c as usize),
            ActionMode::Gui => Action::Text(self.click_at(x as i64, y as i64)),
        })
    }

    fn render_fps(&self) -> u32 {
        2
    }

    fn words(&self) -> Words {
        Words {
            goal: "Do not lose: draw or win against the opponent",
            success: "the game ended without a loss",
            failure: "lost the game",
        }
    }

    fn mission(&self) -> Option<String> {
        Some(self.task_description())
    }

    fn instructions(&self, text_mode: bool) -> Option<String> {
        (!text_mode).then(|| self.task_description())
    }

    /// The action mode's zero-shot prompts; `{task_description}` names the agent's mark
    /// (in both modes, as the reference's `get_game_info` does).
    fn agent_prompts(&self) -> Option<AgentPrompts> {
        Some(agent_prompts(
            GAME_NAME,
            prompts(self.mode),
            vec![("task_description", self.task_description())],
        ))
    }

    fn reset(&mut self, _seed: Option<u64>) -> Reset {
        // No randomness: the opponent is deterministic.
        self.board = [None; 9];
        self.outcome = Outcome::Ongoing;
        self.steps = 0;
        self.has_reset = true;
        self.last_move = MoveEffect::default();
        if self.agent == Mark::O {
            self.opponent_plays();
        }
        Reset {
            obs: self.observation(),
            info: Info::default(),
        }
    }

    fn step(&mut self, action: Action) -> Result<Step, EnvError> {
        if !self.has_reset {
            return Err(EnvError::NotReset);
        }
        let before = self.outcome.game_score();
        self.steps += 1;
        self.last_move = MoveEffect::default();
        if self.steps > SAFETY_STEPS {
            self.outcome = Outcome::Loss;
        }
        if self.outcome == Outcome::Ongoing {
            match (&action, Self::cell_of(&action)) {
                (_, Some(cell)) => self.play_cell(cell),
                (Action::Text(t), None) => self.play_text(t),
                (other, None) => {
                    return Err(EnvError::InvalidAction(format!(
                        "{other:?} is not a move: place((row, column)) or a cell such as B2"
                    )))
                }
            }
        }
        let terminated = self.outcome != Outcome::Ongoing;
        Ok(Step {
            obs: self.observation(),
            reward: self.outcome.game_score() - before,
            terminated,
            truncated: false,
            info: Info::default(),
            signals: Signals {
                success: matches!(self.outcome, Outcome::Win | Outcome::Draw),
                events: self.events().into(),
                draw: self.outcome == Outcome::Draw,
            },
        })
    }

    /// The board, 0 empty, 1 the agent's mark, 2 the opponent's.
    fn observation(&self) -> Observation {
        let code = |c: &Option<Mark>| match c {
            None => 0.0,
            Some(m) if *m == self.agent => 1.0,
            Some(_) => 2.0,
        };
        Observation::Vector(self.board.iter().map(code).collect())
    }

    fn frame_size(&self) -> (u32, u32) {
        (SIZE, SIZE)
    }

    /// The reference's picture: white, two black lines each way (3 px), row letters on
    /// the left and column numbers on top, X in red and O in blue; in our own font.
    fn render(&self, frame: &mut Frame) {
        frame.resize(SIZE, SIZE);
        frame.fill(WHITE);
        for i in 1..3 {
            let at = 50.0 + 150.0 * f64::from(i);
            fill_rect(frame, at - 1.0, 50.0, at + 2.0, 500.0, BLACK);
            fill_rect(frame, 50.0, at - 1.0, 500.0, at + 2.0, BLACK);
        }
        for i in 0..3u8 {
            let offset = 50 + 150 * i64::from(i) + 63;
            // Our 5×7 glyphs at 3× stand where the reference's 28 px capitals do.
            draw_text(
                frame,
                20,
                offset + 4,
                &char::from(b'A' + i).to_string(),
                3,
                BLACK,
            );
            draw_text(frame, offset + 2, 24, &(i + 1).to_string(), 3, BLACK);
        }
        for (i, cell) in self.board.iter().enumerate() {
            let Some(mark) = cell else { continue };
            let (cx, cy) = GRID.centre((i / 3) as u32, (i % 3) as u32);
            let color = match mark {
                Mark::X => RED,
                Mark::O => BLUE,
            };
            // A 60 px capital drawn from (cx − 20, cy − 30) spans about 40 × 43 px.
            draw_text(frame, cx as i64 - 15, cy as i64 - 21, mark.name(), 6, color);
        }
    }

    fn snapshot(&self) -> Option<Value> {
        let board: Vec<&str> = self
            .board
            .iter()
            .map(|c| c.map_or("", Mark::name))
            .collect();
        Some(json!({
            "board": board,
            "agent_mark": self.agent.name(),
            "result": self.outcome.name(),
            "agent_marks": self.agent_marks(),
        }))
    }

    fn render_text(&self) -> String {
        let mut out = String::from("  1   2   3\n");
        for r in 0..3 {
            let cells: Vec<&str> = (0..3)
                .map(|c| self.board[r * 3 + c].map_or(" ", Mark::name))
                .collect();
            out.push_str(&format!(
                "{} {}\n",
                (b'A' + r as u8) as char,
                cells.join(" | ")
            ));
            if r < 2 {
                out.push_str("  ---------\n");
            }
        }
        out.push_str(&format!("result: {}", self.outcome.name()));
        out
    }

    fn clone_box(&self) -> Box<dyn Env> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn oracle(&self, _control: Control) -> Option<Box<dyn Solver>> {
        Some(Box::new(Oracle))
    }

    fn milestones(&self) -> Option<&'static str> {
        Some(include_str!("milestones.json"))
    }

    fn normalized_score(&self) -> Option<f64> {
        Some(self.score())
    }
}

/// The expert: searches its own moves against the (deterministic) opponent and plays the
/// first move (row-major) with the best outcome — a draw, since the opponent never loses.
struct Oracle;

/// The best outcome reachable from here (2 win, 1 draw, 0 loss) and its first move.
fn best_line(game: &TicTacToe) -> (u8, Option<usize>) {
    match game.outcome {
        Outcome::Win => return (2, None),
        Outcome::Draw => return (1, None),
        Outcome::Loss => return (0, None),
        Outcome::Ongoing => {}
    }
    let mut best = (0, None);
    for cell in (0..9).filter(|&i| game.board[i].is_none()) {
        let mut next = game.clone();
        next.play_cell(cell);
        let (v, _) = best_line(&next);
        if best.1.is_none() || v > best.0 {
            best = (v, Some(cell));
        }
    }
    best
}

impl Solver for Oracle {
    fn next_action(&mut self, env: &dyn Env) -> Option<Action> {
        let game = env.as_any().downcast_ref::<TicTacToe>()?;
        best_line(game).1.map(TicTacToe::place)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(agent: Mark) -> TicTacToe {
        let mut g = TicTacToe::new("GameVerse/TicTacToe", agent, ActionMode::Semantic);
        g.reset(None);
        g
    }

    fn step(g: &mut TicTacToe, text: &str) -> Step {
        g.step(Action::Text(text.into())).unwrap()
    }

    #[test]
    fn the_opponent_answers_each_opening_as_the_reference_does() {
        // X's opening → O's reply (GameVerse's deterministic minimax).
        for (open, reply) in [
            ("A1", "B2"),
            ("A2", "A1"),
            ("A3", "B2"),
            ("B1", "A1"),
            ("B2", "A1"),
            ("B3", "A3"),
            ("C1", "B2"),
            ("C2", "A2"),
            ("C3", "B2"),
        ] {
            let mut g = game(Mark::X);
            step(&mut g, open);
            let o: Vec<usize> = (0..9).filter(|&i| g.board[i] == Some(Mark::O)).collect();
            assert_eq!(o.iter().map(|&i| cell_name(i)).collect::<Vec<_>>(), [reply]);
        }
        // Playing O, the opponent opens A1 before the first observation.
        assert_eq!(game(Mark::O).board[0], Some(Mark::X));
    }

    #[test]
    fn the_opponent_may_postpone_a_win() {
        // X at A1, A3, C1; O at A2, B2, O to move: C2 wins, but B1 comes first and is
        // worth as much (no depth term).
        let mut b: Board = [None; 9];
        for i in [0, 2, 6] {
            b[i] = Some(Mark::X);
        }
        for i in [1, 4] {
            b[i] = Some(Mark::O);
        }
        assert_eq!(opponent_move(&b, Mark::O), Some(3));
    }

    #[test]
    fn replies_are_read_as_the_reference_reads_them() {
        assert_eq!(parse_cells("I play b2, then c3"), vec![4, 8]);
        assert_eq!(parse_cells("ABC12"), vec![6]); // "C1" after "AB"
        assert_eq!(parse_cells("(1, 2) or (3,0)"), vec![5]);
        assert_eq!(parse_cells("(0,0)"), vec![0]);
        // No pair (a space after the parenthesis), so the lone digits count.
        assert_eq!(parse_cells("( 1,1)"), vec![0, 0]);
        assert_eq!(parse_cells("cell 5."), vec![4]);
        assert_eq!(parse_cells("x5 and 7"), vec![6]);
        assert_eq!(parse_cells("nothing here"), Vec::<usize>::new());
    }

    #[test]
    fn bad_or_occupied_moves_lose_at_once() {
        let mut g = game(Mark::X);
        let s = step(&mut g, "no idea");
        assert!(s.terminated && !s.signals.success);
        assert_eq!(g.outcome, Outcome::Loss);
        assert_eq!(g.score(), 0.0);
        let mut g = game(Mark::X);
        step(&mut g, "A1"); // O answers B2
        let s = step(&mut g, "B2");
        assert!(s.terminated);
        assert_eq!(g.snapshot().unwrap()["result"], "loss");
        assert_eq!(g.score(), 20.0);
    }

    #[test]
    fn the_oracle_draws_as_x_and_as_o() {
        for agent in [Mark::X, Mark::O] {
            let mut g = game(agent);
            let mut oracle = Oracle;
            let mut last = None;
            while g.outcome == Outcome::Ongoing {
                let a = oracle.next_action(&g).unwrap();
                last = Some(g.step(a).unwrap());
            }
            assert_eq!(g.outcome, Outcome::Draw, "{agent:?}");
            let last = last.unwrap();
            assert_eq!((last.reward, last.signals.success), (1.0, true));
            assert_eq!(g.score(), 100.0);
        }
    }

    #[test]
    fn clicks_map_to_cells() {
        let g = game(Mark::X);
        let a = g
            .pointer_action(Gesture::Click { x: 375.0, y: 250.0 })
            .unwrap();
        assert_eq!(g.action_text(&a), "B3");
        assert_eq!(g.pointer_action(Gesture::Click { x: 20.0, y: 20.0 }), None);
        assert_eq!(g.parse_action("B3"), Ok(a));
    }

    fn gui(agent: Mark, normalized: bool) -> TicTacToe {
        let mut g = TicTacToe::new("GameVerse/TicTacToe", agent, ActionMode::Gui)
            .with_normalized_coordinates(normalized);
        g.reset(None);
        g
    }

    #[test]
    fn gui_replies_click_cells_and_bad_clicks_lose() {
        let mut g = gui(Mark::X, false);
        step(
            &mut g,
            "```json\n{\"action_type\": \"CLICK\", \"parameters\": {\"x\": 280, \"y\": 270}}\n```",
        );
        assert_eq!(g.board[4], Some(Mark::X));
        // A semantic reply names no click in GUI mode: the game is lost at once.
        let s = step(&mut g, "C3");
        assert!(s.terminated);
        assert_eq!((g.outcome, g.score()), (Outcome::Loss, 20.0));
        for text in [
            "{\"x\": 250.0, \"y\": 250}",
            "{\"x\": 49, \"y\": 250}",
            "[1]",
        ] {
            let mut g = gui(Mark::O, false);
            assert!(step(&mut g, text).terminated, "{text}");
            assert_eq!(g.agent_marks(), 0, "{text}");
        }
    }

    #[test]
    fn gui_presets_and_people_clicks_are_replies() {
        for normalized in [false, true] {
            let g = gui(Mark::X, normalized);
            let names = g.action_names();
            for (cell, name) in names.iter().enumerate() {
                assert_eq!(g.parse_action(name), Ok(TicTacToe::place(cell)), "{name}");
                assert_eq!(g.action_text(&TicTacToe::place(cell)), *name);
            }
            let click = g
                .pointer_action(Gesture::Click { x: 200.7, y: 499.2 })
                .unwrap();
            let Action::Text(text) = &click else {
                panic!("{click:?}")
            };
            assert_eq!(
                Click::read(text, normalized),
                Click {
                    x: gui::Coordinate::Int(200),
                    y: gui::Coordinate::Int(499),
                }
            );
            assert_eq!(g.parse_action(text), Ok(TicTacToe::place(7)));
            assert_eq!(g.pointer_action(Gesture::Click { x: 40.0, y: 300.0 }), None);
        }
        assert!(gui(Mark::X, true).action_names()[0].contains("\"x\": 251"));
        let prompts = gui(Mark::O, false).agent_prompts().unwrap();
        assert!(prompts
            .system
            .contains("Game Window Size: 500 x 500 pixels"));
    }
}
