//! The results files the comparison's end-to-end test imports
//! (`tests/fixtures/compare/*.json`): the oracle and a seeded random agent on the
//! FrozenLake and CliffWalking tasks. The test below fails when they are out of date;
//! regenerate them with
//! `PLAYBENCH_WRITE_FIXTURES=1 cargo test -p playbench-app compare::fixtures`.

use bench::agents::{OracleAgent, RandomAgent};
use bench::results::{ResultEpisode, ResultsFile, ResultsKind};
use bench::{run_episode, Agent, Suite};

const FAMILIES: [&str; 2] = ["frozenlake", "cliffwalking"];

fn fixture(suite: &Suite, label: &str, agent: &mut dyn Agent) -> ResultsFile {
    let episodes = suite
        .tasks
        .iter()
        .filter(|t| FAMILIES.iter().any(|f| t.id.starts_with(f)))
        .map(|t| ResultEpisode {
            record: run_episode(t, agent).expect("the built-in tasks run"),
            repeat: 0,
            usage: None,
        })
        .collect();
    let name = agent.name();
    ResultsFile::new(label, ResultsKind::Baseline, &name, suite, None, episodes)
}

#[test]
fn committed_fixtures_are_current() {
    let suite = crate::suite_data::suite().unwrap();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/compare");
    let files = [
        (
            "oracle.results.json",
            fixture(suite, "Oracle (fixture)", &mut OracleAgent::new()),
        ),
        (
            "random-seed7.results.json",
            fixture(
                suite,
                "Random agent, seed 7 (fixture)",
                &mut RandomAgent::new(7),
            ),
        ),
    ];
    for (name, file) in files {
        let path = dir.join(name);
        if std::env::var_os("PLAYBENCH_WRITE_FIXTURES").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, file.to_json()).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == file.to_json(),
            "{name} is out of date: PLAYBENCH_WRITE_FIXTURES=1 cargo test -p playbench-app compare::fixtures"
        );
    }
}
