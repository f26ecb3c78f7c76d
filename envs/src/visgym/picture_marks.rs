//! What Counting and Referring Dot-Pointing share: a `mark` at normalised coordinates
//! becomes a pixel of the picture, a click becomes such a mark, a dot is OpenCV's filled
//! circle, and a mask's centre is numpy's mean of its pixel coordinates (spec §3.5, §3.6).

use super::cv_circle::{fill_circle, Mask};
use super::images::RgbImage;
use super::numpy_array::leaf_to_f64;
use super::python::PyValue;
use super::signature::{FnSig, Payload};
use super::spaces::ArgSpace;
use crate::core::action::ArgKind;
use crate::core::frame::Frame;
use serde_json::Value;

/// `mark`'s space: `Box([0, 0], [1, 1], (2,), float32)`.
pub fn mark_space() -> ArgSpace {
    ArgSpace::Box {
        low: 0.0,
        high: 1.0,
        shape: vec![2],
    }
}

/// `mark(x, y)` as the interface lists it: two numbers in `[0, 1]`, a tuple payload.
pub fn mark_signature(doc: &str) -> FnSig {
    let unit = || ArgKind::Float { min: 0.0, max: 1.0 };
    FnSig::new("mark", doc, Payload::Tuple, &[("x", unit()), ("y", unit())])
}

/// The pixel a `mark` payload (already inside [`mark_space`]) lands on:
/// `int(np.clip(float(p), 0, 1) * (size - 1))`, truncated as the reference does.
pub fn mark_pixel(payload: &PyValue, width: u32, height: u32) -> (i64, i64) {
    let items: &[PyValue] = match payload {
        PyValue::Tuple(v) | PyValue::List(v) => v,
        _ => &[],
    };
    let coord = |i: usize, size: u32| {
        let v = items
            .get(i)
            .and_then(|x| leaf_to_f64(x).ok().flatten())
            .unwrap_or(0.0);
        (v.clamp(0.0, 1.0) * f64::from(size.max(1) - 1)) as i64
    };
    (coord(0, width), coord(1, height))
}

/// The `mark` that lands on the clicked pixel: its centre, normalised, with digits to
/// spare (a pixel's centre is half a pixel from where truncation would move it).
pub fn click_mark(x: f64, y: f64, width: u32, height: u32) -> Option<String> {
    let inside = x >= 0.0 && y >= 0.0 && x < f64::from(width) && y < f64::from(height);
    if !inside || width < 2 || height < 2 {
        return None;
    }
    let norm = |v: f64, size: u32| ((v.floor() + 0.5) / f64::from(size - 1)).min(1.0);
    Some(format!(
        "('mark', ({:.6}, {:.6}))",
        norm(x, width),
        norm(y, height)
    ))
}

/// `cv2.circle(img, (x, y), radius, colour, -1)` for each dot, on an RGB frame: the
/// discs marked on one mask, painted in one pass.
pub fn draw_dots(frame: &mut Frame, dots: &[(i64, i64)], radius: i64, rgb: [u8; 3]) {
    if dots.is_empty() {
        return;
    }
    let (w, h) = (frame.width() as usize, frame.height() as usize);
    let mut mask = Mask::new(w, h);
    for &(x, y) in dots {
        fill_circle(&mut mask, x, y, radius);
    }
    let data = frame.data_mut();
    for yy in 0..h {
        for xx in 0..w {
            if mask.get(xx, yy) {
                let i = (yy * w + xx) * 3;
                data[i..i + 3].copy_from_slice(&rgb);
            }
        }
    }
}

/// A JSON id or size as Python reads it: an integer, or a float with no fraction.
pub fn json_int(v: &Value) -> Option<i64> {
    v.as_i64()
        .or_else(|| v.as_f64().filter(|x| x.fract() == 0.0).map(|x| x as i64))
}

/// Copies a picture into the frame, sized to it.
pub fn show_picture(frame: &mut Frame, picture: Option<&RgbImage>, fallback: (u32, u32)) {
    match picture {
        Some(p) => {
            frame.resize(p.width, p.height);
            frame.data_mut().copy_from_slice(&p.data);
        }
        None => {
            frame.resize(fallback.0, fallback.1);
            frame.fill([0, 0, 0]);
        }
    }
}

/// `(xs.mean(), ys.mean())` over the set pixels of a row-major mask: the sums are whole
/// numbers (exact in f64), so numpy's pairwise order does not matter. `None` if empty.
pub fn centroid(mask: &[u8], width: usize) -> Option<(f64, f64)> {
    let (mut sx, mut sy, mut n) = (0u64, 0u64, 0u64);
    for (i, &m) in mask.iter().enumerate() {
        if m != 0 {
            sx += (i % width) as u64;
            sy += (i / width) as u64;
            n += 1;
        }
    }
    (n > 0).then(|| (sx as f64 / n as f64, sy as f64 / n as f64))
}

/// Python's `f"{v:.4f}"` (Rust rounds the exact binary value half to even, as CPython).
pub fn four_places(v: f64) -> String {
    format!("{v:.4}")
}

/// `samples[start:end]` for `data_chunk=(start, end)` (Python slice bounds).
pub fn data_chunk<T>(mut items: Vec<T>, chunk: Option<(i64, i64)>) -> Vec<T> {
    let Some((start, end)) = chunk else {
        return items;
    };
    let len = items.len() as i64;
    let at = |i: i64| (if i < 0 { i + len } else { i }).clamp(0, len) as usize;
    let (s, e) = (at(start), at(end));
    items.truncate(e.max(s));
    items.drain(..s);
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_truncate_and_clicks_land_on_their_pixel() {
        let p = PyValue::Tuple(vec![PyValue::Float(0.999), PyValue::int(1)]);
        assert_eq!(mark_pixel(&p, 101, 51), (99, 50));
        for (w, h) in [(2, 2), (320, 240), (317, 229)] {
            for px in [0, 1, w / 2, w - 1] {
                let text = click_mark(f64::from(px) + 0.3, 0.9, w, h).unwrap();
                let v = crate::visgym::action::VisAction::parse(&text).unwrap();
                assert_eq!(mark_pixel(&v.payload, w, h), (i64::from(px), 0), "{text}");
            }
        }
        assert_eq!(click_mark(-1.0, 0.0, 10, 10), None);
    }

    #[test]
    fn chunks_slice_as_python_does() {
        let v: Vec<i32> = (0..10).collect();
        assert_eq!(data_chunk(v.clone(), Some((2, 5))), [2, 3, 4]);
        assert_eq!(data_chunk(v.clone(), Some((-3, 100))), [7, 8, 9]);
        assert!(data_chunk(v.clone(), Some((6, 2))).is_empty());
        assert_eq!(data_chunk(v, None).len(), 10);
    }

    #[test]
    fn centroids_are_means_of_pixel_coordinates() {
        let mask = [0, 1, 1, 0, 0, 1];
        assert_eq!(centroid(&mask, 3), Some((5.0 / 3.0, 1.0 / 3.0)));
        assert_eq!(centroid(&[0, 0], 2), None);
    }
}
