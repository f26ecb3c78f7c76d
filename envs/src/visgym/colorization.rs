//! Colorization (`colorization/easy`, `/hard`): a disc of a photograph is repainted in
//! the hue and saturation picked on a colour wheel; the agent turns the wheel
//! (`rotate`, degrees) and moves towards or away from its centre (`saturate`) until the
//! pick matches the photograph's colour at the disc's centre, then stops
//! (docs/visgym.md, spec §3.3).
//!
//! The constructor lists the image set (recursively, any case of the suffix) and
//! shuffles it; each reset takes the next picture, picks a target point of low colour
//! variance among 50 random candidates (numpy's pairwise-summed `np.var`), reads its
//! colour with OpenCV's 8-bit HSV and draws a random starting pick. Frames are drawn as
//! the reference draws them with OpenCV: the wheel beside the photograph with the
//! repainted disc, a grey ring around it and a black outline.

use std::f64::consts::PI;
use std::sync::Arc;

use serde_json::{json, Value};

use super::action::{resolve, Resolved, StepResult, EXECUTED};
use super::cv_circle::{fill_circle, stroke_circle, Mask};
use super::hsv::{block_pixels, hsv_to_rgb_block, hsv_to_rgb_scalar, rgb_to_hsv};
use super::images::{decode_rgb, ImageFile, ImageSet, Listing, RgbImage};
use super::matchstick_rotation::py_mod;
use super::numpy_array::{leaf_to_f64, leaf_to_i64};
use super::numpy_sum;
use super::python::PyException;
use super::signature::{FnSig, Payload};
use super::solve_kwargs::SolveKwargs;
use super::spaces::ArgSpace;
use super::{RenderMode, VisGymEnv};
use crate::core::env::{KeyBinding, Words};
use crate::core::frame::Frame;
use crate::core::input::{Gesture, PointerMode};
use crate::rng::glibc_trig;
use crate::rng::NpRandom;

/// The constructor's keyword arguments (the evaluation harness's values by default).
#[derive(Clone, Debug)]
pub struct ColorizationConfig {
    pub seed: u64,
    pub images: Arc<ImageSet>,
    /// Radius of the repainted disc, and the margin target points keep from the edges.
    pub circle_size: i64,
    /// Outer radius of the grey ring around the disc; none without a ring.
    pub region_radius: Option<i64>,
    /// Scales the success threshold: `accuracy_radius / circle_size` of 30 % of the
    /// largest colour distance.
    pub accuracy_radius: f64,
    /// The solver's "already there" test only.
    pub hue_tolerance: f64,
    pub sat_tolerance: f64,
    /// Side of the colour wheel.
    pub img_size: usize,
    /// Bounds of a target neighbourhood's mean value (brightness).
    pub min_brightness: f64,
    pub max_brightness: f64,
}

impl ColorizationConfig {
    /// The settings of VisGym's evaluation (`inference/utils.py`): easy accuracy radius
    /// 11, hard 16.
    pub fn evaluation(hard: bool, seed: u64, images: Arc<ImageSet>) -> Self {
        ColorizationConfig {
            seed,
            images,
            circle_size: 20,
            region_radius: Some(30),
            accuracy_radius: if hard { 16.0 } else { 11.0 },
            hue_tolerance: 10.0,
            sat_tolerance: 20.0,
            img_size: 256,
            min_brightness: 25.0,
            max_brightness: 230.0,
        }
    }
}

/// The hidden colour of an episode.
#[derive(Clone, Debug, PartialEq)]
struct Target {
    x: i64,
    y: i64,
    /// Degrees: twice OpenCV's hue.
    hue: f64,
    sat: u8,
    val: u8,
}

#[derive(Clone, Debug)]
pub struct Colorization {
    config: ColorizationConfig,
    rng: NpRandom,
    /// The pictures in the order they are played.
    candidates: Vec<ImageFile>,
    /// How many resets have taken a picture (the reference's `curr_img_idx + 1`).
    taken: usize,
    image: Option<Arc<RgbImage>>,
    target: Option<Target>,
    hue: f64,
    sat: i64,
    /// (hue, saturation) of each wheel pixel inside the wheel, row-major.
    wheel: Arc<Vec<Option<(u8, u8)>>>,
    failure: Option<PyException>,
}

const STOP: &str = "('stop', 'stop')";

