//! GameVerse's memory agent (its `memory_agent` modules in `BaseAgent`, docs/gameverse.md
//! "Memory agent"), word for word on Playbench's templates. Per decision:
//!
//! 1. history review and reasoning: one request (from the second decision on; before
//!    the first, fixed texts) with the previous summary, the last ≤ 5 (screenshot,
//!    `### Actions` text, observation text ≤ 200 characters) pairs before the current
//!    screenshot, the current screenshot and the last retrieved memories; its reply
//!    gives `### History_summary`, `### Reasoning` and `### Plan`;
//! 2. long-term retrieval (no request) with the observation, summary and reasoning
//!    ([`store`]);
//! 3. the action request with memory: summary, reasoning, plan, retrieved memories, last
//!    action and the current screenshot; its reply gives `### Actions` (the decision)
//!    and may save a `### New_memory`;
//! 4. the short-term update.
//!
//! The reference's lists and their quirks are kept: pairs are aligned from the end of
//! the screenshot and action lists (a reply without `### Actions` adds no action), the
//! review's values have their braces doubled (it escapes them for a `format` that does
//! not read them), the reasoning the retrieval reads is the review's, and a reply
//! without `### Actions` hands the game the printed short-term history
//! ([`history_dump`]).

pub mod history_dump;
pub mod lexical;
pub mod store;

use envs::core::agent_prompts::{AgentPrompts, MemoryTemplates, RECENT_IMAGES};
use envs::gameverse::prompt;

use super::reply::{field, parse_fields, ACTION_WITH_MEMORY_HEADERS, REVIEW_HEADERS};
use super::{two_messages, user_parts, Piece, NO_ACTION_YET};
use crate::protocol::prompt::{ImageRef, Message};
use history_dump::HistoryEntry;
use store::LongTermStore;

/// The review's texts before the first decision (no request is made then).
pub const NO_HISTORY: &str = "No history available yet.";
pub const NO_REASONING: &str = "No reasoning available yet.";
pub const NO_PLAN: &str = "No plan available yet.";
/// Defaults of the placeholders when the review's reply lacked the field.
pub const NO_SUMMARY: &str = "No history summary available yet.";
pub const NO_PREVIOUS_SUMMARY: &str = "No previous summary.";
/// `{retrieved_memory_str}` before any retrieval.
pub const NOTHING_RETRIEVED_YET: &str = "No long-term memory retrieved yet.";
/// Characters of the observation, summary and reasoning a query or a pair takes.
const TEXT_CHARS: usize = 200;
/// Characters of the retrieved memories a history entry keeps.
const ENTRY_MEMORY_CHARS: usize = 500;
/// Screenshots (and actions) the short-term memory keeps.
const KEPT_IMAGES: usize = 10;
/// History entries the short-term memory keeps.
const KEPT_ENTRIES: usize = 20;

/// Which request of the decision comes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Module {
    Review,
    Action,
}

fn first_chars(s: &str, n: usize) -> &str {
    s.char_indices().nth(n).map_or(s, |(i, _)| &s[..i])
}

/// `s.replace('{', '{{').replace('}', '}}')`.
fn doubled_braces(s: &str) -> String {
    s.replace('{', "{{").replace('}', "}}")
}

/// The memory agent's state between requests.
#[derive(Clone, Debug, Default)]
pub struct MemoryAgent {
    /// Every decision's observation text.
    observations: Vec<String>,
    /// The decisions whose screenshots are kept (the current one last).
    images: Vec<u32>,
    /// The `### Actions` texts, kept with the screenshots.
    actions: Vec<String>,
    summary: Option<String>,
    reasoning: Option<String>,
    plan: Option<String>,
    /// The last retrieval's result (`Some(None)`: it found nothing).
    retrieved: Option<Option<String>>,
    store: LongTermStore,
    history: Vec<HistoryEntry>,
    entries_made: u32,
    /// The decision whose observation is registered.
    begun: Option<u32>,
    pending: Option<Module>,
}

impl MemoryAgent {
    /// The long-term memories saved so far.
    pub fn memories(&self) -> impl Iterator<Item = &str> {
        self.store.texts()
    }

