//! The ROM shelf as people see it: Atari ROM files they drop on the page (one by one,
//! several at once, or the ale-py wheel, which is a zip holding `ale_py/roms/*.bin`),
//! recognised by MD5 (`envs::atari::games`), put on the environments' in-memory shelf
//! (`envs::atari::roms`) and kept in this browser's storage only
//! ([`crate::storage_keys::ATARI_ROMS`]), to be put back on the shelf at start-up.
//!
//! ROMs never leave the device: links and episode files name the environment (whose
//! game names its ROM's MD5), never the ROM's bytes.

use std::collections::BTreeMap;

use bench::share::{base64url_decode, base64url_encode};
use envs::atari::games::GAMES;
use envs::atari::{ale_env, md5_hex, roms, Game};

use crate::storage::{Store, StoreError};
use crate::storage_keys::ATARI_ROMS;
use envs::core::zip as zip_reader;

/// The largest ROM image ALE supports is 64 KB; larger files are not read as ROMs.
const MAX_ROM_BYTES: usize = 64 << 10;

/// One ROM image found in a dropped file.
#[derive(Clone, Debug, PartialEq)]
pub struct RomFile {
    /// The file's name (for a wheel, the entry's name inside it).
    pub name: String,
    pub md5: String,
    pub size: usize,
    /// The supported game whose ROM this is (`None`: not a ROM Playbench supports).
    pub game: Option<&'static Game>,
    bytes: Vec<u8>,
}

impl RomFile {
    pub fn new(name: &str, bytes: Vec<u8>) -> Self {
        let md5 = md5_hex(&bytes);
        let game = GAMES.iter().copied().find(|g| g.md5 == md5);
        Self {
            name: name.to_string(),
            md5,
            size: bytes.len(),
            game,
            bytes,
        }
    }

    /// "Breakout", or why the file is refused.
    pub fn verdict(&self) -> String {
        match self.game {
            Some(g) => format!("{} (ALE's {}.bin)", g.name, g.id),
            None => format!(
                "not a supported ROM: no game Playbench plays has MD5 {}",
                self.md5
            ),
        }
    }
}

/// The ROM images of one dropped file: a wheel's (or any zip's) `roms/*.bin` entries,
/// or the file itself. `Err` says why nothing could be read.
pub fn roms_in(name: &str, bytes: Vec<u8>) -> Result<Vec<RomFile>, String> {
    if zip_reader::looks_like_zip(&bytes) {
        let entries = zip_reader::entries(&bytes).map_err(|e| format!("{name}: {e}"))?;
        let mut found = Vec::new();
        for e in entries {
            let file = e.name.rsplit('/').next().unwrap_or_default();
            if e.name.contains("roms/") && (file.ends_with(".bin") || file.ends_with(".a26")) {
                let data = zip_reader::extract(&bytes, &e).map_err(|e| format!("{name}: {e}"))?;
                found.push(RomFile::new(file, data));
            }
        }
        if found.is_empty() {
            return Err(format!(
                "{name} is a zip archive without ROMs (the ale-py wheel holds them under \
                 ale_py/roms/)"
            ));
        }
        return Ok(found);
    }
    if bytes.is_empty() || bytes.len() > MAX_ROM_BYTES {
        return Err(format!(
            "{name} is not an Atari ROM: {} bytes (a ROM has 2 KB to 64 KB)",
            bytes.len()
        ));
    }
    Ok(vec![RomFile::new(name, bytes)])
}

/// What was kept in the browser's storage: MD5 → ROM bytes in base64url.
fn stored(store: &dyn Store) -> BTreeMap<String, String> {
    store
        .get(ATARI_ROMS.key)
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

fn save(store: &dyn Store, map: &BTreeMap<String, String>) -> Result<(), StoreError> {
    if map.is_empty() {
        store.remove(ATARI_ROMS.key);
        return Ok(());
    }
    let text = serde_json::to_string(map).map_err(|e| StoreError::Unavailable(e.to_string()))?;
    store.set(ATARI_ROMS.key, &text)
}

/// Puts the recognised files on the shelf and keeps them in `store`; the games added.
/// Unrecognised files are left out (the page lists them as refused).
pub fn shelve(store: &dyn Store, files: &[RomFile]) -> Result<Vec<&'static Game>, StoreError> {
    let mut map = stored(store);
    let mut added = Vec::new();
    for f in files {
        if f.game.is_none() {
            continue;
        }
        if let Ok(game) = roms::add_rom(&f.bytes) {
            map.insert(game.md5.to_string(), base64url_encode(&f.bytes));
            if !added.contains(&game) {
                added.push(game);
            }
        }
    }
    save(store, &map)?;
    Ok(added)
}

/// Puts every ROM kept in `store` back on the shelf (at start-up); the games restored.
/// Entries that no longer decode or match are dropped from storage.
pub fn restore(store: &dyn Store) -> Vec<&'static Game> {
    let map = stored(store);
    let mut kept = BTreeMap::new();
    let mut games = Vec::new();
    for (md5, text) in map {
        let Ok(bytes) = base64url_decode(&text) else {
            continue;
        };
        match roms::add_rom(&bytes) {
            Ok(game) if game.md5 == md5 => {
                games.push(game);
                kept.insert(md5, text);
            }
            _ => {}
        }
    }
    if kept.len() != stored(store).len() {
        // Best effort: a store that refuses keeps the damaged entries, which restore skips.
        let _ = save(store, &kept);
    }
    games
}

