//! Continuing an episode from one of its decisions (`/task/play?fork=T#e=pb1.…`): the
//! forked task (`bench::results::fork_task`: the first `T` decisions join the
//! prefix, the budget shrinks by `T`), what the page says about where it comes from, and
//! how the new episode records it.

use bench::results::fork_task;
use bench::share::{EpisodeFile, TaskRef};
use bench::Task;
use serde_json::{json, Map, Value};

/// The settings key recording a fork's origin in the new episode file.
pub const FORKED_FROM: &str = "forked_from";

/// Where a forked task comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForkOrigin {
    /// The episode's task id (before forking).
    pub task: String,
    /// The built-in suite the task is from (`None` for a task the file carried).
    pub suite: Option<String>,
    pub agent: String,
    /// Decisions of the episode replayed before the fork.
    pub step: usize,
    /// Decisions in the whole episode.
    pub decisions: usize,
}

impl ForkOrigin {
    /// "Continued from decision 2 of 6 of an episode of TASK played by AGENT."
    pub fn text(&self) -> String {
        let from = match self.step {
            0 => "from the start".to_string(),
            s => format!("from decision {s} of {}", self.decisions),
        };
        format!(
            "A fork: continued {from} of an episode of {} played by {}.",
            self.task, self.agent
        )
    }

    /// The run settings of an episode played from this fork.
    pub fn settings(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert(
            FORKED_FROM.into(),
            json!({"task": self.task, "agent": self.agent, "step": self.step}),
        );
        m
    }
}

/// A task ready to be continued.
#[derive(Clone, Debug, PartialEq)]
pub struct Fork {
    pub task: Task,
    pub origin: ForkOrigin,
}

impl Fork {
    /// The reference a new episode of the forked task is shared with: the task itself,
    /// as no suite holds it.
    pub fn task_ref(&self) -> TaskRef {
        TaskRef::Inline(Box::new(self.task.clone()))
    }
}

/// Parses the `fork=` query value: a decision number.
pub fn parse_fork_step(text: &str) -> Result<usize, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("fork={text:?} is not a decision number (fork=0, fork=3, …)"))
}

/// The task of `file` continued from decision `step`; errors say why it cannot be.
pub fn fork(file: &EpisodeFile, step: usize) -> Result<Fork, String> {
    let task = fork_task(file, step).map_err(|e| match e {
        bench::share::ShareError::Field(f) if f.field == "step" => {
            format!("Cannot continue from decision {step}: {}.", f.message)
        }
        other => format!("Cannot continue this episode: {other}."),
    })?;
    Ok(Fork {
        task,
        origin: ForkOrigin {
            task: file.record.task.clone(),
            suite: match &file.task {
                TaskRef::Suite(s) => Some(s.suite.clone()),
                TaskRef::Inline(_) => None,
            },
            agent: file.agent.clone(),
            step,
            decisions: file.record.decisions.len(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::tests::{lake_file, LAKE_WIN};
    use crate::task_session::TaskSession;

    #[test]
    fn a_fork_starts_where_the_episode_was_and_can_be_finished() {
        let file = lake_file(&LAKE_WIN);
        let f = fork(&file, 2).unwrap();
        assert_eq!(f.task.id, "frozenlake-4x4-det-s0~fork2");
        assert_eq!(f.task.max_steps, 14);
        assert_eq!(
            f.origin.text(),
            "A fork: continued from decision 2 of 6 of an episode of \
             frozenlake-4x4-det-s0 played by human."
        );
        let mut s = TaskSession::new(&f.task).unwrap();
        // The session's first frame is the episode's frame after decision 2.
        let hash = format!("{:016x}", s.frame().hash());
        assert_eq!(hash, file.record.decisions[1].frame_hash);
        for a in [2, 2, 1, 2] {
            s.act(a).unwrap();
        }
        let rec = s.record().unwrap();
        assert!(rec.passed);
        // The new episode shares as a link that verifies, fork origin included.
        let shared = EpisodeFile::from_record(f.task_ref(), rec.clone(), Some(f.origin.settings()));
        let back = EpisodeFile::from_link_fragment(&shared.to_link_fragment().unwrap()).unwrap();
        assert_eq!(back.settings.unwrap()[FORKED_FROM]["step"], 2);
        assert!(crate::replay::timeline::Replay::open(shared)
            .unwrap()
            .is_verified());
    }

    #[test]
    fn impossible_forks_say_why() {
        let file = lake_file(&LAKE_WIN);
        let e = fork(&file, 6).unwrap_err();
        assert!(
            e.starts_with("Cannot continue from decision 6: the episode ended"),
            "{e}"
        );
        assert!(fork(&file, 9).unwrap_err().contains("6 decisions"));
        assert_eq!(parse_fork_step(" 3 "), Ok(3));
        assert!(parse_fork_step("x")
            .unwrap_err()
            .contains("not a decision number"));
        assert!(fork(&file, 0)
            .unwrap()
            .origin
            .text()
            .contains("from the start"));
    }
}
