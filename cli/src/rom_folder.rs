//! The driver's `"roms"` kwarg: a folder of Atari ROM files (any names), recognised by
//! MD5 as ALE recognises them and put on the ROM shelf (`envs::atari::roms`) before the
//! environment is made. Playbench ships no ROM; the ale-py wheel on PyPI holds them
//! under `ale_py/roms/`.

use std::path::Path;

/// The kwarg naming the folder; the driver takes it out before `envs::make`.
pub const ROMS_KWARG: &str = "roms";

/// No supported ROM is larger (ALE's largest supported images are 32 KiB); bigger files
/// are not read.
const MAX_ROM_BYTES: u64 = 64 * 1024;

/// What a folder gave the shelf.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Shelved {
    /// The supported games whose ROMs were found, by their Gymnasium names.
    pub games: Vec<&'static str>,
    /// Files read that are no supported game's ROM.
    pub other_files: usize,
}

/// Reads every file directly in `dir` and shelves those that are supported ROMs.
pub fn shelve_folder(dir: &Path) -> Result<Shelved, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        format!(
            "\"{ROMS_KWARG}\": cannot read the ROM folder {}: {e}",
            dir.display()
        )
    })?;
    let mut shelved = Shelved::default();
    for entry in entries {
        let entry = entry.map_err(|e| format!("\"{ROMS_KWARG}\": {}: {e}", dir.display()))?;
        let meta = entry
            .metadata()
            .map_err(|e| format!("\"{ROMS_KWARG}\": {}: {e}", entry.path().display()))?;
        if !meta.is_file() || meta.len() > MAX_ROM_BYTES {
            continue;
        }
        let bytes = std::fs::read(entry.path())
            .map_err(|e| format!("\"{ROMS_KWARG}\": {}: {e}", entry.path().display()))?;
        match envs::atari::roms::add_rom(&bytes) {
            Ok(game) => shelved.games.push(game.name),
            Err(_) => shelved.other_files += 1,
        }
    }
    shelved.games.sort_unstable();
    shelved.games.dedup();
    Ok(shelved)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_without_roms_shelves_nothing_and_a_missing_one_is_an_error() {
        let dir = std::env::temp_dir().join(format!("rom-folder-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("notes.txt"), b"not a ROM").unwrap();
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let shelved = shelve_folder(&dir).unwrap();
        assert_eq!(
            shelved,
            Shelved {
                games: vec![],
                other_files: 1
            }
        );
        std::fs::remove_dir_all(&dir).unwrap();
        let e = shelve_folder(&dir).unwrap_err();
        assert!(e.contains("cannot read the ROM folder"), "{e}");
    }
}
