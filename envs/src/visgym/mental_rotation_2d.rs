//! Mental Rotation 2D: a picture, cropped to a disc, shown beside a copy turned by a
//! secret angle; the agent turns the copy back by whole degrees and stops within the
//! tolerance (`mental_rotation_2d/easy` ±10°, `/hard` ±5°; docs/visgym.md, spec §3.4).
//!
//! The constructor lists the image set (any depth, any case, hidden files too) and
//! shuffles it; each reset takes the next picture, then draws the secret angle. States,
//! rewards, feedback and the solver are the reference's. The frame has the reference's
//! layout, sizes and disc (OpenCV's integer circle); the shrink to 128 pixels and the
//! turn are plain bilinear sampling, not OpenCV's fixed-point kernels, so its pixels
//! differ slightly.

use std::sync::Arc;

use serde_json::{json, Value};

use super::action::{resolve, Resolved, StepResult, EXECUTED};
use super::images::{decode_rgb, ImageFile, ImageSet, Listing, RgbImage};
use super::matchstick_rotation::py_mod;
use super::python::{py_str, PyException, PyValue};
use super::signature::{FnSig, Payload};
use super::solve_kwargs::SolveKwargs;
use super::spaces::ArgSpace;
use super::{RenderMode, VisGymEnv};
use crate::core::env::{KeyBinding, Words};
use crate::core::frame::Frame;
use crate::core::input::{Gesture, PointerMode};
use crate::rng::NpRandom;

/// Turns people play from the list and the keys, in degrees (then stop).
const TURNS: [i64; 10] = [-90, -45, -15, -5, -1, 1, 5, 15, 45, 90];

#[derive(Clone, Debug)]
pub struct MentalRotation2dConfig {
    pub tolerance: f64,
    pub image_size: u32,
    pub seed: u64,
    pub images: Arc<ImageSet>,
}

#[derive(Clone, Debug)]
pub struct MentalRotation2d {
    tolerance: f64,
    size: u32,
    rng: NpRandom,
    candidates: Vec<ImageFile>,
    /// Index of the picture played (the reference's `curr_idx`, -1 before the first).
    idx: Option<usize>,
    /// The picture shrunk to `size`² and cropped to its disc.
    original: Option<Arc<RgbImage>>,
    secret: f64,
    agent: f64,
    failure: Option<PyException>,
}

impl MentalRotation2d {
    pub fn new(config: MentalRotation2dConfig) -> Result<Self, String> {
        let mut candidates = config.images.list(Listing::RecursiveAnyCase);
        let mut rng = NpRandom::seeded(u128::from(config.seed));
        rng.shuffle(&mut candidates);
        if config.image_size < 2 {
            return Err("image_size must be at least 2".into());
        }
        Ok(MentalRotation2d {
            tolerance: config.tolerance,
            size: config.image_size,
            rng,
            candidates,
            idx: None,
            original: None,
            secret: 0.0,
            agent: 0.0,
            failure: None,
        })
    }

    /// The signed error the reward measures, in (-180, 180].
    fn error(&self) -> f64 {
        let e = py_mod(self.agent - self.secret, 360.0);
        if e > 180.0 {
            e - 360.0
        } else {
            e
        }
    }

    /// The reference's solver, drawing from `rng` (a copy of the environment's).
    fn solution(&self, rng: &mut NpRandom, num_steps: Option<u64>) -> Vec<String> {
        let stop = "('stop', 'stop')".to_string();
        let mut delta = py_mod(self.secret - self.agent, 360.0);
        if delta > 180.0 {
            delta -= 360.0;
        }
        if delta.abs() <= self.tolerance {
            return vec![stop];
        }
        let sign = if delta > 0.0 { 1 } else { -1 };
        // Python's round() halves to even; the angles are whole here.
        let total = delta.abs().round_ties_even() as i64;
        if total <= 1 {
            return vec![
                format!("('rotate', {})", delta.round_ties_even() as i64),
                stop,
            ];
        }
        let steps = match num_steps {
            None => rng.integers(2, 5).unwrap_or(2),
            Some(n) => n.max(1) as i64,
        };
        if steps == 1 {
            return vec![format!("('rotate', {})", sign * total), stop];
        }
        let num_cuts = (steps - 1).min(total - 1);
        let population = (total - 1) as usize;
        let mut cuts: Vec<i64> = if num_cuts as usize >= population {
            (1..total).collect()
        } else {
            rng.choice_without_replacement(population, num_cuts as usize)
                .unwrap_or_default()
                .into_iter()
                .map(|i| i as i64 + 1)
                .collect()
        };
        cuts.sort_unstable();
        let mut points = vec![0];
        points.extend(cuts);
        points.push(total);
        let mut out: Vec<String> = points
            .windows(2)
            .map(|w| format!("('rotate', {})", sign * (w[1] - w[0])))
            .collect();
        out.push(stop);
        out
    }