fn functions() -> Vec<(&'static str, ArgSpace)> {
    let int_box = |limit: i64| ArgSpace::IntBox {
        low: -limit,
        high: limit,
        shape: vec![],
    };
    vec![
        ("rotate", int_box(360)),
        ("saturate", int_box(255)),
        ("stop", ArgSpace::text4()),
    ]
}

/// The wheel's hue (OpenCV units) and saturation at each pixel within `size / 2` of its
/// centre.
fn wheel_table(size: usize) -> Vec<Option<(u8, u8)>> {
    let mid = (size / 2) as f64;
    let mut out = Vec::with_capacity(size * size);
    for r in 0..size {
        for c in 0..size {
            let (dx, dy) = (c as f64 - mid, r as f64 - mid);
            // hypot of integers: exactly the rounded square root.
            let dist = (dx * dx + dy * dy).sqrt();
            out.push((dist <= mid).then(|| {
                let angle = py_mod(libm::atan2(dy, dx) * 180.0 / PI, 360.0);
                let sat = (dist / mid * 255.0).clamp(0.0, 255.0);
                ((angle / 2.0) as u8, sat as u8)
            }));
        }
    }
    out
}

/// Python's `float // float`.
pub fn py_floordiv(a: f64, b: f64) -> f64 {
    let m = libm::fmod(a, b);
    let mut div = (a - m) / b;
    if m != 0.0 && (b < 0.0) != (m < 0.0) {
        div -= 1.0;
    }
    if div == 0.0 {
        return libm::copysign(0.0, a / b);
    }
    let floor = div.floor();
    if div - floor > 0.5 {
        floor + 1.0
    } else {
        floor
    }
}

/// A solver step: a rotation or a saturation change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Move {
    Rotate(i64),
    Saturate(i64),
}

impl Move {
    fn text(self) -> String {
        match self {
            Move::Rotate(a) => format!("('rotate', {a})"),
            Move::Saturate(d) => format!("('saturate', {d})"),
        }
    }
}

/// `total` cut at sorted random points into at most `pieces` parts, as the solver does.
fn split(rng: &mut NpRandom, total: i64, pieces: i64) -> Vec<i64> {
    let mut points = vec![0];
    let cuts = (pieces - 1).min(total - 1);
    if total > 1 && cuts > 0 {
        // `choice(range(1, total), cuts, replace=False)`, sorted.
        let mut c: Vec<i64> = rng
            .choice_without_replacement(total as usize - 1, cuts as usize)
            .unwrap_or_default()
            .into_iter()
            .map(|i| i as i64 + 1)
            .collect();
        c.sort_unstable();
        points.extend(c);
    }
    points.push(total);
    points.windows(2).map(|w| w[1] - w[0]).collect()
}

impl Colorization {
    /// Lists the set and shuffles it (the reference lists an empty set without error and
    /// fails at the first reset).
    pub fn new(config: ColorizationConfig) -> Result<Self, String> {
        if config.circle_size < 1 {
            return Err("circle_size must be a positive integer".into());
        }
        if !(2..=1024).contains(&config.img_size) {
            return Err("img_size must be between 2 and 1024".into());
        }
        let mut candidates = config.images.list(Listing::RecursiveAnyCase);
        let mut rng = NpRandom::seeded(u128::from(config.seed));
        rng.shuffle(&mut candidates);
        Ok(Colorization {
            wheel: Arc::new(wheel_table(config.img_size)),
            config,
            rng,
            candidates,
            taken: 0,
            image: None,
            target: None,
            hue: 0.0,
            sat: 0,
            failure: None,
        })
    }

    /// The neighbourhood statistics of a candidate point: `2 var(H) + var(S) + var(V)`
    /// and `mean(V)` over the window around it, clipped to the picture.
    fn window_stats(&self, image: &RgbImage, x: i64, y: i64) -> (f64, f64) {
        let n = (self.config.circle_size / 2).min(20);
        let (w, h) = (i64::from(image.width), i64::from(image.height));
        let (x1, x2) = ((x - n).max(0), (x + n + 1).min(w));
        let (y1, y2) = ((y - n).max(0), (y + n + 1).min(h));
        let mut channels: [Vec<f64>; 3] = Default::default();
        for yy in y1..y2 {
            for xx in x1..x2 {
                let hsv = rgb_to_hsv(image.pixel(xx as u32, yy as u32));
                for (c, v) in channels.iter_mut().zip(hsv) {
                    c.push(f64::from(v));
                }
            }
        }
        let [hs, ss, vs] = &channels;
        let variance = numpy_sum::var(hs) * 2.0 + numpy_sum::var(ss) + numpy_sum::var(vs);
        (variance, numpy_sum::mean(vs))
    }

