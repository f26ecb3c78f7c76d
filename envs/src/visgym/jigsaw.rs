//! Jigsaw: a picture cut into R×C pieces (`jigsaw/easy` 2×2, `/hard` 3×3) and shown in a
//! scrambled order; the agent swaps pieces or reorders them all, and stops when the
//! picture is whole (docs/visgym.md, spec §3.1).
//!
//! The constructor lists the image set (top level and one folder down) and draws the
//! order the pictures are played in; each reset takes the next picture, reseeds the
//! generator when given a seed and draws the target arrangement. Pieces are drawn with a
//! one-pixel white border on a black canvas, pixel for pixel as Pillow pastes them.

use std::sync::Arc;

use serde_json::{json, Value};

use super::action::{resolve, Resolved, StepResult, EXECUTED};
use super::images::{decode_rgb, ImageFile, ImageSet, Listing, RgbImage};
use super::python::{PyException, PyValue};
use super::signature::{FnSig, Payload};
use super::solve_kwargs::SolveKwargs;
use super::spaces::ArgSpace;
use super::{RenderMode, VisGymEnv};
use crate::core::action::ArgKind;
use crate::core::env::{KeyBinding, Words};
use crate::core::frame::Frame;
use crate::core::input::{Gesture, PointerMode};
use crate::rng::NpRandom;

/// The reference's `border_width`.
const BORDER: usize = 1;

#[derive(Clone, Debug)]
pub struct JigsawConfig {
    pub rows: usize,
    pub cols: usize,
    pub seed: u64,
    pub images: Arc<ImageSet>,
}

#[derive(Clone, Debug)]
pub struct Jigsaw {
    rows: usize,
    cols: usize,
    rng: NpRandom,
    samples: Vec<ImageFile>,
    sample_sequence: Vec<usize>,
    sample_idx: Option<usize>,
    image: Option<Arc<RgbImage>>,
    current: Vec<usize>,
    target: Vec<usize>,
    failure: Option<PyException>,
}

/// Widths of `n` slices of `total`: the first `total % n` one wider.
fn slices(total: usize, n: usize) -> Vec<(usize, usize)> {
    let (base, extra) = (total / n, total % n);
    let mut at = 0;
    (0..n)
        .map(|i| {
            let len = base + usize::from(i < extra);
            let start = at;
            at += len;
            (start, len)
        })
        .collect()
}

impl Jigsaw {
    /// Lists the set and draws the sample order; an empty listing is the reference's
    /// `ValueError`.
    pub fn new(config: JigsawConfig) -> Result<Self, String> {
        if config.rows == 0 || config.cols == 0 {
            return Err("num_rows and num_cols must be positive integers".into());
        }
        let samples = config.images.list(Listing::TopAndOneDown);
        if samples.is_empty() {
            return Err(
                "No valid images found in sample_dir (Jigsaw takes *.png, *.jpg, *.jpeg at the top and one folder down)"
                    .into(),
            );
        }
        let mut rng = NpRandom::seeded(u128::from(config.seed));
        let mut sample_sequence: Vec<usize> = (0..samples.len()).collect();
        rng.shuffle(&mut sample_sequence);
        Ok(Jigsaw {
            rows: config.rows,
            cols: config.cols,
            rng,
            samples,
            sample_sequence,
            sample_idx: None,
            image: None,
            current: Vec::new(),
            target: Vec::new(),
            failure: None,
        })
    }

    fn n(&self) -> usize {
        self.rows * self.cols
    }

    fn solved(&self) -> bool {
        self.current == self.target
    }

    fn functions_of(rows: usize, cols: usize) -> Vec<(&'static str, ArgSpace)> {
        vec![
            (
                "swap",
                ArgSpace::MultiDiscreteNd {
                    nvec: vec![rows as i64, cols as i64, rows as i64, cols as i64],
                    shape: vec![2, 2],
                    start: 0,
                },
            ),
            (
                "reorder",
                ArgSpace::Permutation {
                    n: rows * cols,
                    start: 0,
                },
            ),
            ("stop", ArgSpace::text4()),
        ]
    }

    /// The reference's "reorder" solver.
    fn reorder_solution(&self) -> Vec<String> {
        let stop = "('stop', 'stop')".to_string();
        if self.solved() {
            return vec![stop];
        }
        let position: Vec<String> = self
            .target
            .iter()
            .map(|piece| {
                let at = self.current.iter().position(|p| p == piece).unwrap_or(0);
                at.to_string()
            })
            .collect();
        vec![format!("('reorder', [{}])", position.join(", ")), stop]
    }

