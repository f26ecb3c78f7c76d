//! Every key the app keeps in the browser's storage, with the format version of what it
//! holds. Nothing else spells a key (a test reads the sources to make sure).
//!
//! A format version names the shape of the value. When a shape changes, bump its
//! version here and make the reader either read the old shape too or say that it
//! discarded it; keys themselves never change (a renamed key silently loses what
//! people saved). Values are text: JSON unless `holds` says otherwise.

/// One key, or one family of keys sharing a prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StorageKey {
    /// The key, or for a family the prefix its keys start with.
    pub key: &'static str,
    /// The version of the value's format.
    pub format: u32,
    /// Whether `key` is a prefix (the entries add an id after it).
    pub family: bool,
    /// What the value is.
    pub holds: &'static str,
}

/// The endpoint profiles, without keys (`runner::profiles::Profiles`).
pub const ENDPOINT_PROFILES: StorageKey = StorageKey {
    key: "playbench.endpoint-profiles",
    format: 1,
    family: false,
    holds: "endpoint profiles as JSON {list, selected}; never an API key",
};

/// The API keys of the profiles that say "remember on this device".
pub const ENDPOINT_KEYS: StorageKey = StorageKey {
    key: "playbench.endpoint-keys",
    format: 1,
    family: false,
    holds: "remembered API keys as a JSON object, profile name to key",
};

/// The run settings last used (`runner::settings::RunSettings`).
pub const RUN_SETTINGS: StorageKey = StorageKey {
    key: "playbench.run-settings",
    format: 1,
    family: false,
    holds: "model run settings as JSON (protocol controls, image encoding, video)",
};

/// The current suite run's plan and state (`runner::suite_run::StoredRun`).
pub const SUITE_RUN: StorageKey = StorageKey {
    key: "playbench.suite-run",
    format: 1,
    family: false,
    holds: "the suite run as JSON {plan, state, key_needed}",
};

/// Each finished episode of a suite run: `playbench.suite-run.<run id>.<job>`.
pub const SUITE_RUN_EPISODE: StorageKey = StorageKey {
    key: "playbench.suite-run.",
    format: 1,
    family: true,
    holds: "one finished episode of the run as a results-file episode (JSON); under \
            `<run>.unfinished`, the usage of episodes that did not finish",
};

/// The results files imported on `/compare` (`compare::imports::Imports`).
pub const COMPARE_FILES: StorageKey = StorageKey {
    key: "playbench.compare.files",
    format: 1,
    family: false,
    holds: "imported results files and runs of attempts as a JSON list of {name, json} \
            (json: the file's text, or an attempts link)",
};

/// The study builder's draft (`study::draft::StudyDraft`).
pub const STUDY_DRAFT: StorageKey = StorageKey {
    key: "playbench.study.builder",
    format: 1,
    family: false,
    holds: "the study being built, as JSON",
};

/// Per study (its id percent-encoded): `playbench.study.<study>.current` holds the code
/// of the participant last active (plain text); `…participant.<code>` their progress
/// (JSON, `study::participation::Participation`); `…participant.<code>.sent` is `1`
/// once their results reached the collection URL.
pub const STUDY: StorageKey = StorageKey {
    key: "playbench.study.",
    format: 1,
    family: true,
    holds: "a participant's progress in a study (see the keys' builders)",
};

/// The stored-episode contract (`replay::source`): `playbench.episode.<KEY>` holds an
/// episode file's JSON for `/episode?stored=KEY` and `/task/play?fork=T&stored=KEY`.
pub const STORED_EPISODE: StorageKey = StorageKey {
    key: "playbench.episode.",
    format: 1,
    family: true,
    holds: "an episode file (playbench-episode-file/1) too large for a link",
};

/// The Atari ROMs people supplied (`rom_shelf`), kept on this device only.
pub const ATARI_ROMS: StorageKey = StorageKey {
    key: "playbench.atari-roms",
    format: 1,
    family: false,
    holds: "supported ROM images as a JSON object, MD5 (lower-case hex) to the bytes in \
            base64url without padding",
};

/// The audit on `/audit`: the results file and the audit so far (`auditor::stored`).
pub const AUDIT: StorageKey = StorageKey {
    key: "playbench.audit",
    format: 1,
    family: false,
    holds: "the audit in progress as JSON {results_name, results, audit}: the results \
            file's JSON and the audit file (playbench-audit/1) so far",
};

/// The run on `/reflect`: its task and the run of attempts so far
/// (`reflector::stored`).
pub const REFLECT: StorageKey = StorageKey {
    key: "playbench.reflect",
    format: 1,
    family: false,
    holds: "the last reflect-and-retry run as JSON {suite, task, finished, run}: the run \
            of attempts (playbench-attempts/1) so far",
};

