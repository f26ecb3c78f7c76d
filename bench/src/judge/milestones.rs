//! Milestone lists in GameVerse's JSON format (`docs/judge.md`, "Milestone lists"):
//! `{"milestones": [{timestamp, title, description, category, importance}]}`, as the
//! reference's files and its extractor write them, plus Playbench's extension key
//! `playbench_exact`, the milestone's exact predicate in the environment's own signal
//! events. Two readers: a milestone file (strict, errors name the field) and a raw reply
//! of the extractor model, unwrapped by GameVerse's rules first
//! (`extract_json_text`, the spec's §9.1).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::audit::contract::kind;

/// The key of a milestone's exact predicate (ours; GameVerse's files have none).
pub const EXACT_KEY: &str = "playbench_exact";
/// The top-level key of the game's name as GameVerse's configs write it (`env_name`,
/// the judge prompt's `{game_name}`; ours).
pub const GAME_KEY: &str = "playbench_game";

/// A milestone's exact predicate: completed when the environment reported `event` on
/// any step of the episode (`Step.signals.events`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExactPredicate {
    pub event: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Milestone {
    /// Free text: the shipped files use `00:04 - 00:18`, `00.03 - 00.08`, `0:00 - 0:01`.
    #[serde(default)]
    pub timestamp: String,
    pub title: String,
    pub description: String,
    #[serde(default)]
    pub category: String,
    #[serde(default)]
    pub importance: String,
    #[serde(
        default,
        rename = "playbench_exact",
        skip_serializing_if = "Option::is_none"
    )]
    pub exact: Option<ExactPredicate>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MilestoneList {
    #[serde(
        default,
        rename = "playbench_game",
        skip_serializing_if = "Option::is_none"
    )]
    pub game: Option<String>,
    pub milestones: Vec<Milestone>,
}

impl MilestoneList {
    /// Whether every milestone has an exact predicate.
    pub fn is_exact(&self) -> bool {
        !self.milestones.is_empty() && self.milestones.iter().all(|m| m.exact.is_some())
    }

    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
}

/// A text field: required ones must be non-empty strings; optional ones may be absent
/// (empty). A number is taken as its text, as the extractor's fallback writes
/// `"timestamp": 0`.
fn text(m: &Map<String, Value>, at: &str, key: &str, required: bool) -> Result<String, String> {
    match m.get(key) {
        None | Some(Value::Null) if !required => Ok(String::new()),
        None => Err(format!("{at}.{key}: missing")),
        Some(Value::String(s)) if required && s.trim().is_empty() => {
            Err(format!("{at}.{key}: must be a non-empty string"))
        }
        Some(Value::String(s)) => Ok(s.clone()),
        Some(Value::Number(n)) if !required => Ok(n.to_string()),
        Some(other) => Err(format!(
            "{at}.{key}: expected a string, got {}",
            kind(other)
        )),
    }
}

fn exact(m: &Map<String, Value>, at: &str) -> Result<Option<ExactPredicate>, String> {
    let at = format!("{at}.{EXACT_KEY}");
    match m.get(EXACT_KEY) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(p)) => {
            if let Some(k) = p.keys().find(|k| k.as_str() != "event") {
                return Err(format!(
                    "{at}.{k}: unknown field (the predicate is {{\"event\": \"…\"}})"
                ));
            }
            Ok(Some(ExactPredicate {
                event: text(p, &at, "event", true)?,
            }))
        }
        Some(other) => Err(format!(
            "{at}: expected an object {{\"event\": \"…\"}}, got {}",
            kind(other)
        )),
    }
}

fn milestone(v: &Value, i: usize) -> Result<Milestone, String> {
    let at = format!("milestones[{i}]");
    let Value::Object(m) = v else {
        return Err(format!("{at}: expected an object, got {}", kind(v)));
    };
    Ok(Milestone {
        timestamp: text(m, &at, "timestamp", false)?,
        title: text(m, &at, "title", true)?,
        description: text(m, &at, "description", true)?,
        category: text(m, &at, "category", false)?,
        importance: text(m, &at, "importance", false)?,
        exact: exact(m, &at)?,
    })
}