    /// The piece under a frame point: its position index.
    fn position_at(&self, x: f64, y: f64) -> Option<usize> {
        let image = self.image.as_ref()?;
        let find = |v: f64, total: u32, n: usize| {
            slices(total as usize, n)
                .iter()
                .enumerate()
                .position(|(i, &(start, len))| {
                    let lo = (start + 2 * BORDER * i) as f64;
                    v >= lo && v < lo + (len + 2 * BORDER) as f64
                })
        };
        let col = find(x, image.width, self.cols)?;
        let row = find(y, image.height, self.rows)?;
        Some(row * self.cols + col)
    }
}

impl VisGymEnv for Jigsaw {
    fn reset(&mut self, seed: Option<u64>) {
        if let Some(s) = seed {
            self.rng = NpRandom::seeded(u128::from(s));
        }
        self.failure = None;
        let idx = self.sample_idx.map_or(0, |i| i + 1);
        self.sample_idx = Some(idx);
        let Some(&k) = self.sample_sequence.get(idx) else {
            self.failure = Some(PyException {
                class: "Exception",
                message: "All samples exhausted".into(),
            });
            return;
        };
        let image = match decode_rgb(&self.samples[k]) {
            Ok(img) => img,
            Err(why) => {
                self.failure = Some(PyException {
                    class: "UnidentifiedImageError",
                    message: why,
                });
                return;
            }
        };
        self.image = Some(Arc::new(image));
        let n = self.n();
        let identity: Vec<usize> = (0..n).collect();
        let mut target = identity.clone();
        self.rng.shuffle(&mut target);
        while target == identity {
            self.rng.shuffle(&mut target);
        }
        self.target = target;
        self.current = identity;
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
        match functions[index].0 {
            "swap" => {
                let cells = items(&payload);
                let (a, b) = (items(cells[0]), items(cells[1]));
                // `pos = row * cols + col`; the right-hand side of the swap reads
                // `state[pos2]` first, so its index type is checked first.
                let pos1 = position(a[0], a[1], self.cols);
                let pos2 = position(b[0], b[1], self.cols)?;
                self.current.swap(pos1?, pos2);
            }
            "reorder" => {
                let p: Vec<usize> = items(&payload).into_iter().map(small_index).collect();
                self.current = p.iter().map(|&i| self.current[i]).collect();
            }
            _ => {
                return Ok(StepResult::stopped(self.solved()));
            }
        }
        Ok(StepResult::feedback(EXECUTED))
    }

    fn state_json(&self, at_reset: bool) -> Value {
        let mut s = json!({ "current_state": self.current });
        if at_reset {
            let idx = self.sample_idx.unwrap_or(0);
            let name = self
                .sample_sequence
                .get(idx)
                .map(|&k| self.samples[k].path.clone());
            s["target_state"] = json!(self.target);
            s["image_name"] = json!(name);
            s["sample_sequence"] = json!(self.sample_sequence);
            s["sample_idx"] = json!(self.sample_idx);
        }
        s
    }

    fn prompt(&self, mode: RenderMode) -> Option<String> {
        if mode != RenderMode::RgbArray {
            return None;
        }
        let (r, c, last) = (self.rows, self.cols, self.n() - 1);
        Some(format!(
            "You are solving a {r}x{c} jigsaw puzzle. The puzzle pieces are currently scrambled. \
Your goal is to rearrange the pieces to recover the image. \n\nAvailable actions:\n\
1. 'swap': Swap two pieces by specifying their coordinates. Format: `('swap', ((row1, col1), (row2, col2)))` where coordinates start from (0,0) at the top-left corner.\n\
2. 'reorder': Reorder all pieces at once. Format: `('reorder', [0, 1, 2, ..., {last}])` where the list represents the desired order of pieces from top-left to bottom-right.\n\
3. 'stop': End the puzzle solving session. Format: `('stop', 'stop')`\n\n\
Please respond with exactly one action and its arguments in the specified format. For example:\n\
- To swap two pieces: `('swap', ((0, 0), (1, 1)))`\n\
- To reorder all pieces: `('reorder', [0, 1, 2, ..., {last}])`\n\
- To stop: `('stop', 'stop')`\n\n\
Index-to-cell mapping (0-based rows/cols):\n\
- Index = row * {c} + col.\n\
- Row 0 covers indices 0..{c1}, row 1 covers {c}..{c2}, etc.\n\
Example for 2x2: (0,0)->0, (0,1)->1, (1,0)->2, (1,1)->3.\n",
            c1 = c - 1,
            c2 = 2 * c - 1,
        ))
    }

    fn text_frame(&self) -> Option<String> {
        None
    }

