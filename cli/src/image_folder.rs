//! VisGym's `sample_dir` for the driver and the CLI: the bundled sets (built into the
//! binary from `public/visgym-images/` and `public/visgym-scenes/`), or a directory (or a zip archive)
//! on disk, put on the environments' image shelf under the name it was given. A
//! directory's files are listed at once and read only when an environment plays them.

use std::path::Path;
use std::sync::Arc;

use envs::visgym::images::{
    default_bundle, shelf, Bundle, ImageFile, ImageSet, COUNTING_SCENES, OBJECTS, PICTURES,
    REFERRING_SCENES, VIDEO_CLIPS,
};

/// The bundled sets, as the app loads them.
const BUNDLED_ZIPS: [(Bundle, &[u8]); 5] = [
    (
        PICTURES,
        include_bytes!("../../public/visgym-images/images.zip"),
    ),
    (
        COUNTING_SCENES,
        include_bytes!("../../public/visgym-scenes/counting.zip"),
    ),
    (
        REFERRING_SCENES,
        include_bytes!("../../public/visgym-scenes/referring.zip"),
    ),
    (
        VIDEO_CLIPS,
        include_bytes!("../../public/visgym-scenes/videos.zip"),
    ),
    (
        OBJECTS,
        include_bytes!("../../public/visgym-scenes/objects.zip"),
    ),
];

/// Puts every bundled set on the shelf (once), so that tasks naming one play: the
/// VisGym suite's image puzzles name theirs in their kwargs.
pub fn shelve_bundled() -> Result<(), String> {
    for (bundle, zip) in &BUNDLED_ZIPS {
        if shelf::get(bundle.name).is_none() {
            let set = ImageSet::from_zip(zip).map_err(|e| format!("{}: {e}", bundle.zip))?;
            shelf::put(bundle.name, set);
        }
    }
    Ok(())
}

/// The most files a directory may list (COCO's train2017 has 118,287).
const MAX_FILES: usize = 1_000_000;

/// Shelves the set `sample_dir` names for the environment `env_id` (absent or null: its
/// bundled set) so that `envs::make` finds it.
pub fn shelve_sample_dir(
    env_id: &str,
    sample_dir: Option<&serde_json::Value>,
) -> Result<(), String> {
    let bundle = default_bundle(env_id);
    let name = match sample_dir {
        None | Some(serde_json::Value::Null) => bundle.name,
        Some(serde_json::Value::String(s)) => s.as_str(),
        Some(other) => return Err(format!("sample_dir must be a folder (a path), got {other}")),
    };
    if BUNDLED_ZIPS.iter().any(|(b, _)| b.name == name) {
        return shelve_bundled();
    }
    let path = Path::new(name);
    let set = if path.is_file() {
        let bytes = std::fs::read(path).map_err(|e| format!("sample_dir {name}: {e}"))?;
        ImageSet::from_zip(&bytes).map_err(|e| format!("sample_dir {name}: {e}"))?
    } else {
        read_dir_set(path).map_err(|e| format!("sample_dir {name}: {e}"))?
    };
    shelf::put(name, set);
    Ok(())
}

/// Every file below `root` (symbolic links followed, as Python's listings follow them),
/// read lazily.
pub fn read_dir_set(root: &Path) -> Result<ImageSet, String> {
    if !root.is_dir() {
        return Err("is not a folder".into());
    }
    let mut files = Vec::new();
    let mut stack = vec![(root.to_path_buf(), String::new())];
    while let Some((dir, prefix)) = stack.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
            let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                continue; // not UTF-8: no listing of ours can name it
            };
            let rel = format!("{prefix}{name}");
            let path = entry.path();
            if path.is_dir() {
                stack.push((path, format!("{rel}/")));
            } else if path.is_file() {
                let load: envs::visgym::images::Loader =
                    Arc::new(move || std::fs::read(&path).map_err(|e| e.to_string()));
                files.push(ImageFile::lazy(rel, load));
                if files.len() > MAX_FILES {
                    return Err(format!("more than {MAX_FILES} files"));
                }
            }
        }
    }
    ImageSet::new(files).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_listed_with_relative_paths_and_read_lazily() {
        let dir = std::env::temp_dir().join(format!("image-folder-test-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub/deeper")).unwrap();
        std::fs::write(dir.join("b.png"), b"b").unwrap();
        std::fs::write(dir.join("sub/a.jpg"), b"a").unwrap();
        std::fs::write(dir.join("sub/deeper/c.png"), b"c").unwrap();
        let set = read_dir_set(&dir).unwrap();
        let names: Vec<&str> = set.files().iter().map(|f| f.path.as_str()).collect();
        assert_eq!(names, ["b.png", "sub/a.jpg", "sub/deeper/c.png"]);
        assert_eq!(set.held_bytes(), 0);
        assert_eq!(&set.files()[1].read().unwrap()[..], b"a");
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(read_dir_set(&dir).is_err());
        assert!(shelve_sample_dir("jigsaw/easy", Some(&serde_json::json!(3))).is_err());
    }

    #[test]
    fn the_bundled_sets_are_built_in() {
        shelve_sample_dir("jigsaw/easy", None).unwrap();
        assert!(shelf::get(PICTURES.name).unwrap().files().len() >= 32);
        shelve_sample_dir("counting/hard", None).unwrap();
        let scenes = shelf::get(COUNTING_SCENES.name).unwrap();
        assert!(scenes.get("lvis_v1_train.json").is_some());
        shelve_sample_dir("referring_dot_pointing/easy", None).unwrap();
        assert!(shelf::get(REFERRING_SCENES.name).is_some());
    }
}
