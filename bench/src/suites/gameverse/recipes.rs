//! What goes into the `gameverse` suite: one recipe per game and setting.

use serde_json::{json, Map, Value};

pub struct Recipe {
    pub env: &'static str,
    pub kwargs: Map<String, Value>,
    /// The task id.
    pub slug: String,
    pub title: String,
    pub family: &'static str,
    pub seed: u64,
    /// GameVerse's step cap for the game.
    pub step_cap: u32,
    /// The normalized score that passes.
    pub pass_score: f64,
    /// Non-visual rules added to the game's own task text.
    pub rules: &'static str,
    /// The expert's demonstration shows at most this many decisions from the start.
    pub demo_cap: usize,
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
    let mut out = vec![
        Recipe {
            env: "GameVerse/TicTacToe",
            kwargs: object(json!({"player_mark": "X"})),
            slug: "tic-tac-toe-x".into(),
            title: "Tic-Tac-Toe as X".into(),
            family: "GameVerse-TicTacToe",
            seed: 0,
            step_cap: 20,
            pass_score: 100.0,
            rules: ttt_rules,
            demo_cap: 9,
        },
        Recipe {
            env: "GameVerse/TicTacToe",
            kwargs: object(json!({"player_mark": "O"})),
            slug: "tic-tac-toe-o".into(),
            title: "Tic-Tac-Toe as O".into(),
            family: "GameVerse-TicTacToe",
            seed: 0,
            step_cap: 20,
            pass_score: 100.0,
            rules: ttt_rules,
            demo_cap: 9,
        },
    ];
    // 2048 and Maze are unseeded in GameVerse: a few seeded boards stand in for its
    // trials (5 and 10). Snake is always its seed-42 game.
    for seed in 1..=3 {
        out.push(Recipe {
            env: "GameVerse/2048",
            kwargs: Map::new(),
            slug: format!("2048-s{seed}"),
            title: format!("2048 (seed {seed})"),
            family: "GameVerse-2048",
            seed,
            step_cap: 1000,
            pass_score: 100.0,
            rules: "A reply without a readable direction does nothing. The score is the \
                merge points over 20000 (the 2048 tile is about there); five moves in a row \
                that change nothing end the game.",
            demo_cap: 40,
        });
    }
    for seed in 1..=5 {
        out.push(Recipe {
            env: "GameVerse/Maze",
            kwargs: Map::new(),
            slug: format!("maze-s{seed}"),
            title: format!("Maze (seed {seed})"),
            family: "GameVerse-Maze",
            seed,
            step_cap: 20,
            pass_score: 100.0,
            rules: "A reply without a readable direction, or a move into a wall, does \
                nothing. The score is the part of the shortest distance to the flag you \
                closed.",
            demo_cap: 20,
        });
    }
    out.push(Recipe {
        env: "GameVerse/Snake",
        kwargs: Map::new(),
        slug: "snake".into(),
        title: "Snake".into(),
        family: "GameVerse-Snake",
        seed: 42,
        step_cap: 100,
        pass_score: 100.0,
        rules: "The snake moves one cell per reply; a reply without a readable key keeps \
            its direction. The score is 10 per food eaten (100 for ten).",
        demo_cap: 48,
    });
    out
}
