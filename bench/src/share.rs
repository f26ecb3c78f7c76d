//! Episode files and share links: a self-contained, versioned episode (the task or its
//! suite reference, the build, the agent, the run settings and the full record), a
//! compact URL-fragment encoding of it, and verification by re-simulation.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::episode::{Decision, EpisodeRecord, EpisodeRunner, FailureMode, EPISODE_FORMAT};
use super::latency::RecordReplay;
use super::link_codec::{self, LinkKind, PayloadError};
use super::task::{Suite, Task, TaskError};
use crate::suites::SuiteError;

pub const EPISODE_FILE_FORMAT: &str = "playbench-episode-file/1";
/// The build of the environments that wrote a file.
pub const ENVS_VERSION: &str = env!("CARGO_PKG_VERSION");
/// The version tag that starts a link payload.
pub const LINK_TAG: &str = "pb1.";
/// The fragment parameter holding the payload.
pub const LINK_PARAM: &str = "e=";
/// Links longer than this are refused: export a file instead.
pub const LINK_MAX_CHARS: usize = 16_384;
/// The largest episode JSON a link may inflate to (guards against deflate bombs).
const INFLATE_LIMIT: usize = 16 << 20;
/// Episode links.
pub const EPISODE_LINK: LinkKind = LinkKind {
    link: "link",
    document: "episode",
    param: LINK_PARAM,
    tag: LINK_TAG,
    limit: INFLATE_LIMIT,
};
/// Settings fields whose names contain one of these (case-insensitive) are dropped.
const SECRET_WORDS: [&str; 4] = ["key", "token", "secret", "authorization"];

/// A built-in suite's task, by reference.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuiteTask {
    pub suite: String,
    pub suite_version: u32,
    pub task: String,
}

/// The task an episode was played on: a suite reference or the full task.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum TaskRef {
    Suite(SuiteTask),
    Inline(Box<Task>),
}

impl TaskRef {
    /// Task `task` of a built-in suite, by reference.
    pub fn in_suite(suite: &Suite, task: &str) -> Self {
        Self::Suite(SuiteTask {
            suite: suite.id.clone(),
            suite_version: suite.version,
            task: task.to_string(),
        })
    }
}

impl<'de> Deserialize<'de> for TaskRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let v = Value::deserialize(d)?;
        let r = if v.get("suite").is_some() {
            serde_path_to_error::deserialize::<_, SuiteTask>(v).map(TaskRef::Suite)
        } else {
            serde_path_to_error::deserialize::<_, Task>(v).map(|t| TaskRef::Inline(Box::new(t)))
        };
        r.map_err(|e| D::Error::custom(format!("{}: {}", e.path(), e.inner())))
    }
}

/// One episode, self-contained (format `playbench-episode-file/1`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EpisodeFile {
    pub format: String,
    pub task: TaskRef,
    pub envs_version: String,
    pub agent: String,
    /// Free-form run settings, secrets stripped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<Map<String, Value>>,
    /// The episode with its claimed pass and score.
    pub record: EpisodeRecord,
}

/// Why a file or link could not be read, or its task resolved.
#[derive(Clone, Debug, PartialEq)]
pub enum ShareError {
    /// Bad JSON or a bad field (the field as a path).
    Field(TaskError),
    /// The link could not be read (not a link, damaged, altered, cut off).
    Link(PayloadError),
    /// The episode is too long for a link.
    TooLargeForLink {
        chars: usize,
        max: usize,
    },
    /// The suite or its version is not built in.
    Suite(SuiteError),
    UnknownTask {
        suite: String,
        task: String,
    },
    /// The task could not be loaded or started.
    Task(TaskError),
}

impl std::fmt::Display for ShareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Field(e) => write!(f, "bad episode file: {e}"),
            Self::Link(e) => write!(f, "{}", e.describe(&EPISODE_LINK)),
            Self::TooLargeForLink { chars, max } => write!(
                f,
                "the episode is too large for a link ({chars} characters, at most {max}): share the episode file instead"
            ),
            Self::Suite(e) => write!(f, "{e}"),
            Self::UnknownTask { suite, task } => write!(f, "no task {task:?} in {suite}"),
            Self::Task(e) => write!(f, "the episode's task: {e}"),
        }
    }
}

impl std::error::Error for ShareError {}

