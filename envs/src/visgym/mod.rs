//! VisGym's seven synthetic puzzles (Maze 2D/3D, Sliding Block, Matchstick Equation
//! and Rotation, Patch Reassembly, Mental Rotation 3D Cube), seed for seed with the
//! reference: the same actions as text (`"('move', 0)"`), the same validation and
//! feedback texts, states, rewards, text frames and oracles.
//!
//! Each environment is a plain struct behind [`VisGymEnv`]; [`make`] builds one from
//! an id such as `maze_2d/easy` with the evaluation settings of VisGym's harness.

pub mod action;
mod equation_eval;
mod matchstick_equation;
mod matchstick_glyphs;
mod matchstick_rotation;
mod maze_2d;
mod maze_3d;
mod maze_3d_view;
mod maze_gen;
mod mental_rotation_3d_cube;
mod numpy_array;
mod patch_reassembly;
mod polycube_view;
pub mod python;
pub mod reply;
mod resample;
mod rotation3;
mod sliding_block;
pub mod spaces;

use serde_json::{Map, Value};

use crate::core::frame::Frame;
pub use action::{StepResult, VisAction};
pub use matchstick_equation::{MatchstickEquation, MatchstickEquationConfig, SolveStrategy};
pub use matchstick_rotation::{MatchstickRotation, MatchstickRotationConfig};
pub use maze_2d::{Maze2d, Maze2dConfig};
pub use maze_3d::{Maze3d, Maze3dConfig};
pub use mental_rotation_3d_cube::{ActionFrame, CubeConfig, MentalRotation3dCube};
pub use patch_reassembly::{PatchReassembly, PatchReassemblyConfig};
pub use python::PyException;
pub use reply::reply_to_action;
pub use sliding_block::{SlidingBlock, SlidingBlockConfig};
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

    /// `step(action_string)`. `Err` is the exception the reference raises for this
    /// action (it has no feedback for it); the state is then as the reference left it.
    fn step(&mut self, action: &str) -> Result<StepResult, PyException>;

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

fn kw_u64(kwargs: &Map<String, Value>, key: &str) -> Result<Option<u64>, String> {
    match kwargs.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("{key} must be a non-negative integer, got {v}")),
    }
}

fn kw_bool(kwargs: &Map<String, Value>, key: &str) -> Result<Option<bool>, String> {
    match kwargs.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_bool()
            .map(Some)
            .ok_or_else(|| format!("{key} must be a boolean, got {v}")),
    }
}

/// Builds `name/easy` or `name/hard` with the evaluation keyword arguments of
/// VisGym's harness; `kwargs` may set the constructor `seed` and override them.
pub fn make(id: &str, kwargs: &Map<String, Value>) -> Result<Box<dyn VisGymEnv>, String> {
    let (name, level) = id
        .split_once('/')
        .ok_or_else(|| format!("{id}: expected name/easy or name/hard"))?;
    let hard = match level {
        "easy" => false,
        "hard" => true,
        _ => return Err(format!("{id}: level must be easy or hard")),
    };
    let seed = kw_u64(kwargs, "seed")?;
    let size = |easy: usize, hard_size: usize| -> Result<(usize, usize), String> {
        let d = if hard { hard_size } else { easy };
        let w = kw_u64(kwargs, "maze_width")?.map_or(d, |v| v as usize);
        let h = kw_u64(kwargs, "maze_height")?.map_or(d, |v| v as usize);
        if w % 2 == 0 || h % 2 == 0 || w < 3 || h < 3 {
            return Err("width/height of maze should be odd".into());
        }
        Ok((w, h))
    };
    match name {
        "maze_2d" => {
            let (width, height) = size(9, 11)?;
            Ok(Box::new(Maze2d::new(Maze2dConfig {
                width,
                height,
                seed: seed.unwrap_or(0),
            })))
        }
        "maze_3d" => {
            let (width, height) = size(7, 9)?;
            Ok(Box::new(Maze3d::new(Maze3dConfig {
                width,
                height,
                seed: seed.unwrap_or(0),
                render_size: (336, 336),
            })))
        }
        "matchstick_equation" => {
            let mut c = MatchstickEquationConfig {
                break_moves: if hard { 2 } else { 1 },
                ..MatchstickEquationConfig::default()
            };
            if let Some(s) = seed {
                c.seed = s;
            }
            if let Some(b) = kw_u64(kwargs, "break_moves")? {
                c.break_moves = b as usize;
            }
            if let Some(e) = kw_bool(kwargs, "enforce_min_distance")? {
                c.enforce_min_distance = e;
            }
            Ok(Box::new(MatchstickEquation::new(c)))
        }
        "sliding_block" => {
            let shuffles = kw_u64(kwargs, "num_shuffle_moves")?
                .map_or(if hard { 90 } else { 30 }, |v| v as i64);
            let seed = u32::try_from(seed.unwrap_or(0))
                .map_err(|_| "seed must be between 0 and 2**32 - 1".to_string())?;
            Ok(Box::new(SlidingBlock::new(SlidingBlockConfig {
                num_shuffle_moves: shuffles,
                seed,
            })))
        }
        "patch_reassembly" => {
            let (rows, cols, patches) = if hard { (8, 8, 6) } else { (6, 6, 5) };
            Ok(Box::new(PatchReassembly::new(PatchReassemblyConfig {
                rows: kw_u64(kwargs, "rows")?.map_or(rows, |v| v as usize),
                cols: kw_u64(kwargs, "cols")?.map_or(cols, |v| v as usize),
                patches: kw_u64(kwargs, "num_patches")?.map_or(patches, |v| v as usize),
                seed: seed.unwrap_or(0),
            })))
        }
        "matchstick_rotation" => {
            let (pos, ang) = if hard { (5.0, 10.0) } else { (10.0, 15.0) };
            Ok(Box::new(MatchstickRotation::new(
                MatchstickRotationConfig {
                    canvas: (120.0, 120.0),
                    stick_length: 20.0,
                    pos_tolerance: pos,
                    ang_tolerance: ang,
                    seed: seed.unwrap_or(0),
                },
            )))
        }
        "mental_rotation_3d_cube" => {
            let frame = match kwargs.get("action_frame").and_then(Value::as_str) {
                None | Some("world") => ActionFrame::World,
                Some("object") => ActionFrame::Object,
                Some(other) => {
                    return Err(format!(
                        "action_frame must be 'object' or 'world', got {other}"
                    ))
                }
            };
            Ok(Box::new(MentalRotation3dCube::new(CubeConfig {
                num_segments: kw_u64(kwargs, "num_segments")?
                    .map_or(if hard { 6 } else { 4 }, |v| v as usize),
                action_frame: frame,
                seed: seed.unwrap_or(0),
            })))
        }
        _ => Err(format!("unknown VisGym environment {name}")),
    }
}
