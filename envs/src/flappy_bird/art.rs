//! Playbench's own FlappyBird art, drawn here in code (no file of the reference package is
//! used or copied). Every sprite has the reference sprite's size and transparency layout
//! (transparent = the colour key: around the bird, beside the pipe body below its lip), so
//! positions, rotations and overlaps look the same; only the pictures differ. The
//! package's own sprites can be loaded instead for pixel-exact frames
//! ([`super::FlappyBird::load_sprites`]).

use crate::pygame::SpriteImage;

pub const BIRD_SIZE: (usize, usize) = (34, 24);
pub const PIPE_SIZE: (usize, usize) = (52, 320);
pub const BASE_SIZE: (usize, usize) = (336, 112);
pub const BACKGROUND_SIZE: (usize, usize) = (288, 512);
/// Rows of the pipe's lip, which spans the full sprite width.
const PIPE_LIP_ROWS: usize = 24;
/// The pipe body is inset this many pixels on each side below the lip.
const PIPE_BODY_INSET: usize = 2;

type Rgb = [u8; 3];

fn opaque(c: Rgb) -> [u8; 4] {
    [c[0], c[1], c[2], 255]
}

fn mix(a: Rgb, b: Rgb, t: f64) -> Rgb {
    let t = t.clamp(0.0, 1.0);
    [0, 1, 2].map(|i| (f64::from(a[i]) * (1.0 - t) + f64::from(b[i]) * t + 0.5) as u8)
}

fn inside_ellipse(x: f64, y: f64, cx: f64, cy: f64, rx: f64, ry: f64) -> bool {
    let (dx, dy) = ((x - cx) / rx, (y - cy) / ry);
    dx * dx + dy * dy <= 1.0
}

/// Bird colours: (body, belly, wing).
fn bird_palette(color: &str) -> (Rgb, Rgb, Rgb) {
    match color {
        "blue" => ([70, 150, 230], [190, 225, 250], [40, 100, 190]),
        "red" => ([225, 70, 55], [250, 200, 170], [170, 40, 35]),
        _ => ([250, 205, 45], [255, 240, 170], [235, 150, 30]),
    }
}

/// One bird frame: `wing` 0 = up, 1 = middle, 2 = down.
pub fn bird(color: &str, wing: usize) -> SpriteImage {
    let (w, h) = BIRD_SIZE;
    let (body, belly, wing_color) = bird_palette(color);
    let outline: Rgb = [40, 30, 30];
    let mut img = SpriteImage::transparent(w, h);
    let wing_cy = [8.0, 12.5, 16.0][wing.min(2)];
    for y in 0..h {
        for x in 0..w {
            let (px, py) = (x as f64 + 0.5, y as f64 + 0.5);
            let in_body = inside_ellipse(px, py, 15.0, 12.5, 13.5, 10.5);
            let in_edge = inside_ellipse(px, py, 15.0, 12.5, 15.0, 12.0);
            let in_beak = (26.0..33.5).contains(&px) && (11.0..17.0).contains(&py);
            let in_eye = inside_ellipse(px, py, 22.0, 8.0, 4.5, 4.5);
            let in_wing = inside_ellipse(px, py, 9.0, wing_cy, 6.5, 3.5);
            let color = if in_beak && !in_eye {
                if py < 14.0 {
                    Some([245, 120, 40])
                } else {
                    Some([215, 85, 30])
                }
            } else if in_eye {
                if inside_ellipse(px, py, 23.5, 8.5, 1.6, 2.0) {
                    Some([20, 20, 20])
                } else if inside_ellipse(px, py, 22.0, 8.0, 3.4, 3.4) {
                    Some([255, 255, 255])
                } else {
                    Some(outline)
                }
            } else if in_wing && in_edge {
                if inside_ellipse(px, py, 9.0, wing_cy, 5.3, 2.4) {
                    Some(wing_color)
                } else {
                    Some(outline)
                }
            } else if in_body {
                Some(if py > 15.0 { belly } else { body })
            } else if in_edge {
                Some(outline)
            } else {
                None
            };
            if let Some(c) = color {
                img.set_pixel(x, y, opaque(c));
            }
        }
    }
    img
}

