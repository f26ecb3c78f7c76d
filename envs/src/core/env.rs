//! The environment interface: Gymnasium's reset/step semantics over an object-safe trait.

use serde::Serialize;

pub use super::action::{Action, ActionSpace};
use super::clock::Clock;
use super::error::EnvError;
use super::events::Events;
pub use super::floats::Floats;
use super::frame::Frame;
pub use super::input::KeyBinding;
use super::input::{Gesture, PointerMode};
use super::oracle::{Control, Solver};

/// The observation as the reference returns it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Observation {
    /// Toy Text: a state index.
    Int(i64),
    /// Classic Control: a float32 vector.
    Vector(Floats),
    /// MiniGrid: the agent's 7×7 view encoding, its direction and the mission.
    Grid(GridObservation),
    /// Atari: the `uint8` array ALE returns (the screen as RGB or grayscale, or the RAM).
    Bytes(ByteArray),
}

/// A numpy `uint8` array: its shape and its elements, row-major.
#[derive(Clone, PartialEq, Eq, Serialize)]
pub struct ByteArray {
    pub shape: Vec<usize>,
    pub data: Vec<u8>,
}

impl std::fmt::Debug for ByteArray {
    /// The shape and a digest of the elements: an Atari screen has 100,800 of them, and
    /// debug text is compared whole (e.g. by `core::check`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // FNV-1a, 64 bits.
        let digest = self.data.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        write!(f, "uint8{:?} fnv1a={digest:016x}", self.shape)
    }
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
    /// Taxi's, one entry per action (in an array: a step allocates nothing).
    pub action_mask: Option<[u8; 6]>,
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
    /// What the benchmark judges by: the success event and milestones of this step.
    #[serde(skip)]
    pub signals: Signals,
}

/// What happened on a step beyond the reference's return values, as the environment
/// itself knows it: one success rule for play, task play, runs and verification.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Signals {
    /// The environment's success event (goal reached, passenger delivered, flag reached,
    /// tip above the line, game won).
    pub success: bool,
    /// Milestones reached or held after this step, named by the family (e.g.
    /// `pickup yellow key`, `open red door`, `pickup passenger`).
    pub events: Events,
    /// The game ended in a draw (board games; a draw may also be a success).
    pub draw: bool,
}

/// A continuous measure of progress toward the goal (Acrobot's tip height, MountainCar's
/// position) and the value at which the goal is reached.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProgressMeasure {
    pub value: f64,
    pub goal: f64,
}

/// How an environment's episodes are described to people.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Words {
    /// The goal as an instruction: "Reach the goal".
    pub goal: &'static str,
    /// Success, after the fact: "reached the goal".
    pub success: &'static str,
    /// Any other termination, after the fact: "fell into a hole".
    pub failure: &'static str,
}

impl Default for Words {
    fn default() -> Self {
        Self {
            goal: "Reach the goal",
            success: "reached the goal",
            failure: "the episode ended",
        }
    }
}

