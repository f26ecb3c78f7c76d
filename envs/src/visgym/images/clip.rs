//! Video clips for Video Unshuffle: AVI files of PNG frames (fourcc `MPNG`), the
//! lossless form the bundled clips take (scripts/visgym-scenes/build.py). OpenCV's FFmpeg
//! reads them frame for frame whatever the file is named (the reference opens
//! `<id>.webm`), so both sides see the same pixels. Other codecs (the VP8/VP9 WebM of
//! Something-Something v2) are recognised and refused with a clear error.

use std::ops::Range;
use std::sync::Arc;

use super::RgbImage;
use crate::render::png::decode_png;

/// A clip: its bytes and where each video frame's data lies, in stream order.
#[derive(Clone, Debug)]
pub struct Clip {
    bytes: Arc<[u8]>,
    frames: Vec<Range<usize>>,
}

/// Why a file is not a clip: `Unsupported` for a video we recognise but do not decode,
/// `Unreadable` where OpenCV would fail to open it too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClipError {
    Unsupported(String),
    Unreadable(String),
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

impl Clip {
    /// Reads the AVI container: every `00dc`/`00db` chunk of the `movi` list is a frame.
    pub fn read(bytes: Arc<[u8]>) -> Result<Clip, ClipError> {
        let b = &bytes[..];
        if b.starts_with(&[0x1a, 0x45, 0xdf, 0xa3]) {
            return Err(ClipError::Unsupported(
                "a WebM/Matroska video (VP8/VP9 are not decoded here; give the clips as AVI files of PNG frames, see docs/visgym.md)".into(),
            ));
        }
        if b.len() < 12 || &b[0..4] != b"RIFF" || &b[8..12] != b"AVI " {
            return Err(ClipError::Unreadable("not an AVI file".into()));
        }
        let end = (8 + u32_at(b, 4).unwrap_or(0) as usize).min(b.len());
        let mut at = 12;
        let mut frames = Vec::new();
        let mut codec = None;
        while at + 8 <= end {
            let tag = &b[at..at + 4];
            let size = u32_at(b, at + 4).unwrap_or(0) as usize;
            let body = at + 8..(at + 8 + size).min(end);
            if tag == b"LIST" && b.get(body.start..body.start + 4) == Some(b"hdrl") {
                codec = find_codec(&b[body.clone()]);
            }
            if tag == b"LIST" && b.get(body.start..body.start + 4) == Some(b"movi") {
                let mut c = body.start + 4;
                while c + 8 <= body.end {
                    let t = &b[c..c + 4];
                    let s = u32_at(b, c + 4).unwrap_or(0) as usize;
                    let data = c + 8..(c + 8 + s).min(body.end);
                    if t == b"00dc" || t == b"00db" {
                        frames.push(data);
                    }
                    c += 8 + s + (s & 1);
                }
            }
            at += 8 + size + (size & 1);
        }
        match codec.as_deref() {
            Some(b"MPNG") | Some(b"png ") | Some(b"PNG1") => {}
            Some(other) => {
                return Err(ClipError::Unsupported(format!(
                    "an AVI of codec {:?} (only PNG frames are decoded here)",
                    String::from_utf8_lossy(other)
                )))
            }
            None => {
                return Err(ClipError::Unreadable(
                    "an AVI without a video stream".into(),
                ))
            }
        }
        Ok(Clip { bytes, frames })
    }

    /// `CAP_PROP_FRAME_COUNT`.
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// Frame `i` as RGB (`None` where OpenCV's `read()` fails: no such frame, or a frame
    /// that does not decode).
    pub fn frame(&self, i: usize) -> Option<RgbImage> {
        let png = decode_png(&self.bytes[self.frames.get(i)?.clone()]).ok()?;
        let data = png
            .rgba
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        Some(RgbImage {
            width: png.width,
            height: png.height,
            data,
        })
    }
}

/// The video stream's handler (`strh` of type `vids`) in a `hdrl` list.
fn find_codec(hdrl: &[u8]) -> Option<Vec<u8>> {
    let mut at = 4;
    while at + 8 <= hdrl.len() {
        let tag = &hdrl[at..at + 4];
        let size = u32_at(hdrl, at + 4)? as usize;
        let body = at + 8..(at + 8 + size).min(hdrl.len());
        if tag == b"LIST" {
            if let Some(c) = find_codec(&hdrl[body.clone()]) {
                return Some(c);
            }
        }
        if tag == b"strh" && hdrl.get(body.start..body.start + 4) == Some(b"vids") {
            return hdrl.get(body.start + 4..body.start + 8).map(<[u8]>::to_vec);
        }
        at += 8 + size + (size & 1);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn webm_and_garbage_are_told_apart() {
        let webm: Arc<[u8]> = Arc::from(&[0x1a, 0x45, 0xdf, 0xa3, 0, 0][..]);
        assert!(matches!(Clip::read(webm), Err(ClipError::Unsupported(_))));
        let junk: Arc<[u8]> = Arc::from(&b"hello"[..]);
        assert!(matches!(Clip::read(junk), Err(ClipError::Unreadable(_))));
    }
}
