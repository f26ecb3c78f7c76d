//! VisGym's seven synthetic puzzles (Maze 2D/3D, Sliding Block, Matchstick Equation
//! and Rotation, Patch Reassembly, Mental Rotation 3D Cube), seed for seed with the
//! reference: the same actions as text (`"('move', 0)"`), the same validation and
//! feedback texts, states, rewards, text frames and oracles.
//!
//! Each environment is a plain struct behind [`VisGymEnv`]; [`make`] builds one from
//! an id such as `maze_2d/easy` with the evaluation settings of VisGym's harness, and
//! the registry serves the same ids under the environment interface
//! ([`environment::VisGym`], family [`FAMILY`]; docs/visgym.md).

pub mod action;
mod colorization;
mod counting;
mod cv_circle;
pub mod environment;
mod equation_eval;
pub mod fetch;
mod hsv;
pub mod images;
mod jigsaw;
mod make;
mod matchstick_equation;
mod matchstick_frame;
mod matchstick_glyphs;
mod matchstick_rotation;
mod maze_2d;
mod maze_3d;
mod maze_3d_view;
mod maze_gen;
mod mental_rotation_2d;
mod mental_rotation_3d_cube;
mod mental_rotation_3d_objaverse;
pub mod mesh_view;
mod numpy_array;
mod numpy_sum;
mod patch_reassembly;
mod picture_marks;
mod polycube_view;
pub mod python;
mod referring_dot_pointing;
pub mod reply;
mod resample;
mod rotation3;
pub mod signature;
mod sliding_block;
mod slot_order;
mod solve_kwargs;
pub mod spaces;
mod turn_controls;
mod video_unshuffle;
mod zoom_in_puzzle;

use serde_json::Value;

use crate::core::env::{Env, KeyBinding, Words};
use crate::core::error::EnvError;
use crate::core::frame::Frame;
use crate::core::input::{Gesture, PointerMode};
use crate::core::kwargs::Kwargs;
use crate::core::spec::{wrap, EnvSpec, Family, Variant};
pub use action::{StepResult, VisAction};
pub use colorization::{Colorization, ColorizationConfig};
pub use jigsaw::{Jigsaw, JigsawConfig};
pub use make::make;
pub use matchstick_equation::{MatchstickEquation, MatchstickEquationConfig, SolveStrategy};
pub use matchstick_rotation::{MatchstickRotation, MatchstickRotationConfig};
pub use maze_2d::{Maze2d, Maze2dConfig};
pub use maze_3d::{Maze3d, Maze3dConfig};
pub use mental_rotation_3d_cube::{ActionFrame, CubeConfig, MentalRotation3dCube};
pub use patch_reassembly::{PatchReassembly, PatchReassemblyConfig};
pub use python::PyException;
pub use reply::reply_to_action;
pub use signature::{FnSig, Payload};
pub use sliding_block::{SlidingBlock, SlidingBlockConfig};
pub use solve_kwargs::SolveKwargs;
pub use spaces::ArgSpace;

/// Which observation the harness shows: an image, or the text frame (`render_mode`
/// `"ansi"`, which also changes the instructions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderMode {
    RgbArray,
    Ansi,
}

/// One VisGym environment.
pub trait VisGymEnv {
    /// `reset(seed=…)`; `None` continues the environment's generator.
    fn reset(&mut self, seed: Option<u64>);

    /// The exception the last reset raised in the reference (an image environment out
    /// of samples, or a picture it cannot read); the state is then as the reference
    /// left it, without a new episode.
    fn reset_failure(&self) -> Option<PyException> {
        None
    }

    /// `step(action_string)`. `Err` is the exception the reference raises for this
    /// action (it has no feedback for it); the state is then as the reference left it.
    fn step(&mut self, action: &str) -> Result<StepResult, PyException>;

    /// Whether the last step's `info` carried its feedback (`env_feedback`); the harness
    /// sends a feedback line only then. Not after a Fetch action that does not parse
    /// (docs/fetch-reference.md §2.5).
    fn feedback_in_info(&self) -> bool {
        true
    }

