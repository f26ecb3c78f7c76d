//! GameVerse's agent loop (its `BaseAgent.chat_completion`, the zero-shot agent's
//! `action_inference` and `BaseRunner.step`), word for word, as a protocol a run chooses
//! (docs/gameverse.md, "Harness"):
//!
//! - every step is one request of exactly two messages, nothing carried over: the
//!   system template filled with the game's values and the experience slot (the
//!   experience text when one is set, else GameVerse's no-experience sentence), and the
//!   user template filled the same way and split at its image markers into text and
//!   image parts — text pieces that are only whitespace are dropped, the others sent
//!   verbatim; the previous screenshot before the first step is the text `None`;
//! - `{action}` is the `### Actions` text of the last reply that had that field (the
//!   reference keeps it in memory; a reply without the field leaves it as it was), `No
//!   action executed yet.` before any; `{task_description}` is empty when the game has
//!   none;
//! - the reply is read by [`reply::actions_field`]; its text (or `None` without the
//!   field) goes to the game as it is, which applies its own fixed consequence to a
//!   reply it cannot read — there are no format retries;
//! - screenshots are PNG at the frame's own size (the protocol's own encoder);
//! - a failed request is retried ([`retry`]).

pub mod memory;
pub mod reply;
pub mod retry;

use envs::core::agent_prompts::{AgentPrompts, CUR_STATE_IMAGE, PREV_STATE_IMAGE};
use envs::gameverse::{prompt, py_str};

use super::prompt::{ImageRef, Message, Part, Role};
use super::providers::{ApiError, ErrorKind};
use super::session::{GameVerseAgent, Next, ObservationMode, RequestPlan, SessionConfig};
use crate::{EpisodeRunner, FailureMode, Reply, Task};
use memory::MemoryAgent;

/// `{action}` before the first reply with an `### Actions` field.
pub const NO_ACTION_YET: &str = "No action executed yet.";

/// The text sent in place of a screenshot that does not exist yet.
pub const NO_IMAGE: &str = "None";

/// Where a piece of a user template goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Piece<'a> {
    Text(&'a str),
    Previous,
    Current,
    /// `<|recent_image_k|>` (the memory agent's history screenshots).
    Recent(usize),
}

/// The first `<|recent_image_k|>` marker of `text` (the reference's
/// `<\|recent_image_\d+\|>`): its byte offset, length and `k` (`usize::MAX` when `k`
/// does not fit, a screenshot that never exists).
fn find_recent(text: &str) -> Option<(usize, usize, usize)> {
    const OPEN: &str = "<|recent_image_";
    let mut from = 0;
    while let Some(i) = text[from..].find(OPEN).map(|i| i + from) {
        let after = &text[i + OPEN.len()..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits > 0 && after[digits..].starts_with("|>") {
            let k = after[..digits].parse().unwrap_or(usize::MAX);
            return Some((i, OPEN.len() + digits + 2, k));
        }
        from = i + OPEN.len();
    }
    None
}

/// A filled user template split at its image markers, in order.
fn split_markers(text: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        let fixed = [
            (PREV_STATE_IMAGE, Piece::Previous),
            (CUR_STATE_IMAGE, Piece::Current),
        ]
        .into_iter()
        .filter_map(|(m, p)| rest.find(m).map(|i| (i, m.len(), p)));
        let recent = find_recent(rest).map(|(i, len, k)| (i, len, Piece::Recent(k)));
        let next = fixed.chain(recent).min_by_key(|(i, _, _)| *i);
        match next {
            Some((i, len, piece)) => {
                out.push(Piece::Text(&rest[..i]));
                out.push(piece);
                rest = &rest[i + len..];
            }
            None => {
                out.push(Piece::Text(rest));
                return out;
            }
        }
    }
}

