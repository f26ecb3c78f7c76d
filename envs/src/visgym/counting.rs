//! Counting: a picture and a category; the agent may mark instances with red dots
//! (`mark`, `undo`), records a count (`guess`) and stops; it succeeds if the last guess
//! is the true count (`counting/easy` 2–20 instances, `/hard` 5–30; spec §3.5).
//!
//! The samples come from an annotation file in the LVIS v1 layout inside the image set
//! (`lvis_v1_train.json` beside the pictures): per image, in annotation order, the first
//! category that is exhaustively annotated and whose count is in range; sorted by image
//! and category id, then permuted by the constructor seed. The bundled set is generated
//! scenes (scripts/visgym-scenes/build.py); the original LVIS files work the same way.
//! Instance centres (for the solver) are mask centroids from the polygons, rasterised
//! as pycocotools does (`images::coco_mask`).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde_json::{json, Value};

use super::action::{resolve, Resolved, StepResult, EXECUTED};
use super::images::coco_mask::{segmentation_rles, Rle};
use super::images::{decode_rgb, ImageSet, RgbImage};
use super::picture_marks::{
    centroid, click_mark, data_chunk, draw_dots, four_places, json_int, mark_pixel, mark_signature,
    mark_space, show_picture,
};
use super::python::PyException;
use super::signature::{FnSig, Payload};
use super::solve_kwargs::SolveKwargs;
use super::spaces::ArgSpace;
use super::{RenderMode, VisGymEnv};
use crate::core::action::ArgKind;
use crate::core::env::{KeyBinding, Words};
use crate::core::frame::Frame;
use crate::core::input::{Gesture, PointerMode};
use crate::rng::NpRandom;

/// The annotation file's default path inside the set.
pub const ANNOTATION_FILE: &str = "lvis_v1_train.json";

#[derive(Clone, Debug)]
pub struct CountingConfig {
    pub min_count: i64,
    pub max_count: i64,
    pub radius: i64,
    pub seed: u64,
    pub require_exhaustive: bool,
    /// `data_chunk=(start, end)`: a Python slice of the sorted samples.
    pub data_chunk: Option<(i64, i64)>,
    pub annotation_file: String,
    pub images: Arc<ImageSet>,
}

/// One sample: an image and the category counted in it.
#[derive(Clone, Debug, PartialEq)]
struct Sample {
    img_id: i64,
    cat_id: i64,
    count: i64,
    file_name: String,
}

/// What the constructor keeps of the annotation file.
#[derive(Debug)]
struct Lvis {
    /// Category names by id.
    names: BTreeMap<i64, String>,
    /// Each image's annotations, in file order: (category id, segmentation, bbox).
    anns: BTreeMap<i64, Vec<(i64, Value, Value)>>,
}

#[derive(Clone, Debug)]
pub struct Counting {
    min_count: i64,
    max_count: i64,
    radius: i64,
    images: Arc<ImageSet>,
    lvis: Arc<Lvis>,
    samples: Arc<Vec<Sample>>,
    sequence: Vec<usize>,
    /// The reference's `seq_idx` (-1 before the first reset).
    seq_idx: Option<usize>,
    picture: Option<Arc<RgbImage>>,
    /// `(height, width)` as the reference keeps them (640×480 before a picture).
    size: (u32, u32),
    category: Option<String>,
    centers: Vec<(f64, f64)>,
    dots: Vec<(i64, i64)>,
    guess: Option<i64>,
    failure: Option<PyException>,
}

fn int_field(v: &Value, key: &str, what: &str) -> Result<i64, String> {
    json_int(&v[key]).ok_or_else(|| format!("{what}: {key} must be an integer, got {}", v[key]))
}

