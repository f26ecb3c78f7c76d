//! What a newcomer adding an environment must not forget: every registered id has
//! reference data under `tests/golden/` (a file whose top-level `"env"`/`"envs"` names
//! it) and a task in a built-in suite — or is listed below with the reason it has none.
//! Golden data and suite tasks for ids that are not registered fail too.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;

use playbench_tests::data_files;
use playbench_tests::reference::{covered_ids, read_json};

/// Registered ids without reference data, and why.
const NO_REFERENCE_DATA: &[(&str, &str)] = &[];

/// Why most Atari games are in no suite.
const ATARI_NOT_NAMED: &str = "the vical suite plays the nine ALE games the V-ICAL paper names \
     (its other ten are not named in its text); this one is played on /play and by the driver";

/// Registered ids in no built-in suite, and why.
const NOT_IN_A_SUITE: &[(&str, &str)] = &[
    ("ALE/Alien-v5", ATARI_NOT_NAMED),
    ("ALE/Amidar-v5", ATARI_NOT_NAMED),
    ("ALE/Boxing-v5", ATARI_NOT_NAMED),
    ("ALE/Enduro-v5", ATARI_NOT_NAMED),
    ("ALE/Kangaroo-v5", ATARI_NOT_NAMED),
    ("ALE/MontezumaRevenge-v5", ATARI_NOT_NAMED),
    ("ALE/MsPacman-v5", ATARI_NOT_NAMED),
    ("ALE/Pong-v5", ATARI_NOT_NAMED),
    ("ALE/Qbert-v5", ATARI_NOT_NAMED),
    ("ALE/Riverraid-v5", ATARI_NOT_NAMED),
    ("ALE/SpaceInvaders-v5", ATARI_NOT_NAMED),
    (
        "highway-fast-v0",
        "the vical suite plays highway-v0, the package's reference configuration; V-ICAL has one HighwayEnv task",
    ),
];

fn registered() -> BTreeSet<String> {
    envs::specs().map(|s| s.id.to_string()).collect()
}

/// A registered id or alias, as its canonical id.
fn canonical(id: &str) -> Option<String> {
    envs::spec(id).map(|s| s.id.to_string())
}

#[test]
fn every_registered_id_has_reference_data() {
    let mut covered = BTreeSet::new();
    let mut unknown = Vec::new();
    for (path, bytes) in data_files("golden/") {
        if !(path.ends_with(".json") || path.ends_with(".json.gz")) {
            continue;
        }
        let doc = read_json(path, bytes).unwrap();
        for id in covered_ids(&doc) {
            match canonical(&id) {
                Some(c) => {
                    covered.insert(c);
                }
                None => unknown.push(format!("{path} covers {id}, which is not registered")),
            }
        }
    }
    assert!(unknown.is_empty(), "{}", unknown.join("\n"));
    let exempt: BTreeSet<String> = NO_REFERENCE_DATA
        .iter()
        .map(|(i, _)| i.to_string())
        .collect();
    let missing: Vec<String> = registered()
        .into_iter()
        .filter(|id| !covered.contains(id) && !exempt.contains(id))
        .collect();
    assert!(
        missing.is_empty(),
        "no reference data under tests/golden/ for {missing:?}: add golden data generated \
         from the reference (docs/golden-data.md) or list the id in NO_REFERENCE_DATA with a \
         reason"
    );
    let stale: Vec<&str> = NO_REFERENCE_DATA
        .iter()
        .filter(|(id, _)| covered.contains(*id) || canonical(id).is_none())
        .map(|(id, _)| *id)
        .collect();
    assert!(
        stale.is_empty(),
        "NO_REFERENCE_DATA lists {stale:?} needlessly"
    );
}

#[test]
fn every_registered_id_has_a_task_in_a_built_in_suite() {
    let mut in_suites = BTreeSet::new();
    let mut unknown = Vec::new();
    for id in bench::suites::ids() {
        for t in &bench::suites::latest(id).unwrap().tasks {
            match canonical(&t.env) {
                Some(c) => {
                    in_suites.insert(c);
                }
                None => unknown.push(format!("{id}: task {} plays unregistered {}", t.id, t.env)),
            }
        }
    }
    assert!(unknown.is_empty(), "{}", unknown.join("\n"));
    let exempt: BTreeSet<&str> = NOT_IN_A_SUITE.iter().map(|(i, _)| *i).collect();
    let missing: Vec<String> = registered()
        .into_iter()
        .filter(|id| !in_suites.contains(id) && !exempt.contains(id.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "{missing:?} in no built-in suite: add a recipe (docs/adding-an-environment.md) or \
         list the id in NOT_IN_A_SUITE with a reason"
    );
}
