//! HighwayEnv as highway-env 1.12.1 registers it (`highway-v0`, `highway-fast-v0`): resets
//! exact, steps within a tolerance of the reference (its trigonometry and powers come from
//! numpy's kernels, ours from `libm`), frames exact where no car is turned. Behaviour in
//! docs/third-party-games.md.

mod collision;
mod config;
mod env;
mod numeric;
mod render;
mod road;
mod vehicle;

pub use config::HighwayConfig;
pub use env::{Highway, HighwayObservation, StepResult, OBS_FEATURES, OBS_ROWS};
pub use vehicle::{Driver, Vehicle};

use crate::core::env::KeyBinding;

pub const HIGHWAY_ID: &str = "highway-v0";
pub const HIGHWAY_FAST_ID: &str = "highway-fast-v0";

/// The package's `DiscreteMetaAction.ACTIONS_ALL`.
pub const ACTION_NAMES: [&str; 5] = ["LANE_LEFT", "IDLE", "LANE_RIGHT", "FASTER", "SLOWER"];

pub const NOOP_ACTION: usize = 1;

/// Real-time rate for people: one policy step per simulated second (`policy_frequency`
/// = 1 Hz; a configuration with another policy frequency runs at that rate). The
/// package's human mode also shows the simulation frames in between; its `render_fps`
/// metadata (2) is for videos played at twice real time.
pub const STEPS_PER_SECOND: u32 = 1;

/// Arrows as in the package's manual control: Up / Down change lane (toward lane 0 is
/// up on screen), Right / Left speed up / slow down.
pub const KEYMAP: &[KeyBinding] = &[
    KeyBinding::new("ArrowUp", 0),
    KeyBinding::new("ArrowDown", 2),
    KeyBinding::new("ArrowRight", 3),
    KeyBinding::new("ArrowLeft", 4),
];
