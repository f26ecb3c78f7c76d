//! `GameVerse/Maze` under the environment interface: a step is one reply, read as the
//! action mode reads it (semantic: the direction reader; GUI: one JSON key press), and a
//! reply that names no move uses the step with the ball in place. The presets are the
//! four moves as the action mode writes them.

use std::cell::RefCell;

use serde_json::Value;

use super::render::Drawn;
use super::{memory_prompts, prompts, Maze, MazeConfig, FRAME_SIZE, TASK};
use crate::core::agent_prompts::AgentPrompts;
use crate::core::env::{Action, Env, Info, KeyBinding, Observation, Reset, Signals, Step, Words};
use crate::core::error::EnvError;
use crate::core::oracle::{Control, Solver};
use crate::gameverse::direction_words::Direction;
use crate::gameverse::prompt::{agent_prompts, system_instructions};
use crate::gameverse::text_actions::{text_action_methods, Played, TextActions};
use crate::gameverse::{moves, ActionMode, VIDEO_FPS};
use crate::Frame;

pub const ID: &str = "GameVerse/Maze";
/// The game's name inside GameVerse (its reflection and judge prompts use it).
pub const GAME_NAME: &str = "Maze";

/// Cell codes of the observation.
const WALL: f32 = 0.0;
const OPEN: f32 = 1.0;
const TARGET: f32 = 2.0;
const BALL: f32 = 3.0;

#[derive(Clone, Debug)]
pub struct MazeEnv {
    game: Maze,
    actions: TextActions,
    drawn: RefCell<Drawn>,
}

impl MazeEnv {
    pub fn new(action_mode: ActionMode) -> Self {
        Self {
            game: Maze::new(MazeConfig {
                action_mode,
                // The registry's time limit is the step cap.
                step_cap: u32::MAX,
            }),
            actions: moves::presets(action_mode, "Move the ball"),
            drawn: RefCell::default(),
        }
    }

    pub fn game(&self) -> &Maze {
        &self.game
    }

    /// The milestone events after a step (`docs/gameverse.md`, "Signals"): `distance d`
    /// (shortest-path steps left), `moved` once the ball has moved, `closer` while it is
    /// nearer the flag than at the start, `halfway` while at most half the start's
    /// distance is left, `flag` on the flag.
    fn events(&self) -> Vec<String> {
        let (d, d0) = (self.game.distance(), self.game.initial_distance());
        let mut events = vec![format!("distance {d}")];
        if self.game.moves() > 0 {
            events.push("moved".into());
        }
        if d < d0 {
            events.push("closer".into());
        }
        if 2 * d <= d0 {
            events.push("halfway".into());
        }
        if self.game.won() {
            events.push("flag".into());
        }
        events
    }

    /// The preset that presses a direction.
    pub fn move_action(&self, direction: Direction) -> Option<Action> {
        self.actions
            .preset_index(direction.word())
            .and_then(|i| self.actions.preset_action(i))
    }
}

impl Env for MazeEnv {
    fn id(&self) -> &str {
        ID
    }

    text_action_methods!();

    fn keymap(&self) -> Vec<KeyBinding> {
        moves::keymap()
    }

    fn render_fps(&self) -> u32 {
        VIDEO_FPS
    }

    fn words(&self) -> Words {
        Words {
            goal: "Move the ball to the red flag",
            success: "reached the flag",
            failure: "the episode ended",
        }
    }

    fn mission(&self) -> Option<String> {
        Some(TASK.to_string())
    }

    fn reset(&mut self, seed: Option<u64>) -> Reset {
        self.game.reset(seed);
        Reset {
            obs: self.observation(),
            info: Info::default(),
        }
    }

    fn step(&mut self, action: Action) -> Result<Step, EnvError> {
        let reply = match self.actions.resolve(&action)? {
            Played::Reply(text) => text,
            Played::Call(name) => {
                return Err(EnvError::InvalidAction(format!("{name} is not a move")))
            }
        };
        let result = self.game.step(reply);
        Ok(Step {
            obs: self.observation(),
            reward: result.reward,
            terminated: result.terminated,
            truncated: false,
            info: Info::default(),
            signals: Signals {
                success: self.game.won(),
                events: self.events().into(),
                ..Signals::default()
            },
        })
    }

