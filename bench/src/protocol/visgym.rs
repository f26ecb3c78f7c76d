//! VisGym's harness (its `Interactor.run_episode` and `OpenAIVLM.query`), word for word,
//! as a protocol a run chooses instead of V-ICAL's (docs/visgym.md, "Harness"):
//!
//! - no system message: turn 1 is `{instructions}\n{step message}` with the
//!   environment's own instructions (`Env::instructions`), later turns `Environment
//!   feedback: …` (when on), the step message and (when asked) the instructions again,
//!   joined by blank lines; the step message is `This is step {t+1}. You are allowed to
//!   take {budget − t − 1} more steps.`
//! - each user message is the frame then the text; the frame is shrunk to at most 336
//!   pixels and sent as JPEG (the model episode's VisGym encoder); the ASCII variant
//!   sends `{text frame}\n{text}` and no image;
//! - the history window K: all turns, the last K (the first kept user text loses its
//!   feedback and gets the instructions glued in front), or none (K = 0: every turn is
//!   sent alone as a first turn and no feedback is shown);
//! - the final-goal variant adds the solved state after the first turn's text;
//! - a reply becomes an action string through the reference's parser
//!   (`envs::visgym::reply_to_action`, inside `<answer>` with verbalisation) and goes to
//!   the environment as it is; there are no format retries;
//! - a failed request is retried 9 times after 1, 2, 4 … s (1 s each in the ASCII
//!   variant), then the reply is `Error in receiving a response after 10 trials`;
//!   context overflow and too many images become the reference's error replies; an
//!   empty reply is `Empty response`.
//!
//! One deliberate difference: a missing key, an unknown model or a model without
//! images ends the episode as an API error instead of 10 retries per step.

use envs::visgym::reply_to_action;

use super::prompt::{ImageRef, Message, Part, Role};
use super::providers::{ApiError, ErrorKind};
use super::session::{HistoryWindow, Next, ObservationMode, RequestPlan, SessionConfig};
use crate::{EpisodeRunner, FailureMode, Reply, Task};

/// Appended to the instructions with verbalisation on.
pub const VERBALIZE: &str =
    "\n\nVerbalize your reasoning in <think>…</think> and give the final result in <answer>…</answer>.";

/// The text before the goal image of the final-goal variant (trailing space included).
pub const FINAL_GOAL: &str = "The final goal of the episode should look like the following image: ";

/// The reply after every attempt of a request failed.
pub const NO_RESPONSE: &str = "Error in receiving a response after 10 trials";
/// The reply for an empty answer.
pub const EMPTY_RESPONSE: &str = "Empty response";
/// The replies for a conversation the model cannot take.
pub const TOO_MANY_IMAGES: &str =
    "Error: Total number of images exceeds the maximum context length";
pub const CONTEXT_EXCEEDED: &str = "Error: Maximum context length is exceeded.";

/// Attempts of one request before [`NO_RESPONSE`].
const ATTEMPTS: u32 = 10;

/// The step message before decision `t` (0-based) of a `budget`-step episode.
pub fn step_message(t: u32, budget: u32) -> String {
    format!(
        "This is step {}. You are allowed to take {} more steps.",
        t + 1,
        i64::from(budget) - i64::from(t) - 1
    )
}

/// `re.sub(r'(?s)Environment feedback:.*?(?=This is step)', '', text)`.
fn strip_feedback(text: &str) -> String {
    const FEEDBACK: &str = "Environment feedback:";
    const STEP: &str = "This is step";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(FEEDBACK) {
        let Some(j) = rest[i + FEEDBACK.len()..].find(STEP) else {
            break;
        };
        out.push_str(&rest[..i]);
        rest = &rest[i + FEEDBACK.len() + j..];
    }
    out.push_str(rest);
    out
}

fn user(parts: Vec<Part>) -> Message {
    Message {
        role: Role::User,
        parts,
    }
}

/// The text of a user message, as the reference reads `content[1]["text"]` (the text
/// after the image) or, in the ASCII variant, its only text.
fn text_part(m: &mut Message) -> Option<&mut String> {
    m.parts.iter_mut().find_map(|p| match p {
        Part::Text(t) => Some(t),
        _ => None,
    })
}

pub struct VisGymSession {
    config: SessionConfig,
    /// The environment's instructions (with the verbalisation request when on).
    instructions: String,
    budget: u32,
    /// The conversation as the reference keeps it (pruned in place by the window).
    history: Vec<Message>,
    /// The current decision's user message, built once per decision.
    pending: Option<(u32, Message)>,
    transport_retries: u32,
    wait_ms: u64,
    over: bool,
    last_error: Option<ApiError>,
}

impl VisGymSession {
    /// A session for `task` on `runner`'s environment (its instructions); the settings
    /// the reference does not support together are refused.
    pub fn new(task: &Task, runner: &EpisodeRunner, config: SessionConfig) -> Result<Self, String> {
        let text = match config.observation {
            ObservationMode::Image => false,
            ObservationMode::Text => true,
            ObservationMode::Both => {
                return Err("VisGym's harness shows the frame or the text frame, not both".into())
            }
        };
        if text && matches!(config.history, HistoryWindow::Last(k) if k > 0) {
            return Err(
                "VisGym's text variant keeps the full history (the reference fails with a window)"
                    .into(),
            );
        }
        if config.final_goal && (text || config.history != HistoryWindow::Full) {
            return Err(
                "VisGym's final-goal variant shows images with the full history only".into(),
            );
        }
        let mut instructions = runner.env().instructions(text).ok_or_else(|| {
            format!(
                "{} has no VisGym instructions{}",
                task.env,
                if text { " for text observations" } else { "" }
            )
        })?;
        if config.verbalize {
            instructions.push_str(VERBALIZE);
        }
        Ok(Self {
            config,
            instructions,
            budget: task.max_steps,
            history: Vec::new(),
            pending: None,
            transport_retries: 0,
            wait_ms: 0,
            over: false,
            last_error: None,
        })
    }

