//! Every golden file in the generic format (`playbench-golden/1`) replays exactly through
//! `envs::make` and the `Env` trait, natively and as wasm in headless Chromium. Files are
//! found by directory: a family that adds one needs no test code of its own.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use playbench_tests::data_files;
use playbench_tests::reference::{read_json, replay, GoldenFile, FORMAT};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

fn golden_files() -> Vec<(&'static str, serde_json::Value)> {
    data_files("golden/")
        .filter(|(p, _)| p.ends_with(".json") || p.ends_with(".json.gz"))
        .filter_map(|(p, b)| {
            let v = read_json(p, b).unwrap();
            (v.get("format").and_then(|f| f.as_str()) == Some(FORMAT)).then_some((p, v))
        })
        .collect()
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn every_generic_golden_file_replays_exactly() {
    let files = golden_files();
    assert!(!files.is_empty(), "no {FORMAT} file under tests/golden/");
    let mut failures = Vec::new();
    for (path, v) in files {
        let doc: GoldenFile = serde_json::from_value(v).unwrap();
        match replay(&doc) {
            Ok(r) => assert!(r.steps > 0, "{path}: no steps"),
            Err(e) => failures.push(format!("{path}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_doctored_golden_file_is_caught() {
    let (path, mut v) = golden_files().into_iter().next().unwrap();
    let steps = v["episodes"][0]["steps"].as_array_mut().unwrap();
    let last = steps.last_mut().unwrap();
    last["terminated"] = serde_json::json!(!last["terminated"].as_bool().unwrap());
    let doc: GoldenFile = serde_json::from_value(v).unwrap();
    assert!(
        replay(&doc).is_err(),
        "{path}: a flipped flag went unnoticed"
    );
}
