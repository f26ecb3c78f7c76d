//! What went wrong, in words a person can act on: network failures (CORS refusals
//! told apart from unreachable servers by a second, opaque request, and from error
//! replies the browser hides by a third, plain one), API errors (a missing or refused
//! key named as such), and the "test connection" checklist. `/models`, `/run` and
//! `/run/suite` all word their errors here.

use bench::protocol::endpoint::Answer;
use bench::protocol::prompt::{ImageRef, Message, Part, Role};
use bench::protocol::providers::{ApiError, ErrorKind};

/// A request that got no HTTP answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkFailure {
    /// No answer within the profile's timeout.
    Timeout { seconds: u32 },
    /// The server answered an opaque (no-cors) request, but the real request was
    /// blocked: it does not allow this page's origin.
    Cors,
    /// The server allows this page (a plain request to the same URL is readable), but
    /// its reply to this request carried no CORS headers: an error answer (a missing or
    /// refused key, a server fault) that the browser hides.
    HiddenError,
    /// An `https://` page may not call a plain `http://` server other than localhost.
    MixedContent,
    /// Nothing answered at all.
    Unreachable,
}

fn host_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host_port = rest.split('/').next().unwrap_or(rest);
    match host_port.rsplit_once(':') {
        Some((h, p)) if p.chars().all(|c| c.is_ascii_digit()) => h,
        _ => host_port,
    }
}

fn is_local(url: &str) -> bool {
    matches!(host_of(url), "localhost" | "127.0.0.1" | "[::1]")
}

/// Classifies a failed fetch: `timed_out` when our timer aborted it, `probe_answered`
/// whether an opaque no-cors request to the same URL got through, `cors_readable`
/// whether a plain CORS request (no credentials, so no preflight) to it got a reply the
/// page could read.
pub fn classify(
    timed_out: bool,
    timeout_s: u32,
    probe_answered: bool,
    cors_readable: bool,
    app_origin: &str,
    base_url: &str,
) -> NetworkFailure {
    if timed_out {
        NetworkFailure::Timeout { seconds: timeout_s }
    } else if app_origin.starts_with("https://")
        && base_url.trim().starts_with("http://")
        && !is_local(base_url)
    {
        NetworkFailure::MixedContent
    } else if cors_readable {
        NetworkFailure::HiddenError
    } else if probe_answered {
        NetworkFailure::Cors
    } else {
        NetworkFailure::Unreachable
    }
}

/// Whether header `name` carries an API key (see `Provider::auth_headers`).
pub fn is_key_header(name: &str) -> bool {
    ["authorization", "x-api-key", "x-goog-api-key"]
        .iter()
        .any(|k| name.eq_ignore_ascii_case(k))
}

/// How a hidden error's message starts (the checklist reads it as "the server answered").
const HIDDEN_ERROR: &str = "The endpoint answered with an error the browser does not show";

/// Said when a request went without a key.
pub const NO_KEY: &str = "No API key was sent: the profile has none. If this server needs \
     one, enter it on /models (or in the run form).";

/// The message for a failure, with how to fix it; `key_sent` whether the request
/// carried an API key.
pub fn explain(f: &NetworkFailure, app_origin: &str, base_url: &str, key_sent: bool) -> String {
    match f {
        NetworkFailure::HiddenError => {
            let key = if key_sent {
                "Check the API key (a refused key is the most common cause), the model name and \
                 the server's log."
            } else {
                NO_KEY
            };
            format!(
                "{HIDDEN_ERROR} at {base_url}: the server allows this page, but its error \
                 reply carried no CORS headers. {key}"
            )
        }
        NetworkFailure::Timeout { seconds } => format!(
            "The endpoint did not answer within {seconds} s (the profile's request timeout). \
             A slow local model may need a longer timeout."
        ),
        NetworkFailure::MixedContent => format!(
            "This page is served over https, so the browser blocks requests to the plain-http \
             endpoint {base_url}. Serve the endpoint over https, or use it through localhost."
        ),
        NetworkFailure::Cors => format!(
            "The endpoint at {base_url} answered, but the browser blocked the reply: the server \
             does not allow requests from this page's origin ({app_origin}) (CORS). Allow it: \
             Ollama — start it with OLLAMA_ORIGINS={app_origin} ollama serve; \
             vLLM — vllm serve MODEL --allowed-origins '[\"{app_origin}\"]'; \
             LM Studio — Developer tab, server settings, turn on \"Enable CORS\"; \
             llama.cpp server — recent llama-server allows any origin; behind a proxy, add the \
             header Access-Control-Allow-Origin: {app_origin} (and allow the Authorization and \
             Content-Type headers). Hosted APIs that refuse browsers need a small proxy."
        ),
        NetworkFailure::Unreachable => format!(
            "Nothing answered at {base_url}: check the base URL and that the server is \
             running and reachable from this computer."
        ),
    }
}

