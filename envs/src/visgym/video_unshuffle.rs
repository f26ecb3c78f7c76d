//! Video Unshuffle: N frames of a clip, shuffled and numbered 1..N, with the clip's
//! action label; the agent swaps or reorders them into time order and stops
//! (`video_unshuffle/easy` 4 frames, `/hard` 5; spec §3.7).
//!
//! The set holds the Something-Something v2 layout the reference reads:
//! `labels/train.json` (`id`, `label`) and `20bn-something-something-v2/<id>.webm`. The
//! constructor sorts the pairs by id (as strings) and shuffles them with the legacy
//! `RandomState`; each reset takes the next clip round-robin (skipping ones that do not
//! open), picks its frames by the evaluation's "salient" rule (frame 0, then each frame
//! whose mean grey difference to the last one picked is at least `min_frame_diff`,
//! within the first `max_frames_to_analyze`; else evenly spaced ones), and shuffles
//! their order. The bundled clips are AVI files of PNG frames (`images::clip`).

use std::sync::Arc;

use serde_json::{json, Value};

use super::action::{resolve_worded, Resolved, StepResult, EXECUTED};
use super::images::clip::{Clip, ClipError};
use super::images::{ImageSet, RgbImage};
use super::python::{py_str_checked, PyException, PyValue};
use super::signature::FnSig;
use super::slot_order;
use super::solve_kwargs::SolveKwargs;
use super::spaces::ArgSpace;
use super::{RenderMode, VisGymEnv};
use crate::core::env::{KeyBinding, Words};
use crate::core::frame::Frame;
use crate::core::input::{Gesture, PointerMode};
use crate::render::font;
use crate::rng::RandomState;

/// Frames are shown at 224 × 224.
const SIDE: u32 = 224;
const LABELS: &str = "labels/train.json";
const VIDEOS: &str = "20bn-something-something-v2";

/// How the frames of a clip are chosen (`sampling_strategy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sampling {
    Salient,
    Uniform,
}

#[derive(Clone, Debug)]
pub struct VideoUnshuffleConfig {
    pub num_frames: usize,
    pub seed: u32,
    pub sampling: Sampling,
    pub min_frame_diff: f64,
    pub max_frames_to_analyze: usize,
    pub video_label: Option<String>,
    pub videos: Arc<ImageSet>,
}

#[derive(Clone, Debug)]
pub struct VideoUnshuffle {
    n: usize,
    sampling: Sampling,
    min_diff: f64,
    max_analyze: usize,
    videos: Arc<ImageSet>,
    /// `(id, label)` in play order.
    pairs: Arc<Vec<(String, String)>>,
    selection: usize,
    rng: RandomState,
    current: Option<usize>,
    positions: Vec<usize>,
    frames: Vec<Arc<RgbImage>>,
    /// Frame ids (1-based, in time order) by slot: the reference's `shuffled_order`.
    order: Vec<usize>,
    correct: Vec<usize>,
    failure: Option<PyException>,
}

/// `cv2.cvtColor(RGB2GRAY)` for 8 bits: OpenCV's fixed-point weights.
fn grey(img: &RgbImage) -> Vec<u8> {
    img.data
        .chunks_exact(3)
        .map(|p| {
            let v = u32::from(p[0]) * 9798 + u32::from(p[1]) * 19235 + u32::from(p[2]) * 3735;
            ((v + (1 << 14)) >> 15) as u8
        })
        .collect()
}

/// `np.mean(cv2.absdiff(a, b)) / 255.0` (the sum is a whole number, exact in f64).
fn difference(a: &[u8], b: &[u8]) -> f64 {
    let sum: u64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    sum as f64 / a.len() as f64 / 255.0
}

/// The label as Python's `str()` shows a JSON value.
fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        other => other.to_string(),
    }
}

