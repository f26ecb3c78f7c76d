//! Building an environment from its id (`maze_2d/easy` …) with the keyword arguments
//! VisGym's evaluation harness uses for that level, overridable by the reference's own
//! keyword names (`seed`, `maze_width`, `grid_size`, …). Unknown keywords are errors.

use std::cell::RefCell;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::colorization::{py_floordiv, Colorization, ColorizationConfig};
use super::counting::{Counting, CountingConfig, ANNOTATION_FILE};
use super::fetch::{FetchPuzzle, Task};
use super::images::{default_bundle, sample_dir_kwarg, shelf, ImageSet};
use super::jigsaw::{Jigsaw, JigsawConfig};
use super::matchstick_equation::{MatchstickEquation, MatchstickEquationConfig};
use super::matchstick_rotation::{MatchstickRotation, MatchstickRotationConfig};
use super::maze_2d::{Maze2d, Maze2dConfig};
use super::maze_3d::{Maze3d, Maze3dConfig};
use super::mental_rotation_2d::{MentalRotation2d, MentalRotation2dConfig};
use super::mental_rotation_3d_cube::{ActionFrame, CubeConfig, MentalRotation3dCube};
use super::mental_rotation_3d_objaverse::{MentalRotation3dObjaverse, ObjaverseConfig};
use super::patch_reassembly::{PatchReassembly, PatchReassemblyConfig};
use super::referring_dot_pointing::{ReferringConfig, ReferringDotPointing};
use super::sliding_block::{SlidingBlock, SlidingBlockConfig};
use super::video_unshuffle::{Sampling, VideoUnshuffle, VideoUnshuffleConfig};
use super::zoom_in_puzzle::{ZoomIn, ZoomInConfig};
use super::VisGymEnv;

/// Reads keyword arguments, remembering which were used.
struct Kwargs<'a> {
    map: &'a Map<String, Value>,
    used: RefCell<Vec<&'static str>>,
}