    /// The reference's `_find_low_variance_point`; `Err` is numpy's error for a picture
    /// too small for the margin.
    fn pick_point(&mut self, image: &RgbImage) -> Result<(i64, i64), PyException> {
        let margin = self.config.circle_size;
        let (w, h) = (i64::from(image.width), i64::from(image.height));
        let empty = |_| PyException {
            class: "ValueError",
            message: "low >= high".into(),
        };
        let mut points = Vec::with_capacity(50);
        for _ in 0..50 {
            let x = self.rng.integers(margin, w - margin).map_err(empty)?;
            let y = self.rng.integers(margin, h - margin).map_err(empty)?;
            points.push((x, y));
        }
        let (lo, hi) = (self.config.min_brightness, self.config.max_brightness);
        let mut best: Option<(i64, i64)> = None;
        let mut least = f64::INFINITY;
        let mut valid = Vec::new();
        for &(x, y) in &points {
            let (variance, brightness) = self.window_stats(image, x, y);
            if !(lo <= brightness && brightness <= hi) {
                continue;
            }
            if variance < least {
                least = variance;
                best = Some((x, y));
            }
            if variance <= 1500.0 {
                valid.push((x, y, variance));
            }
        }
        if !valid.is_empty() {
            // A stable sort, then a random one of the lowest fifth.
            valid.sort_by(|a, b| a.2.partial_cmp(&b.2).unwrap_or(std::cmp::Ordering::Equal));
            let top = (valid.len() / 5).max(1);
            let k = self.rng.integers(0, top as i64).unwrap_or(0) as usize;
            return Ok((valid[k].0, valid[k].1));
        }
        Ok(best.unwrap_or((w / 2, h / 2)))
    }

    /// `(hue error, saturation error, colour distance, threshold)` of the current pick.
    fn errors(&self) -> (f64, i64, f64, f64) {
        let Some(t) = &self.target else {
            return (0.0, 0, 0.0, 0.0);
        };
        let d = (self.hue - t.hue).abs();
        let hue_err = d.min(360.0 - d);
        let sat_err = (self.sat - i64::from(t.sat)).abs();
        let h2 = hue_err * 2.0;
        let distance = (h2 * h2 + (sat_err * sat_err) as f64).sqrt();
        let largest = (360.0f64 * 360.0 + 255.0 * 255.0 + 255.0 * 255.0).sqrt();
        let threshold =
            self.config.accuracy_radius / self.config.circle_size as f64 * largest * 0.3;
        (hue_err, sat_err, distance, threshold)
    }

    fn matched(&self) -> bool {
        let (_, _, distance, threshold) = self.errors();
        distance <= threshold
    }