/// The list from a parsed document: `{"milestones": [...]}`, or — as GameVerse's
/// extractor does for a top level without `milestones` — the value itself as the list.
fn from_value(v: Value) -> Result<MilestoneList, String> {
    let mut game = None;
    let list = match v {
        Value::Object(mut m) if m.contains_key("milestones") => {
            game = match m.remove(GAME_KEY) {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => Some(s),
                Some(other) => {
                    return Err(format!(
                        "{GAME_KEY}: expected a string, got {}",
                        kind(&other)
                    ))
                }
            };
            m.remove("milestones")
        }
        other => Some(other),
    };
    let items = match list {
        Some(Value::Array(items)) => items,
        Some(other) => {
            return Err(format!(
                "milestones: expected an array of milestones, got {}",
                kind(&other)
            ))
        }
        None => return Err("milestones: missing".into()),
    };
    if items.is_empty() {
        return Err("milestones: the list is empty".into());
    }
    let milestones = items
        .iter()
        .enumerate()
        .map(|(i, v)| milestone(v, i))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(MilestoneList { game, milestones })
}

/// A milestone file (the reference's `milestones.json`, or one of ours).
pub fn parse_milestone_file(json: &str) -> Result<MilestoneList, String> {
    let v: Value = serde_json::from_str(json).map_err(|e| format!("the file is not JSON ({e})"))?;
    if !v.is_object() {
        return Err(format!(
            "expected an object {{\"milestones\": [...]}}, got {}",
            kind(&v)
        ));
    }
    from_value(v)
}

/// The first fenced block (```` ``` ```` or ```` ```json ````, any case) whose body is
/// `{…}`, as GameVerse's `` ```(?:json)?\s*(\{[\s\S]*?\})\s*``` `` finds it: the
/// earliest fence that opens one, closed at the first `}` followed by optional
/// whitespace and a fence.
fn fenced_object(text: &str) -> Option<&str> {
    let lower = text.to_ascii_lowercase();
    // Every position, as a regex search tries them (four backticks open at two).
    let fences =
        (0..text.len()).filter(|&i| text.is_char_boundary(i) && text[i..].starts_with("```"));
    for fence in fences {
        let mut at = fence + 3;
        if lower[at..].starts_with("json") {
            at += 4;
        }
        let rest = &text[at..];
        let body = rest.trim_start();
        if !body.starts_with('{') {
            continue;
        }
        let start = at + (rest.len() - body.len());
        let found = text[start..].match_indices('}').find_map(|(j, _)| {
            let end = start + j + 1;
            text[end..]
                .trim_start()
                .starts_with("```")
                .then_some(&text[start..end])
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The JSON text of a model's reply by GameVerse's rules (the spec's §9.1): the first
/// fenced `{…}` block, else the span from the first `{` to the last `}`, else the
/// whole reply; then `\'` (not after a backslash) becomes `'`.
pub fn extract_json_text(reply: &str) -> String {
    let body = fenced_object(reply).unwrap_or_else(|| match (reply.find('{'), reply.rfind('}')) {
        (Some(a), Some(b)) if a < b => &reply[a..=b],
        _ => reply,
    });
    let mut out = String::with_capacity(body.len());
    let mut prev = None;
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && prev != Some('\\') && chars.peek() == Some(&'\'') {
            prev = Some(c);
            continue;
        }
        out.push(c);
        prev = Some(c);
    }
    out
}

/// A raw reply of the milestone extractor (the spec's §9.1): unwrapped and parsed by
/// GameVerse's rules. Where the reference falls back to an empty list, this says why.
pub fn parse_extractor_reply(reply: &str) -> Result<MilestoneList, String> {
    let text = extract_json_text(reply);
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| format!("the reply holds no JSON milestone list ({e})"))?;
    from_value(v)
}
