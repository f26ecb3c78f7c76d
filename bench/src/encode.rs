//! Frames as the images models see: PNG or JPEG at a quality and a scale, encoded in
//! Rust so the command line and every browser send byte-identical images for the same
//! settings (a canvas's JPEG differs from browser to browser).

use serde::{Deserialize, Serialize};

use crate::protocol::providers::EncodedImage;
use crate::protocol::session::Protocol;
use crate::{EpisodeRunner, Task};
use envs::Frame;

mod jpeg;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ImageFormat {
    #[default]
    Png,
    Jpeg,
}

impl ImageFormat {
    pub fn mime(self) -> &'static str {
        match self {
            Self::Png => "image/png",
            Self::Jpeg => "image/jpeg",
        }
    }
}

/// How frames become images in requests.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ImageSettings {
    pub format: ImageFormat,
    /// JPEG quality, 0.1-1.
    pub quality: f64,
    /// Frames are resized by this factor (nearest neighbour keeps cells crisp).
    pub scale: f64,
}

impl Default for ImageSettings {
    fn default() -> Self {
        Self {
            format: ImageFormat::Png,
            quality: 0.85,
            scale: 1.0,
        }
    }
}

impl ImageSettings {
    /// Names the encoding (for caches of encoded frames).
    pub fn key(&self) -> String {
        format!("{:?}:{}:{}", self.format, self.quality, self.scale)
    }

    /// The scaled size of a `w`×`h` frame (at least one pixel).
    pub fn scaled(&self, w: u32, h: u32) -> (u32, u32) {
        let s = self.scale.clamp(0.1, 4.0);
        let f = |v: u32| ((f64::from(v) * s).round() as u32).max(1);
        (f(w), f(h))
    }

    /// JPEG quality as the encoder takes it, 1-100.
    fn jpeg_quality(&self) -> u8 {
        (self.quality.clamp(0.01, 1.0) * 100.0).round() as u8
    }
}

/// Turns a frame into image bytes.
pub trait FrameEncoder {
    fn encode(&mut self, frame: &Frame) -> Result<EncodedImage, String>;
}

/// The encoder of record: the same bytes natively and in every browser.
pub struct ImageEncoder {
    settings: ImageSettings,
    /// Frames whose longer side exceeds this are shrunk with Pillow's Lanczos filter
    /// (instead of `settings.scale`).
    max_long_side: Option<u32>,
    /// The scaled RGB pixels, reused from frame to frame.
    scaled: Vec<u8>,
    shrunk: Frame,
    resizer: crate::lanczos::Resizer,
    jpeg: jpeg::JpegEncoder,
    out: Vec<u8>,
}

/// The longer side VisGym's harness shrinks frames to (`--max-long-side`).
pub const VISGYM_MAX_LONG_SIDE: u32 = 336;

impl ImageEncoder {
    pub fn new(settings: ImageSettings) -> Self {
        Self {
            settings,
            max_long_side: None,
            scaled: Vec::new(),
            shrunk: Frame::default(),
            resizer: crate::lanczos::Resizer::default(),
            jpeg: jpeg::JpegEncoder::default(),
            out: Vec::new(),
        }
    }

    /// Shrinks frames longer than `max` pixels on a side as VisGym's harness does
    /// (`crate::lanczos`).
    pub fn shrinking_to(mut self, max: u32) -> Self {
        self.max_long_side = Some(max);
        self
    }

    /// VisGym's harness: frames shrunk to at most 336 pixels on the longer side with
    /// Pillow's Lanczos filter, then JPEG at Pillow's default quality, 75.
    pub fn visgym() -> Self {
        Self::new(ImageSettings {
            format: ImageFormat::Jpeg,
            quality: 0.75,
            scale: 1.0,
        })
        .shrinking_to(VISGYM_MAX_LONG_SIDE)
    }

    /// The encoder a run of `protocol` sends its frames through: V-ICAL's as the user
    /// set it (`image`), VisGym's harness's, GameVerse's PNG at the frame's own size.
    pub fn for_protocol(protocol: Protocol, image: ImageSettings) -> Self {
        match protocol {
            Protocol::Vical => Self::new(image),
            Protocol::Visgym => Self::visgym(),
            Protocol::Gameverse => Self::new(ImageSettings::default()),
        }
    }

    pub fn settings(&self) -> ImageSettings {
        self.settings
    }

    /// The size a `w`×`h` frame is sent at.
    pub fn sent_size(&self, w: u32, h: u32) -> (u32, u32) {
        match self.max_long_side {
            Some(max) => crate::lanczos::shrunk_size(w, h, max),
            None => self.settings.scaled(w, h),
        }
    }

