//! The tab's API keys: in memory for the tab's life; a profile that says "remember"
//! also has its key in local storage (apart from the profiles).

use std::cell::RefCell;

use crate::runner::profiles::{Keys, Profiles, KEYS_STORAGE_KEY, PROFILES_STORAGE_KEY};

thread_local! {
    static KEYS: RefCell<Option<Keys>> = const { RefCell::new(None) };
}

fn with<T>(f: impl FnOnce(&mut Keys) -> T) -> T {
    KEYS.with(|k| {
        let mut k = k.borrow_mut();
        let keys = k.get_or_insert_with(|| {
            Keys::from_storage(super::storage::get(KEYS_STORAGE_KEY).as_deref())
        });
        f(keys)
    })
}

/// The key of profile `name`, if one was entered (or remembered).
pub fn key(name: &str) -> Option<String> {
    with(|k| k.get(name).map(str::to_string))
}

/// Sets (or, when empty, forgets) a profile's key and stores the remembered ones.
pub fn set_key(name: &str, key: &str, profiles: &Profiles) -> Result<(), String> {
    with(|k| {
        k.set(name, key);
        super::storage::set(KEYS_STORAGE_KEY, &k.to_storage(profiles))
    })
}

pub fn rename(from: &str, to: &str) {
    with(|k| k.rename(from, to));
}

/// Rewrites the remembered keys after the profiles changed (e.g. "remember" unticked).
pub fn store(profiles: &Profiles) -> Result<(), String> {
    with(|k| super::storage::set(KEYS_STORAGE_KEY, &k.to_storage(profiles)))
}

/// The saved profiles (and a message when storage held something unreadable).
pub fn load_profiles() -> (Profiles, Option<String>) {
    Profiles::from_storage(super::storage::get(PROFILES_STORAGE_KEY).as_deref())
}

pub fn save_profiles(p: &Profiles) -> Result<(), String> {
    super::storage::set(PROFILES_STORAGE_KEY, &p.to_storage())?;
    store(p)
}
