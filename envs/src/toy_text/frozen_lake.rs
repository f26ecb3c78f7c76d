//! FrozenLake-v1 and FrozenLake8x8-v1: `docs/environments.md`, "FrozenLake".

use crate::core::env::{
    discrete_action, Action, ActionSpace, Env, Info, KeyBinding, Observation, Reset, Signals, Step,
    Words,
};
use crate::core::error::EnvError;
use crate::core::frame::Frame;
use crate::core::oracle::{Control, Solver};
use crate::rng::EnvRng;

use super::sprites;

const MAP_4X4: [&str; 4] = ["SFFF", "FHFH", "FFFH", "HFFG"];
const MAP_8X8: [&str; 8] = [
    "SFFFFFFF", "FFFFFFFF", "FFFHFFFF", "FFFFFHFF", "FFFHFFFF", "FHHFFFHF", "FHFFHFHF", "FFFHFFFG",
];
pub const ACTION_NAMES: [&str; 4] = ["Left", "Down", "Right", "Up"];
/// gymnasium ≥ 1.2: the intended move and the two slips are not all exactly 1/3.
pub const SUCCESS: f64 = 1.0 / 3.0;
pub const FAIL: f64 = (1.0 - SUCCESS) / 2.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LakeMap {
    FourByFour,
    EightByEight,
}

impl LakeMap {
    pub fn rows(self) -> &'static [&'static str] {
        match self {
            Self::FourByFour => &MAP_4X4,
            Self::EightByEight => &MAP_8X8,
        }
    }

    pub fn size(self) -> usize {
        self.rows().len()
    }

    /// Where a move in direction `a` (0 left, 1 down, 2 right, 3 up) leads from `s`.
    pub fn moved(self, s: usize, a: usize) -> usize {
        let n = self.size();
        let (mut row, mut col) = (s / n, s % n);
        match a {
            0 => col = col.saturating_sub(1),
            1 => row = (row + 1).min(n - 1),
            2 => col = (col + 1).min(n - 1),
            _ => row = row.saturating_sub(1),
        }
        row * n + col
    }

    /// The map letter (S, F, H, G) of a state.
    pub fn tile(self, s: usize) -> u8 {
        let n = self.size();
        self.rows()[s / n].as_bytes()[s % n]
    }
}

#[derive(Clone, Debug)]
pub struct FrozenLake {
    id: &'static str,
    map: LakeMap,
    slippery: bool,
    rng: EnvRng,
    state: usize,
    last_action: Option<usize>,
}

impl FrozenLake {
    pub fn new(id: &'static str, map: LakeMap, slippery: bool) -> Self {
        Self {
            id,
            map,
            slippery,
            rng: EnvRng::default(),
            state: 0,
            last_action: None,
        }
    }

    pub fn map(&self) -> LakeMap {
        self.map
    }

    pub fn is_slippery(&self) -> bool {
        self.slippery
    }

    pub fn state(&self) -> usize {
        self.state
    }

    /// The probabilities of the reference's transition list in state `s` (the same for
    /// every action).
    fn probabilities(&self, s: usize) -> &'static [f64] {
        if self.slippery && !matches!(self.map.tile(s), b'G' | b'H') {
            &[FAIL, SUCCESS, FAIL]
        } else {
            &[1.0]
        }
    }

    /// Entry `k` of the reference's transition list for action `a` in state `s`:
    /// (probability, next state, reward, terminated). Only the entry drawn is worked out.
    fn outcome(&self, s: usize, a: usize, k: usize) -> Outcome {
        if matches!(self.map.tile(s), b'G' | b'H') {
            // Terminal states loop on themselves with probability 1 and no reward.
            return (1.0, s, 0.0, true);
        }
        // Slippery: the intended direction and the two beside it, left of it first.
        let (prob, dir) = match (self.slippery, k) {
            (false, _) => (1.0, a),
            (true, 0) => (FAIL, (a + 3) % 4),
            (true, 1) => (SUCCESS, a),
            (true, _) => (FAIL, (a + 1) % 4),
        };
        let next = self.map.moved(s, dir);
        let tile = self.map.tile(next);
        let reward = if tile == b'G' { 1.0 } else { 0.0 };
        (prob, next, reward, matches!(tile, b'G' | b'H'))
    }
}