    /// Registers decision `step`'s observation once; the first decision skips the
    /// review.
    fn begin(&mut self, step: u32, observation: &str) {
        if self.begun == Some(step) {
            return;
        }
        self.begun = Some(step);
        self.observations.push(observation.to_string());
        self.images.push(step);
        if self.observations.len() <= 1 {
            self.summary = Some(NO_HISTORY.into());
            self.reasoning = Some(NO_REASONING.into());
            self.plan = Some(NO_PLAN.into());
            self.retrieve();
            self.pending = Some(Module::Action);
        } else {
            self.pending = Some(Module::Review);
        }
    }

    fn retrieve(&mut self) {
        let parts: Vec<String> = [
            ("Current state", self.observations.last()),
            ("History context", self.summary.as_ref()),
            ("Reasoning", self.reasoning.as_ref()),
        ]
        .into_iter()
        .filter_map(|(label, text)| {
            text.filter(|t| !t.is_empty())
                .map(|t| format!("{label}: {}", first_chars(t, TEXT_CHARS)))
        })
        .collect();
        self.retrieved = Some(self.store.retrieve(&parts.join(" ")));
    }

    fn retrieved_text(&self) -> &str {
        match &self.retrieved {
            None => NOTHING_RETRIEVED_YET,
            Some(None) => super::NO_IMAGE,
            Some(Some(text)) => text,
        }
    }

    /// The request for decision `step` (the review's or the action's).
    pub fn request(
        &mut self,
        prompts: &AgentPrompts,
        step: u32,
        experience: &str,
    ) -> Result<Vec<Message>, String> {
        let templates = prompts
            .memory
            .ok_or_else(|| format!("{} has no memory-agent templates", prompts.game_name))?;
        self.begin(step, prompts.observation.as_deref().unwrap_or(""));
        let previous_state = match self.observations.len() {
            n if n > 1 => self.observations[n - 2].clone(),
            _ => super::NO_IMAGE.to_string(),
        };
        let mut values: Vec<(String, String)> = vec![
            ("reflection_experience".into(), experience.to_string()),
            (
                "history_summary".into(),
                self.summary.clone().unwrap_or(NO_SUMMARY.into()),
            ),
            (
                "reasoning".into(),
                self.reasoning.clone().unwrap_or(NO_REASONING.into()),
            ),
            ("plan".into(), self.plan.clone().unwrap_or(NO_PLAN.into())),
            (
                "action".into(),
                self.actions.last().map_or(NO_ACTION_YET, |a| a).to_string(),
            ),
            (
                "retrieved_memory_str".into(),
                self.retrieved_text().to_string(),
            ),
            (
                "cur_state_str".into(),
                self.observations.last().cloned().unwrap_or_default(),
            ),
            ("prev_state_str".into(), previous_state),
        ];
        let fill = |template: &str, values: &[(String, String)]| {
            let refs: Vec<(&str, &str)> = values
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            prompt::fill(template, &refs)
                .map_err(|e| format!("{}'s memory-agent prompt: {e}", prompts.game_name))
        };
        match self.pending {
            Some(Module::Review) => {
                let pairs = self.review_values(&mut values);
                // The review is built without the game's values (the reference passes
                // none), so its task text is empty.
                values.push(("task_description".into(), String::new()));
                let system = fill(templates.review_system, &values)?;
                let user = fill(templates.review_user, &values)?;
                let parts = user_parts(&user, |piece| match piece {
                    Piece::Current => Some(ImageRef::Current { step }),
                    Piece::Recent(k) => pairs.get(k).map(|&s| ImageRef::Current { step: s }),
                    _ => None,
                });
                Ok(two_messages(system, parts))
            }
            _ => Ok(Self::action_request(
                templates, prompts, step, values, fill,
            )?),
        }
    }

