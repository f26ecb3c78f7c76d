//! The throughput workload shared by the native and the browser benchmark: random
//! actions (from our own seeded generator), resets included in the time, optionally a
//! render after every step, measured against an injected clock. The references run the
//! same workload (`tests/golden/speed.py`, `tests/golden/visgym/speed.py`,
//! `tests/golden/gameverse/speed.py`, by [`Reference`]); `bench/report.rs` compares.

pub mod report;
pub mod turns;

use envs::rng::NpRandom;
use envs::{Action, ActionSpace, Frame};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// What measures a case's reference, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// `gym.make` of the pinned Gymnasium packages (`tests/golden/speed.py`).
    Gym,
    /// ALE's own interface (`ale.act`, one frame a call) rather than `gym.make`: the
    /// Atari emulation cases, so that their ratio is against ALE's C++ core and not
    /// the Python around it (`tests/golden/speed.py`).
    AleAct,
    /// VisGym's own environments from its repository (`tests/golden/visgym/speed.py`).
    VisGym,
    /// GameVerse's own games from its repository (`tests/golden/gameverse/speed.py`).
    GameVerse,
}

impl Reference {
    /// How the reference scripts name it.
    pub fn key(self) -> &'static str {
        match self {
            Self::Gym => "gym",
            Self::AleAct => "ale_act",
            Self::VisGym => "visgym",
            Self::GameVerse => "gameverse",
        }
    }
}

/// One benchmarked configuration: a name for tables, the id (one the reference knows
/// too), our kwargs and what measures the reference.
pub struct BenchCase {
    pub name: &'static str,
    pub env: &'static str,
    pub kwargs: fn() -> Map<String, Value>,
    pub reference: Reference,
}

impl BenchCase {
    /// The family's label, e.g. `MiniGrid`.
    pub fn family(&self) -> &'static str {
        envs::specs()
            .find(|s| s.id == self.env || s.aliases.contains(&self.env))
            .map_or("?", |s| s.family.label)
    }

    /// The case as its reference script reads it. VisGym and GameVerse cases carry
    /// their presets' texts (what a model would write for each): ours step a random
    /// preset, the reference a random one of these texts.
    pub fn to_json(&self) -> Value {
        let mut out = json!({
            "name": self.name,
            "env": self.env,
            "kwargs": (self.kwargs)(),
            "reference": self.reference.key(),
        });
        if matches!(self.reference, Reference::VisGym | Reference::GameVerse) {
            out["actions"] = envs::make(self.env, &(self.kwargs)())
                .map_or(json!([]), |env| json!(env.action_names()));
        }
        out
    }
}

/// Seconds each side spends on each case and mode (steps, then frames).
pub const SECONDS: f64 = 0.5;
/// Seconds of untimed runs before measuring: natively as long as the reference script
/// warms up; in the browser long enough for its optimised code (see [`warm_up`]).
pub const WARM_UP_NATIVE: f64 = 0.05;
pub const WARM_UP_BROWSER: f64 = 2.0;
/// Seconds of one warm-up run.
const WARM_UP_RUN: f64 = 0.25;

fn none() -> Map<String, Value> {
    Map::new()
}

fn not_slippery() -> Map<String, Value> {
    object(json!({"is_slippery": false}))
}