    fn frame_size(&self) -> (u32, u32) {
        match &self.image {
            Some(img) => (
                img.width + (2 * BORDER * self.cols) as u32,
                img.height + (2 * BORDER * self.rows) as u32,
            ),
            None => (1, 1),
        }
    }

    fn render(&self, frame: &mut Frame) {
        let (fw, fh) = self.frame_size();
        frame.resize(fw, fh);
        frame.fill([0, 0, 0]);
        let Some(image) = &self.image else {
            return;
        };
        let xs = slices(image.width as usize, self.cols);
        let ys = slices(image.height as usize, self.rows);
        // The picture of piece `target[k]` is the crop at grid index k.
        let mut source = vec![0; self.n()];
        for (k, &piece) in self.target.iter().enumerate() {
            source[piece] = k;
        }
        let (fw, fh) = (fw as usize, fh as usize);
        let out = frame.data_mut();
        for (pos, &piece) in self.current.iter().enumerate() {
            let (row, col) = (pos / self.cols, pos % self.cols);
            let left = xs[col].0 + 2 * BORDER * col;
            let top = ys[row].0 + 2 * BORDER * row;
            let k = source[piece];
            let (sx, pw) = xs[k % self.cols];
            let (sy, ph) = ys[k / self.cols];
            for y in 0..ph + 2 * BORDER {
                let fy = top + y;
                if fy >= fh {
                    break;
                }
                for x in 0..pw + 2 * BORDER {
                    let fx = left + x;
                    if fx >= fw {
                        break;
                    }
                    let inside =
                        (BORDER..BORDER + pw).contains(&x) && (BORDER..BORDER + ph).contains(&y);
                    let rgb = if inside {
                        image.pixel((sx + x - BORDER) as u32, (sy + y - BORDER) as u32)
                    } else {
                        [255, 255, 255]
                    };
                    let i = (fy * fw + fx) * 3;
                    out[i..i + 3].copy_from_slice(&rgb);
                }
            }
        }
    }

    fn solve(&self) -> Vec<String> {
        self.reorder_solution()
    }

    fn solve_named(&self, name: &str) -> Option<Vec<String>> {
        matches!(name, "oracle" | "reorder").then(|| self.reorder_solution())
    }

    fn functions(&self) -> Vec<(&'static str, ArgSpace)> {
        Self::functions_of(self.rows, self.cols)
    }

    fn clone_box(&self) -> Box<dyn VisGymEnv> {
        Box::new(self.clone())
    }

    fn signatures(&self) -> Vec<FnSig> {
        let cell = ArgKind::Cell {
            rows: self.rows as u32,
            cols: self.cols as u32,
        };
        vec![
            FnSig::new(
                "swap",
                "Swap the pieces at two cells (row, column), counted from (0, 0) at the top left",
                Payload::CellPairs,
                &[("first", cell.clone()), ("second", cell)],
            ),
            FnSig::new(
                "reorder",
                "Rearrange every piece at once: position k takes the piece now at position p[k]",
                Payload::Value,
                &[(
                    "order",
                    ArgKind::Permutation {
                        n: self.n(),
                        base: 0,
                    },
                )],
            ),
            FnSig::stop(),
        ]
    }

    /// `solve(strategy="reorder")`; the "swap" strategy draws from an unseeded generator.
    fn solve_kwargs(&self, kw: &mut SolveKwargs) -> Result<Vec<String>, String> {
        kw.choice("strategy", "reorder", &["reorder"])?;
        kw.ignored("num_steps");
        Ok(self.reorder_solution())
    }

    /// Every swap of two different cells, then stop.
    fn presets(&self) -> Vec<String> {
        let n = self.n();
        let cell = |i: usize| format!("({}, {})", i / self.cols, i % self.cols);
        let mut p: Vec<String> = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .map(|(a, b)| format!("('swap', ({}, {}))", cell(a), cell(b)))
            .collect();
        p.push("('stop', 'stop')".to_string());
        p
    }

    /// Enter stops (the swaps are played by dragging, or from the list).
    fn keymap(&self) -> Vec<KeyBinding> {
        let n = self.n();
        vec![KeyBinding::new("Enter", n * (n - 1) / 2)]
    }

    fn pointer_mode(&self) -> Option<PointerMode> {
        Some(PointerMode::Drag)
    }

    /// Dragging a piece onto another swaps the two.
    fn pointer_action(&self, gesture: Gesture) -> Option<String> {
        let Gesture::Drag { from, to } = gesture else {
            return None;
        };
        let a = self.position_at(from.0, from.1)?;
        let b = self.position_at(to.0, to.1)?;
        if a == b {
            return None;
        }
        let cell = |i: usize| format!("({}, {})", i / self.cols, i % self.cols);
        Some(format!("('swap', ({}, {}))", cell(a), cell(b)))
    }

