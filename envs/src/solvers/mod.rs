//! Oracle solvers: agents that play from the environment's true state (planning for Toy
//! Text and MiniGrid, controllers for Classic Control). They calibrate the tasks'
//! reference targets, make the success demonstrations, and are the oracle baseline.
//! Deterministic: no clocks, no entropy, no randomness.

mod classic_control;
mod minigrid;
mod toy_text;

use crate::core::env::Env;
use crate::registry::Family;

/// How the episode engine applies a decision: the chosen action for the first
/// `action_steps` of `frame_skip` environment steps, then `noop` for the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Control {
    pub frame_skip: u32,
    pub action_steps: u32,
    /// The no-op action index, when the environment has one.
    pub noop: Option<usize>,
}

impl Default for Control {
    fn default() -> Self {
        Self {
            frame_skip: 1,
            action_steps: 1,
            noop: None,
        }
    }
}

/// An agent with access to the true state.
pub trait Solver {
    /// The next decision: an index into `env.action_names()`; `None` when it has no
    /// plan (the state cannot be solved from here).
    fn act(&mut self, env: &dyn Env) -> Option<usize>;
}

/// The oracle for `env` (by its registered id), playing under `control`.
pub fn solver_for(env: &dyn Env, control: Control) -> Option<Box<dyn Solver>> {
    match crate::registry::spec(env.id())?.family {
        Family::ToyText => toy_text::solver(env, control),
        Family::ClassicControl => classic_control::solver(env, control),
        Family::MiniGrid => minigrid::solver(env, control),
    }
}

/// The fewest decisions from the current state to success, for environments where
/// that is a meaningful measure of progress (navigation); `None` otherwise or when
/// success is unreachable.
pub fn distance_to_goal(env: &dyn Env) -> Option<u32> {
    match crate::registry::spec(env.id())?.family {
        Family::ToyText => toy_text::distance_to_goal(env),
        Family::ClassicControl => None,
        Family::MiniGrid => minigrid::distance_to_goal(env),
    }
}
