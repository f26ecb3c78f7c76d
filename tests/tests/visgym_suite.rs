//! The `visgym` suite as users rely on it, natively and as wasm in headless Chromium:
//! every VisGym environment Playbench plays is a task at both levels, the image puzzles
//! name their bundled set and a constructor seed each so that their ten puzzles show
//! different samples, and their demonstrations (on other constructor seeds) replay to
//! the solver's success; the robot-arm tasks are tagged as simulated.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};

use bench::demo::play_clip;
use bench::demo::Outcome;
use bench::suites::visgym::{SUITE_ID, SUITE_VERSION};
use bench::Suite;
use envs::core::env::reset_state_json;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

/// The suite, with the bundled sets its image puzzles name on the shelf.
fn suite() -> &'static Suite {
    playbench_tests::visgym::shelve_bundled_images().unwrap();
    let s = bench::suites::latest(SUITE_ID).unwrap();
    assert_eq!(s.version, SUITE_VERSION);
    s
}

/// What identifies the sample a puzzle plays: its picture, clip or model, and for the
/// annotated scenes the category or the expression asked about.
fn sample_of(state: &serde_json::Value) -> String {
    [
        "image_name",
        "category_name",
        "description",
        "video_id",
        "object_path",
    ]
    .iter()
    .filter_map(|k| state.get(*k).map(|v| format!("{k}={v}")))
    .collect::<Vec<_>>()
    .join(" ")
}

playbench_tests::browser_tests! {
    fn every_visgym_environment_is_ten_tasks_at_both_levels() {
        let s = suite();
        let mut per_env: BTreeMap<&str, usize> = BTreeMap::new();
        for t in &s.tasks {
            *per_env.entry(t.env.as_str()).or_default() += 1;
        }
        assert_eq!(per_env.len(), 34, "{per_env:?}");
        assert!(per_env.values().all(|&n| n == 10), "{per_env:?}");
        for t in &s.tasks {
            let physics = t.tags.extra.iter().any(|e| e == "physics");
            assert_eq!(physics, envs::visgym::runs_physics(&t.env), "{}", t.id);
            assert_eq!(physics, t.tags.family.starts_with("VisGym-Fetch"), "{}", t.id);
        }
        for name in [
            "jigsaw",
            "zoom_in_puzzle",
            "colorization",
            "mental_rotation_2d",
            "counting",
            "referring_dot_pointing",
            "video_unshuffle",
            "mental_rotation_3d_objaverse",
        ] {
            let bundle = envs::visgym::images::default_bundle(name).name;
            for t in s.tasks.iter().filter(|t| t.env.starts_with(&format!("{name}/"))) {
                assert_eq!(t.kwargs["sample_dir"], bundle, "{}", t.id);
                assert_eq!(t.kwargs["seed"], t.seed, "{}", t.id);
                assert!(t.tags.extra.iter().any(|e| e == "visgym"), "{}", t.id);
            }
        }
    }

    fn the_image_puzzles_play_different_samples() {
        let s = suite();
        let mut samples: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
        for t in s.tasks.iter().filter(|t| t.kwargs.contains_key("sample_dir")) {
            let mut env = envs::make(&t.env, &t.kwargs).unwrap();
            let reset = env.reset(Some(t.seed));
            let state = reset_state_json(env.as_ref(), &reset.obs, &reset.info);
            let sample = sample_of(&state);
            assert!(!sample.is_empty(), "{}: {state}", t.id);
            samples.entry(t.env.as_str()).or_default().insert(sample);
        }
        assert_eq!(samples.len(), 16);
        for (env, seen) in &samples {
            // Measured on the bundled sets: 7 to 10 different samples per ten puzzles.
            assert!(seen.len() >= 7, "{env}: {seen:?}");
        }
    }

    fn the_image_demonstrations_replay_on_their_own_samples() {
        let s = suite();
        for t in s.tasks.iter().filter(|t| t.kwargs.contains_key("sample_dir")) {
            let expert = &t.demos[0];
            let kwargs = expert.kwargs.as_ref().unwrap();
            assert_ne!(kwargs["seed"], t.kwargs["seed"], "{}", t.id);
            assert_eq!(kwargs["sample_dir"], t.kwargs["sample_dir"], "{}", t.id);
            let play = play_clip(t, expert).unwrap();
            assert_eq!(play.outcome, Outcome::Victory, "{}", t.id);
            assert_eq!(play.frames.len(), play.captions.len());
        }
    }
}
