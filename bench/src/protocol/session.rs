//! One episode with a model, as a pure state machine (`docs/vical-protocol.md`): it builds
//! the turns, keeps the history window, parses replies, asks again after malformed
//! ones and after transport errors, and turns the outcome into a [`Reply`] for the
//! [`EpisodeRunner`]. The caller does the HTTP and the sleeping:
//!
//! ```text
//! while let Some(plan) = session.next_request(&runner) {
//!     sleep(plan.wait_before_ms); send(plan.messages)
//!     match session.on_reply(text) / session.on_error(err) {
//!         Next::Ask => continue,
//!         Next::Decide(reply) => ModelSession::settle(&mut runner, reply)?,
//!     }
//! }
//! ```

use serde::{Deserialize, Serialize};

use super::parse::{parse_action, ParseError, Strictness};
use super::prompt::{
    first_turn, later_turn_with_feedback, retry_message, DemoMode, ImageRef, Message, Part, Role,
};
use super::providers::{ApiError, ErrorKind};
use super::retry::{backoff_ms, MAX_FORMAT_RETRIES, MAX_TRANSPORT_RETRIES};
use crate::demo::clip_frame_count;
use crate::episode::EpisodeError;
use crate::{EpisodeRunner, FailureMode, Reply, Task, TaskError};

/// How much of the conversation each request carries (`docs/vical-protocol.md`,
/// "History window").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HistoryWindow {
    /// Everything since the first turn (V-ICAL).
    #[default]
    Full,
    /// The first turn (instructions, demos, initial state) and its answer, then the
    /// last K decision turns, the current one included (K ≥ 1).
    Last(u32),
}

/// How the current state is shown (`docs/vical-protocol.md`, "Observation"): the frame,
/// the environment's text rendering, or both (the text follows the frame).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObservationMode {
    #[default]
    Image,
    Text,
    Both,
}

/// Whether the model sees rewards: as the task says (hidden for every V-ICAL task), or
/// overridden.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RewardMode {
    #[default]
    Task,
    Shown,
    Hidden,
}

/// Which harness talks to the model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Protocol {
    /// V-ICAL's conversation (protocol.md §3-4): rules, demonstrations, `[Action: …]`
    /// replies.
    #[default]
    Vical,
    /// VisGym's harness word for word (`super::visgym`, docs/visgym.md "Harness"):
    /// the environment's own instructions, free-text replies read by its parser.
    Visgym,
    /// GameVerse's agent loop word for word (`super::gameverse`, docs/gameverse.md
    /// "Harness"): the game's own prompt templates, two messages per step, replies read
    /// under `### Actions`.
    Gameverse,
}

/// Which of GameVerse's agents plays (`Protocol::Gameverse`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameVerseAgent {
    /// One request per step with the previous and current screenshots and the last
    /// action text (GameVerse runs its open games with it).
    #[default]
    ZeroShot,
    /// Two requests per step (history review, then the action with long-term memory)
    /// on Playbench's memory-agent templates (docs/gameverse.md, "Memory agent").
    Memory,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SessionConfig {
    pub strictness: Strictness,
    /// VisGym also takes `Last(0)`: every turn alone, without feedback.
    pub history: HistoryWindow,
    pub demo_mode: DemoMode,
    /// VisGym: `Image` or `Text` (its ASCII variant).
    pub observation: ObservationMode,
    /// Textual environment feedback after each action (VisGym).
    pub feedback: bool,
    pub reward: RewardMode,
    pub protocol: Protocol,
    /// VisGym: ask for `<think>…</think><answer>…</answer>` and read the answer.
    pub verbalize: bool,
    /// VisGym: show the solved state as a second image in the first turn.
    pub final_goal: bool,
    /// VisGym: repeat the instructions in every later turn.
    pub repeat_instructions: bool,
    /// GameVerse: which agent plays.
    pub gameverse_agent: GameVerseAgent,
}

/// The feedback line for a decision: what happened, in words every environment shares.
fn feedback_text(d: &crate::Decision, previous_hash: Option<&str>) -> &'static str {
    if d.terminated {
        "executed; the episode ended"
    } else if d.truncated {
        "executed; the step limit was reached"
    } else if previous_hash == Some(d.frame_hash.as_str()) {
        "executed; nothing visibly changed (the move may be blocked)"
    } else {
        "executed"
    }
}

