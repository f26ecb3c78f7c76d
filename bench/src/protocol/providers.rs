//! The three model APIs as data (`docs/vical-protocol.md`, "Providers"): request bodies
//! built from a conversation, the reply text read from a response, and HTTP errors
//! classified (same document, "Failure modes").
//! No IO: the browser and the command line send the bytes.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::prompt::{ImageRef, Message, Part, Role};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Provider {
    /// OpenAI-compatible Chat Completions (`POST {base}/chat/completions`).
    OpenAi,
    /// Anthropic Messages (`POST {base}/messages`).
    Anthropic,
    /// Google Gemini (`POST {base}/models/{model}:generateContent`).
    Gemini,
}

impl Provider {
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "openai" => Some(Self::OpenAi),
            "anthropic" => Some(Self::Anthropic),
            "gemini" => Some(Self::Gemini),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::OpenAi => "openai",
            Self::Anthropic => "anthropic",
            Self::Gemini => "gemini",
        }
    }

    /// Whether the API takes video in a message (Gemini's `inline_data`); the others
    /// get demonstrations as images.
    pub fn takes_video(self) -> bool {
        self == Self::Gemini
    }

    /// The request URL under `base_url` (e.g. `https://api.openai.com/v1`,
    /// `https://api.anthropic.com/v1`, `https://generativelanguage.googleapis.com/v1beta`).
    pub fn url(self, base_url: &str, model: &str) -> String {
        let base = base_url.trim_end_matches('/');
        match self {
            Self::OpenAi => format!("{base}/chat/completions"),
            Self::Anthropic => format!("{base}/messages"),
            Self::Gemini => format!("{base}/models/{model}:generateContent"),
        }
    }

    /// The headers carrying `api_key` and the API version (besides the content type).
    pub fn auth_headers(self, api_key: Option<&str>) -> Vec<(String, String)> {
        // An empty key is no key: sending `Bearer ` only earns a confusing refusal.
        let api_key = api_key.map(str::trim).filter(|k| !k.is_empty());
        let mut h = Vec::new();
        match (self, api_key) {
            (Self::OpenAi, Some(k)) => h.push(("Authorization".into(), format!("Bearer {k}"))),
            (Self::Anthropic, k) => {
                h.push(("anthropic-version".into(), "2023-06-01".into()));
                if let Some(k) = k {
                    h.push(("x-api-key".into(), k.into()));
                }
            }
            (Self::Gemini, Some(k)) => h.push(("x-goog-api-key".into(), k.into())),
            (_, None) => {}
        }
        h
    }
}

/// Sampling settings sent with every request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sampling {
    pub model: String,
    #[serde(default)]
    pub temperature: Option<f64>,
    /// Required by Anthropic; [`DEFAULT_MAX_TOKENS`] when unset there.
    #[serde(default)]
    pub max_output_tokens: Option<u32>,
}

pub const DEFAULT_MAX_TOKENS: u32 = 1024;

/// An image encoded by the caller (PNG or JPEG), held as base64: requests carry it so,
/// and a browser canvas hands it over so (no round trip through bytes).
///
/// Its data is shared, not copied: every request of an episode carries its
/// demonstrations' images again (megabytes for full-size frames).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodedImage {
    pub mime: String,
    /// Standard base64 with padding.
    base64: Arc<str>,
    /// Whether JSON writes the data as it is (true of base64): a request's text copies
    /// it without a look (`super::body_text`).
    json_plain: bool,
}

impl EncodedImage {
    /// An image from its base64 text (anything else is taken too, as test encoders'
    /// tags, and escaped in requests).
    pub fn new(mime: &str, base64: impl Into<Arc<str>>) -> Self {
        let base64: Arc<str> = base64.into();
        Self {
            mime: mime.to_string(),
            json_plain: base64.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\'),
            base64,
        }
    }

    pub fn from_bytes(mime: &str, bytes: &[u8]) -> Self {
        Self {
            mime: mime.to_string(),
            base64: base64(bytes).into(),
            json_plain: true,
        }
    }

    /// The data as base64.
    pub fn base64(&self) -> &str {
        &self.base64
    }