    /// The turned copy: the original turned clockwise by `(agent - secret) mod 360`.
    fn turned(&self, original: &RgbImage) -> RgbImage {
        let total = py_mod(self.agent - self.secret, 360.0);
        let mut out = rotate_clockwise(original, total);
        disc_crop(&mut out);
        out
    }
}

/// Bilinear shrink (or growth) to `size`², sampling at pixel centres as OpenCV does.
fn resize(img: &RgbImage, size: u32) -> RgbImage {
    let (sw, sh) = (img.width as f64, img.height as f64);
    let mut data = vec![0u8; (size * size * 3) as usize];
    for y in 0..size {
        for x in 0..size {
            let fx = ((f64::from(x) + 0.5) * sw / f64::from(size) - 0.5).clamp(0.0, sw - 1.0);
            let fy = ((f64::from(y) + 0.5) * sh / f64::from(size) - 0.5).clamp(0.0, sh - 1.0);
            let rgb = bilinear(img, fx, fy).unwrap_or([0, 0, 0]);
            let i = ((y * size + x) * 3) as usize;
            data[i..i + 3].copy_from_slice(&rgb);
        }
    }
    RgbImage {
        width: size,
        height: size,
        data,
    }
}

/// A bilinear sample; outside the picture counts as black (`borderValue=(0, 0, 0)`).
fn bilinear(img: &RgbImage, x: f64, y: f64) -> Option<[u8; 3]> {
    let (w, h) = (i64::from(img.width), i64::from(img.height));
    let (x0, y0) = (x.floor(), y.floor());
    let (ax, ay) = (x - x0, y - y0);
    let (x0, y0) = (x0 as i64, y0 as i64);
    if x0 < -1 || y0 < -1 || x0 >= w || y0 >= h {
        return None;
    }
    let px = |xx: i64, yy: i64| -> [f64; 3] {
        if xx < 0 || yy < 0 || xx >= w || yy >= h {
            [0.0; 3]
        } else {
            let p = img.pixel(xx as u32, yy as u32);
            [f64::from(p[0]), f64::from(p[1]), f64::from(p[2])]
        }
    };
    let (a, b, c, d) = (
        px(x0, y0),
        px(x0 + 1, y0),
        px(x0, y0 + 1),
        px(x0 + 1, y0 + 1),
    );
    let mut out = [0u8; 3];
    for k in 0..3 {
        let top = a[k] * (1.0 - ax) + b[k] * ax;
        let bottom = c[k] * (1.0 - ax) + d[k] * ax;
        out[k] = (top * (1.0 - ay) + bottom * ay).round().clamp(0.0, 255.0) as u8;
    }
    Some(out)
}

/// Turns the picture clockwise (on screen) by `degrees` about `(w/2, h/2)`, as
/// `cv2.getRotationMatrix2D(centre, -degrees, 1)` and `warpAffine` do, black outside.
fn rotate_clockwise(img: &RgbImage, degrees: f64) -> RgbImage {
    let (cx, cy) = (f64::from(img.width / 2), f64::from(img.height / 2));
    let a = (-degrees).to_radians();
    let (cos, sin) = (libm::cos(a), libm::sin(a));
    let mut data = vec![0u8; img.data.len()];
    for y in 0..img.height {
        for x in 0..img.width {
            // The inverse of OpenCV's matrix [[cos, sin], [-sin, cos]] about the centre.
            let (dx, dy) = (f64::from(x) - cx, f64::from(y) - cy);
            let sx = cos * dx - sin * dy + cx;
            let sy = sin * dx + cos * dy + cy;
            if let Some(rgb) = bilinear(img, sx, sy) {
                let i = ((y * img.width + x) * 3) as usize;
                data[i..i + 3].copy_from_slice(&rgb);
            }
        }
    }
    RgbImage {
        width: img.width,
        height: img.height,
        data,
    }
}

/// Blackens everything outside OpenCV's filled circle of radius `min(w/2, h/2)` about
/// `(w/2, h/2)` (`cv2.circle(..., -1)`: its integer midpoint rasterisation).
fn disc_crop(img: &mut RgbImage) {
    let (w, h) = (i64::from(img.width), i64::from(img.height));
    let (cx, cy) = (w / 2, h / 2);
    let radius = cx.min(cy).min(w - cx).min(h - cy);
    let mut inside = vec![false; (w * h) as usize];
    let mut span = |y: i64, x0: i64, x1: i64| {
        if (0..h).contains(&y) {
            for x in x0.max(0)..=x1.min(w - 1) {
                inside[(y * w + x) as usize] = true;
            }
        }
    };
    let (mut err, mut dx, mut dy, mut plus, mut minus) =
        (0i64, radius, 0i64, 1i64, (radius << 1) - 1);
    while dx >= dy {
        span(cy + dy, cx - dx, cx + dx);
        span(cy - dy, cx - dx, cx + dx);
        span(cy + dx, cx - dy, cx + dy);
        span(cy - dx, cx - dy, cx + dy);
        dy += 1;
        err += plus;
        plus += 2;
        let mask = if err <= 0 { 0 } else { -1 };
        err -= minus & mask;
        dx += mask;
        minus -= mask & 2;
    }
    for (p, &keep) in img.data.chunks_exact_mut(3).zip(&inside) {
        if !keep {
            p.fill(0);
        }
    }
}

