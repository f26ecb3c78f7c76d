//! Image sets: the pictures VisGym's image environments (Jigsaw, Zoom-In, Colorization,
//! Mental Rotation 2D) are given. The reference takes a directory (`sample_dir`) and lists
//! it in the constructor, each environment by its own rule, sorted by path; its seeded
//! generator then fixes the order the samples are played in. Here a set is that
//! directory's files in memory (relative paths and bytes), so that the same files give
//! the same list, order and states in every browser and natively.
//!
//! Sets come from the bundled default (`public/visgym-images/`), a folder the user picks
//! in the browser, or a directory the driver reads; [`shelf`] keeps them by name for
//! `make`'s `sample_dir` (docs/visgym.md, "Image sets").

pub mod clip;
pub mod coco_mask;
mod decode;
pub mod gltf;
pub mod shelf;

use std::fmt;
use std::sync::Arc;

use crate::core::zip;
pub use decode::{decode_rgb, RgbImage};

/// The name of the bundled picture set, `sample_dir`'s default for the picture puzzles.
pub const BUNDLED: &str = "bundled";

/// A set Playbench ships: its name on the shelf and its zip, relative to the app's root
/// (and to `public/` in the repository).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bundle {
    pub name: &'static str,
    pub zip: &'static str,
}

/// The pictures of Jigsaw, Zoom-In, Colorization and Mental Rotation 2D.
pub const PICTURES: Bundle = Bundle {
    name: BUNDLED,
    zip: "visgym-images/images.zip",
};
/// Generated scenes with LVIS-layout annotations, for Counting.
pub const COUNTING_SCENES: Bundle = Bundle {
    name: "bundled-counting",
    zip: "visgym-scenes/counting.zip",
};
/// Generated scenes with RefCOCO+-layout references, for Referring Dot-Pointing.
pub const REFERRING_SCENES: Bundle = Bundle {
    name: "bundled-referring",
    zip: "visgym-scenes/referring.zip",
};
/// Generated clips in the Something-Something v2 layout, for Video Unshuffle.
pub const VIDEO_CLIPS: Bundle = Bundle {
    name: "bundled-videos",
    zip: "visgym-scenes/videos.zip",
};
/// Generated low-poly models (glTF binaries), for Mental Rotation 3D (Objaverse).
pub const OBJECTS: Bundle = Bundle {
    name: "bundled-objects",
    zip: "visgym-scenes/objects.zip",
};
pub const BUNDLES: [Bundle; 5] = [
    PICTURES,
    COUNTING_SCENES,
    REFERRING_SCENES,
    VIDEO_CLIPS,
    OBJECTS,
];

/// The kwarg naming the set an environment plays: `sample_dir`, or `root_dir` (Video
/// Unshuffle's name for it).
pub fn sample_dir_kwarg(
    kwargs: &serde_json::Map<String, serde_json::Value>,
) -> Option<&serde_json::Value> {
    kwargs
        .get("sample_dir")
        .or_else(|| kwargs.get("root_dir"))
        .filter(|v| !v.is_null())
}

/// The bundled set an environment (`counting/easy`, or its name alone) plays when no
/// `sample_dir` is given.
pub fn default_bundle(env: &str) -> Bundle {
    match env.split('/').next().unwrap_or_default() {
        "counting" => COUNTING_SCENES,
        "referring_dot_pointing" => REFERRING_SCENES,
        "video_unshuffle" => VIDEO_CLIPS,
        "mental_rotation_3d_objaverse" => OBJECTS,
        _ => PICTURES,
    }
}

/// Reads a file's bytes when its turn comes (a directory the driver was given).
pub type Loader = Arc<dyn Fn() -> Result<Vec<u8>, String> + Send + Sync>;

/// One file of a set: its bytes, or how to read them.
#[derive(Clone)]
pub struct ImageFile {
    /// Relative to the set's root, `/`-separated (`photos/coffee.png`).
    pub path: String,
    content: Content,
}

#[derive(Clone)]
enum Content {
    Bytes(Arc<[u8]>),
    Lazy(Loader),
}

impl ImageFile {
    pub fn new(path: impl Into<String>, bytes: impl Into<Arc<[u8]>>) -> Self {
        ImageFile {
            path: path.into(),
            content: Content::Bytes(bytes.into()),
        }
    }

    /// A file read only when an environment decodes it.
    pub fn lazy(path: impl Into<String>, loader: Loader) -> Self {
        ImageFile {
            path: path.into(),
            content: Content::Lazy(loader),
        }
    }

    /// The file's bytes.
    pub fn read(&self) -> Result<Arc<[u8]>, String> {
        match &self.content {
            Content::Bytes(b) => Ok(b.clone()),
            Content::Lazy(load) => load().map(Arc::from),
        }
    }

    /// Bytes held in memory (0 for a file not read yet).
    pub fn held_bytes(&self) -> usize {
        match &self.content {
            Content::Bytes(b) => b.len(),
            Content::Lazy(_) => 0,
        }
    }
}

impl fmt::Debug for ImageFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ImageFile({:?}, {} bytes held)",
            self.path,
            self.held_bytes()
        )
    }
}

/// A directory's files, sorted by path.
#[derive(Clone, Debug)]
pub struct ImageSet {
    files: Vec<ImageFile>,
}

/// Why files cannot form a set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageSetError(pub String);

impl fmt::Display for ImageSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ImageSetError {}

