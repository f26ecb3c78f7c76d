//! What goes into `playbench-core`: one recipe per environment configuration.

use serde_json::json;

use crate::suites::calibrated::recipe::{recipe, Kind, Recipe};
use crate::task::{Dynamics, Memory};

use Dynamics::{Dynamic, Static};
use Memory::{Multiple, Single};

const SLIPPERY: &str =
    "The ice is slippery: a move can slide you to either side of the direction you chose.";

pub fn toy_text() -> Vec<Recipe> {
    vec![
        recipe("Taxi-v3", json!({}), "taxi", "Taxi", "Taxi", Single, Static, Kind::Taxi,
            "Picking up or dropping off where it is not allowed is penalised (the score ignores penalties).",
            &[1, 2, 3, 4], 2),
        recipe("CliffWalking-v1", json!({}), "cliffwalking", "Cliff Walking", "CliffWalking", Single, Static, Kind::Navigation,
            "Stepping off the cliff sends you back to the start.", &[0], 2),
        recipe("FrozenLake-v1", json!({"is_slippery": false}), "frozenlake-4x4-det", "Frozen Lake 4×4 (not slippery)", "FrozenLake", Single, Static, Kind::Navigation,
            "", &[0], 1),
        recipe("FrozenLake-v1", json!({}), "frozenlake-4x4", "Frozen Lake 4×4 (slippery)", "FrozenLake", Single, Static, Kind::Navigation,
            SLIPPERY, &[1, 2, 3], 0),
        recipe("FrozenLake8x8-v1", json!({"is_slippery": false}), "frozenlake-8x8-det", "Frozen Lake 8×8 (not slippery)", "FrozenLake", Single, Static, Kind::Navigation,
            "", &[0], 1),
        recipe("FrozenLake8x8-v1", json!({}), "frozenlake-8x8", "Frozen Lake 8×8 (slippery)", "FrozenLake", Single, Static, Kind::Navigation,
            SLIPPERY, &[1, 2], 0),
    ]
}

pub fn classic_control() -> Vec<Recipe> {
    let mut out = vec![
        recipe("CartPole-v1", json!({}), "cartpole", "Cart Pole", "CartPole", Multiple, Dynamic, Kind::Survive,
            "The episode fails if the pole tilts more than 12 degrees or the cart leaves the track.", &[1, 2, 3, 4], 1),
        recipe("Acrobot-v1", json!({}), "acrobot", "Acrobot", "Acrobot", Multiple, Dynamic, Kind::Progress,
            "Torque acts on the joint between the two links.", &[1, 2, 3], 0),
        recipe("MountainCar-v0", json!({}), "mountaincar", "Mountain Car", "MountainCar", Multiple, Dynamic, Kind::Progress,
            "The engine is too weak to climb the hill directly.", &[1, 2, 3], 1),
        recipe("Pendulum-v1", json!({}), "pendulum", "Pendulum", "Pendulum", Multiple, Dynamic, Kind::Balance,
            "Torque is limited; the score rewards keeping the pendulum upright with little effort.", &[1, 2, 3], 0),
    ];
    // One decision is several physics steps, so the budgets stay near 100 decisions.
    for r in &mut out {
        r.frame_skip = match r.env {
            "Acrobot-v1" | "MountainCar-v0" => 4,
            "Pendulum-v1" => 2,
            _ => 1,
        };
    }
    out
}

/// MiniGrid ids whose tasks need what the frame does not show (the carried object is
/// not drawn; Memory's cue must be remembered).
fn minigrid_memory(id: &str) -> Memory {
    let carries = [
        "DoorKey",
        "UnlockPickup",
        "KeyCorridor",
        "Unlock-",
        "BlockedUnlockPickup",
        "LockedRoom",
        "ObstructedMaze",
        "PutNear",
        "Memory",
    ];
    if carries.iter().any(|c| id.contains(c)) {
        Multiple
    } else {
        Single
    }
}

fn minigrid_kind(id: &str) -> Kind {
    let milestone = [
        "DoorKey",
        "UnlockPickup",
        "KeyCorridor",
        "Unlock-",
        "BlockedUnlockPickup",
        "LockedRoom",
        "ObstructedMaze",
        "RedBlueDoors",
        "PutNear",
        "Fetch",
        "GoToDoor",
    ];
    if milestone.iter().any(|m| id.contains(m)) {
        Kind::Milestones
    } else {
        Kind::Navigation
    }
}

/// The level family of a short id: `LavaCrossingS9N1` → `LavaCrossing`.
fn minigrid_family(short: &str) -> &str {
    if short.starts_with("Dynamic-Obstacles") {
        return "Dynamic-Obstacles";
    }
    let stem = short.split('-').next().unwrap_or(short);
    let bytes = stem.as_bytes();
    let cut = (1..bytes.len())
        .find(|&i| bytes[i] == b'S' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
        .unwrap_or(bytes.len());
    stem[..cut].trim_end_matches(|c: char| c.is_ascii_digit())
}

pub fn minigrid() -> Vec<Recipe> {
    envs::minigrid::FAMILY
        .specs
        .iter()
        .map(|s| {
            let short = s.id.trim_start_matches("MiniGrid-").trim_end_matches("-v0");
            let family = format!("MiniGrid-{}", minigrid_family(short));
            let dynamics = if s.id.contains("Dynamic-Obstacles") {
                Dynamic
            } else {
                Static
            };
            let kind = minigrid_kind(s.id);
            let memory = minigrid_memory(s.id);
            // What the agent carries is not drawn (Memory levels need another cue).
            let rules = if memory == Multiple && !s.id.contains("Memory") {
                "You can carry one object at a time; what you carry is not drawn."
            } else {
                ""
            };
            // Key-and-door tasks also start once from a key decision point mid-route.
            let initialized = usize::from(kind == Kind::Milestones || s.id.contains("Lava"));
            let mut r = recipe(
                s.id,
                json!({}),
                &short.to_lowercase(),
                short,
                &family,
                memory,
                dynamics,
                kind,
                rules,
                &[1, 2],
                initialized,
            );
            r.title = format!("MiniGrid {short}");
            r
        })
        .collect()
}
