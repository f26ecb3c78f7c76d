//! Human studies: what an organiser sends to participants (tasks of the built-in suite
//! in order, instructions, whether demos are shown, where results are collected) and
//! its compact link encoding, `s=ps1.` + base64url(CRC-32 of the JSON, then the
//! raw-deflated JSON), in the style of episode links.

use serde::{Deserialize, Serialize};

use super::link_codec::{self, LinkKind, PayloadError};
use super::share::crc32;
use super::task::Suite;

pub const STUDY_FORMAT: &str = "playbench-study/1";
/// The version tag that starts a study link payload.
pub const STUDY_LINK_TAG: &str = "ps1.";
/// The fragment parameter holding the payload.
pub const STUDY_LINK_PARAM: &str = "s=";
/// The largest study JSON a link may inflate to (guards against deflate bombs).
const INFLATE_LIMIT: usize = 1 << 20;
/// Study links.
pub const STUDY_LINK: LinkKind = LinkKind {
    link: "study link",
    document: "study",
    param: STUDY_LINK_PARAM,
    tag: STUDY_LINK_TAG,
    limit: INFLATE_LIMIT,
};
/// Longest study id: it becomes part of participants' storage keys and file names.
pub const MAX_ID_CHARS: usize = 64;

/// A study, as encoded in its link.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Study {
    pub format: String,
    /// Letters, digits, `-`, `_` and `.`: names the participants' saved progress.
    pub id: String,
    pub title: String,
    /// Shown to participants before the first task.
    #[serde(default)]
    pub instructions: String,
    pub suite: String,
    pub suite_version: u32,
    /// Task ids of `suite`, in the order participants play them.
    pub tasks: Vec<String>,
    /// Whether each task's demonstrations are shown before it is played.
    pub show_demos: bool,
    /// Where the results file is POSTed as JSON at the end, if anywhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collect_url: Option<String>,
}

/// Why a study link could not be read, or a study is not valid.
#[derive(Clone, Debug, PartialEq)]
pub enum StudyError {
    /// The link could not be read (not a link, damaged, altered, cut off).
    Link(PayloadError),
    /// The JSON or one of its fields is wrong (field path, message).
    Field { field: String, message: String },
}

impl std::fmt::Display for StudyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Link(e) => write!(f, "{}", e.describe(&STUDY_LINK)),
            Self::Field { field, message } => write!(f, "bad study: {field}: {message}"),
        }
    }
}

impl std::error::Error for StudyError {}

fn field(field: impl Into<String>, message: impl Into<String>) -> StudyError {
    StudyError::Field {
        field: field.into(),
        message: message.into(),
    }
}

/// Whether `id` is a usable study id.
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.chars().count() <= MAX_ID_CHARS
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// A study id from a title: lower-case letters and digits joined by `-`, then 8 hex
/// digits of a checksum of `content` so two studies with one title rarely share an id.
pub fn suggested_id(title: &str, content: &str) -> String {
    let mut slug = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug: String = slug.trim_end_matches('-').chars().take(40).collect();
    let slug = slug.trim_end_matches('-');
    let sum = crc32(format!("{title}\n{content}").as_bytes());
    if slug.is_empty() {
        format!("study-{sum:08x}")
    } else {
        format!("{slug}-{sum:08x}")
    }
}

impl Study {
    /// A study on `suite` (validate it before sharing).
    pub fn new(suite: &Suite, id: &str, title: &str, tasks: Vec<String>) -> Self {
        Self {
            format: STUDY_FORMAT.to_string(),
            id: id.to_string(),
            title: title.to_string(),
            instructions: String::new(),
            suite: suite.id.clone(),
            suite_version: suite.version,
            tasks,
            show_demos: true,
            collect_url: None,
        }
    }

