//! The throughput workload shared by the native and the browser benchmark: random
//! actions (from our own seeded generator), resets included in the time, optionally a
//! render after every step, measured against an injected clock.

use envs::rng::NpRandom;
use envs::{Action, ActionSpace, Frame};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// One benchmarked configuration and the Python reference figures (gymnasium through
/// `gym.make`, best of 3 one-second runs): `docs/environments.md`,
/// "Reference throughput".
pub struct BenchCase {
    pub name: &'static str,
    pub env: &'static str,
    pub kwargs: fn() -> Map<String, Value>,
    pub python_steps_per_s: f64,
    pub python_frames_per_s: f64,
}

fn none() -> Map<String, Value> {
    Map::new()
}

fn object(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

pub const CASES: &[BenchCase] = &[
    BenchCase {
        name: "Taxi",
        env: "Taxi-v3",
        kwargs: none,
        python_steps_per_s: 46_592.0,
        python_frames_per_s: 128.0,
    },
    BenchCase {
        name: "CliffWalking",
        env: "CliffWalking-v1",
        kwargs: none,
        python_steps_per_s: 76_478.0,
        python_frames_per_s: 148.0,
    },
    BenchCase {
        name: "FrozenLake4x4-slippery",
        env: "FrozenLake-v1",
        kwargs: none,
        python_steps_per_s: 56_689.0,
        python_frames_per_s: 530.0,
    },
    BenchCase {
        name: "FrozenLake4x4-det",
        env: "FrozenLake-v1",
        kwargs: || object(json!({"is_slippery": false})),
        python_steps_per_s: 46_506.0,
        python_frames_per_s: 411.0,
    },
    BenchCase {
        name: "FrozenLake8x8-slippery",
        env: "FrozenLake8x8-v1",
        kwargs: none,
        python_steps_per_s: 54_132.0,
        python_frames_per_s: 77.0,
    },
    BenchCase {
        name: "FrozenLake8x8-det",
        env: "FrozenLake8x8-v1",
        kwargs: || object(json!({"is_slippery": false})),
        python_steps_per_s: 55_077.0,
        python_frames_per_s: 113.0,
    },
    BenchCase {
        name: "CartPole-v1",
        env: "CartPole-v1",
        kwargs: none,
        python_steps_per_s: 54_145.0,
        python_frames_per_s: 366.0,
    },
    BenchCase {
        name: "Acrobot-v1",
        env: "Acrobot-v1",
        kwargs: none,
        python_steps_per_s: 15_069.0,
        python_frames_per_s: 420.0,
    },
    BenchCase {
        name: "MountainCar-v0",
        env: "MountainCar-v0",
        kwargs: none,
        python_steps_per_s: 41_896.0,
        python_frames_per_s: 398.0,
    },
    BenchCase {
        name: "Pendulum-v1",
        env: "Pendulum-v1",
        kwargs: none,
        python_steps_per_s: 37_149.0,
        python_frames_per_s: 254.0,
    },
    BenchCase {
        name: "Pendulum-v1-f64action",
        env: "Pendulum-v1",
        kwargs: || object(json!({"action_dtype": "float64"})),
        python_steps_per_s: 40_814.0,
        python_frames_per_s: 273.0,
    },
    BenchCase {
        name: "LavaCrossingS9N1-v0",
        env: "MiniGrid-LavaCrossingS9N1-v0",
        kwargs: none,
        python_steps_per_s: 4_620.0,
        python_frames_per_s: 769.0,
    },
    BenchCase {
        name: "LavaCrossingS9N2-v0",
        env: "MiniGrid-LavaCrossingS9N2-v0",
        kwargs: none,
        python_steps_per_s: 4_696.0,
        python_frames_per_s: 762.0,
    },
    BenchCase {
        name: "SimpleCrossingS9N1-v0",
        env: "MiniGrid-SimpleCrossingS9N1-v0",
        kwargs: none,
        python_steps_per_s: 4_084.0,
        python_frames_per_s: 658.0,
    },
    BenchCase {
        name: "UnlockPickup-v0",
        env: "MiniGrid-UnlockPickup-v0",
        kwargs: none,
        python_steps_per_s: 5_032.0,
        python_frames_per_s: 687.0,
    },
    BenchCase {
        name: "MultiRoom-N2-S4-v0",
        env: "MiniGrid-MultiRoom-N2-S4-v0",
        kwargs: none,
        python_steps_per_s: 4_072.0,
        python_frames_per_s: 112.0,
    },
    BenchCase {
        name: "MultiRoom-N4-S5-v0",
        env: "MiniGrid-MultiRoom-N4-S5-v0",
        kwargs: none,
        python_steps_per_s: 4_644.0,
        python_frames_per_s: 114.0,
    },
    BenchCase {
        name: "DoorKey-5x5-v0",
        env: "MiniGrid-DoorKey-5x5-v0",
        kwargs: none,
        python_steps_per_s: 4_122.0,
        python_frames_per_s: 1_044.0,
    },
    BenchCase {
        name: "DoorKey-8x8-v0",
        env: "MiniGrid-DoorKey-8x8-v0",
        kwargs: none,
        python_steps_per_s: 3_624.0,
        python_frames_per_s: 665.0,
    },
    BenchCase {
        name: "Empty-5x5-v0",
        env: "MiniGrid-Empty-5x5-v0",
        kwargs: none,
        python_steps_per_s: 4_288.0,
        python_frames_per_s: 863.0,
    },
    BenchCase {
        name: "Empty-8x8-v0",
        env: "MiniGrid-Empty-8x8-v0",
        kwargs: none,
        python_steps_per_s: 3_796.0,
        python_frames_per_s: 716.0,
    },
    BenchCase {
        name: "Empty-Random-5x5-v0",
        env: "MiniGrid-Empty-Random-5x5-v0",
        kwargs: none,
        python_steps_per_s: 5_013.0,
        python_frames_per_s: 932.0,
    },
    BenchCase {
        name: "FourRooms-v0",
        env: "MiniGrid-FourRooms-v0",
        kwargs: none,
        python_steps_per_s: 3_389.0,
        python_frames_per_s: 186.0,
    },
    BenchCase {
        name: "KeyCorridorS3R1-v0",
        env: "MiniGrid-KeyCorridorS3R1-v0",
        kwargs: none,
        python_steps_per_s: 4_657.0,
        python_frames_per_s: 884.0,
    },
    BenchCase {
        name: "KeyCorridorS3R3-v0",
        env: "MiniGrid-KeyCorridorS3R3-v0",
        kwargs: none,
        python_steps_per_s: 5_445.0,
        python_frames_per_s: 754.0,
    },
    BenchCase {
        name: "DistShift1-v0",
        env: "MiniGrid-DistShift1-v0",
        kwargs: none,
        python_steps_per_s: 4_732.0,
        python_frames_per_s: 675.0,
    },
    BenchCase {
        name: "DistShift2-v0",
        env: "MiniGrid-DistShift2-v0",
        kwargs: none,
        python_steps_per_s: 4_616.0,
        python_frames_per_s: 672.0,
    },
    BenchCase {
        name: "Dynamic-Obstacles-5x5-v0",
        env: "MiniGrid-Dynamic-Obstacles-5x5-v0",
        kwargs: none,
        python_steps_per_s: 2_558.0,
        python_frames_per_s: 1_015.0,
    },
    BenchCase {
        name: "Dynamic-Obstacles-Random-6x6-v0",
        env: "MiniGrid-Dynamic-Obstacles-Random-6x6-v0",
        kwargs: none,
        python_steps_per_s: 2_196.0,
        python_frames_per_s: 915.0,
    },
    BenchCase {
        name: "Dynamic-Obstacles-8x8-v0",
        env: "MiniGrid-Dynamic-Obstacles-8x8-v0",
        kwargs: none,
        python_steps_per_s: 3_388.0,
        python_frames_per_s: 842.0,
    },
];

/// Every benchmarked case: the reference table's, then every other MiniGrid id against
/// the reference's typical MiniGrid figures: about 4,000 steps/s, and frames/s from a
/// fit of the table's MiniGrid rows, 1 / (0.573 ms + 13.06 ns × pixels) (e.g. 160² →
/// 1,100, 800² → 112).
pub fn cases() -> Vec<&'static BenchCase> {
    static MORE: std::sync::OnceLock<Vec<BenchCase>> = std::sync::OnceLock::new();
    let more = MORE.get_or_init(|| {
        envs::specs()
            .filter(|s| {
                std::ptr::eq(s.family, &envs::minigrid::FAMILY)
                    && !CASES.iter().any(|c| c.env == s.id)
            })
            .filter_map(|s| {
                let (w, h) = envs::make(s.id, &Map::new()).ok()?.frame_size();
                let pixels = f64::from(w) * f64::from(h);
                Some(BenchCase {
                    name: s.id.strip_prefix("MiniGrid-").unwrap_or(s.id),
                    env: s.id,
                    kwargs: none,
                    python_steps_per_s: 4_000.0,
                    python_frames_per_s: 1.0 / (0.000_573 + 13.06e-9 * pixels),
                })
            })
            .collect()
    });
    CASES.iter().chain(more.iter()).collect()
}

