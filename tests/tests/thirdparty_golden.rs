//! The third-party games replay the Python packages' golden trajectories
//! (`tests/golden/thirdparty/generate.py`): Tetris exactly, frames included; natively and,
//! compiled to wasm, in headless Chromium.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use playbench_tests::thirdparty::{golden_env, replay, TetrisGame, Tolerance, TETRIS};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn tetris_matches_the_reference_exactly() {
    let (id, kwargs) = golden_env(TETRIS).unwrap();
    assert_eq!(id, envs::tetris::ID);
    let mut game = TetrisGame(envs::tetris::Tetris::new(&kwargs).unwrap());
    let cov = replay(&mut game, TETRIS, &|_| Tolerance::Exact, true).unwrap();
    assert!(
        cov.episodes >= 9 && cov.steps > 3000 && cov.terminations >= 8 && cov.frames > 400,
        "{cov:?}"
    );
}