/// An API error in words: its own message and what to do, the key named when it is
/// missing or refused. `key_sent`: whether the request carried an API key.
pub fn describe(e: &ApiError, key_sent: bool) -> String {
    let advice = match e.kind {
        ErrorKind::Auth if !key_sent => NO_KEY,
        _ => advice(e),
    };
    format!("{} {advice}", e.message).trim_end().to_string()
}

/// What to do about an API error (shown with the error's own message).
fn advice(e: &ApiError) -> &'static str {
    match e.kind {
        ErrorKind::Auth => "Check the API key: the endpoint refused it (it is sent only to this endpoint).",
        ErrorKind::UnknownModel => {
            "Check the model name and the base URL (OpenAI-compatible servers usually end in /v1)."
        }
        ErrorKind::NoImages => "This model does not take images: choose a vision model.",
        ErrorKind::ContextOverflow => {
            "The conversation is longer than the model's context: try a history window or smaller images."
        }
        ErrorKind::RateLimited { .. } => "The endpoint is rate limiting: lower the concurrency.",
        // Network failures come explained (CORS, unreachable, timeout); 5xx speak for themselves.
        ErrorKind::Transport => "",
        ErrorKind::BadResponse => {
            if e.message.contains("not JSON") {
                "The answer is not JSON: the base URL may point at a web page rather than the API."
            } else {
                "The endpoint rejected the request or answered in an unexpected shape."
            }
        }
    }
}

/// The conversation of a connection test with `images` images (the current frame).
pub fn test_messages(images: usize) -> Vec<Message> {
    let mut parts = vec![Part::Text(format!(
        "This is a connection test from Playbench with {images} image(s). Reply with [Action: ok] on the first line."
    ))];
    parts.extend((0..images).map(|_| Part::Image(ImageRef::Current { step: 0 })));
    vec![Message {
        role: Role::User,
        parts,
    }]
}

/// One line of the connection checklist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    Passed(String),
    Failed(String),
    /// Not tried because an earlier check failed.
    Skipped,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectionReport {
    pub reachable: Check,
    pub auth: Check,
    pub image: Check,
    pub multi_image: Check,
}