/// The judging on `/judge`: what is judged and the judge file so far
/// (`judging::stored`).
pub const JUDGE: StorageKey = StorageKey {
    key: "playbench.judge",
    format: 1,
    family: false,
    holds: "the milestone judging in progress as JSON {results, episodes, max_images, \
            judge}: the chosen results file or episode files (name and JSON) and the judge \
            file (playbench-judge/1) so far",
};

/// Every key and family, for the tests and the docs.
pub const ALL: [StorageKey; 13] = [
    ENDPOINT_PROFILES,
    ENDPOINT_KEYS,
    RUN_SETTINGS,
    SUITE_RUN,
    SUITE_RUN_EPISODE,
    COMPARE_FILES,
    STUDY_DRAFT,
    STUDY,
    STORED_EPISODE,
    ATARI_ROMS,
    AUDIT,
    REFLECT,
    JUDGE,
];

/// Where finished episode `job` of suite run `run_id` is kept.
pub fn suite_run_episode(run_id: &str, job: usize) -> String {
    format!("{}{run_id}.{job}", SUITE_RUN_EPISODE.key)
}

/// The prefix of every episode of suite run `run_id`.
pub fn suite_run_episodes(run_id: &str) -> String {
    format!("{}{run_id}.", SUITE_RUN_EPISODE.key)
}

/// Where the usage of suite run `run_id`'s unfinished episodes is kept
/// (`runner::unfinished::Unfinished`).
pub fn suite_run_unfinished(run_id: &str) -> String {
    format!("{}unfinished", suite_run_episodes(run_id))
}

/// The job of a key made by [`suite_run_episode`] for `run_id`.
pub fn suite_run_job(run_id: &str, key: &str) -> Option<usize> {
    key.strip_prefix(&suite_run_episodes(run_id))?.parse().ok()
}

/// Where a participant's progress in a study is kept (both parts percent-encoded).
pub fn study_progress(study_id: &str, participant: &str) -> String {
    format!(
        "{}{}.participant.{}",
        STUDY.key,
        crate::url::encode_component(study_id),
        crate::url::encode_component(participant)
    )
}

/// Set once a participant's results reached the collection URL.
pub fn study_sent(study_id: &str, participant: &str) -> String {
    format!("{}.sent", study_progress(study_id, participant))
}

/// The code of the participant last active in a study.
pub fn study_current(study_id: &str) -> String {
    format!(
        "{}{}.current",
        STUDY.key,
        crate::url::encode_component(study_id)
    )
}

/// The entry of the stored-episode contract for `key`.
pub fn stored_episode(key: &str) -> String {
    format!("{}{key}", STORED_EPISODE.key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_no_family_key_is_a_single_key() {
        for (i, a) in ALL.iter().enumerate() {
            assert!(a.key.starts_with("playbench."), "{}", a.key);
            assert!(a.format >= 1 && !a.holds.is_empty(), "{}", a.key);
            assert_eq!(a.family, a.key.ends_with('.'), "{}", a.key);
            for b in &ALL[i + 1..] {
                assert_ne!(a.key, b.key);
            }
        }
        // The study draft sits beside the study family: no study's keys can be it.
        let suffix = STUDY_DRAFT.key.trim_start_matches(STUDY.key);
        for made in [
            study_current(suffix),
            study_progress(suffix, ""),
            study_sent(suffix, ""),
        ] {
            assert!(ALL.iter().all(|k| k.family || k.key != made), "{made}");
        }
    }

    #[test]
    fn builders_make_the_keys_earlier_builds_used() {
        assert_eq!(suite_run_episode("r1", 3), "playbench.suite-run.r1.3");
        assert_eq!(suite_run_job("r1", "playbench.suite-run.r1.3"), Some(3));
        assert_eq!(suite_run_job("r1", "playbench.suite-run.r2.3"), None);
        assert_eq!(suite_run_job("r1", "playbench.suite-run.r1.x"), None);
        assert_eq!(
            study_progress("pilot-1", "P 7"),
            "playbench.study.pilot-1.participant.P%207"
        );
        assert_eq!(study_sent("s", "p"), "playbench.study.s.participant.p.sent");
        assert_eq!(study_current("pilot"), "playbench.study.pilot.current");
        assert_eq!(stored_episode("abc"), "playbench.episode.abc");
    }

    /// Source files under `dir`, recursively.
    fn sources(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    #[test]
    fn no_other_file_spells_a_storage_key() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&root, &mut files);
        assert!(files.len() > 20, "found only {} sources", files.len());
        let mut offenders = Vec::new();
        for f in files {
            if f.ends_with("storage_keys.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&f).unwrap();
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                if code.contains("\"playbench.") {
                    offenders.push(format!("{}:{}: {}", f.display(), n + 1, line.trim()));
                }
            }
        }
        assert!(
            offenders.is_empty(),
            "storage keys belong in storage_keys.rs:\n{}",
            offenders.join("\n")
        );
    }
}
