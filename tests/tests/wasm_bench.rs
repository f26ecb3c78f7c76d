//! The browser half of the benchmark: run by `cargo run -p playbench-tests --bin bench`
//! with `--features wasm-bench`; prints one `BENCH <json>` line per environment.
#![cfg(all(target_arch = "wasm32", feature = "wasm-bench"))]

use playbench_tests::bench::{measure, CASES};

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test::wasm_bindgen_test]
fn browser_throughput() {
    let now = || js_sys::Date::now() / 1000.0;
    for case in CASES {
        let m = measure(case, 0.5, &now).unwrap();
        wasm_bindgen_test::console_log!("BENCH {}", serde_json::to_string(&m).unwrap());
    }
}