    fn text_mode(&self) -> bool {
        self.config.observation == ObservationMode::Text
    }

    /// The user message before decision `t`, after the window has pruned the history.
    fn turn(&mut self, runner: &EpisodeRunner, t: u32) -> Message {
        let step = step_message(t, self.budget);
        let alone = matches!(self.config.history, HistoryWindow::Last(0));
        // The ASCII variant does not check the window for its first-turn text.
        let first = t == 0 || (alone && !self.text_mode());
        let prompt = if first {
            format!("{}\n{step}", self.instructions)
        } else {
            let mut parts = Vec::new();
            if self.config.feedback {
                let feedback = runner.env().reply_fields().get("feedback").cloned();
                if let Some(serde_json::Value::String(f)) = feedback {
                    parts.push(format!("Environment feedback: {f}"));
                }
            }
            parts.push(step);
            if self.config.repeat_instructions {
                parts.push(self.instructions.clone());
            }
            parts.join("\n\n")
        };
        self.prune();
        if self.text_mode() {
            let frame = runner.env().render_text();
            return user(vec![Part::Text(format!("{frame}\n{prompt}"))]);
        }
        let mut parts = vec![
            Part::Image(ImageRef::Current { step: t }),
            Part::Text(prompt),
        ];
        if self.config.final_goal && t == 0 {
            parts.push(Part::TextBlock(FINAL_GOAL.to_string()));
            parts.push(Part::Image(ImageRef::FinalGoal));
        }
        user(parts)
    }

    /// `prune_conversation_history(K, instructions)` before a query.
    fn prune(&mut self) {
        let k = match self.config.history {
            HistoryWindow::Full => return,
            HistoryWindow::Last(0) => {
                self.history.clear();
                return;
            }
            HistoryWindow::Last(k) => k as usize,
        };
        if self.history.len() < 2 * k {
            return;
        }
        self.history.drain(..self.history.len() - 2 * k);
        let instructions = self.instructions.clone();
        if let Some(text) = self.history.first_mut().and_then(text_part) {
            if !text.contains(&instructions) {
                *text = format!("{instructions}{}", strip_feedback(text));
            }
        }
    }

    /// The request for the runner's current decision, or `None` when the episode is
    /// over.
    pub fn next_request(&mut self, runner: &EpisodeRunner) -> Option<RequestPlan> {
        if self.over || runner.is_done() {
            return None;
        }
        let t = runner.step_count();
        if self.pending.as_ref().map(|(s, _)| *s) != Some(t) {
            let message = self.turn(runner, t);
            self.pending = Some((t, message));
        }
        let mut messages = self.history.clone();
        messages.extend(self.pending.as_ref().map(|(_, m)| m.clone()));
        Some(RequestPlan {
            messages,
            wait_before_ms: self.wait_ms,
        })
    }

    /// A reply: it joins the conversation and its action string is the decision.
    pub fn on_reply(&mut self, text: &str) -> Next {
        let text = if text.is_empty() {
            EMPTY_RESPONSE
        } else {
            text
        };
        self.transport_retries = 0;
        self.wait_ms = 0;
        if let Some((_, m)) = self.pending.take() {
            self.history.push(m);
        }
        self.history.push(Message {
            role: Role::Assistant,
            parts: vec![Part::Text(text.to_string())],
        });
        Next::Decide(Reply::Text {
            text: reply_to_action(text, self.config.verbalize),
            raw: Some(text.to_string()),
            rejected: Vec::new(),
        })
    }

    /// A failed request: retried on the reference's schedule, or answered with the
    /// reference's error reply.
    pub fn on_error(&mut self, error: ApiError) -> Next {
        let message = error.message.clone();
        self.last_error = Some(error.clone());
        if message.contains("Total number of images exceeds") {
            return self.on_reply(TOO_MANY_IMAGES);
        }
        match error.kind {
            ErrorKind::ContextOverflow => self.on_reply(CONTEXT_EXCEEDED),
            ErrorKind::Auth | ErrorKind::UnknownModel | ErrorKind::NoImages => {
                self.over = true;
                Next::Decide(Reply::Fail {
                    failure: FailureMode::ApiError,
                    rejected: Vec::new(),
                })
            }
            _ if self.transport_retries + 1 < ATTEMPTS => {
                self.wait_ms = if self.text_mode() {
                    1000
                } else {
                    1000 << self.transport_retries
                };
                self.transport_retries += 1;
                Next::Ask
            }
            _ => self.on_reply(NO_RESPONSE),
        }
    }

    pub fn last_error(&self) -> Option<&ApiError> {
        self.last_error.as_ref()
    }

    pub fn transport_retries(&self) -> u32 {
        self.transport_retries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feedback_is_stripped_up_to_the_step_message() {
        assert_eq!(
            strip_feedback("Environment feedback: Cannot move.\n\nThis is step 3. You"),
            "This is step 3. You"
        );
        assert_eq!(strip_feedback("no feedback here"), "no feedback here");
        assert_eq!(
            strip_feedback("Environment feedback: x (no step message)"),
            "Environment feedback: x (no step message)"
        );
        assert_eq!(
            step_message(0, 20),
            "This is step 1. You are allowed to take 19 more steps."
        );
        assert_eq!(
            step_message(19, 20),
            "This is step 20. You are allowed to take 0 more steps."
        );
    }
}
