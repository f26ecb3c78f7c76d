//! The built-in suite `playbench-core`, generated from [`recipes`] by running the
//! oracle (`super::calibrated`): budgets and reference targets are calibrated on the
//! oracle's episodes, the success demonstrations are the oracle's, and failure
//! demonstrations are seeded random episodes that end badly. Deterministic: `build()`
//! always returns the same suite, and the committed
//! `bench/suites/playbench-core/v1.json` is its output.

pub mod recipes;

use super::calibrated::{self, Style};
use crate::task::{Suite, TaskError};

pub const SUITE_ID: &str = "playbench-core";
pub const SUITE_VERSION: u32 = 1;

/// Survival tasks show the oracle's last decisions of a long run (as v1 was built).
const STYLE: Style = Style {
    bounded_survival_runs: false,
};

/// Generates the suite (slow-ish: it runs the oracle on every task).
pub fn build() -> Result<Suite, TaskError> {
    let mut all = recipes::toy_text();
    all.extend(recipes::classic_control());
    all.extend(recipes::minigrid());
    calibrated::build(
        SUITE_ID,
        SUITE_VERSION,
        "Toy Text, Classic Control and MiniGrid tasks in the V-ICAL style: seed variants and mid-route starts, oracle-calibrated budgets and scores, oracle and failure demonstrations.",
        &all,
        &STYLE,
    )
}
