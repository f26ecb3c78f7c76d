//! The `rgb_array` frame of highway-env's viewer: grey road, 1-px white lane markings, and
//! every visible car as a coloured rectangle with headlights drawn on a 7 m square, turned
//! by its heading (when over 2°) and centred on the car.

use core::f64::consts::PI;

use crate::core::frame::{Frame, Rgb};
use crate::pygame::{rotate_vector, SpriteImage};

use super::env::Highway;
use super::numeric::py_floor_div;
use super::road::{LANE_LENGTH, LANE_WIDTH};
use super::vehicle::{Vehicle, LENGTH, WIDTH};

const ROAD_GREY: Rgb = [100, 100, 100];
const WHITE: Rgb = [255, 255, 255];
const OUTLINE: Rgb = [60, 60, 60];
const EGO_GREEN: Rgb = [50, 200, 0];
const CAR_BLUE: Rgb = [100, 200, 255];
const CRASHED_RED: Rgb = [255, 100, 100];
const STRIPE_SPACING: f64 = 4.33;
const STRIPE_LENGTH: f64 = 3.0;
/// Cars are drawn when their centre is within this many pixels of the frame.
const VISIBILITY_MARGIN: i64 = 50;

/// How one side of a lane is marked.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Line {
    None,
    Striped,
    Continuous,
}

/// The view: world → pixel with a fixed scale and an origin that follows the ego.
struct View {
    origin: [f64; 2],
    scaling: f64,
    width: i64,
    height: i64,
}

impl View {
    fn pix(&self, length: f64) -> i64 {
        (length * self.scaling) as i64
    }

    fn to_pixel(&self, p: [f64; 2]) -> (i64, i64) {
        (
            self.pix(p[0] - self.origin[0]),
            self.pix(p[1] - self.origin[1]),
        )
    }
}

fn lighten(c: Rgb) -> Rgb {
    c.map(|v| ((f64::from(v) / 0.68) as i64).min(255) as u8)
}

fn fill_rect(img: &mut SpriteImage, (x, y, w, h): (i64, i64, i64, i64), c: Rgb) {
    for py in y..y + h {
        for px in x..x + w {
            if px >= 0 && py >= 0 {
                img.set_pixel(px as usize, py as usize, [c[0], c[1], c[2], 255]);
            }
        }
    }
}

fn outline_rect(img: &mut SpriteImage, (x, y, w, h): (i64, i64, i64, i64), c: Rgb) {
    let px = [c[0], c[1], c[2], 255];
    for i in x..x + w {
        for j in [y, y + h - 1] {
            if i >= 0 && j >= 0 {
                img.set_pixel(i as usize, j as usize, px);
            }
        }
    }
    for j in y..y + h {
        for i in [x, x + w - 1] {
            if i >= 0 && j >= 0 {
                img.set_pixel(i as usize, j as usize, px);
            }
        }
    }
}

/// A horizontal 1-px line between two pixels, both ends included.
fn horizontal_line(frame: &mut Frame, (x1, y1): (i64, i64), (x2, _): (i64, i64), c: Rgb) {
    for x in x1.min(x2)..=x1.max(x2) {
        frame.set(x, y1, c);
    }
}

impl Highway {
    pub fn frame_dims(&self) -> (u32, u32) {
        (self.config().screen_width, self.config().screen_height)
    }

    fn view(&self) -> View {
        let c = self.config();
        let ego = self.vehicles()[0].position;
        let (w, h) = (f64::from(c.screen_width), f64::from(c.screen_height));
        View {
            origin: [
                ego[0] - c.centering_position[0] * w / c.scaling,
                ego[1] - c.centering_position[1] * h / c.scaling,
            ],
            scaling: c.scaling,
            width: i64::from(c.screen_width),
            height: i64::from(c.screen_height),
        }
    }

    /// The package's `rgb_array` frame of the current state.
    pub fn draw(&self, frame: &mut Frame) {
        let (w, h) = self.frame_dims();
        frame.resize(w, h);
        frame.fill(ROAD_GREY);
        if self.vehicles().is_empty() {
            return;
        }
        let view = self.view();
        let lanes = self.config().lanes_count;
        for lane in 0..lanes {
            self.draw_lane_lines(frame, &view, lane, lanes);
        }
        for car in self.vehicles() {
            draw_car(frame, &view, car);
        }
    }