/// The next request to send.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestPlan {
    pub messages: Vec<Message>,
    /// Backoff before sending (transport retries), in milliseconds.
    pub wait_before_ms: u64,
}

/// What the caller does after an answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Next {
    /// Send [`ModelSession::next_request`] again (a retry).
    Ask,
    /// The decision is made: hand it to the runner with [`ModelSession::settle`].
    Decide(Reply),
}

/// One decision's part of the conversation.
#[derive(Clone, Debug)]
struct Exchange {
    prompt: Message,
    /// The environment's text rendering of the state the prompt shows (text
    /// observations), captured when the state was current.
    state_text: Option<String>,
    /// Rejected replies, each followed by the retry message.
    attempts: Vec<Message>,
    /// The accepted reply.
    reply: Option<Message>,
}

impl Exchange {
    fn new(prompt: Message) -> Self {
        Self {
            prompt,
            state_text: None,
            attempts: Vec::new(),
            reply: None,
        }
    }
}

fn assistant(text: &str) -> Message {
    Message {
        role: Role::Assistant,
        parts: vec![Part::Text(text.to_string())],
    }
}

pub struct ModelSession {
    config: SessionConfig,
    actions: Vec<String>,
    hide_reward: bool,
    exchanges: Vec<Exchange>,
    rejected: Vec<String>,
    format_retries: u32,
    transport_retries: u32,
    wait_ms: u64,
    over: bool,
    last_error: Option<ApiError>,
    last_parse_error: Option<ParseError>,
}

