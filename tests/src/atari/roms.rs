//! The ROMs for the Atari tests, taken from the ale-py wheel (which ships the ROM files
//! ALE supports) into the repository's ignored `.cache/` folder:
//!
//! * `ATARI_ROMS_DIR`, if set, names a folder of `<rom id>.bin` files to use as is;
//! * otherwise `.cache/atari-roms/` is used once filled;
//! * to fill it, the wheel's `ale_py/roms/*.bin` entries are extracted (the wheel comes
//!   from `.cache/wheels/`, downloaded there when missing: `crate::wheels`).
//!
//! Nothing here runs Python code beyond pip's download. When no ROM can be had, the
//! error says what was tried, and the tests that need ROMs fail.
//!
//! `tests/build.rs` compiles this file too, to embed the ROMs in wasm test builds.

use std::path::{Path, PathBuf};

const ALE_PY: &str = "ale-py==0.12.1";
const WHEEL_PREFIX: &str = "ale_py-0.12.1-";
const ROM_PREFIX: &str = "ale_py/roms/";

fn has_roms(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .any(|e| e.path().extension().is_some_and(|x| x == "bin"))
        })
        .unwrap_or(false)
}

/// The folder holding the ALE ROMs, filling the cache from the ale-py wheel if needed.
pub fn rom_dir() -> Result<PathBuf, String> {
    if let Ok(dir) = std::env::var("ATARI_ROMS_DIR") {
        let dir = PathBuf::from(dir);
        return if has_roms(&dir) {
            Ok(dir)
        } else {
            Err(format!(
                "ATARI_ROMS_DIR={} holds no .bin files",
                dir.display()
            ))
        };
    }
    let cache = crate::repo_root().join(".cache");
    let dir = cache.join("atari-roms");
    if has_roms(&dir) {
        return Ok(dir);
    }
    let roms = crate::wheels::wheel_files(ALE_PY, WHEEL_PREFIX, ROM_PREFIX)?;
    // Test processes run at once: each fills a folder of its own and renames it into
    // place whole, so none sees another's half-filled folder.
    let own = cache.join(format!(".atari-roms-{}", std::process::id()));
    std::fs::create_dir_all(&own).map_err(|e| format!("creating {}: {e}", own.display()))?;
    for (file, data) in roms {
        if file.ends_with(".bin") && !file.contains('/') {
            std::fs::write(own.join(&file), data).map_err(|e| format!("writing {file}: {e}"))?;
        }
    }
    // Another process may have put its folder in place first: then this one goes.
    if std::fs::rename(&own, &dir).is_err() {
        let _ = std::fs::remove_dir_all(&own);
    }
    if has_roms(&dir) {
        Ok(dir)
    } else {
        Err(format!("the {ALE_PY} wheel has no ROMs under {ROM_PREFIX}"))
    }
}

/// A ROM by ALE id ("breakout"), from [`rom_dir`].
pub fn read_rom(id: &str) -> Result<Vec<u8>, String> {
    let path = rom_dir()?.join(format!("{id}.bin"));
    std::fs::read(&path).map_err(|e| format!("reading {}: {e}", path.display()))
}

/// Every `.bin` file of [`rom_dir`], sorted by name: (file name, bytes).
pub fn rom_files() -> Result<Vec<(String, Vec<u8>)>, String> {
    let dir = rom_dir()?;
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&dir).map_err(|e| format!("reading {}: {e}", dir.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.extension().is_some_and(|x| x == "bin") {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_string();
            let bytes =
                std::fs::read(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
            files.push((name, bytes));
        }
    }
    files.sort();
    Ok(files)
}
