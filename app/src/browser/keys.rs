//! The tab's API keys: in memory for the tab's life; a profile that says "remember"
//! also has its key in local storage (apart from the profiles).

use std::cell::RefCell;

use super::storage::local;
use crate::runner::profiles::{Keys, Profiles};

thread_local! {
    static KEYS: RefCell<Option<Keys>> = const { RefCell::new(None) };
}

fn with<T>(f: impl FnOnce(&mut Keys) -> T) -> T {
    KEYS.with(|k| {
        let mut k = k.borrow_mut();
        let keys = k.get_or_insert_with(|| Keys::load(&local(), &Profiles::load(&local()).0));
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
        Ok(k.save(&local(), profiles)?)
    })
}

pub fn rename(from: &str, to: &str) {
    with(|k| k.rename(from, to));
}

/// The saved profiles (and a message when storage held something unreadable).
pub fn load_profiles() -> (Profiles, Option<String>) {
    Profiles::load(&local())
}

pub fn save_profiles(p: &Profiles) -> Result<(), String> {
    with(|k| Ok(p.save_with_keys(&local(), k)?))
}
