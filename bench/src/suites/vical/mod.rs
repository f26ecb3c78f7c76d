//! The built-in suite `vical`: V-ICAL's task design (docs/vical-protocol.md) on every
//! V-ICAL environment Playbench plays — Taxi, CliffWalking, CartPole, Acrobot,
//! MountainCar, three MiniGrid levels, Tetris, FlappyBird, Highway and nine Atari games.
//! All but Atari are built by the generator `playbench-core` uses
//! (`super::calibrated`): seed variants and mid-route starts replayed from the oracle's
//! own route, frame skip with NOOP fill, budgets of at most 100 decisions, pass
//! conditions and 0-100 scores calibrated on the oracle, the oracle's success and a
//! random failure as demonstrations. The Atari tasks replay a recorded search
//! ([`atari`]). Deterministic: the committed `bench/suites/vical/v2.json` is
//! `build()`'s output (building it needs the Atari ROMs on the shelf); `v1.json`, the
//! version without Atari, is frozen.

pub mod atari;
pub mod recipes;

use super::calibrated::{self, Style};
use crate::task::{Suite, TaskError};

pub const SUITE_ID: &str = "vical";
pub const SUITE_VERSION: u32 = 2;

/// Survival and score tasks run the oracle within their budget (short prefixes and
/// clips, a small suite file).
const STYLE: Style = Style {
    bounded_survival_runs: true,
};

/// Generates the suite.
pub fn build() -> Result<Suite, TaskError> {
    let mut suite = calibrated::build(
        SUITE_ID,
        SUITE_VERSION,
        "V-ICAL's task design on the twenty V-ICAL environments Playbench plays (Taxi, \
         CliffWalking, CartPole, Acrobot, MountainCar, MiniGrid LavaCrossing, UnlockPickup \
         and MultiRoom, Tetris, FlappyBird, Highway, and the Atari games Seaquest, Asterix, \
         Frostbite, Berzerk, RoadRunner, Tennis, Freeway, BattleZone and Breakout): seed \
         variants, warm-ups and mid-route starts, frame skip with NOOP fill, budgets of at \
         most 100 decisions, V-ICAL's action vocabularies, pass conditions and 0-100 scores \
         calibrated on the oracle (for Atari a recorded search), oracle and failure \
         demonstrations. The Atari tasks need the game ROMs, which the user supplies. \
         Choices the paper leaves open are tagged chosen-config, stand-in or masked-actions.",
        &recipes::all(),
        &STYLE,
    )?;
    suite.tasks.extend(atari::build()?);
    Ok(suite)
}
