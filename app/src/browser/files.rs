//! Files: saving text as a download, and reading a file the person chose or dropped
//! (`gloo-file`).

use gloo_file::{Blob, ObjectUrl};
use gloo_timers::callback::Timeout;
use wasm_bindgen::JsCast;

/// Offers `text` as a download named `name`.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let url = ObjectUrl::from(Blob::new_with_options(text, Some(mime)));
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|e| format!("could not prepare the download: {e:?}"))?
        .dyn_into()
        .map_err(|_| "not an anchor".to_string())?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    // The download starts asynchronously: the URL is revoked (dropped) a minute later.
    Timeout::new(60_000, move || drop(url)).forget();
    Ok(())
}

/// The text of a file chosen or dropped by the person.
pub async fn read_text(file: web_sys::File) -> Result<String, String> {
    let blob = gloo_file::Blob::from(file);
    gloo_file::futures::read_as_text(&blob)
        .await
        .map_err(|e| format!("the file could not be read: {e}"))
}

/// The bytes of a file chosen or dropped by the person.
pub async fn read_bytes(file: web_sys::File) -> Result<Vec<u8>, String> {
    let blob = gloo_file::Blob::from(file);
    gloo_file::futures::read_as_bytes(&blob)
        .await
        .map_err(|e| format!("the file could not be read: {e}"))
}
