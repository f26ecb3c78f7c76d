//! The browser half of the benchmark: run by `cargo run -p playbench-tests --bin bench`
//! with `--features wasm-bench`; prints one `BENCH <json>` line per environment (those
//! whose name contains `PLAYBENCH_BENCH_ONLY` when it was compiled, for `--only`).
#![cfg(all(target_arch = "wasm32", feature = "wasm-bench"))]
// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use playbench_tests::bench::{cases_matching, measure, needs_roms, SECONDS, WARM_UP_BROWSER};
use playbench_tests::browser::yield_to_browser;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test::wasm_bindgen_test]
async fn browser_throughput() {
    let now = || js_sys::Date::now() / 1000.0;
    let only = option_env!("PLAYBENCH_BENCH_ONLY").filter(|o| !o.is_empty());
    let cases = cases_matching(only);
    if needs_roms(&cases) {
        // Embedded in wasm test builds from `.cache/` (tests/build.rs).
        playbench_tests::atari::shelve_test_roms().unwrap();
    }
    for case in cases {
        let m = measure(case, SECONDS, WARM_UP_BROWSER, &now).unwrap();
        wasm_bindgen_test::console_log!("BENCH {}", serde_json::to_string(&m).unwrap());
        yield_to_browser().await;
    }
}
