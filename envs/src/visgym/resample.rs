//! Area-averaging resize of a frame, standing in for the Pillow/OpenCV resizes the
//! reference applies after drawing (its frames are then faithful in layout, not in
//! filter taps).

use crate::core::frame::Frame;

/// Resizes `src` to `w`×`h` into `dst`, each output pixel the average of the source
/// area it covers (exact coverage weights, also when enlarging).
pub fn resize_area(src: &Frame, dst: &mut Frame, w: u32, h: u32) {
    dst.resize(w, h);
    let (sw, sh) = (f64::from(src.width()), f64::from(src.height()));
    if sw == 0.0 || sh == 0.0 {
        return;
    }
    let (fx, fy) = (sw / f64::from(w), sh / f64::from(h));
    let data = src.data();
    let stride = src.width() as usize * 3;
    for oy in 0..h {
        let (y0, y1) = (f64::from(oy) * fy, f64::from(oy + 1) * fy);
        for ox in 0..w {
            let (x0, x1) = (f64::from(ox) * fx, f64::from(ox + 1) * fx);
            let mut acc = [0.0f64; 3];
            let mut total = 0.0;
            let mut sy = y0.floor() as usize;
            while (sy as f64) < y1 && sy < src.height() as usize {
                let wy = (y1.min(sy as f64 + 1.0) - y0.max(sy as f64)).max(0.0);
                let mut sx = x0.floor() as usize;
                while (sx as f64) < x1 && sx < src.width() as usize {
                    let wx = (x1.min(sx as f64 + 1.0) - x0.max(sx as f64)).max(0.0);
                    let wgt = wx * wy;
                    let p = sy * stride + sx * 3;
                    for (a, &c) in acc.iter_mut().zip(&data[p..p + 3]) {
                        *a += wgt * f64::from(c);
                    }
                    total += wgt;
                    sx += 1;
                }
                sy += 1;
            }
            if total > 0.0 {
                let px = [
                    (acc[0] / total).round() as u8,
                    (acc[1] / total).round() as u8,
                    (acc[2] / total).round() as u8,
                ];
                dst.set(i64::from(ox), i64::from(oy), px);
            }
        }
    }
}
