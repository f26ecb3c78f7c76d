//! CliffWalking-v1 (= v0), not slippery: `docs/environments.md`, "CliffWalking".

use crate::core::env::{
    discrete_action, Action, ActionSpace, Env, Info, KeyBinding, Observation, Reset, Signals, Step,
};
use crate::core::error::EnvError;
use crate::core::frame::Frame;
use crate::core::oracle::{Control, Solver};
use crate::rng::EnvRng;

use super::sprites;

pub const ROWS: usize = 4;
pub const COLS: usize = 12;
pub const START: usize = 36;
pub const GOAL: usize = 47;
pub const ACTION_NAMES: [&str; 4] = ["Up", "Right", "Down", "Left"];
const MOVES: [(i64, i64); 4] = [(-1, 0), (0, 1), (1, 0), (0, -1)];

pub fn is_cliff(row: usize, col: usize) -> bool {
    row == 3 && (1..=10).contains(&col)
}

#[derive(Clone, Debug)]
pub struct CliffWalking {
    id: &'static str,
    rng: EnvRng,
    state: usize,
    last_action: Option<usize>,
}

impl CliffWalking {
    pub fn new(id: &'static str) -> Self {
        Self {
            id,
            rng: EnvRng::default(),
            state: START,
            last_action: None,
        }
    }

    pub fn state(&self) -> usize {
        self.state
    }
}

/// (next state, reward, terminated) for a move from `s`.
fn transition(s: usize, action: usize) -> (usize, f64, bool) {
    let (dr, dc) = MOVES[action];
    let row = (s / COLS) as i64 + dr;
    let col = (s % COLS) as i64 + dc;
    let row = row.clamp(0, ROWS as i64 - 1) as usize;
    let col = col.clamp(0, COLS as i64 - 1) as usize;
    if is_cliff(row, col) {
        return (START, -100.0, false);
    }
    let next = row * COLS + col;
    (next, -1.0, next == GOAL)
}

impl Env for CliffWalking {
    fn id(&self) -> &str {
        self.id
    }

    fn action_space(&self) -> ActionSpace {
        ActionSpace::Discrete { n: 4 }
    }

    fn action_names(&self) -> Vec<String> {
        ACTION_NAMES.iter().map(|s| s.to_string()).collect()
    }

    fn keymap(&self) -> Vec<KeyBinding> {
        vec![
            KeyBinding::new("ArrowUp", 0),
            KeyBinding::new("ArrowRight", 1),
            KeyBinding::new("ArrowDown", 2),
            KeyBinding::new("ArrowLeft", 3),
        ]
    }

    fn reset(&mut self, seed: Option<u64>) -> Reset {
        // The reference samples its one-state initial distribution: one draw.
        self.rng.reset(seed).categorical_sample(&[1.0]);
        self.state = START;
        self.last_action = None;
        Reset {
            obs: self.observation(),
            info: Info {
                prob: Some(1.0),
                action_mask: None,
            },
        }
    }

    fn step(&mut self, action: Action) -> Result<Step, EnvError> {
        let a = discrete_action(&action, 4)?;
        let (next, reward, terminated) = transition(self.state, a);
        self.rng.get().categorical_sample(&[1.0]);
        self.state = next;
        self.last_action = Some(a);
        Ok(Step {
            obs: self.observation(),
            reward,
            terminated,
            truncated: false,
            info: Info {
                prob: Some(1.0),
                action_mask: None,
            },
            signals: Signals {
                success: terminated,
                events: crate::Events::NONE,
                ..Signals::default()
            },
        })
    }

    fn observation(&self) -> Observation {
        Observation::Int(self.state as i64)
    }

    fn frame_size(&self) -> (u32, u32) {
        (720, 240)
    }

    fn render(&self, frame: &mut Frame) {
        // Facing follows the last move; down before the first one, as in the reference.
        sprites::draw_cliff_world(frame, self.state, self.last_action.unwrap_or(2));
    }

    fn render_text(&self) -> String {
        let mut out = String::new();
        for row in 0..ROWS {
            for col in 0..COLS {
                let s = row * COLS + col;
                let c = if s == self.state {
                    'x'
                } else if s == GOAL {
                    'T'
                } else if is_cliff(row, col) {
                    'C'
                } else {
                    'o'
                };
                out.push(c);
                out.push(' ');
            }
            out.pop();
            out.push('\n');
        }
        out.push_str("x = you, C = cliff, T = goal");
        out
    }

    fn clone_box(&self) -> Box<dyn Env> {
        Box::new(self.clone())
    }

    fn render_fps(&self) -> u32 {
        4
    }
    fn oracle(&self, control: Control) -> Option<Box<dyn Solver>> {
        super::oracle::solver(self, control)
    }

    fn distance_to_goal(&self) -> Option<u32> {
        super::oracle::distance_to_goal(self)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cliff_sends_back_to_start() {
        assert_eq!(transition(START, 1), (START, -100.0, false));
        assert_eq!(transition(START, 0), (24, -1.0, false));
        assert_eq!(transition(35, 2), (GOAL, -1.0, true));
        assert_eq!(transition(0, 3), (0, -1.0, false));
    }
}
