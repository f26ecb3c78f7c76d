//! Shared by the auditor's and the judge's tests: a frame encoder that needs no image
//! codec, an OpenAI-compatible endpoint and its successful answer.

use envs::Frame;

use crate::encode::FrameEncoder;
use crate::protocol::endpoint::Endpoint;
use crate::protocol::providers::{EncodedImage, Provider, Sampling};

/// Encodes a frame as two bytes of its size.
pub struct FakeEncoder;

impl FrameEncoder for FakeEncoder {
    fn encode(&mut self, f: &Frame) -> Result<EncodedImage, String> {
        Ok(EncodedImage::from_bytes(
            "image/png",
            &[(f.width() % 251) as u8, (f.height() % 251) as u8],
        ))
    }
}

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

/// An OpenAI answer with `text` and token usage.
pub fn ok(text: &str) -> String {
    serde_json::json!({"choices": [{"message": {"content": text}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 3}})
    .to_string()
}