/// A filled user template as message parts (`chat_completion`): text pieces that are
/// only whitespace dropped, the others verbatim; each marker the screenshot `image`
/// gives it, or the text `None`.
pub(crate) fn user_parts(user: &str, image: impl Fn(Piece<'_>) -> Option<ImageRef>) -> Vec<Part> {
    split_markers(user)
        .into_iter()
        .filter_map(|piece| match piece {
            Piece::Text(t) if py_str::strip(t).is_empty() => None,
            Piece::Text(t) => Some(Part::TextBlock(t.to_string())),
            marker => Some(match image(marker) {
                Some(r) => Part::Image(r),
                None => Part::TextBlock(NO_IMAGE.to_string()),
            }),
        })
        .collect()
}

/// A request of two messages: the system text and the user parts.
pub(crate) fn two_messages(system: String, user: Vec<Part>) -> Vec<Message> {
    vec![
        Message {
            role: Role::System,
            parts: vec![Part::Text(system)],
        },
        Message {
            role: Role::User,
            parts: user,
        },
    ]
}

/// The two messages of the request before decision `step`.
pub fn request_messages(
    prompts: &AgentPrompts,
    step: u32,
    action: Option<&str>,
    experience: Option<&str>,
) -> Result<Vec<Message>, String> {
    let mut values: Vec<(&str, &str)> = vec![
        ("action", action.unwrap_or(NO_ACTION_YET)),
        (
            "reflection_experience",
            experience.unwrap_or(prompt::NO_EXPERIENCE),
        ),
    ];
    values.extend(prompts.values.iter().map(|(k, v)| (*k, v.as_str())));
    values.push(("task_description", ""));
    let fill = |template: &str| {
        prompt::fill(template, &values)
            .map_err(|e| format!("{}'s agent prompt: {e}", prompts.game_name))
    };
    let system = fill(prompts.system)?;
    let user = fill(prompts.user)?;
    let parts = user_parts(&user, |piece| match piece {
        Piece::Previous if step > 0 => Some(ImageRef::Current { step: step - 1 }),
        Piece::Current => Some(ImageRef::Current { step }),
        _ => None,
    });
    Ok(two_messages(system, parts))
}

pub struct GameVerseSession {
    /// The learned experience for the system prompt's slot.
    experience: Option<String>,
    /// The last `### Actions` text a reply had (`{action}`).
    last_action: Option<String>,
    /// The memory agent's state, when it plays (else the zero-shot agent).
    memory: Option<MemoryAgent>,
    /// A request was planned: the experience can no longer change.
    started: bool,
    transport_retries: u32,
    wait_ms: u64,
    over: bool,
    last_error: Option<ApiError>,
}

impl GameVerseSession {
    /// A session for `task` on `runner`'s environment, which must have agent prompts.
    pub fn new(task: &Task, runner: &EpisodeRunner, config: SessionConfig) -> Result<Self, String> {
        if runner.env().agent_prompts().is_none() {
            return Err(format!(
                "{} has no GameVerse agent prompts (the gameverse protocol plays GameVerse's games)",
                task.env
            ));
        }
        if config.observation != ObservationMode::Image {
            return Err("GameVerse's harness shows screenshots only (--observation image)".into());
        }
        let memory = match config.gameverse_agent {
            GameVerseAgent::ZeroShot => None,
            GameVerseAgent::Memory => {
                let has_templates = runner
                    .env()
                    .agent_prompts()
                    .is_some_and(|p| p.memory.is_some() && p.observation.is_some());
                if !has_templates {
                    return Err(format!(
                        "{} has no memory-agent templates (Playbench has them for Maze, 2048 and Snake in semantic mode; use the zero-shot agent)",
                        task.env
                    ));
                }
                Some(MemoryAgent::default())
            }
        };
        Ok(Self {
            experience: None,
            last_action: None,
            memory,
            started: false,
            transport_retries: 0,
            wait_ms: 0,
            over: false,
            last_error: None,
        })
    }

    /// Fills the system prompt's experience slot (`None`: the no-experience sentence);
    /// refused once the first request was planned.
    pub fn set_experience(&mut self, text: Option<String>) -> Result<(), String> {
        if self.started {
            return Err("the experience is set before the episode's first request".into());
        }
        self.experience = text;
        Ok(())
    }

    /// The memory agent's long-term memories, oldest first (`None`: the zero-shot
    /// agent plays).
    pub fn memories(&self) -> Option<Vec<String>> {
        self.memory
            .as_ref()
            .map(|m| m.memories().map(str::to_string).collect())
    }

    pub fn experience(&self) -> Option<&str> {
        self.experience.as_deref()
    }

    /// The request for the runner's current decision, or `None` when the episode is
    /// over.
    pub fn next_request(&mut self, runner: &EpisodeRunner) -> Option<RequestPlan> {
        if self.over || runner.is_done() {
            return None;
        }
        let prompts = runner.env().agent_prompts()?;
        self.started = true;
        let built = match &mut self.memory {
            Some(agent) => agent.request(
                &prompts,
                runner.step_count(),
                self.experience.as_deref().unwrap_or(prompt::NO_EXPERIENCE),
            ),
            None => request_messages(
                &prompts,
                runner.step_count(),
                self.last_action.as_deref(),
                self.experience.as_deref(),
            ),
        };
        let messages = match built {
            Ok(m) => m,
            Err(e) => {
                self.last_error = Some(ApiError::new(ErrorKind::BadResponse, e));
                self.over = true;
                return None;
            }
        };
        Some(RequestPlan {
            messages,
            wait_before_ms: self.wait_ms,
        })
    }

    /// A reply: its `### Actions` text is the decision, whatever it says (the memory
    /// agent's history review is followed by its action request).
    pub fn on_reply(&mut self, text: &str) -> Next {
        self.transport_retries = 0;
        self.wait_ms = 0;
        if let Some(agent) = &mut self.memory {
            return match agent.on_reply(text) {
                None => Next::Ask,
                Some(decision) => Next::Decide(Reply::Text {
                    text: decision,
                    raw: Some(text.to_string()),
                    rejected: Vec::new(),
                }),
            };
        }
        let action = reply::actions_field(text);
        if action.is_some() {
            self.last_action.clone_from(&action);
        }
        Next::Decide(Reply::Text {
            text: action.unwrap_or_else(|| reply::NO_ACTION.to_string()),
            raw: Some(text.to_string()),
            rejected: Vec::new(),
        })
    }

    /// A failed request: retried on [`retry`]'s schedule, else the end of the episode.
    pub fn on_error(&mut self, error: ApiError) -> Next {
        self.last_error = Some(error.clone());
        match retry::wait_before_retry(&error.kind, self.transport_retries) {
            Some(ms) => {
                self.transport_retries += 1;
                self.wait_ms = ms;
                Next::Ask
            }
            None => {
                self.over = true;
                Next::Decide(Reply::Fail {
                    failure: match error.kind {
                        ErrorKind::ContextOverflow => FailureMode::TokenOverflow,
                        _ => FailureMode::ApiError,
                    },
                    rejected: Vec::new(),
                })
            }
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

    fn prompts(user: &'static str) -> AgentPrompts {
        AgentPrompts {
            game_name: "Test",
            system: "Rules.\n{reflection_experience}\nEnd.",
            user,
            values: vec![("task_description", "Win.".into())],
            memory: None,
            observation: None,
        }
    }

    fn texts(m: &Message) -> Vec<String> {
        m.parts
            .iter()
            .map(|p| match p {
                Part::Text(t) | Part::TextBlock(t) => t.clone(),
                Part::Image(ImageRef::Current { step }) => format!("<{step}>"),
                Part::Image(other) => format!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn the_user_template_splits_at_its_markers() {
        let p = prompts(
            "### Target task\n{task_description}\n\n### Previous state\n<|prev_state_image|>\n\n### Last executed action\n{action}\n\n### Current state\n<|cur_state_image|>\n",
        );
        let first = request_messages(&p, 0, None, None).unwrap();
        assert_eq!(first.len(), 2);
        assert_eq!(first[0].role, Role::System);
        assert_eq!(
            texts(&first[0]),
            [format!("Rules.\n{}\nEnd.", prompt::NO_EXPERIENCE)]
        );
        assert_eq!(
            texts(&first[1]),
            [
                "### Target task\nWin.\n\n### Previous state\n",
                "None",
                "\n\n### Last executed action\nNo action executed yet.\n\n### Current state\n",
                "<0>"
            ]
        );
        let later = request_messages(&p, 3, Some("up"), Some("Go {left}.")).unwrap();
        assert_eq!(texts(&later[0]), ["Rules.\nGo {left}.\nEnd."]);
        assert_eq!(texts(&later[1])[1], "<2>");
        assert!(texts(&later[1])[2].contains("action\nup\n"));
        assert_eq!(texts(&later[1])[3], "<3>");
        // A game without a task text: the placeholder is empty.
        let mut bare = p.clone();
        bare.values.clear();
        let m = request_messages(&bare, 0, None, None).unwrap();
        assert!(texts(&m[1])[0].starts_with("### Target task\n\n\n"));
    }

    #[test]
    fn adjacent_markers_and_blank_pieces() {
        let p = prompts("<|cur_state_image|> \n <|prev_state_image|>x");
        let m = request_messages(&p, 1, None, None).unwrap();
        assert_eq!(texts(&m[1]), ["<1>", "<0>", "x"]);
        let bad = prompts("{missing}");
        assert!(request_messages(&bad, 0, None, None)
            .unwrap_err()
            .contains("no value for placeholder {missing}"));
    }

    #[test]
    fn the_last_actions_text_is_kept_until_another_reply_has_one() {
        let task = crate::suites::latest("gameverse")
            .unwrap()
            .tasks
            .iter()
            .find(|t| t.env == "GameVerse/Maze")
            .unwrap()
            .clone();
        let runner = EpisodeRunner::start(&task).unwrap();
        let mut s = GameVerseSession::new(&task, &runner, SessionConfig::default()).unwrap();
        assert!(s.set_experience(Some("E".into())).is_ok());
        s.next_request(&runner).unwrap();
        assert!(s.set_experience(None).is_err());
        assert_eq!(s.experience(), Some("E"));
        let Next::Decide(Reply::Text { text, .. }) = s.on_reply("### Actions\nup") else {
            panic!()
        };
        assert_eq!(text, "up");
        let Next::Decide(Reply::Text { text, .. }) = s.on_reply("I go up") else {
            panic!()
        };
        assert_eq!(text, "None");
        assert_eq!(s.last_action.as_deref(), Some("up"));
        let Next::Decide(Reply::Text { text, .. }) = s.on_reply("### Actions: left") else {
            panic!()
        };
        assert_eq!(text, "");
        assert_eq!(s.last_action.as_deref(), Some(""));
    }
}