    /// The state fields of this environment; `at_reset` adds the fixed ones.
    fn state_json(&self, at_reset: bool) -> Value;

    /// `get_prompt()` in the given render mode (`None` if the mode is not offered).
    fn prompt(&self, mode: RenderMode) -> Option<String>;

    /// `render(mode="ansi")`, for the environments that have a text frame.
    fn text_frame(&self) -> Option<String>;

    /// Width and height of `render()`'s image.
    fn frame_size(&self) -> (u32, u32);

    /// Draws `render()`'s image (the frame is resized to [`VisGymEnv::frame_size`]).
    fn render(&self, frame: &mut Frame);

    /// The reference's solver from the current state, as action strings (the
    /// evaluation harness's settings).
    fn solve(&self) -> Vec<String>;

    /// Other settings of the reference's solver by name (e.g. `bfs`), `None` if this
    /// environment has no such variant. `oracle` is [`VisGymEnv::solve`].
    fn solve_named(&self, name: &str) -> Option<Vec<String>>;

    /// The action functions and their argument spaces, in the reference's order.
    fn functions(&self) -> Vec<(&'static str, ArgSpace)>;

    /// A copy of the environment in its current state (generators included).
    fn clone_box(&self) -> Box<dyn VisGymEnv>;

    /// The action functions with typed arguments for the environment interface, in
    /// the reference's order (`functions` with argument names and payload forms).
    fn signatures(&self) -> Vec<FnSig>;

    /// The reference's solver called with these keyword arguments (`solve(**kwargs)`,
    /// the reference's defaults for the rest); an error names a keyword or value that
    /// is not reproduced.
    fn solve_kwargs(&self, kwargs: &mut SolveKwargs) -> Result<Vec<String>, String>;

    /// Action strings people and simple agents pick from (canonical, see
    /// [`signature`]): the moves a key or a button plays, and `stop`.
    fn presets(&self) -> Vec<String>;

    /// Keys that play presets (indices into [`VisGymEnv::presets`]).
    fn keymap(&self) -> Vec<KeyBinding> {
        Vec::new()
    }

    /// What the pointer does on the frame, if anything.
    fn pointer_mode(&self) -> Option<PointerMode> {
        None
    }

    /// The action string a gesture on the frame stands for.
    fn pointer_action(&self, gesture: Gesture) -> Option<String> {
        let _ = gesture;
        None
    }

    /// How episodes are described to people.
    fn words(&self) -> Words;

    /// How far the state is from solved, in the environment's own measure (0 when
    /// solved): the partial credit of the 0-100 score (docs/visgym.md).
    fn remaining(&self) -> f64;

    /// Actions to success along the reference solver's route, where that measures
    /// progress (the mazes).
    fn distance_to_goal(&self) -> Option<u32> {
        None
    }

    /// What this episode asks, where it changes from sample to sample (the category to
    /// count, the object to point at): people see it above the frame.
    fn mission(&self) -> Option<String> {
        None
    }
}

/// The seven environment names.
pub const NAMES: [&str; 7] = [
    "maze_2d",
    "maze_3d",
    "sliding_block",
    "matchstick_equation",
    "matchstick_rotation",
    "patch_reassembly",
    "mental_rotation_3d_cube",
];

/// The environments that play pictures of an image set (Counting and Referring
/// Dot-Pointing with annotations, Video Unshuffle clips, Mental Rotation 3D's models)
/// (`sample_dir`).
pub const IMAGE_NAMES: [&str; 8] = [
    "jigsaw",
    "colorization",
    "mental_rotation_2d",
    "zoom_in_puzzle",
    "counting",
    "referring_dot_pointing",
    "video_unshuffle",
    "mental_rotation_3d_objaverse",
];

/// The two robot tasks, which run MuJoCo at a physics host ([`fetch`]).
pub const PHYSICS_NAMES: [&str; 2] = ["fetch_reach", "fetch_pick_and_place"];

/// Whether a registered id runs MuJoCo (`fetch_reach/easy`, …).
pub fn runs_physics(env_id: &str) -> bool {
    PHYSICS_NAMES.contains(&env_id.split('/').next().unwrap_or_default())
}

/// Whether a registered id plays pictures of an image set (`jigsaw/easy`, …).
pub fn plays_pictures(env_id: &str) -> bool {
    let name = env_id.split('/').next().unwrap_or_default();
    crate::registry::spec(env_id).is_some_and(|s| s.family.id == FAMILY.id)
        && IMAGE_NAMES.contains(&name)
}

pub static FAMILY: Family = Family {
    id: "visgym",
    label: "VisGym",
    frame_sha256: true,
    specs: SPECS,
};

/// An id under the environment interface: the reference's keyword arguments are
/// checked by [`make`] itself.
fn make_registered(spec: &'static EnvSpec, kw: &mut Kwargs) -> Result<Box<dyn Env>, EnvError> {
    let kwargs = kw.take_all();
    if plays_pictures(spec.id) {
        make::sample_set(spec.id, &kwargs).map_err(EnvError::MissingAsset)?;
    }
    if runs_physics(spec.id) {
        fetch::host::start().map_err(|e| EnvError::MissingAsset(format!("{}: {e}", spec.id)))?;
    }
    let env = make(spec.id, &kwargs).map_err(EnvError::BadKwargs)?;
    Ok(wrap(spec, environment::VisGym::new(spec.id, env)))
}

/// One registered id. No time limit: the reference never truncates, the harness's
/// budget (20 steps easy, 30 hard) is the task's.
macro_rules! spec {
    ($id:literal, $summary:expr, $kwargs:literal $(, $variant:expr)?) => {
        EnvSpec {
            id: $id,
            aliases: &[],
            family: &FAMILY,
            max_episode_steps: None,
            kwargs_doc: $kwargs,
            summary: $summary,
            variants: &[$($variant)?],
            make: crate::core::spec::heavy(make_registered),
        }
    };
}

const MAZE_2D: &str = "Walk the blue circle through a top-down maze to the red square and stop.";
const MAZE_3D: &str = "Find the red sphere in a first-person maze and stop in its cell.";
const SLIDING: &str = "Slide the Klotski blocks from the classic layout into the target layout.";
const EQUATION: &str = "Move matches to make a broken matchstick equation true.";
const ROTATION: &str =
    "Move and turn a stick onto a target when a unit of movement has an unknown scale.";
const PATCHES: &str = "Place irregular patches so they tile the board.";
const CUBE: &str = "Turn a polycube back to its original orientation (within 10°).";
const ZOOM: &str = "Order views zoomed into a picture from least to most zoomed.";
const ROTATION_2D: &str = "Turn a picture back by the secret angle it was turned.";
const JIGSAW: &str = "Put the scrambled pieces of a picture back in order.";
const COUNTING: &str =
    "Count the objects of a named kind in a picture (dots help), then give the count.";
const VIDEO: &str = "Put shuffled frames of a short clip back in time order.";
const OBJAVERSE: &str = "Turn a 3-D model back to its original orientation.";
const REFERRING: &str = "Put a dot on the object a referring expression describes.";
const COLORIZATION: &str = "Match a hidden colour by turning a hue wheel and setting saturation.";
const REACH: &str = "Move a robot arm's gripper to a red marker in 5 cm steps, then stop.";
const PICK: &str = "Grasp a cube with a robot arm and carry it to a red marker, then stop.";

const OBJECT_FRAME: Variant = Variant {
    label: "object axes",
    kwargs: r#"{"action_frame": "object"}"#,
};

static SPECS: &[EnvSpec] = &[
    spec!(
        "maze_2d/easy",
        MAZE_2D,
        "seed (constructor seed, default 0); maze_width, maze_height (odd, default 9)"
    ),
    spec!(
        "maze_2d/hard",
        MAZE_2D,
        "seed (constructor seed, default 0); maze_width, maze_height (odd, default 11)"
    ),
    spec!(
        "maze_3d/easy",
        MAZE_3D,
        "seed (default 0); maze_width, maze_height (odd, default 7); render_size [w, h] (default [336, 336])"
    ),
    spec!(
        "maze_3d/hard",
        MAZE_3D,
        "seed (default 0); maze_width, maze_height (odd, default 9); render_size [w, h] (default [336, 336])"
    ),
    spec!(
        "sliding_block/easy",
        SLIDING,
        "seed (0 to 2^32-1, default 0); num_shuffle_moves (default 30)"
    ),
    spec!(
        "sliding_block/hard",
        SLIDING,
        "seed (0 to 2^32-1, default 0); num_shuffle_moves (default 90)"
    ),
    spec!(
        "matchstick_equation/easy",
        EQUATION,
        "seed (default 42); break_moves (default 1); enforce_min_distance (default true); gen_retry_limit (default 300)"
    ),
    spec!(
        "matchstick_equation/hard",
        EQUATION,
        "seed (default 42); break_moves (default 2); enforce_min_distance (default true); gen_retry_limit (default 300)"
    ),
    spec!(
        "matchstick_rotation/easy",
        ROTATION,
        "seed (default 0); canvas_size [w, h] (default [120, 120]); stick_length (20); pos_tolerance (10); ang_tolerance (15)"
    ),
    spec!(
        "matchstick_rotation/hard",
        ROTATION,
        "seed (default 0); canvas_size [w, h] (default [120, 120]); stick_length (20); pos_tolerance (5); ang_tolerance (10)"
    ),
    spec!(
        "patch_reassembly/easy",
        PATCHES,
        "seed (default 0); grid_size [rows, cols] (default [6, 6]); num_patches (default 5)"
    ),
    spec!(
        "patch_reassembly/hard",
        PATCHES,
        "seed (default 0); grid_size [rows, cols] (default [8, 8]); num_patches (default 6)"
    ),
    spec!(
        "mental_rotation_3d_cube/easy",
        CUBE,
        "seed (default 0); num_segments (default 4); action_frame \"world\" | \"object\" (default \"world\")",
        OBJECT_FRAME
    ),
    spec!(
        "mental_rotation_3d_cube/hard",
        CUBE,
        "seed (default 0); num_segments (default 6); action_frame \"world\" | \"object\" (default \"world\")",
        OBJECT_FRAME
    ),
    spec!(
        "jigsaw/easy",
        JIGSAW,
        "seed (default 0); sample_dir (an image set, default the bundled one); num_rows, num_cols (default 2)"
    ),
    spec!(
        "jigsaw/hard",
        JIGSAW,
        "seed (default 0); sample_dir (an image set, default the bundled one); num_rows, num_cols (default 3)"
    ),
    spec!(
        "colorization/easy",
        COLORIZATION,
        "seed (default 0); sample_dir (an image set, default the bundled one); accuracy_radius (default 11; null: circle_size // 1.75); circle_size (20); region_radius (30; null: no grey ring); min_brightness (25); max_brightness (230); hue_tolerance (10), sat_tolerance (20) (solver only); img_size (256); max_steps (unused)"
    ),
    spec!(
        "colorization/hard",
        COLORIZATION,
        "seed (default 0); sample_dir (an image set, default the bundled one); accuracy_radius (default 16; null: circle_size // 1.75); circle_size (20); region_radius (30; null: no grey ring); min_brightness (25); max_brightness (230); hue_tolerance (10), sat_tolerance (20) (solver only); img_size (256); max_steps (unused)"
    ),
    spec!(
        "mental_rotation_2d/easy",
        ROTATION_2D,
        "seed (default 0); sample_dir (an image set, default the bundled one); tolerance (default 10.0); image_size (128)"
    ),
    spec!(
        "mental_rotation_2d/hard",
        ROTATION_2D,
        "seed (default 0); sample_dir (an image set, default the bundled one); tolerance (default 5.0); image_size (128)"
    ),
    spec!(
        "zoom_in_puzzle/easy",
        ZOOM,
        "seed (0 to 2^32-1, default 0); sample_dir (an image set, default the bundled one); num_zoom_views (default 4); min_zoom_level (0.75); zoom_gap (0.75); zoom_std (0.2); nested (true)"
    ),
    spec!(
        "zoom_in_puzzle/hard",
        ZOOM,
        "seed (0 to 2^32-1, default 0); sample_dir (an image set, default the bundled one); num_zoom_views (default 5); min_zoom_level (0.75); zoom_gap (0.75); zoom_std (0.2); nested (true)"
    ),
    spec!(
        "counting/easy",
        COUNTING,
        "seed (default 42); sample_dir (pictures with an LVIS-layout annotation file, default the bundled scenes); annotation_file (in sample_dir, default lvis_v1_train.json); min_count (2); max_count (20); radius (5); require_exhaustive (true); data_chunk [start, end]"
    ),
    spec!(
        "counting/hard",
        COUNTING,
        "seed (default 42); sample_dir (pictures with an LVIS-layout annotation file, default the bundled scenes); annotation_file (in sample_dir, default lvis_v1_train.json); min_count (5); max_count (30); radius (5); require_exhaustive (true); data_chunk [start, end]"
    ),
    spec!(
        "referring_dot_pointing/easy",
        REFERRING,
        "seed (default 0); sample_dir (a RefCOCO+ folder, default the bundled scenes); splitBy (unc); radius (5); accept_any_same_category (false); data_chunk [start, end]; max_steps, data_root (unused)"
    ),
    spec!(
        "referring_dot_pointing/hard",
        REFERRING,
        "seed (default 0); sample_dir (a RefCOCO+ folder, default the bundled scenes); splitBy (unc); radius (5); accept_any_same_category (false); data_chunk [start, end]; max_steps, data_root (unused)"
    ),
    spec!(
        "video_unshuffle/easy",
        VIDEO,
        "seed (0 to 2^32-1, default 0); root_dir or sample_dir (a Something-Something v2 folder, default the bundled clips); num_frames (default 4); sampling_strategy (\"salient\", or \"uniform\"); min_frame_diff (0.15); max_frames_to_analyze (100); video_label"
    ),
    spec!(
        "video_unshuffle/hard",
        VIDEO,
        "seed (0 to 2^32-1, default 0); root_dir or sample_dir (a Something-Something v2 folder, default the bundled clips); num_frames (default 5); sampling_strategy (\"salient\", or \"uniform\"); min_frame_diff (0.15); max_frames_to_analyze (100); video_label"
    ),
    spec!(
        "mental_rotation_3d_objaverse/easy",
        OBJAVERSE,
        "seed (0 to 2^32-1, default 0); sample_dir (a folder of .glb/.gltf models, default the bundled objects); tolerance (degrees, default 15.0); action_frame \"world\" | \"object\" (default \"world\"); render_size (128); use_textures (true); downsample_faces, max_output_long_side (decimation only: unused)",
        OBJECT_FRAME
    ),
    spec!(
        "mental_rotation_3d_objaverse/hard",
        OBJAVERSE,
        "seed (0 to 2^32-1, default 0); sample_dir (a folder of .glb/.gltf models, default the bundled objects); tolerance (degrees, default 5.0); action_frame \"world\" | \"object\" (default \"world\"); render_size (128); use_textures (true); downsample_faces, max_output_long_side (decimation only: unused)",
        OBJECT_FRAME
    ),
    spec!("fetch_reach/easy", REACH, "seed (generator of resets without a seed, default 0); reward_type (\"sparse\"), render_mode (\"rgb_array\"): the evaluation's only"),
    spec!("fetch_reach/hard", REACH, "seed (generator of resets without a seed, default 0); reward_type (\"sparse\"), render_mode (\"rgb_array\"): the evaluation's only"),
    spec!("fetch_pick_and_place/easy", PICK, "seed (generator of resets without a seed, default 0); reward_type (\"sparse\"), render_mode (\"rgb_array\"): the evaluation's only"),
    spec!("fetch_pick_and_place/hard", PICK, "seed (generator of resets without a seed, default 0); reward_type (\"sparse\"), render_mode (\"rgb_array\"): the evaluation's only"),
];
