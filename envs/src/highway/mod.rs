//! HighwayEnv as highway-env 1.12.1 registers it (`highway-v0`, `highway-fast-v0`): resets
//! exact, steps within a tolerance of the reference (its trigonometry and powers come from
//! numpy's kernels, ours from `libm`), frames exact where no car is turned. Behaviour in
//! docs/third-party-games.md.

mod collision;
mod config;
mod env;
mod interface;
mod numeric;
mod oracle;
mod render;
mod road;
mod vehicle;

pub use config::HighwayConfig;
pub use env::{Highway, HighwayObservation, StepResult, OBS_FEATURES, OBS_ROWS};
pub use vehicle::{Driver, Vehicle};

use crate::core::env::{Env, KeyBinding};
use crate::core::error::EnvError;
use crate::core::kwargs::Kwargs;
use crate::core::spec::{wrap, EnvSpec, Family};

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

pub static FAMILY: Family = Family {
    id: "highway",
    label: "HighwayEnv",
    frame_sha256: true,
    specs: SPECS,
};

const KWARGS_DOC: &str = "config: {lanes_count, vehicles_count, initial_lane_id, duration, \
     ego_spacing, vehicles_density, simulation_frequency, policy_frequency, collision_reward, \
     right_lane_reward, high_speed_reward, lane_change_reward, reward_speed_range, \
     normalize_reward, offroad_terminal, screen_width, screen_height, centering_position, \
     scaling} (highway-env's config keys)";

fn make(spec: &'static EnvSpec, kw: &mut Kwargs) -> Result<Box<dyn Env>, EnvError> {
    let config = HighwayConfig::from_kwargs(spec.id, kw)?;
    Ok(wrap(spec, Highway::new(spec.id, config)?))
}

// Registered without `max_episode_steps`: the `duration` config truncates.
static SPECS: &[EnvSpec] = &[
    EnvSpec {
        id: HIGHWAY_ID,
        aliases: &[],
        family: &FAMILY,
        variants: &[],
        max_episode_steps: None,
        kwargs_doc: KWARGS_DOC,
        summary: "HighwayEnv: drive fast on a four-lane highway among 50 cars, keep right, \
                  do not crash.",
        make: crate::core::spec::heavy(make),
    },
    EnvSpec {
        id: HIGHWAY_FAST_ID,
        aliases: &[],
        family: &FAMILY,
        variants: &[],
        max_episode_steps: None,
        kwargs_doc: KWARGS_DOC,
        summary: "HighwayEnv, lighter: three lanes, 20 cars, 30 s.",
        make: crate::core::spec::heavy(make),
    },
];