    pub(crate) fn json_plain(&self) -> bool {
        self.json_plain
    }

    /// The size of the image itself (before base64).
    pub fn byte_len(&self) -> usize {
        let padding = self.base64.bytes().rev().take_while(|b| *b == b'=').count();
        (self.base64.len() / 4 * 3).saturating_sub(padding)
    }
}

/// Standard base64 with padding.
pub fn base64(bytes: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for (i, shift) in [18u32, 12, 6, 0].iter().enumerate() {
            if i <= c.len() {
                out.push(char::from(T[((n >> shift) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A message's parts with adjacent text joined and images resolved.
enum Piece {
    Text(String),
    /// A text block nothing is joined to.
    Block(String),
    Image(EncodedImage),
}

fn pieces<F>(m: &Message, resolve: &mut F) -> Result<Vec<Piece>, String>
where
    F: FnMut(&ImageRef) -> Result<EncodedImage, String>,
{
    let mut out: Vec<Piece> = Vec::new();
    for p in &m.parts {
        match p {
            Part::Text(t) => match out.last_mut() {
                Some(Piece::Text(prev)) => prev.push_str(t),
                _ => out.push(Piece::Text(t.clone())),
            },
            Part::TextBlock(t) => out.push(Piece::Block(t.clone())),
            Part::Image(r) => {
                out.push(Piece::Image(resolve(r)?));
            }
        }
    }
    Ok(out)
}

/// The request body for `messages`; `resolve` encodes each referenced image.
pub fn request_body<F>(
    provider: Provider,
    sampling: &Sampling,
    messages: &[Message],
    resolve: F,
) -> Result<Value, String>
where
    F: FnMut(&ImageRef) -> Result<EncodedImage, String>,
{
    build_body(provider, sampling, messages, resolve, |img| {
        img.base64.to_string()
    })
}

/// [`request_body`] with each image's base64 given to `embed`, whose result stands in
/// the body where the data goes (`super::body_text` puts markers there).
pub(crate) fn build_body<F, E>(
    provider: Provider,
    sampling: &Sampling,
    messages: &[Message],
    mut resolve: F,
    mut embed: E,
) -> Result<Value, String>
where
    F: FnMut(&ImageRef) -> Result<EncodedImage, String>,
    E: FnMut(&EncodedImage) -> String,
{
    let mut turns = Vec::new();
    // Anthropic and Gemini take system instructions beside the turns, not as one.
    let mut system: Vec<String> = Vec::new();
    for m in messages {
        if m.role == Role::System {
            if provider == Provider::OpenAi {
                turns.push(json!({"role": "system", "content": m.to_text()}));
            } else {
                system.push(m.to_text());
            }
            continue;
        }
        let ps = pieces(m, &mut resolve)?;
        if !provider.takes_video() {
            if let Some(Piece::Image(video)) = ps
                .iter()
                .find(|p| matches!(p, Piece::Image(i) if i.mime.starts_with("video/")))
            {
                let mime = &video.mime;
                return Err(format!("{} does not take video ({mime})", provider.name()));
            }
        }
        turns.push(match provider {
            Provider::OpenAi => {
                let role = if m.role == Role::User {
                    "user"
                } else {
                    "assistant"
                };
                let content: Value = if m.role == Role::Assistant {
                    Value::String(m.to_text())
                } else {
                    ps.into_iter()
                        .map(|p| match p {
                            Piece::Text(t) | Piece::Block(t) => json!({"type": "text", "text": t}),
                            Piece::Image(img) => json!({"type": "image_url",
                                "image_url": {"url": format!("data:{};base64,{}", img.mime, embed(&img))}}),
                        })
                        .collect()
                };
                json!({"role": role, "content": content})
            }
            Provider::Anthropic => {
                let role = if m.role == Role::User {
                    "user"
                } else {
                    "assistant"
                };
                let content: Vec<Value> = ps
                    .into_iter()
                    .map(|p| match p {
                        Piece::Text(t) | Piece::Block(t) => json!({"type": "text", "text": t}),
                        Piece::Image(img) => json!({"type": "image",
                            "source": {"type": "base64", "media_type": img.mime, "data": embed(&img)}}),
                    })
                    .collect();
                json!({"role": role, "content": content})
            }
            Provider::Gemini => {
                let role = if m.role == Role::User {
                    "user"
                } else {
                    "model"
                };
                let parts: Vec<Value> = ps
                    .into_iter()
                    .map(|p| match p {
                        Piece::Text(t) | Piece::Block(t) => json!({"text": t}),
                        Piece::Image(img) => {
                            json!({"inline_data": {"mime_type": img.mime, "data": embed(&img)}})
                        }
                    })
                    .collect();
                json!({"role": role, "parts": parts})
            }
        });
    }
    let mut body = Map::new();
    if !system.is_empty() {
        let text = system.join("\n");
        match provider {
            Provider::Anthropic => {
                body.insert("system".into(), json!(text));
            }
            Provider::Gemini => {
                body.insert(
                    "systemInstruction".into(),
                    json!({"parts": [{"text": text}]}),
                );
            }
            Provider::OpenAi => {}
        }
    }
    match provider {
        Provider::OpenAi | Provider::Anthropic => {
            body.insert("model".into(), json!(sampling.model));
            body.insert("messages".into(), Value::Array(turns));
            if let Some(t) = sampling.temperature {
                body.insert("temperature".into(), json!(t));
            }
            let max = match provider {
                Provider::Anthropic => {
                    Some(sampling.max_output_tokens.unwrap_or(DEFAULT_MAX_TOKENS))
                }
                _ => sampling.max_output_tokens,
            };
            if let Some(n) = max {
                body.insert("max_tokens".into(), json!(n));
            }
        }
        Provider::Gemini => {
            body.insert("contents".into(), Value::Array(turns));
            let mut cfg = Map::new();
            if let Some(t) = sampling.temperature {
                cfg.insert("temperature".into(), json!(t));
            }
            if let Some(n) = sampling.max_output_tokens {
                cfg.insert("maxOutputTokens".into(), json!(n));
            }
            if !cfg.is_empty() {
                body.insert("generationConfig".into(), Value::Object(cfg));
            }
        }
    }
    Ok(Value::Object(body))
}

/// What went wrong with a request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ErrorKind {
    /// Network failure, timeout, 408 or 5xx: retried.
    Transport,
    /// 429: retried, after `retry_after_s` when the server said.
    RateLimited { retry_after_s: Option<u64> },
    /// 401/403: the key is missing or wrong.
    Auth,
    /// 404 or a model-not-found message.
    UnknownModel,
    /// The conversation exceeds the model's context.
    ContextOverflow,
    /// The model or endpoint does not take images.
    NoImages,
    /// Anything else: a non-JSON or unexpected answer, or another client error.
    BadResponse,
}

impl ErrorKind {
    pub fn is_retryable(&self) -> bool {
        matches!(self, Self::Transport | Self::RateLimited { .. })
    }
}

/// A failed request: its kind and a message for people.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ApiError {
    pub kind: ErrorKind,
    pub message: String,
}

impl ApiError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for ApiError {}

/// The provider's error message in `body` (`error.message`, else `message`), or the
/// body itself, shortened.
fn error_message(body: &str) -> String {
    let v: Option<Value> = serde_json::from_str(body).ok();
    let msg = v.as_ref().and_then(|v| {
        v.pointer("/error/message")
            .or_else(|| v.get("message"))
            .or_else(|| v.get("error").filter(|e| e.is_string()))
            .and_then(Value::as_str)
            .map(str::to_string)
    });
    msg.unwrap_or_else(|| body.chars().take(300).collect())
}

/// Whether an error body (lowercase) says the API key is missing or refused.
fn refuses_key(low: &str) -> bool {
    [
        "api key",
        "api_key",
        "apikey",
        "invalid key",
        "x-api-key",
        "auth_error",
        "authentication",
        "unauthorized",
        "unauthenticated",
        "bearer",
    ]
    .iter()
    .any(|w| low.contains(w))
}

/// Classifies an unsuccessful HTTP answer; `retry_after_s` is the parsed `Retry-After`.
pub fn classify_error(
    provider: Provider,
    status: u16,
    body: &str,
    retry_after_s: Option<u64>,
) -> ApiError {
    let msg = error_message(body);
    let low = body.to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| low.contains(w));
    let overflow = match provider {
        Provider::OpenAi => has(&["context_length_exceeded", "maximum context length"]),
        Provider::Anthropic => has(&["prompt is too long"]),
        Provider::Gemini => has(&["exceeds the maximum number of tokens", "input token count"]),
    } || has(&["context window", "context length"]);
    let kind = if overflow {
        ErrorKind::ContextOverflow
    } else if status == 429 {
        ErrorKind::RateLimited { retry_after_s }
    } else if status == 401 || status == 403 || refuses_key(&low) {
        // A refused key is named whatever the status (proxies answer 400 or 500).
        ErrorKind::Auth
    } else if status == 408 || status >= 500 {
        ErrorKind::Transport
    } else if has(&[
        "does not support image",
        "image input",
        "image_url is only supported",
        "images are not supported",
        "vision is not supported",
    ]) {
        ErrorKind::NoImages
    } else if status == 404 || has(&["model_not_found", "model not found", "unknown model"]) {
        ErrorKind::UnknownModel
    } else {
        ErrorKind::BadResponse
    };
    let what = match kind {
        ErrorKind::ContextOverflow => "the conversation exceeds the model's context",
        ErrorKind::RateLimited { .. } => "rate limited",
        ErrorKind::Transport => "server error",
        ErrorKind::Auth => "authentication failed (check the API key)",
        ErrorKind::NoImages => "the model does not accept images",
        ErrorKind::UnknownModel => "unknown model or endpoint",
        ErrorKind::BadResponse => "request rejected",
    };
    ApiError::new(kind, format!("{} {status}: {what}: {msg}", provider.name()))
}

/// The reply text of a successful answer: the first choice (OpenAI), the text blocks
/// (Anthropic) or the first candidate's text parts (Gemini).
pub fn extract_reply(provider: Provider, body: &str) -> Result<String, ApiError> {
    let bad = |why: &str| {
        ApiError::new(
            ErrorKind::BadResponse,
            format!(
                "{}: {why}: {}",
                provider.name(),
                body.chars().take(300).collect::<String>()
            ),
        )
    };
    let v: Value = serde_json::from_str(body).map_err(|e| {
        if e.is_eof() && body.trim_start().starts_with(['{', '[']) {
            // Cut short (a dropped connection, a proxy's limit): worth another try.
            ApiError::new(
                ErrorKind::Transport,
                format!(
                    "{}: the answer broke off after {} bytes (its JSON ends early)",
                    provider.name(),
                    body.len()
                ),
            )
        } else {
            bad("the answer is not JSON")
        }
    })?;
    let texts = |parts: &[Value], key: &str| -> String {
        parts
            .iter()
            .filter(|p| key.is_empty() || p.get("type").and_then(Value::as_str) == Some(key))
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect()
    };
    let text = match provider {
        Provider::OpenAi => match v.pointer("/choices/0/message/content") {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Array(parts)) => Some(texts(parts, "text")),
            Some(Value::Null) => Some(String::new()),
            _ => None,
        },
        Provider::Anthropic => v
            .get("content")
            .and_then(Value::as_array)
            .map(|parts| texts(parts, "text")),
        Provider::Gemini => v.pointer("/candidates/0").map(|c| {
            c.pointer("/content/parts")
                .and_then(Value::as_array)
                .map(|parts| texts(parts, ""))
                .unwrap_or_default()
        }),
    };
    text.ok_or_else(|| bad("unexpected answer shape"))
}

/// Input and output tokens a successful answer reports, when it reports them.
pub fn extract_usage(provider: Provider, body: &str) -> Option<(u64, u64)> {
    let v: Value = serde_json::from_str(body).ok()?;
    let (usage, input, output) = match provider {
        Provider::OpenAi => ("/usage", "prompt_tokens", "completion_tokens"),
        Provider::Anthropic => ("/usage", "input_tokens", "output_tokens"),
        Provider::Gemini => ("/usageMetadata", "promptTokenCount", "candidatesTokenCount"),
    };
    let u = v.pointer(usage)?;
    let n = |k: &str| u.get(k).and_then(Value::as_u64);
    match (n(input), n(output)) {
        (None, None) => None,
        (i, o) => Some((i.unwrap_or(0), o.unwrap_or(0))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::prompt::{later_turn, Part};

    fn convo() -> Vec<Message> {
        vec![
            later_turn(1, "Down", None),
            Message {
                role: Role::Assistant,
                parts: vec![Part::Text("[Action: Down]".into())],
            },
        ]
    }

    fn resolve(r: &ImageRef) -> Result<EncodedImage, String> {
        match r {
            ImageRef::Current { .. } => Ok(EncodedImage::from_bytes("image/png", b"png!")),
            _ => Err("no such image".into()),
        }
    }

    fn sampling() -> Sampling {
        Sampling {
            model: "m".into(),
            temperature: Some(0.0),
            max_output_tokens: None,
        }
    }

    #[test]
    fn base64_matches_rfc_4648() {
        for (i, o) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(i.as_bytes()), o);
        }
        assert_eq!(base64(&[0xfb, 0xff]), "+/8=");
    }

    #[test]
    fn openai_body() {
        let b = request_body(Provider::OpenAi, &sampling(), &convo(), resolve).unwrap();
        assert_eq!(b["model"], "m");
        assert_eq!(b["temperature"], 0.0);
        assert!(b.get("max_tokens").is_none());
        let user = &b["messages"][0];
        assert_eq!(user["role"], "user");
        assert_eq!(user["content"][0]["type"], "text");
        assert!(user["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Step 1 - Result"));
        assert_eq!(
            user["content"][1],
            json!({"type": "image_url", "image_url": {"url": "data:image/png;base64,cG5nIQ=="}})
        );
        assert_eq!(user["content"].as_array().unwrap().len(), 3);
        assert_eq!(
            b["messages"][1],
            json!({"role": "assistant", "content": "[Action: Down]"})
        );
    }

    #[test]
    fn anthropic_body() {
        let b = request_body(Provider::Anthropic, &sampling(), &convo(), resolve).unwrap();
        assert_eq!(b["max_tokens"], DEFAULT_MAX_TOKENS);
        assert_eq!(
            b["messages"][0]["content"][1],
            json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "cG5nIQ=="}})
        );
        assert_eq!(
            b["messages"][1],
            json!({"role": "assistant", "content": [{"type": "text", "text": "[Action: Down]"}]})
        );
        assert!(b.get("system").is_none(), "V-ICAL sends no system message");
    }

    #[test]
    fn gemini_body() {
        let s = Sampling {
            max_output_tokens: Some(64),
            ..sampling()
        };
        let b = request_body(Provider::Gemini, &s, &convo(), resolve).unwrap();
        assert!(b.get("model").is_none());
        assert_eq!(
            b["generationConfig"],
            json!({"temperature": 0.0, "maxOutputTokens": 64})
        );
        assert_eq!(b["contents"][0]["role"], "user");
        assert_eq!(
            b["contents"][0]["parts"][1],
            json!({"inline_data": {"mime_type": "image/png", "data": "cG5nIQ=="}})
        );
        assert_eq!(
            b["contents"][1],
            json!({"role": "model", "parts": [{"text": "[Action: Down]"}]})
        );
    }

    #[test]
    fn system_messages_go_where_each_api_takes_them() {
        let mut m = vec![Message {
            role: Role::System,
            parts: vec![Part::Text("be an auditor".into())],
        }];
        m.extend(convo());
        let b = request_body(Provider::OpenAi, &sampling(), &m, resolve).unwrap();
        assert_eq!(
            b["messages"][0],
            json!({"role": "system", "content": "be an auditor"})
        );
        assert_eq!(b["messages"][1]["role"], "user");
        let b = request_body(Provider::Anthropic, &sampling(), &m, resolve).unwrap();
        assert_eq!(b["system"], "be an auditor");
        assert_eq!(b["messages"][0]["role"], "user");
        let b = request_body(Provider::Gemini, &sampling(), &m, resolve).unwrap();
        assert_eq!(
            b["systemInstruction"],
            json!({"parts": [{"text": "be an auditor"}]})
        );
        assert_eq!(b["contents"][0]["role"], "user");
    }

    #[test]
    fn unresolvable_images_are_errors() {
        let m = vec![Message {
            role: Role::User,
            parts: vec![Part::Image(ImageRef::DemoVideo { clip: 0 })],
        }];
        assert!(request_body(Provider::OpenAi, &sampling(), &m, resolve).is_err());
    }

    #[test]
    fn urls_and_keys() {
        assert_eq!(
            Provider::OpenAi.url("http://h/v1/", "m"),
            "http://h/v1/chat/completions"
        );
        assert_eq!(
            Provider::Anthropic.url("http://h/v1", "m"),
            "http://h/v1/messages"
        );
        assert_eq!(
            Provider::Gemini.url("http://h/v1beta", "g-1"),
            "http://h/v1beta/models/g-1:generateContent"
        );
        assert_eq!(
            Provider::OpenAi.auth_headers(Some("k")),
            vec![("Authorization".to_string(), "Bearer k".to_string())]
        );
        assert_eq!(Provider::Anthropic.auth_headers(Some("k")).len(), 2);
        assert_eq!(Provider::Gemini.auth_headers(None), vec![]);
        // An empty key is not sent.
        for p in [Provider::OpenAi, Provider::Gemini] {
            assert_eq!(p.auth_headers(Some("")), vec![]);
            assert_eq!(p.auth_headers(Some("  ")), vec![]);
        }
        assert_eq!(Provider::Anthropic.auth_headers(Some("")).len(), 1);
    }

    #[test]
    fn replies_are_extracted() {
        let o = r#"{"choices":[{"message":{"role":"assistant","content":"[Action: Up]\nwhy"}}]}"#;
        assert_eq!(
            extract_reply(Provider::OpenAi, o).unwrap(),
            "[Action: Up]\nwhy"
        );
        let a = r#"{"content":[{"type":"thinking","thinking":"x"},{"type":"text","text":"[Action: Up]"}]}"#;
        assert_eq!(
            extract_reply(Provider::Anthropic, a).unwrap(),
            "[Action: Up]"
        );
        let g = r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"[Action: "},{"text":"Up]"}]}}]}"#;
        assert_eq!(extract_reply(Provider::Gemini, g).unwrap(), "[Action: Up]");
        for p in [Provider::OpenAi, Provider::Anthropic, Provider::Gemini] {
            for body in ["<html>", "{}", "[]"] {
                assert_eq!(
                    extract_reply(p, body).unwrap_err().kind,
                    ErrorKind::BadResponse,
                    "{p:?} {body}"
                );
            }
        }
    }

    #[test]
    fn errors_are_classified_per_provider() {
        use ErrorKind::*;
        let cases: Vec<(Provider, u16, &str, ErrorKind)> = vec![
            (
                Provider::OpenAi,
                400,
                r#"{"error":{"message":"This model's maximum context length is 128000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}"#,
                ContextOverflow,
            ),
            (
                Provider::Anthropic,
                400,
                r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#,
                ContextOverflow,
            ),
            (
                Provider::Gemini,
                400,
                r#"{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}"#,
                ContextOverflow,
            ),
            (
                Provider::OpenAi,
                429,
                r#"{"error":{"message":"Rate limit reached"}}"#,
                RateLimited {
                    retry_after_s: Some(2),
                },
            ),
            (
                Provider::Anthropic,
                529,
                r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
                Transport,
            ),
            (Provider::Gemini, 503, "upstream connect error", Transport),
            (Provider::OpenAi, 408, "", Transport),
            (
                Provider::OpenAi,
                401,
                r#"{"error":{"message":"Incorrect API key provided"}}"#,
                Auth,
            ),
            (
                Provider::Gemini,
                403,
                r#"{"error":{"code":403,"message":"API key not valid","status":"PERMISSION_DENIED"}}"#,
                Auth,
            ),
            // A refused key whatever the status: a LiteLLM proxy answers 400 or 500.
            (
                Provider::OpenAi,
                400,
                r#"{"error":{"message":"Authentication Error, No connected db.","type":"auth_error","param":"None","code":"400"}}"#,
                Auth,
            ),
            (
                Provider::OpenAi,
                500,
                r#"{"error":{"message":"Authentication Error, Invalid proxy server token passed.","type":"auth_error"}}"#,
                Auth,
            ),
            (
                Provider::Gemini,
                400,
                r#"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}"#,
                Auth,
            ),
            (
                Provider::OpenAi,
                404,
                r#"{"error":{"message":"The model `x` does not exist","code":"model_not_found"}}"#,
                UnknownModel,
            ),
            (
                Provider::OpenAi,
                400,
                r#"{"error":{"message":"model_not_found"}}"#,
                UnknownModel,
            ),
            (
                Provider::Gemini,
                404,
                r#"{"error":{"code":404,"message":"models/x is not found","status":"NOT_FOUND"}}"#,
                UnknownModel,
            ),
            (
                Provider::OpenAi,
                400,
                r#"{"error":{"message":"Invalid content type. image_url is only supported by certain models."}}"#,
                NoImages,
            ),
            (
                Provider::Anthropic,
                400,
                r#"{"type":"error","error":{"message":"This model does not support image input."}}"#,
                NoImages,
            ),
            (
                Provider::OpenAi,
                400,
                r#"{"error":{"message":"temperature must be <= 2"}}"#,
                BadResponse,
            ),
        ];
        for (p, status, body, want) in cases {
            let retry_after = if status == 429 { Some(2) } else { None };
            let e = classify_error(p, status, body, retry_after);
            assert_eq!(e.kind, want, "{p:?} {status} {body}");
            assert!(e.message.contains(&status.to_string()), "{}", e.message);
        }
        let e = classify_error(
            Provider::Anthropic,
            400,
            r#"{"error":{"message":"prompt is too long"}}"#,
            None,
        );
        assert!(e.message.ends_with("prompt is too long"), "{}", e.message);
        assert!(
            Transport.is_retryable()
                && (RateLimited {
                    retry_after_s: None
                })
                .is_retryable()
        );
        assert!(!ContextOverflow.is_retryable() && !Auth.is_retryable());
    }

    #[test]
    fn usage_is_read_from_each_shape() {
        let openai = r#"{"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":3}}"#;
        assert_eq!(extract_usage(Provider::OpenAi, openai), Some((12, 3)));
        let anthropic = r#"{"content":[],"usage":{"input_tokens":7,"output_tokens":2}}"#;
        assert_eq!(extract_usage(Provider::Anthropic, anthropic), Some((7, 2)));
        let gemini = r#"{"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":1}}"#;
        assert_eq!(extract_usage(Provider::Gemini, gemini), Some((5, 1)));
        assert_eq!(extract_usage(Provider::OpenAi, r#"{"choices":[]}"#), None);
        assert_eq!(extract_usage(Provider::OpenAi, "not json"), None);
    }

    #[test]
    fn encoded_images_know_their_size() {
        for n in 0..7 {
            let bytes = vec![7u8; n];
            assert_eq!(EncodedImage::from_bytes("image/png", &bytes).byte_len(), n);
        }
    }

    #[test]
    fn only_gemini_takes_video() {
        let m = vec![Message {
            role: Role::User,
            parts: vec![Part::Image(ImageRef::DemoVideo { clip: 0 })],
        }];
        let video = |_: &ImageRef| Ok(EncodedImage::from_bytes("video/webm", b"webm"));
        let b = request_body(Provider::Gemini, &sampling(), &m, video).unwrap();
        assert_eq!(
            b["contents"][0]["parts"][0]["inline_data"]["mime_type"],
            "video/webm"
        );
        let e = request_body(Provider::OpenAi, &sampling(), &m, video).unwrap_err();
        assert!(e.contains("does not take video"), "{e}");
        assert!(Provider::Gemini.takes_video() && !Provider::Anthropic.takes_video());
    }
}
