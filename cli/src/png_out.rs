//! Writing frames as PNG files, with the encoder of record (`bench::encode`).

use std::path::Path;

use bench::encode::{ImageEncoder, ImageSettings};
use envs::Frame;

pub fn write_png(path: &Path, frame: &Frame) -> Result<(), String> {
    let mut encoder = ImageEncoder::new(ImageSettings::default());
    let bytes = encoder.encode_bytes(frame)?;
    std::fs::write(path, bytes).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_png_decodes_to_the_frame() {
        let mut f = Frame::new(3, 2);
        f.data_mut()[4] = 200;
        let path = std::env::temp_dir().join(format!("playbench-png-{}.png", std::process::id()));
        write_png(&path, &f).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let mut reader = png::Decoder::new(bytes.as_slice()).read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (3, 2));
        assert_eq!(&buf[..info.buffer_size()], f.data());
    }
}
