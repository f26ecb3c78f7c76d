//! Every MiniGrid id replays the reference seed for seed (grids, views, rewards, flags)
//! and frame for frame, natively and, compiled to wasm, in headless Chromium.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use playbench_tests::minigrid::{check_minigrid_golden, minigrid_golden_files};
use playbench_tests::LibraryStepper;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn every_minigrid_id_matches_the_reference() {
    let mut failures = Vec::new();
    let (mut steps, mut frames, mut ends) = (0, 0, 0);
    let files = minigrid_golden_files();
    assert!(
        files.len() >= 62,
        "only {} MiniGrid golden files",
        files.len()
    );
    for (id, gz) in files {
        match check_minigrid_golden(&mut LibraryStepper::default(), gz) {
            Ok(cov) => {
                assert!(cov.steps > 30 && cov.frames >= 6, "{id}: {cov:?}");
                steps += cov.steps;
                frames += cov.frames;
                ends += cov.terminations;
            }
            Err(e) => failures.push(format!("{id}: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} ids differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        steps > 10_000 && frames > 500 && ends > 300,
        "{steps} {frames} {ends}"
    );
}
