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
mod maze_2d;
mod maze_3d;
mod maze_3d_view;
mod maze_gen;
mod numpy_array;
pub mod python;
mod resample;
mod sliding_block;
pub mod spaces;

use serde_json::{Map, Value};

use crate::core::frame::Frame;
pub use action::{StepResult, VisAction};
pub use matchstick_equation::{MatchstickEquation, MatchstickEquationConfig, SolveStrategy};
pub use maze_2d::{Maze2d, Maze2dConfig};
pub use maze_3d::{Maze3d, Maze3dConfig};
pub use python::PyException;
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
        _ if NAMES.contains(&name) => Err(format!("{name} is not available yet")),
        _ => Err(format!("unknown VisGym environment {name}")),
    }
}
