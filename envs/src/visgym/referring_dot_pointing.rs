//! Referring Dot-Pointing: a picture and a referring expression ("the big red
//! triangle"); the agent places one dot (`mark`, each mark moves it) and stops; it
//! succeeds if the dot is inside the object's mask (`referring_dot_pointing/easy` and
//! `/hard` are the same; spec §3.6).
//!
//! The samples come from a RefCOCO+ layout inside the image set, as the reference's
//! REFER loader reads it: `refcoco+/refs(unc).p` (a pickle of the references),
//! `refcoco+/instances.json` (COCO images, annotations and categories) and the pictures
//! under `refcoco+/images/mscoco/images/train2014/`. References whose picture is missing
//! or whose mask is empty are left out; the rest are sorted by id and shuffled by the
//! constructor seed. The bundled set is generated scenes (scripts/visgym-scenes/build.py).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{json, Value};

use super::action::{resolve, Resolved, StepResult, EXECUTED};
use super::images::coco_mask::{decode_sum, segmentation_rles, Rle};
use super::images::{decode_rgb, ImageSet, RgbImage};
use super::numpy_sum::mean;
use super::picture_marks::{
    centroid, click_mark, data_chunk, draw_dots, four_places, json_int, mark_pixel, mark_signature,
    mark_space, show_picture,
};
use super::python::PyException;
use super::signature::FnSig;
use super::solve_kwargs::SolveKwargs;
use super::spaces::ArgSpace;
use super::{RenderMode, VisGymEnv};
use crate::core::env::{KeyBinding, Words};
use crate::core::frame::Frame;
use crate::core::input::{Gesture, PointerMode};
use crate::rng::NpRandom;

const DATASET: &str = "refcoco+";
const IMAGE_DIR: &str = "refcoco+/images/mscoco/images/train2014";

#[derive(Clone, Debug)]
pub struct ReferringConfig {
    pub split_by: String,
    pub radius: i64,
    pub seed: u64,
    pub accept_any_same_category: bool,
    pub data_chunk: Option<(i64, i64)>,
    pub images: Arc<ImageSet>,
}

/// A reference as the loader keeps it.
#[derive(Clone, Debug)]
struct Reference {
    ref_id: i64,
    ann_id: i64,
    image_id: i64,
    category_id: Option<i64>,
    /// The first sentence (`None` if the reference has none: reset raises).
    sentence: Option<String>,
}

/// A binary mask, row-major.
#[derive(Clone, Debug)]
struct Mask {
    width: usize,
    height: usize,
    data: Vec<u8>,
}

/// The REFER index the environment reads.
#[derive(Debug)]
struct Refer {
    refs: BTreeMap<i64, Reference>,
    /// Annotations by id: image id, category id, segmentation.
    anns: BTreeMap<i64, (i64, Option<i64>, Value)>,
    /// Images by id: file name, height, width.
    imgs: BTreeMap<i64, (String, Value, Value)>,
    img_to_anns: BTreeMap<i64, Vec<i64>>,
}

/// A pickled value as JSON (the references hold dicts, lists, strings and numbers).
fn pickle_to_json(v: serde_pickle::Value) -> Value {
    use serde_pickle::{HashableValue as H, Value as P};
    fn key(k: H) -> String {
        match k {
            H::String(s) => s,
            H::Bytes(b) => String::from_utf8_lossy(&b).into_owned(),
            H::I64(i) => i.to_string(),
            other => format!("{other:?}"),
        }
    }
    match v {
        P::None => Value::Null,
        P::Bool(b) => json!(b),
        P::I64(i) => json!(i),
        P::F64(f) => json!(f),
        P::Int(big) => json!(big.to_string()),
        P::String(s) => json!(s),
        P::Bytes(b) => json!(String::from_utf8_lossy(&b)),
        P::List(items) | P::Tuple(items) => {
            Value::Array(items.into_iter().map(pickle_to_json).collect())
        }
        P::Set(items) | P::FrozenSet(items) => Value::Array(
            items
                .into_iter()
                .map(|h| pickle_to_json(h.into_value()))
                .collect(),
        ),
        P::Dict(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (key(k), pickle_to_json(v)))
                .collect(),
        ),
    }
}

