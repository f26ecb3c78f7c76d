//! The built-in suites, by id and version. Every version ever published stays here, so
//! episode files, links and results files made on an older version keep verifying when
//! a suite is added or a new version appears. Each suite's latest version is generated
//! by its recipes (`playbench suite --suite-id ID`); older versions are frozen files.

pub mod calibrated;
pub mod core;
pub mod gameverse;
pub mod vical;
pub mod visgym;

use std::sync::OnceLock;

use crate::report::Report;
use crate::task::{Suite, TaskError};

/// One published version of a built-in suite.
pub struct BuiltinSuite {
    pub id: &'static str,
    pub version: u32,
    /// Its committed files under `bench/suites/`, without `.json`: `vical/v1` is
    /// `vical/v1.json` and, when it has baselines, `vical/v1.baseline-random.json` and
    /// `vical/v1.baseline-oracle.json`. The app is built without them and fetches them
    /// from these paths when a page needs a suite ([`supply`]).
    pub path: &'static str,
    /// Whether the random-policy and oracle reports are committed beside it.
    pub has_baselines: bool,
    /// The files compiled in (feature `embedded-suites`: the CLI, the tests).
    #[cfg(feature = "embedded-suites")]
    embedded: Files,
    /// Builds this version from its recipes (the latest version of each suite only).
    pub build: Option<fn() -> Result<Suite, TaskError>>,
}

/// The text of a version's committed files.
#[derive(Clone, Copy, Debug)]
struct Files {
    suite: &'static str,
    /// Random, then oracle.
    baselines: Option<(&'static str, &'static str)>,
}

/// A [`BuiltinSuite`] from its id, version, path under `bench/suites/`, whether it has
/// baselines, and its recipes.
macro_rules! builtin {
    ($id:expr, $version:literal, $path:literal, baselines: $b:tt, build: $build:expr) => {
        BuiltinSuite {
            id: $id,
            version: $version,
            path: $path,
            has_baselines: $b,
            #[cfg(feature = "embedded-suites")]
            embedded: Files {
                suite: include_str!(concat!("../../suites/", $path, ".json")),
                baselines: builtin!(@baselines $b, $path),
            },
            build: $build,
        }
    };
    (@baselines true, $path:literal) => {
        Some((
            include_str!(concat!("../../suites/", $path, ".baseline-random.json")),
            include_str!(concat!("../../suites/", $path, ".baseline-oracle.json")),
        ))
    };
    (@baselines false, $path:literal) => {
        None
    };
}

/// Every built-in suite version, each suite's versions in ascending order.
pub static BUILTIN: &[BuiltinSuite] = &[
    builtin!(core::SUITE_ID, 1, "playbench-core/v1", baselines: true, build: Some(core::build)),
    builtin!(gameverse::SUITE_ID, 1, "gameverse/v1", baselines: false, build: None),
    builtin!(gameverse::SUITE_ID, 2, "gameverse/v2", baselines: true, build: None),
    builtin!(gameverse::SUITE_ID, 3, "gameverse/v3", baselines: true, build: Some(gameverse::build)),
    builtin!(visgym::SUITE_ID, 1, "visgym/v1", baselines: true, build: None),
    builtin!(visgym::SUITE_ID, 2, "visgym/v2", baselines: true, build: None),
    builtin!(visgym::SUITE_ID, 3, "visgym/v3", baselines: true, build: Some(visgym::build)),
    builtin!(vical::SUITE_ID, 1, "vical/v1", baselines: true, build: None),
    builtin!(vical::SUITE_ID, 2, "vical/v2", baselines: true, build: Some(vical::build)),
];

/// The files [`supply`] put in place, by index into [`BUILTIN`].
fn supplied() -> &'static [OnceLock<Files>] {
    static SUPPLIED: OnceLock<Vec<OnceLock<Files>>> = OnceLock::new();
    SUPPLIED.get_or_init(|| BUILTIN.iter().map(|_| OnceLock::new()).collect())
}

/// The files of `BUILTIN[index]`, when compiled in or supplied.
fn files(index: usize) -> Option<Files> {
    #[cfg(feature = "embedded-suites")]
    {
        Some(BUILTIN[index].embedded)
    }
    #[cfg(not(feature = "embedded-suites"))]
    {
        supplied()[index].get().copied()
    }
}

/// The files of one version, as fetched: the suite and, when it has them, the random
/// and oracle baselines.
pub struct SuppliedFiles {
    pub suite: String,
    pub baselines: Option<(String, String)>,
}

