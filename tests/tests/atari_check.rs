//! The registry-wide environment checker (`envs::core::check`) on the Atari games with
//! their ROMs supplied: every `ALE/<Game>-v5` must actually be checked and pass. Without
//! ROMs, `check_all` reports these ids as skipped ("ROM not supplied"); this test makes
//! sure that is never the whole story. The ROMs come from the ale-py wheel
//! (`playbench_tests::atari::roms`); without them this test fails, it does not skip.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]
#![cfg(not(target_arch = "wasm32"))]

use envs::core::check::{check_all, Verdict};
use playbench_tests::atari::shelve_test_roms;

#[test]
fn every_atari_game_with_its_rom_passes_the_checker() {
    let shelved =
        shelve_test_roms().unwrap_or_else(|e| panic!("the Atari checks need the ALE ROMs: {e}"));
    let atari: Vec<(String, Verdict)> = check_all()
        .into_iter()
        .filter(|(id, _)| id.starts_with("ALE/"))
        .collect();
    assert_eq!(atari.len(), envs::atari::FAMILY.specs.len());
    let not_passed: Vec<String> = atari
        .iter()
        .filter(|(_, v)| !v.passed())
        .map(|(id, v)| format!("{id}: {v}"))
        .collect();
    assert!(
        not_passed.is_empty(),
        "with ROMs for {shelved:?}:\n{}",
        not_passed.join("\n")
    );
}
