//! Image sets by name, for `make`'s `sample_dir`: whoever runs the environments puts the
//! sets here first (the app the bundled set when an image environment opens and the
//! folders people pick, the driver the directories it is given, tests the bundled zip).
//! The shelf holds bytes only: no file system, no network.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use super::ImageSet;

static SHELF: Mutex<BTreeMap<String, Arc<ImageSet>>> = Mutex::new(BTreeMap::new());

fn shelf() -> MutexGuard<'static, BTreeMap<String, Arc<ImageSet>>> {
    // The map is valid after any panic elsewhere (inserts are single operations).
    SHELF
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Puts a set on the shelf under `name`, replacing one of that name.
pub fn put(name: &str, set: ImageSet) {
    shelf().insert(name.to_string(), Arc::new(set));
}

/// The set of that name, if shelved.
pub fn get(name: &str) -> Option<Arc<ImageSet>> {
    shelf().get(name).cloned()
}

/// The names of the shelved sets.
pub fn names() -> Vec<String> {
    shelf().keys().cloned().collect()
}

/// The bundled sets on the shelf, for this crate's tests (the app, the driver and the
/// tests crate load them themselves).
#[cfg(test)]
pub(crate) fn shelve_bundled_for_tests() {
    const ZIPS: [(&str, &[u8]); 5] = [
        (
            super::PICTURES.name,
            include_bytes!("../../../../public/visgym-images/images.zip"),
        ),
        (
            super::COUNTING_SCENES.name,
            include_bytes!("../../../../public/visgym-scenes/counting.zip"),
        ),
        (
            super::REFERRING_SCENES.name,
            include_bytes!("../../../../public/visgym-scenes/referring.zip"),
        ),
        (
            super::VIDEO_CLIPS.name,
            include_bytes!("../../../../public/visgym-scenes/videos.zip"),
        ),
        (
            super::OBJECTS.name,
            include_bytes!("../../../../public/visgym-scenes/objects.zip"),
        ),
    ];
    for (name, zip) in ZIPS {
        if get(name).is_none() {
            put(
                name,
                ImageSet::from_zip(zip).expect("the bundled zip reads"),
            );
        }
    }
}
