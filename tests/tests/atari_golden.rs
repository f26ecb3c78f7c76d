//! Every supported Atari game replays ale-py 0.12.1's golden traces exactly through
//! `envs::make("ALE/<Game>-v5")` and the `Env` trait: rewards, lives, episode ends,
//! frame counters, RAM, every screen (RGB through a hash chain) and the observations
//! (RGB, grayscale, RAM). Natively and, compiled to wasm, in headless Chromium.
//!
//! The ROMs come from the ale-py wheel (`playbench_tests::atari::roms`; the wasm build
//! embeds them, see `tests/build.rs`). Without them these tests fail, they do not skip.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use playbench_tests::atari::{
    check_atari_golden, golden_files, golden_for, gunzip, shelve_test_roms, AtariCoverage,
    AtariGoldenCheck, LibraryAtari, GOLDEN_DIR,
};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

/// The golden check of `id`, its ROM shelved.
fn golden_check(id: &str) -> AtariGoldenCheck {
    let shelved = shelve_test_roms()
        .unwrap_or_else(|e| panic!("the Atari golden tests need the ALE ROMs: {e}"));
    let game = envs::atari::ale_env::game_of(id).unwrap();
    assert!(
        shelved.contains(&game.name),
        "{id}: its ROM is not among the test ROMs ({shelved:?})"
    );
    let json = gunzip(golden_for(id).unwrap_or_else(|| panic!("no golden file for {id}"))).unwrap();
    AtariGoldenCheck::new(&json).unwrap()
}

fn assert_covered(id: &str, cov: &AtariCoverage) {
    assert!(
        cov.steps >= 6000 && cov.ram_checks >= 20 && cov.observation_checks >= 250,
        "{id}: {cov:?}"
    );
    assert!(cov.screens > cov.steps, "{id}: {cov:?}");
}

#[cfg(not(target_arch = "wasm32"))]
fn replay(id: &str) {
    let mut check = golden_check(id);
    let mut stepper = LibraryAtari::default();
    while check
        .next_trace(&mut stepper)
        .unwrap_or_else(|e| panic!("{id} differs from ale-py: {e}"))
    {}
    assert_covered(id, &check.coverage);
}

/// As natively, handing the browser its main thread back between traces.
#[cfg(target_arch = "wasm32")]
async fn replay(id: &str) {
    let mut check = golden_check(id);
    let mut stepper = LibraryAtari::default();
    while check
        .next_trace(&mut stepper)
        .unwrap_or_else(|e| panic!("{id} differs from ale-py: {e}"))
    {
        playbench_tests::browser::yield_to_browser().await;
    }
    assert_covered(id, &check.coverage);
}

macro_rules! atari_golden_tests {
    ($($fn_name:ident => $id:literal),* $(,)?) => {
        /// The ids the tests below replay.
        const REPLAYED: &[&str] = &[$($id),*];
        $(
            #[cfg(not(target_arch = "wasm32"))]
            #[test]
            fn $fn_name() {
                replay($id);
            }

            #[cfg(target_arch = "wasm32")]
            #[wasm_bindgen_test::wasm_bindgen_test]
            async fn $fn_name() {
                replay($id).await;
            }
        )*
    };
}

atari_golden_tests! {
    alien => "ALE/Alien-v5",
    amidar => "ALE/Amidar-v5",
    asterix => "ALE/Asterix-v5",
    battle_zone => "ALE/BattleZone-v5",
    berzerk => "ALE/Berzerk-v5",
    boxing => "ALE/Boxing-v5",
    breakout => "ALE/Breakout-v5",
    enduro => "ALE/Enduro-v5",
    freeway => "ALE/Freeway-v5",
    frostbite => "ALE/Frostbite-v5",
    kangaroo => "ALE/Kangaroo-v5",
    montezuma_revenge => "ALE/MontezumaRevenge-v5",
    ms_pacman => "ALE/MsPacman-v5",
    pong => "ALE/Pong-v5",
    qbert => "ALE/Qbert-v5",
    riverraid => "ALE/Riverraid-v5",
    road_runner => "ALE/RoadRunner-v5",
    seaquest => "ALE/Seaquest-v5",
    space_invaders => "ALE/SpaceInvaders-v5",
    tennis => "ALE/Tennis-v5",
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn every_registered_atari_id_and_golden_file_is_replayed() {
    let registered: Vec<&str> = envs::atari::FAMILY.specs.iter().map(|s| s.id).collect();
    let mut replayed = REPLAYED.to_vec();
    replayed.sort_unstable();
    let mut sorted = registered.clone();
    sorted.sort_unstable();
    assert_eq!(replayed, sorted);
    let files = golden_files();
    assert_eq!(files.len(), registered.len(), "files under {GOLDEN_DIR}");
    for id in registered {
        assert!(golden_for(id).is_some(), "{id}");
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_doctored_golden_file_is_caught() {
    shelve_test_roms().unwrap();
    let json = gunzip(golden_for("ALE/Pong-v5").unwrap()).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let reward = &mut doc["traces"][0]["rewards"][0][1];
    *reward = serde_json::json!(-reward.as_f64().unwrap());
    let e = check_atari_golden(&mut LibraryAtari::default(), &doc.to_string()).unwrap_err();
    assert!(e.contains("reward"), "{e}");
    let mut doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    doc["traces"][0]["checkpoints"][2]["chain"] = serde_json::json!("0000000000000000");
    let e = check_atari_golden(&mut LibraryAtari::default(), &doc.to_string()).unwrap_err();
    assert!(e.contains("step 50: screens/RAM differ"), "{e}");
}
