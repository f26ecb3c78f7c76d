//! The audited episode's complete interaction log (`docs/audit.md`, "Evidence"; the
//! V-ICAL paper, Appendix C.2), rebuilt from the episode record: the task is played
//! again from its seed with the recorded replies fed to the same conversation
//! (`crate::protocol::session`), so every request the playing model received comes back
//! with its text and images in their original order, followed by the reply it gave.
//! Frames are re-simulated, never stored.

use envs::Frame;

use crate::demo::{caption_frame, render_clip, Outcome};
use crate::latency::RecordReplay;
use crate::protocol::prompt::{DemoMode, ImageRef, Message, Role};
use crate::protocol::session::{HistoryWindow, ModelSession, Next, Protocol, SessionConfig};
use crate::{EpisodeRecord, EpisodeRunner, FailureMode, Reply, Task};

/// One request the playing model received and what it answered.
#[derive(Clone, Debug, PartialEq)]
pub struct EvidenceTurn {
    /// Decisions made before the request (its state is position `step` in the replay
    /// viewer).
    pub step: u32,
    /// The request's new user message: the turn's prompt, or a format retry message.
    pub request: Message,
    /// The reply; `None` when the request failed (the episode ended on it).
    pub response: Option<String>,
}

/// Everything the two audit requests show of one episode.
pub struct Evidence {
    /// The demonstrations' captioned frames, by clip.
    pub demos: Vec<Vec<Frame>>,
    /// The live frame each request showed, by decisions made (`ImageRef::Current`).
    pub states: Vec<Frame>,
    /// The last frame, captioned with how the episode ended.
    pub ending: Frame,
    pub ending_label: &'static str,
    pub turns: Vec<EvidenceTurn>,
}

impl Evidence {
    /// The frame an image reference of the evidence stands for.
    pub fn frame(&self, r: &ImageRef) -> Option<&Frame> {
        match *r {
            ImageRef::DemoFrame { clip, frame } => self.demos.get(clip)?.get(frame),
            ImageRef::Current { step } => self.states.get(step as usize),
            ImageRef::EndingFrame => Some(&self.ending),
            ImageRef::DemoVideo { .. } | ImageRef::StepVideo | ImageRef::FinalGoal => None,
        }
    }
}

/// How the episode ended, as the demonstrations label their last frame.
pub fn ending(record: &EpisodeRecord) -> Outcome {
    if record.passed || record.progress.success {
        Outcome::Victory
    } else if record.failure == Some(FailureMode::Timeout) {
        Outcome::TimeOut
    } else {
        Outcome::Terminated
    }
}

/// The session settings the episode was played with, read from the run's recorded
/// settings (`docs/cli.md`, "Settings recorded"); what the audit needs of them is
/// what changes the turns' text. The history is always full (the log quotes every
/// turn once) and demonstrations are frames (one per decision, as every provider
/// takes them).
pub fn session_config(
    settings: Option<&serde_json::Map<String, serde_json::Value>>,
) -> SessionConfig {
    let pick = |key: &str| -> Option<serde_json::Value> {
        settings
            .and_then(|s| s.get(key))
            .map(|v| serde_json::Value::String(v.as_str().unwrap_or_default().to_string()))
    };
    let mut c = SessionConfig::default();
    if let Some(v) = pick("strictness").and_then(|v| serde_json::from_value(v).ok()) {
        c.strictness = v;
    }
    if let Some(v) = pick("observation").and_then(|v| serde_json::from_value(v).ok()) {
        c.observation = v;
    }
    if let Some(v) = pick("reward").and_then(|v| serde_json::from_value(v).ok()) {
        c.reward = v;
    }
    if let Some(v) = pick("protocol").and_then(|v| serde_json::from_value(v).ok()) {
        c.protocol = v;
    }
    c.feedback = settings
        .and_then(|s| s.get("feedback"))
        .is_some_and(|v| v.as_bool() == Some(true) || v.as_str() == Some("true"));
    c.history = HistoryWindow::Full;
    c.demo_mode = DemoMode::Images;
    c
}

fn mismatch(decision: usize, what: &str) -> String {
    format!("decision {decision}: the recorded replies do not replay ({what})")
}