impl Refer {
    fn read(set: &ImageSet, split_by: &str) -> Result<Self, String> {
        let read = |path: &str| {
            set.get(path)
                .ok_or_else(|| {
                    format!("FileNotFoundError: {path} is not in the image set (a RefCOCO+ folder: refcoco+/instances.json, refcoco+/refs({split_by}).p, refcoco+/images/mscoco/images/train2014/)")
                })?
                .read()
        };
        let refs_path = format!("{DATASET}/refs({split_by}).p");
        let pickled = read(&refs_path)?;
        let refs = serde_pickle::value_from_slice(
            &pickled,
            serde_pickle::DeOptions::new().decode_strings(),
        )
        .map_err(|e| format!("{refs_path}: {e}"))?;
        let refs = pickle_to_json(refs);
        let inst_path = format!("{DATASET}/instances.json");
        let instances: Value =
            serde_json::from_slice(&read(&inst_path)?).map_err(|e| format!("{inst_path}: {e}"))?;
        // Read in place: the lists of a full data set are large.
        fn list<'a>(v: &'a Value, what: &str) -> Result<&'a [Value], String> {
            v.as_array()
                .map(Vec::as_slice)
                .ok_or_else(|| format!("{what} must be a list"))
        }
        let mut anns = BTreeMap::new();
        let mut img_to_anns: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
        for a in list(&instances["annotations"], "instances.json annotations")? {
            let (Some(id), Some(img)) = (json_int(&a["id"]), json_int(&a["image_id"])) else {
                return Err("instances.json: an annotation without an integer id".into());
            };
            img_to_anns.entry(img).or_default().push(id);
            anns.insert(
                id,
                (img, json_int(&a["category_id"]), a["segmentation"].clone()),
            );
        }
        let mut imgs = BTreeMap::new();
        for i in list(&instances["images"], "instances.json images")? {
            let id = json_int(&i["id"]).ok_or("instances.json: an image without an integer id")?;
            let name = i["file_name"].as_str().unwrap_or_default().to_string();
            imgs.insert(id, (name, i["height"].clone(), i["width"].clone()));
        }
        let mut by_id = BTreeMap::new();
        for r in list(&refs, &refs_path)? {
            // References to an annotation that does not exist are dropped.
            let Some(ann_id) = json_int(&r["ann_id"]).filter(|a| anns.contains_key(a)) else {
                continue;
            };
            let (Some(ref_id), Some(image_id)) = (json_int(&r["ref_id"]), json_int(&r["image_id"]))
            else {
                return Err(format!("{refs_path}: a reference without integer ids"));
            };
            let sentence = r["sentences"][0]["sent"].as_str().map(str::to_string);
            by_id.insert(
                ref_id,
                Reference {
                    ref_id,
                    ann_id,
                    image_id,
                    category_id: json_int(&r["category_id"]),
                    sentence,
                },
            );
        }
        Ok(Refer {
            refs: by_id,
            anns,
            imgs,
            img_to_anns,
        })
    }

    fn picture_path(&self, r: &Reference) -> Option<String> {
        let (img, _, _) = self.anns.get(&r.ann_id)?;
        let (name, _, _) = self.imgs.get(img)?;
        Some(format!("{IMAGE_DIR}/{name}"))
    }

    /// `getMask`: the annotation's polygons at its image's size (or its RLEs), summed.
    /// `None` where the loader raises.
    fn mask(&self, ann_id: i64, image_id: i64) -> Option<Mask> {
        let (_, _, segm) = self.anns.get(&ann_id)?;
        let (_, h, w) = self.imgs.get(&image_id)?;
        let rles: Vec<Rle> = match segm.as_array()?.first()? {
            Value::Array(_) => {
                let (h, w) = (
                    u32::try_from(json_int(h)?).ok()?,
                    u32::try_from(json_int(w)?).ok()?,
                );
                segmentation_rles(segm, h, w).ok()?
            }
            Value::Object(_) => segm
                .as_array()?
                .iter()
                .map(
                    |r| match (&r["counts"], r["size"].as_array().map(Vec::as_slice)) {
                        (Value::String(s), Some([h, w])) => Rle::from_compressed(
                            s,
                            u32::try_from(json_int(h)?).ok()?,
                            u32::try_from(json_int(w)?).ok()?,
                        )
                        .ok(),
                        _ => None,
                    },
                )
                .collect::<Option<Vec<_>>>()?,
            _ => return None,
        };
        let first = rles.first()?;
        let (height, width) = (first.height as usize, first.width as usize);
        // `np.sum(m, axis=2).astype(np.uint8)`.
        let data = decode_sum(&rles)
            .ok()?
            .into_iter()
            .map(|v| v as u8)
            .collect();
        Some(Mask {
            width,
            height,
            data,
        })
    }
}

