//! Oracles: agents that play from an environment's true state. Each family writes its
//! own (`<family>/oracle.rs`) and offers it through `Env::oracle`. They calibrate the
//! tasks' reference targets, make the success demonstrations and are the oracle
//! baseline. Deterministic: no clocks, no entropy, no randomness.

use super::env::{Action, Env};

/// How the episode engine applies a decision: the chosen action for the first
/// `action_steps` of `frame_skip` environment steps, then `noop` for the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Control {
    pub frame_skip: u32,
    pub action_steps: u32,
    /// The no-op action preset, when the environment has one.
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

impl Control {
    /// The per-step presets the engine plays for one decision: `action` for
    /// `action_steps` of `frame_skip` steps, then `noop`; without a no-op the action
    /// fills the whole decision.
    pub fn decision_actions(self, action: usize) -> Vec<usize> {
        let n = self.frame_skip.max(1);
        let k = self.action_steps.clamp(1, n);
        (0..n)
            .map(|i| match self.noop {
                Some(noop) if i >= k => noop,
                _ => action,
            })
            .collect()
    }
}

/// An agent with access to the true state. Oracles that choose among the presets
/// implement [`act`](Solver::act); parametric ones implement
/// [`next_action`](Solver::next_action).
pub trait Solver {
    /// The next decision as a preset index into `env.action_names()`; `None` when it
    /// has no plan (the state cannot be solved from here).
    fn act(&mut self, env: &dyn Env) -> Option<usize> {
        let _ = env;
        None
    }

    /// The next decision as an action of `env`'s space.
    fn next_action(&mut self, env: &dyn Env) -> Option<Action> {
        let preset = self.act(env)?;
        env.preset_action(preset)
    }
}

/// The oracle's whole episode from `env`'s current state, as action texts (at most
/// `limit` actions; fewer when the episode ends or the oracle has no plan).
pub fn solve(env: &dyn Env, limit: usize) -> Vec<String> {
    let mut env = env.clone_box();
    let Some(mut oracle) = env.oracle(Control::default()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    while out.len() < limit {
        let Some(action) = oracle.next_action(env.as_ref()) else {
            break;
        };
        out.push(env.action_text(&action));
        match env.step(action) {
            Ok(s) if !(s.terminated || s.truncated) => {}
            _ => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions_repeat_then_fill_with_the_noop() {
        let control = |frame_skip, action_steps, noop| Control {
            frame_skip,
            action_steps,
            noop,
        };
        assert_eq!(control(4, 1, Some(1)).decision_actions(2), vec![2, 1, 1, 1]);
        assert_eq!(control(3, 3, Some(1)).decision_actions(0), vec![0, 0, 0]);
        assert_eq!(control(3, 1, None).decision_actions(1), vec![1, 1, 1]);
        assert_eq!(control(0, 0, None).decision_actions(1), vec![1]);
    }
}
