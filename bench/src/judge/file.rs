//! The judge file, `playbench-judge/1` (`docs/judge.md`, "The judge file"): for every
//! judged episode each milestone's judge answer with its evidence beside the exact
//! answer, the raw replies, the frames sent, and the agreement report (recomputed
//! whenever the file is read).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::agreement::{Agreement, Pair};
use super::report::{judge_report, JudgeReport};
use crate::share::strip_secrets;
use crate::task::TaskError;

pub const JUDGE_FORMAT: &str = "playbench-judge/1";

/// One milestone of one episode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MilestoneCheck {
    pub title: String,
    /// The judge's answer (absent until it answered, or when the episode has no
    /// verdict).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<bool>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub evidence: String,
    /// The exact answer (absent for milestones without a predicate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<bool>,
    /// The decision after which the exact event first occurred.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact_step: Option<u32>,
}

/// One judged episode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgedEpisode {
    /// Its index among the judged inputs (the results file's episodes, or the
    /// episode files in the order given).
    pub index: usize,
    pub task: String,
    pub env: String,
    pub agent: String,
    #[serde(default)]
    pub repeat: u32,
    pub passed: bool,
    pub score: f64,
    /// The game's name in the request (`{game_name}`).
    #[serde(default)]
    pub game: String,
    /// The episode in the replay viewer (`/episode#e=pb1.…`), when it fits a link.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    /// Step-video frames (one per decision) and how many were sent.
    #[serde(default)]
    pub frames_total: usize,
    #[serde(default)]
    pub frames_sent: usize,
    /// The step video sent as one video instead of images (endpoints that take video).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub video: Option<crate::video::VideoSent>,
    pub milestones: Vec<MilestoneCheck>,
    /// The judge's raw replies, in order.
    #[serde(default)]
    pub replies: Vec<String>,
    /// Why each unparsable reply was unparsable.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
    /// Entries of the accepted reply that were ignored (outside the list, repeated).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<String>,
    /// Every reply was unparsable: the judge score is 0 and the episode is left out
    /// of the agreement.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub flagged: bool,
    /// Why the episode has no judge answers (the endpoint failed, the record did not
    /// replay, the game has no milestone list).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl JudgedEpisode {
    /// Judged (answers or flagged) or failed.
    pub fn is_settled(&self) -> bool {
        self.flagged || self.error.is_some() || self.milestones.iter().all(|m| m.judge.is_some())
    }

    fn total(&self) -> usize {
        self.milestones.len()
    }

    /// Completed / total by the judge (0 when flagged), when judged.
    pub fn judge_score(&self) -> Option<f64> {
        if self.error.is_some() || self.total() == 0 {
            return None;
        }
        if self.flagged {
            return Some(0.0);
        }
        if self.milestones.iter().any(|m| m.judge.is_none()) {
            return None;
        }
        let done = self
            .milestones
            .iter()
            .filter(|m| m.judge == Some(true))
            .count();
        Some(done as f64 / self.total() as f64)
    }

    /// Completed / total by the exact predicates, when every milestone has one.
    pub fn exact_score(&self) -> Option<f64> {
        if self.total() == 0 || self.milestones.iter().any(|m| m.exact.is_none()) {
            return None;
        }
        let done = self
            .milestones
            .iter()
            .filter(|m| m.exact == Some(true))
            .count();
        Some(done as f64 / self.total() as f64)
    }

    /// The judge and exact answers side by side (unflagged, judged episodes only).
    pub fn pairs(&self) -> Vec<Pair> {
        if self.flagged || self.error.is_some() {
            return Vec::new();
        }
        self.milestones
            .iter()
            .filter_map(|m| {
                Some(Pair {
                    judge: m.judge?,
                    exact: m.exact?,
                })
            })
            .collect()
    }

    pub fn agreement(&self) -> Agreement {
        Agreement::of(&self.pairs())
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgeFile {
    pub format: String,
    /// What was judged: the results file's label (or `episode files`), its agent,
    /// suite and version.
    pub source_label: String,
    pub agent: String,
    #[serde(default)]
    pub suite: String,
    #[serde(default)]
    pub suite_version: u32,
    /// CRC-32 (hex) of the judged records as compact JSON: a judging resumes only on
    /// the episodes it was made from.
    pub source_crc32: String,
    /// The judge (`endpoint:<provider>:<model>`) and its settings, keys stripped.
    pub judge: String,
    #[serde(default)]
    pub judge_settings: Map<String, Value>,
    /// The most images one request may carry (the step video is halved to fit).
    pub max_images: usize,
    pub episodes: Vec<JudgedEpisode>,
    /// Computed from `episodes` (recomputed on reading).
    pub report: JudgeReport,
}

impl JudgeFile {
    /// Recomputes the report and strips credentials from the settings.
    pub fn refresh(&mut self) {
        let mut v = Value::Object(std::mem::take(&mut self.judge_settings));
        strip_secrets(&mut v);
        if let Value::Object(m) = v {
            self.judge_settings = m;
        }
        self.report = judge_report(&self.episodes);
    }

    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// Reads a judge file; a bad field is an error naming it, the report is
    /// recomputed.
    pub fn from_json(json: &str) -> Result<Self, TaskError> {
        let mut file: JudgeFile = crate::task::parse(json)?;
        if file.format != JUDGE_FORMAT {
            return Err(TaskError {
                field: "format".into(),
                message: format!("expected {JUDGE_FORMAT:?}, got {:?}", file.format),
            });
        }
        file.refresh();
        Ok(file)
    }
}
