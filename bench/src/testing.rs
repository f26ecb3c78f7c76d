//! What tests across the crate share: an image encoder that needs no codec, an
//! OpenAI-style endpoint and its reply bodies.

use envs::Frame;

use crate::encode::FrameEncoder;
use crate::protocol::endpoint::{Endpoint, HttpRequest};
use crate::protocol::providers::{EncodedImage, Provider, Sampling};

/// Encodes a frame as two bytes of its size (requests carry it; nothing decodes it).
pub struct FakeEncoder;

impl FrameEncoder for FakeEncoder {
    fn encode(&mut self, f: &Frame) -> Result<EncodedImage, String> {
        Ok(EncodedImage::from_bytes(
            "image/png",
            &[(f.width() % 251) as u8, (f.height() % 251) as u8],
        ))
    }
}

/// An OpenAI-compatible endpoint for `model`.
pub fn endpoint(model: &str) -> Endpoint {
    Endpoint {
        provider: Provider::OpenAi,
        base_url: "http://x/v1".into(),
        sampling: Sampling {
            model: model.into(),
            temperature: Some(0.0),
            max_output_tokens: None,
        },
        headers: vec![],
    }
}

/// A successful reply body with `text`.
pub fn ok(text: &str) -> String {
    serde_json::json!({"choices": [{"message": {"content": text}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 3}})
    .to_string()
}

/// A request's JSON body.
pub fn body(r: &HttpRequest) -> serde_json::Value {
    serde_json::from_str(&r.body).unwrap_or_default()
}
