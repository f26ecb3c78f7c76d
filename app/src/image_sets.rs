//! Image sets in the app: VisGym's image environments (Jigsaw) play the bundled pictures,
//! fetched the first time such an environment opens, or a folder the person picks, read
//! in the browser and kept for the tab's life under the folder's name, which the URL's
//! `sample_dir` names (docs/visgym.md, "Image sets"). The plain rules live here; the
//! fetching and reading in `browser::image_sets`.

use envs::visgym::images::{shelf, ImageFile, ImageSet, BUNDLED};

/// Where Trunk puts the bundled set, beside the app (`index.html`).
pub const BUNDLED_ZIP_PATH: &str = "visgym-images/images.zip";

/// Suffixes any of the environments' listings can take: other files of a picked folder
/// are not read.
const PICTURE_SUFFIXES: [&str; 6] = [".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff"];

/// The most bytes of pictures a picked folder may hold (they are kept in memory).
pub const MAX_FOLDER_BYTES: u64 = 1 << 30;

pub use envs::visgym::plays_pictures;

/// The set a request's kwargs name (`sample_dir`, the bundled set by default).
pub fn set_name(kwargs: &serde_json::Map<String, serde_json::Value>) -> String {
    kwargs
        .get("sample_dir")
        .and_then(|v| v.as_str())
        .unwrap_or(BUNDLED)
        .to_string()
}

/// Whether the set of that name is loaded in this tab.
pub fn is_loaded(name: &str) -> bool {
    shelf::get(name).is_some()
}

/// Whether a picked file is read: a picture by its suffix, in any case.
pub fn is_picture(path: &str) -> bool {
    let lower = path.to_lowercase();
    PICTURE_SUFFIXES.iter().any(|s| lower.ends_with(s))
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
    if name == BUNDLED {
        return Err(format!(
            "a folder named {BUNDLED:?} would hide the bundled pictures: rename it"
        ));
    }
    let set = ImageSet::new(out).map_err(|e| e.to_string())?;
    Ok((name, set))
}

/// A short description of a set: "42 pictures, 2.1 MB".
pub fn describe(set: &ImageSet) -> String {
    format!(
        "{} pictures, {:.1} MB",
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
        assert_eq!(describe(&set), "2 pictures, 0.0 MB");
        assert!(folder_set(vec![]).is_err());
        assert!(folder_set(vec![("a.png".into(), vec![])]).is_err());
        let two = vec![
            ("A/a.png".to_string(), vec![]),
            ("B/b.png".to_string(), vec![]),
        ];
        assert!(folder_set(two).unwrap_err().contains("two folders"));
        assert!(folder_set(vec![("bundled/a.png".into(), vec![])]).is_err());
        assert!(is_picture("x/Y.TIFF") && !is_picture("notes.txt"));
        assert!(plays_pictures("jigsaw/easy") && !plays_pictures("maze_2d/easy"));
    }
}