fn object(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

const fn case(name: &'static str, env: &'static str) -> BenchCase {
    BenchCase {
        name,
        env,
        kwargs: none,
        reference: Reference::Gym,
    }
}

/// Toy Text and Classic Control, with the kwargs that change their work.
const FIXED: &[BenchCase] = &[
    case("Taxi", "Taxi-v4"),
    case("CliffWalking", "CliffWalking-v1"),
    case("FrozenLake4x4-slippery", "FrozenLake-v1"),
    BenchCase {
        name: "FrozenLake4x4-det",
        env: "FrozenLake-v1",
        kwargs: not_slippery,
        reference: Reference::Gym,
    },
    case("FrozenLake8x8-slippery", "FrozenLake8x8-v1"),
    BenchCase {
        name: "FrozenLake8x8-det",
        env: "FrozenLake8x8-v1",
        kwargs: not_slippery,
        reference: Reference::Gym,
    },
    case("CartPole-v1", "CartPole-v1"),
    case("Acrobot-v1", "Acrobot-v1"),
    case("MountainCar-v0", "MountainCar-v0"),
    case("Pendulum-v1", "Pendulum-v1"),
    BenchCase {
        name: "Pendulum-v1-f64action",
        env: "Pendulum-v1",
        kwargs: || object(json!({"action_dtype": "float64"})),
        reference: Reference::Gym,
    },
];

/// The third-party games, against their own packages (their ids registered by importing
/// them, `tests/golden/speed.py`). FlappyBird draws our stand-in art (the package's
/// sprites are not ours to ship), which costs about what blitting them does.
const THIRD_PARTY: &[BenchCase] = &[
    case("Tetris", "tetris_gymnasium/Tetris"),
    case("FlappyBird-v0", "FlappyBird-v0"),
    case("highway-v0", "highway-v0"),
    case("highway-fast-v0", "highway-fast-v0"),
];

/// One frame per step and the RAM as observation: the emulator's own speed.
fn emulation() -> Map<String, Value> {
    object(json!({"frameskip": 1, "obs_type": "ram"}))
}

/// Per Atari game: `ALE/<Game>-v5` as registered (frame skip 4, the RGB observation of
/// every step), against `gym.make` of ale-py; and `<Game>-emulation`, one frame per
/// step with the RAM as observation, against ALE's `act` called directly (its C++ core
/// with no Python per frame). Steps per second of the emulation case are emulated
/// frames per second; a frame is the RGB screen (`getScreenRGB` in the reference).
fn atari_cases() -> Vec<BenchCase> {
    envs::specs()
        .filter(|s| std::ptr::eq(s.family, &envs::atari::FAMILY))
        .flat_map(|s| {
            let game = s.id.strip_prefix("ALE/").unwrap_or(s.id);
            let emulation_name = game.replace("-v5", "-emulation");
            [
                case(game, s.id),
                BenchCase {
                    // Made once per process (the cases live as long as it does).
                    name: Box::leak(emulation_name.into_boxed_str()),
                    env: s.id,
                    kwargs: emulation,
                    reference: Reference::AleAct,
                },
            ]
        })
        .collect()
}

/// Every registered id of `family` at its defaults, named without `prefix`, measured by
/// `reference`.
fn family_cases(
    family: &'static envs::Family,
    prefix: &str,
    reference: Reference,
) -> Vec<BenchCase> {
    envs::specs()
        .filter(|s| std::ptr::eq(s.family, family))
        .map(|s| BenchCase {
            reference,
            ..case(s.id.strip_prefix(prefix).unwrap_or(s.id), s.id)
        })
        .collect()
}

/// Every benchmarked case: [`FIXED`], every MiniGrid id, [`THIRD_PARTY`], every VisGym
/// and GameVerse id, then the Atari games (their ROMs from the ale-py wheel,
/// [`crate::atari::shelve_test_roms`]).
pub fn cases() -> Vec<&'static BenchCase> {
    use std::sync::OnceLock;
    static MINIGRID: OnceLock<Vec<BenchCase>> = OnceLock::new();
    static VISGYM: OnceLock<Vec<BenchCase>> = OnceLock::new();
    static GAMEVERSE: OnceLock<Vec<BenchCase>> = OnceLock::new();
    static ATARI: OnceLock<Vec<BenchCase>> = OnceLock::new();
    let minigrid =
        MINIGRID.get_or_init(|| family_cases(&envs::minigrid::FAMILY, "MiniGrid-", Reference::Gym));
    // The image environments run out of pictures after a set's worth of resets (the
    // reference then raises), which a rate loop resetting on every stop reaches: not
    // measured yet. The Fetch tasks' speed is MuJoCo's, measured against the native
    // library by scripts/mujoco-eval (docs/physics-engine.md).
    let visgym = VISGYM.get_or_init(|| {
        family_cases(&envs::visgym::FAMILY, "", Reference::VisGym)
            .into_iter()
            .filter(|c| !envs::visgym::plays_pictures(c.env) && !envs::visgym::runs_physics(c.env))
            .collect()
    });
    let gameverse = GAMEVERSE
        .get_or_init(|| family_cases(&envs::gameverse::FAMILY, "GameVerse/", Reference::GameVerse));
    FIXED
        .iter()
        .chain(minigrid.iter())
        .chain(THIRD_PARTY)
        .chain(visgym.iter())
        .chain(gameverse.iter())
        .chain(ATARI.get_or_init(atari_cases).iter())
        .collect()
}