impl VideoUnshuffle {
    pub fn new(config: VideoUnshuffleConfig) -> Result<Self, String> {
        if config.num_frames == 0 {
            return Err("num_frames must be at least 1".into());
        }
        let file = config.videos.get(LABELS).ok_or_else(|| {
            format!("FileNotFoundError: {LABELS} is not in the video set (a Something-Something v2 folder: labels/train.json and {VIDEOS}/)")
        })?;
        let labels: Value =
            serde_json::from_slice(&file.read()?).map_err(|e| format!("{LABELS}: {e}"))?;
        let items = labels
            .as_array()
            .ok_or_else(|| format!("{LABELS} must hold a list"))?;
        let mut pairs = Vec::new();
        for item in items {
            let (Some(id), Some(label)) = (item.get("id"), item.get("label")) else {
                return Err(format!(
                    "KeyError: every entry of {LABELS} needs an id and a label"
                ));
            };
            pairs.push((text_of(id), text_of(label)));
        }
        if let Some(want) = &config.video_label {
            pairs.retain(|(_, l)| l.contains(want.as_str()));
        }
        // Sorted by `str(id)` (code points, as UTF-8 bytes sort), stable.
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        let mut rng = RandomState::new(config.seed);
        rng.shuffle(&mut pairs);
        Ok(VideoUnshuffle {
            n: config.num_frames,
            sampling: config.sampling,
            min_diff: config.min_frame_diff,
            max_analyze: config.max_frames_to_analyze,
            videos: config.videos,
            pairs: Arc::new(pairs),
            selection: 0,
            rng,
            current: None,
            positions: Vec::new(),
            frames: Vec::new(),
            order: (1..=config.num_frames).collect(),
            correct: Vec::new(),
            failure: None,
        })
    }

    /// A frame as the reference uses it: 224 × 224 (its resize of other sizes is not
    /// reproduced).
    fn frame(clip: &Clip, i: usize) -> Result<Option<RgbImage>, PyException> {
        match clip.frame(i) {
            Some(f) if f.width == SIDE && f.height == SIDE => Ok(Some(f)),
            Some(f) => Err(PyException::new(
                "ValueError",
                format!(
                    "a {}x{} frame: clips must be 224x224 here (the reference resizes others with OpenCV, which is not reproduced)",
                    f.width, f.height
                ),
            )),
            None => Ok(None),
        }
    }

    /// `_uniform_positions`: evenly spaced frames without the ends.
    fn uniform(&self, total: usize) -> Vec<usize> {
        let limit = total.min(self.max_analyze);
        if limit <= self.n {
            return (limit.saturating_sub(self.n)..limit).collect();
        }
        let step = (limit - 1) as f64 / (self.n + 1) as f64;
        let mut idx: Vec<usize> = (1..=self.n).map(|k| (k as f64 * step) as usize).collect();
        idx.dedup();
        // The reference pads duplicates with unseeded draws; the first unused frames
        // stand in for them here (only when `limit` is `num_frames + 1`).
        let mut k = 0;
        while idx.len() < self.n {
            if !idx.contains(&k) {
                idx.push(k);
                idx.sort_unstable();
            }
            k += 1;
        }
        idx
    }

    /// `_find_salient_frames`.
    fn salient(&self, clip: &Clip) -> Result<Vec<usize>, PyException> {
        let total = clip.len();
        let analyze = total.min(self.max_analyze);
        if analyze == 0 {
            return Ok(Vec::new());
        }
        let Some(first) = Self::frame(clip, 0)? else {
            return Ok(self.uniform(total));
        };
        let mut selected = vec![0];
        let mut reference = grey(&first);
        for i in 1..analyze {
            let Some(f) = Self::frame(clip, i)? else {
                continue;
            };
            let g = grey(&f);
            if difference(&reference, &g) >= self.min_diff {
                selected.push(i);
                reference = g;
                if selected.len() >= self.n {
                    break;
                }
            }
        }
        Ok(if selected.len() < self.n {
            self.uniform(total)
        } else {
            selected
        })
    }

