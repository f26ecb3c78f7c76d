//! The browser half of the Atari speed comparison: run by `cargo run --release -p
//! playbench-tests --bin atari_speed` with `--features wasm-bench`; prints one
//! `ATARI_SPEED <json>` line per game and workload. The games, seconds and rounds come
//! from the build's `ATARI_SPEED_GAMES` (comma-separated), `ATARI_SPEED_SECONDS` and
//! `ATARI_SPEED_ROUNDS`; the ROMs from the build (`tests/build.rs` embeds them).
#![cfg(all(target_arch = "wasm32", feature = "wasm-bench"))]
// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use playbench_tests::atari::shelve_test_roms;
use playbench_tests::atari::speed::{best_of, Workload, DEFAULT_GAMES};
use playbench_tests::browser::yield_to_browser;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test::wasm_bindgen_test]
async fn atari_browser_speed() {
    shelve_test_roms().unwrap();
    let games: Vec<&str> = option_env!("ATARI_SPEED_GAMES")
        .map(|g| g.split(',').collect())
        .unwrap_or_else(|| DEFAULT_GAMES.to_vec());
    let seconds = option_env!("ATARI_SPEED_SECONDS")
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let rounds = option_env!("ATARI_SPEED_ROUNDS")
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let now = || js_sys::Date::now() / 1000.0;
    for game in games {
        for workload in Workload::ALL {
            let s = best_of(rounds, game, workload, seconds, &now).unwrap();
            wasm_bindgen_test::console_log!("ATARI_SPEED {}", serde_json::to_string(&s).unwrap());
            yield_to_browser().await;
        }
    }
}
