//! Zoom-In Puzzle: a picture and N views zoomed ever further into it, shown in a
//! shuffled order; the agent swaps views or reorders them all so they run from least to
//! most zoomed, then stops (`zoom_in_puzzle/easy` 4 views, `/hard` 5; docs/visgym.md,
//! spec §3.2).
//!
//! The evaluation draws nested crops: each zoom level comes from the legacy
//! `RandomState` (a Gaussian around `min + (i + 1) · gap`), each crop lies inside the
//! previous one. States, feedback and solvers are the reference's; the tiles are
//! Pillow's Lanczos resize, exactly; the slot numbers are drawn in our font in the
//! reference's boxes (the reference draws DejaVu Sans), so frames match in layout and
//! size, not in every pixel.

use std::sync::Arc;

use serde_json::{json, Value};

use super::action::{resolve, Resolved, StepResult, EXECUTED};
use super::images::{decode_rgb, ImageFile, ImageSet, Listing, RgbImage};
use super::python::{PyException, PyValue};
use super::signature::FnSig;
use super::slot_order;
use super::solve_kwargs::SolveKwargs;
use super::spaces::ArgSpace;
use super::{RenderMode, VisGymEnv};
use crate::core::env::{KeyBinding, Words};
use crate::core::frame::Frame;
use crate::core::input::{Gesture, PointerMode};
use crate::render::{font, lanczos};
use crate::rng::RandomState;

/// The side of every tile (`VIEW_SIZE`).
const VIEW: u32 = 224;

#[derive(Clone, Debug)]
pub struct ZoomInConfig {
    pub views: usize,
    pub min_zoom: f64,
    pub gap: f64,
    pub std: f64,
    pub nested: bool,
    pub seed: u32,
    pub images: Arc<ImageSet>,
}

/// The tiles of an episode: the whole picture and each crop, at 224².
#[derive(Clone, Debug)]
struct Tiles {
    original: Frame,
    views: Vec<Frame>,
}

#[derive(Clone, Debug)]
pub struct ZoomIn {
    config: ZoomInConfig,
    rng: RandomState,
    samples: Vec<ImageFile>,
    sample_sequence: Vec<usize>,
    /// The reference starts at -1: the first reset plays entry 0.
    sample_idx: i64,
    levels: Vec<f64>,
    boxes: Vec<[i64; 4]>,
    order: Vec<usize>,
    tiles: Option<Arc<Tiles>>,
    failure: Option<PyException>,
}

/// Pillow's `crop(box)` (black outside the picture) as a frame.
fn crop(img: &RgbImage, [l, u, r, d]: [i64; 4]) -> Frame {
    let (w, h) = ((r - l).max(0) as u32, (d - u).max(0) as u32);
    let mut out = Frame::new(w, h);
    for y in 0..h {
        for x in 0..w {
            let (sx, sy) = (l + i64::from(x), u + i64::from(y));
            if sx >= 0 && sy >= 0 && sx < i64::from(img.width) && sy < i64::from(img.height) {
                out.set(i64::from(x), i64::from(y), img.pixel(sx as u32, sy as u32));
            }
        }
    }
    out
}

/// The slot number in its black box at the bottom right of the tile at `x0`: the box
/// of DejaVu Sans 28 px text (18 × 26 for a digit), padded by 10 on every side.
fn label(frame: &mut Frame, x0: i64, text: &str) {
    let (tw, th) = (18 * text.chars().count() as i64, 26);
    let (tx, ty) = (x0 + i64::from(VIEW) - tw - 10, i64::from(VIEW) - th - 10);
    // PIL's rectangle includes both corners.
    frame.fill_rect(tx - 10, ty - 10, tw + 21, th + 21, [0, 0, 0]);
    let scale = 3;
    let w = i64::from(font::text_width(text, scale));
    font::draw_text(
        frame,
        tx + (tw - w) / 2,
        ty + 2,
        text,
        scale,
        [255, 255, 255],
    );
}