    /// Frames of the clip at `positions`, or `None` where the reference moves on.
    fn extract(&mut self, clip: &Clip) -> Result<Option<Vec<RgbImage>>, PyException> {
        let total = clip.len();
        let positions = match self.sampling {
            Sampling::Uniform => self.uniform(total),
            Sampling::Salient => self.salient(clip)?,
        };
        let positions: Vec<usize> = positions
            .into_iter()
            .map(|p| p.min(total.saturating_sub(1)))
            .collect();
        self.positions = positions.clone();
        if positions.len() != self.n {
            return Ok(None);
        }
        let mut frames = Vec::new();
        for p in positions {
            match Self::frame(clip, p)? {
                Some(f) => frames.push(f),
                None => return Ok(None),
            }
        }
        Ok(Some(frames))
    }

    fn load(&mut self) -> Result<(), PyException> {
        for _ in 0..100 {
            if self.pairs.is_empty() {
                return Err(PyException::new(
                    "RuntimeError",
                    "No videos available after filtering.",
                ));
            }
            let at = self.selection;
            self.current = Some(at);
            self.selection = (at + 1) % self.pairs.len();
            let path = format!("{VIDEOS}/{}.webm", self.pairs[at].0);
            let Some(file) = self.videos.get(&path) else {
                continue;
            };
            let Ok(bytes) = file.read() else {
                continue;
            };
            let clip = match Clip::read(bytes) {
                Ok(c) => c,
                Err(ClipError::Unreadable(_)) => continue,
                Err(ClipError::Unsupported(why)) => {
                    return Err(PyException::new("ValueError", format!("{path} is {why}")))
                }
            };
            let Some(frames) = self.extract(&clip)? else {
                continue;
            };
            self.frames = frames.into_iter().map(Arc::new).collect();
            let mut order: Vec<usize> = (1..=self.n).collect();
            self.rng.shuffle(&mut order);
            self.correct = vec![0; self.n];
            for (i, &fid) in order.iter().enumerate() {
                self.correct[fid - 1] = i + 1;
            }
            self.order = order;
            return Ok(());
        }
        Err(PyException::new(
            "RuntimeError",
            "Could not load a usable video after many attempts.",
        ))
    }

    fn solved(&self) -> bool {
        self.order.iter().enumerate().all(|(i, &f)| f == i + 1)
    }

    fn swaps(&self) -> Vec<String> {
        let mut state = self.order.clone();
        let mut out = Vec::new();
        for i in 0..state.len() {
            if state[i] != i + 1 {
                let j = state.iter().position(|&f| f == i + 1).unwrap_or(i);
                state.swap(i, j);
                out.push(format!("('swap', ({}, {}))", i + 1, j + 1));
            }
        }
        out.push("('stop', 'stop')".into());
        out
    }

    fn reorder(&self) -> Vec<String> {
        let p: Vec<String> = (1..=self.n)
            .map(|f| {
                let at = self.order.iter().position(|&x| x == f).unwrap_or(0);
                (at + 1).to_string()
            })
            .collect();
        vec![
            format!("('reorder', [{}])", p.join(", ")),
            "('stop', 'stop')".into(),
        ]
    }

    fn label(&self) -> Option<&str> {
        self.current.map(|i| self.pairs[i].1.as_str())
    }

    /// The slot under a point of the frame.
    fn slot_at(&self, x: f64, y: f64) -> Option<usize> {
        let s = f64::from(SIDE);
        (x >= 0.0 && y >= 0.0 && y < s && x < s * self.n as f64).then(|| (x / s) as usize)
    }
}

/// A swap's 1-based index as Python subtracts and indexes with it.
fn index(v: &PyValue) -> Result<usize, PyException> {
    match v {
        PyValue::Bool(b) => Ok(usize::from(*b).wrapping_sub(1)),
        PyValue::Int(i) => Ok(i.as_i64().unwrap_or(1).wrapping_sub(1) as usize),
        other => Err(PyException::new(
            "TypeError",
            format!(
                "list indices must be integers or slices, not {}",
                other.type_name()
            ),
        )),
    }
}