impl Lvis {
    /// `LVIS(annotation_file)` and its index.
    fn read(doc: &Value) -> Result<Self, String> {
        let list = |key: &str| {
            doc[key]
                .as_array()
                .ok_or_else(|| format!("the annotation file has no {key} list"))
        };
        let mut names = BTreeMap::new();
        for c in list("categories")? {
            let id = int_field(c, "id", "a category")?;
            let name = match &c["name"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            names.insert(id, name);
        }
        let mut by_id: BTreeMap<i64, &Value> = BTreeMap::new();
        let mut order: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
        for a in list("annotations")? {
            let id = int_field(a, "id", "an annotation")?;
            let img = int_field(a, "image_id", "an annotation")?;
            by_id.insert(id, a);
            order.entry(img).or_default().push(id);
        }
        let mut anns = BTreeMap::new();
        for (img, ids) in order {
            let mut kept = Vec::new();
            for id in ids {
                // `get_ann_ids(img_ids=[…])` lists every id (no category or area filter);
                // `load_anns` looks each up, the last of a repeated id winning.
                let a = by_id[&id];
                let cat = int_field(a, "category_id", "an annotation")?;
                kept.push((cat, a["segmentation"].clone(), a["bbox"].clone()));
            }
            anns.insert(img, kept);
        }
        Ok(Lvis { names, anns })
    }
}

impl Counting {
    pub fn new(config: CountingConfig) -> Result<Self, String> {
        let file = config.images.get(&config.annotation_file).ok_or_else(|| {
            format!(
                "FileNotFoundError: the annotation file {} is not in the image set",
                config.annotation_file
            )
        })?;
        let bytes = file.read()?;
        let doc: Value = serde_json::from_slice(&bytes)
            .map_err(|e| format!("{}: {e}", config.annotation_file))?;
        let lvis = Lvis::read(&doc)?;
        let mut samples = Vec::new();
        // `self.imgs` is a dict by id: a repeated id keeps its first place and the last
        // entry's fields.
        let images = doc["images"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        let mut last: BTreeMap<i64, &Value> = BTreeMap::new();
        let mut order = Vec::new();
        for img in images {
            let img_id = int_field(img, "id", "an image")?;
            if last.insert(img_id, img).is_none() {
                order.push(img_id);
            }
        }
        for img_id in order {
            let info = last[&img_id];
            let Some(anns) = lvis.anns.get(&img_id).filter(|a| !a.is_empty()) else {
                continue;
            };
            let not_exhaustive: BTreeSet<i64> = info["not_exhaustive_category_ids"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_i64)
                .collect();
            let mut counts: Vec<(i64, i64)> = Vec::new();
            for (cat, _, _) in anns {
                match counts.iter_mut().find(|(c, _)| c == cat) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((*cat, 1)),
                }
            }
            for (cat, count) in counts {
                if config.require_exhaustive && not_exhaustive.contains(&cat) {
                    continue;
                }
                if config.min_count <= count && count <= config.max_count {
                    let mut name = info["file_name"].as_str().unwrap_or_default().to_string();
                    if name.is_empty() {
                        if let Some(url) = info["coco_url"].as_str() {
                            name = url.rsplit('/').next().unwrap_or_default().to_string();
                        }
                    }
                    if !name.is_empty() {
                        samples.push(Sample {
                            img_id,
                            cat_id: cat,
                            count,
                            file_name: name,
                        });
                        break;
                    }
                }
            }
        }
        if samples.is_empty() {
            return Err(
                "ValueError: No valid LVIS samples found under the given constraints.".into(),
            );
        }
        samples.sort_by_key(|s| (s.img_id, s.cat_id));
        let samples = data_chunk(samples, config.data_chunk);
        let mut rng = NpRandom::seeded(u128::from(config.seed));
        let mut sequence: Vec<usize> = (0..samples.len()).collect();
        // `permutation(n)` shuffles `arange(n)`.
        rng.shuffle(&mut sequence);
        Ok(Counting {
            min_count: config.min_count,
            max_count: config.max_count,
            radius: config.radius,
            images: config.images,
            lvis: Arc::new(lvis),
            samples: Arc::new(samples),
            sequence,
            seq_idx: None,
            picture: None,
            size: (480, 640),
            category: None,
            centers: Vec::new(),
            dots: Vec::new(),
            guess: None,
            failure: None,
        })
    }

    fn sample(&self) -> Option<&Sample> {
        let i = *self.sequence.get(self.seq_idx?)?;
        self.samples.get(i)
    }

    fn load(&mut self) -> Result<(), PyException> {
        let sample = self.sample().cloned().ok_or_else(|| PyException {
            class: "ValueError",
            message: "All LVIS samples exhausted.".into(),
        })?;
        let name = self.lvis.names.get(&sample.cat_id).ok_or(PyException {
            class: "KeyError",
            message: sample.cat_id.to_string(),
        })?;
        self.category = Some(name.clone());
        let cannot = || PyException {
            class: "RuntimeError",
            message: format!("Could not load image: {}", sample.file_name),
        };
        let file = self.images.get(&sample.file_name).ok_or_else(cannot)?;
        let picture = decode_rgb(file).map_err(|_| cannot())?;
        self.size = (picture.height, picture.width);
        let (h, w) = self.size;
        self.centers.clear();
        for (cat, segm, bbox) in self.lvis.anns.get(&sample.img_id).into_iter().flatten() {
            if *cat != sample.cat_id {
                continue;
            }
            let mask = ann_mask(segm, h, w).map_err(|message| PyException {
                class: "TypeError",
                message,
            })?;
            if let Some(c) = mask.and_then(|(m, mw)| centroid(&m, mw)) {
                self.centers.push(c);
                continue;
            }
            let b = |i: usize| bbox[i].as_f64().unwrap_or(f64::NAN);
            self.centers.push((b(0) + b(2) / 2.0, b(1) + b(3) / 2.0));
        }
        self.picture = Some(Arc::new(picture));
        Ok(())
    }

