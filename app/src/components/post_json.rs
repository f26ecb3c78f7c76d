//! POSTing a JSON document to a URL with `fetch` (CORS), for study result collection.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Headers, Request, RequestInit, RequestMode, Response};

/// Longest part of an error response body quoted in the message.
const BODY_EXCERPT: usize = 200;

fn js_text(e: JsValue) -> String {
    e.as_string()
        .or_else(|| e.dyn_ref::<js_sys::Error>().map(|e| e.message().into()))
        .unwrap_or_else(|| format!("{e:?}"))
}

/// Sends `body` with `Content-Type: application/json`; `Ok(status)` for a 2xx answer,
/// else what went wrong in words (network failure, or the status and body excerpt).
pub async fn post_json(url: &str, body: &str) -> Result<u16, String> {
    let window = web_sys::window().ok_or("no window")?;
    let headers = Headers::new().map_err(js_text)?;
    headers
        .set("Content-Type", "application/json")
        .map_err(js_text)?;
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_mode(RequestMode::Cors);
    init.set_headers(&headers);
    init.set_body(&JsValue::from_str(body));
    let request = Request::new_with_str_and_init(url, &init).map_err(js_text)?;
    let response: Response = JsFuture::from(window.fetch_with_request(&request))
        .await
        .map_err(|e| {
            format!(
                "the collection server could not be reached ({}): check the address, that it is running and that it allows cross-origin requests",
                js_text(e)
            )
        })?
        .dyn_into()
        .map_err(js_text)?;
    let status = response.status();
    if response.ok() {
        return Ok(status);
    }
    let text = match response.text() {
        Ok(p) => JsFuture::from(p)
            .await
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default(),
        Err(_) => String::new(),
    };
    let excerpt: String = text.trim().chars().take(BODY_EXCERPT).collect();
    Err(if excerpt.is_empty() {
        format!("the collection server answered HTTP {status}")
    } else {
        format!("the collection server answered HTTP {status}: {excerpt}")
    })
}
