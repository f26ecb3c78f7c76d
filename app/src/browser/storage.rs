//! The browser's `localStorage` as a [`Store`] (through `gloo-storage`), with failures
//! (storage refused, quota full) as errors rather than exceptions.

use gloo_storage::Storage as _;

use crate::storage::{Store, StoreError};

/// `window.localStorage`.
#[derive(Clone, Copy, Debug, Default)]
pub struct LocalStore;

/// The store the pages use.
pub fn local() -> LocalStore {
    LocalStore
}

impl LocalStore {
    /// The storage object, if this page may use one. `gloo-storage` throws when there
    /// is none (sandboxed frames, storage disabled), so that is checked first.
    fn raw(&self) -> Result<web_sys::Storage, StoreError> {
        let available = web_sys::window()
            .and_then(|w| w.local_storage().ok())
            .flatten()
            .is_some();
        if available {
            Ok(gloo_storage::LocalStorage::raw())
        } else {
            Err(StoreError::Unavailable(
                "this browser refuses local storage here".into(),
            ))
        }
    }
}

impl Store for LocalStore {
    fn get(&self, key: &str) -> Option<String> {
        self.raw().ok()?.get_item(key).ok()?
    }

    fn set(&self, key: &str, value: &str) -> Result<(), StoreError> {
        self.raw()?
            .set_item(key, value)
            .map_err(|_| StoreError::Full {
                key: key.to_string(),
                bytes: value.len(),
            })
    }

    fn remove(&self, key: &str) {
        if self.raw().is_ok() {
            gloo_storage::LocalStorage::delete(key);
        }
    }

    fn keys(&self) -> Vec<String> {
        let Ok(s) = self.raw() else {
            return Vec::new();
        };
        (0..gloo_storage::LocalStorage::length())
            .filter_map(|i| s.key(i).ok().flatten())
            .collect()
    }
}