impl ZoomIn {
    pub fn new(config: ZoomInConfig) -> Result<Self, String> {
        if config.views == 0 {
            return Err("num_zoom_views must be at least 1".into());
        }
        let samples = config.images.list(Listing::Recursive);
        if samples.is_empty() {
            return Err(
                "No images found in sample_dir (Zoom-In takes *.png, *.jpg, *.jpeg at any depth)"
                    .into(),
            );
        }
        let mut rng = RandomState::new(config.seed);
        let sample_sequence = rng.permutation(samples.len());
        Ok(ZoomIn {
            config,
            rng,
            samples,
            sample_sequence,
            sample_idx: -1,
            levels: Vec::new(),
            boxes: Vec::new(),
            order: Vec::new(),
            tiles: None,
            failure: None,
        })
    }

    fn n(&self) -> usize {
        self.config.views
    }

    /// `_generate_zoomed_views`: the levels, then the crops.
    fn draw_views(&mut self, img: &RgbImage) -> Result<(), PyException> {
        let c = &self.config;
        let mut levels = Vec::with_capacity(c.views);
        for i in 0..c.views {
            let mu = c.min_zoom + (i + 1) as f64 * c.gap;
            let z = self
                .rng
                .normal(mu, c.std)
                .map_err(|e| PyException::new("ValueError", e.to_string()))?;
            // Python's max keeps the first of equal values; NaN never wins here.
            levels.push(if z < c.min_zoom { c.min_zoom } else { z });
        }
        levels.sort_by(f64::total_cmp);
        let (iw, ih) = (i64::from(img.width), i64::from(img.height));
        let mut prev = [0, 0, iw, ih];
        let mut boxes = Vec::with_capacity(c.views);
        for &z in &levels {
            // `int(img_w / z)`: truncation toward zero.
            let (mut w, mut h) = ((iw as f64 / z) as i64, (ih as f64 / z) as i64);
            let (lo_x, hi_x, lo_y, hi_y) = if c.nested {
                w = w.min(prev[2] - prev[0]);
                h = h.min(prev[3] - prev[1]);
                (
                    prev[0] + w / 2,
                    prev[2] - w / 2 + 1,
                    prev[1] + h / 2,
                    prev[3] - h / 2 + 1,
                )
            } else {
                (w / 2, iw - w / 2, h / 2, ih - h / 2)
            };
            let draw = |rng: &mut RandomState, lo, hi| {
                rng.randint(lo, hi)
                    .map_err(|_| PyException::new("ValueError", "low >= high"))
            };
            let cx = draw(&mut self.rng, lo_x, hi_x)?;
            let cy = draw(&mut self.rng, lo_y, hi_y)?;
            let (l, u) = (cx - w / 2, cy - h / 2);
            let b = [l, u, l + w, u + h];
            boxes.push(b);
            if c.nested {
                prev = b;
            }
        }
        let original = lanczos::resize(&crop(img, [0, 0, iw, ih]), VIEW, VIEW);
        let views = boxes
            .iter()
            .map(|&b| lanczos::resize(&crop(img, b), VIEW, VIEW))
            .collect();
        self.levels = levels;
        self.boxes = boxes;
        self.tiles = Some(Arc::new(Tiles { original, views }));
        Ok(())
    }

    /// The positions the views must end in: ascending zoom, which the drawn levels
    /// already are (`argsort` of a sorted list of at most 16 values is the identity).
    fn solved(&self) -> bool {
        self.order.iter().enumerate().all(|(i, &v)| i == v)
    }

    fn reorder_solution(&self) -> Vec<String> {
        let p: Vec<String> = (0..self.n())
            .map(|want| {
                let at = self.order.iter().position(|&v| v == want).unwrap_or(0);
                (at + 1).to_string()
            })
            .collect();
        vec![
            format!("('reorder', [{}])", p.join(", ")),
            "('stop','stop')".into(),
        ]
    }

    fn swap_solution(&self) -> Vec<String> {
        let mut state = self.order.clone();
        let mut out = Vec::new();
        for i in 0..state.len() {
            if state[i] != i {
                let j = state.iter().position(|&v| v == i).unwrap_or(i);
                state.swap(i, j);
                out.push(format!("('swap', ({}, {}))", i + 1, j + 1));
            }
        }
        out.push("('stop','stop')".into());
        out
    }

    /// The tile under a frame point: its slot (0-based), not the original.
    fn slot_at(&self, x: f64, y: f64) -> Option<usize> {
        if !(0.0..f64::from(VIEW)).contains(&y) || x < f64::from(VIEW) {
            return None;
        }
        let slot = (x / f64::from(VIEW)) as usize - 1;
        (slot < self.n()).then_some(slot)
    }
}

