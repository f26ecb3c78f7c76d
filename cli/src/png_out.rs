//! Writing frames as PNG files.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use envs::Frame;

pub fn write_png(path: &Path, frame: &Frame) -> Result<(), String> {
    let file = File::create(path).map_err(|e| e.to_string())?;
    let mut encoder = png::Encoder::new(BufWriter::new(file), frame.width(), frame.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer
        .write_image_data(frame.data())
        .map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())
}
