//! The built-in suite `gameverse`: GameVerse's open games under its own rules — step
//! caps, malformed moves with the game's fixed consequence, the game's normalized
//! 0-100 score — with the oracle's play as the expert demonstration (GameVerse's
//! tutorial videos cannot be shipped; a silent expert clip of the same game stands in)
//! and a random episode that ends badly. Deterministic: `build()` always returns the
//! same suite, and the committed `bench/suites/gameverse/v3.json` is its output (v1 and
//! v2 are frozen files).

mod recipes;

use crate::agents::{OracleAgent, RandomAgent};
use crate::episode::{run_episode, EpisodeRecord};
use crate::task::{
    DemoClip, Dynamics, Memory, PassCondition, ScoreRule, Suite, Tags, Task, TaskError,
    SUITE_FORMAT, TASK_FORMAT,
};
use recipes::Recipe;

pub const SUITE_ID: &str = "gameverse";
pub const SUITE_VERSION: u32 = 3;
/// A failure clip shows at most this many decisions.
const FAILURE_CLIP: u32 = 24;

fn skeleton(r: &Recipe) -> Result<Task, TaskError> {
    let env = envs::make(r.env, &r.kwargs).map_err(|e| TaskError {
        field: "env".into(),
        message: e.to_string(),
    })?;
    let actions = env.action_names();
    let rules = [
        sentence(env.mission().unwrap_or_default()),
        r.rules.to_string(),
    ]
    .into_iter()
    .filter(|s| !s.is_empty())
    .collect::<Vec<_>>()
    .join(" ");
    Ok(Task {
        format: TASK_FORMAT.to_string(),
        id: r.slug.clone(),
        title: r.title.clone(),
        env: r.env.to_string(),
        kwargs: r.kwargs.clone(),
        seed: r.seed,
        init_skip: 0,
        prefix: Vec::new(),
        max_steps: r.step_cap,
        frame_skip: 1,
        action_steps: 1,
        noop: None,
        hide_reward: true,
        rules,
        demos: vec![DemoClip {
            label: "placeholder".into(),
            kwargs: None,
            seed: r.seed,
            init_skip: None,
            prefix: Vec::new(),
            actions: vec![actions[0].clone()],
        }],
        actions,
        pass: PassCondition::ScoreAtLeast {
            threshold: r.pass_score,
        },
        score: ScoreRule::EnvScore,
        tags: Tags {
            family: r.family.to_string(),
            memory: Memory::Single,
            dynamics: if env.clock().is_some() {
                Dynamics::Dynamic
            } else {
                Dynamics::Static
            },
            extra: vec!["gameverse".into()],
        },
        trials: (r.trials > 1).then_some(r.trials),
        recorded_oracle: Vec::new(),
    })
}

/// `text` ending with a full stop (a mission is a phrase; the rules follow it).
fn sentence(text: String) -> String {
    match text.trim_end().chars().last() {
        None => String::new(),
        Some('.' | '!' | '?') => text,
        Some(_) => format!("{}.", text.trim_end()),
    }
}

fn actions_of(record: &EpisodeRecord) -> Vec<String> {
    record.decisions.iter().map(|d| d.action.clone()).collect()
}

/// The expert's clip (the oracle from the task's start) and a seeded random episode
/// that loses.
fn demos(task: &Task, demo_cap: usize) -> Result<Vec<DemoClip>, TaskError> {
    let expert = run_episode(task, &mut OracleAgent::new())?;
    if !expert.passed {
        return Err(TaskError {
            field: format!("{}.demos", task.id),
            message: format!("the oracle does not pass (score {})", expert.score),
        });
    }
    let mut shown = actions_of(&expert);
    shown.truncate(demo_cap);
    let mut out = vec![DemoClip {
        label: "the expert playing".into(),
        kwargs: None,
        seed: task.seed,
        init_skip: None,
        prefix: Vec::new(),
        actions: shown,
    }];
    for k in 0..50 {
        let mut t = task.clone();
        t.max_steps = t.max_steps.min(FAILURE_CLIP);
        let record = run_episode(&t, &mut RandomAgent::new(5000 + k))?;
        if !record.passed && record.progress.terminated && !record.decisions.is_empty() {
            out.push(DemoClip {
                label: "a loss".into(),
                kwargs: None,
                seed: task.seed,
                init_skip: None,
                prefix: Vec::new(),
                actions: actions_of(&record),
            });
            break;
        }
    }
    Ok(out)
}

