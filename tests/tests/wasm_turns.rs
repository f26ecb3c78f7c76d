//! The browser half of `bench --turns`: the app's work per model request in wasm, one
//! `TURNS <json>` line per case (those whose name contains `PLAYBENCH_BENCH_ONLY` when
//! it was compiled). Built only with `--features wasm-bench`.
#![cfg(all(target_arch = "wasm32", feature = "wasm-bench"))]
// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use playbench_tests::bench::turns::{turn_cases_matching, TurnRun, REQUESTS};
use playbench_tests::browser::yield_to_browser;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test::wasm_bindgen_test]
async fn browser_request_work() {
    let now = || web_sys::window().unwrap().performance().unwrap().now();
    let only = option_env!("PLAYBENCH_BENCH_ONLY").filter(|o| !o.is_empty());
    for case in turn_cases_matching(only) {
        let mut run = TurnRun::open(&case, REQUESTS, &now).unwrap();
        // The page's turn between requests, as while the app waits for an answer.
        while run.request().unwrap() {
            yield_to_browser().await;
        }
        let f = run.figures();
        wasm_bindgen_test::console_log!("TURNS {}", serde_json::to_string(&f).unwrap());
        yield_to_browser().await;
    }
}