impl VisGymEnv for MentalRotation2d {
    fn reset(&mut self, seed: Option<u64>) {
        if let Some(s) = seed {
            self.rng = NpRandom::seeded(u128::from(s));
        }
        self.failure = None;
        let idx = self.idx.map_or(0, |i| i + 1);
        self.idx = Some(idx);
        let Some(file) = self.candidates.get(idx) else {
            self.failure = Some(PyException {
                class: "ValueError",
                message: "No more images to load".into(),
            });
            return;
        };
        let picture = match decode_rgb(file) {
            Ok(p) => p,
            Err(why) => {
                self.failure = Some(PyException {
                    class: "ValueError",
                    message: format!("Could not load image at {}: {why}", file.path),
                });
                return;
            }
        };
        let mut small = resize(&picture, self.size);
        disc_crop(&mut small);
        self.original = Some(Arc::new(small));
        self.secret = self.rng.integers(0, 360).unwrap_or(0) as f64;
        self.agent = 0.0;
    }

    fn reset_failure(&self) -> Option<PyException> {
        self.failure.clone()
    }

    fn step(&mut self, action: &str) -> Result<StepResult, PyException> {
        let functions = self.functions();
        let (index, payload) = match resolve(action, &functions)? {
            Resolved::Rejected(f) => return Ok(StepResult::feedback(f)),
            Resolved::Call { index, payload } => (index, payload),
        };
        if functions[index].0 == "rotate" {
            let turn = match &payload {
                PyValue::Bool(b) => f64::from(u8::from(*b)),
                PyValue::Int(i) => i.as_i64().unwrap_or(0) as f64,
                _ => 0.0,
            };
            self.agent = py_mod(self.agent + turn, 360.0);
            return Ok(StepResult::feedback(EXECUTED));
        }
        Ok(StepResult::stopped(self.error().abs() <= self.tolerance))
    }

    fn state_json(&self, at_reset: bool) -> Value {
        let mut s = json!({ "agent_angle": self.agent });
        if at_reset {
            let name = self.idx.and_then(|i| self.candidates.get(i)).map(|f| {
                // `Path.name`: the file name alone.
                f.path.rsplit('/').next().unwrap_or_default().to_string()
            });
            s["secret_angle"] = json!(self.secret);
            s["image_name"] = json!(name);
            s["candidates"] = json!(self
                .candidates
                .iter()
                .map(|f| f.path.as_str())
                .collect::<Vec<_>>());
        }
        s
    }

    fn prompt(&self, mode: RenderMode) -> Option<String> {
        if mode != RenderMode::RgbArray {
            return None;
        }
        Some(format!(
            "You are solving a mental rotation task. Two panels appear side by side:\n\
- Left: the original circular image.\n\
- Right: the image has been rotated by a secret angle.\n\
Your job is to undo that rotation and align the right image back to match the left.\n\n\
Available actions:\n\
1. 'rotate': Rotate the right image by an integer angle. Format: `('rotate', angle)` where angle is an integer between -180 and 180 degrees (positive is clockwise, negative is counterclockwise).\n\
2. 'stop': Submit your final adjustment. Format: `('stop', 'stop')`\n\n\
Success: You succeed if your final adjustment undoes the secret rotation within ±{}°.\n\n\
Please respond with exactly one action and its arguments in the specified format. For example:\n\
- To rotate clockwise: `('rotate', 45)`\n\
- To rotate counterclockwise: `('rotate', -30)`\n\
- To submit: `('stop', 'stop')`",
            py_str(&PyValue::Float(self.tolerance))
        ))
    }

    fn text_frame(&self) -> Option<String> {
        None
    }

    fn frame_size(&self) -> (u32, u32) {
        (2 * self.size, self.size)
    }