    fn draw_lane_lines(&self, frame: &mut Frame, view: &View, lane: usize, lanes: usize) {
        let sides = [
            if lane == 0 {
                Line::Continuous
            } else {
                Line::Striped
            },
            if lane + 1 == lanes {
                Line::Continuous
            } else {
                Line::None
            },
        ];
        let stripes =
            (2.0 * (view.height + view.width) as f64 / (STRIPE_SPACING * view.scaling)) as i64;
        let s_origin = view.origin[0];
        let s0 = (py_floor_div((s_origin as i64) as f64, STRIPE_SPACING) - (stripes / 2) as f64)
            * STRIPE_SPACING;
        for (side, line) in sides.into_iter().enumerate() {
            let lateral = (side as f64 - 0.5) * LANE_WIDTH;
            let segments: Vec<(f64, f64)> = match line {
                Line::None => Vec::new(),
                Line::Striped => (0..stripes)
                    .map(|k| {
                        let start = s0 + k as f64 * STRIPE_SPACING;
                        (start, start + STRIPE_LENGTH)
                    })
                    .collect(),
                Line::Continuous => vec![(
                    s0 + 0.0 * STRIPE_SPACING,
                    s0 + stripes as f64 * STRIPE_SPACING + STRIPE_LENGTH,
                )],
            };
            let y = LANE_WIDTH * lane as f64 + lateral;
            for (start, end) in segments {
                let (start, end) = (start.clamp(0.0, LANE_LENGTH), end.clamp(0.0, LANE_LENGTH));
                if (start - end).abs() > 0.5 * STRIPE_LENGTH {
                    horizontal_line(
                        frame,
                        view.to_pixel([start, y]),
                        view.to_pixel([end, y]),
                        WHITE,
                    );
                }
            }
        }
    }
}

/// The car drawn on its transparent 7 m square: body, headlights, then the body outline.
fn car_sprite(view: &View, color: Rgb) -> SpriteImage {
    let tire_length = 1.0;
    let (headlight_length, headlight_width) = (0.72, 0.6);
    let length = LENGTH + 2.0 * tire_length;
    let side = view.pix(length).max(0) as usize;
    let mut img = SpriteImage::transparent(side, side);
    let body = (
        view.pix(tire_length),
        view.pix(length / 2.0 - WIDTH / 2.0),
        view.pix(LENGTH),
        view.pix(WIDTH),
    );
    let light_x = view.pix(tire_length + LENGTH - headlight_length);
    let (light_w, light_h) = (view.pix(headlight_length), view.pix(headlight_width));
    let left = (
        light_x,
        view.pix(length / 2.0 - (1.4 * WIDTH) / 3.0),
        light_w,
        light_h,
    );
    let right = (
        light_x,
        view.pix(length / 2.0 + (0.6 * WIDTH) / 5.0),
        light_w,
        light_h,
    );
    fill_rect(&mut img, body, color);
    fill_rect(&mut img, left, lighten(color));
    fill_rect(&mut img, right, lighten(color));
    outline_rect(&mut img, body, OUTLINE);
    img
}

fn draw_car(frame: &mut Frame, view: &View, car: &Vehicle) {
    let (px, py) = view.to_pixel(car.position);
    let m = VISIBILITY_MARGIN;
    if !(-m < px && px < view.width + m && -m < py && py < view.height + m) {
        return;
    }
    let color = if car.crashed {
        CRASHED_RED
    } else if car.is_ego() {
        EGO_GREEN
    } else {
        CAR_BLUE
    };
    let sprite = car_sprite(view, color);
    let h = if car.heading.abs() > 2.0 * PI / 180.0 {
        car.heading
    } else {
        0.0
    };
    // numpy's rad2deg: a product with the rounded constant 180/π.
    let angle = -h * (180.0 / PI);
    // Blit the square turned about its centre so the centre lands on the car.
    let (w, hgt) = (sprite.width() as f64, sprite.height() as f64);
    let corners =
        [(0.0, 0.0), (w, 0.0), (w, -hgt), (0.0, -hgt)].map(|(x, y)| rotate_vector(x, y, angle));
    let min_x = corners.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
    let max_y = corners
        .iter()
        .map(|c| c.1)
        .fold(f64::NEG_INFINITY, f64::max);
    let (cx, cy) = (w / 2.0, hgt / 2.0);
    let pivot = rotate_vector(cx, -cy, angle);
    let pivot_move = (pivot.0 - cx, pivot.1 - -cy);
    let origin_x = px as f64 - cx + min_x - pivot_move.0;
    let origin_y = py as f64 - cy - max_y + pivot_move.1;
    let rotated = sprite.rotated(angle as f32);
    rotated.blit(frame, origin_x as i64, origin_y as i64);
}
