//! POSTing JSON with `fetch`, a timeout (AbortController) and failures classified:
//! when no HTTP answer comes, an opaque `no-cors` probe of the same URL tells a CORS
//! refusal from an unreachable server.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, Request, RequestInit, RequestMode, Response};

use crate::runner::diagnose::{classify, explain};

/// An HTTP answer.
pub struct HttpAnswer {
    pub status: u16,
    pub retry_after: Option<String>,
    pub body: String,
}

/// `POST url` with `headers` and `body`; `Err` is a message for people (timeout, CORS,
/// unreachable), already explained.
pub async fn post_json(
    url: &str,
    headers: &[(String, String)],
    body: &str,
    timeout_s: u32,
    base_url: &str,
) -> Result<HttpAnswer, String> {
    let js = |e: wasm_bindgen::JsValue| format!("{e:?}");
    let window = web_sys::window().ok_or("no window")?;
    let controller = AbortController::new().map_err(js)?;
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_mode(RequestMode::Cors);
    init.set_body(&wasm_bindgen::JsValue::from_str(body));
    init.set_signal(Some(&controller.signal()));
    let h = web_sys::Headers::new().map_err(js)?;
    for (name, value) in headers {
        h.set(name, value)
            .map_err(|_| format!("{name:?} is not a valid header"))?;
    }
    init.set_headers(&h);
    let request = Request::new_with_str_and_init(url, &init)
        .map_err(|_| format!("{url:?} is not a URL this browser can request"))?;
    let timed_out = std::rc::Rc::new(std::cell::Cell::new(false));
    let timer = {
        let timed_out = timed_out.clone();
        let controller = controller.clone();
        super::time::after(timeout_s.saturating_mul(1000), move || {
            timed_out.set(true);
            controller.abort();
        })
    };
    let result = async {
        let resp: Response = JsFuture::from(window.fetch_with_request(&request))
            .await?
            .dyn_into()?;
        let text = JsFuture::from(resp.text()?).await?;
        Ok::<_, wasm_bindgen::JsValue>((resp, text.as_string().unwrap_or_default()))
    }
    .await;
    super::time::cancel(timer);
    match result {
        Ok((resp, body)) => Ok(HttpAnswer {
            status: resp.status(),
            retry_after: resp.headers().get("retry-after").ok().flatten(),
            body,
        }),
        Err(_) => {
            let origin = window.location().origin().unwrap_or_default();
            let probe = !timed_out.get() && probe_no_cors(url).await;
            let failure = classify(timed_out.get(), timeout_s, probe, &origin, base_url);
            Err(explain(&failure, &origin, base_url))
        }
    }
}

/// Whether anything answers `url` to an opaque request (which CORS does not block).
async fn probe_no_cors(url: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_mode(RequestMode::NoCors);
    let Ok(request) = Request::new_with_str_and_init(url, &init) else {
        return false;
    };
    JsFuture::from(window.fetch_with_request(&request))
        .await
        .is_ok()
}

/// POSTs a JSON document (e.g. study results to a collection URL): `Ok(status)` for a
/// 2xx answer, else what went wrong in words (the status and the body's start).
pub async fn post_document(url: &str, body: &str) -> Result<u16, String> {
    let headers = [("Content-Type".to_string(), "application/json".to_string())];
    let a = post_json(url, &headers, body, 60, url)
        .await
        .map_err(|e| format!("the results could not be sent: {e}"))?;
    if (200..300).contains(&a.status) {
        return Ok(a.status);
    }
    let excerpt: String = a.body.trim().chars().take(200).collect();
    Err(if excerpt.is_empty() {
        format!("the collection server answered HTTP {}", a.status)
    } else {
        format!(
            "the collection server answered HTTP {}: {excerpt}",
            a.status
        )
    })
}
