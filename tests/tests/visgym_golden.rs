//! VisGym: the Python-literal machinery and every synthetic environment replay the
//! reference, natively and, compiled to wasm, in headless Chromium.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use playbench_tests::visgym::check_literal_golden;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn literal_eval_matches_cpython() {
    let (failures, n) = check_literal_golden().unwrap();
    assert!(n > 500, "only {n} cases");
    assert!(
        failures.is_empty(),
        "{} of {n} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
