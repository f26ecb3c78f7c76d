//! COCO masks (`envs::visgym::images::coco_mask`) against pycocotools 2.0.8: polygons,
//! boxes, RLE dicts and compressed strings through `frPyObjects`, LVIS's union and
//! RefCOCO's sum, compared as compressed strings, areas and centroids
//! (`tests/golden/visgym/coco_masks.py` writes the cases), natively and as wasm.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::io::Read;

use envs::visgym::images::coco_mask::{decode_sum, segmentation_rles, Rle};
use serde_json::Value;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

const GOLDEN: &[u8] = include_bytes!("../golden/visgym/coco_masks.json.gz");

fn cases() -> Vec<Value> {
    let mut s = String::new();
    flate2::read::GzDecoder::new(GOLDEN)
        .read_to_string(&mut s)
        .unwrap();
    let doc: Value = serde_json::from_str(&s).unwrap();
    doc["cases"].as_array().unwrap().clone()
}

fn dim(v: &Value) -> u32 {
    u32::try_from(v.as_u64().unwrap()).unwrap()
}

/// `(len(xs), [xs.mean(), ys.mean()])` of `np.nonzero` on a row-major mask.
fn stats(mask: &[u8], width: usize) -> (u64, Option<[f64; 2]>) {
    let (mut n, mut sx, mut sy) = (0u64, 0u64, 0u64);
    for (i, _) in mask.iter().enumerate().filter(|(_, &b)| b != 0) {
        n += 1;
        sx += (i % width) as u64;
        sy += (i / width) as u64;
    }
    let centroid = (n > 0).then(|| [sx as f64 / n as f64, sy as f64 / n as f64]);
    (n, centroid)
}

fn want_stats(case: &Value) -> (u64, Option<[f64; 2]>) {
    let c = &case["centroid"];
    let centroid = (!c.is_null()).then(|| [c[0].as_f64().unwrap(), c[1].as_f64().unwrap()]);
    (case["area"].as_u64().unwrap(), centroid)
}

/// Compares an RLE with the reference's `[counts, height, width]`.
fn check_rle(what: &str, got: &Rle, want: &Value) -> Result<(), String> {
    let (s, h, w) = (want[0].as_str().unwrap(), dim(&want[1]), dim(&want[2]));
    let got_s = got.to_compressed();
    if got_s != s || (got.height, got.width) != (h, w) {
        return Err(format!(
            "{what}: got {got_s:?} {}×{}, want {s:?} {h}×{w}",
            got.height, got.width
        ));
    }
    // What the reference's callers decode from its string is what we hold.
    let back = Rle::from_compressed(s, h, w)?;
    if &back != got {
        return Err(format!(
            "{what}: counts {:?}, want {:?}",
            got.counts, back.counts
        ));
    }
    Ok(())
}

fn check_mask_stats(what: &str, rle: &Rle, case: &Value) -> Result<(), String> {
    let got = stats(&rle.to_mask(), rle.width as usize);
    let want = want_stats(case);
    if got != want {
        return Err(format!("{what}: (area, centroid) {got:?}, want {want:?}"));
    }
    if rle.area() != want.0 {
        return Err(format!("{what}: area() {}, want {}", rle.area(), want.0));
    }
    Ok(())
}

