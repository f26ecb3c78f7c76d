//! GameVerse's Snake (adapted by the reference from RealtimeGym): a 9×9 board whose border
//! is wall (7×7 playable), the snake starting as one cell at (3, 3) heading left, food
//! with a lifespan of 10 turns spawned from a list of the free cells shuffled twice by
//! numpy's legacy `RandomState(seed % 1000)` — three at the start and one on every turn
//! 1, 4, 7, … The game ends on a collision and, in discrete ("Stop") mode, at turn 100.
//! Coordinates are (x, y) with y upwards.
//!
//! The benchmark always plays seed 42; `reset(Some(s))` here is `SnakeGame(seed=s)` there,
//! and `reset(None)` is the game's own `reset()`, which keeps drawing from the same
//! generator (a new environment starts as if reset with 42).
//!
//! Latency modes: in Stop mode every key of a reply makes one move and nothing happens
//! without one. In Slow and Normal mode the reference runs the game in real time: the
//! snake also moves on its own in its current direction when no key came for 20 s or
//! 10 s. This environment has no clock: [`LatencyMode::auto_advance_after_ms`] states
//! that rule as data, a driver outside calls [`Snake::auto_advance`] and
//! [`Snake::loop_check`] when its virtual clock says so, and [`RealtimeDriver`] is such a
//! driver, timed as the reference's loop and screenshots are.

mod clock;
mod env;
mod oracle;
pub mod render;

pub use clock::RealtimeDriver;
pub use env::{SnakeEnv, ID, TIMEOUT_TEXT};
pub use oracle::{best_move, demonstration};

use serde_json::{json, Value};

use super::gui_action::parse_action_list;
use super::prompt::PromptTemplates;
use super::py_str;
use super::{ActionMode, StepResult};
use crate::core::agent_prompts::MemoryTemplates;
use crate::rng::RandomState;
use crate::Frame;

/// GameVerse's runner stops a Snake episode after this many steps.
pub const STEP_CAP: u32 = 100;
/// Discrete mode ends the game at this turn.
pub const MAX_TURNS: u32 = 100;
/// The benchmark's board (border included).
pub const BOARD_SIZE: i64 = 9;
/// The benchmark's seed.
pub const BENCHMARK_SEED: u64 = 42;
/// The benchmark's real-time limit (config `max_duration`).
pub const MAX_DURATION_MS: u64 = 1_200_000;
/// The environment takes its screenshot this long after sending a key.
pub const OBSERVATION_DELAY_MS: u64 = 500;
/// A new food lives this many turns.
pub const FOOD_LIFESPAN: i64 = 10;
/// `{task_description}`: the Snake environment provides none.
pub const TASK: &str = "";

/// How game time relates to the model's thinking time (the paper's latency settings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LatencyMode {
    /// Discrete: one move per key, the world waits for the model.
    Stop,
    /// Real time; the snake advances on its own after 20 s without a key.
    Slow,
    /// Real time; the snake advances on its own after 10 s without a key (the paper's
    /// main setting).
    Normal,
    /// Real time with another timeout.
    Realtime { timeout_ms: u64 },
}

impl LatencyMode {
    /// The auto-advance rule: the snake moves one cell in its current direction when
    /// this many milliseconds passed since its last move without a key; `None` in Stop.
    pub fn auto_advance_after_ms(self) -> Option<u64> {
        match self {
            LatencyMode::Stop => None,
            LatencyMode::Slow => Some(20_000),
            LatencyMode::Normal => Some(10_000),
            LatencyMode::Realtime { timeout_ms } => Some(timeout_ms),
        }
    }

