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

/// The bundled set on the shelf, for this crate's tests (the app, the driver and the
/// tests crate load it themselves).
#[cfg(test)]
pub(crate) fn shelve_bundled_for_tests() {
    const ZIP: &[u8] = include_bytes!("../../../../public/visgym-images/images.zip");
    if get(super::BUNDLED).is_none() {
        put(
            super::BUNDLED,
            ImageSet::from_zip(ZIP).expect("the bundled zip reads"),
        );
    }
}