    fn render(&self, frame: &mut Frame) {
        let (w, h) = self.frame_size();
        frame.resize(w, h);
        frame.fill([0, 0, 0]);
        let Some(original) = &self.original else {
            return;
        };
        let turned = self.turned(original);
        let out = frame.data_mut();
        let row = (self.size * 3) as usize;
        for y in 0..self.size as usize {
            let at = y * 2 * row;
            out[at..at + row].copy_from_slice(&original.data[y * row..(y + 1) * row]);
            out[at + row..at + 2 * row].copy_from_slice(&turned.data[y * row..(y + 1) * row]);
        }
    }

    /// `solve()`: its cut points draw from a copy of the environment's generator (the
    /// reference draws from its own; docs/visgym.md, "Mental Rotation 2D").
    fn solve(&self) -> Vec<String> {
        self.solution(&mut self.rng.clone(), None)
    }

    fn solve_named(&self, name: &str) -> Option<Vec<String>> {
        (name == "oracle").then(|| self.solve())
    }

    fn functions(&self) -> Vec<(&'static str, ArgSpace)> {
        vec![
            (
                "rotate",
                ArgSpace::Discrete {
                    n: 361,
                    start: -180,
                },
            ),
            ("stop", ArgSpace::text4()),
        ]
    }

    fn clone_box(&self) -> Box<dyn VisGymEnv> {
        Box::new(self.clone())
    }

    fn signatures(&self) -> Vec<FnSig> {
        vec![
            FnSig::new(
                "rotate",
                "Turn the right picture by whole degrees (positive clockwise)",
                Payload::Value,
                &[("angle", FnSig::int(-180, 180))],
            ),
            FnSig::stop(),
        ]
    }

    /// `solve(num_steps=None)`.
    fn solve_kwargs(&self, kw: &mut SolveKwargs) -> Result<Vec<String>, String> {
        let n = kw.count("num_steps")?;
        Ok(self.solution(&mut self.rng.clone(), n))
    }

    fn presets(&self) -> Vec<String> {
        let mut p: Vec<String> = TURNS.iter().map(|t| format!("('rotate', {t})")).collect();
        p.push("('stop', 'stop')".to_string());
        p
    }

    /// Arrows turn by 5°, `q` and `e` by 45°, Enter stops.
    fn keymap(&self) -> Vec<KeyBinding> {
        vec![
            KeyBinding::new("ArrowLeft", 3),
            KeyBinding::new("ArrowRight", 6),
            KeyBinding::new("q", 1),
            KeyBinding::new("e", 8),
            KeyBinding::new("Enter", TURNS.len()),
        ]
    }

    fn pointer_mode(&self) -> Option<PointerMode> {
        Some(PointerMode::Drag)
    }

    /// A drag around the right picture's centre turns it by the angle swept (rounded to
    /// whole degrees, clockwise positive as on screen).
    fn pointer_action(&self, gesture: Gesture) -> Option<String> {
        let Gesture::Drag { from, to } = gesture else {
            return None;
        };
        let c = f64::from(self.size / 2);
        let (cx, cy) = (f64::from(self.size) + c, c);
        let a0 = libm::atan2(from.1 - cy, from.0 - cx);
        let a1 = libm::atan2(to.1 - cy, to.0 - cx);
        let mut d = (a1 - a0).to_degrees();
        if d > 180.0 {
            d -= 360.0;
        } else if d <= -180.0 {
            d += 360.0;
        }
        let d = d.round() as i64;
        (d != 0 && from.0 >= f64::from(self.size)).then(|| format!("('rotate', {d})"))
    }

    fn words(&self) -> Words {
        Words {
            goal: "Turn the right picture back until it matches the left one, then stop",
            success: "stopped with the picture turned back",
            failure: "stopped with the picture still turned",
        }
    }

    /// Degrees beyond the tolerance.
    fn remaining(&self) -> f64 {
        (self.error().abs() - self.tolerance).max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_disc_is_opencvs_midpoint_circle() {
        let mut img = RgbImage {
            width: 9,
            height: 9,
            data: vec![255; 9 * 9 * 3],
        };
        disc_crop(&mut img);
        let rows: Vec<String> = img
            .data
            .chunks_exact(27)
            .map(|r| {
                r.chunks_exact(3)
                    .map(|p| if p[0] > 0 { '#' } else { '.' })
                    .collect()
            })
            .collect();
        // cv2.circle(np.zeros((9, 9), np.uint8), (4, 4), 4, 255, -1)
        assert_eq!(
            rows,
            [
                "....#....",
                "..#####..",
                ".#######.",
                ".#######.",
                "#########",
                ".#######.",
                ".#######.",
                "..#####..",
                "....#...."
            ]
        );
    }

    #[test]
    fn python_modulo_keeps_the_divisors_sign() {
        assert_eq!(py_mod(-30.0, 360.0), 330.0);
        assert_eq!(py_mod(390.0, 360.0), 30.0);
        assert_eq!(py_mod(-360.0, 360.0).to_bits(), 0f64.to_bits());
    }
}
