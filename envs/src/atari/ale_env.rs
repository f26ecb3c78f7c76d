//! `ALE/<Game>-v5` as a registered environment: ale-py's `AtariEnv` keyword arguments
//! read strictly, ALE's action names, keys for people, the real-time clock and the
//! driver's state, over [`AtariEnv`]. The ROM comes from the shelf ([`super::roms`]).
//!
//! Keys (browser `KeyboardEvent.key` values; a key plays one action, so combined
//! actions have keys of their own): arrows or W A S D move, Space fires, E is NOOP (as
//! in ale-py's key map); the digits 7 9 1 3 move diagonally (numpad layout); I J K L
//! move and fire, U O M . move diagonally and fire. Keys of actions outside the action
//! set are left out.

use serde_json::json;

use super::actions::{self, Action as AleAction};
use super::env::{AtariConfig, AtariEnv, ObsType, SCREEN_HEIGHT, SCREEN_WIDTH};
use super::games::Game;
use super::oracle::Planner;
use super::roms;
use super::AtariError;
use crate::core::clock::{Clock, ClockMode};
use crate::core::env::{
    discrete_action, Action, ActionSpace, ByteArray, Env, Info, KeyBinding, Observation, Reset,
    Signals, Step, Words,
};
use crate::core::error::EnvError;
use crate::core::kwargs::Kwargs;
use crate::core::oracle::{Control, Solver};
use crate::core::spec::{wrap, EnvSpec};
use crate::Frame;

/// ALE's emulation rate: one frame per tick of the console's 60 Hz field rate.
const FRAMES_PER_SECOND: u32 = 60;
/// ale-py's `metadata["render_fps"]`.
const RENDER_FPS: u32 = 30;
/// The milestone a step reports when the game takes a life.
pub const LIFE_LOST: &str = "life lost";

/// The `ALE/<Game>-v5` registration's defaults, as people read them.
pub const KWARGS_DOC: &str = "frameskip: integer ≥ 1 (default 4); \
repeat_action_probability: 0..1 (default 0.25, sticky actions); \
full_action_space: bool (default false: the game's minimal action set); \
max_num_frames_per_episode: integer, or null for no limit (default 108000); \
obs_type: \"rgb\" | \"grayscale\" | \"ram\" (default \"rgb\"); \
mode, difficulty: null only (each game's default mode and difficulty). \
Needs the game's ROM on the ROM shelf (the driver: \"roms\": a folder of ROM files).";

/// Key → action, in the order keys are listed.
const KEYS: [(&str, AleAction); 26] = [
    ("ArrowUp", actions::UP),
    ("ArrowDown", actions::DOWN),
    ("ArrowLeft", actions::LEFT),
    ("ArrowRight", actions::RIGHT),
    ("w", actions::UP),
    ("s", actions::DOWN),
    ("a", actions::LEFT),
    ("d", actions::RIGHT),
    (" ", actions::FIRE),
    ("e", actions::NOOP),
    ("7", actions::UPLEFT),
    ("9", actions::UPRIGHT),
    ("1", actions::DOWNLEFT),
    ("3", actions::DOWNRIGHT),
    ("8", actions::UP),
    ("2", actions::DOWN),
    ("4", actions::LEFT),
    ("6", actions::RIGHT),
    ("i", actions::UPFIRE),
    ("k", actions::DOWNFIRE),
    ("j", actions::LEFTFIRE),
    ("l", actions::RIGHTFIRE),
    ("u", actions::UPLEFTFIRE),
    ("o", actions::UPRIGHTFIRE),
    ("m", actions::DOWNLEFTFIRE),
    (".", actions::DOWNRIGHTFIRE),
];

/// One `ALE/<Game>-v5` environment.
#[derive(Clone)]
pub struct AleEnv {
    id: &'static str,
    env: AtariEnv,
}

/// The supported game a registered id names (`ALE/Breakout-v5` → Breakout).
pub fn game_of(id: &str) -> Option<&'static Game> {
    let name = id.strip_prefix("ALE/")?.strip_suffix("-v5")?;
    AtariEnv::game_by_name(name).filter(|g| g.name == name)
}