#[derive(Clone, Debug)]
pub struct ReferringDotPointing {
    radius: i64,
    accept_any: bool,
    images: Arc<ImageSet>,
    refer: Arc<Refer>,
    ref_ids: Vec<i64>,
    /// The reference's `curr_idx` (-1 before the first reset).
    idx: Option<usize>,
    rng: NpRandom,
    picture: Option<Arc<RgbImage>>,
    size: (u32, u32),
    mask: Option<Arc<Mask>>,
    class_mask: Option<Arc<Mask>>,
    description: Option<String>,
    dot: Option<(i64, i64)>,
    failure: Option<PyException>,
}

impl ReferringDotPointing {
    pub fn new(config: ReferringConfig) -> Result<Self, String> {
        let refer = Refer::read(&config.images, &config.split_by)?;
        let mut valid: Vec<i64> = refer
            .refs
            .values()
            .filter(|r| {
                let picture = refer.picture_path(r);
                picture.is_some_and(|p| config.images.get(&p).is_some())
                    && refer
                        .mask(r.ann_id, r.image_id)
                        .is_some_and(|m| m.data.iter().any(|&v| v != 0))
            })
            .map(|r| r.ref_id)
            .collect();
        if valid.is_empty() {
            return Err("ValueError: No valid references found with valid images and masks".into());
        }
        valid.sort_unstable();
        let mut valid = data_chunk(valid, config.data_chunk);
        let mut rng = NpRandom::seeded(u128::from(config.seed));
        rng.shuffle(&mut valid);
        let first = valid
            .first()
            .and_then(|id| refer.picture_path(&refer.refs[id]))
            .ok_or("IndexError: list index out of range")?;
        let picture = config
            .images
            .get(&first)
            .ok_or_else(|| format!("ValueError: Could not load sample image {first:?}"))
            .and_then(|f| decode_rgb(f).map_err(|e| format!("ValueError: {e}")))?;
        Ok(ReferringDotPointing {
            radius: config.radius,
            accept_any: config.accept_any_same_category,
            images: config.images,
            size: (picture.height, picture.width),
            refer: Arc::new(refer),
            ref_ids: valid,
            idx: None,
            rng,
            picture: None,
            mask: None,
            class_mask: None,
            description: None,
            dot: None,
            failure: None,
        })
    }

    fn reference(&self) -> Option<&Reference> {
        self.refer.refs.get(self.ref_ids.get(self.idx?)?)
    }

    fn load(&mut self) -> Result<(), PyException> {
        let r = self.reference().cloned().ok_or_else(|| PyException {
            class: "ValueError",
            message: "All references exhausted".into(),
        })?;
        let path = self.refer.picture_path(&r).unwrap_or_default();
        let cannot = || PyException {
            class: "RuntimeError",
            message: format!("Could not load image: {path}"),
        };
        let picture = self
            .images
            .get(&path)
            .ok_or_else(cannot)
            .and_then(|f| decode_rgb(f).map_err(|_| cannot()))?;
        self.size = (picture.height, picture.width);
        self.picture = Some(Arc::new(picture));
        let mask = Arc::new(self.refer.mask(r.ann_id, r.image_id).ok_or(PyException {
            class: "ValueError",
            message: "the reference's mask cannot be read".into(),
        })?);
        self.class_mask = Some(if self.accept_any {
            Arc::new(self.category_union(&r).unwrap_or_else(|| (*mask).clone()))
        } else {
            mask.clone()
        });
        self.mask = Some(mask);
        self.description = Some(r.sentence.clone().ok_or(PyException {
            class: "IndexError",
            message: "list index out of range".into(),
        })?);
        Ok(())
    }

