//! The audit file, `playbench-audit/1` (`docs/audit.md`, "The audit file"): every
//! task's demonstration-derived reference, every episode's verdicts with the auditor's
//! raw replies and a link to the step in the replay viewer, and the report (recomputed
//! whenever the file is read).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::contract::{AttributionVerdict, Reference, TransferVerdict};
use super::report::{audit_report, AuditReport};
use crate::share::strip_secrets;
use crate::task::TaskError;
use crate::FailureMode;

pub const AUDIT_FORMAT: &str = "playbench-audit/1";

/// A task's demonstration-derived reference, built once and reused for every audit of
/// the task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskReference {
    pub task: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<Reference>,
    /// The auditor's raw replies, in order (rejected ones first).
    #[serde(default)]
    pub replies: Vec<String>,
    /// Why there is no reference (the endpoint failed, or every reply broke the
    /// contract).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// One criterion's audit of one episode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(deserialize = "T: Deserialize<'de>"))]
pub struct CriterionAudit<T> {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<T>,
    /// Why there is no verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The auditor's raw replies, in order.
    #[serde(default)]
    pub replies: Vec<String>,
    /// Why each rejected reply was rejected, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
    /// The replay viewer's position the verdict points at (a turn the justification
    /// names, else the episode's last position).
    #[serde(default)]
    pub step: u32,
    /// The replay viewer at that step (`/episode#e=pb1.…&t=N`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

impl<T> Default for CriterionAudit<T> {
    fn default() -> Self {
        Self {
            verdict: None,
            error: None,
            replies: Vec::new(),
            problems: Vec::new(),
            step: 0,
            link: None,
        }
    }
}

impl<T> CriterionAudit<T> {
    /// A verdict or a final error.
    pub fn is_settled(&self) -> bool {
        self.verdict.is_some() || self.error.is_some()
    }
}

/// One audited episode of the results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditedEpisode {
    /// Its index in the results file's `episodes`.
    pub index: usize,
    pub task: String,
    /// The canonical environment id.
    pub env: String,
    /// The audited agent (`endpoint:<provider>:<model>`).
    pub agent: String,
    #[serde(default)]
    pub repeat: u32,
    /// The report's tag names (`memory: single`, `dynamics: dynamic`, …).
    #[serde(default)]
    pub tags: Vec<String>,
    pub passed: bool,
    pub score: f64,
    #[serde(default)]
    pub failure: Option<FailureMode>,
    /// Requests quoted in the evidence.
    #[serde(default)]
    pub turns: usize,
    /// The episode in the replay viewer (`/episode#e=pb1.…`); absent when the episode
    /// is too large for a link.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    pub information_transfer: CriterionAudit<TransferVerdict>,
    pub failure_attribution: CriterionAudit<AttributionVerdict>,
}

impl AuditedEpisode {
    pub fn is_settled(&self) -> bool {
        self.information_transfer.is_settled() && self.failure_attribution.is_settled()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditFile {
    pub format: String,
    /// The audited results file's label, agent, suite and version.
    pub results_label: String,
    pub agent: String,
    pub suite: String,
    pub suite_version: u32,
    /// CRC-32 (hex) of the audited episodes as compact JSON: an audit resumes only on
    /// the results file it was made from.
    pub results_crc32: String,
    /// The auditor (`endpoint:<provider>:<model>`) and its settings, keys stripped.
    pub auditor: String,
    #[serde(default)]
    pub auditor_settings: Map<String, Value>,
    pub references: Vec<TaskReference>,
    pub episodes: Vec<AuditedEpisode>,
    /// Computed from `episodes` (recomputed on reading).
    pub report: AuditReport,
}

/// The fingerprint of a results file's episodes (`AuditFile::results_crc32`).
pub fn results_fingerprint(results: &crate::results::ResultsFile) -> String {
    let json = serde_json::to_string(&results.episodes).unwrap_or_default();
    format!("{:08x}", crate::share::crc32(json.as_bytes()))
}

impl AuditFile {
    /// Recomputes the report and strips credentials from the settings.
    pub fn refresh(&mut self) {
        let mut v = Value::Object(std::mem::take(&mut self.auditor_settings));
        strip_secrets(&mut v);
        if let Value::Object(m) = v {
            self.auditor_settings = m;
        }
        self.report = audit_report(&self.episodes);
    }

    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// Reads an audit file; a bad field is an error naming it, the report is
    /// recomputed.
    pub fn from_json(json: &str) -> Result<Self, TaskError> {
        let mut file: AuditFile = crate::task::parse(json)?;
        if file.format != AUDIT_FORMAT {
            return Err(TaskError {
                field: "format".into(),
                message: format!("expected {AUDIT_FORMAT:?}, got {:?}", file.format),
            });
        }
        file.refresh();
        Ok(file)
    }

    pub fn reference(&self, task: &str) -> Option<&TaskReference> {
        self.references.iter().find(|r| r.task == task)
    }
}