    /// The reference's solver (`solve(num_steps=…)`), drawing from a copy of the
    /// generator: the signed hue difference, rounded, in two to four random rotations,
    /// then the saturation difference in one to three steps, reversible pairs inserted
    /// up to `num_steps`, and stop.
    fn solution(&self, num_steps: Option<usize>) -> Vec<String> {
        let Some(t) = &self.target else {
            return vec![STOP.to_string()];
        };
        let mut rng = self.rng.clone();
        let delta = py_mod(t.hue - self.hue, 360.0);
        let delta = if delta <= 180.0 { delta } else { delta - 360.0 };
        let diff = delta.abs();
        let sat = self.sat;
        let mut moves: Vec<Move> = Vec::new();
        let sat_err = (sat - i64::from(t.sat)).abs();
        if diff <= self.config.hue_tolerance && sat_err as f64 <= self.config.sat_tolerance {
            let target = num_steps.unwrap_or(0);
            while moves.len() < target {
                let k = rng.integers(1, 6).unwrap_or(1);
                if moves.len() + 4 <= target + 2 {
                    let safe = 10.min(sat).min(255 - sat).max(1);
                    let s = rng.integers(1, safe + 1).unwrap_or(1);
                    moves.extend([
                        Move::Rotate(k),
                        Move::Rotate(-k),
                        Move::Saturate(s),
                        Move::Saturate(-s),
                    ]);
                } else {
                    moves.extend([Move::Rotate(k), Move::Rotate(-k)]);
                }
            }
            return moves
                .iter()
                .map(|m| m.text())
                .chain([STOP.to_string()])
                .collect();
        }
        let whole = diff.round_ties_even() as i64;
        let pieces = rng.integers(2, 5).unwrap_or(2);
        let sign = if delta > 0.0 {
            1
        } else if delta < 0.0 {
            -1
        } else {
            0
        };
        moves.extend(
            split(&mut rng, whole, pieces)
                .into_iter()
                .map(|s| Move::Rotate(sign * s)),
        );
        let sat_delta = i64::from(t.sat) - sat;
        if sat_delta != 0 {
            let sgn = sat_delta.signum();
            let pieces = rng.integers(1, 4).unwrap_or(1).min(sat_delta.abs());
            moves.extend(
                split(&mut rng, sat_delta.abs(), pieces)
                    .into_iter()
                    .map(|s| Move::Saturate(sgn * s)),
            );
        }
        if let Some(target) = num_steps {
            while moves.len() < target {
                let remain = target - moves.len();
                let at = rng.integers(0, moves.len() as i64 + 1).unwrap_or(0) as usize;
                if moves.len() + 4 <= target + 2 && remain >= 3 {
                    // The saturation where the pair goes in, so that it does not clip.
                    let before = moves[..at].iter().fold(sat, |s, m| match m {
                        Move::Saturate(d) => (s + d).clamp(0, 255),
                        Move::Rotate(_) => s,
                    });
                    let safe = 10.min(before).min(255 - before).max(1);
                    let s = rng.integers(1, safe + 1).unwrap_or(1);
                    let k = rng.integers(1, 6).unwrap_or(1);
                    let block = [
                        Move::Saturate(s),
                        Move::Saturate(-s),
                        Move::Rotate(k),
                        Move::Rotate(-k),
                    ];
                    moves.splice(at..at, block);
                } else {
                    let k = rng.integers(1, 6).unwrap_or(1);
                    moves.splice(at..at, [Move::Rotate(k), Move::Rotate(-k)]);
                }
            }
        }
        moves
            .iter()
            .map(|m| m.text())
            .chain([STOP.to_string()])
            .collect()
    }

    /// The pick as a wheel position: a saturation of 255 reaches `size / 2 - 2`.
    fn pointer(&self) -> (i64, i64) {
        let mid = (self.config.img_size / 2) as i64;
        let reach = (self.sat.clamp(0, 255) as f64 / 255.0 * (mid - 2) as f64) as i64 as f64;
        let angle = self.hue * PI / 180.0;
        (
            mid + (reach * glibc_trig::cos(angle)) as i64,
            mid + (reach * glibc_trig::sin(angle)) as i64,
        )
    }

    /// The wheel's (hue in degrees, saturation) under a frame point, if it is on the
    /// wheel.
    fn wheel_pick(&self, x: f64, y: f64) -> Option<(f64, i64)> {
        let mid = (self.config.img_size / 2) as f64;
        let (dx, dy) = (x - mid, y - mid);
        let dist = libm::hypot(dx, dy);
        if dist > mid || x < 0.0 || y < 0.0 {
            return None;
        }
        let hue = py_mod(libm::atan2(dy, dx) * 180.0 / PI, 360.0);
        let sat = (dist / (mid - 2.0).max(1.0) * 255.0)
            .round()
            .clamp(0.0, 255.0) as i64;
        Some((hue, sat))
    }
}

impl VisGymEnv for Colorization {
    fn reset(&mut self, seed: Option<u64>) {
        if let Some(s) = seed {
            self.rng = NpRandom::seeded(u128::from(s));
        }
        self.failure = None;
        let fail = |message: String| {
            Some(PyException {
                class: "ValueError",
                message,
            })
        };
        let Some(file) = self.candidates.get(self.taken).cloned() else {
            self.taken += 1;
            self.failure = fail("No more images to load".into());
            return;
        };
        self.taken += 1;
        let Ok(image) = decode_rgb(&file) else {
            self.failure = fail(format!("Could not load image at {}", file.path));
            return;
        };
        // The picture is in place before the point search can fail.
        let image = Arc::new(image);
        self.image = Some(image.clone());
        let (x, y) = match self.pick_point(&image) {
            Ok(p) => p,
            Err(e) => {
                self.failure = Some(e);
                return;
            }
        };
        let [h, s, v] = rgb_to_hsv(image.pixel(x as u32, y as u32));
        self.target = Some(Target {
            x,
            y,
            hue: f64::from(h) * 2.0,
            sat: s,
            val: v,
        });
        self.hue = self.rng.uniform(0.0, 360.0);
        self.sat = self.rng.integers(0, 256).unwrap_or(0);
    }

