//! Key-value storage behind a trait: the browser's `localStorage` in the app
//! (`browser::storage::LocalStore`), [`MemoryStore`] in native tests. Every key the app
//! uses, and the format version of what it holds, is listed in [`crate::storage_keys`].

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;

/// Why a value could not be stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The browser has no storage here, or refuses it (privacy settings, sandboxing).
    Unavailable(String),
    /// The value did not fit (the quota is full).
    Full { key: String, bytes: usize },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unavailable(why) => write!(f, "{why}"),
            Self::Full { key, bytes } => write!(
                f,
                "could not save {key:?} in this browser's storage ({} KB): it may be full",
                bytes / 1024
            ),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<StoreError> for String {
    fn from(e: StoreError) -> Self {
        e.to_string()
    }
}

/// Text values by key (what `localStorage` offers).
pub trait Store {
    fn get(&self, key: &str) -> Option<String>;
    fn set(&self, key: &str, value: &str) -> Result<(), StoreError>;
    /// Removes the entry, if there is one.
    fn remove(&self, key: &str);
    /// Every key held, in no particular order.
    fn keys(&self) -> Vec<String>;

    /// Every key starting with `prefix`.
    fn keys_with_prefix(&self, prefix: &str) -> Vec<String> {
        self.keys()
            .into_iter()
            .filter(|k| k.starts_with(prefix))
            .collect()
    }
}

/// A store in memory, optionally with a quota (to test what a full store does).
#[derive(Debug, Default)]
pub struct MemoryStore {
    entries: RefCell<BTreeMap<String, String>>,
    /// The most bytes (keys and values) it holds, if limited.
    quota: Option<usize>,
}

impl MemoryStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// A store that refuses a value once keys and values would exceed `bytes`.
    pub fn with_quota(bytes: usize) -> Self {
        Self {
            quota: Some(bytes),
            ..Self::default()
        }
    }

    fn used_without(&self, key: &str) -> usize {
        self.entries
            .borrow()
            .iter()
            .filter(|(k, _)| k.as_str() != key)
            .map(|(k, v)| k.len() + v.len())
            .sum()
    }
}

impl Store for MemoryStore {
    fn get(&self, key: &str) -> Option<String> {
        self.entries.borrow().get(key).cloned()
    }

    fn set(&self, key: &str, value: &str) -> Result<(), StoreError> {
        if let Some(quota) = self.quota {
            if self.used_without(key) + key.len() + value.len() > quota {
                return Err(StoreError::Full {
                    key: key.to_string(),
                    bytes: value.len(),
                });
            }
        }
        self.entries
            .borrow_mut()
            .insert(key.to_string(), value.to_string());
        Ok(())
    }

    fn remove(&self, key: &str) {
        self.entries.borrow_mut().remove(key);
    }

    fn keys(&self) -> Vec<String> {
        self.entries.borrow().keys().cloned().collect()
    }
}

/// One write a [`RecordingStore`] saw.
#[cfg(test)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Write {
    Set(String, String),
    Remove(String),
}

/// A [`MemoryStore`] that logs every write, so a test can see what the store would
/// hold had the tab gone away after any number of them ([`RecordingStore::cut`]).
/// `localStorage` writes one key at a time, all or nothing, so a reload or a crash
/// can only land between two writes.
#[cfg(test)]
#[derive(Debug, Default)]
pub struct RecordingStore {
    now: MemoryStore,
    log: RefCell<Vec<Write>>,
}

#[cfg(test)]
impl RecordingStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// How many writes it has seen.
    pub fn writes(&self) -> usize {
        self.log.borrow().len()
    }

    /// The store as it was after the first `writes` writes.
    pub fn cut(&self, writes: usize) -> MemoryStore {
        let store = MemoryStore::new();
        for w in self.log.borrow().iter().take(writes) {
            match w {
                Write::Set(k, v) => store.set(k, v).expect("no quota"),
                Write::Remove(k) => store.remove(k),
            }
        }
        store
    }
}

#[cfg(test)]
impl Store for RecordingStore {
    fn get(&self, key: &str) -> Option<String> {
        self.now.get(key)
    }

    fn set(&self, key: &str, value: &str) -> Result<(), StoreError> {
        self.now.set(key, value)?;
        self.log
            .borrow_mut()
            .push(Write::Set(key.to_string(), value.to_string()));
        Ok(())
    }

    fn remove(&self, key: &str) {
        self.now.remove(key);
        self.log.borrow_mut().push(Write::Remove(key.to_string()));
    }

    fn keys(&self) -> Vec<String> {
        self.now.keys()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_store_gets_sets_removes_and_lists_by_prefix() {
        let s = MemoryStore::new();
        assert_eq!(s.get("a"), None);
        s.set("a.1", "x").unwrap();
        s.set("a.2", "y").unwrap();
        s.set("b", "z").unwrap();
        assert_eq!(s.get("a.1").as_deref(), Some("x"));
        let mut a = s.keys_with_prefix("a.");
        a.sort();
        assert_eq!(a, ["a.1", "a.2"]);
        s.remove("a.1");
        s.remove("missing");
        assert_eq!(s.get("a.1"), None);
        assert_eq!(s.keys().len(), 2);
    }

    #[test]
    fn a_full_store_refuses_with_the_key_and_size() {
        let s = MemoryStore::with_quota(10);
        s.set("k", "12345").unwrap();
        // Replacing a value counts the new one only.
        s.set("k", "123456789").unwrap();
        let e = s.set("other", "1234").unwrap_err();
        assert_eq!(
            e,
            StoreError::Full {
                key: "other".into(),
                bytes: 4
            }
        );
        assert!(e.to_string().contains("\"other\""), "{e}");
        assert_eq!(s.get("k").as_deref(), Some("123456789"));
    }
}
