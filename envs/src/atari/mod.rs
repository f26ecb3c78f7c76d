//! Atari 2600 games with the Arcade Learning Environment's semantics, on an emulator of
//! our own: the 6507 CPU, the TIA (video; no sound), the RIOT and cartridge bank
//! switching, modelled on the Stella core ALE embeds so that RAM, rewards, episode ends
//! and screens match ale-py frame for frame.
//!
//! ROMs are not part of this crate: callers pass the ROM image, recognised by MD5 as ALE
//! recognises it. The golden tests take the ROMs from the ale-py wheel (see
//! `tests/golden/atari/`).

pub mod actions;
mod cartridge;
mod cpu;
mod env;
pub mod games;
mod machine;
mod md5;
mod mt19937;
mod palette;
mod props;
mod riot;
mod tia;
mod tia_tables;

pub use env::{AtariConfig, AtariEnv, AtariStep, ObsType, SCREEN_HEIGHT, SCREEN_WIDTH};
pub use games::Game;
pub use md5::md5_hex;

use std::fmt;

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
