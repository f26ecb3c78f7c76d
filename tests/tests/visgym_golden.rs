//! VisGym: the Python-literal machinery and every synthetic environment replay the
//! reference through `envs::make` and the environment interface, natively and,
//! compiled to wasm, in headless Chromium.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use playbench_tests::visgym::{check_lanczos_golden, check_literal_golden, check_reply_golden};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

playbench_tests::browser_tests! {
    fn literal_eval_matches_cpython() {
        let (failures, n) = check_literal_golden().unwrap();
        assert!(n > 500, "only {n} cases");
        assert!(
            failures.is_empty(),
            "{} of {n} differ:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }

    fn reply_parser_matches_the_harness() {
        let (failures, n) = check_reply_golden().unwrap();
        assert!(n > 500, "only {n} cases");
        assert!(
            failures.is_empty(),
            "{} of {n} differ:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }

    fn frames_shrink_as_pillow_shrinks_them() {
        let (failures, n) = check_lanczos_golden().unwrap();
        assert!(n >= 12, "only {n} cases");
        assert!(
            failures.is_empty(),
            "{} of {n} differ:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
}

/// An environment golden file by name.
fn golden(name: &str) -> &'static [u8] {
    playbench_tests::visgym::ENV_GOLDEN
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, gz)| *gz)
        .unwrap_or_else(|| panic!("no golden file {name}"))
}

fn assert_covered(name: &str, cov: &playbench_tests::visgym::EnvCoverage) {
    eprintln!("{name}: {cov:?}");
    assert!(cov.steps > 400 && cov.resets >= 20, "{name}: {cov:?}");
    assert!(cov.terminations > 10 && cov.solves >= 30, "{name}: {cov:?}");
}

#[cfg(not(target_arch = "wasm32"))]
fn replay(name: &str, tol: f64) {
    let mut player = playbench_tests::visgym::EnvPlayer::default();
    match playbench_tests::visgym::check_env_golden(&mut player, golden(name), tol) {
        Ok(cov) => assert_covered(name, &cov),
        Err(e) => panic!("{e}"),
    }
}

/// As natively, handing the browser its main thread back between constructor instances.
#[cfg(target_arch = "wasm32")]
async fn replay(name: &str, tol: f64) {
    let mut player = playbench_tests::visgym::EnvPlayer::default();
    let mut check = playbench_tests::visgym::EnvGoldenCheck::new(golden(name), tol).unwrap();
    loop {
        playbench_tests::browser::yield_to_browser().await;
        match check.next_instance(&mut player) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => panic!("{e}"),
        }
    }
    assert_covered(name, &check.coverage);
}

macro_rules! env_tests {
    ($($fn_name:ident => $name:literal, $tol:expr),* $(,)?) => {
        $(
            #[cfg(not(target_arch = "wasm32"))]
            #[test]
            fn $fn_name() {
                replay($name, $tol);
            }

            #[cfg(target_arch = "wasm32")]
            #[wasm_bindgen_test::wasm_bindgen_test]
            async fn $fn_name() {
                replay($name, $tol).await;
            }
        )*
    };
}

env_tests! {
    matchstick_equation_easy => "matchstick_equation_easy", 0.0,
    matchstick_equation_hard => "matchstick_equation_hard", 0.0,
    maze_2d_easy => "maze_2d_easy", 0.0,
    maze_2d_hard => "maze_2d_hard", 0.0,
    maze_3d_easy => "maze_3d_easy", 0.0,
    maze_3d_hard => "maze_3d_hard", 0.0,
    sliding_block_easy => "sliding_block_easy", 0.0,
    sliding_block_hard => "sliding_block_hard", 0.0,
    patch_reassembly_easy => "patch_reassembly_easy", 0.0,
    patch_reassembly_hard => "patch_reassembly_hard", 0.0,
    matchstick_rotation_easy => "matchstick_rotation_easy", 1e-9,
    matchstick_rotation_hard => "matchstick_rotation_hard", 1e-9,
    mental_rotation_3d_cube_easy => "mental_rotation_3d_cube_easy", 1e-9,
    mental_rotation_3d_cube_hard => "mental_rotation_3d_cube_hard", 1e-9,
    jigsaw_easy => "jigsaw_easy", 0.0,
    jigsaw_hard => "jigsaw_hard", 0.0,
    colorization_easy => "colorization_easy", 0.0,
    colorization_hard => "colorization_hard", 0.0,
    mental_rotation_2d_easy => "mental_rotation_2d_easy", 0.0,
    mental_rotation_2d_hard => "mental_rotation_2d_hard", 0.0,
    zoom_in_puzzle_easy => "zoom_in_puzzle_easy", 1e-9,
    zoom_in_puzzle_hard => "zoom_in_puzzle_hard", 1e-9,
    counting_easy => "counting_easy", 1e-9,
    counting_hard => "counting_hard", 1e-9,
    referring_dot_pointing_easy => "referring_dot_pointing_easy", 0.0,
    referring_dot_pointing_hard => "referring_dot_pointing_hard", 0.0,
    video_unshuffle_easy => "video_unshuffle_easy", 0.0,
    video_unshuffle_hard => "video_unshuffle_hard", 0.0,
    mental_rotation_3d_objaverse_easy => "mental_rotation_3d_objaverse_easy", 1e-9,
    mental_rotation_3d_objaverse_hard => "mental_rotation_3d_objaverse_hard", 1e-9,
}

playbench_tests::browser_tests! {
    fn models_are_drawn_close_to_pyrenders_frames() {
        for name in [
            "mental_rotation_3d_objaverse_easy",
            "mental_rotation_3d_objaverse_hard",
        ] {
            let gz = golden(name);
            let (close, shape, n) = playbench_tests::visgym::check_objaverse_frames(gz).unwrap();
            eprintln!("{name}: {n} frames, >= {close:.4} of pixels within 8 levels, silhouettes agree on >= {shape:.4}");
            assert!(n >= 3, "{name}: {n} frames");
            assert!(close >= 0.95 && shape >= 0.985, "{name}: {close} {shape}");
        }
    }

    fn models_are_centred_and_framed_as_trimesh_frames_them() {
        for name in [
            "mental_rotation_3d_objaverse_easy",
            "mental_rotation_3d_objaverse_hard",
        ] {
            let gz = golden(name);
            match playbench_tests::visgym::check_objaverse_views(gz) {
                Ok(n) => assert!(n > 300, "{name}: {n} cameras"),
                Err(e) => panic!("{name}: {e}"),
            }
        }
    }

    fn samples_are_played_in_the_reference_order_until_they_run_out() {
        for name in [
            "counting_easy",
            "counting_hard",
            "referring_dot_pointing_easy",
            "referring_dot_pointing_hard",
            "mental_rotation_3d_objaverse_easy",
            "mental_rotation_3d_objaverse_hard",
        ] {
            let gz = golden(name);
            let n = playbench_tests::visgym::check_sample_orders(gz).unwrap();
            assert!(n >= 3 * 25, "{name}: {n} resets");
        }
    }

    fn image_sets_are_listed_and_ordered_as_the_reference_lists_them() {
        let n = playbench_tests::visgym::check_image_listing_golden().unwrap();
        assert_eq!(n, 24, "four environments, six seeds each");
    }

    fn the_harness_conversation_matches_the_reference() {
        let n = playbench_tests::visgym::check_conversation_golden().unwrap();
        assert!(n > 60, "only {n} requests");
    }

    fn jpeg_pictures_decode_within_a_few_levels_of_pillow_and_opencv() {
        // Measured: docs/visgym.md, "Image sets".
        const BOUND: u8 = 6;
        let (pil, cv) = playbench_tests::visgym::check_jpeg_golden().unwrap();
        eprintln!("against Pillow: {pil:?}\nagainst OpenCV: {cv:?}");
        assert_eq!(pil.pictures, 12);
        for d in [pil, cv] {
            assert!(d.max <= BOUND, "{d:?}");
        }
    }
}
