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
    json: &'static str,
    /// The committed random-policy and oracle reports, when there are baselines.
    baselines: Option<(&'static str, &'static str)>,
    /// Builds this version from its recipes (the latest version of each suite only).
    pub build: Option<fn() -> Result<Suite, TaskError>>,
}

/// Every built-in suite version, each suite's versions in ascending order.
pub static BUILTIN: &[BuiltinSuite] = &[
    BuiltinSuite {
        id: core::SUITE_ID,
        version: 1,
        json: include_str!("../../suites/playbench-core/v1.json"),
        baselines: Some((
            include_str!("../../suites/playbench-core/v1.baseline-random.json"),
            include_str!("../../suites/playbench-core/v1.baseline-oracle.json"),
        )),
        build: Some(core::build),
    },
    BuiltinSuite {
        id: gameverse::SUITE_ID,
        version: 1,
        json: include_str!("../../suites/gameverse/v1.json"),
        baselines: None,
        build: None,
    },
    BuiltinSuite {
        id: gameverse::SUITE_ID,
        version: 2,
        json: include_str!("../../suites/gameverse/v2.json"),
        baselines: Some((
            include_str!("../../suites/gameverse/v2.baseline-random.json"),
            include_str!("../../suites/gameverse/v2.baseline-oracle.json"),
        )),
        build: None,
    },
    BuiltinSuite {
        id: gameverse::SUITE_ID,
        version: 3,
        json: include_str!("../../suites/gameverse/v3.json"),
        baselines: Some((
            include_str!("../../suites/gameverse/v3.baseline-random.json"),
            include_str!("../../suites/gameverse/v3.baseline-oracle.json"),
        )),
        build: Some(gameverse::build),
    },
    BuiltinSuite {
        id: visgym::SUITE_ID,
        version: 1,
        json: include_str!("../../suites/visgym/v1.json"),
        baselines: Some((
            include_str!("../../suites/visgym/v1.baseline-random.json"),
            include_str!("../../suites/visgym/v1.baseline-oracle.json"),
        )),
        build: Some(visgym::build),
    },
    BuiltinSuite {
        id: vical::SUITE_ID,
        version: 1,
        json: include_str!("../../suites/vical/v1.json"),
        baselines: Some((
            include_str!("../../suites/vical/v1.baseline-random.json"),
            include_str!("../../suites/vical/v1.baseline-oracle.json"),
        )),
        build: Some(vical::build),
    },
];

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
    /// A committed file that does not parse (a broken build).
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
    cache()[index]
        .get_or_init(|| Suite::from_json(b.json))
        .as_ref()
        .map_err(|error| SuiteError::Invalid {
            id: b.id.to_string(),
            version: b.version,
            error: error.clone(),
        })
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
    match BUILTIN
        .iter()
        .position(|b| b.id == id && b.version == version)
    {
        Some(i) => parsed(i),
        None if versions(id).is_empty() => Err(SuiteError::Unknown { id: id.to_string() }),
        None => Err(SuiteError::Version {
            id: id.to_string(),
            asked: version,
            available: versions(id),
        }),
    }
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
    let b = BUILTIN
        .iter()
        .find(|b| b.id == id && b.version == version)?;
    let (random, oracle) = b.baselines?;
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