    fn reset_failure(&self) -> Option<PyException> {
        self.failure.clone()
    }

    fn step(&mut self, action: &str) -> Result<StepResult, PyException> {
        let functions = functions();
        let (index, payload) = match resolve(action, &functions)? {
            Resolved::Rejected(f) => return Ok(StepResult::feedback(f)),
            Resolved::Call { index, payload } => (index, payload),
        };
        match functions[index].0 {
            // The validated payload is applied as written: `float(payload)` for the
            // hue (30.7 turns by 30.7), `int(payload)` for the saturation.
            "rotate" => {
                let turn = leaf_to_f64(&payload)?.unwrap_or(0.0);
                self.hue = py_mod(self.hue + turn, 360.0);
            }
            "saturate" => {
                let change = leaf_to_i64(&payload)?.unwrap_or(0);
                self.sat = (i128::from(self.sat) + i128::from(change)).clamp(0, 255) as i64;
            }
            _ => return Ok(StepResult::stopped(self.matched())),
        }
        Ok(StepResult::feedback(EXECUTED))
    }

    fn state_json(&self, at_reset: bool) -> Value {
        let mut s = json!({ "current_hue": self.hue, "current_sat": self.sat });
        if at_reset {
            let name = self
                .taken
                .checked_sub(1)
                .and_then(|i| self.candidates.get(i))
                .map(|f| f.path.clone());
            let candidates: Vec<&str> = self.candidates.iter().map(|f| f.path.as_str()).collect();
            s["image_name"] = json!(name);
            s["candidates"] = json!(candidates);
            if let Some(t) = &self.target {
                s["target_pos"] = json!([t.x, t.y]);
                s["target_hue"] = json!(t.hue);
                s["target_sat"] = json!(t.sat);
                s["target_val"] = json!(t.val);
            }
        }
        s
    }

    fn prompt(&self, mode: RenderMode) -> Option<String> {
        if mode != RenderMode::RgbArray {
            return None;
        }
        Some(
            "You are performing a color-matching task. You see two images side by side:\n\
- LEFT: A color wheel showing your current hue and saturation selection\n\
- RIGHT: An image with a circular region colored with your current selection (gray outside the circle)\n\n\
Your goal is to adjust the hue and saturation to match the original color that appears at the center \
of the circular region in the right image. The circle's border shows the exact target location.\n\n\
Success criteria: You succeed when your color selection closely matches the target color in both \
hue and saturation.\n\nAvailable actions:\n\
1. 'rotate': Adjust the hue by rotating around the color wheel (circular motion). \
Format: `('rotate', angle)` where angle is an integer between -360 and 360 degrees.\n\
2. 'saturate': Adjust the saturation by moving toward or away from the center of the wheel. \
Format: `('saturate', delta)` where delta is an integer between -255 and 255.\n\
3. 'stop': Submit your final color choice when you're satisfied with the match. \
Format: `('stop', 'stop')`.\n\n\
Please respond with exactly one action and its arguments in the specified format. For example:\n\
- `('rotate', 30)` to rotate the hue +30 degrees clockwise\n\
- `('rotate', -45)` to rotate the hue 45 degrees counter-clockwise\n\
- `('saturate', 20)` to move away from center (increase saturation, more vivid)\n\
- `('saturate', -30)` to move toward the center (decrease saturation, more muted)\n\
- `('stop', 'stop')` to submit your answer when the colors match"
                .to_string(),
        )
    }

    fn text_frame(&self) -> Option<String> {
        None
    }

    fn frame_size(&self) -> (u32, u32) {
        let side = self.config.img_size as u32;
        match &self.image {
            Some(img) => (side + img.width, side.max(img.height)),
            None => (side, side),
        }
    }

