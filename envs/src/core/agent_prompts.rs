//! A game's agent prompts as GameVerse's harness sends them (`docs/gameverse.md`,
//! "Harness"): a system template and a per-step user template, both Python format
//! strings (`{name}` placeholders, `{{`/`}}` literal braces), the user template with image
//! markers where the previous and current screenshots go, and the placeholder values the
//! game supplies for its current state (the reference's `get_game_info`).

/// Where the screenshot before the last action goes in a user template.
pub const PREV_STATE_IMAGE: &str = "<|prev_state_image|>";
/// Where the current screenshot goes in a user template.
pub const CUR_STATE_IMAGE: &str = "<|cur_state_image|>";

/// One game's agent prompts in the environment's current state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentPrompts {
    /// The game's name inside GameVerse (`TicTacToe`, `TwentyFourtyEight`, `Maze`,
    /// `Snake`): its reflection and judge prompts name the game by it.
    pub game_name: &'static str,
    /// The system template (its `{reflection_experience}` slot holds the learned
    /// experience, or the no-experience sentence).
    pub system: &'static str,
    /// The per-step user template, with [`PREV_STATE_IMAGE`] / [`CUR_STATE_IMAGE`].
    pub user: &'static str,
    /// The placeholder values of the current state, in the game's order.
    pub values: Vec<(&'static str, String)>,
}

impl AgentPrompts {
    /// The value the game gives a placeholder, if it gives one.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }
}
