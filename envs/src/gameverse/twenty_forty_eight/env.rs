//! `GameVerse/2048` under the environment interface: a step is one reply, read by the
//! game's direction reader in either action mode (a reply naming no direction uses the
//! step and changes nothing). The presets are the four moves, written as the action mode
//! writes them (`up` …, or GUI key presses).

use serde_json::Value;

use super::{
    memory_prompts, prompts, Status, TwentyFortyEight, TwentyFortyEightConfig, FRAME_SIZE,
    TARGET_TILE, TASK,
};
use crate::core::agent_prompts::AgentPrompts;
use crate::core::env::{Action, Env, Info, KeyBinding, Observation, Reset, Signals, Step, Words};
use crate::core::error::EnvError;
use crate::core::oracle::{Control, Solver};
use crate::gameverse::direction_words::Direction;
use crate::gameverse::prompt::{agent_prompts, system_instructions};
use crate::gameverse::text_actions::{text_action_methods, Played, TextActions};
use crate::gameverse::{moves, ActionMode, VIDEO_FPS};
use crate::Frame;

pub const ID: &str = "GameVerse/2048";
/// The game's name inside GameVerse (its reflection and judge prompts use it).
pub const GAME_NAME: &str = "TwentyFourtyEight";

/// The smallest tile reported as a milestone event (`tile 8`, `tile 16`, …).
const FIRST_MILESTONE_TILE: u32 = 8;

#[derive(Clone, Debug)]
pub struct TwentyFortyEightEnv {
    game: TwentyFortyEight,
    actions: TextActions,
}

impl TwentyFortyEightEnv {
    pub fn new(action_mode: ActionMode) -> Self {
        Self {
            game: TwentyFortyEight::new(TwentyFortyEightConfig {
                action_mode,
                // The registry's time limit is the step cap.
                step_cap: u32::MAX,
            }),
            actions: moves::presets(action_mode, "Slide every tile"),
        }
    }

    pub fn game(&self) -> &TwentyFortyEight {
        &self.game
    }

    /// The preset that presses a direction.
    pub fn move_action(&self, direction: Direction) -> Option<Action> {
        self.actions
            .preset_index(direction.word())
            .and_then(|i| self.actions.preset_action(i))
    }

    fn signals(&self) -> Signals {
        let best = self
            .game
            .board()
            .iter()
            .flatten()
            .copied()
            .max()
            .unwrap_or(0);
        let mut events = Vec::new();
        let mut tile = FIRST_MILESTONE_TILE;
        while tile <= best {
            events.push(format!("tile {tile}"));
            tile *= 2;
        }
        Signals {
            success: self.game.status() == Status::Win,
            events: events.into(),
            ..Signals::default()
        }
    }
}

impl Env for TwentyFortyEightEnv {
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
            goal: "Merge tiles into a 2048 tile",
            success: "made a 2048 tile",
            failure: "the board locked up",
        }
    }

    fn mission(&self) -> Option<String> {
        Some(TASK.to_string())
    }

    fn status_note(&self) -> Option<String> {
        let mut note = format!("score {}", self.game.score());
        if self.game.unchanged_moves() > 0 {
            note.push_str(&format!(
                "; {} moves in a row changed nothing",
                self.game.unchanged_moves()
            ));
        }
        Some(note)
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
            signals: self.signals(),
        })
    }

    /// The board's tile values, row-major.
    fn observation(&self) -> Observation {
        Observation::Vector(
            self.game
                .board()
                .iter()
                .flatten()
                .map(|&v| v as f32)
                .collect(),
        )
    }

    fn frame_size(&self) -> (u32, u32) {
        (FRAME_SIZE, FRAME_SIZE)
    }

    fn render(&self, frame: &mut Frame) {
        self.game.render(frame);
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
            .board()
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&v| format!("{v:>5}"))
                    .collect::<Vec<_>>()
                    .join("")
            })
            .collect();
        rows.push(format!(
            "score {}; {}",
            self.game.score(),
            match self.game.status() {
                Status::Play => "playing".to_string(),
                Status::Win => format!("won (a {TARGET_TILE} tile)"),
                Status::Lose => "lost".to_string(),
            }
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

    #[test]
    fn replies_are_judged_by_the_game_and_presets_are_its_moves() {
        for mode in ["semantic", "gui"] {
            let mut env = made(serde_json::json!({ "action_mode": mode }));
            env.reset(Some(0));
            let mut by_text = env.clone();
            let up = env.parse_action(&env.action_names()[0]).unwrap();
            assert_eq!(up, env.preset_action(0).unwrap());
            env.step(env.preset_action(0).unwrap()).unwrap();
            by_text.step(Action::Text("**Up**".into())).unwrap();
            assert_eq!(env.snapshot(), by_text.snapshot(), "{mode}");
            // No direction: the step is used, nothing changes, not even the count.
            let before = env.snapshot();
            let s = env.step(env.parse_action("move up").unwrap()).unwrap();
            assert_eq!((s.reward, s.terminated), (0.0, false));
            assert_eq!(env.snapshot(), before);
        }
        let mut env = made(serde_json::json!({}));
        assert!(env.step(Action::Text("up".into())).is_err(), "before reset");
        env.reset(None);
        assert!(env.step(Action::Index(0)).is_err());
    }

    #[test]
    fn the_oracle_wins_seed_0_and_tiles_are_milestones() {
        let mut env = made(serde_json::json!({}));
        env.reset(Some(0));
        let moves = solve(env.as_ref(), 1000);
        assert_eq!(moves.len(), 942);
        let mut last = None;
        for m in &moves {
            last = Some(env.step(env.parse_action(m).unwrap()).unwrap());
        }
        let last = last.unwrap();
        assert!(last.terminated && last.signals.success && !last.truncated);
        assert_eq!(last.signals.events.last(), Some("tile 2048"));
        assert_eq!(last.signals.events.first(), Some("tile 8"));
    }

    #[test]
    fn the_time_limit_is_the_step_cap_and_instructions_are_the_system_prompt() {
        let mut env = made(serde_json::json!({}));
        env.reset(Some(1));
        for i in 1..=1000 {
            let s = env.step(Action::Text(String::new())).unwrap();
            assert_eq!(s.truncated, i == 1000);
        }
        let prompt = env.instructions(false).unwrap();
        assert!(prompt.starts_with("You are an expert AI agent specialized in playing the 2048"));
        assert!(prompt.contains(crate::gameverse::prompt::NO_EXPERIENCE));
        assert!(!prompt.contains("{reflection_experience}") && !prompt.contains("{{"));
        assert_eq!(env.instructions(true), None);
    }
}
