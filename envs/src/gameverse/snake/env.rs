//! `GameVerse/Snake` under the environment interface: a step is one reply, read as the
//! action mode reads it. In Stop mode every key of the reply moves the snake and a reply
//! without one changes nothing. In Slow and Normal mode the reply's first arrow moves it
//! at once, and the environment declares an idle-timeout clock (20 s or 10 s) whose idle
//! preset, `(timeout)`, is the snake moving on its own; the clock itself lives with
//! whoever plays (see docs/gameverse.md for how its time maps onto the reference's). A
//! player that tells the time of each reply (`Env::set_action_time`) gets the reference's
//! loop time too: the panel's time and the end at the first move at or after 1200 s.
//!
//! GameVerse has no win in Snake (its score is the food eaten), so no step is a success;
//! the events count the food.

use std::cell::RefCell;

use serde_json::Value;

use super::{
    memory_prompts, prompts, Heading, LatencyMode, Snake, SnakeConfig, OBSERVATION_DELAY_MS,
    STEP_CAP,
};
use crate::core::agent_prompts::AgentPrompts;
use crate::core::clock::{Clock, ClockMode};
use crate::core::env::{Action, Env, Info, KeyBinding, Observation, Reset, Signals, Step, Words};
use crate::core::error::EnvError;
use crate::core::oracle::{Control, Solver};
use crate::gameverse::gui_action::press_text;
use crate::gameverse::prompt::{agent_prompts, system_instructions};
use crate::gameverse::text_actions::{text_action_methods, Played, TextActions};
use crate::gameverse::{ActionMode, StepResult, VIDEO_FPS};
use crate::Frame;

use super::render::Backdrop;

pub const ID: &str = "GameVerse/Snake";
/// The game's name inside GameVerse (its reflection and judge prompts use it).
pub const GAME_NAME: &str = "Snake";

/// The clock's idle preset: no key within the action timeout.
const TIMEOUT: &str = "timeout";
/// Its text form, which no reply parser reads as a key.
pub const TIMEOUT_TEXT: &str = "(timeout)";
/// The GUI space key: a turn without a move (Stop mode).
const WAIT: &str = "wait";

/// Cell codes of the observation.
const EMPTY: f32 = 0.0;
const WALL: f32 = 1.0;
const FOOD: f32 = 2.0;
const BODY: f32 = 3.0;
const HEAD: f32 = 4.0;

/// The function (and key name) of a heading.
fn key_name(h: Heading) -> &'static str {
    match h {
        Heading::L => "left",
        Heading::R => "right",
        Heading::U => "up",
        Heading::D => "down",
    }
}

fn presets(mode: ActionMode, latency: LatencyMode) -> TextActions {
    let mut actions = Heading::ALL
        .into_iter()
        .fold(TextActions::new(), |actions, h| {
            let key = key_name(h);
            let reply = match mode {
                ActionMode::Semantic => h.letter().to_string(),
                ActionMode::Gui => press_text(key),
            };
            actions.reply_preset(key, &format!("Turn {key} (or keep going) and move"), &reply)
        });
    if mode == ActionMode::Gui && !latency.is_realtime() {
        actions = actions.reply_preset(
            WAIT,
            "Press space: a turn passes without a move",
            &press_text("space"),
        );
    }
    if latency.is_realtime() {
        actions = actions.game_preset(
            TIMEOUT,
            "No key within the action timeout: the snake moves on by itself",
            TIMEOUT_TEXT,
        );
    }
    actions
}

/// Game time of the real-time loop, once the player tells the time of replies
/// (`Env::set_action_time`): when the loop started and when the snake last moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LoopTime {
    start_ms: u64,
    last_move_ms: u64,
}

#[derive(Clone, Debug)]
pub struct SnakeEnv {
    game: Snake,
    actions: TextActions,
    /// Real time: the game loop runs from the first reply on (before it nothing moves).
    loop_started: bool,
    /// The time told for the next reply.
    reply_at_ms: Option<u64>,
    loop_time: Option<LoopTime>,
    backdrop: RefCell<Backdrop>,
}