    /// The frame's bytes in the chosen format (without the base64 wrapping).
    pub fn encode_bytes(&mut self, frame: &Frame) -> Result<&[u8], String> {
        use image::ImageEncoder as _;
        let (w, h) = (frame.width(), frame.height());
        if w == 0 || h == 0 {
            return Err("the frame is empty".into());
        }
        let (tw, th) = self.sent_size(w, h);
        let pixels: &[u8] = if (tw, th) == (w, h) {
            frame.data()
        } else if self.max_long_side.is_some() {
            self.shrunk = self.resizer.resize(frame, tw, th);
            self.shrunk.data()
        } else {
            scale_nearest(frame, tw, th, &mut self.scaled);
            &self.scaled
        };
        self.out.clear();
        let failed = |e: &dyn std::fmt::Display| format!("encoding a {tw}×{th} frame: {e}");
        match self.settings.format {
            // Zlib level 1 over the Up filter: in Chromium a fifth of the time of the
            // default (fdeflate over the adaptive filter, which tries all five filters per
            // row), files within a fifth of its size (Taxi's a fifth smaller); issue 17's 5 ms
            // per request, docs/environments.md "Model turns".
            ImageFormat::Png => image::codecs::png::PngEncoder::new_with_quality(
                &mut self.out,
                image::codecs::png::CompressionType::Level(1),
                image::codecs::png::FilterType::Up,
            )
            .write_image(pixels, tw, th, image::ExtendedColorType::Rgb8)
            .map_err(|e| failed(&e))?,
            ImageFormat::Jpeg => {
                let (Ok(w16), Ok(h16)) = (u16::try_from(tw), u16::try_from(th)) else {
                    return Err(failed(&"JPEG takes at most 65,535 pixels a side"));
                };
                // Chroma at half resolution both ways at every quality, as Pillow saves.
                self.jpeg
                    .encode(
                        &mut self.out,
                        pixels,
                        w16,
                        h16,
                        self.settings.jpeg_quality(),
                    )
                    .map_err(|e| failed(&e))?
            }
        }
        Ok(&self.out)
    }
}

impl FrameEncoder for ImageEncoder {
    fn encode(&mut self, frame: &Frame) -> Result<EncodedImage, String> {
        let mime = self.settings.format.mime();
        let bytes = self.encode_bytes(frame)?;
        Ok(EncodedImage::from_bytes(mime, bytes))
    }
}

/// What the model will see first: the task's first frame, and that frame as the run
/// sends it.
pub struct FirstImage {
    pub frame: Frame,
    pub image: EncodedImage,
    /// The image's size as sent.
    pub size: (u32, u32),
}

/// The run page's work before Start (`app/src/pages/run.rs`, `app/src/runner/estimate.rs`):
/// it shows the task's first frame and sizes its estimate by that frame encoded as a run
/// of `protocol` with `image` encodes it. A run therefore starts with the family's art
/// drawn and the encoder used once, and `bench --turns` opens its cases with this call.
pub fn first_image(
    task: &Task,
    protocol: Protocol,
    image: ImageSettings,
) -> Result<FirstImage, String> {
    let runner = EpisodeRunner::start(task).map_err(|e| e.to_string())?;
    let mut frame = Frame::default();
    runner.env().render(&mut frame);
    let mut encoder = ImageEncoder::for_protocol(protocol, image);
    let image = encoder.encode(&frame)?;
    let size = encoder.sent_size(frame.width(), frame.height());
    Ok(FirstImage { frame, image, size })
}

/// Nearest-neighbour resize of an RGB frame into `out` (`tw`×`th`×3).
fn scale_nearest(frame: &Frame, tw: u32, th: u32, out: &mut Vec<u8>) {
    let (w, h) = (frame.width() as usize, frame.height() as usize);
    let (tw, th) = (tw as usize, th as usize);
    let data = frame.data();
    out.clear();
    out.reserve(tw * th * 3);
    for y in 0..th {
        let sy = (y * h / th).min(h - 1);
        for x in 0..tw {
            let sx = (x * w / tw).min(w - 1);
            let i = (sy * w + sx) * 3;
            out.extend_from_slice(&data[i..i + 3]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checkerboard() -> Frame {
        let mut f = Frame::new(40, 30);
        for y in 0..30 {
            for x in 0..40 {
                let c = if (x / 10 + y / 10) % 2 == 0 {
                    [250, 20, 20]
                } else {
                    [10, 10, 200]
                };
                f.set(x, y, c);
            }
        }
        f
    }

    #[test]
    fn png_decodes_to_the_same_pixels_and_scales_by_nearest_neighbour() {
        let f = checkerboard();
        let mut e = ImageEncoder::new(ImageSettings::default());
        let png = e.encode_bytes(&f).unwrap().to_vec();
        let img = image::load_from_memory(&png).unwrap().to_rgb8();
        assert_eq!((img.width(), img.height()), (40, 30));
        assert_eq!(img.as_raw().as_slice(), f.data());
        let mut e = ImageEncoder::new(ImageSettings {
            scale: 2.0,
            ..ImageSettings::default()
        });
        let png = e.encode_bytes(&f).unwrap().to_vec();
        let img = image::load_from_memory(&png).unwrap().to_rgb8();
        assert_eq!((img.width(), img.height()), (80, 60));
        assert_eq!(img.get_pixel(19, 19).0, [250, 20, 20]);
        assert_eq!(img.get_pixel(20, 19).0, [10, 10, 200]);
    }

    #[test]
    fn jpeg_follows_the_quality_and_is_deterministic() {
        let f = checkerboard();
        let jpeg = |q: f64| {
            let mut e = ImageEncoder::new(ImageSettings {
                format: ImageFormat::Jpeg,
                quality: q,
                scale: 1.0,
            });
            e.encode_bytes(&f).unwrap().to_vec()
        };
        let (low, high) = (jpeg(0.2), jpeg(0.95));
        assert!(low.len() < high.len(), "{} vs {}", low.len(), high.len());
        assert_eq!(jpeg(0.2), low);
        let decoded = image::load_from_memory(&high).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (40, 30));
        let mut e = ImageEncoder::new(ImageSettings {
            format: ImageFormat::Jpeg,
            ..ImageSettings::default()
        });
        assert_eq!(e.encode(&f).unwrap().mime, "image/jpeg");
    }

    #[test]
    fn an_empty_frame_is_an_error() {
        let mut e = ImageEncoder::new(ImageSettings::default());
        assert!(e.encode(&Frame::default()).is_err());
    }
}