    pub fn is_realtime(self) -> bool {
        self != LatencyMode::Stop
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SnakeConfig {
    pub action_mode: ActionMode,
    pub latency: LatencyMode,
    /// Board side including the wall border.
    pub board_size: i64,
    pub obstacles: usize,
    /// Real-time modes end the game at the first move at or after this much game time.
    pub max_duration_ms: u64,
    pub step_cap: u32,
}

impl Default for SnakeConfig {
    fn default() -> Self {
        SnakeConfig {
            action_mode: ActionMode::Semantic,
            latency: LatencyMode::Stop,
            board_size: BOARD_SIZE,
            obstacles: 0,
            max_duration_ms: MAX_DURATION_MS,
            step_cap: STEP_CAP,
        }
    }
}

/// The zero-shot prompt templates of an action mode (`{board_size}` renders `9`).
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

/// A heading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Heading {
    L,
    R,
    U,
    D,
}

impl Heading {
    pub const ALL: [Heading; 4] = [Heading::L, Heading::R, Heading::U, Heading::D];

    pub fn letter(self) -> &'static str {
        match self {
            Heading::L => "L",
            Heading::R => "R",
            Heading::U => "U",
            Heading::D => "D",
        }
    }

    /// (dx, dy) with y upwards.
    pub fn delta(self) -> (i64, i64) {
        match self {
            Heading::L => (-1, 0),
            Heading::R => (1, 0),
            Heading::U => (0, 1),
            Heading::D => (0, -1),
        }
    }

    pub fn reverse(self) -> Heading {
        match self {
            Heading::L => Heading::R,
            Heading::R => Heading::L,
            Heading::U => Heading::D,
            Heading::D => Heading::U,
        }
    }
}

/// A key the game reacts to: an arrow, or space (a wait turn, discrete mode only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnakeKey {
    Arrow(Heading),
    Space,
}

pub type Point = (i64, i64);

/// The key a GUI action names (lower-cased), if the game reacts to it.
fn key_named(name: &str) -> Option<SnakeKey> {
    match name {
        "left" => Some(SnakeKey::Arrow(Heading::L)),
        "right" => Some(SnakeKey::Arrow(Heading::R)),
        "up" => Some(SnakeKey::Arrow(Heading::U)),
        "down" => Some(SnakeKey::Arrow(Heading::D)),
        "space" => Some(SnakeKey::Space),
        _ => None,
    }
}

#[derive(Clone, Debug)]
pub struct Snake {
    config: SnakeConfig,
    rng: RandomState,
    /// Tail first, head last (the reference's order).
    body: Vec<Point>,
    obstacles: Vec<Point>,
    /// Food cells in spawn order, with (lifespan, value) per cell.
    food: Vec<Point>,
    food_attributes: Vec<Vec<(i64, i64)>>,
    coords: Vec<Point>,
    idx: usize,
    heading: Heading,
    turn: u32,
    foods_eaten: i64,
    terminal: bool,
    auto_moves: u32,
    /// Game time of the real-time loop's last check, for the panel.
    elapsed_ms: u64,
    steps: u32,
    score_at_last_step: i64,
}

impl Snake {
    pub fn new(config: SnakeConfig) -> Self {
        let b = config.board_size.max(3);
        let mut game = Snake {
            config: SnakeConfig {
                board_size: b,
                ..config
            },
            rng: RandomState::new(BENCHMARK_SEED as u32),
            body: Vec::new(),
            obstacles: Vec::new(),
            food: Vec::new(),
            food_attributes: Vec::new(),
            coords: Vec::new(),
            idx: 0,
            heading: Heading::L,
            turn: 0,
            foods_eaten: 0,
            terminal: false,
            auto_moves: 0,
            elapsed_ms: 0,
            steps: 0,
            score_at_last_step: 0,
        };
        game.reset(Some(BENCHMARK_SEED));
        game
    }