fn missing_rom(id: &str, game: &Game) -> EnvError {
    EnvError::MissingAsset(format!(
        "ROM not supplied: {id} plays the {} ROM (ALE's `{}`, MD5 {}), which Playbench does \
         not ship; supply the ROM file (the ale-py wheel on PyPI contains it): put it on the \
         ROM shelf (`envs::atari::roms::add_rom`), or give a folder that holds it to the \
         driver's \"roms\" kwarg or `playbench --roms`",
        game.name, game.id, game.md5
    ))
}

fn bad(id: &str, why: String) -> EnvError {
    EnvError::BadKwargs(format!("{id}: {why}"))
}

/// ale-py's `AtariEnv(game, **kwargs)` with the v5 defaults, strictly.
pub fn config_from(id: &str, kw: &mut Kwargs) -> Result<AtariConfig, EnvError> {
    let defaults = AtariConfig::default();
    let frameskip: u32 = kw.value(
        "frameskip",
        "a positive integer (a stochastic (low, high) frame skip is not supported)",
        defaults.frameskip,
    )?;
    if frameskip == 0 {
        return Err(bad(id, "`frameskip` must be positive, got 0".into()));
    }
    let repeat: f64 = kw.value(
        "repeat_action_probability",
        "a number from 0 to 1",
        f64::from(defaults.repeat_action_probability),
    )?;
    if !(0.0..=1.0).contains(&repeat) {
        return Err(bad(
            id,
            format!("`repeat_action_probability` must be from 0 to 1, got {repeat}"),
        ));
    }
    let full_action_space = kw.bool("full_action_space", defaults.full_action_space)?;
    let max_frames: Option<u32> = kw.value(
        "max_num_frames_per_episode",
        "a non-negative integer or null",
        Some(defaults.max_num_frames_per_episode),
    )?;
    let obs_type = match kw
        .choice("obs_type", &["rgb", "grayscale", "ram"], "rgb")?
        .as_str()
    {
        "grayscale" => ObsType::Grayscale,
        "ram" => ObsType::Ram,
        _ => ObsType::Rgb,
    };
    for key in ["mode", "difficulty"] {
        let value: Option<u32> = kw.value(key, "null or a non-negative integer", None)?;
        if let Some(v) = value {
            return Err(bad(
                id,
                format!(
                    "`{key}` {v} is not supported: Playbench plays each game's default {key} \
                     (pass null or leave it out)"
                ),
            ));
        }
    }
    Ok(AtariConfig {
        frameskip,
        // ALE keeps the probability as a 32-bit float.
        repeat_action_probability: repeat as f32,
        // ale-py leaves ALE's setting alone for None: ALE's default, no limit.
        max_num_frames_per_episode: max_frames.unwrap_or(0),
        full_action_space,
        obs_type,
    })
}

/// The registry's constructor for every `ALE/<Game>-v5` id.
pub fn make(spec: &'static EnvSpec, kw: &mut Kwargs) -> Result<Box<dyn Env>, EnvError> {
    let game = game_of(spec.id).ok_or_else(|| EnvError::UnknownEnv(spec.id.to_string()))?;
    let config = config_from(spec.id, kw)?;
    let rom = roms::rom(game).ok_or_else(|| missing_rom(spec.id, game))?;
    let env = AtariEnv::new(&rom, config).map_err(|e| match e {
        AtariError::InvalidConfig(why) => bad(spec.id, why.to_string()),
        other => EnvError::MissingAsset(format!("{}: the shelved ROM: {other}", spec.id)),
    })?;
    Ok(wrap(spec, AleEnv { id: spec.id, env }))
}

impl AleEnv {
    /// The emulator and ALE's state underneath.
    pub fn atari(&self) -> &AtariEnv {
        &self.env
    }

    fn preset_of(&self, action: AleAction) -> Option<usize> {
        self.env.action_set().iter().position(|&a| a == action)
    }
}

impl Env for AleEnv {
    fn id(&self) -> &str {
        self.id
    }