/// A validated 1-based position: an index, or a float or complex number (which
/// `MultiDiscrete` accepts and Python then refuses).
#[derive(Clone, Copy)]
enum Slot {
    Index(usize),
    Float,
    Complex,
}

fn slot(v: &PyValue) -> Slot {
    match v {
        PyValue::Bool(b) => Slot::Index(usize::from(*b).saturating_sub(1)),
        PyValue::Int(i) => Slot::Index(i.as_i64().unwrap_or(1).saturating_sub(1) as usize),
        PyValue::Complex(..) => Slot::Complex,
        _ => Slot::Float,
    }
}

/// `_swap`'s order of failures: the range check compares i, then j (a complex number
/// cannot be compared); the swap then reads `order[j]` before `order[i]` (a float
/// cannot index a list).
fn swap_slots(a: Slot, b: Slot) -> Result<(usize, usize), PyException> {
    for s in [a, b] {
        if let Slot::Complex = s {
            return Err(PyException::new(
                "TypeError",
                "'<=' not supported between instances of 'int' and 'complex'",
            ));
        }
    }
    match (a, b) {
        (Slot::Index(i), Slot::Index(j)) => Ok((i, j)),
        _ => Err(PyException::new(
            "TypeError",
            "list indices must be integers or slices, not float",
        )),
    }
}

impl VisGymEnv for ZoomIn {
    fn reset(&mut self, seed: Option<u64>) {
        self.failure = None;
        if let Some(s) = seed {
            match u32::try_from(s) {
                Ok(s) => self.rng = RandomState::new(s),
                Err(_) => {
                    self.failure = Some(PyException::new(
                        "ValueError",
                        "Seed must be between 0 and 2**32 - 1",
                    ));
                    return;
                }
            }
        }
        self.sample_idx += 1;
        let Some(&k) = usize::try_from(self.sample_idx)
            .ok()
            .and_then(|i| self.sample_sequence.get(i))
        else {
            self.failure = Some(PyException::new("Exception", "All samples exhausted"));
            return;
        };
        let img = match decode_rgb(&self.samples[k]) {
            Ok(img) => img,
            Err(why) => {
                self.failure = Some(PyException::new("UnidentifiedImageError", why));
                return;
            }
        };
        if let Err(e) = self.draw_views(&img) {
            self.failure = Some(e);
            return;
        }
        let mut order: Vec<usize> = (0..self.n()).collect();
        self.rng.shuffle(&mut order);
        self.order = order;
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
        let items: Vec<&PyValue> = match &payload {
            PyValue::Tuple(v) | PyValue::List(v) => v.iter().collect(),
            other => vec![other],
        };
        match functions[index].0 {
            "swap" => {
                let (i, j) = swap_slots(slot(items[0]), slot(items[1]))?;
                self.order.swap(i, j);
            }
            "reorder" => {
                let p: Vec<usize> = items
                    .iter()
                    .map(|v| match v {
                        PyValue::Bool(b) => usize::from(*b),
                        PyValue::Int(i) => i.as_i64().unwrap_or(1) as usize,
                        _ => 1,
                    } - 1)
                    .collect();
                self.order = p.iter().map(|&k| self.order[k]).collect();
            }
            _ => return Ok(StepResult::stopped(self.solved())),
        }
        Ok(StepResult::feedback(EXECUTED))
    }

    fn state_json(&self, at_reset: bool) -> Value {
        let mut s = json!({ "current_view_order": self.order });
        if at_reset {
            let name = usize::try_from(self.sample_idx)
                .ok()
                .and_then(|i| self.sample_sequence.get(i))
                .map(|&k| self.samples[k].path.clone());
            s["zoom_levels"] = json!(self.levels);
            s["crop_boxes"] = json!(self.boxes);
            s["image_name"] = json!(name);
            s["sample_sequence"] = json!(self.sample_sequence);
        }
        s
    }