fn field_err(field: impl Into<String>, message: impl Into<String>) -> ShareError {
    ShareError::Field(TaskError {
        field: field.into(),
        message: message.into(),
    })
}

/// Drops every field whose name looks like a credential, at any depth.
pub fn strip_secrets(value: &mut Value) {
    match value {
        Value::Object(map) => strip_map(map),
        Value::Array(items) => items.iter_mut().for_each(strip_secrets),
        _ => {}
    }
}

fn strip_map(map: &mut Map<String, Value>) {
    map.retain(|k, _| {
        let k = k.to_lowercase();
        // Token budgets (`max_tokens`, `max_output_tokens`) are settings, not credentials.
        let budget = k.ends_with("tokens");
        !SECRET_WORDS
            .iter()
            .any(|w| k.contains(w) && !(budget && *w == "token"))
    });
    map.values_mut().for_each(strip_secrets);
}

impl EpisodeFile {
    /// Wraps a finished record; credentials in `settings` are dropped.
    pub fn from_record(
        task: TaskRef,
        record: EpisodeRecord,
        settings: Option<Map<String, Value>>,
    ) -> Self {
        let mut file = Self {
            format: EPISODE_FILE_FORMAT.to_string(),
            task,
            envs_version: ENVS_VERSION.to_string(),
            agent: record.agent.clone(),
            settings,
            record,
        };
        file.sanitize();
        file
    }

    fn sanitize(&mut self) {
        if let Some(s) = &mut self.settings {
            strip_map(s);
        }
    }

    fn clean(&self) -> Self {
        let mut c = self.clone();
        c.sanitize();
        c
    }

    /// Pretty JSON (settings re-checked for secrets).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.clean()).unwrap_or_default()
    }

    /// Parses a file; errors name the offending field.
    pub fn from_json(json: &str) -> Result<Self, ShareError> {
        let mut file: EpisodeFile = crate::task::parse(json).map_err(ShareError::Field)?;
        if file.format != EPISODE_FILE_FORMAT {
            return Err(field_err(
                "format",
                format!("expected {EPISODE_FILE_FORMAT:?}, got {:?}", file.format),
            ));
        }
        if file.record.format != EPISODE_FORMAT {
            return Err(field_err(
                "record.format",
                format!("expected {EPISODE_FORMAT:?}, got {:?}", file.record.format),
            ));
        }
        file.sanitize();
        Ok(file)
    }

    /// The share-link fragment: `e=pb1.` + base64url(CRC-32 of the JSON, big-endian,
    /// then the raw-deflated compact JSON), no padding.
    pub fn to_link_fragment(&self) -> Result<String, ShareError> {
        link_fragment(&self.clean(), &EPISODE_LINK)
    }

    /// Reads a link: a full URL, its fragment (with or without `#`, `e=`), or the
    /// bare `pb1.` payload.
    pub fn from_link_fragment(link: &str) -> Result<Self, ShareError> {
        let text = link_codec::decode(link, &EPISODE_LINK).map_err(ShareError::Link)?;
        Self::from_json(&text)
    }
}

/// A document as a link fragment of `kind`, refused when longer than [`LINK_MAX_CHARS`]
/// (the document is then shared as a file).
pub fn link_fragment<T: Serialize>(doc: &T, kind: &LinkKind) -> Result<String, ShareError> {
    let json = serde_json::to_string(doc).unwrap_or_default();
    let link = link_codec::encode(&json, kind);
    if link.len() > LINK_MAX_CHARS {
        return Err(ShareError::TooLargeForLink {
            chars: link.len(),
            max: LINK_MAX_CHARS,
        });
    }
    Ok(link)
}