/// Puts the committed files of `id` version `version` in place, for a build without
/// them compiled in (the app fetches them, `app/src/browser/suite_files.rs`). The suite
/// must parse, say it is that version, and come with baselines exactly when the entry
/// has them; the first supply of a version stays (the files are frozen per version).
pub fn supply(id: &str, version: u32, files: SuppliedFiles) -> Result<(), SuiteError> {
    let index = index_of(id, version)?;
    let invalid = |error: TaskError| SuiteError::Invalid {
        id: id.to_string(),
        version,
        error,
    };
    let suite = Suite::from_json(&files.suite).map_err(invalid)?;
    if (suite.id.as_str(), suite.version) != (id, version) {
        return Err(invalid(TaskError {
            field: "id".into(),
            message: format!(
                "the file holds {} v{}, not {id} v{version}",
                suite.id, suite.version
            ),
        }));
    }
    if files.baselines.is_some() != BUILTIN[index].has_baselines {
        let message = if BUILTIN[index].has_baselines {
            "this version's baselines are missing"
        } else {
            "this version has no baselines"
        };
        return Err(invalid(TaskError {
            field: "baselines".into(),
            message: message.into(),
        }));
    }
    // Texts live as long as the page: leaked once per version, like the compiled-in
    // files they stand in for.
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let text = Files {
        suite: leak(files.suite),
        baselines: files.baselines.map(|(r, o)| (leak(r), leak(o))),
    };
    if supplied()[index].set(text).is_ok() {
        // Parsed once already: keep it, so `get` does not parse again.
        let _ = cache()[index].set(Ok(suite));
    }
    Ok(())
}

/// The built-in versions whose files are neither compiled in nor supplied yet (all of
/// them in the app until it has fetched them; none in the CLI and the tests).
pub fn missing() -> Vec<&'static BuiltinSuite> {
    (0..BUILTIN.len())
        .filter(|&i| files(i).is_none())
        .map(|i| &BUILTIN[i])
        .collect()
}

/// The suite new runs use when none is named.
pub const DEFAULT_SUITE: &str = core::SUITE_ID;

/// Why a suite could not be had.
#[derive(Clone, Debug, PartialEq)]
pub enum SuiteError {
    Unknown {
        id: String,
    },
    Version {
        id: String,
        asked: u32,
        available: Vec<u32>,
    },
    /// The version's files are not compiled in and have not been fetched yet.
    NotLoaded {
        id: String,
        version: u32,
    },
    /// A committed file that does not parse (a broken build, or a fetched file that is
    /// not what it should be).
    Invalid {
        id: String,
        version: u32,
        error: TaskError,
    },
}

impl std::fmt::Display for SuiteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Unknown { id } => {
                write!(f, "unknown suite {id:?} (built in: {})", ids().join(", "))
            }
            Self::Version {
                id,
                asked,
                available,
            } => {
                let list: Vec<String> = available.iter().map(u32::to_string).collect();
                write!(
                    f,
                    "{id} has no version {asked} in this build (versions: {})",
                    list.join(", ")
                )
            }
            Self::NotLoaded { id, version } => {
                write!(f, "the suite {id} v{version} has not been loaded yet")
            }
            Self::Invalid { id, version, error } => {
                write!(f, "the built-in suite {id} v{version} is invalid: {error}")
            }
        }
    }
}

impl std::error::Error for SuiteError {}

/// The suite ids, in display order.
pub fn ids() -> Vec<&'static str> {
    let mut out: Vec<&str> = Vec::new();
    for s in BUILTIN {
        if !out.contains(&s.id) {
            out.push(s.id);
        }
    }
    out
}

fn cache() -> &'static [OnceLock<Result<Suite, TaskError>>] {
    static CACHE: OnceLock<Vec<OnceLock<Result<Suite, TaskError>>>> = OnceLock::new();
    CACHE.get_or_init(|| BUILTIN.iter().map(|_| OnceLock::new()).collect())
}

fn parsed(index: usize) -> Result<&'static Suite, SuiteError> {
    let b = &BUILTIN[index];
    let files = files(index).ok_or_else(|| SuiteError::NotLoaded {
        id: b.id.to_string(),
        version: b.version,
    })?;
    cache()[index]
        .get_or_init(|| Suite::from_json(files.suite))
        .as_ref()
        .map_err(|error| SuiteError::Invalid {
            id: b.id.to_string(),
            version: b.version,
            error: error.clone(),
        })
}

/// The index in [`BUILTIN`] of `id` version `version`.
fn index_of(id: &str, version: u32) -> Result<usize, SuiteError> {
    match BUILTIN
        .iter()
        .position(|b| b.id == id && b.version == version)
    {
        Some(i) => Ok(i),
        None if versions(id).is_empty() => Err(SuiteError::Unknown { id: id.to_string() }),
        None => Err(SuiteError::Version {
            id: id.to_string(),
            asked: version,
            available: versions(id),
        }),
    }
}

/// The versions of `id` in this build, ascending.
pub fn versions(id: &str) -> Vec<u32> {
    BUILTIN
        .iter()
        .filter(|b| b.id == id)
        .map(|b| b.version)
        .collect()
}

/// Version `version` of suite `id`.
pub fn get(id: &str, version: u32) -> Result<&'static Suite, SuiteError> {
    parsed(index_of(id, version)?)
}

/// The newest version of suite `id`.
pub fn latest(id: &str) -> Result<&'static Suite, SuiteError> {
    let version = versions(id)
        .into_iter()
        .max()
        .ok_or_else(|| SuiteError::Unknown { id: id.to_string() })?;
    get(id, version)
}