/// The slot number's box: `cv2.getTextSize` of Hershey Simplex 0.8, thickness 2, is
/// 18 × 18 for a digit (16 more per further digit), padded by 5.
fn label_box(slot: usize) -> (i64, i64, i64, i64) {
    let digits = slot.to_string().len() as i64;
    let (tw, th) = (16 * digits + 2, 18);
    let x = i64::from(SIDE) - tw - 5;
    let y = i64::from(SIDE) - 5;
    (x, y, tw, th)
}

impl VisGymEnv for VideoUnshuffle {
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
        if let Err(e) = self.load() {
            self.failure = Some(e);
        }
    }

    fn reset_failure(&self) -> Option<PyException> {
        self.failure.clone()
    }

    fn step(&mut self, action: &str) -> Result<StepResult, PyException> {
        let functions = self.functions();
        let n = self.n;
        // Swap and reorder word their refusals themselves.
        let refusal = |name: &str, payload: &PyValue| {
            match name {
            "swap" => Some(py_str_checked(payload).map(|p| {
                format!("Swap payload {p} is invalid. It must contain two distinct 1-based indices between 1 and {n}.")
            })),
            "reorder" => Some(py_str_checked(payload).map(|p| {
                format!("Reorder payload {p} is invalid. It must be a permutation of [1, {n}].")
            })),
            _ => None,
        }
        };
        let (index_of, payload) = match resolve_worded(action, &functions, &refusal)? {
            Resolved::Rejected(f) => return Ok(StepResult::feedback(f)),
            Resolved::Call { index, payload } => (index, payload),
        };
        let items: Vec<&PyValue> = match &payload {
            PyValue::Tuple(v) | PyValue::List(v) => v.iter().collect(),
            other => vec![other],
        };
        match functions[index_of].0 {
            "swap" => {
                // `order[i], order[j] = order[j], order[i]`: j is read first.
                let j = index(items[1])?;
                let i = index(items[0])?;
                if i >= n || j >= n {
                    return Err(PyException::new("IndexError", "list index out of range"));
                }
                self.order.swap(i, j);
            }
            "reorder" => {
                let p: Vec<usize> = items.iter().map(|v| index(v)).collect::<Result<_, _>>()?;
                if p.iter().any(|&k| k >= n) {
                    return Err(PyException::new("IndexError", "list index out of range"));
                }
                self.order = p.iter().map(|&k| self.order[k]).collect();
            }
            _ => return Ok(StepResult::stopped(self.solved())),
        }
        Ok(StepResult::feedback(EXECUTED))
    }

    fn state_json(&self, at_reset: bool) -> Value {
        let mut s = json!({ "shuffled_order": self.order });
        if at_reset {
            let pair = self.current.map(|i| &self.pairs[i]);
            s["video_id"] = json!(pair.map(|p| &p.0));
            s["label"] = json!(pair.map(|p| &p.1));
            s["frame_positions"] = json!(self.positions);
            s["correct_order"] = json!(self.correct);
        }
        s
    }

    fn prompt(&self, mode: RenderMode) -> Option<String> {
        if mode != RenderMode::RgbArray {
            return None;
        }
        let n = self.n;
        let label = self.label().unwrap_or("None");
        Some(format!(
            "You are given {n} video frames extracted from a short clip, laid out left→right in a shuffled order and labeled 1 through {n}. The action being performed in the video is: '{label}'.\n\n\
Your goal is to rearrange the frames so they appear in their original chronological order from left to right. Pay attention to the temporal progression of the action described above.\n\n\
Available actions:\n\
1. 'swap': Swap two frames by specifying their 1-based positions. Format: `('swap', (i, j))`\n\
2. 'reorder': Provide the complete ordering in one shot. Format: `('reorder', [1, 2, ..., {n}])` where the list gives the desired left-to-right arrangement.\n\
3. 'stop': Finish and lock in the current ordering. Format: `('stop', 'stop')`\n\n\
Please respond with exactly one action and its arguments in the specified format. For example:\n\
- Swap the first and third frames: `('swap', (1, 3))`\n\
- Reorder all frames: `('reorder', [2, 1, 4, 3, ..., {n}])`\n\
- Finalize the ordering: `('stop', 'stop')`"
        ))
    }

    fn text_frame(&self) -> Option<String> {
        None
    }

    fn frame_size(&self) -> (u32, u32) {
        (SIDE * self.n as u32, SIDE)
    }

    fn render(&self, frame: &mut Frame) {
        let (w, h) = self.frame_size();
        frame.resize(w, h);
        frame.fill([0, 0, 0]);
        if self.frames.len() != self.n {
            return;
        }
        let side = SIDE as usize;
        let row = w as usize * 3;
        for (slot, &fid) in self.order.iter().enumerate() {
            let Some(img) = self.frames.get(fid.wrapping_sub(1)) else {
                continue;
            };
            let data = frame.data_mut();
            for y in 0..side {
                let at = y * row + slot * side * 3;
                data[at..at + side * 3]
                    .copy_from_slice(&img.data[y * side * 3..(y + 1) * side * 3]);
            }
            // The box blended 60 % black (`addWeighted`: round(0.4 · v)), then the number.
            let (x, y, tw, th) = label_box(slot + 1);
            let x0 = slot as i64 * i64::from(SIDE);
            for yy in (y - th - 5).max(0)..=(y + 5).min(i64::from(SIDE) - 1) {
                for xx in (x - 5).max(0)..=(x + tw + 5).min(i64::from(SIDE) - 1) {
                    let i = yy as usize * row + (x0 + xx) as usize * 3;
                    for v in &mut data[i..i + 3] {
                        *v = (f64::from(*v) * 0.4).round() as u8;
                    }
                }
            }
            let text = (slot + 1).to_string();
            let tw_font = i64::from(font::text_width(&text, 2));
            font::draw_text(
                frame,
                x0 + x + (tw - tw_font) / 2,
                y - th + 2,
                &text,
                2,
                [255, 255, 255],
            );
        }
    }

    fn solve(&self) -> Vec<String> {
        self.swaps()
    }

    fn solve_named(&self, name: &str) -> Option<Vec<String>> {
        match name {
            "oracle" | "swap" => Some(self.swaps()),
            "reorder" => Some(self.reorder()),
            _ => None,
        }
    }

    fn functions(&self) -> Vec<(&'static str, ArgSpace)> {
        slot_order::functions(self.n)
    }

    fn clone_box(&self) -> Box<dyn VisGymEnv> {
        Box::new(self.clone())
    }

    fn signatures(&self) -> Vec<FnSig> {
        slot_order::signatures(self.n, "frames")
    }

    /// `solve(strategy="swap", num_steps=None)`.
    fn solve_kwargs(&self, kw: &mut SolveKwargs) -> Result<Vec<String>, String> {
        let strategy = kw.choice("strategy", "swap", &["swap", "reorder"])?;
        kw.ignored("num_steps");
        Ok(if strategy == "reorder" {
            self.reorder()
        } else {
            self.swaps()
        })
    }

    /// Every swap of two different positions, then stop.
    fn presets(&self) -> Vec<String> {
        slot_order::presets(self.n)
    }

    fn keymap(&self) -> Vec<KeyBinding> {
        slot_order::keymap(self.n)
    }

    fn pointer_mode(&self) -> Option<PointerMode> {
        Some(PointerMode::Drag)
    }

    /// Dragging a frame onto another swaps the two.
    fn pointer_action(&self, gesture: Gesture) -> Option<String> {
        let Gesture::Drag { from, to } = gesture else {
            return None;
        };
        slot_order::drag_swap(self.slot_at(from.0, from.1), self.slot_at(to.0, to.1))
    }

    fn mission(&self) -> Option<String> {
        Some(format!(
            "Put the frames of “{}” in time order, left to right, then stop",
            self.label()?
        ))
    }

    fn words(&self) -> Words {
        Words {
            goal: "Put the frames in the order they happened, then stop",
            success: "stopped with the frames in time order",
            failure: "stopped with the frames out of order",
        }
    }

    /// Frames not in their place.
    fn remaining(&self) -> f64 {
        self.order
            .iter()
            .enumerate()
            .filter(|(i, &f)| f != i + 1)
            .count() as f64
    }
}
