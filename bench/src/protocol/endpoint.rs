//! One model endpoint as data: what to send (URL, headers, JSON body) for a
//! conversation, and what an HTTP answer means (reply text and token use, or a
//! classified error). The browser's `fetch` and the command line's HTTP client are the
//! only code that differs between the two.

use serde::{Deserialize, Serialize};

use super::body_text::request_body_text;
use super::prompt::{ImageRef, Message};
use super::providers::{
    classify_error, extract_reply, extract_usage, ApiError, EncodedImage, ErrorKind, Provider,
    Sampling,
};
use super::retry::parse_retry_after;

/// Where and how to ask one model (everything but the key, which the caller holds).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Endpoint {
    pub provider: Provider,
    pub base_url: String,
    pub sampling: Sampling,
    /// Extra request headers (e.g. OpenRouter's `HTTP-Referer`).
    #[serde(default)]
    pub headers: Vec<(String, String)>,
}

/// A request ready to send: always `POST` with a JSON body.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpRequest {
    pub url: String,
    /// Content type, auth and the extra headers.
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// Bytes of encoded images in the body (before base64).
    pub image_bytes: usize,
    pub images: usize,
}

/// A successful answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub text: String,
    /// (input, output) tokens, when the provider reported them.
    pub usage: Option<(u64, u64)>,
}

impl Endpoint {
    /// The request for `messages`; `resolve` encodes each referenced image.
    pub fn request<F>(
        &self,
        api_key: Option<&str>,
        messages: &[Message],
        mut resolve: F,
    ) -> Result<HttpRequest, ApiError>
    where
        F: FnMut(&ImageRef) -> Result<EncodedImage, String>,
    {
        let (mut image_bytes, mut images) = (0, 0);
        let body = request_body_text(self.provider, &self.sampling, messages, |r| {
            let img = resolve(r)?;
            image_bytes += img.byte_len();
            images += 1;
            Ok(img)
        })
        .map_err(|e| ApiError::new(ErrorKind::BadResponse, e))?;
        let mut headers = vec![("Content-Type".to_string(), "application/json".to_string())];
        headers.extend(
            self.provider
                .auth_headers(api_key.filter(|k| !k.is_empty())),
        );
        headers.extend(self.headers.iter().cloned());
        Ok(HttpRequest {
            url: self.provider.url(&self.base_url, &self.sampling.model),
            headers,
            body,
            image_bytes,
            images,
        })
    }

    /// Reads an HTTP answer: `retry_after` is the raw `Retry-After` header, `now_unix_s`
    /// the current time (for HTTP-date values).
    pub fn response(
        &self,
        status: u16,
        retry_after: Option<&str>,
        now_unix_s: u64,
        body: &str,
    ) -> Result<Answer, ApiError> {
        if body.len() > MAX_ANSWER_BYTES {
            return Err(ApiError::new(ErrorKind::Transport, answer_too_large()));
        }
        if (200..300).contains(&status) {
            let text = extract_reply(self.provider, body)?;
            Ok(Answer {
                text,
                usage: extract_usage(self.provider, body),
            })
        } else {
            let after = retry_after.and_then(|v| parse_retry_after(v, now_unix_s));
            Err(classify_error(self.provider, status, body, after))
        }
    }
}

/// The largest answer read: a model's reply (a few kilobytes of text and a usage
/// count) is far smaller; a larger body is a wrong URL or a broken server, and reading
/// it whole would only fill memory.
pub const MAX_ANSWER_BYTES: usize = 8 << 20;

/// The error for an answer over [`MAX_ANSWER_BYTES`] (the front ends stop reading there).
pub fn answer_too_large() -> String {
    format!(
        "the answer is larger than {} MB, which no model reply is: refused",
        MAX_ANSWER_BYTES >> 20
    )
}

/// `text` with `secret` blotted out (servers may echo the key in error messages).
pub fn redact(text: &str, secret: Option<&str>) -> String {
    match secret {
        Some(k) if !k.is_empty() => text.replace(k, "***"),
        _ => text.to_string(),
    }
}