    fn solution(&self, guess_only: bool) -> Vec<String> {
        let mut out = Vec::new();
        if !guess_only {
            let (h, w) = self.size;
            for &(cx, cy) in &self.centers {
                let x = (cx / f64::from(w.max(2) - 1)).clamp(0.0, 1.0);
                let y = (cy / f64::from(h.max(2) - 1)).clamp(0.0, 1.0);
                out.push(format!(
                    "('mark', ({}, {}))",
                    four_places(x),
                    four_places(y)
                ));
            }
        }
        let count = self.sample().map_or(0, |s| s.count);
        out.push(format!("('guess', {count})"));
        out.push("('stop', 'stop')".into());
        out
    }

    fn true_count(&self) -> i64 {
        self.sample().map_or(0, |s| s.count)
    }
}

fn py_type(v: &Value) -> &'static str {
    match v {
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::Bool(_) => "bool",
        Value::Null => "NoneType",
        Value::String(_) => "str",
    }
}

/// `_ann_to_mask`: the union of the polygons (or the RLE as given) at the picture's
/// size, row-major with its width; `None` without a segmentation.
fn ann_mask(segm: &Value, h: u32, w: u32) -> Result<Option<(Vec<u8>, usize)>, String> {
    let rle = match segm {
        Value::Array(_) => Rle::merge(&segmentation_rles(segm, h, w)?, false),
        Value::Object(o) if o.contains_key("counts") && !o["counts"].is_string() => {
            // `maskUtils.decode` reads the counts as bytes.
            return Err(format!("expected bytes, {} found", py_type(&o["counts"])));
        }
        Value::Object(o) if o.contains_key("counts") => {
            let rles = segmentation_rles(segm, h, w)?;
            match rles.into_iter().next() {
                Some(r) => r,
                None => return Ok(None),
            }
        }
        _ => return Ok(None),
    };
    let width = rle.width as usize;
    Ok(Some((rle.to_mask(), width)))
}