/// Steps per second without and with rendering.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Measured {
    pub name: String,
    pub steps_per_s: f64,
    pub frames_per_s: f64,
}

/// Runs `case` for about `seconds` per mode; `now` returns seconds from any origin.
pub fn measure(case: &BenchCase, seconds: f64, now: &dyn Fn() -> f64) -> Result<Measured, String> {
    let steps_per_s = run(case, seconds, false, now)?;
    let frames_per_s = run(case, seconds, true, now)?;
    Ok(Measured {
        name: case.name.to_string(),
        steps_per_s,
        frames_per_s,
    })
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

/// The comparison table: our native and browser figures next to the Python reference.
pub fn table(native: &[Measured], wasm: &[Measured]) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{:<24} {:>10} {:>11} {:>11} {:>7} | {:>8} {:>9} {:>9} {:>7}\n",
        "env", "py step/s", "native", "wasm", "wasm/py", "py fps", "native", "wasm", "wasm/py"
    ));
    for case in cases() {
        let n = native.iter().find(|m| m.name == case.name);
        let w = wasm.iter().find(|m| m.name == case.name);
        let fmt = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.0}"));
        let ratio =
            |v: Option<f64>, py: f64| v.map_or("-".to_string(), |v| format!("{:.0}x", v / py));
        out.push_str(&format!(
            "{:<24} {:>10.0} {:>11} {:>11} {:>7} | {:>8.0} {:>9} {:>9} {:>7}\n",
            case.name,
            case.python_steps_per_s,
            fmt(n.map(|m| m.steps_per_s)),
            fmt(w.map(|m| m.steps_per_s)),
            ratio(w.map(|m| m.steps_per_s), case.python_steps_per_s),
            case.python_frames_per_s,
            fmt(n.map(|m| m.frames_per_s)),
            fmt(w.map(|m| m.frames_per_s)),
            ratio(w.map(|m| m.frames_per_s), case.python_frames_per_s),
        ));
    }
    out.push_str(
        "targets: wasm steps/s >= 50x the Python reference (MiniGrid 100x), wasm frames/s >= 20x\n",
    );
    out
}
