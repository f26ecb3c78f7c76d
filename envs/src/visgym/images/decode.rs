//! Pictures decoded as the reference's `Image.open(path).convert('RGB')` (Pillow) or
//! `cv2.imread` would: PNG exactly (`render::png`; alpha dropped, grey replicated), JPEG
//! by zune-jpeg on its portable path (the same pixels natively and in wasm; within a few
//! levels of libjpeg-turbo, docs/visgym.md "Image sets"). Other formats the listings take
//! (BMP, TIFF) are refused with a clear error when their turn comes.

use zune_jpeg::zune_core::bytestream::ZCursor;
use zune_jpeg::zune_core::colorspace::ColorSpace;
use zune_jpeg::zune_core::options::DecoderOptions;
use zune_jpeg::JpegDecoder;

use super::ImageFile;
use crate::render::png::decode_png;

/// The most pixels a picture may have (Pillow's own decompression-bomb limit is 89.5 M;
/// a browser tab has less to spare).
const MAX_PIXELS: usize = 1 << 25;

/// An 8-bit RGB picture, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgbImage {
    pub width: u32,
    pub height: u32,
    pub data: Vec<u8>,
}

impl RgbImage {
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let i = (y as usize * self.width as usize + x as usize) * 3;
        [self.data[i], self.data[i + 1], self.data[i + 2]]
    }
}

/// Decodes a file of a set; the error names the file and what is wrong.
pub fn decode_rgb(file: &ImageFile) -> Result<RgbImage, String> {
    let fail = |why: String| format!("cannot read {}: {why}", file.path);
    let bytes = file.read().map_err(fail)?;
    let bytes = &bytes[..];
    if bytes.starts_with(&[0x89, b'P', b'N', b'G']) {
        let png = decode_png(bytes).map_err(fail)?;
        let data = png
            .rgba
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        return Ok(RgbImage {
            width: png.width,
            height: png.height,
            data,
        });
    }
    if bytes.starts_with(&[0xff, 0xd8]) {
        return decode_jpeg(bytes).map_err(fail);
    }
    let kind = if bytes.starts_with(b"BM") {
        "BMP files are not supported"
    } else if bytes.starts_with(b"II*\0") || bytes.starts_with(b"MM\0*") {
        "TIFF files are not supported"
    } else {
        "not a PNG or JPEG file"
    };
    Err(fail(format!("{kind} (PNG and JPEG are)")))
}

fn decode_jpeg(bytes: &[u8]) -> Result<RgbImage, String> {
    let options = DecoderOptions::default()
        .set_use_unsafe(false)
        .set_max_width(1 << 14)
        .set_max_height(1 << 14)
        .jpeg_set_out_colorspace(ColorSpace::RGB);
    let mut decoder = JpegDecoder::new_with_options(ZCursor::new(bytes), options);
    decoder.decode_headers().map_err(|e| e.to_string())?;
    let (w, h) = decoder
        .dimensions()
        .ok_or("no image size in the JPEG header")?;
    if w * h > MAX_PIXELS {
        return Err(format!("{w}x{h} pixels is too large"));
    }
    let data = decoder.decode().map_err(|e| e.to_string())?;
    if data.len() != w * h * 3 {
        return Err(format!("decoded {} bytes for {w}x{h} RGB", data.len()));
    }
    Ok(RgbImage {
        width: w as u32,
        height: h as u32,
        data,
    })
}
