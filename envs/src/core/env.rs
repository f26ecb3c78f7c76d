//! The environment interface: Gymnasium's reset/step semantics over an object-safe trait.

use serde::Serialize;

use super::error::EnvError;
use super::frame::Frame;

/// What an environment accepts as an action.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ActionSpace {
    /// `Discrete(n)`: actions `0..n`.
    Discrete { n: usize },
    /// A one-dimensional `Box(low, high)`, e.g. Pendulum's torque.
    Continuous { low: f64, high: f64 },
}

/// One action: an index for discrete spaces, a value for continuous ones.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Action {
    Index(usize),
    Value(f64),
}

/// The observation as the reference returns it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Observation {
    /// Toy Text: a state index.
    Int(i64),
    /// Classic Control: a float32 vector.
    Vector(Vec<f32>),
    /// MiniGrid: the agent's 7×7 view encoding, its direction and the mission.
    Grid(GridObservation),
}

/// MiniGrid's `obs` dict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GridObservation {
    /// `image[i][j]` = (type, colour, state) of view cell (i, j), flattened i-major (7×7).
    pub image: Vec<[u8; 3]>,
    pub direction: i64,
    pub mission: String,
}

/// Other pictures an environment may offer besides its default frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct RenderOptions {
    /// MiniGrid: lighten the cells the agent sees (the reference default).
    pub highlight: bool,
    /// MiniGrid: draw the agent's 7×7 view instead of the whole grid.
    pub agent_view: bool,
    /// MiniGrid: tile size in pixels (0 = the default 32).
    pub tile_size: u32,
}

/// The reference's `info` dict, with only the keys an environment sets.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Info {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prob: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action_mask: Option<Vec<u8>>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reset {
    pub obs: Observation,
    pub info: Info,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step {
    pub obs: Observation,
    pub reward: f64,
    pub terminated: bool,
    pub truncated: bool,
    pub info: Info,
}

/// A key (a browser `KeyboardEvent.key` value) that plays one action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KeyBinding {
    pub key: &'static str,
    pub action: usize,
}

impl KeyBinding {
    pub const fn new(key: &'static str, action: usize) -> Self {
        Self { key, action }
    }
}

/// A Gymnasium-style environment.
///
/// `reset(Some(seed))` rebuilds the generator as `numpy.random.default_rng(seed)`;
/// `reset(None)` continues the current stream. Rendering never draws random numbers.
pub trait Env {
    /// The registered id this environment was made under (without kwargs).
    fn id(&self) -> &str;

    fn action_space(&self) -> ActionSpace;

    /// Canonical, human-readable names of the discrete actions shown to people and
    /// models (for continuous spaces: the discrete presets a person can press).
    fn action_names(&self) -> Vec<String>;

    /// The action a preset name stands for (identity for discrete spaces).
    fn preset_action(&self, index: usize) -> Option<Action> {
        match self.action_space() {
            ActionSpace::Discrete { n } if index < n => Some(Action::Index(index)),
            _ => None,
        }
    }

    /// Keyboard bindings to action presets, as data.
    fn keymap(&self) -> Vec<KeyBinding>;

    fn reset(&mut self, seed: Option<u64>) -> Reset;

    fn step(&mut self, action: Action) -> Result<Step, EnvError>;

    /// The current observation (what the last reset or step returned).
    fn observation(&self) -> Observation;

    /// The internal physical state (float64), for environments that have one.
    fn physical_state(&self) -> Option<Vec<f64>> {
        None
    }

    /// Frame width and height of `render`, in pixels.
    fn frame_size(&self) -> (u32, u32);

    /// Draws the current state into `frame`, resizing it to `frame_size()`.
    fn render(&self, frame: &mut Frame);

    /// Draws an alternative picture; `false` (and the default frame) when the
    /// environment has no such option.
    fn render_with(&self, frame: &mut Frame, options: RenderOptions) -> bool {
        let _ = options;
        self.render(frame);
        false
    }

    /// The state as JSON when the environment has more of it than its observation
    /// shows (MiniGrid: the full grid, the agent, the carried object).
    fn snapshot(&self) -> Option<serde_json::Value> {
        None
    }

    /// A plain-text picture of the current state.
    fn render_text(&self) -> String;

    fn clone_box(&self) -> Box<dyn Env>;

    /// The concrete environment, for solvers and scorers that read its true state.
    fn as_any(&self) -> &dyn std::any::Any;

    /// MiniGrid's world (grid, agent, carried object, mission), for planners.
    fn grid_world(&self) -> Option<&crate::minigrid::world::World> {
        None
    }
}

impl Clone for Box<dyn Env> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Checks a discrete action against `n` actions.
pub fn discrete_action(action: Action, n: usize) -> Result<usize, EnvError> {
    match action {
        Action::Index(i) if i < n => Ok(i),
        Action::Index(i) => Err(EnvError::InvalidAction(format!(
            "action {i} is out of range: this environment has actions 0..{}",
            n - 1
        ))),
        Action::Value(v) => Err(EnvError::InvalidAction(format!(
            "action {v} is not an index: this environment has discrete actions 0..{}",
            n - 1
        ))),
    }
}

/// The portable JSON picture of a state, as `envs-driver` prints it and golden files
/// store it: Toy Text `{"obs": INT, "info": {...}}`; Classic Control
/// `{"obs": [...], "state": [...]}` with float32 observations widened exactly; MiniGrid
/// its snapshot (agent, grid, view, mission).
pub fn state_json(env: &dyn Env, obs: &Observation, info: &Info) -> serde_json::Value {
    if let Some(snapshot) = env.snapshot() {
        return snapshot;
    }
    match obs {
        Observation::Grid(g) => serde_json::json!(g),
        Observation::Int(n) => serde_json::json!({ "obs": n, "info": info }),
        Observation::Vector(v) => {
            let obs: Vec<f64> = v.iter().map(|&x| f64::from(x)).collect();
            serde_json::json!({ "obs": obs, "state": env.physical_state().unwrap_or_default() })
        }
    }
}
