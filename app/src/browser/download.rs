//! Saving text as a file the browser downloads.

use wasm_bindgen::JsCast;

/// Offers `text` as a download named `name`.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let err = |e: wasm_bindgen::JsValue| format!("could not prepare the download: {e:?}");
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let props = web_sys::BlobPropertyBag::new();
    props.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &props).map_err(err)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(err)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(err)?
        .dyn_into()
        .map_err(|_| "not an anchor".to_string())?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    // Revoke later: the download starts asynchronously.
    super::time::after(60_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    Ok(())
}
