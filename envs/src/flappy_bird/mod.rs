//! FlappyBird as flappy-bird-gymnasium 0.4.0 registers it (`FlappyBird-v0`), seed for
//! seed; frames pixel-exact when drawn with the package's sprites (behaviour and art in
//! docs/third-party-games.md).

mod art;
mod env;
mod lidar;
mod render;
mod sprite_set;

pub use env::{FlappyBird, FlappyBirdConfig, Pipe, StepResult};
pub use lidar::{LIDAR_MAX_DISTANCE, RAYS};
pub use sprite_set::{sprite_files, SpriteSet, SpriteSource};

use crate::core::env::KeyBinding;

pub const ID: &str = "FlappyBird-v0";

/// The package's `Actions` enum.
pub const ACTION_NAMES: [&str; 2] = ["IDLE", "FLAP"];

pub const NOOP_ACTION: usize = 0;

/// Real-time rate for people: the package's `render_fps`; its human mode steps and draws
/// at this rate.
pub const STEPS_PER_SECOND: u32 = 30;

/// Space or Up flaps, as in the package's human-play script.
pub const KEYMAP: &[KeyBinding] = &[KeyBinding::new(" ", 1), KeyBinding::new("ArrowUp", 1)];
