//! The generator shared by the suites built in V-ICAL's style (`playbench-core`,
//! `vical`): a list of [`recipe::Recipe`]s becomes tasks by running the oracle. Budgets
//! and reference targets are calibrated on the oracle's episodes, the success
//! demonstrations are the oracle's, and failure demonstrations are seeded random
//! episodes that end badly. Deterministic: the same recipes always give the same tasks.

pub mod recipe;

use serde_json::Value;

use crate::agents::{OracleAgent, RandomAgent};
use crate::demo::clip_frame_count;
use crate::episode::{run_episode, Agent, EpisodeRecord, EpisodeRunner};
use crate::task::{
    DemoClip, Milestone, PassCondition, RatioValue, ScoreRule, Suite, Tags, Task, TaskError,
    SUITE_FORMAT, TASK_FORMAT,
};
use recipe::{Kind, Recipe};

/// What differs between the suites that share this generator.
pub struct Style {
    /// Survival and score tasks run the oracle within the task's budget for their
    /// demonstrations and mid-route starts (`false`: a 400-decision run, as
    /// `playbench-core` v1 was built; its last decisions are shown).
    pub bounded_survival_runs: bool,
}

/// Decisions per task, as in V-ICAL ("most horizons at most about 100 decisions").
const BUDGET_CAP: u32 = 100;
/// A demonstration context stays within 10-80 frames: the success clip at most this
/// many decisions, the failure clip at most `FAILURE_CLIP` (each adds 2 frames).
const SUCCESS_CLIP: usize = 48;
const FAILURE_CLIP: usize = 24;
/// Decisions the oracle may take to reach a goal while calibrating.
const LONG_RUN: u32 = 400;

/// An oracle run from a task's start: its actions and record.
fn oracle_run(task: &Task) -> Result<(Vec<String>, EpisodeRecord), TaskError> {
    let record = run_episode(task, &mut OracleAgent::new())?;
    let actions = record.decisions.iter().map(|d| d.action.clone()).collect();
    Ok((actions, record))
}

/// The MiniGrid events the oracle passes, in order of first appearance.
fn milestones_on_the_way(task: &Task, actions: &[String]) -> Result<Vec<String>, TaskError> {
    let mut runner = EpisodeRunner::start(task)?;
    let mut seen: Vec<String> = Vec::new();
    for a in actions {
        let Some(i) = runner.action_index(a) else {
            break;
        };
        if runner.apply(i, None, Vec::new()).is_err() {
            break;
        }
        for e in &runner.progress().events {
            if !seen.contains(e) {
                seen.push(e.clone());
            }
        }
    }
    Ok(seen)
}

fn skeleton(r: &Recipe, seed: u64) -> Result<Task, TaskError> {
    let env = envs::make(r.env, &r.kwargs).map_err(|e| TaskError {
        field: "env".into(),
        message: e.to_string(),
    })?;
    let pass = match r.kind {
        Kind::Survive | Kind::SurviveForReward => PassCondition::Survive,
        Kind::Balance | Kind::Reward => PassCondition::ScoreAtLeast {
            threshold: r.pass_score,
        },
        _ => PassCondition::ReachGoal,
    };
    let actions = match &r.actions {
        Some(names) => names.iter().map(|n| n.to_string()).collect(),
        None => env.action_names(),
    };
    Ok(Task {
        format: TASK_FORMAT.to_string(),
        id: format!("{}-s{seed}", r.slug),
        title: format!("{} (seed {seed})", r.title),
        env: r.env.to_string(),
        kwargs: r.kwargs.clone(),
        seed,
        init_skip: 0,
        prefix: Vec::new(),
        max_steps: r.budget.unwrap_or(BUDGET_CAP),
        frame_skip: r.frame_skip,
        // By default the chosen action holds for the whole decision (the no-op fills
        // nothing).
        action_steps: r.action_steps.unwrap_or(r.frame_skip),
        noop: env
            .noop()
            .filter(|_| r.frame_skip > 1)
            .and_then(|i| env.action_names().get(i).cloned()),
        hide_reward: true,
        rules: String::new(),
        // Filled in below; validation wants at least one clip.
        demos: vec![DemoClip {
            label: "placeholder".into(),
            kwargs: None,
            seed,
            init_skip: None,
            prefix: Vec::new(),
            actions: vec![actions[0].clone()],
        }],
        actions,
        pass,
        score: ScoreRule::Navigation { reference_steps: 1 },
        tags: Tags {
            family: r.family.clone(),
            memory: r.memory,
            dynamics: r.dynamics,
            extra: r.extra_tags.iter().map(|t| t.to_string()).collect(),
        },
        trials: None,
        recorded_oracle: Vec::new(),
    })
}