impl SnakeEnv {
    /// Stop, Slow or Normal latency (any other timeout is no GameVerse setting).
    pub fn new(action_mode: ActionMode, latency: LatencyMode) -> Self {
        let realtime = latency.is_realtime();
        Self {
            game: Snake::new(SnakeConfig {
                action_mode,
                latency,
                // In real time the replies are capped here (idle steps are no replies);
                // in Stop mode the registry's time limit is the cap.
                step_cap: if realtime { STEP_CAP } else { u32::MAX },
                ..SnakeConfig::default()
            }),
            actions: presets(action_mode, latency),
            loop_started: false,
            reply_at_ms: None,
            loop_time: None,
            backdrop: RefCell::default(),
        }
    }

    pub fn game(&self) -> &Snake {
        &self.game
    }

    fn realtime(&self) -> bool {
        self.game.config().latency.is_realtime()
    }

    /// The preset that presses the key of a heading.
    pub fn move_action(&self, heading: Heading) -> Option<Action> {
        self.actions
            .preset_index(key_name(heading))
            .and_then(|i| self.actions.preset_action(i))
    }

    /// A reply in real time: its first arrow moves the snake; with a told time, the loop
    /// starts at the first reply and checks the time after the reply's move, as the
    /// reference's loop does (`RealtimeDriver`).
    fn realtime_reply(&mut self, text: &str) -> StepResult {
        let at = self.reply_at_ms.take();
        if !self.loop_started {
            self.loop_started = true;
            self.loop_time = at.map(|at| LoopTime {
                start_ms: at,
                last_move_ms: at,
            });
            if self.loop_time.is_some() && !self.game.game_over() {
                self.game.loop_check(0);
            }
        }
        let turn = self.game.turn();
        let first = self.game.step(text);
        if let (Some(t), Some(at)) = (&mut self.loop_time, at) {
            if self.game.turn() != turn {
                t.last_move_ms = at;
                let elapsed = at.saturating_sub(t.start_ms);
                if !self.game.game_over() {
                    self.game.loop_check(elapsed);
                }
            }
        }
        let rest = self.game.settle();
        StepResult {
            reward: first.reward + rest.reward,
            ..rest
        }
    }

    /// The loop's timeout passed without a key: the snake moves on by itself, at the
    /// last move's time plus the timeout when the time is kept.
    fn timeout(&mut self) -> StepResult {
        if self.loop_started {
            self.game.auto_advance();
            let timeout = self.game.config().latency.auto_advance_after_ms();
            if let (Some(t), Some(timeout)) = (&mut self.loop_time, timeout) {
                t.last_move_ms += timeout;
                let elapsed = t.last_move_ms.saturating_sub(t.start_ms);
                if !self.game.game_over() {
                    self.game.loop_check(elapsed);
                }
            }
        }
        self.game.settle()
    }

    fn signals(&self) -> Signals {
        Signals {
            success: false,
            events: (1..=self.game.foods_eaten())
                .map(|k| format!("foods {k}"))
                .collect(),
            ..Signals::default()
        }
    }
}

impl Env for SnakeEnv {
    fn id(&self) -> &str {
        ID
    }

    text_action_methods!();

    fn keymap(&self) -> Vec<KeyBinding> {
        let index = |name: &str| self.actions.preset_index(name);
        let mut keys = Vec::new();
        for (key, name) in [
            ("ArrowLeft", "left"),
            ("a", "left"),
            ("ArrowRight", "right"),
            ("d", "right"),
            ("ArrowUp", "up"),
            ("w", "up"),
            ("ArrowDown", "down"),
            ("s", "down"),
            (" ", WAIT),
        ] {
            if let Some(i) = index(name) {
                keys.push(KeyBinding::new(key, i));
            }
        }
        keys
    }

    fn clock(&self) -> Option<Clock> {
        let timeout = self.game.config().latency.auto_advance_after_ms()?;
        Some(Clock {
            mode: ClockMode::IdleTimeout,
            tick_ms: u32::try_from(timeout).ok()?,
            idle: self.actions.preset_index(TIMEOUT)?,
        })
    }

    fn observation_delay_ms(&self) -> u64 {
        if self.realtime() {
            OBSERVATION_DELAY_MS
        } else {
            0
        }
    }

    fn set_action_time(&mut self, at_ms: u64) {
        if self.realtime() {
            self.reply_at_ms = Some(at_ms);
        }
    }

    fn render_fps(&self) -> u32 {
        VIDEO_FPS
    }

    fn words(&self) -> Words {
        Words {
            goal: "Eat food; avoid the walls and your own body",
            success: "won",
            failure: "the game ended",
        }
    }