    /// A new game: `Some(seed)` builds the generator as `RandomState(seed % 1000)`,
    /// `None` keeps drawing from the current one.
    pub fn reset(&mut self, seed: Option<u64>) {
        if let Some(seed) = seed {
            self.rng = RandomState::new((seed % 1000) as u32);
        }
        let b = self.config.board_size;
        let start = (b / 2 - 1, b / 2 - 1);
        self.body = vec![start];
        self.obstacles = self.draw_obstacles();
        self.coords = (1..b - 1)
            .flat_map(|x| (1..b - 1).map(move |y| (x, y)))
            .filter(|p| !self.body.contains(p) && !self.obstacles.contains(p))
            .collect();
        self.rng.shuffle(&mut self.coords);
        self.rng.shuffle(&mut self.coords);
        self.food.clear();
        self.food_attributes = vec![vec![(0, 0); b as usize]; b as usize];
        self.idx = 0;
        self.heading = Heading::L;
        self.turn = 0;
        self.foods_eaten = 0;
        self.terminal = false;
        self.auto_moves = 0;
        self.elapsed_ms = 0;
        self.steps = 0;
        self.score_at_last_step = 0;
        for _ in 0..3 {
            self.spawn_food();
        }
    }

    /// Obstacles as the reference places them (none in the benchmark): random inner
    /// cells, redrawn when taken, at most ten tries per obstacle.
    fn draw_obstacles(&mut self) -> Vec<Point> {
        let b = self.config.board_size;
        let mut obstacles: Vec<Point> = Vec::new();
        let mut attempts = 0;
        while obstacles.len() < self.config.obstacles && attempts < self.config.obstacles * 10 {
            let x = self.rng.randint(1, b - 1).unwrap_or(1);
            let y = self.rng.randint(1, b - 1).unwrap_or(1);
            if !self.body.contains(&(x, y)) && !obstacles.contains(&(x, y)) {
                obstacles.push((x, y));
            }
            attempts += 1;
        }
        obstacles
    }

    fn attributes(&self, (x, y): Point) -> (i64, i64) {
        self.food_attributes[x as usize][y as usize]
    }

    fn set_attributes(&mut self, (x, y): Point, value: (i64, i64)) {
        self.food_attributes[x as usize][y as usize] = value;
    }

    /// The next entry of the shuffled list that holds no food yet (the list wraps only
    /// where a spawn starts; a spawn that runs off its end places nothing).
    fn spawn_food(&mut self) {
        if self.coords.is_empty() {
            return;
        }
        let mut idx = self.idx;
        if idx >= self.coords.len() {
            idx %= self.coords.len();
        }
        loop {
            let p = self.coords[idx];
            idx += 1;
            if !self.food.contains(&p) && self.attributes(p) == (0, 0) {
                self.food.push(p);
                self.set_attributes(p, (FOOD_LIFESPAN, 1));
                break;
            }
            if idx >= self.coords.len() {
                break;
            }
        }
        self.idx = idx;
    }

    fn age_food(&mut self) {
        let food = std::mem::take(&mut self.food);
        for p in food {
            let (life, value) = self.attributes(p);
            if life - 1 <= 0 {
                self.set_attributes(p, (0, 0));
            } else {
                self.set_attributes(p, (life - 1, value));
                self.food.push(p);
            }
        }
    }

    fn collides(&self, p: Point) -> bool {
        let b = self.config.board_size;
        p.0 == 0
            || p.1 == 0
            || p.0 == b - 1
            || p.1 == b - 1
            || self.body[1..].contains(&p)
            || self.obstacles.contains(&p)
    }

    /// One turn: `None` waits (food ages, may spawn), a heading moves that way.
    fn execute_move(&mut self, heading: Option<Heading>) {
        self.turn += 1;
        let Some(heading) = heading else {
            self.age_food();
            if self.turn % 3 == 1 {
                self.spawn_food();
            }
            return;
        };
        self.heading = heading;
        let Some(&head) = self.body.last() else {
            return;
        };
        let (dx, dy) = heading.delta();
        let new_head = (head.0 + dx, head.1 + dy);
        if self.collides(new_head) {
            self.terminal = true;
            return;
        }
        let ate = self.food.contains(&new_head);
        let mut gained = 0;
        if ate {
            gained = self.attributes(new_head).1;
            self.food.retain(|&p| p != new_head);
            self.set_attributes(new_head, (0, 0));
        }
        self.body.push(new_head);
        if !ate {
            self.body.remove(0);
        }
        self.age_food();
        if self.turn % 3 == 1 {
            self.spawn_food();
        }
        self.foods_eaten += gained;
        if !self.config.latency.is_realtime() && self.turn >= MAX_TURNS {
            self.terminal = true;
        }
    }