/// Takes a game's ROM off the shelf and out of `store`.
pub fn remove(store: &dyn Store, game: &'static Game) -> Result<(), StoreError> {
    roms::remove_rom(game);
    let mut map = stored(store);
    map.remove(game.md5);
    save(store, &map)
}

/// One supported game on the `/roms` page.
#[derive(Clone, Debug, PartialEq)]
pub struct ShelfRow {
    pub game: &'static Game,
    /// The ROM's size, when it is on the shelf.
    pub size: Option<usize>,
}

/// Every supported game, with its ROM's size when it is on the shelf.
pub fn rows() -> Vec<ShelfRow> {
    GAMES
        .iter()
        .copied()
        .map(|game| ShelfRow {
            game,
            size: roms::rom(game).map(|r| r.len()),
        })
        .collect()
}

/// The game whose ROM `env_id` needs and the shelf lacks (`None`: not an Atari id, or
/// its ROM is there).
pub fn missing_rom(env_id: &str) -> Option<&'static Game> {
    ale_env::game_of(env_id).filter(|g| !roms::has_rom(g))
}

/// What to tell a person whose environment needs a ROM.
pub fn needs_rom_text(env_id: &str, game: &Game) -> String {
    format!(
        "{env_id} plays the {} ROM, which Playbench does not ship. Drop the file here: \
         ALE's {}.bin (MD5 {}). The ale-py wheel on PyPI contains it — drop the whole \
         .whl file and every ROM in it is recognised. ROMs stay in this browser, on this \
         device only; links and episode files never carry them.",
        game.name, game.id, game.md5
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemoryStore;
    use envs::core::zip::build as make_zip;

    fn game(name: &str) -> &'static Game {
        GAMES.iter().copied().find(|g| g.name == name).unwrap()
    }

    #[test]
    fn files_that_are_not_roms_are_refused_or_named_unsupported() {
        assert!(roms_in("empty.bin", Vec::new()).is_err());
        let big = roms_in("movie.mp4", vec![0; MAX_ROM_BYTES + 1]).unwrap_err();
        assert!(big.contains("not an Atari ROM"), "{big}");
        let odd = roms_in("odd.bin", b"not a cartridge".to_vec()).unwrap();
        assert_eq!(odd.len(), 1);
        assert_eq!(odd[0].game, None);
        assert_eq!(odd[0].md5, md5_hex(b"not a cartridge"));
        assert!(odd[0].verdict().contains(&odd[0].md5));
        let zip = make_zip(&[("readme.txt", b"hi", true)]);
        assert!(roms_in("x.whl", zip).unwrap_err().contains("without ROMs"));
        // Unsupported files are never shelved nor stored.
        let store = MemoryStore::default();
        assert_eq!(shelve(&store, &odd), Ok(vec![]));
        assert_eq!(store.get(ATARI_ROMS.key), None);
    }

    #[test]
    fn a_wheel_yields_its_roms_and_the_real_ones_are_recognised() {
        let roms_dir = playbench_tests::atari::roms::rom_files().unwrap();
        let breakout = roms_dir
            .iter()
            .find(|(n, _)| n == "breakout.bin")
            .map(|(_, b)| b.clone())
            .unwrap();
        let zip = make_zip(&[
            ("ale_py/__init__.py", b"", true),
            ("ale_py/roms/breakout.bin", &breakout, true),
            ("ale_py/roms/unknown.bin", b"xyz", false),
        ]);
        let found = roms_in("ale_py-0.12.1.whl", zip).unwrap();
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].name, "breakout.bin");
        assert_eq!(found[0].game.map(|g| g.name), Some("Breakout"));
        assert_eq!(found[0].size, breakout.len());
        assert_eq!(found[1].game, None);
    }

    #[test]
    fn the_ale_py_wheel_itself_yields_every_supported_rom() {
        let wheel = playbench_tests::wheels::wheel("ale-py==0.12.1", "ale_py-0.12.1-").unwrap();
        let bytes = std::fs::read(wheel).unwrap();
        let found = roms_in("ale_py-0.12.1.whl", bytes).unwrap();
        let mut games: Vec<&str> = found
            .iter()
            .filter_map(|r| r.game.map(|g| g.name))
            .collect();
        games.sort_unstable();
        let mut all: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
        all.sort_unstable();
        assert_eq!(games, all);
        assert!(
            found.len() > GAMES.len(),
            "the wheel has more ROMs than we support"
        );
    }

    #[test]
    fn the_request_for_a_rom_names_the_file_its_md5_and_the_wheel() {
        let g = game("Breakout");
        let text = needs_rom_text("ALE/Breakout-v5", g);
        for part in ["breakout.bin", g.md5, "ale-py wheel", "this browser"] {
            assert!(text.contains(part), "{part}: {text}");
        }
        assert_eq!(missing_rom("FrozenLake-v1"), None);
    }
}