    fn own_step_limit(&self) -> Option<u32> {
        self.realtime().then_some(STEP_CAP)
    }

    fn status_note(&self) -> Option<String> {
        let score = self.game.foods_eaten();
        Some(if self.realtime() {
            format!(
                "score {score}; the snake moved on its own {} times",
                self.game.auto_moves()
            )
        } else {
            format!(
                "score {score}; turn {} of {}",
                self.game.turn(),
                super::MAX_TURNS
            )
        })
    }

    fn reset(&mut self, seed: Option<u64>) -> Reset {
        self.game.reset(seed);
        self.loop_started = false;
        self.reply_at_ms = None;
        self.loop_time = None;
        Reset {
            obs: self.observation(),
            info: Info::default(),
        }
    }

    fn step(&mut self, action: Action) -> Result<Step, EnvError> {
        let realtime = self.realtime();
        let result = match self.actions.resolve(&action)? {
            Played::Reply(text) if realtime => {
                let text = text.to_string();
                self.realtime_reply(&text)
            }
            Played::Reply(text) => self.game.step(text),
            // The idle preset: the loop's timeout passed without a key.
            Played::Call(_) => self.timeout(),
        };
        Ok(Step {
            obs: self.observation(),
            reward: result.reward,
            terminated: result.terminated,
            truncated: realtime && result.truncated,
            info: Info::default(),
            signals: self.signals(),
        })
    }

    /// The board (border included) row by row from the top, as drawn: 0 empty, 1 wall
    /// or obstacle, 2 food, 3 body, 4 head.
    fn observation(&self) -> Observation {
        let b = self.game.config().board_size;
        let head = self.game.body.last().copied();
        let mut cells = Vec::with_capacity((b * b) as usize);
        for y in (0..b).rev() {
            for x in 0..b {
                let p = (x, y);
                cells.push(if Some(p) == head {
                    HEAD
                } else if self.game.body.contains(&p) {
                    BODY
                } else if x == 0
                    || y == 0
                    || x == b - 1
                    || y == b - 1
                    || self.game.obstacles.contains(&p)
                {
                    WALL
                } else if self.game.food.contains(&p) {
                    FOOD
                } else {
                    EMPTY
                });
            }
        }
        Observation::Vector(cells.into())
    }

    fn frame_size(&self) -> (u32, u32) {
        let b = self.game.config().board_size;
        let board = b * super::render::cell_size(&self.game);
        (board as u32, (board + super::render::PANEL_HEIGHT) as u32)
    }

    fn render(&self, frame: &mut Frame) {
        self.game.render(frame, &mut self.backdrop.borrow_mut());
    }

    fn snapshot(&self) -> Option<Value> {
        Some(self.game.state_json())
    }

    fn instructions(&self, text_mode: bool) -> Option<String> {
        system_instructions(&self.agent_prompts()?, text_mode)
    }

    fn agent_prompts(&self) -> Option<AgentPrompts> {
        let mode = self.game.config().action_mode;
        Some(
            agent_prompts(GAME_NAME, prompts(mode), self.game.prompt_values())
                .with_memory(memory_prompts(mode), self.game.observation_text()),
        )
    }

    fn render_text(&self) -> String {
        let codes = match self.observation() {
            Observation::Vector(v) => v.to_vec(),
            _ => Vec::new(),
        };
        let b = self.game.config().board_size.max(1) as usize;
        let mut rows: Vec<String> = codes
            .chunks(b)
            .map(|row| {
                row.iter()
                    .map(|&c| match c as u8 {
                        1 => '#',
                        2 => '*',
                        3 => 'o',
                        4 => '@',
                        _ => '.',
                    })
                    .collect()
            })
            .collect();
        rows.push(format!(
            "head @ heading {}, body o, food *; {} eaten",
            self.game.heading().letter(),
            self.game.foods_eaten()
        ));
        rows.join("\n")
    }

