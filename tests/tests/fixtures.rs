//! Files and links made by earlier builds must keep opening and verifying: every
//! episode file, share link and results file under `tests/fixtures/` (made by the build
//! that published each suite version, see `tests/fixtures/README.md`) re-simulates to
//! the pass and score it claims, natively and as wasm in headless Chromium.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use bench::results::ResultsFile;
use bench::share::{verify, EpisodeFile, Verification};
use playbench_tests::data_files;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap()
}

fn verified(name: &str, file: &EpisodeFile) {
    match verify(file) {
        Ok(Verification::Verified { passed, score }) => {
            assert_eq!(
                (passed, score),
                (file.record.passed, file.record.score),
                "{name}"
            );
        }
        other => panic!("{name}: {other:?}"),
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn episode_files_and_links_of_earlier_builds_verify() {
    let (mut files, mut links) = (0, 0);
    for (name, bytes) in data_files("fixtures/") {
        if name.ends_with(".episode.json") {
            verified(name, &EpisodeFile::from_json(text(bytes)).unwrap());
            files += 1;
        } else if name.ends_with(".link.txt") {
            let file = EpisodeFile::from_link_fragment(text(bytes).trim()).unwrap();
            verified(name, &file);
            links += 1;
        }
    }
    assert!(files >= 30 && links >= 10, "{files} files, {links} links");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn results_files_of_earlier_builds_open_and_every_episode_verifies() {
    let mut count = 0;
    for (name, bytes) in data_files("fixtures/") {
        if !name.ends_with(".results.json") {
            continue;
        }
        let results = ResultsFile::from_json(text(bytes)).unwrap_or_else(|e| panic!("{name}: {e}"));
        for i in 0..results.episodes.len() {
            verified(name, &results.episode_file(i).unwrap());
        }
        count += 1;
    }
    assert!(count >= 5, "{count} results files");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn a_doctored_fixture_is_caught() {
    let (name, bytes) = data_files("fixtures/v1/")
        .find(|(n, _)| n.ends_with("taxi-s1.oracle.episode.json"))
        .unwrap();
    let doctored = text(bytes).replacen("\"reward\": -1.0", "\"reward\": -2.0", 1);
    assert_ne!(doctored, text(bytes), "{name}");
    let file = EpisodeFile::from_json(&doctored).unwrap();
    assert!(matches!(verify(&file), Ok(Verification::Diverged(_))));
}
