//! A task's budget, pass condition, score rule and tags in plain words, as the suite and
//! task pages show them (e.g. "Reach the goal; 70 + 30 × efficiency vs. the oracle's 12
//! decisions; partial credit by distance closed").

use bench::task::{Dynamics, Memory, RatioValue};
use bench::{PassCondition, ScoreRule, Task};

/// A number as people read it: whole numbers plainly, others with one decimal.
pub fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// What the environment's success event is, as an instruction (its `Env::words`).
pub fn goal_words(env_id: &str) -> &'static str {
    envs::make_default(env_id).map_or(envs::core::env::Words::default().goal, |e| e.words().goal)
}

/// The pass condition, e.g. "Reach the goal" or "Last all 100 decisions without the
/// episode ending".
pub fn pass_text(task: &Task) -> String {
    match &task.pass {
        PassCondition::ReachGoal => goal_words(&task.env).to_string(),
        PassCondition::Survive => format!(
            "Last all {} without the episode ending",
            plural(u64::from(task.max_steps), "decision", "decisions")
        ),
        PassCondition::ScoreAtLeast { threshold } => {
            format!("Score at least {} of 100", number(*threshold))
        }
    }
}

fn success_words(reference_steps: u32) -> String {
    format!(
        "70 + 30 × efficiency vs. the oracle's {} (this task's seed)",
        plural(u64::from(reference_steps), "decision", "decisions")
    )
}

/// The score rule, e.g. "70 + 30 × efficiency vs. the oracle's 12 decisions (this
/// task's seed); partial credit by distance closed". The seed is said because the
/// demonstrations beside it play other seeds, with other decision counts.
pub fn score_text(rule: &ScoreRule) -> String {
    match rule {
        ScoreRule::Navigation { reference_steps } => format!(
            "{}; partial credit by distance closed (up to 70)",
            success_words(*reference_steps)
        ),
        ScoreRule::Taxi { reference_steps } => format!(
            "{} on delivery; 30 for picking the passenger up",
            success_words(*reference_steps)
        ),
        ScoreRule::Milestones {
            milestones,
            reference_steps,
        } => {
            let steps = milestones
                .iter()
                .map(|m| format!("{} {}", m.event, number(m.points)))
                .collect::<Vec<_>>();
            if steps.is_empty() {
                success_words(*reference_steps)
            } else {
                format!(
                    "{}; partial credit by the best milestone reached: {}",
                    success_words(*reference_steps),
                    steps.join(", ")
                )
            }
        }
        ScoreRule::Progress { reference_steps } => format!(
            "{}; partial credit by the best progress toward the goal (up to 70)",
            success_words(*reference_steps)
        ),
        ScoreRule::EnvScore => {
            "the game's own 0-100 score, as its reference benchmark scores it".to_string()
        }
        ScoreRule::CappedRatio {
            value: RatioValue::StepsSurvived,
            floor,
            reference,
        } => {
            if *floor == 0.0 {
                format!("100 × environment steps survived / {}", number(*reference))
            } else {
                format!(
                    "linear in the environment steps survived: 0 at {}, 100 at {}",
                    number(*floor),
                    number(*reference)
                )
            }
        }
        ScoreRule::CappedRatio {
            value: RatioValue::Return,
            floor,
            reference,
        } => format!(
            "linear in the total reward: 0 at {} or less, 100 at {} or more",
            number(*floor),
            number(*reference)
        ),
    }
}

/// Pass condition and score rule in one line.
pub fn judging_text(task: &Task) -> String {
    format!("{}; {}", pass_text(task), score_text(&task.score))
}

/// The decision budget with the frame skip, e.g. "16 decisions, no frame skip" or
/// "100 decisions, frame skip 4 (the action once, then “torque 0”)".
pub fn budget_text(task: &Task) -> String {
    let decisions = plural(u64::from(task.max_steps), "decision", "decisions");
    if task.frame_skip <= 1 {
        return format!("{decisions}, no frame skip");
    }
    let fill = if task.action_steps >= task.frame_skip {
        "the action repeated".to_string()
    } else {
        let noop = task.noop.as_deref().unwrap_or("no-op");
        let times = match task.action_steps {
            1 => "once".to_string(),
            2 => "twice".to_string(),
            n => format!("{n} times"),
        };
        format!("the action {times}, then “{noop}”")
    };
    format!("{decisions}, frame skip {} ({fill})", task.frame_skip)
}