    /// A key in discrete mode: arrows turn (a reverse keeps the heading) and move, space
    /// waits a turn.
    fn press_discrete(&mut self, key: SnakeKey) {
        if self.terminal {
            return;
        }
        match key {
            SnakeKey::Space => self.execute_move(None),
            SnakeKey::Arrow(h) => {
                let h = if h == self.heading.reverse() {
                    self.heading
                } else {
                    h
                };
                self.execute_move(Some(h));
            }
        }
    }

    /// The keys a reply presses, in order, as the reference turns it into key events.
    ///
    /// Semantic: each line that is exactly `L`, `R`, `U` or `D` once trimmed and
    /// upper-cased (so never `Wait`). GUI: the PRESS actions of the reply's JSON whose key
    /// is an arrow or space. Where the reference would raise on an action (a PRESS whose
    /// parameters are not an object or whose key is not a string), it aborts the step;
    /// here the reply's keys end there.
    pub fn parse_keys(mode: ActionMode, text: &str) -> Vec<SnakeKey> {
        match mode {
            ActionMode::Semantic => py_str::splitlines(py_str::strip(text))
                .into_iter()
                .filter_map(|line| match py_str::strip(line).to_uppercase().as_str() {
                    "L" => Some(SnakeKey::Arrow(Heading::L)),
                    "R" => Some(SnakeKey::Arrow(Heading::R)),
                    "U" => Some(SnakeKey::Arrow(Heading::U)),
                    "D" => Some(SnakeKey::Arrow(Heading::D)),
                    _ => None,
                })
                .collect(),
            ActionMode::Gui => {
                let Ok(actions) = parse_action_list(text) else {
                    return Vec::new();
                };
                let mut keys = Vec::new();
                for action in &actions {
                    match action.pressed_key() {
                        Ok(Some(name)) => keys.extend(key_named(&name)),
                        Ok(None) => {}
                        Err(_) => break,
                    }
                }
                keys
            }
        }
    }

    /// The key of a reply in real-time mode: only the reply's first action counts, and
    /// only if it is an arrow (space does nothing in real time).
    pub fn parse_realtime_key(mode: ActionMode, text: &str) -> Option<Heading> {
        let first = match mode {
            ActionMode::Semantic => Self::parse_keys(mode, text).into_iter().next(),
            ActionMode::Gui => {
                let actions = parse_action_list(text).ok()?;
                key_named(&actions.first()?.pressed_key().ok()??)
            }
        };
        match first {
            Some(SnakeKey::Arrow(h)) => Some(h),
            _ => None,
        }
    }

    /// One step with the text under `### Actions`. In Stop mode every key moves; in the
    /// real-time modes the reply's first arrow moves the snake now (the driver applies
    /// the auto-advances due before it) and starts the game loop on the first step.
    pub fn step(&mut self, action_text: &str) -> StepResult {
        let mode = self.config.action_mode;
        if self.config.latency.is_realtime() {
            let key = Self::parse_realtime_key(mode, action_text);
            self.step_realtime(key)
        } else {
            let keys = Self::parse_keys(mode, action_text);
            self.step_keys(&keys)
        }
    }

    /// A discrete step with keys already read.
    pub fn step_keys(&mut self, keys: &[SnakeKey]) -> StepResult {
        self.steps += 1;
        for &k in keys {
            self.press_discrete(k);
        }
        self.settle()
    }

