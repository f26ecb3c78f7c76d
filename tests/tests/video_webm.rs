//! The WebM encoder (`bench::video`, `docs/video.md`) gives the same bytes natively and
//! as wasm: each sample clip (`playbench_tests::video_samples`) hashes to the SHA-256
//! recorded here, checked by `cargo test -p playbench-tests --test video_webm` and, in
//! headless Chromium, by the wasm run of `scripts/test.sh`.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use playbench_tests::video_samples::clips;
use sha2::{Digest, Sha256};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

/// Each clip's WebM: its size and SHA-256.
const EXPECTED: [(&str, usize, &str); 2] = [
    (
        "2048",
        21506,
        "e1239f4754848d1cadfa03356e2742d0f9f2e3e7c92e06072de496a29a8c7c73",
    ),
    (
        "snake",
        283309,
        "a4bdc2bb76dd14d1c79d150e632cd2c6573b497bbd6efe2b8a73c1de2ddb55dc",
    ),
];

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn clips_encode_to_the_recorded_bytes() {
    let got: Vec<(&str, usize, String)> = clips()
        .iter()
        .map(|c| {
            let webm = bench::video::encode_webm(&c.frames, c.fps).unwrap();
            let hash: String = Sha256::digest(&webm)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            (c.name, webm.len(), hash)
        })
        .collect();
    let expected: Vec<(&str, usize, String)> = EXPECTED
        .iter()
        .map(|&(n, len, h)| (n, len, h.to_string()))
        .collect();
    assert_eq!(got, expected);
}
