//! Every golden trajectory replays exactly (Toy Text) or within tolerance (Classic
//! Control). The same tests run natively and, compiled to wasm, in headless Chromium.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use playbench_tests::{check_golden, golden, golden_files, Coverage};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

fn replay(name: &str) -> Coverage {
    let json = golden(name);
    assert!(!json.is_empty(), "no golden file named {name}");
    match check_golden(json) {
        Ok(cov) => {
            assert!(cov.steps >= 50, "{name}: only {} steps", cov.steps);
            assert!(cov.resets >= 100, "{name}: only {} resets", cov.resets);
            cov
        }
        Err(e) => panic!("{name}: {e}"),
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn goldens_cover_episode_ends() {
    let mut terminations = 0;
    let mut truncations = 0;
    let files = golden_files();
    assert!(files.len() >= 11, "only {} golden files", files.len());
    for (name, _) in files {
        let cov = replay(name);
        terminations += cov.terminations;
        truncations += cov.truncations;
    }
    assert!(
        terminations >= 20 && truncations >= 5,
        "{terminations} / {truncations}"
    );
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_wrong_reference_is_caught() {
    // The checker itself must fail on a perturbed trajectory.
    let json = golden("Taxi-v3").replacen("\"reward\":-1.0", "\"reward\":-2.0", 1);
    assert!(check_golden(&json).is_err());
    let json = golden("CartPole-v1");
    let doc: serde_json::Value = serde_json::from_str(json).unwrap();
    let first = doc["episodes"][0]["first"]["steps"][3]["state"]["state"][0]
        .as_f64()
        .unwrap();
    let bumped = json.replacen(
        &format!("{first:?}"),
        &format!("{:?}", first * (1.0 + 1e-5)),
        1,
    );
    assert_ne!(bumped, json);
    assert!(check_golden(&bumped).is_err());
}
