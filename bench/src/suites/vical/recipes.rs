//! What goes into the `vical` suite: V-ICAL's environments that Playbench plays. The
//! eight that `playbench-core` already builds in V-ICAL's style come from its recipes
//! (the MiniGrid ones with V-ICAL's masked vocabularies); Tetris, FlappyBird and Highway
//! are configured here. Choices the paper's text leaves open carry a tag
//! (docs/tasks.md, "The vical suite").

use serde_json::json;

use crate::suites::calibrated::recipe::{recipe, Kind, Recipe};
use crate::suites::core::recipes as core;
use crate::task::{Dynamics, Memory};

/// A frame skip, budget, pass condition or score the paper's tables would give, chosen
/// by Playbench.
pub const CHOSEN_CONFIG: &str = "chosen-config";
/// V-ICAL plays its own custom MiniGrid variant; this is the closest registered id.
pub const STAND_IN: &str = "stand-in";
/// The vocabulary leaves out the environment's actions the task never needs, as V-ICAL
/// masks redundant actions.
pub const MASKED_ACTIONS: &str = "masked-actions";

/// The older environments, by id, and the actions shown when V-ICAL masks some.
const FROM_CORE: &[(&str, Option<&[&str]>)] = &[
    ("Taxi-v3", None),
    ("CliffWalking-v1", None),
    ("CartPole-v1", None),
    ("Acrobot-v1", None),
    ("MountainCar-v0", None),
    (
        "MiniGrid-LavaCrossingS9N1-v0",
        Some(&["turn left", "turn right", "move forward"]),
    ),
    (
        "MiniGrid-UnlockPickup-v0",
        Some(&[
            "turn left",
            "turn right",
            "move forward",
            "pickup",
            "drop",
            "toggle",
        ]),
    ),
    (
        "MiniGrid-MultiRoom-N4-S5-v0",
        Some(&["turn left", "turn right", "move forward", "toggle"]),
    ),
];

fn from_core() -> Vec<Recipe> {
    let mut pool = core::toy_text();
    pool.extend(core::classic_control());
    pool.extend(core::minigrid());
    let mut out = Vec::new();
    for (id, actions) in FROM_CORE {
        // Each id has one recipe in the core suite (FrozenLake has two; it is not here).
        let Some(i) = pool.iter().position(|r| r.env == *id) else {
            continue;
        };
        let mut r = pool.swap_remove(i);
        if id.starts_with("MiniGrid-") {
            r.extra_tags.push(STAND_IN);
        }
        if let Some(names) = actions {
            r.actions = Some(names.to_vec());
            r.extra_tags.push(MASKED_ACTIONS);
        }
        out.push(r);
    }
    out
}

use Dynamics::Dynamic;
use Memory::{Multiple, Single};

/// Tetris, FlappyBird and Highway. Frame skips keep a decision's motion readable
/// (a piece falls three rows, the bird moves 12 pixels); the NOOP fill plays the
/// action once, as a key press does.
fn third_party() -> Vec<Recipe> {
    let mut tetris = recipe(
        "tetris_gymnasium/Tetris",
        json!({}),
        "tetris",
        "Tetris",
        "Tetris",
        Single,
        Dynamic,
        Kind::Reward,
        "Every piece that lands scores 1 point; clearing k rows at once scores k² × 10 more. \
         The game ends when the stack reaches the top.",
        &[1, 2, 3],
        1,
    );
    tetris.frame_skip = 3;
    tetris.action_steps = Some(1);
    tetris.pass_score = 50.0;
    let mut flappy = recipe(
        "FlappyBird-v0",
        json!({}),
        "flappybird",
        "FlappyBird",
        "FlappyBird",
        Multiple,
        Dynamic,
        Kind::Survive,
        "",
        &[1, 2, 3],
        1,
    );
    flappy.frame_skip = 3;
    flappy.action_steps = Some(1);
    let mut highway = recipe(
        "highway-v0",
        json!({}),
        "highway",
        "Highway",
        "Highway",
        Multiple,
        Dynamic,
        Kind::SurviveForReward,
        "Points come from driving fast (20 to 30 m/s) and from keeping to the right-hand \
         lanes; a crash ends the drive. Each decision lasts one second of driving.",
        &[1, 2, 3],
        1,
    );
    highway.budget = Some(30);
    let mut out = vec![tetris, flappy, highway];
    for r in &mut out {
        r.extra_tags.push(CHOSEN_CONFIG);
    }
    out
}

/// Every recipe of the suite, in display order.
pub fn all() -> Vec<Recipe> {
    let mut out = from_core();
    out.extend(third_party());
    out
}
