//! What the registry knows of an environment before making it: its id, family, time
//! limit, kwargs and the variants worth offering people.

use serde::Serialize;

use super::env::Env;
use super::error::EnvError;
use super::kwargs::Kwargs;
use super::wrappers::Registered;

/// A family of environments: one folder under `envs/src/`, one line in the registry.
#[derive(Serialize)]
pub struct Family {
    /// A stable name, e.g. `minigrid`.
    pub id: &'static str,
    /// As people read it, e.g. `MiniGrid`.
    pub label: &'static str,
    /// Whether the driver's reset and step replies carry `frame_sha256`, the SHA-256
    /// of the RGB frame (families added after the first three do).
    pub frame_sha256: bool,
    #[serde(skip)]
    pub specs: &'static [EnvSpec],
}

impl Family {
    /// Whether this build can make the family's environments. Every build lists every
    /// family; a build without the `every-family` feature (the app's first-load build,
    /// `docs/app.md`) makes only [`ALWAYS_BUILT_IN`], and the other families'
    /// constructors are left out of it (see [`heavy`]).
    pub fn built_in(&self) -> bool {
        EVERY_FAMILY || ALWAYS_BUILT_IN.contains(&self.id)
    }
}

impl std::fmt::Debug for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id)
    }
}

impl PartialEq for Family {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for Family {}

pub type MakeFn = fn(&'static EnvSpec, &mut Kwargs) -> Result<Box<dyn Env>, EnvError>;

/// Whether the families other than [`ALWAYS_BUILT_IN`] are built in.
pub const EVERY_FAMILY: bool = cfg!(feature = "every-family");

/// The families every build makes (their `Family::id`s).
pub const ALWAYS_BUILT_IN: [&str; 3] = ["toy_text", "classic_control", "minigrid"];

/// A constructor of a family outside the first-load build: itself with the
/// `every-family` feature, otherwise one that says it is not built in. The static specs
/// then hold no pointer to the family's code, so the linker leaves all of it out.
pub const fn heavy(make: MakeFn) -> MakeFn {
    if EVERY_FAMILY {
        make
    } else {
        not_built_in
    }
}

fn not_built_in(spec: &'static EnvSpec, _: &mut Kwargs) -> Result<Box<dyn Env>, EnvError> {
    Err(EnvError::NotBuiltIn(spec.id.to_string()))
}

/// Constructor kwargs worth a link of their own, e.g. FrozenLake "not slippery".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Variant {
    pub label: &'static str,
    /// A JSON object.
    pub kwargs: &'static str,
}

/// One registered id.
#[derive(Serialize)]
pub struct EnvSpec {
    pub id: &'static str,
    /// Older or newer ids that make the same environment.
    pub aliases: &'static [&'static str],
    pub family: &'static Family,
    /// The `TimeLimit` of `gym.make` (`None`: episodes can run forever or the
    /// environment truncates itself).
    pub max_episode_steps: Option<u32>,
    /// The accepted kwargs, for people.
    pub kwargs_doc: &'static str,
    pub summary: &'static str,
    /// Kwargs variants offered beside the defaults.
    pub variants: &'static [Variant],
    #[serde(skip)]
    pub make: MakeFn,
}

impl std::fmt::Debug for EnvSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id)
    }
}

/// Wraps an environment the way `gym.make` does for this spec.
pub fn wrap<E: Env + Clone + 'static>(spec: &EnvSpec, env: E) -> Box<dyn Env> {
    Box::new(Registered::new(env, spec.max_episode_steps))
}