fn check_segm(case: &Value) -> Result<(), String> {
    let (h, w) = (dim(&case["h"]), dim(&case["w"]));
    let got = segmentation_rles(&case["segm"], h, w);
    let rles = match (case.get("error"), got) {
        (Some(_), Err(_)) => return Ok(()),
        (Some(e), Ok(r)) => return Err(format!("reference raises {e}, got {} RLEs", r.len())),
        (None, Err(e)) => return Err(format!("refused: {e}")),
        (None, Ok(r)) => r,
    };
    let want = case["rles"].as_array().unwrap();
    if rles.len() != want.len() {
        return Err(format!("{} RLEs, want {}", rles.len(), want.len()));
    }
    for (i, (r, wr)) in rles.iter().zip(want).enumerate() {
        check_rle(&format!("RLE {i}"), r, wr)?;
    }
    if case.get("decode") == Some(&Value::Bool(false)) {
        return Ok(());
    }
    let merged = match case.get("merged") {
        Some(wm) => {
            let m = Rle::merge(&rles, false);
            check_rle("merged", &m, wm)?;
            m
        }
        None => rles[0].clone(),
    };
    if case.get("area").is_some() {
        check_mask_stats("union", &merged, case)?;
    }
    if let Some(total) = case.get("sum_total") {
        let sum = decode_sum(&rles)?;
        let got = (
            sum.iter().map(|&v| u64::from(v)).sum::<u64>(),
            sum.iter().copied().max().unwrap_or(0),
        );
        let want = (
            total.as_u64().unwrap(),
            case["sum_max"].as_u64().unwrap() as u32,
        );
        if got != want {
            return Err(format!("decode sum (total, max) {got:?}, want {want:?}"));
        }
        let union = Rle::merge(&rles, false).to_mask();
        if sum.iter().zip(&union).any(|(&s, &u)| (s > 0) != (u > 0)) {
            return Err("decode sum's support differs from the union".into());
        }
    }
    Ok(())
}

fn check_case(case: &Value) -> Result<(), String> {
    let dims = || (dim(&case["h"]), dim(&case["w"]));
    let counts = || case["counts"].as_str().unwrap();
    match case["kind"].as_str().unwrap() {
        "segm" => check_segm(case),
        "bbox" => {
            let (h, w) = dims();
            let bb: Vec<f64> = serde_json::from_value(case["bb"].clone()).unwrap();
            let r = Rle::from_bbox([bb[0], bb[1], bb[2], bb[3]], h, w);
            check_rle("box", &r, &serde_json::json!([counts(), h, w]))
        }
        "intersect" => {
            let (h, w) = dims();
            let rles = segmentation_rles(&case["segm"], h, w)?;
            let r = Rle::merge(&rles, true);
            check_rle("intersection", &r, &serde_json::json!([counts(), h, w]))
        }
        "merge" => {
            let rles = case["rles"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| Rle::from_compressed(r[0].as_str().unwrap(), dim(&r[1]), dim(&r[2])))
                .collect::<Result<Vec<_>, _>>()?;
            check_rle("merge", &Rle::merge(&rles, false), &case["out"])
        }
        "mask" => {
            let (h, w) = dims();
            let r = Rle::from_compressed(counts(), h, w)?;
            check_rle("read back", &r, &serde_json::json!([counts(), h, w]))?;
            check_mask_stats("decoded", &r, case)?;
            let again = Rle::from_mask(&r.to_mask(), h, w)?;
            check_rle(
                "decoded and encoded",
                &again,
                &serde_json::json!([counts(), h, w]),
            )
        }
        "encode" => {
            let (h, w) = dims();
            let mask: Vec<u8> = serde_json::from_value(case["mask"].clone()).unwrap();
            let r = Rle::from_mask(&mask, h, w)?;
            check_rle("encoded", &r, &serde_json::json!([counts(), h, w]))
        }
        "string" => {
            let r = Rle::from_compressed(case["in"].as_str().unwrap(), 1, 1)?;
            let out = case["out"].as_str().unwrap();
            if r.to_compressed() != out {
                return Err(format!("re-encoded {:?}, want {out:?}", r.to_compressed()));
            }
            let area = case["area"].as_u64().unwrap();
            if r.area() != area {
                return Err(format!("area {}, want {area}", r.area()));
            }
            Ok(())
        }
        other => Err(format!("unknown kind {other}")),
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn coco_masks_match_pycocotools() {
    let cases = cases();
    let mut failures = Vec::new();
    let mut kinds = std::collections::BTreeMap::<&str, usize>::new();
    for case in &cases {
        *kinds.entry(case["kind"].as_str().unwrap()).or_default() += 1;
        if let Err(e) = check_case(case) {
            failures.push(format!("{}: {e}", case["name"].as_str().unwrap()));
        }
    }
    assert!(cases.len() >= 500, "only {} cases", cases.len());
    assert_eq!(kinds.len(), 7, "{kinds:?}");
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
