//! A recipe: one environment configuration, the seeds it is played from and how its
//! tasks are judged. The generator (`super`) turns it into tasks by running the oracle.

use serde_json::{Map, Value};

use crate::task::{Dynamics, Memory};

/// How a recipe's tasks are judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Reach the goal; partial credit by distance closed.
    Navigation,
    /// Taxi's pickup / delivery / efficiency states.
    Taxi,
    /// Reach the goal; partial credit by the milestones the oracle passes on its way.
    Milestones,
    /// Swing up / climb; partial credit by best progress.
    Progress,
    /// Survive the budget (CartPole); scored by the steps survived.
    Survive,
    /// Keep upright: return between the random policy's and the oracle's (Pendulum).
    Balance,
    /// Survive the budget; scored by V-ICAL's capped reward ratio, the return over the
    /// oracle's on the same task (Highway: speed and the right lane count).
    SurviveForReward,
    /// Scored by V-ICAL's capped reward ratio, the return over the oracle's on the same
    /// task; passed at `Recipe::pass_score` (Tetris).
    Reward,
}

impl Kind {
    /// Judged over the whole budget rather than by reaching a goal.
    pub fn is_survival(self) -> bool {
        matches!(
            self,
            Kind::Survive | Kind::Balance | Kind::SurviveForReward | Kind::Reward
        )
    }
}

pub struct Recipe {
    pub env: &'static str,
    pub kwargs: Map<String, Value>,
    /// Task id stem.
    pub slug: String,
    pub title: String,
    pub family: String,
    pub memory: Memory,
    pub dynamics: Dynamics,
    /// Environment steps per decision.
    pub frame_skip: u32,
    /// Steps of a decision that play the chosen action; the environment's no-op fills
    /// the rest. `None`: the action holds for the whole decision.
    pub action_steps: Option<u32>,
    /// The actions shown to the agent, in the environment's order; `None`: all of them.
    pub actions: Option<Vec<&'static str>>,
    /// The decision budget of survival and score tasks; `None`: the suite's cap.
    pub budget: Option<u32>,
    /// The score a `Balance` or `Reward` task passes at.
    pub pass_score: f64,
    pub kind: Kind,
    /// Non-visual rules (the mission and the step limit are added per task).
    pub rules: &'static str,
    pub seeds: Vec<u64>,
    /// How many of the seeds also get a mid-route (initialized) variant.
    pub initialized: usize,
    /// Extra tags every task of the recipe carries.
    pub extra_tags: Vec<&'static str>,
}

fn object(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

/// A recipe with one decision per environment step, every action, the suite's budget.
#[allow(clippy::too_many_arguments)]
pub fn recipe(
    env: &'static str,
    kwargs: Value,
    slug: &str,
    title: &str,
    family: &str,
    memory: Memory,
    dynamics: Dynamics,
    kind: Kind,
    rules: &'static str,
    seeds: &[u64],
    initialized: usize,
) -> Recipe {
    Recipe {
        env,
        kwargs: object(kwargs),
        slug: slug.to_string(),
        title: title.to_string(),
        family: family.to_string(),
        memory,
        dynamics,
        frame_skip: 1,
        action_steps: None,
        actions: None,
        budget: None,
        pass_score: 70.0,
        kind,
        rules,
        seeds: seeds.to_vec(),
        initialized,
        extra_tags: Vec::new(),
    }
}
