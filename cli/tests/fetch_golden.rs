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

/// The reference returns early, without `env_feedback` in `info`, after an action that
/// does not parse or is not a pair: VisGym's harness then sends no feedback line, and
/// neither does ours. Any other action's feedback is sent.
#[test]
fn feedback_is_sent_only_when_the_reference_puts_it_in_info() {
    use envs::core::action::Action;
    host();
    let mut env = envs::make("fetch_reach/easy", &Default::default()).unwrap();
    env.reset(Some(0));
    let feedback = |env: &dyn envs::Env| env.reply_fields()["feedback"].clone();
    for (action, sent) in [
        ("not an action", false),
        ("('move')", false),
        ("('jump', [0, 0, 1])", true),
        ("('move', [0, 0, 1])", true),
        ("('move', [0, 0, 2])", true),
    ] {
        env.step(Action::Text(action.into())).unwrap();
        let f = feedback(env.as_ref());
        assert_eq!(f.is_string(), sent, "{action}: {f}");
    }
    env.reset(Some(0));
    assert!(feedback(env.as_ref()).is_null(), "none after a reset");
}
