//! VisGym's Fetch tasks as wasm in headless Chromium, on MuJoCo's WebAssembly module in
//! the page (as the app runs it), against the reference's golden files. Natively the
//! same files replay on the command line's Node host (`cli/tests/fetch_golden.rs`).
#![cfg(target_arch = "wasm32")]
// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use playbench_tests::browser::yield_to_browser;
use playbench_tests::fetch::{page, FetchGoldenCheck};

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

async fn replay(name: &str) -> playbench_tests::fetch::FetchCoverage {
    page::install().await.unwrap_or_else(|e| panic!("{e}"));
    let path = format!("golden/visgym/{name}.json.gz");
    let (_, gz) = playbench_tests::data_files(&path)
        .next()
        .unwrap_or_else(|| panic!("no {path}"));
    let mut check = FetchGoldenCheck::new(gz).unwrap_or_else(|e| panic!("{e}"));
    loop {
        yield_to_browser().await;
        if !check
            .next_episode()
            .unwrap_or_else(|e| panic!("{name}: {e}"))
        {
            break;
        }
    }
    check.coverage
}

#[wasm_bindgen_test::wasm_bindgen_test]
async fn fetch_reach_replays_the_reference_in_the_browser() {
    let cov = replay("fetch_reach").await;
    assert!(cov.episodes >= 6 && cov.plans >= 5, "{cov:?}");
}

#[wasm_bindgen_test::wasm_bindgen_test]
async fn fetch_pick_and_place_replays_the_reference_in_the_browser() {
    let cov = replay("fetch_pick_and_place").await;
    assert!(cov.episodes >= 5 && cov.plans >= 4, "{cov:?}");
}
