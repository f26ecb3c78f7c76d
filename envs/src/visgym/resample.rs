//! Area-averaging resize of a frame, standing in for the Pillow/OpenCV resizes the
//! reference applies after drawing (its frames are then faithful in layout, not in
//! filter taps).

use std::ops::Range;

use crate::core::frame::Frame;

/// For each output index along an axis of `n_in` → `n_out` pixels: the first input
/// index and the coverage weight of each input pixel it overlaps.
fn coverage(n_in: u32, n_out: u32) -> Vec<(usize, Vec<f64>)> {
    let f = f64::from(n_in) / f64::from(n_out);
    (0..n_out)
        .map(|o| {
            let (a, b) = (f64::from(o) * f, f64::from(o + 1) * f);
            let first = a.floor() as usize;
            let mut weights = Vec::new();
            let mut i = first;
            while (i as f64) < b && i < n_in as usize {
                weights.push((b.min(i as f64 + 1.0) - a.max(i as f64)).max(0.0));
                i += 1;
            }
            (first, weights)
        })
        .collect()
}

/// Resizes `src` to `w`×`h` into `dst`, each output pixel the average of the source
/// area it covers (exact coverage weights, also when enlarging), one axis at a time.
pub fn resize_area(src: &Frame, dst: &mut Frame, w: u32, h: u32) {
    dst.resize(w, h);
    if let Some(pixels) = resize_area_columns(src, 0, src.width(), (w, h), 0..w) {
        dst.data_mut().copy_from_slice(&pixels);
    }
}

/// Output columns `columns` (every row) of resizing a canvas `full_width` pixels wide
/// to `w`×`h`, read from `part`: the canvas's columns from `part_x0` on, as many as
/// those output columns average (the rest of the canvas is not needed). Row-major RGB,
/// `columns.len()` pixels a row; `None` when a size is 0 or `part` falls short. Every
/// pixel is computed as [`resize_area`] computes it, to the bit.
pub fn resize_area_columns(
    part: &Frame,
    part_x0: usize,
    full_width: u32,
    (w, h): (u32, u32),
    columns: Range<u32>,
) -> Option<Vec<u8>> {
    let (pw, sh) = (part.width() as usize, part.height());
    if full_width == 0 || sh == 0 || w == 0 || h == 0 || columns.end > w {
        return None;
    }
    let (all_cols, rows) = (coverage(full_width, w), coverage(sh, h));
    let cols = &all_cols[columns.start as usize..columns.end as usize];
    if cols
        .iter()
        .any(|(first, weights)| *first < part_x0 || first + weights.len() > part_x0 + pw)
    {
        return None;
    }
    let data = part.data();
    let stride = pw * 3;
    let row_len = cols.len() * 3;
    // Horizontal pass: per source row, each output column's weighted sums.
    let mut tmp = vec![0.0f64; sh as usize * row_len];
    for y in 0..sh as usize {
        let line = &data[y * stride..(y + 1) * stride];
        let out = &mut tmp[y * row_len..(y + 1) * row_len];
        for (ox, (first, weights)) in cols.iter().enumerate() {
            let mut acc = [0.0f64; 3];
            for (k, &wgt) in weights.iter().enumerate() {
                let p = (first - part_x0 + k) * 3;
                for (a, &c) in acc.iter_mut().zip(&line[p..p + 3]) {
                    *a += wgt * f64::from(c);
                }
            }
            out[ox * 3..ox * 3 + 3].copy_from_slice(&acc);
        }
    }
    let col_totals: Vec<f64> = cols.iter().map(|(_, w)| w.iter().sum()).collect();
    let mut pixels = vec![0u8; h as usize * row_len];
    for (oy, (first, weights)) in rows.iter().enumerate() {
        let row_total: f64 = weights.iter().sum();
        for i in 0..row_len {
            let mut acc = 0.0;
            for (k, &wgt) in weights.iter().enumerate() {
                acc += wgt * tmp[(first + k) * row_len + i];
            }
            let total = row_total * col_totals[i / 3];
            if total > 0.0 {
                pixels[oy * row_len + i] = (acc / total).round() as u8;
            }
        }
    }
    Some(pixels)
}

/// The canvas columns that output columns `columns` average when a canvas
/// `full_width` pixels wide is resized to `w` columns.
pub fn source_columns(full_width: u32, w: u32, columns: Range<u32>) -> Range<usize> {
    let cols = coverage(full_width, w);
    let picked = cols
        .get(columns.start as usize..columns.end as usize)
        .unwrap_or_default();
    let start = picked.iter().map(|(f, _)| *f).min().unwrap_or(0);
    let end = picked
        .iter()
        .map(|(f, w)| f + w.len())
        .max()
        .unwrap_or(start);
    start..end
}