fn mean_return(task: &Task, agent: &mut dyn Agent, runs: u64) -> Result<f64, TaskError> {
    let mut total = 0.0;
    for _ in 0..runs {
        total += run_episode(task, agent)?.progress.total_reward;
    }
    Ok(total / runs as f64)
}

/// Shortens a survival budget that would outlast the environment's own time limit
/// from this start (a mid-route start of a timed drive), so that lasting the budget
/// stays possible; `false` when the oracle does not survive it.
fn fit_budget_to_the_environment(task: &mut Task) -> Result<bool, TaskError> {
    let (_, record) = oracle_run(task)?;
    if record.progress.terminated {
        return Ok(false);
    }
    let played = record.decisions.len() as u32;
    let truncated = record.decisions.last().is_some_and(|d| d.truncated);
    if truncated && played < task.max_steps {
        task.max_steps = played;
    }
    Ok(true)
}

/// Sets the budget, score rule and rules text from the oracle's run; `None` when the
/// oracle cannot pass the task (it is then left out).
fn calibrate(r: &Recipe, mut task: Task) -> Result<Option<Task>, TaskError> {
    match r.kind {
        Kind::Survive => {
            if !fit_budget_to_the_environment(&mut task)? {
                return Ok(None);
            }
            task.score = ScoreRule::CappedRatio {
                value: RatioValue::StepsSurvived,
                floor: 0.0,
                reference: f64::from(task.max_steps * task.frame_skip),
            };
        }
        Kind::Balance => {
            let floor = mean_return(&task, &mut RandomAgent::new(task.seed), 5)?;
            let (_, oracle) = oracle_run(&task)?;
            task.score = ScoreRule::CappedRatio {
                value: RatioValue::Return,
                floor,
                reference: oracle.progress.total_reward,
            };
        }
        Kind::SurviveForReward | Kind::Reward => {
            if r.kind == Kind::SurviveForReward && !fit_budget_to_the_environment(&mut task)? {
                return Ok(None);
            }
            // V-ICAL's capped reward ratio: 100 × min(max(return, 0) / reference, 1),
            // the reference being the oracle's return on this very task.
            let (_, oracle) = oracle_run(&task)?;
            if oracle.progress.total_reward <= 0.0 {
                return Ok(None);
            }
            task.score = ScoreRule::CappedRatio {
                value: RatioValue::Return,
                floor: 0.0,
                reference: oracle.progress.total_reward,
            };
        }
        _ => {
            task.max_steps = LONG_RUN;
            let (actions, record) = oracle_run(&task)?;
            if !record.passed {
                return Ok(None);
            }
            let steps = actions.len() as u32;
            task.max_steps = (steps * 2).max(steps + 10).min(BUDGET_CAP.max(steps + 10));
            task.score = match r.kind {
                Kind::Taxi => ScoreRule::Taxi {
                    reference_steps: steps,
                },
                Kind::Progress => ScoreRule::Progress {
                    reference_steps: steps,
                },
                Kind::Milestones => {
                    let events = milestones_on_the_way(&task, &actions)?;
                    let n = events.len() as f64;
                    let milestones = events
                        .into_iter()
                        .enumerate()
                        .map(|(i, event)| Milestone {
                            event,
                            points: (60.0 * (i as f64 + 1.0) / n).round(),
                        })
                        .collect();
                    ScoreRule::Milestones {
                        milestones,
                        reference_steps: steps,
                    }
                }
                _ => ScoreRule::Navigation {
                    reference_steps: steps,
                },
            };
        }
    }
    let (_, check) = oracle_run(&task)?;
    if !check.passed {
        return Ok(None);
    }
    Ok(Some(task))
}