    fn clone_box(&self) -> Box<dyn Env> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn milestones(&self) -> Option<&'static str> {
        Some(include_str!("milestones.json"))
    }

    /// GameVerse's normalized 0-100 score of the game so far.
    fn normalized_score(&self) -> Option<f64> {
        Some(self.game.normalized_score())
    }

    fn oracle(&self, _control: Control) -> Option<Box<dyn Solver>> {
        Some(Box::new(super::oracle::Expert))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::oracle::solve;

    fn made(kwargs: serde_json::Value) -> Box<dyn Env> {
        crate::make(ID, kwargs.as_object().unwrap()).unwrap()
    }

    fn body(env: &dyn Env) -> Value {
        env.snapshot().unwrap()["body"].clone()
    }

    #[test]
    fn stop_mode_moves_per_key_and_waits_without_one() {
        let mut env = made(serde_json::json!({}));
        assert_eq!(env.clock(), None);
        assert_eq!(env.action_names(), vec!["L", "R", "U", "D"]);
        env.reset(Some(42));
        env.step(Action::Text("L\nU".into())).unwrap();
        assert_eq!(body(env.as_ref()), serde_json::json!([[2, 4]]));
        // Not a key in semantic mode: the world waits.
        for reply in ["left", "Wait", "L()", "**L**"] {
            env.step(Action::Text(reply.into())).unwrap();
        }
        assert_eq!(body(env.as_ref()), serde_json::json!([[2, 4]]));
        env.step(env.parse_action(" l ").unwrap()).unwrap();
        assert_eq!(body(env.as_ref()), serde_json::json!([[1, 4]]));
        // GUI mode: space is a turn without a move.
        let mut gui = made(serde_json::json!({ "action_mode": "gui" }));
        gui.reset(None);
        let wait = gui.keymap().iter().find(|k| k.key == " ").unwrap().action;
        gui.step(gui.preset_action(wait).unwrap()).unwrap();
        assert_eq!(body(gui.as_ref()), serde_json::json!([[3, 3]]));
        assert!(gui.status_note().unwrap().contains("turn 1 of 100"));
    }

    #[test]
    fn real_time_idles_only_after_the_first_reply_and_caps_replies() {
        for (latency, ms) in [("normal", 10_000), ("slow", 20_000)] {
            let mut env = made(serde_json::json!({ "latency": latency }));
            let clock = env.clock().unwrap();
            assert_eq!((clock.mode, clock.tick_ms), (ClockMode::IdleTimeout, ms));
            assert_eq!(env.action_names()[clock.idle], TIMEOUT_TEXT);
            let idle = env.preset_action(clock.idle).unwrap();
            env.reset(Some(42));
            env.step(idle.clone()).unwrap();
            assert_eq!(
                body(env.as_ref()),
                serde_json::json!([[3, 3]]),
                "loop not started"
            );
            // Only the first key of a reply counts in real time.
            env.step(Action::Text("U\nU".into())).unwrap();
            assert_eq!(body(env.as_ref()), serde_json::json!([[3, 4]]));
            env.step(idle.clone()).unwrap();
            assert_eq!(body(env.as_ref()), serde_json::json!([[3, 5]]));
            assert_eq!(env.own_step_limit(), Some(100));
            let mut truncated_at = None;
            for i in 2..=100 {
                env.step(idle.clone()).unwrap();
                if env.step(Action::Text("Wait".into())).unwrap().truncated {
                    truncated_at = Some(i);
                }
                if env.snapshot().unwrap()["game_over"] == true {
                    break;
                }
            }
            // The snake runs into the wall on its own long before 100 replies.
            assert_eq!(truncated_at, None);
            assert_eq!(env.snapshot().unwrap()["game_over"], true);
        }
        let mut env = made(serde_json::json!({ "latency": "normal" }));
        env.reset(Some(42));
        for i in 1..=100 {
            let s = env.step(Action::Text("x".into())).unwrap();
            assert_eq!(s.truncated, i == 100);
        }
    }

    #[test]
    fn the_oracle_eats_and_food_is_counted() {
        let mut env = made(serde_json::json!({}));
        env.reset(Some(42));
        let moves = solve(env.as_ref(), 100);
        let mut last = None;
        for m in &moves {
            last = Some(env.step(env.parse_action(m).unwrap()).unwrap());
        }
        let last = last.unwrap();
        let eaten = env.snapshot().unwrap()["foods_eaten"].as_u64().unwrap();
        assert!(eaten >= 8, "{eaten}");
        assert_eq!(last.signals.events.len() as u64, eaten);
        assert!(!last.signals.success);
        let prompt = env.instructions(false).unwrap();
        assert!(prompt.contains("on an 9×9 grid"));
    }
}