impl VisGymEnv for Counting {
    fn reset(&mut self, _seed: Option<u64>) {
        // `reset(seed=…)` reseeds a generator nothing here draws from again.
        self.dots.clear();
        self.guess = None;
        self.failure = None;
        self.seq_idx = Some(self.seq_idx.map_or(0, |i| i + 1));
        if let Err(e) = self.load() {
            self.failure = Some(e);
        }
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
            "mark" => {
                let (h, w) = self.size;
                self.dots.push(mark_pixel(&payload, w, h));
            }
            "undo" => {
                self.dots.pop();
            }
            "guess" => {
                self.guess = payload.as_int().and_then(|i| i.as_i64());
            }
            _ => {
                let won = self.guess == Some(self.true_count());
                return Ok(StepResult::stopped(won));
            }
        }
        Ok(StepResult::feedback(EXECUTED))
    }

    fn state_json(&self, at_reset: bool) -> Value {
        let mut s = json!({ "dots": self.dots, "current_guess": self.guess });
        if at_reset {
            let sample = self.sample();
            s["sample_idx"] = json!(self.seq_idx);
            s["image_name"] = json!(sample.map(|x| &x.file_name));
            s["img_id"] = json!(sample.map(|x| x.img_id));
            s["cat_id"] = json!(sample.map(|x| x.cat_id));
            s["category_name"] = json!(self.category);
            s["true_count"] = json!(self.true_count());
            s["centers"] = json!(self.centers);
            s["num_samples"] = json!(self.samples.len());
        }
        s
    }

    fn prompt(&self, mode: RenderMode) -> Option<String> {
        if mode != RenderMode::RgbArray {
            return None;
        }
        let cat = self.category.as_deref().unwrap_or("None");
        Some(format!(
            "You are solving a {cat}-counting task. Count the number of {cat} in the image. \
You can place dots to mark instances and then record your final count.\n\n\
Available actions:\n\
1. 'mark': Place a dot at normalized coordinates. Format: `('mark', (x, y))` where x and y are normalized coordinates between 0.0 and 1.0.\n\
2. 'undo': Remove your last placed dot. Format: `('undo', 'undo')`\n\
3. 'guess': Record your count guess. Format: `('guess', N)` where N is an integer between {} and {}.\n\
4. 'stop': End the counting session. Format: `('stop', 'stop')`\n\n\
Success: You succeed if your final count guess matches the true number of objects.\n\n\
Please respond with exactly one action and its arguments in the specified format. For example:\n\
- To mark a point: `('mark', (0.5, 0.3))`\n\
- To undo: `('undo', 'undo')`\n\
- To guess count: `('guess', 5)`\n\
- To stop: `('stop', 'stop')`",
            self.min_count, self.max_count
        ))
    }

    fn text_frame(&self) -> Option<String> {
        None
    }

    fn frame_size(&self) -> (u32, u32) {
        (self.size.1, self.size.0)
    }

    fn render(&self, frame: &mut Frame) {
        show_picture(frame, self.picture.as_deref(), self.frame_size());
        draw_dots(frame, &self.dots, self.radius, [255, 0, 0]);
    }

    fn solve(&self) -> Vec<String> {
        self.solution(false)
    }

    fn solve_named(&self, name: &str) -> Option<Vec<String>> {
        match name {
            "oracle" | "mark_all" => Some(self.solution(false)),
            "guess_only" => Some(self.solution(true)),
            _ => None,
        }
    }

    fn functions(&self) -> Vec<(&'static str, ArgSpace)> {
        vec![
            ("mark", mark_space()),
            ("undo", ArgSpace::Text { min: 1, max: 6 }),
            ("guess", ArgSpace::discrete(self.max_count + 1)),
            ("stop", ArgSpace::text4()),
        ]
    }

    fn clone_box(&self) -> Box<dyn VisGymEnv> {
        Box::new(self.clone())
    }

    fn signatures(&self) -> Vec<FnSig> {
        vec![
            mark_signature("Place a dot at (x, y), each from 0 (left, top) to 1 (right, bottom)"),
            FnSig::new(
                "undo",
                "Remove the last dot placed (the word is usually 'undo')",
                Payload::Value,
                &[("word", ArgKind::Word { max_len: 6 })],
            ),
            FnSig::new(
                "guess",
                "Record the count",
                Payload::Value,
                &[("count", FnSig::int(0, self.max_count))],
            ),
            FnSig::stop(),
        ]
    }

    /// `solve(strategy="mark_all")`; `num_steps` is taken and ignored.
    fn solve_kwargs(&self, kw: &mut SolveKwargs) -> Result<Vec<String>, String> {
        let strategy = kw.choice("strategy", "mark_all", &["mark_all", "guess_only"])?;
        kw.ignored("num_steps");
        Ok(self.solution(strategy == "guess_only"))
    }

    /// Undo, every count the guess takes, stop.
    fn presets(&self) -> Vec<String> {
        let mut p = vec!["('undo', 'undo')".to_string()];
        p.extend((0..=self.max_count).map(|n| format!("('guess', {n})")));
        p.push("('stop', 'stop')".into());
        p
    }

    /// Backspace undoes, Enter stops (clicks mark, the buttons guess).
    fn keymap(&self) -> Vec<KeyBinding> {
        vec![
            KeyBinding::new("Backspace", 0),
            KeyBinding::new("Enter", self.max_count as usize + 2),
        ]
    }

    fn pointer_mode(&self) -> Option<PointerMode> {
        Some(PointerMode::Click)
    }

    fn pointer_action(&self, gesture: Gesture) -> Option<String> {
        let Gesture::Click { x, y } = gesture else {
            return None;
        };
        click_mark(x, y, self.size.1, self.size.0)
    }

    fn mission(&self) -> Option<String> {
        let cat = self.category.as_deref()?;
        Some(format!(
            "Count the {cat} objects in the picture, then guess the count ({}–{}) and stop",
            self.min_count, self.max_count
        ))
    }

    fn words(&self) -> Words {
        Words {
            goal: "Count the objects the instructions name (dots help), guess the count, then stop",
            success: "stopped with the right count",
            failure: "stopped with a wrong count",
        }
    }

    /// How far the guess is from the count (the count itself without a guess).
    fn remaining(&self) -> f64 {
        let truth = self.true_count();
        self.guess.map_or(truth, |g| (g - truth).abs()) as f64
    }
}