/// The pipe as it stands on the ground (lip at the top); the upper pipe is its flip.
pub fn pipe(color: &str) -> SpriteImage {
    let (w, h) = PIPE_SIZE;
    let (light, dark): (Rgb, Rgb) = match color {
        "red" => ([250, 140, 120], [150, 40, 35]),
        _ => ([170, 230, 90], [60, 130, 35]),
    };
    let edge: Rgb = [45, 60, 40];
    let mut img = SpriteImage::transparent(w, h);
    for y in 0..h {
        let (x0, x1) = if y < PIPE_LIP_ROWS {
            (0, w)
        } else {
            (PIPE_BODY_INSET, w - PIPE_BODY_INSET)
        };
        for x in x0..x1 {
            let on_edge =
                x == x0 || x + 1 == x1 || (y < PIPE_LIP_ROWS && (y < 2 || y + 2 >= PIPE_LIP_ROWS));
            // Light from the left: bright a third of the way across, dark at the right.
            let t = (x - x0) as f64 / (x1 - x0) as f64;
            let shade = if t < 0.3 {
                (0.3 - t) * 1.5
            } else {
                (t - 0.3) * 1.4
            };
            let c = if on_edge {
                edge
            } else {
                mix(light, dark, shade)
            };
            img.set_pixel(x, y, opaque(c));
        }
    }
    img
}

/// The ground: a striped grass band over sand. Its patterns repeat every 48 px, the
/// distance the ground scrolls before it wraps, so the scrolling is seamless.
pub fn base() -> SpriteImage {
    let (w, h) = BASE_SIZE;
    let mut img = SpriteImage::transparent(w, h);
    for y in 0..h {
        for x in 0..w {
            let c: Rgb = if y < 2 {
                [70, 60, 50]
            } else if y < 18 {
                if (x + y) % 16 < 8 {
                    [120, 200, 70]
                } else {
                    [150, 225, 95]
                }
            } else if y < 20 {
                [90, 150, 55]
            } else if (x % 24 == 5 && y % 12 == 6) || (x % 24 == 17 && y % 12 == 0) {
                [205, 180, 120]
            } else {
                [225, 205, 145]
            };
            img.set_pixel(x, y, opaque(c));
        }
    }
    img
}

/// A skyline with windows, repeating every 48 px.
fn building_top(x: usize) -> usize {
    [338, 352, 345, 330, 348, 340][(x % 48) / 8]
}

/// The sky behind the game: `night` selects the dark variant.
pub fn background(night: bool) -> SpriteImage {
    let (w, h) = BACKGROUND_SIZE;
    let (sky_top, sky_low): (Rgb, Rgb) = if night {
        ([12, 20, 50], [40, 60, 110])
    } else {
        ([110, 190, 230], [185, 230, 245])
    };
    let (building, window, hill): (Rgb, Rgb, Rgb) = if night {
        ([35, 45, 75], [240, 220, 120], [30, 70, 50])
    } else {
        ([160, 200, 210], [215, 240, 245], [95, 190, 90])
    };
    let mut img = SpriteImage::transparent(w, h);
    for y in 0..h {
        for x in 0..w {
            let fy = y as f64;
            let hill_top = 372 + [0, 2, 4, 5, 4, 2][(x % 24) / 4];
            let c = if y >= hill_top {
                hill
            } else if y >= building_top(x) {
                let in_window = x % 8 >= 2 && x % 8 < 5 && (y - building_top(x)) % 7 >= 3;
                if in_window {
                    window
                } else {
                    building
                }
            } else if !night && inside_ellipse(x as f64 % 96.0, fy, 40.0, 318.0, 34.0, 16.0) {
                [245, 250, 250]
            } else if night && (x * 7 + y * 13) % 211 == 0 && y < 300 {
                [255, 255, 230]
            } else {
                mix(sky_top, sky_low, fy / 404.0)
            };
            img.set_pixel(x, y, opaque(c));
        }
    }
    img
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_transparency_follow_the_reference_layout() {
        let b = bird("yellow", 1);
        assert_eq!((b.width(), b.height()), BIRD_SIZE);
        assert_eq!(b.pixel(0, 0)[3], 0);
        assert_eq!(b.pixel(15, 12)[3], 255);
        let p = pipe("green");
        assert_eq!((p.width(), p.height()), PIPE_SIZE);
        assert_eq!(p.pixel(0, 0)[3], 255);
        assert_eq!(p.pixel(0, 100)[3], 0);
        assert_eq!(p.pixel(2, 100)[3], 255);
        for img in [base(), background(false), background(true)] {
            assert!(img.width() >= 288 && (0..img.height()).all(|y| img.pixel(7, y)[3] == 255));
        }
    }

    #[test]
    fn wing_frames_differ() {
        assert_ne!(bird("red", 0), bird("red", 2));
        assert_ne!(bird("yellow", 1), bird("blue", 1));
    }
}
