//! Attempts: several episodes of one task by one agent, where text carries from one
//! attempt to the next — GameVerse's reflect-and-retry, in which a failed attempt and
//! an expert demonstration are studied and the written experience fills the next
//! attempt's prompt. A run of attempts is one document (`playbench-attempts/1`), with a
//! share link (`a=pa1.…`) and verification: every attempt re-simulates like an episode
//! file, and what each attempt was given must be what the previous reflection wrote.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::episode::EpisodeRecord;
use crate::link_codec::{self, LinkKind};
use crate::share::{
    link_fragment, resolve_task, strip_secrets, verify, Divergence, DivergenceStep, EpisodeFile,
    ShareError, TaskRef, Verification, ENVS_VERSION,
};
use crate::task::TaskError;

pub const ATTEMPTS_FORMAT: &str = "playbench-attempts/1";
/// Attempts links.
pub const ATTEMPTS_LINK: LinkKind = LinkKind {
    link: "attempts link",
    document: "run of attempts",
    param: "a=",
    tag: "pa1.",
    limit: 32 << 20,
};

/// One exchange between two attempts (e.g. "list what went wrong in this failure",
/// then "write your experience after watching the expert").
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReflectionTurn {
    /// What the turn is for, e.g. `failure_analysis` or `experience`.
    pub stage: String,
    /// The system message sent, word for word.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub system: String,
    /// The text sent (without media): the user message's text items in order.
    pub prompt: String,
    /// What was shown besides the text, in words (e.g. "the failed attempt as a video,
    /// 14 frames at 2 fps").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub media: Vec<String>,
    /// The frames sent as images, by their number in the video they come from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frames: Vec<usize>,
    /// The video sent instead of images (endpoints that take video,
    /// `docs/gameverse.md`, "Reflect and retry").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub video: Option<crate::video::VideoSent>,
    pub reply: String,
}

/// One attempt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attempt {
    /// The text this attempt was given from earlier ones (empty for the first).
    #[serde(default)]
    pub carried_in: String,
    pub record: EpisodeRecord,
    /// The exchanges after this attempt, in order; the last reply is what the next
    /// attempt carries in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reflection: Vec<ReflectionTurn>,
}

/// A run of attempts at one task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttemptRun {
    pub format: String,
    pub task: TaskRef,
    pub envs_version: String,
    pub agent: String,
    /// The experimental condition, e.g. GameVerse's `none`, `failure`, `tutorial`,
    /// `both`, `other`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// The longest experience in words, when replies are cut to it (GameVerse: 1000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experience_limit: Option<usize>,
    /// Free-form run settings, secrets stripped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<Map<String, Value>>,
    pub attempts: Vec<Attempt>,
}

fn field_err(field: impl Into<String>, message: impl Into<String>) -> ShareError {
    ShareError::Field(TaskError {
        field: field.into(),
        message: message.into(),
    })
}

impl AttemptRun {
    pub fn new(task: TaskRef, agent: &str, condition: Option<&str>) -> Self {
        Self {
            format: ATTEMPTS_FORMAT.to_string(),
            task,
            envs_version: ENVS_VERSION.to_string(),
            agent: agent.to_string(),
            condition: condition.map(str::to_string),
            experience_limit: None,
            settings: None,
            attempts: Vec::new(),
        }
    }

    /// What the next attempt carries in: the experience of the last attempt's
    /// reflection, or what that attempt carried in when it was not reflected on (empty
    /// for the first attempt).
    pub fn carry(&self) -> String {
        self.carry_after(self.attempts.len())
    }

    /// What attempt `index` (0-based) carries in.
    fn carry_after(&self, index: usize) -> String {
        let Some(previous) = index.checked_sub(1).and_then(|i| self.attempts.get(i)) else {
            return String::new();
        };
        if previous.reflection.is_empty() {
            return previous.carried_in.clone();
        }
        match self.experience_limit {
            Some(max) => crate::reflect::experience::experience_of(&previous.reflection, max),
            None => previous
                .reflection
                .last()
                .map(|t| t.reply.clone())
                .unwrap_or_default(),
        }
    }

    fn clean(&self) -> Self {
        let mut c = self.clone();
        if let Some(s) = &mut c.settings {
            let mut v = Value::Object(std::mem::take(s));
            strip_secrets(&mut v);
            if let Value::Object(m) = v {
                *s = m;
            }
        }
        c
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.clean()).unwrap_or_default()
    }

    /// Parses a run; errors name the offending field.
    pub fn from_json(json: &str) -> Result<Self, ShareError> {
        let run: AttemptRun = crate::task::parse(json).map_err(ShareError::Field)?;
        if run.format != ATTEMPTS_FORMAT {
            return Err(field_err(
                "format",
                format!("expected {ATTEMPTS_FORMAT:?}, got {:?}", run.format),
            ));
        }
        if run.attempts.is_empty() {
            return Err(field_err("attempts", "a run has at least one attempt"));
        }
        Ok(run.clean())
    }

    /// The share-link fragment (`a=pa1.…`), or an error when it would be too long.
    pub fn to_link_fragment(&self) -> Result<String, ShareError> {
        link_fragment(&self.clean(), &ATTEMPTS_LINK)
    }

    pub fn from_link_fragment(link: &str) -> Result<Self, ShareError> {
        let text = link_codec::decode(link, &ATTEMPTS_LINK).map_err(ShareError::Link)?;
        Self::from_json(&text)
    }

    /// Attempt `index` as a self-contained episode file (for the replay viewer).
    pub fn episode_file(&self, index: usize) -> Option<EpisodeFile> {
        let a = self.attempts.get(index)?;
        let mut settings = self.settings.clone().unwrap_or_default();
        settings.insert("attempt".into(), (index + 1).into());
        if !a.carried_in.is_empty() {
            settings.insert("carried_in".into(), a.carried_in.clone().into());
        }
        Some(EpisodeFile::from_record(
            self.task.clone(),
            a.record.clone(),
            Some(settings),
        ))
    }
}

