//! The `vical` suite checked as users rely on it, with the Atari ROMs on the shelf (from
//! the ale-py wheel, `playbench_tests::atari`): every V-ICAL environment Playbench plays
//! is there with honest tags, the oracle (for Atari its recorded search) passes every
//! task, and the committed random and oracle baselines are what the agents play now.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;

use bench::agents::{OracleAgent, RandomAgent};
use bench::demo::demo_frame_count;
use bench::episode::run_episode;
use bench::report::{report, Report};
use bench::suites::vical::{recipes, SUITE_ID, SUITE_VERSION};
use bench::task::{Dynamics, Memory, PassCondition};
use bench::Suite;

/// The suite, with the ROMs its Atari tasks play on the shelf.
fn suite() -> &'static Suite {
    playbench_tests::atari::shelve_test_roms().unwrap();
    bench::suites::latest(SUITE_ID).unwrap()
}

fn committed(which: &str) -> Report {
    let (random, oracle) = bench::suites::baselines(SUITE_ID, SUITE_VERSION)
        .unwrap()
        .unwrap();
    if which == "random" {
        random
    } else {
        oracle
    }
}

fn table(agent: &str, records: &[bench::EpisodeRecord]) -> Report {
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
        "ALE/Seaquest-v5",
        "ALE/Asterix-v5",
        "ALE/Frostbite-v5",
        "ALE/Berzerk-v5",
        "ALE/RoadRunner-v5",
        "ALE/Tennis-v5",
        "ALE/Freeway-v5",
        "ALE/BattleZone-v5",
        "ALE/Breakout-v5",
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
        // Breakout's 200 (docs/tasks.md, "Atari tasks") is the longest budget.
        assert!(t.max_steps <= 200, "{}: {} decisions", t.id, t.max_steps);
        assert!(t.hide_reward, "{}", t.id);
        let frames = demo_frame_count(t).unwrap();
        assert!(
            (10..=80).contains(&frames),
            "{}: {frames} demo frames",
            t.id
        );
        let chosen = t.tags.extra.iter().any(|e| e == recipes::CHOSEN_CONFIG);
        let third_party = ["tetris", "FlappyBird", "highway", "ALE/"]
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
    // V-ICAL's ALE settings: no sticky actions, frame skip 4 but RoadRunner's 16 and
    // Tennis's four unit-frame steps, the paper's recorded human openings.
    for t in s.tasks.iter().filter(|t| t.env.starts_with("ALE/")) {
        assert_eq!(t.kwargs["repeat_action_probability"], 0.0, "{}", t.id);
        let frames = t.kwargs["frameskip"].as_u64().unwrap() * u64::from(t.frame_skip);
        let want = if t.env == "ALE/RoadRunner-v5" { 16 } else { 4 };
        assert_eq!(frames, want, "{}", t.id);
        assert_eq!(
            (t.tags.memory, t.tags.dynamics),
            (Memory::Multiple, Dynamics::Dynamic),
            "{}",
            t.id
        );
        assert!(!t.recorded_oracle.is_empty(), "{}", t.id);
    }
    let start = |id: &str| {
        let t = s.task(id).unwrap();
        (t.init_skip, t.prefix.join(","))
    };
    assert_eq!(start("seaquest-dive"), (230, "DOWN,DOWN,DOWN".into()));
    assert_eq!(start("seaquest-surface"), (350, String::new()));
    assert_eq!(
        start("asterix-lanes"),
        (0, "NOOP,NOOP,NOOP,UP,UPLEFT".into())
    );
    assert_eq!(
        start("frostbite-risks"),
        (0, "DOWNRIGHT,DOWNRIGHT,DOWN,DOWN,NOOP,NOOP".into())
    );
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
