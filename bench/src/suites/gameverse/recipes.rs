//! What goes into the `gameverse` suite: one recipe per game and setting
//! (`docs/tasks.md`, "The gameverse suite").

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
    /// GameVerse's trials of this setting (one per task where each trial has its own
    /// seeded task).
    pub trials: u32,
}

fn object(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

/// GameVerse's two action modes: the id suffix, the title suffix, the kwarg.
const MODES: [(&str, &str, &str); 2] = [("", "", "semantic"), ("-gui", " (GUI)", "gui")];

fn with_mode(mut kwargs: Map<String, Value>, mode: &str) -> Map<String, Value> {
    if mode != "semantic" {
        kwargs.insert("action_mode".into(), mode.into());
    }
    kwargs
}

/// Every recipe, in display order.
pub fn all() -> Vec<Recipe> {
    let mut out = Vec::new();
    // Tic-Tac-Toe: a draw is the best result against the minimax opponent (score 100);
    // GameVerse plays 10 games as X and 10 as O (the opponent is deterministic, so the
    // trials differ only by the model's sampling). Its main table is GUI mode.
    for (suffix, title, mode) in MODES {
        let rules = match mode {
            "gui" => {
                "A click on an occupied cell or beside the board, or a reply without a \
                readable click, loses at once. Draw (or win) to score 100; a loss scores by \
                the marks you placed."
            }
            _ => {
                "A move on an occupied cell, or a reply naming no cell, loses at once. \
                Draw (or win) to score 100; a loss scores by the marks you placed."
            }
        };
        for mark in ["X", "O"] {
            out.push(Recipe {
                env: "GameVerse/TicTacToe",
                kwargs: with_mode(object(json!({ "player_mark": mark })), mode),
                slug: format!("tic-tac-toe-{}{suffix}", mark.to_lowercase()),
                title: format!("Tic-Tac-Toe as {mark}{title}"),
                family: "GameVerse-TicTacToe",
                seed: 0,
                step_cap: 20,
                pass_score: 100.0,
                rules,
                demo_cap: 9,
                trials: 10,
            });
        }
    }
    // 2048 and Maze are unseeded in GameVerse: each of its trials (5 and 10) is a task
    // with its own recorded seed (2048: seeds the expert wins within the cap).
    for (suffix, title, mode) in MODES {
        for seed in 0..=4 {
            out.push(Recipe {
                env: "GameVerse/2048",
                kwargs: with_mode(Map::new(), mode),
                slug: format!("2048{suffix}-s{seed}"),
                title: format!("2048 (seed {seed}){title}"),
                family: "GameVerse-2048",
                seed,
                step_cap: 1000,
                pass_score: 100.0,
                rules: "A reply without a readable direction does nothing. The score is \
                    the merge points over 20000 (the 2048 tile is about there); five moves \
                    in a row that change nothing end the game.",
                demo_cap: 40,
                trials: 1,
            });
        }
    }
    for (suffix, title, mode) in MODES {
        for seed in 1..=10 {
            out.push(Recipe {
                env: "GameVerse/Maze",
                kwargs: with_mode(Map::new(), mode),
                slug: format!("maze{suffix}-s{seed}"),
                title: format!("Maze (seed {seed}){title}"),
                family: "GameVerse-Maze",
                seed,
                step_cap: 20,
                pass_score: 100.0,
                rules: "A reply without a readable direction, or a move into a wall, does \
                    nothing. The score is the part of the shortest distance to the flag \
                    you closed.",
                demo_cap: 20,
                trials: 1,
            });
        }
    }
    // Snake is always its seed-42 game; GameVerse plays 10 trials per setting. The
    // latency modes (docs/gameverse.md, "Snake's latency modes"): Stop (one move per
    // reply), Slow and Normal (the snake moves on its own after 20 s / 10 s without a
    // move; Normal is the paper's headline setting).
    for (suffix, title, mode) in MODES {
        for (latency, latency_title) in [("stop", ""), ("slow", ", Slow"), ("normal", ", Normal")] {
            let mut kwargs = with_mode(Map::new(), mode);
            if latency != "stop" {
                kwargs.insert("latency".into(), latency.into());
            }
            let slug = match latency {
                "stop" => format!("snake{suffix}"),
                _ => format!("snake{suffix}-{latency}"),
            };
            out.push(Recipe {
                env: "GameVerse/Snake",
                kwargs,
                slug,
                title: format!("Snake{title}{latency_title}"),
                family: "GameVerse-Snake",
                seed: 42,
                step_cap: 100,
                pass_score: 100.0,
                rules: match latency {
                    "stop" => {
                        "The snake moves one cell per reply; a reply without a readable \
                        key keeps its direction. The score is 10 per food eaten (100 for ten)."
                    }
                    _ => {
                        "The snake moves one cell per reply that turns it or presses a key, \
                        and one cell on its own each time the timeout passes without a move \
                        while you think. The score is 10 per food eaten (100 for ten)."
                    }
                },
                demo_cap: 48,
                trials: 10,
            });
        }
    }
    out
}
