//! Ids → constructors, with the kwargs and time limits `gym.make` applies. The families
//! are named once, in `envs/src/lib.rs` (`families!`); each lists its own ids in its
//! folder.

use serde_json::{Map, Value};

use crate::core::env::Env;
use crate::core::error::EnvError;
use crate::core::kwargs::Kwargs;
pub use crate::core::spec::{EnvSpec, Family};

/// Every family, in display order.
pub static FAMILIES: &[&Family] = crate::FAMILY_LIST;

/// Every registered environment, in display order.
pub fn specs() -> impl Iterator<Item = &'static EnvSpec> {
    FAMILIES.iter().flat_map(|f| f.specs.iter())
}

/// The spec for an id or one of its aliases.
pub fn spec(id: &str) -> Option<&'static EnvSpec> {
    specs().find(|s| s.id == id || s.aliases.contains(&id))
}

/// The family with this id.
pub fn family(id: &str) -> Option<&'static Family> {
    FAMILIES.iter().copied().find(|f| f.id == id)
}

/// `gym.make(id, **kwargs)`.
pub fn make(id: &str, kwargs: &Map<String, Value>) -> Result<Box<dyn Env>, EnvError> {
    let spec = spec(id).ok_or_else(|| EnvError::UnknownEnv(id.to_string()))?;
    let mut kw = Kwargs::new(spec.id, kwargs.clone());
    let env = (spec.make)(spec, &mut kw)?;
    kw.finish()?;
    Ok(env)
}

/// `make` with no kwargs.
pub fn make_default(id: &str) -> Result<Box<dyn Env>, EnvError> {
    make(id, &Map::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kwargs(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn aliases_make_the_same_env() {
        assert_eq!(make_default("Taxi-v4").unwrap().id(), "Taxi-v3");
        assert_eq!(
            make_default("CliffWalking-v0").unwrap().id(),
            "CliffWalking-v1"
        );
    }

    #[test]
    fn ids_and_aliases_are_unique_and_every_family_has_ids() {
        let mut seen = std::collections::BTreeSet::new();
        for s in specs() {
            for id in std::iter::once(&s.id).chain(s.aliases) {
                assert!(seen.insert(*id), "{id} registered twice");
            }
            assert!(
                FAMILIES.iter().any(|f| std::ptr::eq(*f, s.family)),
                "{}",
                s.id
            );
        }
        assert!(FAMILIES.iter().all(|f| !f.specs.is_empty()));
        assert!(seen.len() >= 70, "{}", seen.len());
    }

    #[test]
    fn unknown_ids_and_kwargs_are_errors() {
        assert!(matches!(
            make_default("Nope-v0"),
            Err(EnvError::UnknownEnv(_))
        ));
        let err = make("FrozenLake-v1", &kwargs(json!({"map_name": "5x5"}))).err();
        assert!(matches!(err, Some(EnvError::BadKwargs(m)) if m.contains("map_name")));
        let err = make("Taxi-v3", &kwargs(json!({"rainy": true}))).err();
        assert!(matches!(err, Some(EnvError::BadKwargs(m)) if m.contains("rainy")));
        let err = make("FrozenLake-v1", &kwargs(json!({"is_slippery": "no"}))).err();
        assert!(matches!(err, Some(EnvError::BadKwargs(m)) if m.contains("is_slippery")));
    }

    /// Run both ways: `cargo test -p playbench-envs` (every family made) and with
    /// `--no-default-features` (the first-load build: the rest listed, not made).
    #[test]
    fn families_outside_the_build_are_listed_but_not_made() {
        // A misspelt id would leave its family out of the first-load build.
        for id in crate::core::spec::ALWAYS_BUILT_IN {
            assert!(FAMILIES.iter().any(|f| f.id == id), "{id}");
        }
        for family in FAMILIES {
            for spec in family.specs {
                match make_default(spec.id) {
                    Err(EnvError::NotBuiltIn(id)) => {
                        assert!(!family.built_in() && id == spec.id, "{id}")
                    }
                    // Atari needs its ROM; everything else is made.
                    made => assert!(
                        family.built_in()
                            && (made.is_ok() || matches!(made, Err(EnvError::MissingAsset(_)))),
                        "{}",
                        spec.id
                    ),
                }
            }
        }
        assert_eq!(
            FAMILIES.len(),
            9,
            "a new family: in the first-load build or not?"
        );
    }

    #[test]
    fn step_before_reset_is_an_error() {
        let mut env = make_default("Taxi-v3").unwrap();
        assert_eq!(
            env.step(crate::Action::Index(0)).err(),
            Some(EnvError::NotReset)
        );
    }
}
