//! Gymnasium ids → constructors, with the kwargs and time limits `gym.make` applies.
//! Each family lists its own ids (`toy_text::SPECS`, `classic_control::SPECS`,
//! `minigrid::SPECS`).

use serde::Serialize;
use serde_json::{Map, Value};

use crate::core::env::Env;
use crate::core::error::EnvError;
use crate::core::kwargs::Kwargs;
use crate::core::wrappers::Registered;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    ToyText,
    ClassicControl,
    MiniGrid,
}

impl Family {
    pub fn label(self) -> &'static str {
        match self {
            Self::ToyText => "Toy Text",
            Self::ClassicControl => "Classic Control",
            Self::MiniGrid => "MiniGrid",
        }
    }
}

pub(crate) type MakeFn = fn(&'static EnvSpec, &mut Kwargs) -> Result<Box<dyn Env>, EnvError>;

/// One registered id.
#[derive(Serialize)]
pub struct EnvSpec {
    pub id: &'static str,
    /// Older or newer ids that make the same environment.
    pub aliases: &'static [&'static str],
    pub family: Family,
    /// The `TimeLimit` of `gym.make` (`None`: episodes can run forever).
    pub max_episode_steps: Option<u32>,
    /// The accepted kwargs, for people.
    pub kwargs_doc: &'static str,
    pub summary: &'static str,
    #[serde(skip)]
    pub(crate) make: MakeFn,
}

/// Wraps an environment the way `gym.make` does for this spec.
pub(crate) fn wrap<E: Env + Clone + 'static>(spec: &EnvSpec, env: E) -> Box<dyn Env> {
    Box::new(Registered::new(env, spec.max_episode_steps))
}

/// Every registered environment, in display order.
pub fn specs() -> impl Iterator<Item = &'static EnvSpec> {
    crate::toy_text::SPECS
        .iter()
        .chain(crate::classic_control::SPECS.iter())
        .chain(crate::minigrid::SPECS.iter())
}

/// The spec for an id or one of its aliases.
pub fn spec(id: &str) -> Option<&'static EnvSpec> {
    specs().find(|s| s.id == id || s.aliases.contains(&id))
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

    #[test]
    fn step_before_reset_is_an_error() {
        let mut env = make_default("Taxi-v3").unwrap();
        assert_eq!(
            env.step(crate::Action::Index(0)).err(),
            Some(EnvError::NotReset)
        );
    }
}
