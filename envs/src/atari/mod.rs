//! Atari 2600 games with the Arcade Learning Environment's semantics, on an emulator of
//! our own: the 6507 CPU, the TIA (video; no sound), the RIOT and cartridge bank
//! switching, modelled on the Stella core ALE embeds so that RAM, rewards, episode ends
//! and screens match ale-py frame for frame.
//!
//! ROMs are not part of this crate: the user supplies them, recognised by MD5 as ALE
//! recognises them, onto the in-memory ROM shelf ([`roms`]); the registered ids
//! `ALE/<Game>-v5` ([`ale_env`]) take their game's ROM from it. The golden tests take the
//! ROMs from the ale-py wheel (see `tests/golden/atari/`).

pub mod actions;
pub mod ale_env;
mod cartridge;
mod cpu;
mod env;
pub mod games;
mod machine;
mod md5;
mod mt19937;
pub mod oracle;
mod palette;
mod props;
mod riot;
pub mod roms;
mod tia;
mod tia_tables;

pub use env::{AtariConfig, AtariEnv, AtariStep, ObsType, SCREEN_HEIGHT, SCREEN_WIDTH};
pub use games::Game;
pub use md5::md5_hex;

use crate::core::spec::{EnvSpec, Family};
use std::fmt;

pub static FAMILY: Family = Family {
    id: "atari",
    label: "Atari (ALE)",
    frame_sha256: true,
    specs: SPECS,
};

/// One `ALE/<Game>-v5` spec per supported game (names as in [`games::GAMES`]).
macro_rules! ale_specs {
    ($($name:literal => $summary:literal),* $(,)?) => {
        static SPECS: &[EnvSpec] = &[$(EnvSpec {
            id: concat!("ALE/", $name, "-v5"),
            aliases: &[],
            family: &FAMILY,
            // v5 registers no step limit: ALE truncates at its frame limit itself.
            max_episode_steps: None,
            kwargs_doc: ale_env::KWARGS_DOC,
            summary: $summary,
            variants: &[],
            make: crate::core::spec::heavy(ale_env::make),
        }),*];
    };
}

ale_specs! {
    "Alien" => "Crush the alien eggs in the ship's corridors while the aliens hunt you.",
    "Amidar" => "Trace every box of the grid while dodging the warriors.",
    "Asterix" => "Catch the objects that fly across the rows and avoid the lyres.",
    "BattleZone" => "Destroy enemy tanks and saucers from a first-person tank.",
    "Berzerk" => "Shoot the robots of each maze room and leave before Evil Otto comes.",
    "Boxing" => "Out-punch the computer boxer in a two-minute bout seen from above.",
    "Breakout" => "Bounce the ball off the paddle to knock out the wall of bricks.",
    "Enduro" => "Pass cars in an endurance race through day, night and fog.",
    "Freeway" => "Get the chicken across ten lanes of traffic as often as you can.",
    "Frostbite" => "Jump on ice floes to build an igloo before the temperature hits zero.",
    "Kangaroo" => "Climb to the baby kangaroo, punching monkeys and dodging apples.",
    "MontezumaRevenge" => "Explore the pyramid's rooms for keys and treasure past its traps.",
    "MsPacman" => "Eat every pellet of the maze while escaping the ghosts.",
    "Pong" => "Return the ball past the computer's paddle; the first to 21 wins.",
    "Qbert" => "Hop on the pyramid's cubes to change their colour, away from enemies.",
    "Riverraid" => "Fly up the river shooting enemies and refuelling over fuel depots.",
    "RoadRunner" => "Run from the coyote down the road, eating seed and dodging trucks.",
    "Seaquest" => "Shoot sharks and subs, rescue divers and surface before the air runs out.",
    "SpaceInvaders" => "Shoot down the descending invaders from behind the shields.",
    "Tennis" => "Win a tennis match against the computer player.",
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AtariError {
    /// No supported game has a ROM with this MD5.
    UnknownRom(String),
    /// The ROM needs a bank-switching scheme we do not emulate.
    UnsupportedCartridge(String),
    /// The ROM runs at PAL/SECAM timing (no supported game does).
    UnsupportedTvFormat,
    InvalidAction(usize),
    InvalidConfig(&'static str),
}

impl fmt::Display for AtariError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AtariError::UnknownRom(md5) => {
                write!(f, "no supported Atari game has a ROM with MD5 {md5}")
            }
            AtariError::UnsupportedCartridge(kind) => {
                write!(f, "unsupported cartridge type: {kind}")
            }
            AtariError::UnsupportedTvFormat => write!(f, "PAL/SECAM ROMs are not supported"),
            AtariError::InvalidAction(i) => write!(f, "action index {i} is outside the action set"),
            AtariError::InvalidConfig(why) => write!(f, "invalid Atari configuration: {why}"),
        }
    }
}

impl std::error::Error for AtariError {}