    /// A real-time step with the reply's key already read.
    pub fn step_realtime(&mut self, key: Option<Heading>) -> StepResult {
        self.steps += 1;
        if let Some(h) = key {
            if !self.terminal {
                let h = if h == self.heading.reverse() {
                    self.heading
                } else {
                    h
                };
                self.execute_move(Some(h));
            }
        }
        self.settle()
    }

    /// The step's outcome so far: the foods eaten since the last settle (auto-advances
    /// included), whether the game is over, whether the step cap is reached. A real-time
    /// driver settles again when it takes the observation, after the auto-advances that
    /// came after the key.
    pub fn settle(&mut self) -> StepResult {
        let reward = (self.foods_eaten - self.score_at_last_step) as f64;
        self.score_at_last_step = self.foods_eaten;
        StepResult {
            reward,
            terminated: self.terminal,
            truncated: !self.terminal && self.steps >= self.config.step_cap,
        }
    }

    /// A real-time move without a key: one cell in the current heading.
    pub fn auto_advance(&mut self) {
        if self.terminal {
            return;
        }
        self.auto_moves += 1;
        self.execute_move(Some(self.heading));
    }

    /// The real-time loop's check before it waits for the next key, `elapsed_ms` after it
    /// started: it shows the time on the panel and ends the game once the time is up.
    pub fn loop_check(&mut self, elapsed_ms: u64) {
        self.elapsed_ms = elapsed_ms;
        if elapsed_ms >= self.config.max_duration_ms {
            self.terminal = true;
        }
    }

    /// Head first, as the driver reports it.
    pub fn body_head_first(&self) -> Vec<Point> {
        self.body.iter().rev().copied().collect()
    }

    pub fn heading(&self) -> Heading {
        self.heading
    }

    /// Food cells in spawn order, with their remaining lifespans.
    pub fn food(&self) -> Vec<(Point, i64)> {
        self.food
            .iter()
            .map(|&p| (p, self.attributes(p).0))
            .collect()
    }

    /// Foods eaten (the reference's score).
    pub fn foods_eaten(&self) -> i64 {
        self.foods_eaten
    }

    /// The paper's 0-100 score: ten per food, clipped.
    pub fn normalized_score(&self) -> f64 {
        (10.0 * self.foods_eaten as f64).clamp(0.0, 100.0)
    }

    pub fn game_over(&self) -> bool {
        self.terminal
    }

    /// Whether the real-time game ended because its time ran out.
    pub fn time_up(&self) -> bool {
        self.config.latency.is_realtime() && self.elapsed_ms >= self.config.max_duration_ms
    }

