//! One request at a time to a judging model — the trajectory auditor's and the
//! milestone judge's (`docs/audit.md`, `docs/judge.md`): the request with its images
//! encoded once, the answer read, transport failures retried as model runs retry them
//! (`docs/vical-protocol.md`, "Retries and backoff"), usage and the last error kept.
//! Pure: the caller sends and sleeps.

use std::collections::HashMap;

use envs::Frame;
use serde_json::{Map, Value};

use super::endpoint::{redact, Endpoint, HttpRequest};
use super::prompt::{ImageRef, Message};
use super::providers::{ApiError, EncodedImage, ErrorKind};
use super::retry::{backoff_ms, MAX_TRANSPORT_RETRIES};
use crate::encode::FrameEncoder;
use crate::results::Usage;

/// What an answer means for the request in flight.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The model's reply.
    Reply(String),
    /// A transport failure worth retrying: send the request again after
    /// [`Transport::wait_ms`].
    Retry,
    /// A failure retrying cannot fix, or the last retry failed (redacted).
    Failed(String),
}

/// An endpoint's requests, one in flight at a time.
pub struct Transport {
    endpoint: Endpoint,
    usage: Usage,
    requests_sent: u32,
    last_error: Option<ApiError>,
    transport_retries: u32,
    wait_ms: u64,
}

impl Transport {
    pub fn new(endpoint: Endpoint) -> Self {
        Self {
            endpoint,
            usage: Usage::default(),
            requests_sent: 0,
            last_error: None,
            transport_retries: 0,
            wait_ms: 0,
        }
    }

    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// The endpoint's settings as files record them: provider, base URL, model,
    /// temperature and token limit (never keys).
    pub fn settings(&self) -> Map<String, Value> {
        let e = &self.endpoint;
        let mut settings = Map::new();
        settings.insert("provider".into(), e.provider.name().into());
        settings.insert("base_url".into(), e.base_url.clone().into());
        settings.insert("model".into(), e.sampling.model.clone().into());
        if let Some(t) = e.sampling.temperature {
            settings.insert("temperature".into(), t.into());
        }
        if let Some(n) = e.sampling.max_output_tokens {
            settings.insert("max_tokens".into(), n.into());
        }
        settings
    }

    pub fn usage(&self) -> &Usage {
        &self.usage
    }

    pub fn last_error(&self) -> Option<&ApiError> {
        self.last_error.as_ref()
    }

    /// Requests handed out so far (retries included).
    pub fn requests_sent(&self) -> u32 {
        self.requests_sent
    }

    /// Transport retries of the request in flight so far.
    pub fn transport_retries(&self) -> u32 {
        self.transport_retries
    }

    /// How long to wait before sending the request in flight.
    pub fn wait_ms(&self) -> u64 {
        self.wait_ms
    }

    /// Starts a new request: its retry count and wait are reset.
    pub fn begin(&mut self) {
        self.transport_retries = 0;
        self.wait_ms = 0;
    }

    /// The HTTP request for `messages`, encoding the images `images` lacks from
    /// `frame` (each image is encoded once, then reused).
    pub fn request<'a>(
        &mut self,
        messages: &[Message],
        images: &mut HashMap<ImageRef, EncodedImage>,
        frame: impl Fn(&ImageRef) -> Option<&'a Frame>,
        enc: &mut dyn FrameEncoder,
        api_key: Option<&str>,
    ) -> Result<HttpRequest, ApiError> {
        for r in messages.iter().flat_map(Message::images) {
            if images.contains_key(r) {
                continue;
            }
            let f = frame(r).ok_or_else(|| {
                ApiError::new(
                    ErrorKind::BadResponse,
                    format!("image {r:?} is not available"),
                )
            })?;
            let img = enc.encode(f).map_err(|e| {
                ApiError::new(ErrorKind::BadResponse, format!("encoding a frame: {e}"))
            })?;
            images.insert(*r, img);
        }
        let key = api_key.map(str::trim).filter(|k| !k.is_empty());
        let request = self.endpoint.request(key, messages, |r| {
            images
                .get(r)
                .cloned()
                .ok_or_else(|| format!("image {r:?} is not available"))
        })?;
        self.requests_sent += 1;
        Ok(request)
    }

    /// An HTTP answer to the request in flight; `retry_after` is the raw
    /// `Retry-After` header, `now_unix_s` the current time (for HTTP-date values).
    pub fn on_response(
        &mut self,
        status: u16,
        retry_after: Option<&str>,
        now_unix_s: u64,
        body: &str,
        latency_ms: f64,
        api_key: Option<&str>,
    ) -> Outcome {
        self.usage.count_request(latency_ms);
        match self
            .endpoint
            .response(status, retry_after, now_unix_s, body)
        {
            Ok(answer) => {
                self.usage.count_tokens(answer.usage);
                self.begin();
                Outcome::Reply(answer.text)
            }
            Err(e) => self.on_error(e, api_key),
        }
    }

    /// The request failed without an HTTP answer (network, CORS, timeout).
    pub fn on_network_error(
        &mut self,
        message: &str,
        latency_ms: f64,
        api_key: Option<&str>,
    ) -> Outcome {
        self.usage.count_request(latency_ms);
        self.on_error(ApiError::new(ErrorKind::Transport, message), api_key)
    }

    fn on_error(&mut self, mut e: ApiError, api_key: Option<&str>) -> Outcome {
        e.message = redact(&e.message, api_key);
        self.last_error = Some(e.clone());
        if e.kind.is_retryable() && self.transport_retries < MAX_TRANSPORT_RETRIES {
            self.transport_retries += 1;
            let after = match e.kind {
                ErrorKind::RateLimited { retry_after_s } => retry_after_s,
                _ => None,
            };
            self.wait_ms = backoff_ms(self.transport_retries, after);
            return Outcome::Retry;
        }
        self.begin();
        Outcome::Failed(e.message)
    }
}

/// The answer methods of a conversation that sends through a `transport` field and
/// settles each [`Outcome`] in its own `on_outcome`: `on_response` for an HTTP answer
/// (`retry_after` the raw `Retry-After` header, `now_unix_s` the current time) and
/// `on_network_error` for none.
#[macro_export]
macro_rules! answer_through_transport {
    () => {
        /// An HTTP answer to the last request; `retry_after` is the raw `Retry-After`
        /// header, `now_unix_s` the current time (for HTTP-date values).
        pub fn on_response(
            &mut self,
            status: u16,
            retry_after: Option<&str>,
            now_unix_s: u64,
            body: &str,
            latency_ms: f64,
            api_key: Option<&str>,
        ) {
            let outcome = self.transport.on_response(
                status,
                retry_after,
                now_unix_s,
                body,
                latency_ms,
                api_key,
            );
            self.on_outcome(outcome);
        }

        /// The request failed without an HTTP answer (network, CORS, timeout).
        pub fn on_network_error(&mut self, message: &str, latency_ms: f64, api_key: Option<&str>) {
            let outcome = self
                .transport
                .on_network_error(message, latency_ms, api_key);
            self.on_outcome(outcome);
        }
    };
}