/// Which [`RenderOptions`] an environment honours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RenderCaps {
    pub highlight: bool,
    pub agent_view: bool,
    pub tile_size: bool,
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

    /// The preset that does nothing (fills frame-skipped steps and init skips), when the
    /// environment has one.
    fn noop(&self) -> Option<usize> {
        None
    }

    /// The action's text form, as models write it and episode files store it: the
    /// preset's name for presets, the generic call syntax for parametric actions.
    fn action_text(&self, action: &Action) -> String {
        let names = self.action_names();
        let preset = (0..names.len()).find(|&i| self.preset_action(i).as_ref() == Some(action));
        match (preset, action) {
            (Some(i), _) => names[i].clone(),
            (None, Action::Call(call)) => super::action::call_text(&self.action_space(), call),
            (None, Action::Text(t)) => t.clone(),
            (None, Action::Index(i)) => i.to_string(),
            (None, Action::Value(v)) => v.to_string(),
        }
    }

    /// Reads an action's text form: a preset's name, or a call in the generic syntax.
    fn parse_action(&self, text: &str) -> Result<Action, super::action::ActionError> {
        let names = self.action_names();
        if let Some(i) = names.iter().position(|n| n == text.trim()) {
            if let Some(a) = self.preset_action(i) {
                return Ok(a);
            }
        }
        match self.action_space() {
            space @ ActionSpace::Parametric { .. } => {
                super::action::parse_call(&space, text).map(Action::Call)
            }
            _ => Err(super::action::ActionError(format!(
                "{text:?} is not an action of {} (its actions: {})",
                self.id(),
                names.join(", ")
            ))),
        }
    }

    /// What the pointer does on the frame, if anything.
    fn pointer_mode(&self) -> Option<PointerMode> {
        None
    }

    /// The action a pointer gesture on the frame stands for.
    fn pointer_action(&self, gesture: Gesture) -> Option<Action> {
        let _ = gesture;
        None
    }

    /// The real-time rule of an environment that advances on its own; `None` for
    /// turn-based play (the default).
    fn clock(&self) -> Option<Clock> {
        None
    }

    /// Virtual milliseconds from an action to the observation after it (the reference's
    /// pause before its screenshot; GameVerse Snake: 500), during which a clock's idle
    /// steps may fall due. A player that turns thinking time into game time
    /// (`docs/gameverse.md`, "Snake's latency modes") waits this long after each action.
    fn observation_delay_ms(&self) -> u64 {
        0
    }

    /// The virtual time (milliseconds since the first observation) at which the next
    /// action is played, for an environment whose clock waits for actions and which
    /// keeps game time (GameVerse Snake ends its real-time game at the first move at or
    /// after 1200 s and shows the time). Idle steps happen on the clock's own rule, which
    /// the environment knows. A player that keeps no virtual time never calls this, and
    /// such an environment then never ends on time.
    fn set_action_time(&mut self, at_ms: u64) {
        let _ = at_ms;
    }

    /// Frames per second for watching episodes (the reference's `render_fps`).
    fn render_fps(&self) -> u32 {
        4
    }

    /// How episodes of this environment are described.
    fn words(&self) -> Words {
        Words::default()
    }

    /// The current mission or instruction, when the environment states one in words.
    fn mission(&self) -> Option<String> {
        None
    }

    /// A step limit the environment applies itself, besides `gym.make`'s `TimeLimit`
    /// (MiniGrid levels truncate at their own `max_steps`).
    fn own_step_limit(&self) -> Option<u32> {
        None
    }

    /// A short note on state the frame does not show (e.g. "carrying a yellow key").
    fn status_note(&self) -> Option<String> {
        None
    }

    /// Why a terminated episode ended, when the state says more than `words().failure`
    /// (MiniGrid: "stepped into lava"); asked only after termination.
    fn ending_note(&self) -> Option<String> {
        None
    }

    fn reset(&mut self, seed: Option<u64>) -> Reset;

    /// Why the last reset started no episode (a VisGym image environment out of
    /// pictures, or a picture it cannot read): the reference raises there. `None` after
    /// a reset that started one.
    fn reset_failure(&self) -> Option<String> {
        None
    }

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

    /// Which render options `render_with` honours.
    fn render_caps(&self) -> RenderCaps {
        RenderCaps::default()
    }

    /// The state as JSON right after a reset: [`snapshot`](Env::snapshot) plus what
    /// only the reset reply carries (a maze's map, a puzzle's target).
    fn snapshot_at_reset(&self) -> Option<serde_json::Value> {
        self.snapshot()
    }

    /// Fields the JSON-lines driver adds to reset and step replies beside the state:
    /// the reference's feedback text, text-mode frame or `info`, as the family's
    /// driver contract says (`docs/driver.md`).
    fn reply_fields(&self) -> serde_json::Map<String, serde_json::Value> {
        serde_json::Map::new()
    }

    /// The instructions a harness gives a model for this environment, for image or
    /// text observations, when the reference has its own.
    fn instructions(&self, text_mode: bool) -> Option<String> {
        let _ = text_mode;
        None
    }

    /// The agent prompts of a GameVerse-style harness for the current state (templates
    /// and the game's placeholder values), when the reference has them
    /// (`docs/gameverse.md`, "Harness").
    fn agent_prompts(&self) -> Option<crate::core::agent_prompts::AgentPrompts> {
        None
    }

    /// A plain-text picture of the current state.
    fn render_text(&self) -> String;

    fn clone_box(&self) -> Box<dyn Env>;

    /// The concrete environment, for its family's oracle that reads its true state.
    fn as_any(&self) -> &dyn std::any::Any;

    /// The family's world state when the concrete type is generic (MiniGrid's levels),
    /// for the family's own oracle: it downcasts what it put here.
    fn world_any(&self) -> Option<&dyn std::any::Any> {
        None
    }

    /// The family's oracle: plays from the true state under the task's `control`.
    fn oracle(&self, control: Control) -> Option<Box<dyn Solver>> {
        let _ = control;
        None
    }

    /// The reference solver's actions from here, called with keyword arguments (e.g.
    /// `{"strategy": "bfs"}`), where the reference's solver takes options; `None` when
    /// the environment has no solver with options (then only [`oracle`](Env::oracle)
    /// plays). An error names an option that is not reproduced.
    fn solve_with(
        &self,
        kwargs: &serde_json::Map<String, serde_json::Value>,
    ) -> Option<Result<Vec<String>, String>> {
        let _ = kwargs;
        None
    }

    /// The oracle's number of decisions to success from here, where that measures
    /// progress (navigation); `None` otherwise or when success is out of reach.
    fn distance_to_goal(&self) -> Option<u32> {
        None
    }

    /// Progress toward the goal on a continuous measure, where there is one.
    fn progress(&self) -> Option<ProgressMeasure> {
        None
    }

    /// The reference benchmark's own 0-100 score of the episode so far, where it
    /// defines one (GameVerse's normalized game scores).
    fn normalized_score(&self) -> Option<f64> {
        None
    }

    /// The milestone list a judge model checks an episode against, where the
    /// environment has one: GameVerse's JSON (`{"milestones": [{timestamp, title,
    /// description, category, importance}]}`) with each milestone's exact predicate,
    /// one of this environment's signal events, under `playbench_exact`
    /// (`docs/judge.md`).
    fn milestones(&self) -> Option<&'static str> {
        None
    }
}

