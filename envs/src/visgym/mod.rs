//! VisGym's seven synthetic puzzles (Maze 2D/3D, Sliding Block, Matchstick Equation
//! and Rotation, Patch Reassembly, Mental Rotation 3D Cube), seed for seed with the
//! reference: the same actions as text (`"('move', 0)"`), the same validation and
//! feedback texts, states, rewards, text frames and oracles.
//!
//! Each environment is a plain struct behind [`VisGymEnv`]; [`make`] builds one from
//! an id such as `maze_2d/easy` with the evaluation settings of VisGym's harness.

pub mod action;
mod equation_eval;
mod make;
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

use serde_json::Value;

use crate::core::frame::Frame;
pub use action::{StepResult, VisAction};
pub use make::make;
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

    /// A copy of the environment in its current state (generators included).
    fn clone_box(&self) -> Box<dyn VisGymEnv>;
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