    /// The grid row-major: 0 wall, 1 open, 2 target, 3 ball.
    fn observation(&self) -> Observation {
        let mut cells = Vec::new();
        for (r, row) in self.game.grid().iter().enumerate() {
            for (c, &open) in row.iter().enumerate() {
                cells.push(if (r, c) == self.game.ball() {
                    BALL
                } else if (r, c) == self.game.target() {
                    TARGET
                } else if open {
                    OPEN
                } else {
                    WALL
                });
            }
        }
        Observation::Vector(cells.into())
    }

    fn frame_size(&self) -> (u32, u32) {
        (FRAME_SIZE, FRAME_SIZE)
    }

    fn render(&self, frame: &mut Frame) {
        self.game.render(frame, &mut self.drawn.borrow_mut());
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
        let mut rows: Vec<String> = self
            .game
            .grid()
            .iter()
            .enumerate()
            .map(|(r, row)| {
                row.iter()
                    .enumerate()
                    .map(|(c, &open)| match (r, c) {
                        p if p == self.game.ball() => 'B',
                        p if p == self.game.target() => 'F',
                        _ if open => '.',
                        _ => '#',
                    })
                    .collect()
            })
            .collect();
        rows.push(format!(
            "ball B, flag F; {} steps from the flag",
            self.game.distance()
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

    fn distance_to_goal(&self) -> Option<u32> {
        u32::try_from(self.game.distance()).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::oracle::solve;

    fn made(kwargs: serde_json::Value) -> Box<dyn Env> {
        crate::make(ID, kwargs.as_object().unwrap()).unwrap()
    }

    #[test]
    fn drawing_only_the_changed_cells_paints_what_a_whole_drawing_does() {
        let mut env = MazeEnv::new(ActionMode::Semantic);
        let mut kept = Frame::default();
        for seed in 0..20 {
            env.reset(Some(seed));
            for i in 0..30 {
                let _ = env.step(env.preset_action((i * 7 + seed as usize) % 4).unwrap());
                env.render(&mut kept);
                let mut whole = Frame::default();
                env.game.render(&mut whole, &mut Drawn::default());
                assert_eq!(kept, whole, "seed {seed} step {i}");
            }
        }
    }

    #[test]
    fn the_oracle_walks_a_shortest_path_and_distance_counts_down() {
        for mode in ["semantic", "gui"] {
            let mut env = made(serde_json::json!({ "action_mode": mode }));
            for seed in 0..50 {
                env.reset(Some(seed));
                let d0 = env.distance_to_goal().unwrap();
                let moves = solve(env.as_ref(), 20);
                assert_eq!(moves.len() as u32, d0, "seed {seed}");
                for (k, m) in moves.iter().enumerate() {
                    let s = env.step(env.parse_action(m).unwrap()).unwrap();
                    let left = d0 - k as u32 - 1;
                    assert_eq!(env.distance_to_goal(), Some(left));
                    let mut events = vec![format!("distance {left}"), "moved".into()];
                    events.push("closer".into());
                    if 2 * left <= d0 {
                        events.push("halfway".into());
                    }
                    if left == 0 {
                        events.push("flag".into());
                    }
                    assert_eq!(s.signals.events, events.into(), "seed {seed}");
                    assert_eq!((s.terminated, s.signals.success), (left == 0, left == 0));
                }
            }
        }
    }

    #[test]
    fn gui_mode_reads_only_key_presses() {
        let mut env = made(serde_json::json!({ "action_mode": "gui" }));
        env.reset(Some(3));
        let before = env.snapshot();
        // A semantic word moves nothing in GUI mode; the GUI presets do.
        env.step(Action::Text("right".into())).unwrap();
        env.step(Action::Text("down".into())).unwrap();
        assert_eq!(env.snapshot(), before);
        assert!(env.action_names()[0].contains("\"PRESS\""));
        let s = env.step(Action::Text(String::new())).unwrap();
        assert!(!s.truncated);
        for _ in 3..19 {
            env.step(Action::Text(String::new())).unwrap();
        }
        assert!(env.step(Action::Text(String::new())).unwrap().truncated);
    }
}