impl Clone for Box<dyn Env> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Checks a discrete action against `n` actions.
pub fn discrete_action(action: &Action, n: usize) -> Result<usize, EnvError> {
    match action {
        Action::Index(i) if *i < n => Ok(*i),
        Action::Index(i) => Err(EnvError::InvalidAction(format!(
            "action {i} is out of range: this environment has actions 0..{}",
            n - 1
        ))),
        other => Err(EnvError::InvalidAction(format!(
            "action {other:?} is not an index: this environment has discrete actions 0..{}",
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
    plain_state(env, obs, info)
}

/// [`state_json`] for the reply to a reset (with the fields only it carries).
pub fn reset_state_json(env: &dyn Env, obs: &Observation, info: &Info) -> serde_json::Value {
    if let Some(snapshot) = env.snapshot_at_reset() {
        return snapshot;
    }
    plain_state(env, obs, info)
}

fn plain_state(env: &dyn Env, obs: &Observation, info: &Info) -> serde_json::Value {
    match obs {
        Observation::Grid(g) => serde_json::json!(g),
        Observation::Bytes(b) => serde_json::json!({ "obs": b }),
        Observation::Int(n) => serde_json::json!({ "obs": n, "info": info }),
        Observation::Vector(v) => {
            let obs: Vec<f64> = v.iter().map(|&x| f64::from(x)).collect();
            serde_json::json!({ "obs": obs, "state": env.physical_state().unwrap_or_default() })
        }
    }
}
