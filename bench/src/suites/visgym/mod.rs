//! The built-in suite `visgym`: VisGym's seven synthetic environments, its eight on
//! pictures, clips and models (on the bundled sets) and its two robot-arm tasks (on
//! MuJoCo, docs/fetch.md) at both levels, ten puzzles each,
//! under VisGym's rules — its step budgets (20 easy, 30 hard), success
//! only by stopping on a solved state (VisGym's success rate is the pass rate), and a
//! 0-100 score with partial credit defined per environment (`Env::normalized_score`,
//! docs/visgym.md "Suite"). Demonstrations are the reference solver on another puzzle
//! (Matchstick Rotation's is VisGym's information-revealing one: two compass probes,
//! then the aligning move) and a random attempt that stops short. Deterministic: the
//! committed `bench/suites/visgym/v3.json` is `build()`'s output (v1, the synthetic
//! environments alone, and v2, without the robot arm, are frozen).

mod recipes;

use serde_json::{Map, Value};

use crate::agents::{OracleAgent, RandomAgent};
use crate::episode::{run_episode, EpisodeRecord};
use crate::task::{
    DemoClip, Dynamics, Memory, PassCondition, ScoreRule, Suite, Tags, Task, TaskError,
    SUITE_FORMAT, TASK_FORMAT,
};
use recipes::{budget, Recipe, DEMO_SEED_OFFSET, SEEDS};

pub const SUITE_ID: &str = "visgym";
pub const SUITE_VERSION: u32 = 3;
/// The solver's demonstration may take this many actions (Matchstick Equation's
/// detours run up to 80).
const DEMO_CAP: u32 = 100;
/// A failed attempt shows at most this many decisions.
const FAILURE_CLIP: u32 = 12;

fn error(field: String, message: impl Into<String>) -> TaskError {
    TaskError {
        field,
        message: message.into(),
    }
}

/// The constructor kwargs of puzzle `seed`: an image environment's bundled set, named,
/// and the constructor seed that fixes its sample order; none for the others.
fn kwargs(r: &Recipe, seed: u64) -> Map<String, Value> {
    let mut kwargs = Map::new();
    if let Some(bundle) = r.bundle {
        kwargs.insert("sample_dir".into(), bundle.name.into());
        kwargs.insert("seed".into(), seed.into());
    }
    kwargs
}

fn skeleton(r: &Recipe, level: &str, seed: u64) -> Result<Task, TaskError> {
    let id = format!("{}/{level}", r.name);
    let kwargs = kwargs(r, seed);
    let env = envs::make(&id, &kwargs).map_err(|e| error("env".into(), e.to_string()))?;
    let actions = env.action_names();
    let words = env.words();
    let max_steps = budget(level);
    Ok(Task {
        format: TASK_FORMAT.to_string(),
        id: format!("{}-{level}-s{seed}", r.name.replace('_', "-")),
        title: format!("{}, {level} (puzzle {seed})", r.title),
        env: id,
        kwargs,
        seed,
        init_skip: 0,
        prefix: Vec::new(),
        max_steps,
        frame_skip: 1,
        action_steps: 1,
        noop: None,
        hide_reward: true,
        rules: format!(
            "{}. Only the stop action ends the episode, and it succeeds only when the \
             puzzle is solved; {max_steps} actions at most.",
            words.goal
        ),
        demos: vec![DemoClip {
            label: "placeholder".into(),
            kwargs: None,
            seed,
            init_skip: None,
            prefix: Vec::new(),
            actions: vec![actions[0].clone()],
        }],
        actions,
        pass: PassCondition::ReachGoal,
        score: ScoreRule::EnvScore,
        tags: Tags {
            family: r.family.to_string(),
            memory: if r.memory {
                Memory::Multiple
            } else {
                Memory::Single
            },
            dynamics: Dynamics::Static,
            extra: [Some("visgym"), Some(level), r.physics.then_some("physics")]
                .into_iter()
                .flatten()
                .map(String::from)
                .collect(),
        },
        trials: None,
        recorded_oracle: Vec::new(),
    })
}

fn actions_of(record: &EpisodeRecord) -> Vec<String> {
    record.decisions.iter().map(|d| d.action.clone()).collect()
}

/// The reference solver on the first puzzle from `seed + DEMO_SEED_OFFSET` on that it
/// solves, and a seeded random attempt on the same puzzle that ends without success.
fn demos(r: &Recipe, task: &Task) -> Result<Vec<DemoClip>, TaskError> {
    for k in 0..20 {
        let mut t = task.clone();
        t.seed = task.seed + DEMO_SEED_OFFSET + k;
        t.kwargs = kwargs(r, t.seed);
        t.max_steps = DEMO_CAP;
        let expert = run_episode(&t, &mut OracleAgent::new())?;
        if !expert.passed {
            continue;
        }
        let clip_kwargs = (t.kwargs != task.kwargs).then(|| t.kwargs.clone());
        let mut out = vec![DemoClip {
            label: "the solver on another puzzle".into(),
            kwargs: clip_kwargs.clone(),
            seed: t.seed,
            init_skip: None,
            prefix: Vec::new(),
            actions: actions_of(&expert),
        }];
        t.max_steps = FAILURE_CLIP;
        for r in 0..50 {
            let record = run_episode(&t, &mut RandomAgent::new(5000 + r))?;
            if !record.passed && !record.decisions.is_empty() {
                out.push(DemoClip {
                    label: "an attempt that fails".into(),
                    kwargs: clip_kwargs,
                    seed: t.seed,
                    init_skip: None,
                    prefix: Vec::new(),
                    actions: actions_of(&record),
                });
                break;
            }
        }
        return Ok(out);
    }
    Err(error(
        format!("{}.demos", task.id),
        "the solver solves none of the demonstration puzzles",
    ))
}

/// Generates the suite.
pub fn build() -> Result<Suite, TaskError> {
    let mut tasks = Vec::new();
    for r in recipes::all() {
        for level in ["easy", "hard"] {
            for seed in 0..SEEDS {
                let mut task = skeleton(&r, level, seed)?;
                task.demos = demos(&r, &task)?;
                task.validate()
                    .map_err(|e| error(format!("{}.{}", task.id, e.field), e.message))?;
                tasks.push(task);
            }
        }
    }
    Ok(Suite {
        format: SUITE_FORMAT.to_string(),
        id: SUITE_ID.to_string(),
        version: SUITE_VERSION,
        description: "VisGym's seven synthetic puzzles, its eight on pictures, clips and \
            3-D models (Playbench's bundled sets, named in each task's kwargs) and its two \
            robot-arm tasks (Fetch Reach and Pick-and-Place, simulated by MuJoCo) at both \
            levels, ten puzzles each, under VisGym's rules: 20 actions on easy and 30 on \
            hard, success only by stopping on a solved puzzle (the pass rate is VisGym's \
            success rate), and a 0-100 score with partial credit for the way covered \
            toward the solution. Play them with the VisGym protocol (`--protocol visgym`) \
            for VisGym's own harness."
            .into(),
        tasks,
    })
}
