//! The ROM shelf: ROM images the user supplied, kept in memory for the whole process and
//! recognised by MD5 as ALE recognises them. Playbench ships no ROM; whoever runs the
//! environments puts the images here first (the browser from its own storage, the
//! driver from a folder named by the `roms` kwarg, tests from the ale-py wheel), and
//! `envs::make("ALE/<Game>-v5", ..)` takes its game's image from the shelf.
//!
//! The shelf holds bytes only: no file system, no network.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use super::games::{Game, GAMES};
use super::md5::md5_hex;
use super::AtariError;

/// Supported games' ROM images by MD5 (lower-case hex).
static SHELF: Mutex<BTreeMap<&'static str, Arc<[u8]>>> = Mutex::new(BTreeMap::new());

fn shelf() -> MutexGuard<'static, BTreeMap<&'static str, Arc<[u8]>>> {
    // The map is valid after any panic elsewhere (inserts are single operations).
    SHELF
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Puts a ROM image on the shelf and names the game it is, or fails with the image's
/// MD5 when no supported game has it (ALE accepts exactly one image per game).
pub fn add_rom(bytes: &[u8]) -> Result<&'static Game, AtariError> {
    let md5 = md5_hex(bytes);
    let game = GAMES
        .iter()
        .copied()
        .find(|g| g.md5 == md5)
        .ok_or(AtariError::UnknownRom(md5))?;
    shelf().insert(game.md5, Arc::from(bytes));
    Ok(game)
}

/// Whether the game's ROM is on the shelf.
pub fn has_rom(game: &Game) -> bool {
    shelf().contains_key(game.md5)
}

/// The game's ROM image, if it is on the shelf.
pub fn rom(game: &Game) -> Option<Arc<[u8]>> {
    shelf().get(game.md5).cloned()
}

/// Takes the game's ROM off the shelf; whether it was there.
pub fn remove_rom(game: &Game) -> bool {
    shelf().remove(game.md5).is_some()
}

/// The games whose ROMs are on the shelf, in the supported games' order.
pub fn shelved_games() -> Vec<&'static Game> {
    let shelf = shelf();
    GAMES
        .iter()
        .copied()
        .filter(|g| shelf.contains_key(g.md5))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_images_are_refused_with_their_md5() {
        let err = add_rom(b"not a cartridge").err();
        assert_eq!(
            err,
            Some(AtariError::UnknownRom(md5_hex(b"not a cartridge")))
        );
        assert!(shelved_games().len() <= GAMES.len());
    }
}
