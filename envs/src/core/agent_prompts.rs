//! A game's agent prompts as GameVerse's harness sends them (`docs/gameverse.md`,
//! "Harness"): a system template and a per-step user template, both Python format
//! strings (`{name}` placeholders, `{{`/`}}` literal braces), the user template with image
//! markers where the previous and current screenshots go, and the placeholder values the
//! game supplies for its current state (the reference's `get_game_info`).

/// Where the screenshot before the last action goes in a user template.
pub const PREV_STATE_IMAGE: &str = "<|prev_state_image|>";
/// Where the current screenshot goes in a user template.
pub const CUR_STATE_IMAGE: &str = "<|cur_state_image|>";
/// How many history screenshots a memory agent's history-review template shows.
pub const RECENT_IMAGES: usize = 5;

/// Where history screenshot `k` (0 = oldest of the last [`RECENT_IMAGES`]) goes in a
/// memory agent's history-review template: `<|recent_image_k|>`.
pub fn recent_image_marker(k: usize) -> String {
    format!("<|recent_image_{k}|>")
}

/// A game's memory-agent templates (`docs/gameverse.md`, "Memory agent"): the
/// history-review request and the action-with-memory request, each a system and a
/// user template in the format of the zero-shot ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryTemplates {
    pub review_system: &'static str,
    pub review_user: &'static str,
    pub action_system: &'static str,
    pub action_user: &'static str,
}

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
    /// The memory agent's templates, for a game and action mode that have them.
    pub memory: Option<MemoryTemplates>,
    /// The current state as the reference's observation text (`obs.to_text()`), which
    /// the memory agent keeps and searches its memory with; `None` for a game without
    /// it.
    pub observation: Option<String>,
}

impl AgentPrompts {
    /// With the memory agent's templates and the observation text.
    pub fn with_memory(mut self, memory: Option<MemoryTemplates>, observation: String) -> Self {
        self.memory = memory;
        self.observation = Some(observation);
        self
    }

    /// The value the game gives a placeholder, if it gives one.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }
}