impl ConnectionReport {
    pub fn rows(&self) -> [(&'static str, &Check); 4] {
        [
            ("Reachable", &self.reachable),
            ("Key accepted", &self.auth),
            ("Takes an image", &self.image),
            ("Takes several images", &self.multi_image),
        ]
    }

    pub fn all_passed(&self) -> bool {
        self.rows()
            .iter()
            .all(|(_, c)| matches!(c, Check::Passed(_)))
    }
}

/// The checklist from the one-image answer and, when it was tried, the two-image one;
/// `key_sent`: whether the requests carried an API key.
pub fn interpret(
    one: &Result<Answer, ApiError>,
    two: Option<&Result<Answer, ApiError>>,
    key_sent: bool,
) -> ConnectionReport {
    let failed = |e: &ApiError| Check::Failed(describe(e, key_sent));
    use Check::{Passed, Skipped};
    let answered = |a: &Answer| {
        let first = a
            .text
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(80)
            .collect::<String>();
        Passed(format!("answered: {first:?}"))
    };
    match one {
        // The server answered, with an error hidden from the page: the key is the usual
        // cause, and the message says so.
        Err(e) if e.kind == ErrorKind::Transport && e.message.starts_with(HIDDEN_ERROR) => {
            ConnectionReport {
                reachable: Passed("the server answered".into()),
                auth: Check::Failed(e.message.clone()),
                image: Skipped,
                multi_image: Skipped,
            }
        }
        Err(e) if e.kind == ErrorKind::Transport => ConnectionReport {
            reachable: failed(e),
            auth: Skipped,
            image: Skipped,
            multi_image: Skipped,
        },
        Err(e) if e.kind == ErrorKind::Auth => ConnectionReport {
            reachable: Passed("the server answered".into()),
            auth: failed(e),
            image: Skipped,
            multi_image: Skipped,
        },
        Err(e) => ConnectionReport {
            reachable: Passed("the server answered".into()),
            auth: if matches!(e.kind, ErrorKind::NoImages) {
                Passed("the request was read".into())
            } else {
                Skipped
            },
            image: failed(e),
            multi_image: Skipped,
        },
        Ok(a) => ConnectionReport {
            reachable: Passed("the server answered".into()),
            auth: Passed("the request was accepted".into()),
            image: answered(a),
            multi_image: match two {
                None => Skipped,
                Some(Ok(b)) => answered(b),
                Some(Err(e)) => failed(e),
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_are_told_apart() {
        let o = "http://127.0.0.1:8080";
        assert_eq!(
            classify(true, 5, true, false, o, "http://x/v1"),
            NetworkFailure::Timeout { seconds: 5 }
        );
        assert_eq!(
            classify(false, 5, true, false, o, "http://x/v1"),
            NetworkFailure::Cors
        );
        // A server whose plain replies the page reads does allow it: the blocked reply
        // was an error without CORS headers, not a CORS refusal.
        assert_eq!(
            classify(false, 5, true, true, o, "http://x/v1"),
            NetworkFailure::HiddenError
        );
        assert_eq!(
            classify(false, 5, false, false, o, "http://x/v1"),
            NetworkFailure::Unreachable
        );
        let https = "https://playbench.example";
        assert_eq!(
            classify(false, 5, false, false, https, "http://gpu-box:8000/v1"),
            NetworkFailure::MixedContent
        );
        assert_eq!(
            classify(false, 5, true, false, https, "http://localhost:11434/v1"),
            NetworkFailure::Cors
        );
        let hidden = |key| explain(&NetworkFailure::HiddenError, o, "http://x/v1", key);
        assert!(hidden(false).contains(NO_KEY), "{}", hidden(false));
        assert!(
            hidden(true).contains("Check the API key"),
            "{}",
            hidden(true)
        );
        for key in [false, true] {
            assert!(
                !hidden(key).contains("Ollama"),
                "no CORS advice: {}",
                hidden(key)
            );
        }
        assert!(is_key_header("Authorization") && is_key_header("x-goog-api-key"));
        assert!(!is_key_header("content-type"));
        let cors = explain(&NetworkFailure::Cors, o, "http://localhost:11434/v1", true);
        for server in [
            "Ollama",
            "OLLAMA_ORIGINS=http://127.0.0.1:8080",
            "vLLM",
            "LM Studio",
            "llama.cpp",
        ] {
            assert!(cors.contains(server), "{server}: {cors}");
        }
    }

    #[test]
    fn the_checklist_follows_the_answers() {
        let ok = Ok(Answer {
            text: "[Action: ok]".into(),
            usage: None,
        });
        assert!(interpret(&ok, Some(&ok), true).all_passed());
        let auth = Err(ApiError::new(ErrorKind::Auth, "401"));
        let r = interpret(&auth, None, true);
        assert!(matches!(r.reachable, Check::Passed(_)));
        assert!(
            matches!(r.auth, Check::Failed(ref m) if m.contains("Check the API key: the endpoint refused it"))
        );
        assert_eq!(r.image, Check::Skipped);
        // Without a key, the missing key is named.
        let r = interpret(&auth, None, false);
        assert!(matches!(r.auth, Check::Failed(ref m) if m.contains(NO_KEY)));
        let no_img = Err(ApiError::new(ErrorKind::NoImages, "400"));
        assert!(
            matches!(interpret(&no_img, None, true).image, Check::Failed(ref m) if m.contains("vision"))
        );
        let r = interpret(&ok, Some(&no_img), true);
        assert!(matches!(r.multi_image, Check::Failed(_)));
        let net = Err(ApiError::new(ErrorKind::Transport, "nothing answered"));
        assert!(matches!(
            interpret(&net, None, true).reachable,
            Check::Failed(_)
        ));
        // A hidden error: reachable, the key row holds the explanation.
        let o = "http://127.0.0.1:8080";
        let hidden = explain(&NetworkFailure::HiddenError, o, "http://x/v1", false);
        let r = interpret(
            &Err(ApiError::new(ErrorKind::Transport, hidden.clone())),
            None,
            false,
        );
        assert!(matches!(r.reachable, Check::Passed(_)));
        assert_eq!(r.auth, Check::Failed(hidden));
        assert_eq!(test_messages(2)[0].images().count(), 2);
    }
}
