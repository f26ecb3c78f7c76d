//! Frames as a WebM video (`docs/video.md`), for the model APIs that take video: each
//! frame converted to 4:2:0 YUV (`yuv`), coded as a VP8 key frame (`vp8`) and muxed into
//! WebM (`webm`). Pure Rust without IO, clock or floating-point library calls, so the
//! command line and every browser send the same bytes for the same frames.

mod bool_encoder;
mod transform;
pub mod vp8;
mod vp8_tables;
pub mod webm;
pub mod yuv;

use envs::Frame;
use serde::{Deserialize, Serialize};

use crate::protocol::providers::EncodedImage;

pub const WEBM_MIME: &str = "video/webm";

/// The VP8 quantizer index we code at (0 finest, 127 coarsest): fine enough that a
/// game's text and marks stay sharp (`docs/video.md` gives the PSNR it reaches).
pub const QUANTIZER: u8 = 20;

/// The largest side VP8 codes (14 bits).
const MAX_SIDE: u32 = 16_383;

/// When frame `i` of a clip at `fps` frames per second is shown, in milliseconds
/// (rounded to the nearest).
pub fn timecode_ms(i: usize, fps: f64) -> u64 {
    (i as f64 * 1000.0 / fps).round() as u64
}

/// `frames` (all of one size) as a WebM video at `fps` frames per second, coded at
/// quantizer index `quantizer`.
pub fn encode_webm_at(frames: &[Frame], fps: f64, quantizer: u8) -> Result<Vec<u8>, String> {
    let first = frames.first().ok_or("a video needs at least one frame")?;
    if !(fps.is_finite() && fps > 0.0 && fps <= 1000.0) {
        return Err(format!(
            "a video's frame rate must be between 0 and 1000 per second, not {fps}"
        ));
    }
    let (w, h) = (first.width(), first.height());
    if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
        return Err(format!(
            "VP8 codes frames of 1 to {MAX_SIDE} pixels a side, not {w}×{h}"
        ));
    }
    if let Some((i, f)) = frames
        .iter()
        .enumerate()
        .find(|(_, f)| (f.width(), f.height()) != (w, h))
    {
        return Err(format!(
            "the video's frames differ in size: frame {} is {}×{}, frame 1 {w}×{h}",
            i + 1,
            f.width(),
            f.height()
        ));
    }
    let coded: Vec<Vec<u8>> = frames
        .iter()
        .map(|f| vp8::encode_key_frame(&yuv::Yuv420::from_frame(f), w, h, quantizer))
        .collect();
    let timecodes: Vec<u64> = (0..frames.len()).map(|i| timecode_ms(i, fps)).collect();
    let duration = frames.len() as f64 * 1000.0 / fps;
    Ok(webm::mux(w, h, &coded, &timecodes, duration))
}

/// `frames` as a WebM video at `fps` frames per second ([`QUANTIZER`]).
pub fn encode_webm(frames: &[Frame], fps: f64) -> Result<Vec<u8>, String> {
    encode_webm_at(frames, fps, QUANTIZER)
}

/// `frames` as a WebM video, ready for a request.
pub fn webm_video(frames: &[Frame], fps: f64) -> Result<EncodedImage, String> {
    Ok(EncodedImage::from_bytes(
        WEBM_MIME,
        &encode_webm(frames, fps)?,
    ))
}

/// A video a request carried, as records keep it: its type, frames and rate (the bytes
/// follow from the frames: the encoder is deterministic).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VideoSent {
    pub mime: String,
    pub frames: usize,
    pub fps: f64,
}

impl VideoSent {
    /// A WebM of `frames` frames at `fps`.
    pub fn webm(frames: usize, fps: f64) -> Self {
        Self {
            mime: WEBM_MIME.to_string(),
            frames,
            fps,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
