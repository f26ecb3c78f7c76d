//! Discovers the golden data and fixtures by directory: every file under `golden/` and
//! `fixtures/` (except scripts and notes) is embedded, so the same tests read them
//! natively and as wasm in the browser, and a file added there is checked without
//! editing any list.
//!
//! Wasm test builds also embed the Atari ROMs from the ignored `.cache/` folder (filled
//! from the ale-py wheel by the same code the native tests use, `src/atari/roms.rs`):
//! a browser test has no file system to read them from. Native builds embed none.
//!
//! Wasm test builds embed MuJoCo's WebAssembly module too (`mujoco.js` and `.wasm`, from
//! the `node_modules/@mujoco/mujoco` that `npm ci` installs), for the Fetch tasks'
//! golden replay in the browser.

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

// Only `rom_files` is used here; the rest serves the native tests. Both files reach the
// repository root and the zip reader through `crate::`, which is this script here.
#[allow(dead_code)]
#[path = "src/atari/roms.rs"]
mod roms;
#[allow(dead_code)]
#[path = "src/wheels.rs"]
mod wheels;
#[allow(dead_code)]
#[path = "../envs/src/core/zip.rs"]
mod zip;

fn repo_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap_or(here).to_path_buf()
}

/// `atari_roms.rs`: `EMBEDDED_ROMS` (file name, bytes) and, when there are none,
/// `EMBEDDED_ROMS_MISSING` saying why.
fn embed_atari_roms(out_dir: &Path) {
    println!("cargo:rerun-if-env-changed=ATARI_ROMS_DIR");
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "wasm32");
    let mut code = String::from(
        "/// The Atari ROMs embedded in wasm test builds: (file name, bytes).\n\
         pub static EMBEDDED_ROMS: &[(&str, &[u8])] = &[\n",
    );
    let mut missing = String::new();
    if wasm {
        match roms::rom_dir().and_then(|dir| {
            println!("cargo:rerun-if-changed={}", dir.display());
            roms::rom_files().map(|files| (dir, files))
        }) {
            Ok((dir, files)) => {
                for (name, _) in files {
                    let path = dir.join(&name);
                    let _ = writeln!(
                        code,
                        "    ({name:?}, include_bytes!({:?})),",
                        path.display().to_string()
                    );
                }
            }
            Err(e) => {
                println!("cargo:warning=no Atari ROMs for the wasm tests: {e}");
                missing = e;
            }
        }
    } else {
        missing = "native builds read the ROMs from .cache/ (playbench_tests::atari::roms)".into();
    }
    code.push_str("];\n");
    let _ = writeln!(
        code,
        "/// Why [`EMBEDDED_ROMS`] is empty (empty when it is not).\n\
         pub static EMBEDDED_ROMS_MISSING: &str = {missing:?};"
    );
    let out = out_dir.join("atari_roms.rs");
    if let Err(e) = std::fs::write(&out, code) {
        panic!("writing {}: {e}", out.display());
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
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    let out = out_dir.join("data_files.rs");
    if let Err(e) = std::fs::write(&out, code) {
        panic!("writing {}: {e}", out.display());
    }
    embed_atari_roms(&out_dir);
    embed_mujoco(&out_dir);
}

/// `mujoco_module.rs`: `MUJOCO_JS` and `MUJOCO_WASM` in wasm builds where npm installed
/// the package, and `MUJOCO_MISSING` saying why they are empty otherwise.
fn embed_mujoco(out_dir: &Path) {
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "wasm32");
    let dir = repo_root().join("node_modules/@mujoco/mujoco");
    let (js, bin) = (dir.join("mujoco.js"), dir.join("mujoco.wasm"));
    let mut js_code = "\"\"".to_string();
    let mut bin_code = "b\"\"".to_string();
    let missing = if !wasm {
        "native tests run MuJoCo under Node"
    } else if js.is_file() && bin.is_file() {
        for f in [&js, &bin] {
            println!("cargo:rerun-if-changed={}", f.display());
        }
        js_code = format!("include_str!({:?})", js.display().to_string());
        bin_code = format!("include_bytes!({:?})", bin.display().to_string());
        ""
    } else {
        // `npm ci` rewrites the lock file's copy under node_modules.
        println!(
            "cargo:rerun-if-changed={}",
            repo_root()
                .join("node_modules/.package-lock.json")
                .display()
        );
        "node_modules/@mujoco/mujoco is missing: run `npm ci` at the repository's root"
    };
    let text = format!(
        "/// MuJoCo's module for the browser tests: `mujoco.js`'s text.\n\
         pub static MUJOCO_JS: &str = {js_code};\n\
         /// `mujoco.wasm`.\n\
         pub static MUJOCO_WASM: &[u8] = {bin_code};\n\
         /// Why they are empty (empty when they are not).\n\
         pub static MUJOCO_MISSING: &str = {missing:?};\n"
    );
    let out = out_dir.join("mujoco_module.rs");
    if let Err(e) = std::fs::write(&out, text) {
        panic!("writing {}: {e}", out.display());
    }
}
