//! The built-in suite `vical`: V-ICAL's task design (docs/vical-protocol.md) on every
//! V-ICAL environment Playbench plays — Taxi, CliffWalking, CartPole, Acrobot,
//! MountainCar, three MiniGrid levels, Tetris, FlappyBird and Highway — built by the
//! generator `playbench-core` uses (`super::calibrated`): seed variants and mid-route
//! starts replayed from the oracle's own route, frame skip with NOOP fill, budgets of at
//! most 100 decisions, pass conditions and 0-100 scores calibrated on the oracle, the
//! oracle's success and a random failure as demonstrations. Deterministic: the
//! committed `bench/suites/vical/v1.json` is `build()`'s output.

pub mod recipes;

use super::calibrated::{self, Style};
use crate::task::{Suite, TaskError};

pub const SUITE_ID: &str = "vical";
pub const SUITE_VERSION: u32 = 1;

/// Survival and score tasks run the oracle within their budget (short prefixes and
/// clips, a small suite file).
const STYLE: Style = Style {
    bounded_survival_runs: true,
};

/// Generates the suite.
pub fn build() -> Result<Suite, TaskError> {
    calibrated::build(
        SUITE_ID,
        SUITE_VERSION,
        "V-ICAL's task design on the eleven V-ICAL environments Playbench plays (Taxi, \
         CliffWalking, CartPole, Acrobot, MountainCar, MiniGrid LavaCrossing, UnlockPickup \
         and MultiRoom, Tetris, FlappyBird, Highway): seed variants and mid-route starts, \
         frame skip with NOOP fill, budgets of at most 100 decisions, V-ICAL's action \
         vocabularies, pass conditions and 0-100 scores calibrated on the oracle, \
         oracle and failure demonstrations. Choices the paper leaves open are tagged \
         chosen-config, stand-in or masked-actions.",
        &recipes::all(),
        &STYLE,
    )
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::agents::{OracleAgent, RandomAgent};
    use crate::episode::run_episode;
    use crate::report::{report, Report};
    use crate::suites::calibrated::demo_frames;
    use crate::task::{Dynamics, Memory, PassCondition};

    fn suite() -> &'static Suite {
        crate::suites::latest(SUITE_ID).unwrap()
    }

    fn committed(which: &str) -> Report {
        let (random, oracle) = crate::suites::baselines(SUITE_ID, SUITE_VERSION)
            .unwrap()
            .unwrap();
        if which == "random" {
            random
        } else {
            oracle
        }
    }

    fn table(agent: &str, records: &[crate::EpisodeRecord]) -> Report {
        let s = suite();
        report(
            agent,
            &format!("{} v{}", s.id, s.version),
            &s.tasks,
            records,
        )
    }

    #[test]
    fn every_vical_environment_is_here_with_its_tags() {
        let s = suite();
        let envs: BTreeSet<&str> = s.tasks.iter().map(|t| t.env.as_str()).collect();
        let want: BTreeSet<&str> = [
            "Taxi-v3",
            "CliffWalking-v1",
            "CartPole-v1",
            "Acrobot-v1",
            "MountainCar-v0",
            "MiniGrid-LavaCrossingS9N1-v0",
            "MiniGrid-UnlockPickup-v0",
            "MiniGrid-MultiRoom-N4-S5-v0",
            "tetris_gymnasium/Tetris",
            "FlappyBird-v0",
            "highway-v0",
        ]
        .into_iter()
        .collect();
        assert_eq!(envs, want);
        for t in &s.tasks {
            let tags = (t.tags.memory, t.tags.dynamics);
            match t.env.as_str() {
                // The paper's examples: FlappyBird's rhythm needs earlier frames, Taxi
                // does not.
                "FlappyBird-v0" | "highway-v0" => {
                    assert_eq!(tags, (Memory::Multiple, Dynamics::Dynamic), "{}", t.id)
                }
                "tetris_gymnasium/Tetris" => {
                    assert_eq!(tags, (Memory::Single, Dynamics::Dynamic), "{}", t.id)
                }
                "Taxi-v3" | "CliffWalking-v1" => {
                    assert_eq!(tags, (Memory::Single, Dynamics::Static), "{}", t.id)
                }
                _ => {}
            }
            assert!(t.max_steps <= 100, "{}: {} decisions", t.id, t.max_steps);
            assert!(t.hide_reward, "{}", t.id);
            let frames = demo_frames(t).unwrap();
            assert!(
                (10..=80).contains(&frames),
                "{}: {frames} demo frames",
                t.id
            );
            let chosen = t.tags.extra.iter().any(|e| e == recipes::CHOSEN_CONFIG);
            let third_party = ["tetris", "FlappyBird", "highway"]
                .iter()
                .any(|p| t.env.starts_with(p));
            assert_eq!(chosen, third_party, "{}: the chosen-config tag", t.id);
        }
        // V-ICAL's task construction: mid-route starts and frame skip with NOOP fill.
        for env in ["tetris_gymnasium/Tetris", "FlappyBird-v0", "highway-v0"] {
            assert!(
                s.tasks.iter().any(|t| t.env == env && !t.prefix.is_empty()),
                "{env} has no mid-route start"
            );
        }
        assert!(s
            .tasks
            .iter()
            .any(|t| t.action_steps < t.frame_skip && t.noop.is_some()));
        // FlappyBird and CartPole have V-ICAL's smallest vocabulary, two actions.
        for t in &s.tasks {
            if t.env == "FlappyBird-v0" || t.env == "CartPole-v1" {
                assert_eq!(t.actions.len(), 2, "{}", t.id);
            }
        }
    }

    #[test]
    fn the_oracle_passes_every_task_and_its_baseline_is_current() {
        let s = suite();
        let mut records = Vec::new();
        let mut failed = Vec::new();
        for t in &s.tasks {
            let r = run_episode(t, &mut OracleAgent::new()).unwrap();
            if !r.passed {
                failed.push(format!("{} ({:?}, score {:.1})", t.id, r.failure, r.score));
            }
            records.push(r);
        }
        assert!(failed.is_empty(), "the oracle failed {failed:?}");
        assert_eq!(
            table("oracle", &records),
            committed("oracle"),
            "the committed oracle baseline is stale: run `playbench baseline --suite-id vical --agent oracle --report`"
        );
    }

    #[test]
    fn the_random_baseline_is_current_and_below_the_oracle() {
        let s = suite();
        let records: Vec<_> = s
            .tasks
            .iter()
            .map(|t| run_episode(t, &mut RandomAgent::new(0)).unwrap())
            .collect();
        let fresh = table("random (seed 0)", &records);
        assert_eq!(
            fresh,
            committed("random"),
            "the committed random baseline is stale: run `playbench baseline --suite-id vical --agent random --report`"
        );
        // Rule-informed play must clearly beat random play (V-ICAL's screening).
        assert!(fresh.overall.score < 30.0, "{}", fresh.overall.score);
        assert!(s
            .tasks
            .iter()
            .any(|t| matches!(t.pass, PassCondition::Survive)));
    }
}