/// Generates the suite.
pub fn build() -> Result<Suite, TaskError> {
    let mut tasks = Vec::new();
    for r in recipes::all() {
        let mut task = skeleton(&r)?;
        task.demos = demos(&task, r.demo_cap)?;
        task.validate().map_err(|e| TaskError {
            field: format!("{}.{}", task.id, e.field),
            message: e.message,
        })?;
        tasks.push(task);
    }
    Ok(Suite {
        format: SUITE_FORMAT.to_string(),
        id: SUITE_ID.to_string(),
        version: SUITE_VERSION,
        description: "GameVerse's open games under GameVerse's rules: its step caps, its \
            consequences for malformed moves and its normalized 0-100 scores, with the \
            oracle's play as the expert demonstration."
            .into(),
        tasks,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::RandomAgent;
    use crate::episode::run_episode;

    fn suite() -> &'static Suite {
        crate::suites::latest(SUITE_ID).unwrap()
    }

    fn tasks_of(env: &str) -> Vec<&'static Task> {
        suite().tasks.iter().filter(|t| t.env == env).collect()
    }

    /// GameVerse's settings and trials: Tic-Tac-Toe 10 as X and 10 as O, 2048 five
    /// trials, Maze ten, Snake ten per latency mode; each in both action modes.
    #[test]
    fn every_game_has_gameverse_settings_and_trials() {
        let trials = |ts: &[&Task]| ts.iter().map(|t| t.trial_count()).sum::<u32>();
        let ttt = tasks_of("GameVerse/TicTacToe");
        assert_eq!((ttt.len(), trials(&ttt)), (4, 40));
        let gui = suite().task("tic-tac-toe-o-gui").unwrap();
        assert_eq!(
            (
                gui.kwargs["action_mode"].as_str(),
                gui.kwargs["player_mark"].as_str()
            ),
            (Some("gui"), Some("O"))
        );
        assert!(gui.actions[4].contains("\"CLICK\""), "{:?}", gui.actions);
        for (env, cap, per_mode) in [("GameVerse/2048", 1000, 5), ("GameVerse/Maze", 20, 10)] {
            let ts = tasks_of(env);
            assert_eq!(
                (ts.len(), trials(&ts)),
                (2 * per_mode, 2 * per_mode as u32),
                "{env}"
            );
            assert!(ts.iter().all(|t| t.max_steps == cap), "{env}");
            let gui = ts
                .iter()
                .filter(|t| t.kwargs.get("action_mode").is_some())
                .count();
            assert_eq!(gui, per_mode, "{env}");
            let seeds: std::collections::BTreeSet<u64> = ts.iter().map(|t| t.seed).collect();
            assert_eq!(seeds.len(), per_mode, "{env}: one seed per trial");
        }
        let snake = tasks_of("GameVerse/Snake");
        assert_eq!((snake.len(), trials(&snake)), (6, 60));
        for t in &snake {
            let real_time = t.kwargs.contains_key("latency");
            assert_eq!(t.tags.dynamics == Dynamics::Dynamic, real_time, "{}", t.id);
            assert_eq!((t.seed, t.max_steps), (42, 100), "{}", t.id);
        }
        let normal = suite().task("snake-normal").unwrap();
        assert_eq!(normal.kwargs["latency"], "normal");
        // Rules are sentences after the game's own task text.
        let maze = suite().task("maze-s1").unwrap();
        assert!(
            maze.rules
                .starts_with("Navigate the ball to the red flag. A reply"),
            "{}",
            maze.rules
        );
    }

    /// A representative slice (the whole suite is `playbench suite --check`'s, in a
    /// release build): the oracle passes, the random policy does not.
    #[test]
    fn the_oracle_passes_and_random_play_does_not() {
        for id in [
            "tic-tac-toe-o",
            "tic-tac-toe-x-gui",
            "maze-gui-s3",
            "snake-normal",
        ] {
            let task = suite().task(id).unwrap();
            let oracle = run_episode(task, &mut crate::agents::OracleAgent::new()).unwrap();
            assert!(oracle.passed, "{id}: {}", oracle.score);
            let random = run_episode(task, &mut RandomAgent::new(0)).unwrap();
            assert!(!random.passed, "{id}");
        }
    }
}
