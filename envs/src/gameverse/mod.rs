//! GameVerse's open games, rule for rule with the reference repository (its commit
//! 7cbb423; `tests/golden/gameverse/generate.py` replays its code): 2048, Maze and Snake.
//!
//! Each game takes the text a model writes under `### Actions` and reads it the way the
//! reference does in its semantic or GUI action mode, with the same fixed consequence of
//! a reply it cannot read (a step that does nothing). Randomness goes through our ports of
//! the reference's generators: CPython's `random` for 2048 and Maze (unseeded in the
//! benchmark; `reset(seed)` here is `random.seed(seed)` there), numpy's legacy
//! `RandomState` for Snake (seeded with 42 in the benchmark).
//!
//! The shared pieces mirror the Python behaviour the parsers depend on: string classes
//! ([`py_str`]), regular expressions ([`py_pattern`]), `json.loads` ([`py_json`]), the
//! JSON GUI actions ([`gui_action`]), the direction reader of 2048 and Maze
//! ([`direction_words`]) and the prompt templates ([`prompt`]).

pub mod direction_words;
pub mod gui_action;
pub mod maze;
pub mod prompt;
pub mod py_json;
pub mod py_pattern;
pub mod py_str;
pub mod snake;
pub mod twenty_forty_eight;

/// How the model acts: game-level commands or JSON GUI actions on the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ActionMode {
    #[default]
    Semantic,
    Gui,
}

impl ActionMode {
    pub fn name(self) -> &'static str {
        match self {
            ActionMode::Semantic => "semantic",
            ActionMode::Gui => "gui",
        }
    }
}

/// The outcome of one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepResult {
    /// The change of the game's own score over the step (the number the reference's
    /// `evaluate` reports: 2048 merge points, Maze progress 0-1, Snake foods eaten).
    pub reward: f64,
    /// The game is over.
    pub terminated: bool,
    /// GameVerse's step cap was reached while the game was still on.
    pub truncated: bool,
}
pub mod pixels;