/// The built-in entry of the newest version of `id`.
pub fn latest_entry(id: &str) -> Option<&'static BuiltinSuite> {
    BUILTIN
        .iter()
        .filter(|b| b.id == id)
        .max_by_key(|b| b.version)
}

/// The committed random and oracle reports of a suite version, when it has them.
pub fn baselines(id: &str, version: u32) -> Option<Result<(Report, Report), String>> {
    let index = index_of(id, version).ok()?;
    if !BUILTIN[index].has_baselines {
        return None;
    }
    let Some((random, oracle)) = files(index).and_then(|f| f.baselines) else {
        return Some(Err(format!(
            "the baselines of {id} v{version} have not been loaded yet"
        )));
    };
    let parse = |text: &str, which: &str| {
        serde_json::from_str::<Report>(text)
            .map_err(|e| format!("the committed {which} baseline of {id} v{version}: {e}"))
    };
    Some(parse(random, "random").and_then(|r| Ok((r, parse(oracle, "oracle")?))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_version_parses_and_says_who_it_is() {
        assert!(!BUILTIN.is_empty());
        for b in BUILTIN {
            let s = get(b.id, b.version).unwrap();
            assert_eq!((s.id.as_str(), s.version), (b.id, b.version));
            if let Some(r) = baselines(b.id, b.version) {
                r.unwrap();
            }
        }
        for id in ids() {
            let newest = latest_entry(id).unwrap();
            assert!(
                newest.build.is_some(),
                "{id}: the latest version has no recipes"
            );
            let v = versions(id);
            assert!(v.windows(2).all(|w| w[0] < w[1]), "{id}: {v:?}");
        }
    }

    fn committed_files(b: &BuiltinSuite) -> SuppliedFiles {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/suites/");
        let read = |suffix: &str| {
            std::fs::read_to_string(format!("{dir}{}{suffix}", b.path)).expect("committed file")
        };
        SuppliedFiles {
            suite: read(".json"),
            baselines: b
                .has_baselines
                .then(|| (read(".baseline-random.json"), read(".baseline-oracle.json"))),
        }
    }

    #[test]
    fn every_path_names_the_committed_files_and_supply_checks_them() {
        assert!(missing().is_empty(), "compiled in, nothing is missing");
        for b in BUILTIN {
            // The paths the app fetches hold what is compiled in.
            let files = committed_files(b);
            assert_eq!(files.suite, b.embedded.suite, "{}", b.path);
            assert_eq!(
                files
                    .baselines
                    .as_ref()
                    .map(|(r, o)| (r.as_str(), o.as_str())),
                b.embedded.baselines,
                "{}",
                b.path
            );
            supply(b.id, b.version, files).unwrap();
        }
        let core = &BUILTIN[0];
        let other = BUILTIN.iter().find(|b| b.id != core.id).unwrap();
        // A file under the wrong name, baselines missing or extra, unknown versions.
        let e = supply(core.id, core.version, committed_files(other)).unwrap_err();
        assert!(
            matches!(&e, SuiteError::Invalid { error, .. } if error.field == "id"),
            "{e}"
        );
        assert!(e
            .to_string()
            .contains(&format!("not {} v{}", core.id, core.version)));
        let mut bare = committed_files(core);
        bare.baselines = None;
        let e = supply(core.id, core.version, bare).unwrap_err().to_string();
        assert!(e.contains("baselines are missing"), "{e}");
        let no_baselines = BUILTIN.iter().find(|b| !b.has_baselines).unwrap();
        let mut extra = committed_files(no_baselines);
        extra.baselines = Some(("{}".into(), "{}".into()));
        let e = supply(no_baselines.id, no_baselines.version, extra).unwrap_err();
        assert!(e.to_string().contains("has no baselines"), "{e}");
        let e = supply(core.id, 999, committed_files(core)).unwrap_err();
        assert!(matches!(e, SuiteError::Version { asked: 999, .. }), "{e}");
        let mut broken = committed_files(core);
        broken.suite.truncate(100);
        assert!(matches!(
            supply(core.id, core.version, broken),
            Err(SuiteError::Invalid { .. })
        ));
        assert_eq!(
            SuiteError::NotLoaded {
                id: "vical".into(),
                version: 1
            }
            .to_string(),
            "the suite vical v1 has not been loaded yet"
        );
    }

    #[test]
    fn unknown_suites_and_versions_are_named() {
        let e = get("nope", 1).unwrap_err().to_string();
        assert!(
            e.contains("unknown suite \"nope\"") && e.contains(DEFAULT_SUITE),
            "{e}"
        );
        let e = get(DEFAULT_SUITE, 999).unwrap_err().to_string();
        assert!(
            e.contains("no version 999") && e.contains("versions: 1"),
            "{e}"
        );
        assert_eq!(latest(DEFAULT_SUITE).unwrap().id, DEFAULT_SUITE);
    }
}