/// Whether any of `cases` needs Atari ROMs on the shelf.
pub fn needs_roms(cases: &[&BenchCase]) -> bool {
    cases.iter().any(|c| c.env.starts_with("ALE/"))
}

/// The cases whose name contains one of the comma-separated parts of `only` (all
/// without it).
pub fn cases_matching(only: Option<&str>) -> Vec<&'static BenchCase> {
    cases()
        .into_iter()
        .filter(|c| only.is_none_or(|o| o.split(',').any(|part| c.name.contains(part))))
        .collect()
}

/// Steps per second without and with rendering.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Measured {
    pub name: String,
    pub steps_per_s: f64,
    pub frames_per_s: f64,
}

/// Runs `case` for about `seconds` per mode after warming up; `now` returns seconds from
/// any origin.
pub fn measure(
    case: &BenchCase,
    seconds: f64,
    warm_up_seconds: f64,
    now: &dyn Fn() -> f64,
) -> Result<Measured, String> {
    warm_up(case, warm_up_seconds, now)?;
    let steps_per_s = run(case, seconds, false, now)?;
    let frames_per_s = run(case, seconds, true, now)?;
    Ok(Measured {
        name: case.name.to_string(),
        steps_per_s,
        frames_per_s,
    })
}

/// Untimed runs of steps for at least `seconds` (more, up to twice that, while the rate
/// still rises), then a short run with frames. The reference script warms up too: its
/// first calls load modules and caches. A browser runs new WebAssembly as baseline code
/// and optimises hot functions on background threads, which on the one core the
/// benchmark pins to get little time: Chromium ran Taxi at half its speed for the first
/// second or so, and at 80% after one second of warm-up.
fn warm_up(case: &BenchCase, seconds: f64, now: &dyn Fn() -> f64) -> Result<(), String> {
    let start = now();
    let chunk = WARM_UP_RUN.min(seconds);
    let mut last = run(case, chunk, false, now)?;
    while now() - start < 2.0 * seconds {
        let rate = run(case, chunk, false, now)?;
        if now() - start >= seconds && rate < last * 1.05 {
            break;
        }
        last = rate;
    }
    run(case, chunk / 2.0, true, now)?;
    Ok(())
}

fn run(case: &BenchCase, seconds: f64, render: bool, now: &dyn Fn() -> f64) -> Result<f64, String> {
    let mut env = envs::make(case.env, &(case.kwargs)()).map_err(|e| e.to_string())?;
    let mut actions = NpRandom::seeded(0);
    let mut frame = Frame::default();
    let space = env.action_space();
    env.reset(Some(0));
    let start = now();
    let mut steps: u64 = 0;
    loop {
        // Read the clock every 64 steps: in the browser it is a call into JavaScript.
        for _ in 0..64 {
            let action = match space {
                ActionSpace::Discrete { n } => {
                    Action::Index(actions.index(n).map_err(|e| e.to_string())?)
                }
                ActionSpace::Continuous { low, high } => Action::Value(actions.uniform(low, high)),
                ActionSpace::Parametric { .. } => {
                    let n = env.action_names().len();
                    let i = actions.index(n).map_err(|e| e.to_string())?;
                    env.preset_action(i).ok_or("a preset without an action")?
                }
            };
            let step = env.step(action).map_err(|e| e.to_string())?;
            if render {
                env.render(&mut frame);
            }
            if step.terminated || step.truncated {
                env.reset(None);
            }
            steps += 1;
        }
        let elapsed = now() - start;
        if elapsed >= seconds {
            return Ok(steps as f64 / elapsed);
        }
    }
}