impl ModelSession {
    /// A session for `task` from its start (the demonstrations are replayed, without
    /// drawing, to count their frames).
    pub fn new(task: &Task, config: SessionConfig) -> Result<Self, TaskError> {
        let frames = task
            .demos
            .iter()
            .map(|c| clip_frame_count(task, c))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self::with_demo_frames(task, config, &frames))
    }

    /// As [`new`](Self::new) with the demonstrations' frame counts, by clip, known.
    pub fn with_demo_frames(task: &Task, config: SessionConfig, frames: &[usize]) -> Self {
        let first = first_turn(task, &task.env, frames, config.demo_mode);
        Self {
            config,
            actions: task.actions.clone(),
            hide_reward: match config.reward {
                RewardMode::Task => task.hide_reward,
                RewardMode::Shown => false,
                RewardMode::Hidden => true,
            },
            exchanges: vec![Exchange::new(first)],
            rejected: Vec::new(),
            format_retries: 0,
            transport_retries: 0,
            wait_ms: 0,
            over: false,
            last_error: None,
            last_parse_error: None,
        }
    }

    /// The request for the runner's current decision, or `None` when the episode is
    /// over. Catches up with decisions applied since the last call.
    pub fn next_request(&mut self, runner: &EpisodeRunner) -> Option<RequestPlan> {
        if self.over || runner.is_done() {
            return None;
        }
        let decisions = runner.decisions();
        while self.exchanges.len() <= decisions.len() {
            let step = self.exchanges.len();
            let d = &decisions[step - 1];
            if let Some(prev) = self.exchanges.last_mut() {
                // A decision the session did not make (e.g. a person took over).
                prev.reply.get_or_insert_with(|| {
                    assistant(
                        d.raw
                            .as_deref()
                            .unwrap_or(&format!("[Action: {}]", d.action)),
                    )
                });
            }
            let reward = (!self.hide_reward).then(|| {
                let total: f64 = decisions[..step].iter().map(|d| d.reward).sum();
                (d.reward, total)
            });
            let feedback = self.config.feedback.then(|| {
                let previous = step
                    .checked_sub(2)
                    .map(|i| decisions[i].frame_hash.as_str());
                feedback_text(d, previous)
            });
            self.exchanges.push(Exchange::new(later_turn_with_feedback(
                step as u32,
                &d.action,
                reward,
                feedback,
            )));
        }
        if self.config.observation != ObservationMode::Image {
            if let Some(ex) = self.exchanges.last_mut() {
                ex.state_text
                    .get_or_insert_with(|| runner.env().render_text());
            }
        }
        Some(RequestPlan {
            messages: self.window(),
            wait_before_ms: self.wait_ms,
        })
    }

    /// The conversation under the history window.
    fn window(&self) -> Vec<Message> {
        let n = self.exchanges.len();
        let from = match self.config.history {
            HistoryWindow::Full => 0,
            HistoryWindow::Last(k) => n.saturating_sub(k.max(1) as usize),
        };
        let mut out = Vec::new();
        if from > 0 {
            let first = &self.exchanges[0];
            out.push(self.observed(first));
            out.extend(first.reply.clone());
        }
        for ex in &self.exchanges[from..] {
            out.push(self.observed(ex));
            out.extend(ex.attempts.iter().cloned());
            out.extend(ex.reply.clone());
        }
        out
    }

    /// The exchange's prompt with the current state shown as the observation mode says.
    fn observed(&self, ex: &Exchange) -> Message {
        let mode = self.config.observation;
        if mode == ObservationMode::Image {
            return ex.prompt.clone();
        }
        let text = format!(
            "\nText rendering of the state:\n{}\n",
            ex.state_text
                .as_deref()
                .unwrap_or("(not available for this state)")
        );
        let mut parts = Vec::with_capacity(ex.prompt.parts.len() + 1);
        for p in &ex.prompt.parts {
            match p {
                Part::Image(ImageRef::Current { .. }) => {
                    if mode == ObservationMode::Both {
                        parts.push(p.clone());
                    }
                    parts.push(Part::Text(text.clone()));
                }
                _ => parts.push(p.clone()),
            }
        }
        Message {
            role: ex.prompt.role,
            parts,
        }
    }

    fn fail(&mut self, mode: FailureMode) -> Next {
        self.over = true;
        Next::Decide(Reply::Fail {
            failure: mode,
            rejected: std::mem::take(&mut self.rejected),
        })
    }

    /// A reply's text: the decision, or a retry with the retry message.
    pub fn on_reply(&mut self, text: &str) -> Next {
        self.transport_retries = 0;
        self.wait_ms = 0;
        let step = self.exchanges.len() - 1;
        match parse_action(text, &self.actions, self.config.strictness) {
            Ok(action) => {
                if let Some(ex) = self.exchanges.last_mut() {
                    ex.reply = Some(assistant(text));
                }
                self.format_retries = 0;
                self.last_parse_error = None;
                Next::Decide(Reply::Act {
                    action,
                    raw: Some(text.to_string()),
                    rejected: std::mem::take(&mut self.rejected),
                })
            }
            Err(e) => {
                self.last_parse_error = Some(e);
                self.rejected.push(text.to_string());
                if self.format_retries >= MAX_FORMAT_RETRIES {
                    return self.fail(FailureMode::InvalidAction);
                }
                self.format_retries += 1;
                if let Some(ex) = self.exchanges.last_mut() {
                    ex.attempts.push(assistant(text));
                    ex.attempts.push(retry_message(step as u32));
                }
                Next::Ask
            }
        }
    }

    /// A failed request: retried with backoff, or the end of the episode.
    pub fn on_error(&mut self, error: ApiError) -> Next {
        let next = match error.kind {
            ErrorKind::ContextOverflow => self.fail(FailureMode::TokenOverflow),
            ErrorKind::Transport | ErrorKind::RateLimited { .. }
                if self.transport_retries < MAX_TRANSPORT_RETRIES =>
            {
                self.transport_retries += 1;
                let after = match error.kind {
                    ErrorKind::RateLimited { retry_after_s } => retry_after_s,
                    _ => None,
                };
                self.wait_ms = backoff_ms(self.transport_retries, after);
                Next::Ask
            }
            _ => self.fail(FailureMode::ApiError),
        };
        self.last_error = Some(error);
        next
    }

    /// Hands a decision to the runner.
    pub fn settle(runner: &mut EpisodeRunner, reply: Reply) -> Result<(), EpisodeError> {
        match reply {
            Reply::Act {
                action,
                raw,
                rejected,
            } => runner.apply(action, raw, rejected).map(|_| ()),
            Reply::Text {
                text,
                raw,
                rejected,
            } => runner.apply_text(&text, raw, rejected).map(|_| ()),
            Reply::Fail { failure, rejected } => {
                runner.fail(failure, rejected);
                Ok(())
            }
        }
    }

    /// The last request error (for people; never part of the record).
    pub fn last_error(&self) -> Option<&ApiError> {
        self.last_error.as_ref()
    }

    /// Why the last reply was rejected, if it was.
    pub fn last_parse_error(&self) -> Option<&ParseError> {
        self.last_parse_error.as_ref()
    }

    /// Transport retries made for the current request so far.
    pub fn transport_retries(&self) -> u32 {
        self.transport_retries
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::prompt::{ImageRef, RETRY_FIRST_TURN, RETRY_LATER_TURN};
    use crate::EpisodeRecord;

    fn task(extra: serde_json::Value) -> Task {
        let mut base = serde_json::json!({
            "id": "t", "env": "FrozenLake-v1", "kwargs": {"is_slippery": false},
            "seed": 0, "max_steps": 10, "actions": ["Left", "Down", "Right", "Up"],
            "demos": [{"label": "x", "seed": 1, "actions": ["Down", "Right"]}],
            "pass": {"kind": "reach_goal"},
            "score": {"kind": "navigation", "reference_steps": 6},
            "tags": {"family": "FrozenLake", "memory": "single", "dynamics": "static"}
        });
        for (k, v) in extra.as_object().unwrap() {
            base[k] = v.clone();
        }
        Task::from_json(&base.to_string()).unwrap()
    }

    fn setup(history: HistoryWindow) -> (ModelSession, EpisodeRunner) {
        let t = task(serde_json::json!({}));
        let cfg = SessionConfig {
            history,
            ..SessionConfig::default()
        };
        (
            ModelSession::new(&t, cfg).unwrap(),
            EpisodeRunner::start(&t).unwrap(),
        )
    }

    /// Sends `reply` and settles the decision when there is one.
    fn answer(s: &mut ModelSession, r: &mut EpisodeRunner, reply: &str) -> bool {
        s.next_request(r).unwrap();
        match s.on_reply(reply) {
            Next::Ask => false,
            Next::Decide(d) => {
                ModelSession::settle(r, d).unwrap();
                true
            }
        }
    }

    fn texts(plan: &RequestPlan) -> Vec<String> {
        plan.messages.iter().map(Message::to_text).collect()
    }

    fn roles_alternate(plan: &RequestPlan) {
        for (i, m) in plan.messages.iter().enumerate() {
            let want = if i % 2 == 0 {
                Role::User
            } else {
                Role::Assistant
            };
            assert_eq!(m.role, want, "message {i}");
        }
        assert_eq!(plan.messages.last().unwrap().role, Role::User);
    }

    fn finish(s: &mut ModelSession, r: EpisodeRunner) -> EpisodeRecord {
        assert!(s.next_request(&r).is_none());
        r.finish("model")
    }

    fn with(config: SessionConfig, extra: serde_json::Value) -> (ModelSession, EpisodeRunner) {
        let t = task(extra);
        (
            ModelSession::new(&t, config).unwrap(),
            EpisodeRunner::start(&t).unwrap(),
        )
    }

    #[test]
    fn text_observations_replace_or_follow_the_frame() {
        for (mode, images) in [(ObservationMode::Text, 4), (ObservationMode::Both, 5)] {
            let cfg = SessionConfig {
                observation: mode,
                ..SessionConfig::default()
            };
            let (mut s, mut r) = with(cfg, serde_json::json!({}));
            let plan = s.next_request(&r).unwrap();
            assert_eq!(plan.messages[0].images().count(), images, "{mode:?}");
            let first = plan.messages[0].to_text();
            assert!(first.contains("Text rendering of the state:\n"), "{first}");
            // FrozenLake's text rendering marks the agent's cell.
            assert!(first.contains(&r.env().render_text()), "{first}");
            assert!(answer(&mut s, &mut r, "[Action: Down]"));
            let plan = s.next_request(&r).unwrap();
            let later = plan.messages[2].to_text();
            assert!(later.contains(&r.env().render_text()), "{later}");
            // The first turn keeps the state it showed.
            assert_eq!(plan.messages[0].to_text(), first);
        }
    }

    #[test]
    fn feedback_says_what_the_action_did() {
        let cfg = SessionConfig {
            feedback: true,
            ..SessionConfig::default()
        };
        let (mut s, mut r) = with(cfg, serde_json::json!({}));
        assert!(answer(&mut s, &mut r, "[Action: Down]"));
        let plan = s.next_request(&r).unwrap();
        assert!(texts(&plan)[2].contains("Previous action: Down\nFeedback: executed\n"));
        // Up twice from the second row: the second is blocked by the edge and the
        // frame (the elf already faces up) does not change.
        assert!(answer(&mut s, &mut r, "[Action: Up]"));
        assert!(answer(&mut s, &mut r, "[Action: Up]"));
        let plan = s.next_request(&r).unwrap();
        assert!(texts(&plan)[4].contains("Feedback: executed\n"));
        assert!(
            texts(&plan)[6].contains("Feedback: executed; nothing visibly changed"),
            "{}",
            texts(&plan)[6]
        );
        let (mut s, r) = with(SessionConfig::default(), serde_json::json!({}));
        assert!(!texts(&s.next_request(&r).unwrap())[0].contains("Feedback"));
    }

    #[test]
    fn the_reward_setting_overrides_the_task() {
        let shown = SessionConfig {
            reward: RewardMode::Shown,
            ..SessionConfig::default()
        };
        let (mut s, mut r) = with(shown, serde_json::json!({"hide_reward": true}));
        assert!(answer(&mut s, &mut r, "[Action: Down]"));
        assert!(texts(&s.next_request(&r).unwrap())[2].contains("Cumulative reward: 0"));
        let hidden = SessionConfig {
            reward: RewardMode::Hidden,
            ..SessionConfig::default()
        };
        let (mut s, mut r) = with(hidden, serde_json::json!({"hide_reward": false}));
        assert!(answer(&mut s, &mut r, "[Action: Down]"));
        assert!(!texts(&s.next_request(&r).unwrap())[2].contains("reward"));
        // Old configurations without the new fields still read.
        let old: SessionConfig =
            serde_json::from_str(r#"{"strictness":"exact","history":"full","demo_mode":"images"}"#)
                .unwrap();
        assert_eq!(old, SessionConfig::default());
    }

    #[test]
    fn the_first_request_is_the_first_turn_with_demo_frames() {
        let (mut s, r) = setup(HistoryWindow::Full);
        let plan = s.next_request(&r).unwrap();
        assert_eq!(plan.wait_before_ms, 0);
        assert_eq!(plan.messages.len(), 1);
        let refs: Vec<_> = plan.messages[0].images().copied().collect();
        // Start, two steps, the outcome copy; then the initial state.
        assert_eq!(refs.len(), 5);
        assert_eq!(refs[3], ImageRef::DemoFrame { clip: 0, frame: 3 });
        assert_eq!(refs[4], ImageRef::Current { step: 0 });
        assert!(texts(&plan)[0]
            .starts_with("You are interacting with the environment: FrozenLake-v1\n"));
    }

    #[test]
    fn valid_replies_play_and_later_turns_follow() {
        let (mut s, mut r) = setup(HistoryWindow::Full);
        assert!(answer(&mut s, &mut r, "[Action: Down]\nthe hole is right"));
        let plan = s.next_request(&r).unwrap();
        roles_alternate(&plan);
        let t = texts(&plan);
        assert_eq!(t.len(), 3);
        assert_eq!(t[1], "[Action: Down]\nthe hole is right");
        assert!(t[2].starts_with("Step 1 - Result of your last action:\nPrevious action: Down\n"));
        assert_eq!(
            plan.messages[2].images().copied().collect::<Vec<_>>(),
            vec![ImageRef::Current { step: 1 }]
        );
        assert_eq!(
            r.decisions()[0].raw.as_deref(),
            Some("[Action: Down]\nthe hole is right")
        );
    }

    #[test]
    fn three_format_retries_then_invalid_action_keeping_every_candidate() {
        let (mut s, mut r) = setup(HistoryWindow::Full);
        for i in 0..3 {
            assert!(!answer(&mut s, &mut r, &format!("I go down {i}")));
        }
        let plan = s.next_request(&r).unwrap();
        roles_alternate(&plan);
        let t = texts(&plan);
        assert_eq!(t.len(), 7);
        assert_eq!(
            (t[1].as_str(), t[2].as_str()),
            ("I go down 0", RETRY_FIRST_TURN)
        );
        assert_eq!(t[6], RETRY_FIRST_TURN);
        assert!(answer(&mut s, &mut r, "[Action: Jump]"));
        assert!(matches!(
            s.last_parse_error(),
            Some(ParseError::UnknownAction { .. })
        ));
        let rec = finish(&mut s, r);
        assert_eq!(rec.failure, Some(FailureMode::InvalidAction));
        assert_eq!(
            rec.rejected,
            vec![
                "I go down 0",
                "I go down 1",
                "I go down 2",
                "[Action: Jump]"
            ]
        );
        assert!(rec.decisions.is_empty());
    }

    #[test]
    fn a_late_valid_reply_keeps_the_rejected_ones_in_record_and_history() {
        let (mut s, mut r) = setup(HistoryWindow::Full);
        assert!(answer(&mut s, &mut r, "[Action: Down]"));
        assert!(!answer(&mut s, &mut r, "Down"));
        assert!(!answer(&mut s, &mut r, "[Action: down]"));
        assert!(answer(&mut s, &mut r, "[Action: Down]"));
        assert_eq!(r.decisions()[1].rejected, vec!["Down", "[Action: down]"]);
        assert!(r.decisions()[0].rejected.is_empty());
        let plan = s.next_request(&r).unwrap();
        roles_alternate(&plan);
        let t = texts(&plan);
        assert_eq!(
            &t[3..8],
            [
                "Down",
                RETRY_LATER_TURN,
                "[Action: down]",
                RETRY_LATER_TURN,
                "[Action: Down]"
            ]
        );
        // The format-retry budget is per decision.
        for _ in 0..3 {
            assert!(!answer(&mut s, &mut r, "?"));
        }
        assert!(answer(&mut s, &mut r, "[Action: Right]"));
        assert_eq!(r.decisions().len(), 3);
    }

    #[test]
    fn lenient_strictness_is_applied() {
        let t = task(serde_json::json!({}));
        let cfg = SessionConfig {
            strictness: Strictness::Lenient,
            ..SessionConfig::default()
        };
        let mut s = ModelSession::new(&t, cfg).unwrap();
        let mut r = EpisodeRunner::start(&t).unwrap();
        assert!(answer(&mut s, &mut r, "**[action: down]**"));
        assert_eq!(r.decisions()[0].action, "Down");
    }

    fn err(kind: ErrorKind) -> ApiError {
        ApiError::new(kind, "x")
    }

    #[test]
    fn transport_errors_back_off_three_times_then_api_error() {
        let (mut s, r) = setup(HistoryWindow::Full);
        let mut waits = Vec::new();
        for _ in 0..3 {
            s.next_request(&r).unwrap();
            assert_eq!(s.on_error(err(ErrorKind::Transport)), Next::Ask);
            waits.push(s.next_request(&r).unwrap().wait_before_ms);
        }
        assert_eq!(waits, vec![1_000, 2_000, 4_000]);
        let Next::Decide(d) = s.on_error(err(ErrorKind::Transport)) else {
            panic!("no decision")
        };
        assert_eq!(
            d,
            Reply::Fail {
                failure: FailureMode::ApiError,
                rejected: vec![]
            }
        );
        assert!(s.next_request(&r).is_none());
    }

    #[test]
    fn retry_after_is_honoured_and_counters_reset_after_a_reply() {
        let (mut s, mut r) = setup(HistoryWindow::Full);
        s.next_request(&r).unwrap();
        let limited = ErrorKind::RateLimited {
            retry_after_s: Some(1),
        };
        assert_eq!(s.on_error(err(limited.clone())), Next::Ask);
        assert_eq!(s.next_request(&r).unwrap().wait_before_ms, 1_000);
        assert_eq!(s.on_error(err(ErrorKind::Transport)), Next::Ask);
        assert_eq!(s.next_request(&r).unwrap().wait_before_ms, 2_000);
        assert!(answer(&mut s, &mut r, "[Action: Down]"));
        assert_eq!(s.next_request(&r).unwrap().wait_before_ms, 0);
        for _ in 0..3 {
            assert_eq!(s.on_error(err(limited.clone())), Next::Ask);
        }
        assert_eq!(s.transport_retries(), 3);
        assert!(matches!(s.on_error(err(limited)), Next::Decide(_)));
        assert_eq!(s.last_error().map(|e| e.message.as_str()), Some("x"));
    }

    #[test]
    fn overflow_is_token_overflow_and_fatal_errors_end_at_once() {
        let (mut s, mut r) = setup(HistoryWindow::Full);
        assert!(!answer(&mut s, &mut r, "hmm"));
        let Next::Decide(d) = s.on_error(err(ErrorKind::ContextOverflow)) else {
            panic!("no decision")
        };
        ModelSession::settle(&mut r, d).unwrap();
        let rec = finish(&mut s, r);
        assert_eq!(rec.failure, Some(FailureMode::TokenOverflow));
        assert_eq!(rec.rejected, vec!["hmm"]);
        for kind in [
            ErrorKind::Auth,
            ErrorKind::UnknownModel,
            ErrorKind::NoImages,
            ErrorKind::BadResponse,
        ] {
            let (mut s, r) = setup(HistoryWindow::Full);
            s.next_request(&r).unwrap();
            assert!(
                matches!(
                    s.on_error(err(kind.clone())),
                    Next::Decide(Reply::Fail {
                        failure: FailureMode::ApiError,
                        ..
                    })
                ),
                "{kind:?}"
            );
        }
    }

    #[test]
    fn the_history_window_keeps_the_first_turn_and_the_last_k() {
        let (mut s, mut r) = setup(HistoryWindow::Last(2));
        // Right, Left, Right, Left: no hole, four decisions.
        assert!(!answer(&mut s, &mut r, "bad"));
        for a in ["Right", "Left", "Right", "Left"] {
            let reply = format!("[Action: {a}] {}", r.step_count());
            assert!(answer(&mut s, &mut r, &reply));
        }
        let plan = s.next_request(&r).unwrap();
        roles_alternate(&plan);
        let t = texts(&plan);
        assert_eq!(t.len(), 5, "{t:#?}");
        assert!(t[0].starts_with("You are interacting"));
        assert_eq!(plan.messages[0].images().count(), 5, "demos kept");
        // The first turn's retries are dropped, its accepted answer kept.
        assert_eq!(t[1], "[Action: Right] 0");
        assert!(t[2].starts_with("Step 3 - "));
        assert_eq!(t[3], "[Action: Left] 3");
        assert!(t[4].starts_with("Step 4 - "));
        // K = 1: the first turn and the current one.
        let (mut s1, mut r1) = setup(HistoryWindow::Last(1));
        assert!(answer(&mut s1, &mut r1, "[Action: Right]"));
        assert!(answer(&mut s1, &mut r1, "[Action: Left]"));
        let t = texts(&s1.next_request(&r1).unwrap());
        assert_eq!(t.len(), 3);
        assert!(t[2].starts_with("Step 2 - "));
        // Early on the window holds everything, like Full.
        let (mut s2, mut r2) = setup(HistoryWindow::Last(3));
        let (mut f, mut rf) = setup(HistoryWindow::Full);
        for (s, r) in [(&mut s2, &mut r2), (&mut f, &mut rf)] {
            assert!(!answer(s, r, "bad"));
            assert!(answer(s, r, "[Action: Right]"));
        }
        assert_eq!(s2.next_request(&r2), f.next_request(&rf));
        // Full keeps everything.
        for a in ["Left", "Right", "Left"] {
            assert!(answer(&mut f, &mut rf, &format!("[Action: {a}]")));
        }
        assert_eq!(f.next_request(&rf).unwrap().messages.len(), 1 + 2 + 2 * 4);
    }

    #[test]
    fn shown_rewards_and_outside_decisions() {
        let t = task(serde_json::json!({"hide_reward": false}));
        let mut s = ModelSession::new(&t, SessionConfig::default()).unwrap();
        let mut r = EpisodeRunner::start(&t).unwrap();
        s.next_request(&r).unwrap();
        // A decision made outside the session (a person) is caught up with.
        r.apply(2, None, Vec::new()).unwrap();
        let plan = s.next_request(&r).unwrap();
        roles_alternate(&plan);
        let t = texts(&plan);
        assert_eq!(t[1], "[Action: Right]");
        assert!(
            t[2].contains("Reward: 0\nCumulative reward: 0\n"),
            "{}",
            t[2]
        );
    }
}