    fn words(&self) -> Words {
        Words {
            goal: "Rearrange the pieces until the picture is whole, then stop",
            success: "stopped with the picture whole",
            failure: "stopped before the picture was whole",
        }
    }

    /// Pieces not yet in their place.
    fn remaining(&self) -> f64 {
        self.current
            .iter()
            .zip(&self.target)
            .filter(|(a, b)| a != b)
            .count() as f64
    }
}

/// The items of a validated tuple or list payload.
fn items(v: &PyValue) -> Vec<&PyValue> {
    match v {
        PyValue::Tuple(items) | PyValue::List(items) => items.iter().collect(),
        other => vec![other],
    }
}

/// A validated small integer (an int or a bool: bools index lists as 0 and 1).
fn small_index(v: &PyValue) -> usize {
    match v {
        PyValue::Bool(b) => usize::from(*b),
        PyValue::Int(i) => i.as_i64().unwrap_or(0) as usize,
        _ => 0,
    }
}

/// `row * cols + col` as a list index: a float or complex coordinate makes the sum one,
/// and Python refuses it as an index.
fn position(row: &PyValue, col: &PyValue, cols: usize) -> Result<usize, PyException> {
    let kind = |v: &PyValue| match v {
        PyValue::Float(_) => Some("float"),
        PyValue::Complex(..) => Some("complex"),
        _ => None,
    };
    // complex wins over float in the sum's type.
    let wider = match (kind(row), kind(col)) {
        (Some("complex"), _) | (_, Some("complex")) => Some("complex"),
        (a, b) => a.or(b),
    };
    match wider {
        Some(t) => Err(PyException {
            class: "TypeError",
            message: format!("list indices must be integers or slices, not {t}"),
        }),
        None => Ok(small_index(row) * cols + small_index(col)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visgym::images::{shelf, BUNDLED};

    fn one_picture_and(extra: Vec<ImageFile>) -> Arc<ImageSet> {
        shelf::shelve_bundled_for_tests();
        let first = shelf::get(BUNDLED).unwrap().files()[0].clone();
        let mut files = vec![first];
        files.extend(extra);
        Arc::new(ImageSet::new(files).unwrap())
    }

    fn jigsaw(images: Arc<ImageSet>) -> Jigsaw {
        Jigsaw::new(JigsawConfig {
            rows: 2,
            cols: 2,
            seed: 0,
            images,
        })
        .unwrap()
    }

    #[test]
    fn running_out_of_pictures_and_unreadable_ones_fail_the_reset() {
        let mut env = jigsaw(one_picture_and(vec![]));
        env.reset(Some(1));
        assert_eq!(env.reset_failure(), None);
        let before = env.state_json(false);
        env.reset(None);
        let failure = env.reset_failure().unwrap();
        assert_eq!(
            (failure.class, failure.message.as_str()),
            ("Exception", "All samples exhausted")
        );
        assert_eq!(
            env.state_json(false),
            before,
            "the last episode's state stays"
        );

        let bad = ImageFile::new("zz.png", &b"not a picture"[..]);
        let mut env = jigsaw(one_picture_and(vec![bad]));
        for _ in 0..2 {
            env.reset(None);
        }
        let failure = env.reset_failure().unwrap();
        assert!(failure.message.contains("zz.png"), "{failure:?}");
        let empty = Arc::new(ImageSet::new(vec![ImageFile::new("a.txt", &b""[..])]).unwrap());
        assert!(Jigsaw::new(JigsawConfig {
            rows: 2,
            cols: 2,
            seed: 0,
            images: empty
        })
        .is_err());
    }

    #[test]
    fn dragging_a_piece_onto_another_swaps_them() {
        let mut env = jigsaw(one_picture_and(vec![]));
        env.reset(Some(3));
        let (w, h) = env.frame_size();
        let (x0, y0) = (5.0, 5.0);
        let (x1, y1) = (f64::from(w) - 5.0, f64::from(h) - 5.0);
        let drag = Gesture::Drag {
            from: (x0, y0),
            to: (x1, y1),
        };
        assert_eq!(
            env.pointer_action(drag).as_deref(),
            Some("('swap', ((0, 0), (1, 1)))")
        );
        let same = Gesture::Drag {
            from: (x0, y0),
            to: (x0 + 3.0, y0),
        };
        assert_eq!(env.pointer_action(same), None);
        let before = env.current.clone();
        env.step("('swap', ((0, 0), (1, 1)))").unwrap();
        assert_eq!((env.current[0], env.current[3]), (before[3], before[0]));
    }
}
