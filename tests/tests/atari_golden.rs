//! Every supported Atari game replays ale-py 0.12.1's golden traces exactly: rewards,
//! lives, episode ends, frame counters, RAM and every screen (RGB through a hash chain,
//! grayscale at checkpoints). The ROMs come from the ale-py wheel (see
//! `playbench_tests::atari::roms`); without them this test fails, it does not skip.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]
#![cfg(not(target_arch = "wasm32"))]

use playbench_tests::atari::{check_atari_golden, game, roms, ATARI_GOLDEN};

#[test]
fn every_atari_game_matches_ale_py() {
    let dir = roms::rom_dir().unwrap_or_else(|e| {
        panic!("the Atari golden test needs the ALE ROMs from the ale-py wheel: {e}")
    });
    let mut failures = Vec::new();
    let (mut steps, mut screens, mut rewards, mut ends) = (0, 0, 0, 0);
    for (name, gz) in ATARI_GOLDEN {
        let game = game(name).unwrap_or_else(|| panic!("{name} is not a supported game"));
        let rom = roms::read_rom(game.id)
            .unwrap_or_else(|e| panic!("{name}: no ROM in {}: {e}", dir.display()));
        match check_atari_golden(gz, &rom) {
            Ok(cov) => {
                assert!(cov.steps >= 6000 && cov.ram_checks >= 20, "{name}: {cov:?}");
                steps += cov.steps;
                screens += cov.screens;
                rewards += cov.rewards;
                ends += cov.terminations + cov.truncations;
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} games differ from ale-py:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        ATARI_GOLDEN.len() >= 19,
        "only {} games",
        ATARI_GOLDEN.len()
    );
    assert!(steps > 100_000 && screens > steps && rewards > 500 && ends > 20);
}