/// What a run costs: prices in US dollars per million input and output tokens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Prices {
    pub input_per_million: Option<f64>,
    pub output_per_million: Option<f64>,
}

impl Prices {
    /// The cost of `input` and `output` tokens, when any price is set.
    pub fn cost(&self, input: u64, output: u64) -> Option<f64> {
        if self.input_per_million.is_none() && self.output_per_million.is_none() {
            return None;
        }
        Some(
            self.input_per_million.unwrap_or(0.0) * input as f64 / 1e6
                + self.output_per_million.unwrap_or(0.0) * output as f64 / 1e6,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::prompt::{Part, Role};

    fn endpoint(provider: Provider) -> Endpoint {
        Endpoint {
            provider,
            base_url: "http://h/v1/".into(),
            sampling: Sampling {
                model: "m".into(),
                temperature: None,
                max_output_tokens: None,
            },
            headers: vec![("X-Extra".into(), "1".into())],
        }
    }

    #[test]
    fn requests_carry_auth_extra_headers_and_image_sizes() {
        let msg = Message {
            role: Role::User,
            parts: vec![
                Part::Text("hi".into()),
                Part::Image(ImageRef::Current { step: 0 }),
            ],
        };
        let r = endpoint(Provider::OpenAi)
            .request(Some("k"), std::slice::from_ref(&msg), |_| {
                Ok(EncodedImage::from_bytes("image/jpeg", &[1, 2, 3]))
            })
            .unwrap();
        assert_eq!(r.url, "http://h/v1/chat/completions");
        assert!(r
            .headers
            .contains(&("Authorization".into(), "Bearer k".into())));
        assert!(r.headers.contains(&("X-Extra".into(), "1".into())));
        assert_eq!((r.images, r.image_bytes), (1, 3));
        assert!(r.body.contains("data:image/jpeg;base64,AQID"));
        // An empty key is no key.
        let r = endpoint(Provider::OpenAi)
            .request(Some(""), std::slice::from_ref(&msg), |_| {
                Ok(EncodedImage::from_bytes("image/png", &[]))
            })
            .unwrap();
        assert!(!r.headers.iter().any(|(n, _)| n == "Authorization"));
        let e = endpoint(Provider::OpenAi)
            .request(None, &[msg], |_| Err("no frame".into()))
            .unwrap_err();
        assert!(e.message.contains("no frame"));
    }

    #[test]
    fn responses_become_answers_or_classified_errors() {
        let e = endpoint(Provider::Anthropic);
        let ok = r#"{"content":[{"type":"text","text":"[Action: Up]"}],"usage":{"input_tokens":9,"output_tokens":4}}"#;
        assert_eq!(
            e.response(200, None, 0, ok).unwrap(),
            Answer {
                text: "[Action: Up]".into(),
                usage: Some((9, 4))
            }
        );
        let err = e.response(429, Some("7"), 0, "{}").unwrap_err();
        assert_eq!(
            err.kind,
            ErrorKind::RateLimited {
                retry_after_s: Some(7)
            }
        );
        assert_eq!(
            e.response(200, None, 0, "<html>").unwrap_err().kind,
            ErrorKind::BadResponse
        );
        // Cut short or far too large: a transport failure, retried, said as such.
        let cut = e.response(200, None, 0, &ok[..30]).unwrap_err();
        assert_eq!(cut.kind, ErrorKind::Transport);
        assert!(cut.message.contains("broke off after 30 bytes"), "{cut:?}");
        let huge = format!("{}{}", " ".repeat(MAX_ANSWER_BYTES), ok);
        let err = e.response(200, None, 0, &huge).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Transport);
        assert!(err.message.contains("larger than 8 MB"), "{err:?}");
    }

    #[test]
    fn keys_are_redacted_and_costs_priced() {
        assert_eq!(
            redact("bad key sk-1 given", Some("sk-1")),
            "bad key *** given"
        );
        assert_eq!(redact("x", Some("")), "x");
        let p = Prices {
            input_per_million: Some(2.0),
            output_per_million: Some(10.0),
        };
        assert_eq!(p.cost(1_000_000, 100_000), Some(3.0));
        assert_eq!(Prices::default().cost(5, 5), None);
    }
}
