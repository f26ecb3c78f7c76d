//! What goes into the `visgym` suite: each environment at both levels, over ten
//! puzzles each.

use envs::visgym::images::{default_bundle, Bundle};

/// Puzzles (reset seeds) per environment and level: enough for a success rate in
/// steps of 10 %.
pub const SEEDS: u64 = 10;

/// Demonstrations play other puzzles than the task's (seed + this offset), as VisGym's
/// training demonstrations avoid its test puzzles.
pub const DEMO_SEED_OFFSET: u64 = 1000;

pub struct Recipe {
    /// The environment (`maze_2d`), its title and tag family.
    pub name: &'static str,
    pub title: &'static str,
    pub family: &'static str,
    /// Acting well needs what earlier frames showed (Maze 3D's first-person view,
    /// Matchstick Rotation's unknown scale).
    pub memory: bool,
    /// The bundled set an image environment plays; its puzzles then differ by
    /// constructor seed (which fixes the sample order), so each task names its own.
    pub bundle: Option<Bundle>,
    /// It simulates through MuJoCo (the Fetch tasks, docs/fetch.md).
    pub physics: bool,
}

/// Every environment, in display order: the synthetic ones, those on pictures, clips
/// and models, then the robot arm.
pub fn all() -> Vec<Recipe> {
    let r = |name, title, family, memory| Recipe {
        name,
        title,
        family,
        memory,
        bundle: None,
        physics: false,
    };
    let robot = |name, title, family| Recipe {
        physics: true,
        ..r(name, title, family, false)
    };
    let on_set = |name: &'static str, title, family| Recipe {
        bundle: Some(default_bundle(name)),
        ..r(name, title, family, false)
    };
    vec![
        r("maze_2d", "Maze 2D", "VisGym-Maze2D", false),
        r("maze_3d", "Maze 3D", "VisGym-Maze3D", true),
        r(
            "sliding_block",
            "Sliding Block",
            "VisGym-SlidingBlock",
            false,
        ),
        r(
            "matchstick_equation",
            "Matchstick Equation",
            "VisGym-MatchstickEquation",
            false,
        ),
        r(
            "matchstick_rotation",
            "Matchstick Rotation",
            "VisGym-MatchstickRotation",
            true,
        ),
        r(
            "patch_reassembly",
            "Patch Reassembly",
            "VisGym-PatchReassembly",
            false,
        ),
        r(
            "mental_rotation_3d_cube",
            "Mental Rotation 3D (cube)",
            "VisGym-MentalRotation3DCube",
            false,
        ),
        on_set("jigsaw", "Jigsaw", "VisGym-Jigsaw"),
        on_set("zoom_in_puzzle", "Zoom-In Puzzle", "VisGym-ZoomInPuzzle"),
        on_set("colorization", "Colorization", "VisGym-Colorization"),
        on_set(
            "mental_rotation_2d",
            "Mental Rotation 2D",
            "VisGym-MentalRotation2D",
        ),
        on_set("counting", "Counting", "VisGym-Counting"),
        on_set(
            "referring_dot_pointing",
            "Referring Dot-Pointing",
            "VisGym-ReferringDotPointing",
        ),
        on_set(
            "video_unshuffle",
            "Video Unshuffle",
            "VisGym-VideoUnshuffle",
        ),
        on_set(
            "mental_rotation_3d_objaverse",
            "Mental Rotation 3D (objects)",
            "VisGym-MentalRotation3DObjaverse",
        ),
        robot("fetch_reach", "Fetch Reach", "VisGym-FetchReach"),
        robot(
            "fetch_pick_and_place",
            "Fetch Pick-and-Place",
            "VisGym-FetchPickAndPlace",
        ),
    ]
}

/// VisGym's step budget: 20 on easy, 30 on hard.
pub fn budget(level: &str) -> u32 {
    if level == "hard" {
        30
    } else {
        20
    }
}