/// CRC-32 (IEEE 802.3, as zlib and PNG).
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// base64url without padding.
pub fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(char::from(B64[(n >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

/// Why a string is not canonical base64url.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base64Error {
    /// A character outside the alphabet, at this index.
    BadChar(usize),
    /// The length or the last character's unused bits are wrong (cut off or altered).
    BadEnd,
}

/// Strict base64url without padding.
pub fn base64url_decode(text: &str) -> Result<Vec<u8>, Base64Error> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    let (mut acc, mut bits) = (0u32, 0u32);
    for (i, c) in text.bytes().enumerate() {
        let v = B64
            .iter()
            .position(|&b| b == c)
            .ok_or(Base64Error::BadChar(i))? as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // A lone trailing character, or non-zero leftover bits, is not canonical.
    if text.len() % 4 == 1 || acc != 0 {
        return Err(Base64Error::BadEnd);
    }
    Ok(out)
}

/// Where a re-simulation first differs from the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DivergenceStep {
    /// The record's header (task, environment, seed).
    Start,
    /// A decision, 1-based.
    Decision(usize),
    /// The totals: failure mode, pass, score.
    Final,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Divergence {
    pub step: DivergenceStep,
    pub field: String,
    /// What the file claims.
    pub expected: String,
    /// What the re-simulation gives.
    pub actual: String,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.step {
            DivergenceStep::Start => write!(f, "diverged at the start: ")?,
            DivergenceStep::Decision(n) => write!(f, "diverged at step {n}: ")?,
            DivergenceStep::Final => write!(f, "diverged at the end: ")?,
        }
        write!(
            f,
            "{} expected {}, got {}",
            self.field, self.expected, self.actual
        )
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Verification {
    Verified { passed: bool, score: f64 },
    Diverged(Divergence),
}

/// The task a file refers to.
pub fn resolve_task(task: &TaskRef) -> Result<Task, ShareError> {
    match task {
        TaskRef::Inline(t) => {
            t.validate().map_err(|e| {
                ShareError::Field(TaskError {
                    field: format!("task.{}", e.field),
                    message: e.message,
                })
            })?;
            Ok((**t).clone())
        }
        TaskRef::Suite(r) => crate::suites::get(&r.suite, r.suite_version)
            .map_err(ShareError::Suite)?
            .task(&r.task)
            .cloned()
            .ok_or_else(|| ShareError::UnknownTask {
                suite: r.suite.clone(),
                task: r.task.clone(),
            }),
    }
}

fn diverged(
    step: DivergenceStep,
    field: &str,
    expected: impl std::fmt::Debug,
    actual: impl std::fmt::Debug,
) -> Verification {
    Verification::Diverged(Divergence {
        step,
        field: field.to_string(),
        expected: format!("{expected:?}"),
        actual: format!("{actual:?}"),
    })
}

fn diverged_text(
    step: DivergenceStep,
    field: &str,
    expected: String,
    actual: String,
) -> Verification {
    Verification::Diverged(Divergence {
        step,
        field: field.to_string(),
        expected,
        actual,
    })
}

fn failure_name(f: Option<FailureMode>) -> String {
    serde_json::to_string(&f).unwrap_or_default()
}

/// Re-simulates the episode and compares it with the file, decision by decision,
/// then the totals. Errors are files whose task cannot be found or started.
pub fn verify(file: &EpisodeFile) -> Result<Verification, ShareError> {
    use DivergenceStep::{Decision, Final, Start};
    let task = resolve_task(&file.task)?;
    let rec = &file.record;
    if rec.task != task.id {
        return Ok(diverged(Start, "task", &rec.task, &task.id));
    }
    if rec.env != task.env {
        return Ok(diverged(Start, "env", &rec.env, &task.env));
    }
    if rec.seed != task.seed {
        return Ok(diverged(Start, "seed", rec.seed, task.seed));
    }
    let mut runner = EpisodeRunner::start(&task).map_err(ShareError::Task)?;
    // Replayed as every record is (`crate::latency::RecordReplay`): a model's real-time
    // episode from its thinking times, whose idle steps must be the recorded ones.
    let mut replay = RecordReplay::new(&runner, rec);
    for (i, d) in rec.decisions.iter().enumerate() {
        let step = Decision(i + 1);
        // A timed decision may have recorded the next one too (an episode that ended
        // on an idle step before the next observation).
        if runner.decisions().len() <= i {
            if runner.is_done() {
                return Ok(diverged_text(
                    step,
                    "decision",
                    format!("{:?}", d.action),
                    "none (the episode had ended)".into(),
                ));
            }
            if let Err(v) = replay_decision(&mut runner, &mut replay, &task, i, d) {
                return Ok(v.at(step));
            }
        }
        let Some(got) = runner.decisions().get(i).cloned() else {
            return Ok(diverged_text(
                step,
                "decision",
                format!("{:?}", d.action),
                "none (the episode had ended)".into(),
            ));
        };
        // Untimed decisions play the recorded action (whose text form may be read more
        // loosely than it is written); a timed one may be the clock's idle step.
        if replay.is_timed() && got.action != d.action {
            return Ok(diverged(step, "action", &d.action, &got.action));
        }
        if got.idle_before != d.idle_before {
            return Ok(diverged(
                step,
                "idle_before",
                d.idle_before,
                got.idle_before,
            ));
        }
        if got.reward != d.reward {
            return Ok(diverged(step, "reward", d.reward, got.reward));
        }
        if got.terminated != d.terminated {
            return Ok(diverged(step, "terminated", d.terminated, got.terminated));
        }
        if got.truncated != d.truncated {
            return Ok(diverged(step, "truncated", d.truncated, got.truncated));
        }
        if got.frame_hash != d.frame_hash {
            return Ok(diverged(step, "frame_hash", &d.frame_hash, &got.frame_hash));
        }
    }
    if let Some(extra) = runner.decisions().get(rec.decisions.len()) {
        return Ok(diverged_text(
            Decision(rec.decisions.len() + 1),
            "decision",
            "none".into(),
            format!("{:?}", extra.action),
        ));
    }
    // An agent-side ending (bad replies, context, transport) is replayed as claimed.
    if let Some(
        mode @ (FailureMode::InvalidAction | FailureMode::TokenOverflow | FailureMode::ApiError),
    ) = rec.failure
    {
        runner.fail(mode, rec.rejected.clone());
    }
    let now = runner.finish(&rec.agent);
    if now.failure != rec.failure {
        return Ok(diverged_text(
            Final,
            "failure",
            failure_name(rec.failure),
            failure_name(now.failure),
        ));
    }
    if now.passed != rec.passed {
        return Ok(diverged(Final, "passed", rec.passed, now.passed));
    }
    if now.score != rec.score {
        return Ok(diverged(Final, "score", rec.score, now.score));
    }
    Ok(Verification::Verified {
        passed: now.passed,
        score: now.score,
    })
}

/// A divergence found while playing one decision, placed at its step by the caller.
struct Mismatch {
    field: &'static str,
    expected: String,
    actual: String,
}

impl Mismatch {
    fn at(self, step: DivergenceStep) -> Verification {
        diverged_text(step, self.field, self.expected, self.actual)
    }
}

/// Plays recorded decision `index`, naming the field that went wrong.
fn replay_decision(
    runner: &mut EpisodeRunner,
    replay: &mut RecordReplay,
    task: &Task,
    index: usize,
    d: &Decision,
) -> Result<(), Mismatch> {
    let idle_mismatch = |actual: String| Mismatch {
        field: "idle_before",
        expected: d.idle_before.to_string(),
        actual,
    };
    if replay.is_timed() && d.latency_ms.is_none() {
        return Err(Mismatch {
            field: "latency_ms",
            expected: "none".into(),
            actual: "a thinking time (every reply of a timed episode has one)".into(),
        });
    }
    let mut applied = None;
    replay
        .play(runner, index, d, |r| {
            applied = Some(apply_recorded(r, task, d));
            Ok(())
        })
        .map_err(|e| idle_mismatch(e.to_string()))?;
    match applied {
        Some(result) => result,
        // A timed record's clock may end the episode on an idle step: the decision it
        // recorded is compared next.
        None if replay.is_timed() => Ok(()),
        None => Err(idle_mismatch("the episode ended while idle".into())),
    }
}

/// Plays a recorded decision's action.
fn apply_recorded(runner: &mut EpisodeRunner, task: &Task, d: &Decision) -> Result<(), Mismatch> {
    let parametric = matches!(
        runner.env().action_space(),
        envs::ActionSpace::Parametric { .. }
    );
    let action_mismatch = |actual: String| Mismatch {
        field: "action",
        expected: format!("{:?}", d.action),
        actual,
    };
    if runner.action_index(&d.action).is_none() && !parametric {
        return Err(action_mismatch(format!("one of {:?}", task.actions)));
    }
    runner
        .apply_text(&d.action, d.raw.clone(), d.rejected.clone())
        .map(|_| ())
        .map_err(|e| action_mismatch(e.to_string()))
}

#[cfg(test)]
mod tests;
