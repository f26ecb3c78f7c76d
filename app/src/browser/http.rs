//! POSTing JSON with `fetch` (through `gloo-net`), a timeout (AbortController) and
//! failures classified: when no HTTP answer comes, an opaque `no-cors` probe of the same
//! URL tells a CORS refusal from an unreachable server, and a plain CORS `GET` (no
//! credentials, so no preflight) tells a server that allows this page but hid an error
//! reply from one that refuses the page.
//!
//! Model requests carry the profile's key, so they never follow a redirect
//! (`redirect: "error"`): a key goes only to the endpoint its profile names
//! (docs/app.md, "Content-security policy and keys").

use std::cell::Cell;
use std::rc::Rc;

use gloo_net::http::{Headers, Method, RequestBuilder};
use gloo_timers::callback::Timeout;
use web_sys::{AbortController, RequestMode, RequestRedirect, ResponseType};

use crate::runner::diagnose::{classify, explain, is_key_header};

/// An HTTP answer.
pub struct HttpAnswer {
    pub status: u16,
    pub retry_after: Option<String>,
    pub body: String,
}

/// The request's headers, each checked (gloo would throw on a bad name).
fn headers_of(headers: &[(String, String)]) -> Result<Headers, String> {
    let h = web_sys::Headers::new().map_err(|e| format!("{e:?}"))?;
    for (name, value) in headers {
        h.set(name, value)
            .map_err(|_| format!("{name:?} is not a valid header"))?;
    }
    Ok(Headers::from_raw(h))
}

/// Said when a model endpoint answers with a redirect, which is never followed.
const REDIRECT_REFUSED: &str = "The endpoint answered with a redirect to another address. \
     Playbench never follows a redirect with an API key, so the key cannot reach a server \
     the profile does not name: set the base URL to the address the server redirects to.";

/// `POST url` to a model endpoint with `headers` (the key among them) and `body`, never
/// following a redirect; `Err` is a message for people (timeout, CORS, unreachable,
/// redirect), already explained.
pub async fn post_json(
    url: &str,
    headers: &[(String, String)],
    body: &str,
    timeout_s: u32,
    base_url: &str,
) -> Result<HttpAnswer, String> {
    post(
        url,
        headers,
        body,
        timeout_s,
        base_url,
        RequestRedirect::Error,
    )
    .await
}

/// `POST url` with `redirect` as the redirect mode.
async fn post(
    url: &str,
    headers: &[(String, String)],
    body: &str,
    timeout_s: u32,
    base_url: &str,
    redirect: RequestRedirect,
) -> Result<HttpAnswer, String> {
    let controller = AbortController::new().map_err(|e| format!("{e:?}"))?;
    let request = RequestBuilder::new(url)
        .method(Method::POST)
        .mode(RequestMode::Cors)
        .redirect(redirect)
        .headers(headers_of(headers)?)
        .abort_signal(Some(&controller.signal()))
        .body(body)
        .map_err(|_| format!("{url:?} is not a URL this browser can request"))?;
    let timed_out = Rc::new(Cell::new(false));
    let timer = {
        let timed_out = timed_out.clone();
        let controller = controller.clone();
        Timeout::new(timeout_s.saturating_mul(1000), move || {
            timed_out.set(true);
            controller.abort();
        })
    };
    let result = async {
        let resp = request.send().await?;
        // An answer that started and then failed is told apart from one that never came.
        let text = resp.text().await.map_err(|_| resp.status());
        Ok::<_, gloo_net::Error>((resp, text))
    }
    .await;
    // Dropping the timer cancels it.
    drop(timer);
    match result {
        Ok((_, Err(status))) if !timed_out.get() => Err(format!(
            "the connection to {base_url} broke off while the answer (HTTP {status}) was arriving"
        )),
        // An answer over `MAX_ANSWER_BYTES` is refused where every answer is read
        // (`bench::protocol::endpoint::Endpoint::response`).
        Ok((resp, Ok(body))) => Ok(HttpAnswer {
            status: resp.status(),
            retry_after: resp.headers().get("retry-after"),
            body,
        }),
        Ok((_, Err(_))) | Err(_) => {
            if redirect == RequestRedirect::Error && !timed_out.get() && probe_redirects(url).await
            {
                return Err(REDIRECT_REFUSED.to_string());
            }
            let origin = web_sys::window()
                .and_then(|w| w.location().origin().ok())
                .unwrap_or_default();
            let probe = !timed_out.get() && probe_no_cors(url).await;
            let readable = probe && probe_cors_readable(url).await;
            let failure = classify(
                timed_out.get(),
                timeout_s,
                probe,
                readable,
                &origin,
                base_url,
            );
            let key_sent = headers.iter().any(|(name, _)| is_key_header(name));
            Err(explain(&failure, &origin, base_url, key_sent))
        }
    }
}

/// Whether `url` answers a keyless, bodiless `POST` (no preflight) with a redirect, which
/// is not followed. A `no-cors` request cannot leave redirects unfollowed, so this one is
/// CORS: a server whose redirect carries no CORS headers is then told by the probes below.
async fn probe_redirects(url: &str) -> bool {
    RequestBuilder::new(url)
        .method(Method::POST)
        .mode(RequestMode::Cors)
        .redirect(RequestRedirect::Manual)
        .send()
        .await
        .is_ok_and(|r| r.type_() == ResponseType::Opaqueredirect)
}

/// Whether anything answers `url` to an opaque request (which CORS does not block).
async fn probe_no_cors(url: &str) -> bool {
    RequestBuilder::new(url)
        .method(Method::POST)
        .mode(RequestMode::NoCors)
        .send()
        .await
        .is_ok()
}

/// Whether a plain CORS `GET` of `url` gets a reply this page may read (any status):
/// then the server allows the page, and a blocked reply was an error without CORS
/// headers.
async fn probe_cors_readable(url: &str) -> bool {
    RequestBuilder::new(url)
        .method(Method::GET)
        .mode(RequestMode::Cors)
        .send()
        .await
        .is_ok()
}

/// POSTs a JSON document (e.g. study results to a collection URL): `Ok(status)` for a
/// 2xx answer, else what went wrong in words (the status and the body's start). No key
/// goes with it, so redirects are followed (hosted collectors often redirect).
pub async fn post_document(url: &str, body: &str) -> Result<u16, String> {
    let headers = [("Content-Type".to_string(), "application/json".to_string())];
    let a = post(url, &headers, body, 60, url, RequestRedirect::Follow)
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
