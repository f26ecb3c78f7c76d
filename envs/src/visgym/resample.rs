//! Area-averaging resize of a frame, standing in for the Pillow/OpenCV resizes the
//! reference applies after drawing (its frames are then faithful in layout, not in
//! filter taps).

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
    let (sw, sh) = (src.width(), src.height());
    if sw == 0 || sh == 0 || w == 0 || h == 0 {
        return;
    }
    let (cols, rows) = (coverage(sw, w), coverage(sh, h));
    let data = src.data();
    let stride = sw as usize * 3;
    // Horizontal pass: per source row, each output column's weighted sums.
    let mut tmp = vec![0.0f64; sh as usize * w as usize * 3];
    for y in 0..sh as usize {
        let line = &data[y * stride..(y + 1) * stride];
        let out = &mut tmp[y * w as usize * 3..(y + 1) * w as usize * 3];
        for (ox, (first, weights)) in cols.iter().enumerate() {
            let mut acc = [0.0f64; 3];
            for (k, &wgt) in weights.iter().enumerate() {
                let p = (first + k) * 3;
                for (a, &c) in acc.iter_mut().zip(&line[p..p + 3]) {
                    *a += wgt * f64::from(c);
                }
            }
            out[ox * 3..ox * 3 + 3].copy_from_slice(&acc);
        }
    }
    let col_totals: Vec<f64> = cols.iter().map(|(_, w)| w.iter().sum()).collect();
    let pixels = dst.data_mut();
    let row_len = w as usize * 3;
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
}
