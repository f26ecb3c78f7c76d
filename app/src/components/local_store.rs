//! The browser's localStorage, as plain get/set/remove with errors as text (a full or
//! disabled storage must be reported, not crash the page).

fn storage() -> Result<web_sys::Storage, String> {
    web_sys::window()
        .ok_or("no window")?
        .local_storage()
        .map_err(|_| "localStorage is not available".to_string())?
        .ok_or_else(|| "localStorage is disabled".to_string())
}

pub fn get(key: &str) -> Option<String> {
    storage().ok()?.get_item(key).ok().flatten()
}

pub fn set(key: &str, value: &str) -> Result<(), String> {
    storage()?.set_item(key, value).map_err(|e| {
        let why = js_sys::Error::from(e).message();
        format!("could not save in this browser's storage ({why})")
    })
}