    /// The built-in suite version the study names.
    pub fn suite(&self) -> Result<&'static Suite, StudyError> {
        crate::suites::get(&self.suite, self.suite_version).map_err(|e| {
            let at = match e {
                crate::suites::SuiteError::Version { .. } => "suite_version",
                _ => "suite",
            };
            field(at, e.to_string())
        })
    }

    /// Checks the study against the suite its participants will play.
    pub fn validate(&self) -> Result<(), StudyError> {
        if self.format != STUDY_FORMAT {
            return Err(field(
                "format",
                format!("expected {STUDY_FORMAT:?}, got {:?}", self.format),
            ));
        }
        if !valid_id(&self.id) {
            return Err(field(
                "id",
                format!(
                    "{:?}: use 1-{MAX_ID_CHARS} letters, digits, '-', '_' or '.'",
                    self.id
                ),
            ));
        }
        if self.title.trim().is_empty() {
            return Err(field("title", "give the study a title"));
        }
        let suite = self.suite()?;
        if self.tasks.is_empty() {
            return Err(field("tasks", "choose at least one task"));
        }
        for (i, id) in self.tasks.iter().enumerate() {
            if suite.task(id).is_none() {
                return Err(field(
                    format!("tasks[{i}]"),
                    format!("no task {id:?} in {}", suite.id),
                ));
            }
            if self.tasks[..i].contains(id) {
                return Err(field(
                    format!("tasks[{i}]"),
                    format!("{id:?} is listed twice"),
                ));
            }
        }
        if let Some(url) = &self.collect_url {
            let lower = url.trim().to_ascii_lowercase();
            let rest = lower
                .strip_prefix("https://")
                .or_else(|| lower.strip_prefix("http://"));
            if rest.is_none_or(|r| r.is_empty() || r.starts_with('/')) {
                return Err(field(
                    "collect_url",
                    format!("{url:?} is not an http:// or https:// address"),
                ));
            }
        }
        Ok(())
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads and validates a study's JSON; errors name the offending field.
    pub fn from_json(json: &str) -> Result<Self, StudyError> {
        let study: Study = crate::task::parse(json).map_err(|e| field(e.field, e.message))?;
        study.validate()?;
        Ok(study)
    }

    /// The link fragment (without `#`): `s=ps1.` + base64url(CRC-32 of the compact
    /// JSON, big-endian, then the raw-deflated JSON), no padding.
    pub fn to_link_fragment(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_default();
        link_codec::encode(&json, &STUDY_LINK)
    }

    /// Reads a link: a full URL, its fragment (with or without `#`, `s=`) or the bare
    /// `ps1.` payload; the study must be valid for the suite it names.
    pub fn from_link_fragment(link: &str) -> Result<Self, StudyError> {
        let text = link_codec::decode(link, &STUDY_LINK).map_err(StudyError::Link)?;
        Self::from_json(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suites::core as core_suite;

    fn suite() -> Suite {
        crate::suites::latest(core_suite::SUITE_ID).unwrap().clone()
    }

    fn study(s: &Suite) -> Study {
        let mut st = Study::new(
            s,
            "pilot-1",
            "Pilot: lakes",
            vec![
                "frozenlake-4x4-det-s0".into(),
                "frozenlake-4x4-det-s0-mid".into(),
            ],
        );
        st.instructions = "Reach the goal.\nUse the arrow keys — ← ↑ → ↓.".into();
        st.collect_url = Some("https://example.org/collect?x=1".into());
        st
    }

    #[test]
    fn links_round_trip() {
        let s = suite();
        let st = study(&s);
        let link = st.to_link_fragment();
        assert!(link.starts_with("s=ps1."));
        assert!(link.len() < 600, "{}", link.len());
        assert_eq!(Study::from_link_fragment(&link).unwrap(), st);
        let url = format!("https://x.test/study/take#{link}");
        assert_eq!(Study::from_link_fragment(&url).unwrap(), st);
        let bare = link.strip_prefix("s=").unwrap();
        assert_eq!(Study::from_link_fragment(bare).unwrap(), st);
        let mut plain = st.clone();
        plain.collect_url = None;
        plain.show_demos = false;
        let back = Study::from_link_fragment(&plain.to_link_fragment()).unwrap();
        assert_eq!(back, plain);
        assert_eq!(Study::from_json(&st.to_json()).unwrap(), st);
    }

    #[test]
    fn damaged_links_are_refused_with_a_reason() {
        let s = suite();
        let link = study(&s).to_link_fragment();
        // Truncated anywhere past the header.
        for cut in [link.len() - 1, link.len() - 7, link.len() / 2, 12] {
            let e = Study::from_link_fragment(&link[..cut]).unwrap_err();
            assert!(
                matches!(
                    e,
                    StudyError::Link(PayloadError::Truncated)
                        | StudyError::Link(PayloadError::Corrupt(_))
                        | StudyError::Link(PayloadError::Checksum { .. })
                ),
                "cut at {cut}: {e:?}"
            );
        }
        // One character changed in the middle.
        let mid = link.len() / 2;
        let c = &link[mid..=mid];
        let swapped = if c == "A" { "B" } else { "A" };
        let tampered = format!("{}{swapped}{}", &link[..mid], &link[mid + 1..]);
        let e = Study::from_link_fragment(&tampered).unwrap_err();
        assert!(
            matches!(
                e,
                StudyError::Link(PayloadError::Checksum { .. })
                    | StudyError::Link(PayloadError::Corrupt(_))
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("damaged") || e.to_string().contains("altered"));
        let e = Study::from_link_fragment(&link.replace("ps1.", "ps2.")).unwrap_err();
        assert_eq!(
            e,
            StudyError::Link(PayloadError::LinkVersion("ps2.".into()))
        );
        assert_eq!(
            Study::from_link_fragment("e=pb1.abc").unwrap_err(),
            StudyError::Link(PayloadError::NotALink)
        );
        assert_eq!(
            Study::from_link_fragment("s=ps1.ab!c").unwrap_err(),
            StudyError::Link(PayloadError::Base64(2))
        );
        assert_eq!(
            Study::from_link_fragment("s=ps1.").unwrap_err(),
            StudyError::Link(PayloadError::Truncated)
        );
    }

    #[test]
    fn a_checksummed_but_invalid_study_names_the_field() {
        let s = suite();
        let mut st = study(&s);
        st.tasks.push("nope".into());
        let e = Study::from_link_fragment(&st.to_link_fragment()).unwrap_err();
        assert!(e.to_string().contains("tasks[2]"), "{e}");
        assert!(e.to_string().contains("nope"), "{e}");
    }

    #[test]
    fn validation() {
        let s = suite();
        let ok = study(&s);
        assert_eq!(ok.validate(), Ok(()));
        let check = |f: &dyn Fn(&mut Study), field_name: &str| {
            let mut st = ok.clone();
            f(&mut st);
            match st.validate() {
                Err(StudyError::Field { field, .. }) => assert_eq!(field, field_name),
                other => panic!("{field_name}: {other:?}"),
            }
        };
        check(&|st| st.id = "has space".into(), "id");
        check(&|st| st.id = String::new(), "id");
        check(&|st| st.id = "x".repeat(65), "id");
        check(&|st| st.title = "  ".into(), "title");
        check(&|st| st.tasks.clear(), "tasks");
        check(&|st| st.tasks.push(st.tasks[0].clone()), "tasks[2]");
        check(&|st| st.suite_version += 1, "suite_version");
        check(&|st| st.suite = "other".into(), "suite");
        check(&|st| st.collect_url = Some("ftp://x".into()), "collect_url");
        check(&|st| st.collect_url = Some("http://".into()), "collect_url");
        check(&|st| st.format = "x".into(), "format");
        let mut local = ok.clone();
        local.collect_url = Some("http://127.0.0.1:9000/collect".into());
        assert_eq!(local.validate(), Ok(()));
        let e = Study::from_json("{\"format\": 3}").unwrap_err();
        assert!(e.to_string().contains("format"), "{e}");
    }

    #[test]
    fn suggested_ids_are_valid_and_depend_on_the_content() {
        let a = suggested_id("Pilot: lakes & taxis!", "t1,t2");
        assert!(a.starts_with("pilot-lakes-taxis-"), "{a}");
        assert!(valid_id(&a));
        assert_ne!(a, suggested_id("Pilot: lakes & taxis!", "t1"));
        assert_eq!(a, suggested_id("Pilot: lakes & taxis!", "t1,t2"));
        let b = suggested_id("???", "");
        assert!(b.starts_with("study-") && valid_id(&b), "{b}");
        assert!(valid_id(&suggested_id(&"long title ".repeat(20), "")));
    }
}
