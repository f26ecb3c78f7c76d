//! FlappyBird as flappy-bird-gymnasium 0.4.0 registers it (`FlappyBird-v0`), seed for
//! seed; frames pixel-exact when drawn with the package's sprites (behaviour and art in
//! docs/third-party-games.md).

mod art;
mod env;
mod interface;
mod lidar;
mod oracle;
mod render;
mod sprite_set;

pub use env::{FlappyBird, FlappyBirdConfig, Pipe, StepResult};
pub use lidar::{LIDAR_MAX_DISTANCE, RAYS};
pub use sprite_set::{sprite_files, SpriteSet, SpriteSource};

use serde_json::{Map, Value};

use crate::core::env::{Env, KeyBinding};
use crate::core::error::EnvError;
use crate::core::kwargs::Kwargs;
use crate::core::spec::{wrap, EnvSpec, Family, Variant};

pub const ID: &str = "FlappyBird-v0";

/// The package's `Actions` enum.
pub const ACTION_NAMES: [&str; 2] = ["IDLE", "FLAP"];

pub const NOOP_ACTION: usize = 0;

/// Real-time rate for people: the package's `render_fps`; its human mode steps and draws
/// at this rate.
pub const STEPS_PER_SECOND: u32 = 30;

/// Space or Up flaps, as in the package's human-play script.
pub const KEYMAP: &[KeyBinding] = &[KeyBinding::new(" ", 1), KeyBinding::new("ArrowUp", 1)];

pub static FAMILY: Family = Family {
    id: "flappy_bird",
    label: "FlappyBird",
    frame_sha256: true,
    specs: SPECS,
};

static SPECS: &[EnvSpec] = &[EnvSpec {
    id: ID,
    aliases: &[],
    family: &FAMILY,
    variants: &[Variant {
        label: "features",
        kwargs: r#"{"use_lidar": false}"#,
    }],
    // Registered without `max_episode_steps`: only `score_limit` truncates.
    max_episode_steps: None,
    kwargs_doc: "screen_size: [w, h] (default [288, 512]); normalize_obs: bool (default \
                 true); use_lidar: bool (default true: 180 rays, false: 12 features); \
                 pipe_gap: int (default 100); bird_color: \"yellow\" | \"blue\" | \"red\"; \
                 pipe_color: \"green\" | \"red\"; background: \"day\" | \"night\" | null; \
                 score_limit: int | null; audio_on, debug: bool (no effect)",
    summary: "FlappyBird (flappy-bird-gymnasium): flap through the gaps between the pipes.",
    make: crate::core::spec::heavy(|spec, kw| {
        let config = FlappyBirdConfig::from_kwargs(kw)?;
        Ok(wrap(spec, FlappyBird::with_config(config)?))
    }),
}];

/// `gym.make("FlappyBird-v0", sprites=DIR, **kwargs)` for a caller that can read files
/// (`envs` reads none): `kwargs` without `sprites`, and `read` giving the PNG bytes of
/// each name of [`sprite_files`] in DIR. Frames are then the package's, pixel for pixel.
pub fn make_with_sprites(
    kwargs: &Map<String, Value>,
    read: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
) -> Result<Box<dyn Env>, EnvError> {
    let spec = SPECS
        .first()
        .ok_or_else(|| EnvError::UnknownEnv(ID.to_string()))?;
    let mut kw = Kwargs::new(ID, kwargs.clone());
    let config = FlappyBirdConfig::from_kwargs(&mut kw)?;
    kw.finish()?;
    let mut env = FlappyBird::with_config(config)?;
    env.load_sprites(read)?;
    Ok(wrap(spec, env))
}
