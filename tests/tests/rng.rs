//! numpy test vectors (`docs/environments.md`, "numpy's generator") on the target under
//! test: natively and, as wasm, in headless Chromium, where integer and float arithmetic
//! must agree bit for bit.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use envs::rng::NpRandom;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn generator_test_vectors() {
    let mut rng = NpRandom::seeded(0);
    assert_eq!(rng.next_u64(), 0xa30febcfd9c2825f);
    let mut rng = NpRandom::seeded(0);
    assert_eq!(rng.random(), 0.6369616873214543);
    assert_eq!(rng.random(), 0.2697867137638703);
    let mut rng = NpRandom::seeded(42);
    let draws: Vec<i64> = (0..6).map(|_| rng.integers(0, 5).unwrap()).collect();
    assert_eq!(draws, vec![0, 3, 3, 2, 2, 4]);
    let mut rng = NpRandom::seeded(7);
    assert_eq!(rng.integers(0, 5).unwrap(), 4);
    assert_eq!(rng.random(), 0.8972138009695755);
    assert_eq!(rng.integers(0, 5).unwrap(), 3);
    let mut rng = NpRandom::seeded(0);
    let mut v: Vec<u32> = (0..10).collect();
    rng.shuffle(&mut v);
    assert_eq!(v, vec![4, 6, 2, 7, 3, 5, 9, 0, 8, 1]);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn large_seeds_use_every_entropy_word() {
    let a = NpRandom::seeded(1 << 32).random();
    let b = NpRandom::seeded(0).random();
    let c = NpRandom::seeded((1 << 64) + 5).random();
    assert_ne!(a, b);
    assert_ne!(a, c);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn frames_hash_the_same_everywhere() {
    // A rendered frame is identical on every target: its hash is pinned here, so the
    // native run and the wasm run of this test both check against the same value.
    const PINNED_TAXI_SEED_3: u64 = 0x9aee_e72d_d88e_f8b8;
    let mut env = envs::make_default("Taxi-v3").unwrap();
    env.reset(Some(3));
    let mut frame = envs::Frame::default();
    env.render(&mut frame);
    assert_eq!(frame.hash(), PINNED_TAXI_SEED_3, "got {:#x}", frame.hash());
}