/// How an environment lists its directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listing {
    /// Jigsaw: `glob('*.png')`, `*.jpg`, `*.jpeg` at the top and one directory down
    /// (its `**` is not recursive), case-sensitive, hidden names skipped.
    TopAndOneDown,
    /// Zoom-In: `glob('**/*.png', recursive=True)`, `.jpg`, `.jpeg`: any depth,
    /// case-sensitive, hidden names (files and directories) skipped.
    Recursive,
    /// Colorization and Mental Rotation 2D: `Path.rglob('*')` with a suffix among
    /// `.jpg .jpeg .png .bmp .tiff .tif` in any case; hidden files count.
    RecursiveAnyCase,
}

const GLOB_SUFFIXES: [&str; 3] = [".png", ".jpg", ".jpeg"];
const ANY_CASE_SUFFIXES: [&str; 6] = [".jpg", ".jpeg", ".png", ".bmp", ".tiff", ".tif"];

impl Listing {
    /// Whether the reference's listing takes this relative path.
    pub fn takes(self, path: &str) -> bool {
        let parts: Vec<&str> = path.split('/').collect();
        let Some(name) = parts.last() else {
            return false;
        };
        match self {
            Listing::TopAndOneDown | Listing::Recursive => {
                if self == Listing::TopAndOneDown && parts.len() > 2 {
                    return false;
                }
                // glob's `*` and `**` match no name that starts with a dot.
                !parts.iter().any(|p| p.starts_with('.'))
                    && GLOB_SUFFIXES
                        .iter()
                        .any(|s| name.len() > s.len() && name.ends_with(s))
            }
            Listing::RecursiveAnyCase => {
                ANY_CASE_SUFFIXES.contains(&pathlib_suffix(name).to_lowercase().as_str())
            }
        }
    }
}

/// `PurePath.suffix`: from the last dot, unless the name starts with its only dot or ends
/// with a dot.
fn pathlib_suffix(name: &str) -> &str {
    match name.rfind('.') {
        Some(i) if i > 0 && i + 1 < name.len() => &name[i..],
        _ => "",
    }
}

impl ImageSet {
    /// A set of these files; paths must be relative, `/`-separated and unique.
    pub fn new(mut files: Vec<ImageFile>) -> Result<Self, ImageSetError> {
        for f in &files {
            let bad = f.path.is_empty()
                || f.path.contains('\\')
                || f.path.contains('\0')
                || f.path
                    .split('/')
                    .any(|p| p.is_empty() || p == "." || p == "..");
            if bad {
                return Err(ImageSetError(format!(
                    "{:?} is not a relative file path inside the folder",
                    f.path
                )));
            }
        }
        // Python sorts the listed paths as strings, by code point: UTF-8 bytes sort alike.
        files.sort_by(|a, b| a.path.cmp(&b.path));
        if let Some(w) = files.windows(2).find(|w| w[0].path == w[1].path) {
            return Err(ImageSetError(format!("{} is in the set twice", w[0].path)));
        }
        Ok(ImageSet { files })
    }

    /// The files of a zip archive (the bundled set is one), directories left out.
    pub fn from_zip(bytes: &[u8]) -> Result<Self, ImageSetError> {
        let entries = zip::entries(bytes).map_err(|e| ImageSetError(e.to_string()))?;
        let mut files = Vec::new();
        for e in entries.iter().filter(|e| !e.name.ends_with('/')) {
            let data = zip::extract(bytes, e).map_err(|err| ImageSetError(err.to_string()))?;
            files.push(ImageFile::new(e.name.clone(), data));
        }
        Self::new(files)
    }

    /// Every file, sorted by path.
    pub fn files(&self) -> &[ImageFile] {
        &self.files
    }

    /// The file at this relative path, if the set has it.
    pub fn get(&self, path: &str) -> Option<&ImageFile> {
        self.files
            .binary_search_by(|f| f.path.as_str().cmp(path))
            .ok()
            .map(|i| &self.files[i])
    }

    /// The files an environment's listing takes, in the reference's sorted order.
    pub fn list(&self, listing: Listing) -> Vec<ImageFile> {
        self.files
            .iter()
            .filter(|f| listing.takes(&f.path))
            .cloned()
            .collect()
    }

    /// Bytes held in memory.
    pub fn held_bytes(&self) -> usize {
        self.files.iter().map(ImageFile::held_bytes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(paths: &[&str]) -> ImageSet {
        ImageSet::new(paths.iter().map(|p| ImageFile::new(*p, &b""[..])).collect()).unwrap()
    }

    #[test]
    fn listing_rules_follow_glob_and_pathlib() {
        let s = set(&[
            "b.png",
            "a.PNG",
            "a/b/c.png",
            "a/x.jpeg",
            ".h.png",
            "d/.h.png",
            ".d/x.png",
            "z.tif",
            "y.BMP",
            "a.png.txt",
            ".png",
            "x.",
            "b/z.jpg",
        ]);
        let names = |l| -> Vec<String> { s.list(l).into_iter().map(|f| f.path).collect() };
        assert_eq!(
            names(Listing::TopAndOneDown),
            ["a/x.jpeg", "b.png", "b/z.jpg"]
        );
        assert_eq!(
            names(Listing::Recursive),
            ["a/b/c.png", "a/x.jpeg", "b.png", "b/z.jpg"]
        );
        assert_eq!(
            names(Listing::RecursiveAnyCase),
            [
                ".d/x.png",
                ".h.png",
                "a.PNG",
                "a/b/c.png",
                "a/x.jpeg",
                "b.png",
                "b/z.jpg",
                "d/.h.png",
                "y.BMP",
                "z.tif"
            ]
        );
    }

    #[test]
    fn bad_paths_are_refused() {
        for p in ["", "/a.png", "a//b.png", "../a.png", "a\\b.png"] {
            let r = ImageSet::new(vec![ImageFile::new(p, &b""[..])]);
            assert!(r.is_err(), "{p:?}");
        }
    }
}