    /// The union of the masks of every annotation of the reference's category in its
    /// image (`accept_any_same_category`); `None` where the reference falls back.
    fn category_union(&self, r: &Reference) -> Option<Mask> {
        let (img, _, _) = self.refer.anns.get(&r.ann_id)?;
        let mut union: Option<Mask> = None;
        for a in self.refer.img_to_anns.get(img).into_iter().flatten() {
            let (a_img, cat, _) = self.refer.anns.get(a)?;
            if *cat != r.category_id {
                continue;
            }
            let m = self.refer.mask(*a, *a_img)?;
            match &mut union {
                None => union = Some(m),
                Some(u) if u.width == m.width && u.height == m.height => {
                    for (d, v) in u.data.iter_mut().zip(&m.data) {
                        *d |= u8::from(*v != 0);
                    }
                }
                Some(_) => return None,
            }
        }
        union.filter(|u| u.data.iter().any(|&v| v != 0))
    }

    /// The mean luminance of the 3×3 patch around the dot, as numpy adds it.
    fn brightness(picture: &RgbImage, x: i64, y: i64) -> f64 {
        let (w, h) = (i64::from(picture.width), i64::from(picture.height));
        let (x0, x1) = ((x - 1).max(0), (x + 1).min(w - 1));
        let (y0, y1) = ((y - 1).max(0), (y + 1).min(h - 1));
        let mut values = Vec::new();
        for yy in y0..=y1 {
            for xx in x0..=x1 {
                let [r, g, b] = picture.pixel(xx as u32, yy as u32);
                values.push(0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b));
            }
        }
        mean(&values)
    }

    fn solution(&self, rng: &mut NpRandom, num_steps: u64) -> Vec<String> {
        let n = num_steps.max(1);
        let (h, w) = self.size;
        let mut points = Vec::new();
        if let Some(m) = &self.mask {
            for (i, &v) in m.data.iter().enumerate() {
                if v != 0 {
                    points.push(((i % m.width) as i64, (i / m.width) as i64));
                }
            }
        }
        let ((gx, gy), (sx, sy)) = match (&self.mask, points.len()) {
            (Some(m), len) if len > 0 => {
                let c = centroid(&m.data, m.width).unwrap_or_default();
                let start = if len > 1 {
                    let i = rng.integers(0, len as i64).unwrap_or(0) as usize;
                    points[i]
                } else {
                    points[0]
                };
                (c, (start.0 as f64, start.1 as f64))
            }
            _ => {
                let c = (f64::from(w) - 1.0) / 2.0;
                let d = (f64::from(h) - 1.0) / 2.0;
                ((c, d), (c, d))
            }
        };
        let mut out = Vec::new();
        for i in 1..=n {
            let t = i as f64 / n as f64;
            let x = sx + t * (gx - sx);
            let y = sy + t * (gy - sy);
            let xn = (x / (f64::from(w) - 1.0)).clamp(0.0, 1.0);
            let yn = (y / (f64::from(h) - 1.0)).clamp(0.0, 1.0);
            out.push(format!(
                "('mark', ({}, {}))",
                four_places(xn),
                four_places(yn)
            ));
        }
        out.push("('stop', 'stop')".into());
        out
    }
}

impl VisGymEnv for ReferringDotPointing {
    fn reset(&mut self, seed: Option<u64>) {
        if let Some(s) = seed {
            self.rng = NpRandom::seeded(u128::from(s));
        }
        self.dot = None;
        self.failure = None;
        self.idx = Some(self.idx.map_or(0, |i| i + 1));
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
        if functions[index].0 == "mark" {
            self.dot = Some(mark_pixel(&payload, self.size.1, self.size.0));
            return Ok(StepResult::feedback(EXECUTED));
        }
        let inside = match (self.dot, &self.class_mask) {
            (Some((x, y)), Some(m)) => {
                x >= 0
                    && y >= 0
                    && (x as usize) < m.width
                    && (y as usize) < m.height
                    && m.data[y as usize * m.width + x as usize] != 0
            }
            _ => false,
        };
        Ok(StepResult::stopped(inside))
    }