impl<'a> Kwargs<'a> {
    fn get(&self, key: &'static str) -> Option<&'a Value> {
        self.used.borrow_mut().push(key);
        self.map.get(key).filter(|v| !v.is_null())
    }

    fn u64(&self, key: &'static str) -> Result<Option<u64>, String> {
        self.get(key)
            .map(|v| {
                v.as_u64()
                    .ok_or_else(|| format!("{key} must be a non-negative integer, got {v}"))
            })
            .transpose()
    }

    fn usize(&self, key: &'static str, default: usize) -> Result<usize, String> {
        Ok(self.u64(key)?.map_or(default, |v| v as usize))
    }

    fn f64(&self, key: &'static str, default: f64) -> Result<f64, String> {
        self.get(key)
            .map(|v| {
                v.as_f64()
                    .ok_or_else(|| format!("{key} must be a number, got {v}"))
            })
            .transpose()
            .map(|v| v.unwrap_or(default))
    }

    fn bool(&self, key: &'static str, default: bool) -> Result<bool, String> {
        self.get(key)
            .map(|v| {
                v.as_bool()
                    .ok_or_else(|| format!("{key} must be a boolean, got {v}"))
            })
            .transpose()
            .map(|v| v.unwrap_or(default))
    }

    /// A two-number list such as `grid_size` or `canvas_size`.
    fn pair(&self, key: &'static str, default: (f64, f64)) -> Result<(f64, f64), String> {
        let Some(v) = self.get(key) else {
            return Ok(default);
        };
        match v.as_array().map(Vec::as_slice) {
            Some([a, b]) => match (a.as_f64(), b.as_f64()) {
                (Some(a), Some(b)) => Ok((a, b)),
                _ => Err(format!("{key} must hold two numbers, got {v}")),
            },
            _ => Err(format!("{key} must be a pair, got {v}")),
        }
    }

    /// The image set the environment `name` plays (`sample_dir`, or for Video
    /// Unshuffle also `root_dir`), those keywords marked used.
    fn images(&self, name: &str) -> Result<Arc<ImageSet>, String> {
        self.get("sample_dir");
        if name == "video_unshuffle" {
            self.get("root_dir");
        }
        sample_set(name, self.map)
    }

    fn finish(&self, id: &str) -> Result<(), String> {
        let used = self.used.borrow();
        match self.map.keys().find(|k| !used.contains(&k.as_str())) {
            Some(k) => Err(format!("{id}: unknown keyword argument {k}")),
            None => Ok(()),
        }
    }
}

/// `action_frame`: the evaluation's "world" by default (the registry's is "object").
fn action_frame(kw: &Kwargs) -> Result<ActionFrame, String> {
    match kw.get("action_frame").map(|v| v.as_str()) {
        None | Some(Some("world")) => Ok(ActionFrame::World),
        Some(Some("object")) => Ok(ActionFrame::Object),
        Some(other) => Err(format!(
            "action_frame must be 'object' or 'world', got {other:?}"
        )),
    }
}

/// The shelved image set `sample_dir` names for the environment `env` (its bundled set
/// by default, [`default_bundle`]).
pub fn sample_set(env: &str, kwargs: &Map<String, Value>) -> Result<Arc<ImageSet>, String> {
    let bundle = default_bundle(env);
    let name = match sample_dir_kwarg(kwargs) {
        None | Some(Value::Null) => bundle.name,
        Some(Value::String(s)) => s.as_str(),
        Some(other) => return Err(format!("sample_dir must be a string, got {other}")),
    };
    shelf::get(name).ok_or_else(|| {
        if name == bundle.name {
            format!(
                "the bundled VisGym set is not loaded (public/{})",
                bundle.zip
            )
        } else {
            format!("the image folder {name:?} is not loaded")
        }
    })
}

/// `data_chunk=[start, end]`: which samples (a Python slice) a process takes.
fn data_chunk(kw: &Kwargs<'_>) -> Result<Option<(i64, i64)>, String> {
    let Some(v) = kw.get("data_chunk") else {
        return Ok(None);
    };
    match v.as_array().map(Vec::as_slice) {
        Some([a, b]) => match (a.as_i64(), b.as_i64()) {
            (Some(a), Some(b)) => Ok(Some((a, b))),
            _ => Err(format!("data_chunk must hold two integers, got {v}")),
        },
        _ => Err(format!("data_chunk must be a pair, got {v}")),
    }
}

fn maze_size(kw: &Kwargs<'_>, default: usize) -> Result<(usize, usize), String> {
    let w = kw.usize("maze_width", default)?;
    let h = kw.usize("maze_height", default)?;
    if w % 2 == 0 || h % 2 == 0 || w < 3 || h < 3 {
        return Err("width/height of maze should be odd".into());
    }
    Ok((w, h))
}

/// Builds `name/easy` or `name/hard`. Without a `seed` the constructor seed is 0
/// (42 for Matchstick Equation, its reference default): there is no entropy here.
pub fn make(id: &str, kwargs: &Map<String, Value>) -> Result<Box<dyn VisGymEnv>, String> {
    let (name, level) = id
        .split_once('/')
        .ok_or_else(|| format!("{id}: expected name/easy or name/hard"))?;
    let hard = match level {
        "easy" => false,
        "hard" => true,
        _ => return Err(format!("{id}: level must be easy or hard")),
    };
    let kw = Kwargs {
        map: kwargs,
        used: RefCell::new(Vec::new()),
    };
    let seed = kw.u64("seed")?;
    let env: Box<dyn VisGymEnv> = match name {
        "maze_2d" => {
            let (width, height) = maze_size(&kw, if hard { 11 } else { 9 })?;
            Box::new(Maze2d::new(Maze2dConfig {
                width,
                height,
                seed: seed.unwrap_or(0),
            }))
        }
        "maze_3d" => {
            let (width, height) = maze_size(&kw, if hard { 9 } else { 7 })?;
            let (rw, rh) = kw.pair("render_size", (336.0, 336.0))?;
            Box::new(Maze3d::new(Maze3dConfig {
                width,
                height,
                seed: seed.unwrap_or(0),
                render_size: (rw as u32, rh as u32),
            }))
        }
        "sliding_block" => {
            let shuffles = kw
                .u64("num_shuffle_moves")?
                .map_or(if hard { 90 } else { 30 }, |v| v as i64);
            // numpy's RandomState takes 32-bit seeds only.
            let seed = u32::try_from(seed.unwrap_or(0))
                .map_err(|_| "seed must be between 0 and 2**32 - 1".to_string())?;
            Box::new(SlidingBlock::new(SlidingBlockConfig {
                num_shuffle_moves: shuffles,
                seed,
            }))
        }
        "matchstick_equation" => {
            let defaults = MatchstickEquationConfig::default();
            Box::new(MatchstickEquation::new(MatchstickEquationConfig {
                seed: seed.unwrap_or(defaults.seed),
                break_moves: kw.usize("break_moves", if hard { 2 } else { 1 })?,
                enforce_min_distance: kw.bool("enforce_min_distance", true)?,
                gen_retry_limit: kw.usize("gen_retry_limit", defaults.gen_retry_limit)?,
            }))
        }
        "matchstick_rotation" => {
            let (pos, ang) = if hard { (5.0, 10.0) } else { (10.0, 15.0) };
            Box::new(MatchstickRotation::new(MatchstickRotationConfig {
                canvas: kw.pair("canvas_size", (120.0, 120.0))?,
                stick_length: kw.f64("stick_length", 20.0)?,
                pos_tolerance: kw.f64("pos_tolerance", pos)?,
                ang_tolerance: kw.f64("ang_tolerance", ang)?,
                seed: seed.unwrap_or(0),
            }))
        }
        "patch_reassembly" => {
            let (rows, cols, patches) = if hard { (8.0, 8.0, 6) } else { (6.0, 6.0, 5) };
            let (r, c) = kw.pair("grid_size", (rows, cols))?;
            let p = kw.usize("num_patches", patches)?;
            if p == 0 || p > (r * c) as usize {
                return Err("num_patches must be between 1 and the number of cells".into());
            }
            Box::new(PatchReassembly::new(PatchReassemblyConfig {
                rows: r as usize,
                cols: c as usize,
                patches: p,
                seed: seed.unwrap_or(0),
            }))
        }
        "mental_rotation_3d_cube" => Box::new(MentalRotation3dCube::new(CubeConfig {
            num_segments: kw.usize("num_segments", if hard { 6 } else { 4 })?,
            action_frame: action_frame(&kw)?,
            seed: seed.unwrap_or(0),
        })),
        "jigsaw" => {
            let n = if hard { 3 } else { 2 };
            let images = kw.images(name)?;
            if kw.usize("border_width", 1)? != 1 {
                return Err("border_width: only the evaluation's 1 is reproduced".into());
            }
            Box::new(Jigsaw::new(JigsawConfig {
                rows: kw.usize("num_rows", n)?,
                cols: kw.usize("num_cols", n)?,
                seed: seed.unwrap_or(0),
                images,
            })?)
        }
        "colorization" => {
            let images = kw.images(name)?;
            // The episode budget is the harness's; the environment never reads it.
            kw.u64("max_steps")?;
            let defaults = ColorizationConfig::evaluation(hard, seed.unwrap_or(0), images);
            let circle_size = kw.usize("circle_size", defaults.circle_size as usize)? as i64;
            // null: the reference's own defaults (no grey ring; circle_size // 1.75).
            let region_radius = match kw.get("region_radius") {
                None if kwargs.contains_key("region_radius") => None,
                _ => Some(kw.usize("region_radius", 30)? as i64),
            };
            let accuracy_radius = match kw.get("accuracy_radius") {
                None if kwargs.contains_key("accuracy_radius") => {
                    py_floordiv(circle_size as f64, 1.75)
                }
                _ => kw.f64("accuracy_radius", defaults.accuracy_radius)?,
            };
            Box::new(Colorization::new(ColorizationConfig {
                circle_size,
                region_radius,
                accuracy_radius,
                hue_tolerance: kw.f64("hue_tolerance", defaults.hue_tolerance)?,
                sat_tolerance: kw.f64("sat_tolerance", defaults.sat_tolerance)?,
                img_size: kw.usize("img_size", defaults.img_size)?,
                min_brightness: kw.f64("min_brightness", defaults.min_brightness)?,
                max_brightness: kw.f64("max_brightness", defaults.max_brightness)?,
                ..defaults
            })?)
        }
        "mental_rotation_2d" => {
            let images = kw.images(name)?;
            Box::new(MentalRotation2d::new(MentalRotation2dConfig {
                tolerance: kw.f64("tolerance", if hard { 5.0 } else { 10.0 })?,
                image_size: kw.usize("image_size", 128)? as u32,
                seed: seed.unwrap_or(0),
                images,
            })?)
        }
        "zoom_in_puzzle" => {
            let images = kw.images(name)?;
            // numpy's legacy RandomState takes 32-bit seeds only.
            let seed = u32::try_from(seed.unwrap_or(0))
                .map_err(|_| "seed must be between 0 and 2**32 - 1".to_string())?;
            Box::new(ZoomIn::new(ZoomInConfig {
                views: kw.usize("num_zoom_views", if hard { 5 } else { 4 })?,
                min_zoom: kw.f64("min_zoom_level", 0.75)?,
                gap: kw.f64("zoom_gap", 0.75)?,
                std: kw.f64("zoom_std", 0.2)?,
                nested: kw.bool("nested", true)?,
                seed,
                images,
            })?)
        }
        "counting" => {
            let images = kw.images(name)?;
            let (min, max) = if hard { (5, 30) } else { (2, 20) };
            let annotation_file = match kw.get("annotation_file") {
                None => ANNOTATION_FILE.to_string(),
                Some(Value::String(s)) => s.clone(),
                Some(other) => {
                    return Err(format!("annotation_file must be a string, got {other}"))
                }
            };
            Box::new(Counting::new(CountingConfig {
                min_count: kw.usize("min_count", min)? as i64,
                max_count: kw.usize("max_count", max)? as i64,
                radius: kw.usize("radius", 5)? as i64,
                // The reference's own default seed.
                seed: seed.unwrap_or(42),
                require_exhaustive: kw.bool("require_exhaustive", true)?,
                data_chunk: data_chunk(&kw)?,
                annotation_file,
                images,
            })?)
        }
        "referring_dot_pointing" => {
            let images = kw.images(name)?;
            // The episode budget is the harness's; the environment never reads it, nor
            // `data_root`, which the evaluation harness passes for the easy level.
            kw.u64("max_steps")?;
            kw.get("data_root");
            let split_by = match kw.get("splitBy") {
                None => "unc".to_string(),
                Some(Value::String(s)) => s.clone(),
                Some(other) => return Err(format!("splitBy must be a string, got {other}")),
            };
            Box::new(ReferringDotPointing::new(ReferringConfig {
                split_by,
                radius: kw.usize("radius", 5)? as i64,
                seed: seed.unwrap_or(0),
                accept_any_same_category: kw.bool("accept_any_same_category", false)?,
                data_chunk: data_chunk(&kw)?,
                images,
            })?)
        }
        "video_unshuffle" => {
            // The reference names the folder `root_dir`; `sample_dir` works too here.
            let videos = kw.images(name)?;
            // numpy's legacy RandomState takes 32-bit seeds only.
            let seed = u32::try_from(seed.unwrap_or(0))
                .map_err(|_| "seed must be between 0 and 2**32 - 1".to_string())?;
            let sampling = match kw.get("sampling_strategy") {
                None => Sampling::Salient,
                Some(Value::String(s)) if s == "salient" => Sampling::Salient,
                Some(Value::String(s)) if s == "uniform" => Sampling::Uniform,
                Some(other) => {
                    return Err(format!(
                        "sampling_strategy: only \"salient\" (the evaluation's) and \"uniform\" are reproduced, got {other}"
                    ))
                }
            };
            let video_label = match kw.get("video_label") {
                None => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(other) => return Err(format!("video_label must be a string, got {other}")),
            };
            Box::new(VideoUnshuffle::new(VideoUnshuffleConfig {
                num_frames: kw.usize("num_frames", if hard { 5 } else { 4 })?,
                seed,
                sampling,
                min_frame_diff: kw.f64("min_frame_diff", 0.15)?,
                max_frames_to_analyze: kw.usize("max_frames_to_analyze", 100)?,
                video_label,
                videos,
            })?)
        }
        "mental_rotation_3d_objaverse" => {
            let objects = kw.images(name)?;
            // numpy's legacy RandomState takes 32-bit seeds only.
            let seed = u32::try_from(seed.unwrap_or(0))
                .map_err(|_| "seed must be between 0 and 2**32 - 1".to_string())?;
            if !kw.bool("use_textures", true)? {
                return Err("use_textures: only the evaluation's true is reproduced".into());
            }
            // They set the decimation's face budget, which is not reproduced (models are
            // drawn whole; docs/visgym.md).
            kw.usize("downsample_faces", 0)?;
            kw.usize("max_output_long_side", 336)?;
            Box::new(MentalRotation3dObjaverse::new(ObjaverseConfig {
                tolerance: kw.f64("tolerance", if hard { 5.0 } else { 15.0 })?,
                render_size: match kw.usize("render_size", 128)? {
                    n @ 2..=1024 => n as u32,
                    n => return Err(format!("render_size must be between 2 and 1024, got {n}")),
                },
                seed,
                action_frame: action_frame(&kw)?,
                objects,
            })?)
        }
        "fetch_reach" | "fetch_pick_and_place" => {
            let task = if name == "fetch_reach" {
                Task::Reach
            } else {
                Task::PickAndPlace
            };
            // The evaluation's settings (docs/fetch-reference.md §1.2) are the only ones
            // reproduced; these two are accepted at their evaluation values.
            for (key, value) in [("reward_type", "sparse"), ("render_mode", "rgb_array")] {
                if let Some(v) = kw.get(key) {
                    if v.as_str() != Some(value) {
                        return Err(format!(
                            "{key}: only the evaluation's {value:?} is reproduced"
                        ));
                    }
                }
            }
            Box::new(FetchPuzzle::new(task, seed.unwrap_or(0)).map_err(|e| e.to_string())?)
        }
        _ => return Err(format!("unknown VisGym environment {name}")),
    };
    kw.finish(id)?;
    Ok(env)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_and_keywords() {
        let none = Map::new();
        for name in super::super::NAMES {
            for level in ["easy", "hard"] {
                assert!(
                    make(&format!("{name}/{level}"), &none).is_ok(),
                    "{name}/{level}"
                );
            }
        }
        assert!(make("maze_2d/medium", &none).is_err());
        assert!(make("maze_4d/easy", &none).is_err());
        let mut kw = Map::new();
        kw.insert("maze_widht".into(), json!(9));
        assert!(make("maze_2d/easy", &kw).is_err(), "a typo is an error");
        let mut kw = Map::new();
        kw.insert("grid_size".into(), json!([5, 5]));
        kw.insert("seed".into(), json!(3));
        let env = make("patch_reassembly/easy", &kw).unwrap();
        assert_eq!(
            env.state_json(true)["canvas_bounds"]
                .as_array()
                .map(Vec::len),
            Some(4)
        );
    }

    #[test]
    fn sets_are_named_by_sample_dir_and_for_video_by_root_dir_too() {
        crate::visgym::images::shelf::shelve_bundled_for_tests();
        let mut kw = Map::new();
        kw.insert("root_dir".into(), json!("bundled-videos"));
        assert!(make("video_unshuffle/easy", &kw).is_ok());
        kw.insert("root_dir".into(), json!("bundled"));
        let err = make("jigsaw/easy", &kw).err().unwrap_or_default();
        assert!(err.contains("root_dir"), "{err}");
        let mut kw = Map::new();
        kw.insert("sample_dir".into(), json!("nowhere"));
        let err = make("counting/easy", &kw).err().unwrap_or_default();
        assert!(err.contains("nowhere"), "{err}");
    }

    #[test]
    fn clones_continue_identically() {
        let none = Map::new();
        for name in super::super::NAMES {
            let mut env = make(&format!("{name}/hard"), &none).unwrap();
            env.reset(Some(5));
            let mut copy = env.clone_box();
            let plan = env.solve();
            for a in &plan {
                assert_eq!(env.step(a).ok(), copy.step(a).ok(), "{name} {a}");
                assert_eq!(env.state_json(false), copy.state_json(false));
            }
            env.reset(None);
            copy.reset(None);
            assert_eq!(env.state_json(true), copy.state_json(true), "{name}");
        }
    }
}
