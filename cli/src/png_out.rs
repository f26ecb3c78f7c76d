//! Writing frames as PNG files.

use std::path::Path;

use envs::Frame;

pub fn write_png(path: &Path, frame: &Frame) -> Result<(), String> {
    std::fs::write(path, encode_png(frame)?).map_err(|e| e.to_string())
}

/// The frame as PNG bytes in memory (images sent to model endpoints).
pub fn encode_png(frame: &Frame) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, frame.width(), frame.height());
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
        writer
            .write_image_data(frame.data())
            .map_err(|e| e.to_string())?;
        writer.finish().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoded_png_decodes_to_the_frame() {
        let mut f = Frame::new(3, 2);
        f.data_mut()[4] = 200;
        let bytes = encode_png(&f).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        let mut reader = png::Decoder::new(bytes.as_slice()).read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (3, 2));
        assert_eq!(&buf[..info.buffer_size()], f.data());
    }
}