fn rules_text(r: &Recipe, task: &Task) -> Result<String, TaskError> {
    let mut parts = Vec::new();
    let runner = EpisodeRunner::start(task)?;
    if let Some(mission) = runner.env().mission() {
        parts.push(format!("Mission: {mission}."));
    }
    if !r.rules.is_empty() {
        parts.push(r.rules.to_string());
    }
    parts.push(match &task.pass {
        PassCondition::ReachGoal => format!(
            "You pass by reaching the goal within {} decisions.",
            task.max_steps
        ),
        PassCondition::Survive => format!("You pass by lasting all {} decisions.", task.max_steps),
        PassCondition::ScoreAtLeast { threshold } if r.kind == Kind::Reward => format!(
            "Your score is the game's points over {} decisions as a share of an expert's \
             on the same start; you pass at {threshold} of 100.",
            task.max_steps
        ),
        PassCondition::ScoreAtLeast { .. } => {
            format!("You are scored over {} decisions.", task.max_steps)
        }
    });
    if task.frame_skip > 1 && task.action_steps < task.frame_skip {
        parts.push(format!(
            "Each decision lasts {} game steps: your action plays in the first {} and nothing in the rest.",
            task.frame_skip, task.action_steps
        ));
    } else if task.frame_skip > 1 {
        parts.push(format!(
            "Each decision lasts {} physics steps.",
            task.frame_skip
        ));
    }
    Ok(parts.join(" "))
}

fn clip(label: &str, seed: u64, prefix: Vec<String>, actions: Vec<String>) -> DemoClip {
    DemoClip {
        label: label.to_string(),
        kwargs: None,
        seed,
        init_skip: None,
        prefix,
        actions,
    }
}

/// A success clip from the oracle (its last `SUCCESS_CLIP` decisions when longer) and
/// a failure clip from a seeded random episode that ends badly, when one is found.
fn demos(task: &Task, style: &Style) -> Result<Vec<DemoClip>, TaskError> {
    let mut out = Vec::new();
    let survival = matches!(
        task.pass,
        PassCondition::Survive | PassCondition::ScoreAtLeast { .. }
    );
    for k in 0..20 {
        let seed = 1000 + task.seed * 37 + k;
        let mut t = task.clone();
        t.seed = seed;
        t.prefix.clear();
        t.max_steps = if survival && style.bounded_survival_runs {
            task.max_steps
        } else {
            LONG_RUN
        };
        let (actions, record) = oracle_run(&t)?;
        if actions.is_empty() || (!record.passed && !survival) {
            continue;
        }
        let keep = actions.len().min(SUCCESS_CLIP);
        let (prefix, shown) = actions.split_at(actions.len() - keep);
        out.push(clip(
            "the oracle succeeding",
            seed,
            prefix.to_vec(),
            shown.to_vec(),
        ));
        break;
    }
    for k in 0..50 {
        let seed = 5000 + task.seed * 37 + k;
        let mut t = task.clone();
        t.seed = seed;
        t.prefix.clear();
        t.max_steps = FAILURE_CLIP as u32;
        let record = run_episode(&t, &mut RandomAgent::new(seed))?;
        if record.progress.terminated && !record.progress.success && !record.decisions.is_empty() {
            let actions = record.decisions.iter().map(|d| d.action.clone()).collect();
            out.push(clip("a failure", seed, Vec::new(), actions));
            break;
        }
    }
    // Short tasks get more successes (other seeds) until the context has 10 frames.
    for k in 20..40 {
        if out.len() >= 4 || clips_frames(task, &out)? >= 10 {
            break;
        }
        let seed = 1000 + task.seed * 37 + k;
        let mut t = task.clone();
        t.seed = seed;
        t.prefix.clear();
        t.max_steps = SUCCESS_CLIP as u32;
        let (actions, record) = oracle_run(&t)?;
        if record.passed && !actions.is_empty() {
            out.insert(1, clip("the oracle succeeding", seed, Vec::new(), actions));
        }
    }
    if out.len() < 2 {
        // No quick failure exists (or no success was short enough): show the dynamics.
        let seed = 9000 + task.seed;
        let mut t = task.clone();
        t.seed = seed;
        t.prefix.clear();
        t.max_steps = 12;
        let record = run_episode(&t, &mut RandomAgent::new(seed))?;
        out.push(clip(
            "random actions",
            seed,
            Vec::new(),
            record.decisions.iter().map(|d| d.action.clone()).collect(),
        ));
    }
    Ok(out)
}