    fn render(&self, frame: &mut Frame) {
        let (fw, fh) = self.frame_size();
        frame.resize(fw, fh);
        frame.fill([0, 0, 0]);
        let (fw, side) = (fw as usize, self.config.img_size);
        let val = self.target.as_ref().map_or(0, |t| t.val);
        let mut pointer = Mask::new(side, side);
        let (px, py) = self.pointer();
        stroke_circle(&mut pointer, px, py, 5, 2);
        let out = frame.data_mut();
        // The wheel: each pixel converted alone, so on OpenCV's scalar path.
        for (i, hs) in self.wheel.iter().enumerate() {
            let (r, c) = (i / side, i % side);
            let rgb = match hs {
                _ if pointer.get(c, r) => [0, 0, 0],
                Some((h, s)) => hsv_to_rgb_scalar([*h, *s, val]),
                None => continue,
            };
            let at = (r * fw + c) * 3;
            out[at..at + 3].copy_from_slice(&rgb);
        }
        let (Some(image), Some(t)) = (&self.image, &self.target) else {
            return;
        };
        let (w, h) = (image.width as usize, image.height as usize);
        let radius = self.config.circle_size;
        let mut disc = Mask::new(w, h);
        fill_circle(&mut disc, t.x, t.y, radius);
        let mut ring = Mask::new(w, h);
        if let Some(outer) = self.config.region_radius {
            fill_circle(&mut ring, t.x, t.y, outer);
        }
        let mut outline = Mask::new(w, h);
        stroke_circle(&mut outline, t.x, t.y, radius, 2);
        let pick = [
            (py_mod(self.hue, 360.0) / 2.0) as u8,
            self.sat.clamp(0, 255) as u8,
        ];
        // The whole picture goes through OpenCV at once: 32-pixel blocks of each row on
        // its vector path.
        let blocks = block_pixels(w);
        for y in 0..h {
            for x in 0..w {
                let here = image.pixel(x as u32, y as u32);
                let rgb = if outline.get(x, y) {
                    [0, 0, 0]
                } else if disc.get(x, y) {
                    let hsv = [pick[0], pick[1], rgb_to_hsv(here)[2]];
                    if x < blocks {
                        hsv_to_rgb_block(hsv)
                    } else {
                        hsv_to_rgb_scalar(hsv)
                    }
                } else if ring.get(x, y) {
                    [128, 128, 128]
                } else {
                    here
                };
                let at = (y * fw + side + x) * 3;
                out[at..at + 3].copy_from_slice(&rgb);
            }
        }
    }

    fn solve(&self) -> Vec<String> {
        self.solution(None)
    }

    fn solve_named(&self, name: &str) -> Option<Vec<String>> {
        (name == "oracle").then(|| self.solution(None))
    }

    fn functions(&self) -> Vec<(&'static str, ArgSpace)> {
        functions()
    }

    fn clone_box(&self) -> Box<dyn VisGymEnv> {
        Box::new(self.clone())
    }

    fn signatures(&self) -> Vec<FnSig> {
        vec![
            FnSig::new(
                "rotate",
                "Turn the hue round the colour wheel by this many degrees (positive is clockwise)",
                Payload::Value,
                &[("angle", FnSig::int(-360, 360))],
            ),
            FnSig::new(
                "saturate",
                "Change the saturation by this much (positive is away from the centre, more vivid)",
                Payload::Value,
                &[("delta", FnSig::int(-255, 255))],
            ),
            FnSig::stop(),
        ]
    }

    /// `solve(strategy=…, num_steps=…)`: the reference ignores the strategy.
    fn solve_kwargs(&self, kw: &mut SolveKwargs) -> Result<Vec<String>, String> {
        kw.ignored("strategy");
        let n = kw.count("num_steps")?;
        Ok(self.solution(n.map(|n| n as usize)))
    }

    /// Hue turns of 5° and 30°, saturation changes of 10 and 40, each way, then stop.
    fn presets(&self) -> Vec<String> {
        [
            Move::Rotate(5),
            Move::Rotate(-5),
            Move::Saturate(10),
            Move::Saturate(-10),
            Move::Rotate(30),
            Move::Rotate(-30),
            Move::Saturate(40),
            Move::Saturate(-40),
        ]
        .iter()
        .map(|m| m.text())
        .chain([STOP.to_string()])
        .collect()
    }

    fn keymap(&self) -> Vec<KeyBinding> {
        vec![
            KeyBinding::new("ArrowRight", 0),
            KeyBinding::new("ArrowLeft", 1),
            KeyBinding::new("ArrowUp", 2),
            KeyBinding::new("ArrowDown", 3),
            KeyBinding::new("e", 4),
            KeyBinding::new("q", 5),
            KeyBinding::new("w", 6),
            KeyBinding::new("s", 7),
            KeyBinding::new("Enter", 8),
        ]
    }