    fn prompt(&self, mode: RenderMode) -> Option<String> {
        if mode != RenderMode::RgbArray {
            return None;
        }
        let n = self.n();
        Some(format!(
            "You are given an original image and {n} zoomed-in views laid out left→right. \
Your goal is to rearrange them so they are ordered from *least* to *most* zoomed.\n\n\
Available actions:\n\
1. 'swap': Swap two zoom-tiles by specifying their 1-based positions. Format: `('swap', (i, j))` where i and j are 1-based positions.\n\
2. 'reorder': Provide the complete ordering in one shot. Format: `('reorder', [1, 2, ..., {n}])` where the list gives the desired left-to-right arrangement.\n\
3. 'stop': Finish and lock in the current ordering. Format: `('stop', 'stop')`\n\n\
Success: Arrange the views from least to most zoomed (ascending zoom level order).\n\n\
Please respond with exactly one action and its arguments in the specified format. For example:\n\
- To swap views: `('swap', (1, 3))`\n\
- To reorder all: `('reorder', [1, 3, 2, 4])`\n\
- To finalize: `('stop', 'stop')`"
        ))
    }

    fn text_frame(&self) -> Option<String> {
        None
    }

    fn frame_size(&self) -> (u32, u32) {
        (VIEW * (self.n() as u32 + 1), VIEW)
    }

    fn render(&self, frame: &mut Frame) {
        let (w, h) = self.frame_size();
        frame.resize(w, h);
        frame.fill([0, 0, 0]);
        let Some(tiles) = &self.tiles else {
            return;
        };
        let paste = |frame: &mut Frame, tile: &Frame, x0: u32| {
            let row = (VIEW * 3) as usize;
            let stride = (w * 3) as usize;
            let out = frame.data_mut();
            for y in 0..VIEW as usize {
                let at = y * stride + (x0 * 3) as usize;
                out[at..at + row].copy_from_slice(&tile.data()[y * row..(y + 1) * row]);
            }
        };
        paste(frame, &tiles.original, 0);
        for (slot, &view) in self.order.iter().enumerate() {
            let x0 = VIEW * (slot as u32 + 1);
            paste(frame, &tiles.views[view], x0);
            label(frame, i64::from(x0), &(slot + 1).to_string());
        }
    }

    fn solve(&self) -> Vec<String> {
        self.reorder_solution()
    }

    fn solve_named(&self, name: &str) -> Option<Vec<String>> {
        match name {
            "oracle" | "reorder" => Some(self.reorder_solution()),
            "swap" => Some(self.swap_solution()),
            _ => None,
        }
    }

    fn functions(&self) -> Vec<(&'static str, ArgSpace)> {
        slot_order::functions(self.n())
    }

    fn clone_box(&self) -> Box<dyn VisGymEnv> {
        Box::new(self.clone())
    }

    fn signatures(&self) -> Vec<FnSig> {
        slot_order::signatures(self.n(), "views")
    }

    /// `solve(strategy='reorder' | 'swap')`.
    fn solve_kwargs(&self, kw: &mut SolveKwargs) -> Result<Vec<String>, String> {
        let strategy = kw.choice("strategy", "reorder", &["reorder", "swap"])?;
        kw.ignored("num_steps");
        Ok(if strategy == "swap" {
            self.swap_solution()
        } else {
            self.reorder_solution()
        })
    }

    /// Every swap of two different positions, then stop.
    fn presets(&self) -> Vec<String> {
        slot_order::presets(self.n())
    }

    fn keymap(&self) -> Vec<KeyBinding> {
        slot_order::keymap(self.n())
    }

    fn pointer_mode(&self) -> Option<PointerMode> {
        Some(PointerMode::Drag)
    }

    /// Dragging a view onto another swaps the two.
    fn pointer_action(&self, gesture: Gesture) -> Option<String> {
        let Gesture::Drag { from, to } = gesture else {
            return None;
        };
        slot_order::drag_swap(self.slot_at(from.0, from.1), self.slot_at(to.0, to.1))
    }

    fn words(&self) -> Words {
        Words {
            goal: "Order the views from least to most zoomed, then stop",
            success: "stopped with the views in zoom order",
            failure: "stopped with the views out of order",
        }
    }

    /// Views not in their place.
    fn remaining(&self) -> f64 {
        self.order
            .iter()
            .enumerate()
            .filter(|(i, v)| i != *v)
            .count() as f64
    }
}
