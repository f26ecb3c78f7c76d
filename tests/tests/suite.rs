//! The built-in suite, checked the way a user relies on it, natively and as wasm in
//! headless Chromium: it parses and round-trips, the oracle passes every task, every
//! demonstration replays with the right captions, and the random baseline is the same
//! on every run and every target (it must equal the committed table).

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use bench::agents::{OracleAgent, RandomAgent};
use bench::demo::{clip_frame_count, play_clip};
use bench::report::{report, Report};
use bench::task::{Dynamics, Memory};
use bench::{run_episode, Suite};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

const RANDOM_BASELINE: &str =
    include_str!("../../bench/suites/playbench-core/v1.baseline-random.json");

fn suite() -> Suite {
    bench::suites::latest(bench::suites::DEFAULT_SUITE)
        .unwrap()
        .clone()
}

playbench_tests::browser_tests! {
    fn the_suite_covers_every_environment_with_honest_tags() {
        let suite = suite();
        assert!(suite.tasks.len() >= 150, "{} tasks", suite.tasks.len());
        // Every Toy Text, Classic Control and MiniGrid id has a task here (other families
        // have their own suites; tests/tests/coverage.rs checks every registered id).
        for family in [
            &envs::toy_text::FAMILY,
            &envs::classic_control::FAMILY,
            &envs::minigrid::FAMILY,
        ] {
            for spec in family.specs {
                assert!(
                    suite
                        .tasks
                        .iter()
                        .any(|t| envs::spec(&t.env).map(|s| s.id) == Some(spec.id)),
                    "no task for {}",
                    spec.id
                );
            }
        }
        for t in &suite.tasks {
            if t.env.contains("Memory") || t.env.contains("DoorKey") {
                assert_eq!(t.tags.memory, Memory::Multiple, "{}", t.id);
            }
            if t.env.contains("Dynamic-Obstacles") || t.env == "CartPole-v1" {
                assert_eq!(t.tags.dynamics, Dynamics::Dynamic, "{}", t.id);
            }
            if t.env.contains("Empty") || t.env.contains("FrozenLake") {
                assert_eq!(
                    (t.tags.memory, t.tags.dynamics),
                    (Memory::Single, Dynamics::Static),
                    "{}",
                    t.id
                );
            }
        }
        let budgets: Vec<u32> = suite.tasks.iter().map(|t| t.max_steps).collect();
        let within = budgets.iter().filter(|&&b| b <= 100).count();
        assert!(
            within * 10 >= budgets.len() * 9,
            "most horizons are at most 100 decisions"
        );
        assert!(
            suite.tasks.iter().any(|t| !t.prefix.is_empty()),
            "initialized variants exist"
        );
    }

    fn every_task_round_trips_through_its_file_format() {
        let suite = suite();
        for t in &suite.tasks {
            let again = bench::Task::from_json(&t.to_json()).unwrap();
            assert_eq!(&again, t);
        }
        let text = serde_json::to_string(&suite).unwrap();
        assert_eq!(Suite::from_json(&text).unwrap(), suite);
    }

    fn the_oracle_passes_its_tasks() {
        let suite = suite();
        let mut by_env: BTreeMap<String, (u32, u32)> = BTreeMap::new();
        let mut failed = Vec::new();
        for t in &suite.tasks {
            let record = run_episode(t, &mut OracleAgent::new()).unwrap();
            let entry = by_env.entry(t.env.clone()).or_default();
            entry.0 += u32::from(record.passed);
            entry.1 += 1;
            if !record.passed {
                failed.push(format!(
                    "{} ({:?}, score {:.1})",
                    t.id, record.failure, record.score
                ));
            }
        }
        for (env, (pass, n)) in &by_env {
            assert!(
                f64::from(*pass) >= 0.95 * f64::from(*n),
                "{env}: oracle passed {pass}/{n}; failed: {failed:?}"
            );
        }
        assert!(failed.is_empty(), "the oracle failed {failed:?}");
    }

    fn every_demo_replays_with_its_captions() {
        let suite = suite();
        for t in &suite.tasks {
            let mut total = 0;
            for clip in &t.demos {
                let play = play_clip(t, clip).unwrap();
                let n = play.frames.len();
                assert_eq!(clip_frame_count(t, clip).unwrap(), n, "{}: counted", t.id);
                assert_eq!(play.captions.len(), n);
                assert_eq!(play.captions[0], "Start State", "{}", t.id);
                for (i, name) in clip.actions.iter().enumerate().take(n - 2) {
                    assert_eq!(
                        play.captions[i + 1],
                        format!("Step {}: Action: {name}", i + 1),
                        "{}",
                        t.id
                    );
                }
                assert_eq!(play.captions[n - 1], play.outcome.label());
                assert_eq!(
                    play.frames[n - 1],
                    play.frames[n - 2],
                    "the outcome frame repeats the last one"
                );
                if clip.label.contains("succeeding") && t.pass == bench::PassCondition::ReachGoal {
                    assert_eq!(play.outcome, bench::demo::Outcome::Victory, "{}", t.id);
                }
                total += n;
            }
            assert!((10..=80).contains(&total), "{}: {total} demo frames", t.id);
        }
    }

    fn the_random_baseline_is_reproducible_everywhere() {
        let suite = suite();
        let run = || {
            let records: Vec<_> = suite
                .tasks
                .iter()
                .map(|t| run_episode(t, &mut RandomAgent::new(0)).unwrap())
                .collect();
            report(
                "random (seed 0)",
                &format!("{} v{}", suite.id, suite.version),
                &suite.tasks,
                &records,
            )
        };
        let first = run();
        assert_eq!(first, run());
        let committed: Report = serde_json::from_str(RANDOM_BASELINE).unwrap();
        assert_eq!(
            first, committed,
            "the committed random baseline is stale or this target differs"
        );
    }
}
