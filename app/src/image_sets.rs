//! Image sets in the app: VisGym's image environments play a bundled set (the pictures,
//! Counting's and Referring Dot-Pointing's annotated scenes, Video Unshuffle's clips or
//! Mental Rotation 3D's models), fetched the first time
//! such an environment opens, or a folder the person picks, read
//! in the browser and kept for the tab's life under the folder's name, which the URL's
//! `sample_dir` names (docs/visgym.md, "Image sets"). The plain rules live here; the
//! fetching and reading in `browser::image_sets`.

use envs::visgym::images::{default_bundle, sample_dir_kwarg, shelf, ImageFile, ImageSet, BUNDLES};

/// Suffixes the environments read: pictures any listing can take, the annotation files
/// (LVIS and COCO JSON, RefCOCO+'s pickled references), clips (`<id>.webm`, as
/// Something-Something v2 names them) and 3-D models (glTF, with a `.gltf`'s `.bin`
/// buffers; their textures are pictures). Other files of a picked folder are not read.
const READ_SUFFIXES: [&str; 12] = [
    ".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".json", ".p", ".webm", ".glb", ".gltf",
    ".bin",
];

/// The most bytes a picked folder's files may hold (they are kept in memory).
pub const MAX_FOLDER_BYTES: u64 = 1 << 30;

pub use envs::visgym::plays_pictures;

/// The set a request's kwargs name (`sample_dir`, the environment's bundled set by
/// default).
pub fn set_name(env_id: &str, kwargs: &serde_json::Map<String, serde_json::Value>) -> String {
    sample_dir_kwarg(kwargs)
        .and_then(|v| v.as_str())
        .unwrap_or(default_bundle(env_id).name)
        .to_string()
}

/// The set an environment with these kwargs plays when this tab has not loaded it
/// (none for environments that play no pictures).
pub fn missing_set(
    env_id: &str,
    kwargs: &serde_json::Map<String, serde_json::Value>,
) -> Option<String> {
    if !plays_pictures(env_id) {
        return None;
    }
    let name = set_name(env_id, kwargs);
    (!is_loaded(&name)).then_some(name)
}

/// Whether the set of that name is loaded in this tab.
pub fn is_loaded(name: &str) -> bool {
    shelf::get(name).is_some()
}

/// Whether a picked file is read: a picture or an annotation file by its suffix, in
/// any case.
pub fn is_read(path: &str) -> bool {
    let lower = path.to_lowercase();
    READ_SUFFIXES.iter().any(|s| lower.ends_with(s))
}

/// A picked folder's set from its files' `webkitRelativePath`s (`Folder/sub/a.png`):
/// the folder's name and the set of paths below it.
pub fn folder_set(files: Vec<(String, Vec<u8>)>) -> Result<(String, ImageSet), String> {
    let mut top: Option<String> = None;
    let mut out = Vec::new();
    for (path, bytes) in files {
        let (folder, rel) = path
            .split_once('/')
            .ok_or_else(|| format!("{path} is not inside a folder"))?;
        match &top {
            Some(t) if t != folder => {
                return Err(format!("the files come from two folders, {t} and {folder}"))
            }
            _ => top = Some(folder.to_string()),
        }
        out.push(ImageFile::new(rel, bytes));
    }
    let name = top.ok_or("the folder holds no pictures (PNG, JPEG, BMP or TIFF files)")?;
    if BUNDLES.iter().any(|b| b.name == name) {
        return Err(format!(
            "a folder named {name:?} would hide a bundled set: rename it"
        ));
    }
    let set = ImageSet::new(out).map_err(|e| e.to_string())?;
    Ok((name, set))
}

/// A short description of a set: "42 files, 2.1 MB".
pub fn describe(set: &ImageSet) -> String {
    format!(
        "{} files, {:.1} MB",
        set.files().len(),
        set.held_bytes() as f64 / 1e6
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picked_folder_becomes_a_set_named_after_it() {
        let files = vec![
            ("Holiday/b.png".to_string(), vec![1]),
            ("Holiday/day 2/a.JPG".to_string(), vec![2, 3]),
        ];
        let (name, set) = folder_set(files).unwrap();
        assert_eq!(name, "Holiday");
        let paths: Vec<&str> = set.files().iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["b.png", "day 2/a.JPG"]);
        assert_eq!(describe(&set), "2 files, 0.0 MB");
        assert!(folder_set(vec![]).is_err());
        assert!(folder_set(vec![("a.png".into(), vec![])]).is_err());
        let two = vec![
            ("A/a.png".to_string(), vec![]),
            ("B/b.png".to_string(), vec![]),
        ];
        assert!(folder_set(two).unwrap_err().contains("two folders"));
        assert!(folder_set(vec![("bundled/a.png".into(), vec![])]).is_err());
        assert!(folder_set(vec![("bundled-counting/a.png".into(), vec![])]).is_err());
        assert!(is_read("x/Y.TIFF") && is_read("refcoco+/refs(unc).p") && !is_read("notes.txt"));
        assert!(plays_pictures("jigsaw/easy") && !plays_pictures("maze_2d/easy"));
        assert!(plays_pictures("counting/hard") && plays_pictures("referring_dot_pointing/easy"));
        let none = serde_json::Map::new();
        assert_eq!(set_name("counting/easy", &none), "bundled-counting");
        assert_eq!(set_name("jigsaw/easy", &none), "bundled");
        assert_eq!(
            set_name("mental_rotation_3d_objaverse/hard", &none),
            "bundled-objects"
        );
        assert!(is_read("objaverse/a/b.GLB") && is_read("m.gltf") && is_read("m.bin"));
        assert_eq!(missing_set("maze_2d/easy", &none), None);
        let mut kwargs = serde_json::Map::new();
        kwargs.insert("sample_dir".into(), "Holiday-never-picked".into());
        assert_eq!(
            missing_set("jigsaw/easy", &kwargs).as_deref(),
            Some("Holiday-never-picked")
        );
    }
}
