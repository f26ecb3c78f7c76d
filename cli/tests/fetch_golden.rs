//! VisGym's Fetch tasks on the command line's physics host (MuJoCo's WebAssembly module
//! under Node) against the reference's golden files (`tests/golden/visgym/fetch_*`).

use std::path::Path;

use playbench_cli::mujoco_node::{ensure_installed, module_dir};
use playbench_tests::fetch::check_fetch_golden;

fn host() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    ensure_installed(&module_dir(&root)).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn fetch_reach_replays_the_reference() {
    host();
    let cov = check_fetch_golden(include_bytes!(
        "../../tests/golden/visgym/fetch_reach.json.gz"
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(cov.episodes >= 6 && cov.plans >= 5, "{cov:?}");
    eprintln!("{cov:?}");
}

#[test]
fn fetch_pick_and_place_replays_the_reference() {
    host();
    let cov = check_fetch_golden(include_bytes!(
        "../../tests/golden/visgym/fetch_pick_and_place.json.gz"
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(cov.episodes >= 5 && cov.plans >= 4, "{cov:?}");
    eprintln!("{cov:?}");
}

#[test]
fn every_fetch_id_passes_the_checker() {
    host();
    for spec in envs::visgym::FAMILY.specs {
        if envs::visgym::runs_physics(spec.id) {
            let problems = envs::core::check::check_env(spec.id, &Default::default());
            assert!(problems.is_empty(), "{}: {}", spec.id, problems.join("; "));
        }
    }
}