/// The verdict on a run of attempts.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum AttemptsVerification {
    /// Every attempt re-simulates to its claims; scores by attempt.
    Verified { scores: Vec<f64>, passed: Vec<bool> },
    /// Attempt `attempt` (1-based) differs.
    Diverged {
        attempt: usize,
        divergence: Divergence,
    },
}

/// Re-simulates every attempt and checks that each carried in what the previous
/// reflection wrote.
pub fn verify_attempts(run: &AttemptRun) -> Result<AttemptsVerification, ShareError> {
    resolve_task(&run.task)?;
    let (mut scores, mut passed) = (Vec::new(), Vec::new());
    for (i, a) in run.attempts.iter().enumerate() {
        let expected = run.carry_after(i);
        if a.carried_in != expected {
            return Ok(AttemptsVerification::Diverged {
                attempt: i + 1,
                divergence: Divergence {
                    step: DivergenceStep::Start,
                    field: "carried_in".into(),
                    expected: format!("{expected:?}"),
                    actual: format!("{:?}", a.carried_in),
                },
            });
        }
        let file = run
            .episode_file(i)
            .ok_or_else(|| field_err("attempts", "missing"))?;
        match verify(&file)? {
            Verification::Verified { passed: p, score } => {
                scores.push(score);
                passed.push(p);
            }
            Verification::Diverged(d) => {
                return Ok(AttemptsVerification::Diverged {
                    attempt: i + 1,
                    divergence: d,
                })
            }
        }
    }
    Ok(AttemptsVerification::Verified { scores, passed })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{OracleAgent, RandomAgent};
    use crate::run_episode;

    fn run() -> AttemptRun {
        let suite = crate::suites::latest(crate::suites::DEFAULT_SUITE).unwrap();
        let task = suite.task("frozenlake-4x4-det-s0").unwrap();
        let mut run = AttemptRun::new(TaskRef::in_suite(suite, &task.id), "test", Some("both"));
        let first = run_episode(task, &mut RandomAgent::new(3)).unwrap();
        run.attempts.push(Attempt {
            carried_in: run.carry(),
            record: first,
            reflection: vec![
                ReflectionTurn {
                    stage: "failure_analysis".into(),
                    prompt: "What went wrong?".into(),
                    media: vec!["the failed attempt as a video".into()],
                    reply: "I walked into a hole.".into(),
                    ..ReflectionTurn::default()
                },
                ReflectionTurn {
                    stage: "experience".into(),
                    prompt: "Write your experience.".into(),
                    media: Vec::new(),
                    reply: "Go down twice, then right.".into(),
                    ..ReflectionTurn::default()
                },
            ],
        });
        let second = run_episode(task, &mut OracleAgent::new()).unwrap();
        run.attempts.push(Attempt {
            carried_in: run.carry(),
            record: second,
            reflection: Vec::new(),
        });
        run.settings = Some(serde_json::from_str(r#"{"api_key": "sk-1", "model": "m"}"#).unwrap());
        run
    }

    #[test]
    fn runs_round_trip_through_files_and_links_and_verify() {
        let run = run();
        assert_eq!(run.attempts[1].carried_in, "Go down twice, then right.");
        let back = AttemptRun::from_json(&run.to_json()).unwrap();
        assert!(!back.to_json().contains("sk-1"));
        let link = run.to_link_fragment().unwrap();
        assert!(link.starts_with("a=pa1."));
        let back = AttemptRun::from_link_fragment(&link).unwrap();
        match verify_attempts(&back).unwrap() {
            AttemptsVerification::Verified { scores, passed } => {
                assert_eq!(passed, vec![false, true]);
                assert_eq!(scores[1], 100.0);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn altered_carry_or_records_are_found() {
        let mut run = run();
        run.attempts[1].carried_in = "something else".into();
        assert!(matches!(
            verify_attempts(&run).unwrap(),
            AttemptsVerification::Diverged { attempt: 2, ref divergence } if divergence.field == "carried_in"
        ));
        let mut run = self::run();
        run.attempts[1].record.decisions[0].reward = 5.0;
        assert!(matches!(
            verify_attempts(&run).unwrap(),
            AttemptsVerification::Diverged { attempt: 2, .. }
        ));
        let e = AttemptRun::from_json(r#"{"format":"playbench-attempts/1"}"#).unwrap_err();
        assert!(e.to_string().contains("task"), "{e}");
    }
}