/// Frame skip alone: "frame skip 4" or "no frame skip".
pub fn frame_skip_text(task: &Task) -> String {
    if task.frame_skip <= 1 {
        "no frame skip".to_string()
    } else {
        format!("frame skip {}", task.frame_skip)
    }
}

/// How the episode starts, when it is not a plain reset (initialized variants).
pub fn start_text(task: &Task) -> Option<String> {
    let mut parts = Vec::new();
    if task.init_skip > 0 {
        parts.push(format!(
            "{} after the reset",
            plural(u64::from(task.init_skip), "no-op step", "no-op steps")
        ));
    }
    if !task.prefix.is_empty() {
        parts.push(format!(
            "{} already played",
            plural(task.prefix.len() as u64, "recorded move", "recorded moves")
        ));
    }
    (!parts.is_empty()).then(|| format!("Starts with {}.", parts.join(" and ")))
}

/// Whether the reward is shown while playing.
pub fn reward_text(task: &Task) -> &'static str {
    if task.hide_reward {
        "hidden: progress must be read from the picture"
    } else {
        "shown"
    }
}

pub fn memory_text(m: Memory) -> &'static str {
    match m {
        Memory::Single => "memory: single",
        Memory::Multiple => "memory: multiple",
    }
}

pub fn dynamics_text(d: Dynamics) -> &'static str {
    match d {
        Dynamics::Static => "dynamics: static",
        Dynamics::Dynamic => "dynamics: dynamic",
    }
}

/// Whether a task starts mid-route (V-ICAL's human-initialized variants).
pub fn is_initialized(task: &Task) -> bool {
    task.tags.extra.iter().any(|t| t == "initialized")
}

/// An extra tag for people: the mid-route variants said in words.
pub fn extra_tag_label(tag: &str) -> &str {
    match tag {
        "initialized" => "starts mid-route",
        other => other,
    }
}

/// A results row's name for people (`tag: initialized` reads "starts mid-route");
/// tables, files and URLs keep the names `bench::report::tag_names` gives.
pub fn row_label(name: &str) -> String {
    match name.strip_prefix("tag: ") {
        Some(tag) => extra_tag_label(tag).to_string(),
        None => name.to_string(),
    }
}

/// The tags as chips: family, memory, dynamics, then the extra tags.
pub fn tag_chips(task: &Task) -> Vec<String> {
    let mut chips = vec![
        task.tags.family.clone(),
        memory_text(task.tags.memory).to_string(),
        dynamics_text(task.tags.dynamics).to_string(),
    ];
    chips.extend(
        task.tags
            .extra
            .iter()
            .map(|t| extra_tag_label(t).to_string()),
    );
    chips
}

/// The task's title, or its id when it has none.
pub fn title(task: &Task) -> &str {
    if task.title.trim().is_empty() {
        &task.id
    } else {
        &task.title
    }
}

