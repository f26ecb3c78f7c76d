//! What a run on `/reflect` is made of: the task (a GameVerse game, which has
//! reflection prompts), the condition with the paper's labels, the number of attempts
//! and, for the condition `other`, the experience imported from a file, a link or text.

use bench::reflect::import::experience_from;
use bench::reflect::run::game_name;
use bench::reflect::{Condition, ReflectConfig};
use bench::{Suite, Task};

use crate::suite_data::{find_task, suite_for};

/// The most attempts the page runs (the paper plays three).
pub const MAX_ATTEMPTS: u32 = 10;

/// The task of a run and the game's name in the reflection prompts.
#[derive(Clone, Debug)]
pub struct ReflectTarget {
    pub suite: &'static Suite,
    pub task: &'static Task,
    pub game: String,
}

impl PartialEq for ReflectTarget {
    fn eq(&self, other: &Self) -> bool {
        self.suite.id == other.suite.id && self.task.id == other.task.id
    }
}

/// The task a `/reflect?suite=S&task=ID` link names, if it can be reflected on.
pub fn resolve(suite: Option<&str>, task: Option<&str>) -> Result<ReflectTarget, String> {
    let id = task
        .filter(|t| !t.trim().is_empty())
        .ok_or("Name a task: /reflect?suite=gameverse&task=ID (GameVerse's games have a \"Reflect and retry\" link on their task page).")?;
    let suite = suite_for(suite).map_err(|e| e.to_string())?;
    let task = find_task(suite, id).map_err(|e| e.to_string())?;
    let game = game_name(task)?;
    Ok(ReflectTarget { suite, task, game })
}

/// Whether a task's page links to `/reflect` (its game has reflection prompts).
pub fn can_reflect(task: &Task) -> bool {
    game_name(task).is_ok()
}

/// The conditions as the form offers them: the paper's label and what it means.
pub fn condition_choices() -> Vec<(Condition, String)> {
    Condition::ALL
        .into_iter()
        .map(|c| {
            let what = match c {
                Condition::None => "no reflection: the attempts are independent",
                Condition::Failure => "the model analyses its failed attempt's video",
                Condition::Tutorial => "the model watches the expert tutorial",
                Condition::Both => "failure analysis, then the tutorial with it in context",
                Condition::Other => "another model's experience, imported",
            };
            (c, format!("{} — {what}", c.label()))
        })
        .collect()
}

/// The attempts field's number.
pub fn parse_attempts(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(n) if (1..=MAX_ATTEMPTS).contains(&n) => Ok(n),
        _ => Err(format!(
            "Attempts: a whole number from 1 to {MAX_ATTEMPTS} (the paper plays 3)."
        )),
    }
}

/// The run's settings from the form: `import` is the pasted or dropped experience for
/// the condition `other` (GameVerse's experience file, a run of attempts as a file or
/// link, or plain text).
pub fn config(condition: Condition, attempts: &str, import: &str) -> Result<ReflectConfig, String> {
    let attempts = parse_attempts(attempts)?;
    let imported = match condition {
        Condition::Other => {
            Some(experience_from(import).map_err(|e| format!("The experience to import: {e}."))?)
        }
        _ => None,
    };
    Ok(ReflectConfig {
        condition,
        attempts,
        imported,
        ..ReflectConfig::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gameverse_tasks_resolve_and_others_say_why_not() {
        let t = resolve(Some("gameverse"), Some("maze-s1")).unwrap();
        assert_eq!(t.task.id, "maze-s1");
        assert_eq!(t.game, "Maze");
        assert!(can_reflect(t.task));
        let e = resolve(None, Some("frozenlake-4x4-det-s0")).unwrap_err();
        assert!(e.contains("no reflection prompts"), "{e}");
        assert!(resolve(Some("gameverse"), None)
            .unwrap_err()
            .starts_with("Name a task"));
        assert!(resolve(Some("gameverse"), Some("nope")).is_err());
    }

    #[test]
    fn the_form_becomes_a_config_or_a_clear_error() {
        let labels: Vec<String> = condition_choices()
            .iter()
            .map(|(_, l)| l.split(' ').next().unwrap().to_string())
            .collect();
        assert_eq!(labels, ["No", "Self-F", "Self-T", "Self", "Other"]);
        let c = config(Condition::Both, " 3 ", "").unwrap();
        assert_eq!(
            (c.attempts, c.condition, c.imported),
            (3, Condition::Both, None)
        );
        assert!(config(Condition::Both, "0", "")
            .unwrap_err()
            .starts_with("Attempts"));
        assert!(config(Condition::Both, "x", "").is_err());
        assert!(config(Condition::Both, "11", "").is_err());
        let e = config(Condition::Other, "3", " ").unwrap_err();
        assert!(e.contains("empty"), "{e}");
        let c = config(Condition::Other, "2", "Go down first.").unwrap();
        assert_eq!(c.imported, Some(("Go down first.".into(), "a text".into())));
    }
}
