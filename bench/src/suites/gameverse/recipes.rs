//! What goes into the `gameverse` suite: one recipe per game and setting.

use serde_json::{json, Map, Value};

pub struct Recipe {
    pub env: &'static str,
    pub kwargs: Map<String, Value>,
    /// The task id.
    pub slug: &'static str,
    pub title: &'static str,
    pub family: &'static str,
    pub seed: u64,
    /// GameVerse's step cap for the game.
    pub step_cap: u32,
    /// The normalized score that passes.
    pub pass_score: f64,
    /// Non-visual rules added to the game's own task text.
    pub rules: &'static str,
}

fn object(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

/// Every recipe, in display order.
pub fn all() -> Vec<Recipe> {
    // Tic-Tac-Toe: a draw is the best result against the minimax opponent (score 100);
    // GameVerse plays 10 games as X and 10 as O.
    let ttt_rules = "A move on an occupied cell, or a reply naming no cell, loses at once. \
        Draw (or win) to score 100; a loss scores by the marks you placed.";
    vec![
        Recipe {
            env: "GameVerse/TicTacToe",
            kwargs: object(json!({"player_mark": "X"})),
            slug: "tic-tac-toe-x",
            title: "Tic-Tac-Toe as X",
            family: "GameVerse-TicTacToe",
            seed: 0,
            step_cap: 20,
            pass_score: 100.0,
            rules: ttt_rules,
        },
        Recipe {
            env: "GameVerse/TicTacToe",
            kwargs: object(json!({"player_mark": "O"})),
            slug: "tic-tac-toe-o",
            title: "Tic-Tac-Toe as O",
            family: "GameVerse-TicTacToe",
            seed: 0,
            step_cap: 20,
            pass_score: 100.0,
            rules: ttt_rules,
        },
    ]
}
