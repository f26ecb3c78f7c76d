//! Discovers the golden data and fixtures by directory: every file under `golden/` and
//! `fixtures/` (except scripts and notes) is embedded, so the same tests read them
//! natively and as wasm in the browser, and a file added there is checked without
//! editing any list.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const DATA: [&str; 4] = [".json", ".json.gz", ".txt", ".jsonl"];

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
            if DATA.iter().any(|ext| name.ends_with(ext)) {
                out.push(path);
            }
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let mut files = Vec::new();
    for dir in ["golden", "fixtures"] {
        println!("cargo:rerun-if-changed={dir}");
        walk(&root.join(dir), &mut files);
    }
    files.sort();
    let mut code = String::from(
        "/// Every data file under `tests/golden/` and `tests/fixtures/`: (path relative to\n\
         /// `tests/`, bytes), sorted by path.\n\
         pub static DATA_FILES: &[(&str, &[u8])] = &[\n",
    );
    for f in &files {
        let rel = f
            .strip_prefix(&root)
            .unwrap_or(f)
            .to_string_lossy()
            .replace('\\', "/");
        let _ = writeln!(
            code,
            "    ({rel:?}, include_bytes!({:?})),",
            f.display().to_string()
        );
        if let Some(parent) = f.parent() {
            println!("cargo:rerun-if-changed={}", parent.display());
        }
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default()).join("data_files.rs");
    if let Err(e) = std::fs::write(&out, code) {
        panic!("writing {}: {e}", out.display());
    }
}