/// (probability, next state, reward, terminated).
type Outcome = (f64, usize, f64, bool);

impl Env for FrozenLake {
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
            KeyBinding::new("ArrowLeft", 0),
            KeyBinding::new("ArrowDown", 1),
            KeyBinding::new("ArrowRight", 2),
            KeyBinding::new("ArrowUp", 3),
        ]
    }

    fn reset(&mut self, seed: Option<u64>) -> Reset {
        self.rng.reset(seed).categorical_sample(&[1.0]);
        self.state = 0;
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
        let probabilities = self.probabilities(self.state);
        let k = self.rng.get().categorical_sample(probabilities);
        let (prob, next, reward, terminated) = self.outcome(self.state, a, k);
        self.state = next;
        self.last_action = Some(a);
        Ok(Step {
            obs: self.observation(),
            reward,
            terminated,
            truncated: false,
            info: Info {
                prob: Some(prob),
                action_mask: None,
            },
            signals: Signals {
                success: terminated && reward > 0.0,
                events: crate::Events::NONE,
                ..Signals::default()
            },
        })
    }

    fn observation(&self) -> Observation {
        Observation::Int(self.state as i64)
    }

    fn frame_size(&self) -> (u32, u32) {
        let side = 64 * self.map.size() as u32;
        (side, side)
    }

    fn render(&self, frame: &mut Frame) {
        // The elf faces its last intended move; down before the first, as in the reference.
        sprites::draw_lake_world(frame, self.map, self.state, self.last_action.unwrap_or(1));
    }

    fn render_text(&self) -> String {
        let n = self.map.size();
        let mut out = String::new();
        if let Some(a) = self.last_action {
            out.push_str(&format!("  ({})\n", ACTION_NAMES[a]));
        }
        for (row, line) in self.map.rows().iter().enumerate() {
            for (col, c) in line.chars().enumerate() {
                if row * n + col == self.state {
                    out.push('[');
                    out.push(c);
                    out.push(']');
                } else {
                    out.push(' ');
                    out.push(c);
                    out.push(' ');
                }
            }
            out.push('\n');
        }
        out.push_str("[ ] = you, S start, F frozen, H hole, G goal");
        out
    }

    fn clone_box(&self) -> Box<dyn Env> {
        Box::new(self.clone())
    }

    fn render_fps(&self) -> u32 {
        4
    }
    fn words(&self) -> Words {
        Words {
            goal: "Reach the goal",
            success: "reached the goal",
            failure: "fell into a hole",
        }
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
    fn slip_probabilities_are_gymnasium_1_2() {
        assert_eq!(FAIL, 0.33333333333333337);
        assert_eq!(SUCCESS, 0.3333333333333333);
    }

    #[test]
    fn deterministic_path_reaches_goal() {
        let mut env = FrozenLake::new("FrozenLake-v1", LakeMap::FourByFour, false);
        env.reset(Some(0));
        let mut last = None;
        for a in [1, 1, 2, 2, 1, 2] {
            last = Some(env.step(Action::Index(a)).unwrap());
        }
        let last = last.unwrap();
        assert_eq!(
            (last.obs, last.reward, last.terminated),
            (Observation::Int(15), 1.0, true)
        );
    }

    #[test]
    fn holes_terminate_without_reward() {
        let mut env = FrozenLake::new("FrozenLake-v1", LakeMap::FourByFour, false);
        env.reset(Some(0));
        env.step(Action::Index(2)).unwrap();
        let s = env.step(Action::Index(1)).unwrap();
        assert_eq!(
            (s.obs, s.reward, s.terminated),
            (Observation::Int(5), 0.0, true)
        );
    }
}
