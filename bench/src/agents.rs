//! The built-in agents: a seeded random policy and the oracle.

use super::episode::{Agent, EpisodeRunner, FailureMode, Reply};
use envs::core::oracle::{Control, Solver};
use envs::rng::NpRandom;
use envs::ActionSpace;

/// Uniformly random over the task's actions, from a seeded numpy generator: the same
/// seed gives the same episode everywhere.
pub struct RandomAgent {
    seed: u64,
    rng: NpRandom,
}

impl RandomAgent {
    /// The agent for repetition `repeat` of a task in a run seeded with `seed`: the
    /// seed S × 1000003 + r, so repetitions differ and every run is reproducible (the
    /// same in the browser and on the command line).
    pub fn for_repeat(seed: u64, repeat: u64) -> Self {
        Self::new(seed.wrapping_mul(1_000_003).wrapping_add(repeat))
    }

    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            rng: NpRandom::seeded(u128::from(seed)),
        }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> String {
        format!("random (seed {})", self.seed)
    }

    fn decide(&mut self, runner: &EpisodeRunner) -> Reply {
        let n = runner.task().actions.len();
        Reply::Act {
            action: self.rng.index(n).unwrap_or(0),
            raw: None,
            rejected: Vec::new(),
        }
    }
}

/// The oracle solver of the task's environment, or the oracle's play the task
/// recorded (`Task::recorded_oracle`), replayed.
#[derive(Default)]
pub struct OracleAgent {
    solver: Option<Box<dyn Solver>>,
    /// The recorded decisions still to play, in reverse.
    recorded: Vec<String>,
}

impl OracleAgent {
    pub fn new() -> Self {
        Self::default()
    }
}

/// The decision rules of a task, as solvers see them.
pub fn control_of(runner: &EpisodeRunner) -> Control {
    let task = runner.task();
    let env = runner.env();
    Control {
        frame_skip: task.frame_skip,
        action_steps: task.action_steps,
        noop: task
            .noop
            .as_deref()
            .and_then(|n| crate::task::Task::env_action(env, n)),
    }
}

impl Agent for OracleAgent {
    fn name(&self) -> String {
        "oracle".into()
    }

    fn begin(&mut self, runner: &EpisodeRunner) {
        let recorded = &runner.task().recorded_oracle;
        self.recorded = recorded.iter().rev().cloned().collect();
        self.solver = if recorded.is_empty() {
            runner.env().oracle(control_of(runner))
        } else {
            None
        };
    }

    fn decide(&mut self, runner: &EpisodeRunner) -> Reply {
        let env = runner.env();
        // `begin` chose: a solver, or the recording (past its end, or with neither, the
        // oracle has no plan).
        let choice = match self.solver.as_mut() {
            Some(solver) => solver.next_action(env).map(|a| env.action_text(&a)),
            None => self.recorded.pop(),
        };
        let parametric = matches!(env.action_space(), ActionSpace::Parametric { .. });
        match choice {
            Some(name) => match runner.action_index(&name) {
                Some(action) => Reply::Act {
                    action,
                    raw: None,
                    rejected: Vec::new(),
                },
                None if parametric => Reply::Text {
                    text: name,
                    raw: None,
                    rejected: Vec::new(),
                },
                // An action the task does not offer: the oracle gives up.
                None => Reply::Fail {
                    failure: FailureMode::InvalidAction,
                    rejected: Vec::new(),
                },
            },
            // No plan (or an action the task does not offer): the oracle gives up.
            None => Reply::Fail {
                failure: FailureMode::InvalidAction,
                rejected: Vec::new(),
            },
        }
    }
}