    fn action_space(&self) -> ActionSpace {
        ActionSpace::Discrete {
            n: self.env.action_set().len(),
        }
    }

    fn action_names(&self) -> Vec<String> {
        self.env
            .action_names()
            .into_iter()
            .map(str::to_string)
            .collect()
    }

    fn noop(&self) -> Option<usize> {
        self.preset_of(actions::NOOP)
    }

    fn keymap(&self) -> Vec<KeyBinding> {
        KEYS.iter()
            .filter_map(|&(key, action)| Some(KeyBinding::new(key, self.preset_of(action)?)))
            .collect()
    }

    /// One step is `frameskip` frames at 60 Hz; with nothing pressed, NOOP is played.
    fn clock(&self) -> Option<Clock> {
        let frames = self.env.config().frameskip;
        Some(Clock {
            mode: ClockMode::Fixed,
            // Whole milliseconds, rounded: 4 frames take 66.7 ms, played as 67 ms.
            tick_ms: ((frames.saturating_mul(1000) + FRAMES_PER_SECOND / 2) / FRAMES_PER_SECOND)
                .max(1),
            idle: self.preset_of(actions::NOOP).unwrap_or(0),
        })
    }

    fn render_fps(&self) -> u32 {
        RENDER_FPS
    }

    fn words(&self) -> Words {
        Words {
            goal: "Score as many points as you can",
            success: "finished the game",
            failure: "the game ended",
        }
    }

    fn reset(&mut self, seed: Option<u64>) -> Reset {
        self.env.reset(seed);
        Reset {
            obs: self.observation(),
            info: Info::default(),
        }
    }

    fn step(&mut self, action: Action) -> Result<Step, EnvError> {
        let index = discrete_action(&action, self.env.action_set().len())?;
        let lives_before = self.env.lives();
        let s = self
            .env
            .step(index)
            .map_err(|e| EnvError::InvalidAction(e.to_string()))?;
        let mut signals = Signals::default();
        // Atari games have no success event; losing a life is a milestone.
        if self.env.lives() < lives_before {
            signals.events.push(LIFE_LOST.to_string());
        }
        Ok(Step {
            obs: self.observation(),
            reward: s.reward,
            terminated: s.terminated,
            truncated: s.truncated,
            info: Info::default(),
            signals,
        })
    }

    fn observation(&self) -> Observation {
        let shape = match self.env.config().obs_type {
            ObsType::Rgb => vec![SCREEN_HEIGHT, SCREEN_WIDTH, 3],
            ObsType::Grayscale => vec![SCREEN_HEIGHT, SCREEN_WIDTH],
            ObsType::Ram => vec![128],
        };
        let mut data = Vec::new();
        self.env.observation(&mut data);
        Observation::Bytes(ByteArray { shape, data })
    }

    fn frame_size(&self) -> (u32, u32) {
        (SCREEN_WIDTH as u32, SCREEN_HEIGHT as u32)
    }

    fn render(&self, frame: &mut Frame) {
        frame.resize(SCREEN_WIDTH as u32, SCREEN_HEIGHT as u32);
        self.env.screen_rgb_into(frame.data_mut());
    }

    /// ale-py's `info` and the RAM: what the driver's `state` reports.
    fn snapshot(&self) -> Option<serde_json::Value> {
        Some(json!({
            "ram": self.env.ram().to_vec(),
            "lives": self.env.lives(),
            "frame_number": self.env.frame_number(),
            "episode_frame_number": self.env.episode_frame_number(),
        }))
    }