fn finish(r: &Recipe, task: Option<Task>, style: &Style) -> Result<Option<Task>, TaskError> {
    let Some(mut task) = task else {
        return Ok(None);
    };
    task.rules = rules_text(r, &task)?;
    task.demos = demos(&task, style)?;
    task.validate().map_err(|e| TaskError {
        field: format!("{}.{}", task.id, e.field),
        message: e.message,
    })?;
    Ok(Some(task))
}

/// The tasks of one recipe: one per seed, and mid-route variants for the first seeds.
fn tasks_of(r: &Recipe, style: &Style) -> Result<Vec<Task>, TaskError> {
    let mut out = Vec::new();
    for (i, &seed) in r.seeds.iter().enumerate() {
        let Some(task) = calibrate(r, skeleton(r, seed)?)? else {
            continue;
        };
        if i < r.initialized {
            let mut t = task.clone();
            if !(r.kind.is_survival() && style.bounded_survival_runs) {
                t.max_steps = LONG_RUN;
            }
            let (actions, _) = oracle_run(&t)?;
            if actions.len() >= 4 {
                let mut init = skeleton(r, seed)?;
                init.id = format!("{}-s{seed}-mid", r.slug);
                init.title = format!("{} (seed {seed}, starting mid-route)", r.title);
                init.prefix = actions[..actions.len() / 2].to_vec();
                init.tags.extra.push("initialized".into());
                if let Some(init) = finish(r, calibrate(r, init)?, style)? {
                    out.push(init);
                }
            }
        }
        if let Some(task) = finish(r, Some(task), style)? {
            out.push(task);
        }
    }
    Ok(out)
}

/// Generates a suite from `recipes`, in their order (slow-ish: it runs the oracle on
/// every task).
pub fn build(
    id: &str,
    version: u32,
    description: &str,
    recipes: &[Recipe],
    style: &Style,
) -> Result<Suite, TaskError> {
    let mut tasks = Vec::new();
    for r in recipes {
        let mut ts = tasks_of(r, style)?;
        // Seed tasks first, then their mid-route variants, as listed.
        ts.sort_by_key(|t| t.id.ends_with("-mid"));
        tasks.extend(ts);
    }
    Ok(Suite {
        format: SUITE_FORMAT.to_string(),
        id: id.to_string(),
        version,
        description: description.to_string(),
        tasks,
    })
}

fn clips_frames(task: &Task, clips: &[DemoClip]) -> Result<usize, TaskError> {
    clips.iter().map(|c| clip_frame_count(task, c)).sum()
}

/// The suite as the committed JSON text.
pub fn to_json(suite: &Suite) -> String {
    let mut s = serde_json::to_string_pretty(&serde_json::to_value(suite).unwrap_or(Value::Null))
        .unwrap_or_default();
    s.push('\n');
    s
}