    fn state_json(&self, at_reset: bool) -> Value {
        let mut s = json!({ "dot": self.dot });
        if at_reset {
            let r = self.reference();
            s["sample_idx"] = json!(self.idx);
            s["ref_id"] = json!(r.map(|r| r.ref_id));
            s["description"] = json!(self.description);
            s["image_name"] = json!(r.and_then(|r| self.refer.picture_path(r)).map(|p| p
                .rsplit('/')
                .next()
                .unwrap_or_default()
                .to_string()));
            s["mask_area"] = json!(self.mask.as_ref().map(|m| m
                .data
                .iter()
                .filter(|&&v| v != 0)
                .count()));
            s["num_refs"] = json!(self.ref_ids.len());
        }
        s
    }

    fn prompt(&self, mode: RenderMode) -> Option<String> {
        if mode != RenderMode::RgbArray {
            return None;
        }
        // Before the first reset the reference has no description (it raises).
        let desc = self.description.as_deref()?;
        let (h, w) = self.size;
        Some(format!(
            "Your goal is to point to '{desc}' in the image.\n\n\
Available actions:\n\
1. 'mark': Mark a point at the specified coordinates. Format: `('mark', (x_norm, y_norm))` where x_norm, y_norm are normalized coordinates between 0.0 and 1.0, which map to pixel x = round(x_norm*({w}-1)), y = round(y_norm*({h}-1)).\n\
2. 'stop': Submit your current mark as final answer. Format: `('stop', 'stop')`\n\n\
Please respond with exactly one action and its arguments in the specified format. For example:\n\
- To mark center: `('mark', (0.5, 0.5))`\n\
- To submit: `('stop', 'stop')`"
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
        if let (Some((x, y)), Some(p)) = (self.dot, &self.picture) {
            let colour = if Self::brightness(p, x, y) > 127.0 {
                [0, 255, 0]
            } else {
                [255, 0, 0]
            };
            draw_dots(frame, &[(x, y)], self.radius, colour);
        }
    }

    /// `solve()`: the random start inside the mask draws from a copy of the
    /// environment's generator (the reference draws from its own; docs/visgym.md).
    fn solve(&self) -> Vec<String> {
        self.solution(&mut self.rng.clone(), 3)
    }

    fn solve_named(&self, name: &str) -> Option<Vec<String>> {
        (name == "oracle").then(|| self.solve())
    }

    fn functions(&self) -> Vec<(&'static str, ArgSpace)> {
        vec![("mark", mark_space()), ("stop", ArgSpace::text4())]
    }

    fn clone_box(&self) -> Box<dyn VisGymEnv> {
        Box::new(self.clone())
    }

    fn signatures(&self) -> Vec<FnSig> {
        vec![
            mark_signature("Put the dot at (x, y), each from 0 (left, top) to 1 (right, bottom)"),
            FnSig::stop(),
        ]
    }

    /// `solve(strategy="mark", num_steps=3, noise_level=0.5)`: the strategy and the
    /// noise level are not read by the reference.
    fn solve_kwargs(&self, kw: &mut SolveKwargs) -> Result<Vec<String>, String> {
        kw.ignored("strategy");
        kw.ignored("noise_level");
        let n = kw.count("num_steps")?.unwrap_or(3);
        Ok(self.solution(&mut self.rng.clone(), n))
    }

    fn presets(&self) -> Vec<String> {
        vec!["('stop', 'stop')".into()]
    }

    /// Enter stops (a click places the dot).
    fn keymap(&self) -> Vec<KeyBinding> {
        vec![KeyBinding::new("Enter", 0)]
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
        let desc = self.description.as_deref()?;
        Some(format!("Point to {desc}, then stop"))
    }

    fn words(&self) -> Words {
        Words {
            goal: "Put the dot on the object the instructions describe, then stop",
            success: "stopped with the dot on the object",
            failure: "stopped with the dot off the object",
        }
    }

    /// 1 until the dot is on the object.
    fn remaining(&self) -> f64 {
        let on = match (self.dot, &self.class_mask) {
            (Some((x, y)), Some(m)) => {
                (x as usize) < m.width
                    && (y as usize) < m.height
                    && m.data[y as usize * m.width + x as usize] != 0
            }
            _ => false,
        };
        f64::from(u8::from(!on))
    }
}
