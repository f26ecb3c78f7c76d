//! `localStorage`, with failures (private mode, quota) as errors.

fn store() -> Result<web_sys::Storage, String> {
    web_sys::window()
        .ok_or("no window")?
        .local_storage()
        .map_err(|_| "this browser refuses local storage".to_string())?
        .ok_or_else(|| "this browser has no local storage".to_string())
}

pub fn get(key: &str) -> Option<String> {
    store().ok()?.get_item(key).ok()?
}

pub fn set(key: &str, value: &str) -> Result<(), String> {
    store()?.set_item(key, value).map_err(|_| {
        format!(
            "could not save {key:?} in this browser's storage ({} KB): it may be full",
            value.len() / 1024
        )
    })
}

pub fn remove(key: &str) {
    if let Ok(s) = store() {
        let _ = s.remove_item(key);
    }
}

/// Every key starting with `prefix`.
pub fn keys_with_prefix(prefix: &str) -> Vec<String> {
    let Ok(s) = store() else { return Vec::new() };
    let n = s.length().unwrap_or(0);
    (0..n)
        .filter_map(|i| s.key(i).ok().flatten())
        .filter(|k| k.starts_with(prefix))
        .collect()
}