/// Rebuilds the interaction log of `record`, an episode of `task` played under
/// `config` (see [`session_config`]).
pub fn build_evidence(
    task: &Task,
    record: &EpisodeRecord,
    config: SessionConfig,
) -> Result<Evidence, String> {
    if config.protocol == Protocol::Visgym {
        return Err(
            "the auditor reads V-ICAL conversations; this episode was played with VisGym's harness"
                .into(),
        );
    }
    if record.task != task.id {
        return Err(format!(
            "the episode is of task {:?}, not {:?}",
            record.task, task.id
        ));
    }
    let config = SessionConfig {
        history: HistoryWindow::Full,
        demo_mode: DemoMode::Images,
        ..config
    };
    let demos = task
        .demos
        .iter()
        .map(|c| render_clip(task, c))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let mut session = ModelSession::new(task, config).map_err(|e| e.to_string())?;
    let mut runner = EpisodeRunner::start(task).map_err(|e| e.to_string())?;
    let mut log = Log::default();
    log.capture(&runner);
    // A model's real-time episode replays from its thinking times, as it was played
    // (`crate::latency`): each request saw the state after the idle steps due by then.
    let mut replay = RecordReplay::new(&runner, record);
    for (i, d) in record.decisions.iter().enumerate() {
        let n = i + 1;
        if runner.decisions().len() > i {
            // An idle step after the last reply ended the episode: the clock recorded it.
            log.capture(&runner);
            continue;
        }
        let replies: Vec<&str> = d
            .rejected
            .iter()
            .map(String::as_str)
            .chain(d.raw.as_deref())
            .collect();
        for (k, reply) in replies.iter().enumerate() {
            let next = log.ask(&mut session, &runner, Some(reply), n)?;
            let last = k + 1 == replies.len() && d.raw.is_some();
            match (next, last) {
                (Next::Ask, false) => {}
                (Next::Decide(Reply::Act { action, .. }), true)
                    if task.actions.get(action) == Some(&d.action) => {}
                (Next::Decide(Reply::Text { .. }), true) => {}
                (Next::Decide(_), false) => {
                    return Err(mismatch(n, "a rejected reply is accepted by the parser"))
                }
                _ => return Err(mismatch(n, "the accepted reply is not the recorded action")),
            }
        }
        let apply = |r: &mut EpisodeRunner| {
            r.apply_text(&d.action, d.raw.clone(), d.rejected.clone())
                .map(|_| ())
        };
        replay
            .play(&mut runner, i, d, apply)
            .map_err(|e| mismatch(n, &e.to_string()))?;
        log.capture(&runner);
    }
    let n = record.decisions.len() + 1;
    if !runner.is_done() {
        match record.failure {
            Some(FailureMode::InvalidAction) => {
                for reply in &record.rejected {
                    log.ask(&mut session, &runner, Some(reply), n)?;
                }
            }
            Some(FailureMode::ApiError | FailureMode::TokenOverflow) => {
                log.ask(&mut session, &runner, None, n)?;
            }
            _ => {}
        }
    }
    let mut last = Frame::default();
    runner.env().render(&mut last);
    let outcome = ending(record);
    Ok(Evidence {
        demos,
        states: log.states,
        ending: caption_frame(&last, outcome.label()),
        ending_label: outcome.label(),
        turns: log.turns,
    })
}

#[derive(Default)]
struct Log {
    states: Vec<Frame>,
    turns: Vec<EvidenceTurn>,
}

impl Log {
    /// The frame after the decisions made so far.
    fn capture(&mut self, runner: &EpisodeRunner) {
        let mut f = Frame::default();
        runner.env().render(&mut f);
        self.states.push(f);
    }

    /// Asks the session for its next request, records it with `reply` and hands the
    /// reply back (a failed request, `None`, ends the conversation).
    fn ask(
        &mut self,
        session: &mut ModelSession,
        runner: &EpisodeRunner,
        reply: Option<&str>,
        decision: usize,
    ) -> Result<Next, String> {
        let plan = session
            .next_request(runner)
            .ok_or_else(|| mismatch(decision, "the conversation ended before this reply"))?;
        let step = runner.step_count();
        let request = plan
            .messages
            .into_iter()
            .rev()
            .find(|m| m.role == Role::User)
            .ok_or_else(|| mismatch(decision, "the request has no user turn"))?;
        self.turns.push(EvidenceTurn {
            step,
            request,
            response: reply.map(str::to_string),
        });
        Ok(match reply {
            Some(text) => session.on_reply(text),
            None => Next::Ask,
        })
    }
}