    /// Game time of the real-time loop's last check (what the panel shows).
    pub fn elapsed_ms(&self) -> u64 {
        self.elapsed_ms
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    pub fn auto_moves(&self) -> u32 {
        self.auto_moves
    }

    pub fn steps(&self) -> u32 {
        self.steps
    }

    pub fn config(&self) -> &SnakeConfig {
        &self.config
    }

    /// The shuffled list food is drawn from.
    pub fn food_coords(&self) -> &[Point] {
        &self.coords
    }

    /// The reference's observation text (`SnakeObs.to_text`), which GameVerse's memory
    /// agent keeps: the number of steps taken.
    pub fn observation_text(&self) -> String {
        format!("Step: {}\n.", self.steps)
    }

    /// The placeholder values the game supplies to its prompts (the reference's
    /// `get_game_info`; it has no task description, which the agent then leaves empty);
    /// `{action}` and `{reflection_experience}` come from the agent.
    pub fn prompt_values(&self) -> Vec<(&'static str, String)> {
        vec![
            ("task_description", TASK.to_string()),
            ("board_size", self.config.board_size.to_string()),
        ]
    }

    /// The driver's state: body head first, heading, food cells, foods eaten, game over.
    pub fn state_json(&self) -> Value {
        let body: Vec<[i64; 2]> = self
            .body_head_first()
            .iter()
            .map(|&(x, y)| [x, y])
            .collect();
        let food: Vec<[i64; 2]> = self.food.iter().map(|&(x, y)| [x, y]).collect();
        json!({
            "body": body,
            "direction": self.heading.letter(),
            "food": food,
            "foods_eaten": self.foods_eaten,
            "game_over": self.terminal,
        })
    }

    /// Draws the window: board plus info panel, 495×595 for the benchmark's board.
    /// Draws the window; `backdrop` keeps the board's unchanging part between frames.
    pub fn render(&self, frame: &mut Frame, backdrop: &mut render::Backdrop) {
        render::draw(self, frame, backdrop);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_backdrop_draws_what_a_fresh_one_does() {
        // Kept between frames: the backdrop and the cells' looks (only changed cells are
        // repainted), through moves, meals, food expiring, game ends and new games with
        // other obstacles, on two board sizes.
        for (board_size, obstacles) in [(BOARD_SIZE, 3), (12, 6)] {
            let mut game = Snake::new(SnakeConfig {
                board_size,
                obstacles,
                ..SnakeConfig::default()
            });
            let (mut kept, mut backdrop) = (Frame::default(), render::Backdrop::default());
            let mut rng = crate::rng::PyRandom::new(7);
            let (mut frames, mut meals) = (0, 0);
            for seed in 0..10 {
                game.reset(Some(seed));
                for i in 0..150 {
                    if game.game_over() {
                        break;
                    }
                    // Mostly the oracle's moves (long games, meals), sometimes a random one.
                    let heading = if rng.randbelow(15).unwrap_or(0) == 0 {
                        [Heading::L, Heading::U, Heading::R, Heading::D]
                            [rng.randbelow(4).unwrap_or(0) as usize]
                    } else {
                        oracle::best_move(&game)
                    };
                    game.step(heading.letter());
                    frames += 1;
                    game.render(&mut kept, &mut backdrop);
                    let mut fresh = Frame::default();
                    game.render(&mut fresh, &mut render::Backdrop::default());
                    assert_eq!(kept, fresh, "board {board_size} seed {seed} step {i}");
                }
                meals += game.foods_eaten();
            }
            assert!(frames > 100 && meals > 5, "{frames} frames, {meals} meals");
        }
    }

    #[test]
    fn the_benchmark_food_list_and_first_turns() {
        let mut s = Snake::new(SnakeConfig::default());
        assert_eq!(&s.food_coords()[..4], &[(7, 7), (5, 6), (4, 7), (4, 2)]);
        assert_eq!(s.food_coords().last(), Some(&(1, 1)));
        for line in ["L", "L", "U", "U", "U", "U", "R", "R", "R"] {
            s.step(line);
        }
        assert_eq!(s.body_head_first(), vec![(4, 7), (3, 7)]);
        assert_eq!(s.foods_eaten(), 1);
    }

    #[test]
    fn replies_are_read_like_the_reference() {
        use SnakeKey::Arrow;
        let sem = |t| Snake::parse_keys(ActionMode::Semantic, t);
        assert_eq!(
            sem(" l \nU\r\nWait\n**L**"),
            vec![Arrow(Heading::L), Arrow(Heading::U)]
        );
        assert_eq!(sem("left"), vec![]);
        let gui = |t| Snake::parse_keys(ActionMode::Gui, t);
        assert_eq!(
            gui("[{\"action_type\": \"PRESS\", \"parameters\": {\"key\": \"space\"}}, {\"action_type\": \"press\", \"parameters\": {\"key\": \"Up\"}}]"),
            vec![SnakeKey::Space, Arrow(Heading::U)]
        );
        assert_eq!(
            Snake::parse_realtime_key(ActionMode::Gui, "[{\"action_type\": \"WAIT\", \"parameters\": {}}, {\"action_type\": \"PRESS\", \"parameters\": {\"key\": \"up\"}}]"),
            None
        );
    }
}