    /// The screen in characters by brightness (one per 4×7 pixels), under a status line.
    fn render_text(&self) -> String {
        const RAMP: &[u8] = b" .:-=+*#%@";
        const CELL_W: usize = 4;
        const CELL_H: usize = 7;
        let mut gray = Vec::new();
        self.env.screen_grayscale(&mut gray);
        let mut lines = vec![format!(
            "{}: lives {}, episode frame {}",
            self.env.game().name,
            self.env.lives(),
            self.env.episode_frame_number()
        )];
        for row in 0..SCREEN_HEIGHT / CELL_H {
            let line: String = (0..SCREEN_WIDTH / CELL_W)
                .map(|col| {
                    let mut sum = 0usize;
                    for y in row * CELL_H..(row + 1) * CELL_H {
                        let start = y * SCREEN_WIDTH + col * CELL_W;
                        sum += gray[start..start + CELL_W]
                            .iter()
                            .map(|&g| usize::from(g))
                            .sum::<usize>();
                    }
                    let level = sum / (CELL_W * CELL_H) * RAMP.len() / 256;
                    char::from(RAMP[level.min(RAMP.len() - 1)])
                })
                .collect();
            lines.push(line.trim_end().to_string());
        }
        lines.join("\n")
    }

    fn clone_box(&self) -> Box<dyn Env> {
        Box::new(self.clone())
    }

    /// A search on copies of the console (slow: the `vical` suite records its play).
    fn oracle(&self, control: Control) -> Option<Box<dyn Solver>> {
        Some(Box::new(Planner::new(control)))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atari::games::GAMES;
    use serde_json::{Map, Value};

    fn kwargs(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn every_supported_game_is_registered_once() {
        let ids: Vec<&str> = crate::atari::FAMILY.specs.iter().map(|s| s.id).collect();
        assert_eq!(ids.len(), GAMES.len());
        for game in GAMES {
            let id = format!("ALE/{}-v5", game.name);
            assert!(ids.contains(&id.as_str()), "{id}");
            assert_eq!(game_of(&id).map(|g| g.id), Some(game.id));
        }
        assert!(game_of("ALE/breakout-v5").is_none());
        assert!(game_of("Breakout-v5").is_none());
    }

    #[test]
    fn a_missing_rom_is_a_clear_typed_error() {
        let game = game_of("ALE/Tennis-v5").unwrap();
        if roms::has_rom(game) {
            return;
        }
        match crate::make("ALE/Tennis-v5", &Map::new()).err() {
            Some(EnvError::MissingAsset(why)) => {
                assert!(why.starts_with("ROM not supplied: ALE/Tennis-v5"), "{why}");
                assert!(why.contains(game.md5) && why.contains("roms"), "{why}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn kwargs_are_read_strictly() {
        let read = |v: Value| {
            let mut kw = Kwargs::new("ALE/Pong-v5", kwargs(v));
            let config = config_from("ALE/Pong-v5", &mut kw);
            config.and_then(|c| kw.finish().map(|()| c))
        };
        let c = read(json!({})).unwrap();
        assert_eq!(c, AtariConfig::default());
        let c = read(json!({
            "frameskip": 5,
            "repeat_action_probability": 0.0,
            "full_action_space": true,
            "max_num_frames_per_episode": null,
            "obs_type": "ram",
            "mode": null,
            "difficulty": null,
        }))
        .unwrap();
        assert_eq!(
            c,
            AtariConfig {
                frameskip: 5,
                repeat_action_probability: 0.0,
                max_num_frames_per_episode: 0,
                full_action_space: true,
                obs_type: ObsType::Ram,
            }
        );
        for (bad, key) in [
            (json!({"frameskip": 0}), "frameskip"),
            (json!({"frameskip": [2, 5]}), "frameskip"),
            (
                json!({"repeat_action_probability": 1.5}),
                "repeat_action_probability",
            ),
            (json!({"obs_type": "rgb_array"}), "obs_type"),
            (json!({"mode": 1}), "mode"),
            (json!({"difficulty": 1}), "difficulty"),
            (json!({"render_mode": "human"}), "render_mode"),
        ] {
            match read(bad.clone()) {
                Err(EnvError::BadKwargs(why)) => assert!(why.contains(key), "{bad}: {why}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
    }

    #[test]
    fn every_key_plays_an_action_of_the_full_set() {
        for (key, action) in KEYS {
            assert!(actions::ALL.contains(&action), "{key:?}");
        }
        // Every joystick action has a key.
        for action in actions::ALL {
            assert!(KEYS.iter().any(|&(_, a)| a == action), "{action}");
        }
    }
}