/// The environment with its kwargs, e.g. `FrozenLake-v1 {"is_slippery":false}`.
pub fn env_text(task: &Task) -> String {
    if task.kwargs.is_empty() {
        task.env.clone()
    } else {
        format!(
            "{} {}",
            task.env,
            serde_json::Value::Object(task.kwargs.clone())
        )
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use bench::task::{Milestone, Tags};

    /// FrozenLake 4x4, not slippery, seed 0: the shortest route is six moves.
    pub fn lake_task_json(id: &str) -> String {
        format!(
            r#"{{
            "id": "{id}", "title": "Frozen Lake 4×4 (not slippery) (seed 0)",
            "env": "FrozenLake-v1", "kwargs": {{"is_slippery": false}}, "seed": 0,
            "max_steps": 16, "rules": "You pass by reaching the goal within 16 decisions.",
            "actions": ["Left", "Down", "Right", "Up"],
            "demos": [
                {{"label": "the oracle succeeding", "seed": 0,
                  "actions": ["Down", "Down", "Right", "Right", "Down", "Right"]}},
                {{"label": "a failure", "seed": 0, "actions": ["Right", "Down"]}}
            ],
            "pass": {{"kind": "reach_goal"}},
            "score": {{"kind": "navigation", "reference_steps": 6}},
            "tags": {{"family": "FrozenLake", "memory": "single", "dynamics": "static"}}
        }}"#
        )
    }

    pub fn lake_task() -> Task {
        Task::from_json(&lake_task_json("frozenlake-4x4-det-s0")).unwrap()
    }

    /// CartPole survival: dynamic, multiple memory, a capped ratio.
    pub fn cart_task() -> Task {
        Task::from_json(
            r#"{
            "id": "cartpole-s1", "title": "Cart Pole (seed 1)",
            "env": "CartPole-v1", "seed": 1, "max_steps": 20,
            "actions": ["push left", "push right"],
            "demos": [{"label": "random actions", "seed": 3,
                       "actions": ["push left", "push right", "push left"]}],
            "pass": {"kind": "survive"},
            "score": {"kind": "capped_ratio", "value": "steps_survived", "floor": 0, "reference": 20},
            "tags": {"family": "CartPole", "memory": "multiple", "dynamics": "dynamic"}
        }"#,
        )
        .unwrap()
    }

    #[test]
    fn navigation_reads_as_the_brief_says() {
        let t = lake_task();
        assert_eq!(
            judging_text(&t),
            "Reach the goal; 70 + 30 × efficiency vs. the oracle's 6 decisions (this task's seed); \
             partial credit by distance closed (up to 70)"
        );
        assert_eq!(budget_text(&t), "16 decisions, no frame skip");
        assert_eq!(frame_skip_text(&t), "no frame skip");
        assert_eq!(start_text(&t), None);
        assert!(reward_text(&t).starts_with("hidden"));
        assert_eq!(
            tag_chips(&t),
            vec!["FrozenLake", "memory: single", "dynamics: static"]
        );
        assert!(!is_initialized(&t));
        assert_eq!(env_text(&t), r#"FrozenLake-v1 {"is_slippery":false}"#);
    }

    #[test]
    fn every_rule_has_words() {
        assert_eq!(
            score_text(&ScoreRule::Taxi { reference_steps: 1 }),
            "70 + 30 × efficiency vs. the oracle's 1 decision (this task's seed) on delivery; 30 for picking the passenger up"
        );
        let m = ScoreRule::Milestones {
            milestones: vec![
                Milestone {
                    event: "pickup yellow key".into(),
                    points: 30.0,
                },
                Milestone {
                    event: "open yellow door".into(),
                    points: 60.0,
                },
            ],
            reference_steps: 12,
        };
        assert!(score_text(&m).ends_with("pickup yellow key 30, open yellow door 60"));
        assert!(score_text(&ScoreRule::Progress { reference_steps: 9 }).contains("progress"));
        let ratio = ScoreRule::CappedRatio {
            value: RatioValue::Return,
            floor: -1234.56,
            reference: -150.0,
        };
        assert_eq!(
            score_text(&ratio),
            "linear in the total reward: 0 at -1234.6 or less, 100 at -150 or more"
        );
        let t = cart_task();
        assert_eq!(
            judging_text(&t),
            "Last all 20 decisions without the episode ending; 100 × environment steps survived / 20"
        );
        assert_eq!(
            goal_words("Taxi-v4"),
            "Deliver the passenger to its destination"
        );
        assert_eq!(
            goal_words("MiniGrid-DoorKey-5x5-v0"),
            "Complete the mission"
        );
        let mut t = lake_task();
        t.pass = PassCondition::ScoreAtLeast { threshold: 70.0 };
        assert_eq!(pass_text(&t), "Score at least 70 of 100");
    }

    #[test]
    fn frame_skip_and_starts() {
        let mut t = cart_task();
        t.frame_skip = 4;
        t.action_steps = 1;
        t.noop = Some("torque 0".into());
        assert_eq!(
            budget_text(&t),
            "20 decisions, frame skip 4 (the action once, then “torque 0”)"
        );
        t.action_steps = 4;
        assert_eq!(
            budget_text(&t),
            "20 decisions, frame skip 4 (the action repeated)"
        );
        assert_eq!(frame_skip_text(&t), "frame skip 4");
        t.prefix = vec!["push left".into(); 3];
        t.init_skip = 1;
        assert_eq!(
            start_text(&t).as_deref(),
            Some("Starts with 1 no-op step after the reset and 3 recorded moves already played.")
        );
        t.tags = Tags {
            extra: vec!["initialized".into()],
            ..t.tags.clone()
        };
        assert!(is_initialized(&t));
        assert_eq!(row_label("tag: initialized"), "starts mid-route");
        assert_eq!(row_label("tag: oracle-demo"), "oracle-demo");
        assert_eq!(row_label("memory: single"), "memory: single");
        assert_eq!(
            tag_chips(&t).last().map(String::as_str),
            Some("starts mid-route")
        );
    }

    #[test]
    fn numbers_and_titles() {
        assert_eq!(number(100.0), "100");
        assert_eq!(number(85.26), "85.3");
        let mut t = lake_task();
        t.title = " ".into();
        assert_eq!(title(&t), "frozenlake-4x4-det-s0");
    }
}