    fn action_request(
        templates: MemoryTemplates,
        prompts: &AgentPrompts,
        step: u32,
        mut values: Vec<(String, String)>,
        fill: impl Fn(&str, &[(String, String)]) -> Result<String, String>,
    ) -> Result<Vec<Message>, String> {
        values.extend(
            prompts
                .values
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone())),
        );
        values.push(("task_description".into(), String::new()));
        let system = fill(templates.action_system, &values)?;
        let user = fill(templates.action_user, &values)?;
        let parts = user_parts(&user, |piece| match piece {
            Piece::Current => Some(ImageRef::Current { step }),
            Piece::Previous if step > 0 => Some(ImageRef::Current { step: step - 1 }),
            _ => None,
        });
        Ok(two_messages(system, parts))
    }

    /// Adds the review's values (`history_review_reasoning`) to `values`; the
    /// decisions of the pairs' screenshots, oldest first.
    fn review_values(&self, values: &mut Vec<(String, String)>) -> Vec<u32> {
        let past_images = &self.images[..self.images.len() - 1];
        let past_observations = &self.observations[..self.observations.len() - 1];
        let n = RECENT_IMAGES.min(past_images.len()).min(self.actions.len());
        let from_end = |len: usize, i: usize| len - (n - i);
        let mut shots = Vec::with_capacity(n);
        for i in 0..RECENT_IMAGES {
            let (action, observation) = if i < n {
                shots.push(past_images[from_end(past_images.len(), i)]);
                let action = &self.actions[from_end(self.actions.len(), i)];
                let observation = &past_observations[from_end(past_observations.len(), i)];
                let observation = match observation.as_str() {
                    "" => super::NO_IMAGE.to_string(),
                    o => doubled_braces(first_chars(o, TEXT_CHARS)),
                };
                (doubled_braces(action), observation)
            } else {
                (super::NO_IMAGE.to_string(), super::NO_IMAGE.to_string())
            };
            values.push((format!("recent_action_{i}"), action));
            values.push((format!("recent_observation_{i}"), observation));
        }
        values.push(("recent_pairs_count".into(), n.to_string()));
        let previous = self
            .summary
            .as_deref()
            .filter(|s| !s.is_empty())
            .unwrap_or(NO_PREVIOUS_SUMMARY);
        values.push(("prev_history_summary".into(), doubled_braces(previous)));
        shots
    }

    /// A reply to the last request: `None` when the action request follows, else the
    /// text the game gets.
    pub fn on_reply(&mut self, text: &str) -> Option<String> {
        match self.pending {
            Some(Module::Review) => {
                let fields = parse_fields(text, REVIEW_HEADERS);
                let get = |name| field(&fields, name).map(str::to_string);
                self.summary = get("history_summary");
                self.reasoning = get("reasoning");
                self.plan = get("plan");
                self.retrieve();
                self.pending = Some(Module::Action);
                None
            }
            _ => {
                self.pending = None;
                Some(self.act(text))
            }
        }
    }

    /// The action reply: the decision, the optional save and the short-term update.
    fn act(&mut self, text: &str) -> String {
        let fields = parse_fields(text, ACTION_WITH_MEMORY_HEADERS);
        let action = field(&fields, "action").map(str::to_string);
        if let Some(a) = &action {
            self.actions.push(a.clone());
        }
        if let Some(r) = field(&fields, "reasoning") {
            self.reasoning = Some(r.to_string());
        }
        let save = field(&fields, "should_save")
            .is_some_and(|s| ["yes", "true", "1"].contains(&s.to_lowercase().as_str()));
        let memory = field(&fields, "new_memory").filter(|m| !m.is_empty());
        if let (true, Some(m)) = (save, memory) {
            if m.to_lowercase() != "none" {
                self.store.add(m);
            }
        }
        self.entries_made += 1;
        let nonempty = |s: Option<&String>| s.filter(|t| !t.is_empty()).cloned();
        self.history.push(HistoryEntry {
            step: self.entries_made,
            state: self.observations.last().cloned().unwrap_or_default(),
            action: self.actions.last().cloned(),
            reasoning: nonempty(self.reasoning.as_ref()),
            retrieved: self
                .retrieved
                .clone()
                .flatten()
                .filter(|m| !m.is_empty())
                .map(|m| first_chars(&m, ENTRY_MEMORY_CHARS).to_string()),
        });
        let extra = self.history.len().saturating_sub(KEPT_ENTRIES);
        self.history.drain(..extra);
        if self.images.len() > KEPT_IMAGES {
            self.images.drain(..self.images.len() - KEPT_IMAGES);
            let extra = self.actions.len().saturating_sub(KEPT_IMAGES);
            self.actions.drain(..extra);
        }
        action.unwrap_or_else(|| history_dump::dump(&self.history))
    }
}