    fn pointer_mode(&self) -> Option<PointerMode> {
        Some(PointerMode::Click)
    }

    /// A click on the wheel moves the pick towards the clicked colour, one action per
    /// click: the turn to the clicked hue first, then (clicking again) the saturation.
    fn pointer_action(&self, gesture: Gesture) -> Option<String> {
        let Gesture::Click { x, y } = gesture else {
            return None;
        };
        let (hue, sat) = self.wheel_pick(x, y)?;
        let turn = py_mod(hue - self.hue + 180.0, 360.0) - 180.0;
        let turn = turn.round() as i64;
        if turn != 0 {
            return Some(Move::Rotate(turn).text());
        }
        let change = sat - self.sat;
        (change != 0).then(|| Move::Saturate(change).text())
    }

    fn words(&self) -> Words {
        Words {
            goal: "Turn the wheel and set the saturation to the colour at the centre of the circle, then stop",
            success: "stopped on a matching colour",
            failure: "stopped on a different colour",
        }
    }

    /// How far the colour distance is beyond the success threshold.
    fn remaining(&self) -> f64 {
        let (_, _, distance, threshold) = self.errors();
        (distance - threshold).max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visgym::images::{shelf, BUNDLED};

    fn bundled() -> Arc<ImageSet> {
        shelf::shelve_bundled_for_tests();
        shelf::get(BUNDLED).unwrap()
    }

    fn env(images: Arc<ImageSet>) -> Colorization {
        Colorization::new(ColorizationConfig::evaluation(false, 0, images)).unwrap()
    }

    /// A flat grey RGB picture as a PNG (the decoder ignores CRCs).
    fn flat_png(width: u32, height: u32) -> Vec<u8> {
        let chunk = |kind: &[u8], data: &[u8]| {
            let mut c = (data.len() as u32).to_be_bytes().to_vec();
            c.extend_from_slice(kind);
            c.extend_from_slice(data);
            c.extend_from_slice(&[0; 4]);
            c
        };
        let mut ihdr = width.to_be_bytes().to_vec();
        ihdr.extend_from_slice(&height.to_be_bytes());
        ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
        let row: Vec<u8> = std::iter::once(0)
            .chain(std::iter::repeat_n(120, 3 * width as usize))
            .collect();
        let rows = row.repeat(height as usize);
        let mut out = vec![0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];
        out.extend(chunk(b"IHDR", &ihdr));
        out.extend(chunk(
            b"IDAT",
            &miniz_oxide::deflate::compress_to_vec_zlib(&rows, 6),
        ));
        out.extend(chunk(b"IEND", &[]));
        out
    }

    #[test]
    fn keywords_reach_the_configuration() {
        shelf::shelve_bundled_for_tests();
        let make =
            |kwargs: Value| crate::visgym::make("colorization/hard", kwargs.as_object().unwrap());
        let state = |kwargs: Value| {
            let mut env = make(kwargs).unwrap();
            env.reset(Some(5));
            env.state_json(true)
        };
        let registry = json!({"circle_size": 50, "region_radius": null, "accuracy_radius": null,
            "min_brightness": 45, "max_brightness": 210, "max_steps": 10, "seed": 3});
        assert_ne!(state(registry.clone()), state(json!({"seed": 3})));
        assert!(make(json!({"circle_size": 0})).is_err());
        assert!(make(json!({"img_size": 1})).is_err());
        assert!(
            make(json!({"circle_sise": 20})).is_err(),
            "a typo is an error"
        );
        let threshold = |kwargs: Value| {
            let mut env = env(bundled());
            let mut config = env.config.clone();
            config.circle_size = kwargs["circle_size"].as_i64().unwrap();
            config.accuracy_radius = py_floordiv(config.circle_size as f64, 1.75);
            env.config = config;
            env.reset(Some(0));
            env.errors().3
        };
        // The reference's own default: circle_size // 1.75 = 28 of 50.
        assert!((threshold(json!({"circle_size": 50})) - 85.6058).abs() < 1e-4);
    }

    #[test]
    fn failed_resets_raise_as_the_reference_does() {
        let set = |files: Vec<ImageFile>| Arc::new(ImageSet::new(files).unwrap());
        let mut e = env(set(vec![ImageFile::new("a.png", flat_png(60, 50))]));
        e.reset(Some(1));
        assert_eq!(e.reset_failure(), None);
        let before = e.state_json(true);
        e.reset(None);
        let f = e.reset_failure().unwrap();
        assert_eq!(
            (f.class, f.message.as_str()),
            ("ValueError", "No more images to load")
        );
        assert_eq!(e.state_json(true)["current_hue"], before["current_hue"]);

        let mut e = env(set(vec![ImageFile::new("zz.png", &b"not a picture"[..])]));
        e.reset(Some(1));
        let f = e.reset_failure().unwrap();
        assert_eq!(f.message, "Could not load image at zz.png");

        // Too small for the 20-pixel margin: numpy's `integers(20, 10)`.
        let mut e = env(set(vec![ImageFile::new("tiny.png", flat_png(30, 30))]));
        e.reset(Some(1));
        let f = e.reset_failure().unwrap();
        assert_eq!((f.class, f.message.as_str()), ("ValueError", "low >= high"));
    }

    #[test]
    fn the_wheel_and_the_threshold_match_the_reference() {
        // (row, column, OpenCV hue, saturation) from the reference's wheel loop.
        let table = wheel_table(256);
        for (r, c, h, s) in [
            (0, 128, 135, 255),
            (128, 128, 0, 0),
            (128, 255, 0, 253),
            (100, 37, 98, 189),
            (200, 201, 22, 204),
            (255, 128, 45, 253),
        ] {
            assert_eq!(table[r * 256 + c], Some((h, s)), "({r}, {c})");
        }
        assert_eq!(table[3 * 256 + 60], None);
        let mut e = env(bundled());
        e.reset(Some(0));
        let (_, _, _, threshold) = e.errors();
        assert!((threshold - 84.0771).abs() < 1e-4, "{threshold}");
        assert_eq!(py_floordiv(20.0, 1.75), 11.0);
        assert_eq!(py_floordiv(50.0, 1.75), 28.0);
    }

    #[test]
    fn the_oracle_matches_and_pads_to_the_steps_asked() {
        let mut e = env(bundled());
        for seed in 0..6 {
            e.reset(Some(seed));
            for n in [None, Some(7), Some(12)] {
                let plan = e.solution(n);
                if let Some(n) = n {
                    assert!((n + 1..=n + 3).contains(&plan.len()), "{n}: {plan:?}");
                }
                let mut play = e.clone();
                let last = plan.iter().map(|a| play.step(a).unwrap()).last().unwrap();
                assert!(
                    last.terminated && last.reward == 1.0,
                    "seed {seed} {n:?}: {plan:?}"
                );
            }
        }
    }

    #[test]
    fn payloads_apply_as_written() {
        let mut e = env(bundled());
        e.reset(Some(2));
        let (hue, sat) = (e.hue, e.sat);
        e.step("('rotate', 30.7)").unwrap();
        assert_eq!(e.hue, py_mod(hue + 30.7, 360.0));
        e.step("('rotate', '-30')").unwrap();
        e.step("('saturate', 300)").unwrap();
        assert_eq!(e.sat, sat, "out of the space: nothing happens");
        e.step("('saturate', 9223372036854775807)").unwrap();
        assert_eq!(e.sat, 255);
        e.step("('saturate', -7.9)").unwrap();
        assert_eq!(e.sat, 248);
        let raised = e.step("('rotate', 1e400)").unwrap_err();
        assert_eq!(raised.class, "OverflowError");
    }

    #[test]
    fn clicks_on_the_wheel_turn_then_saturate() {
        let mut e = env(bundled());
        e.reset(Some(4));
        e.hue = 10.0;
        e.sat = 100;
        // Straight below the centre is 90°; the rim reaches 126 pixels at saturation 255.
        let below = Gesture::Click {
            x: 128.0,
            y: 128.0 + 63.0,
        };
        assert_eq!(e.pointer_action(below).as_deref(), Some("('rotate', 80)"));
        e.step("('rotate', 80)").unwrap();
        assert_eq!(e.pointer_action(below).as_deref(), Some("('saturate', 28)"));
        e.step("('saturate', 28)").unwrap();
        assert_eq!(e.pointer_action(below), None);
        assert_eq!(e.pointer_action(Gesture::Click { x: 300.0, y: 10.0 }), None);
        assert_eq!(e.pointer(), (128, 128 + 63));
    }
}
