//! The judge's reply (`docs/judge.md`, "Replies"; the spec's §9.2): the JSON text is
//! found as GameVerse's extractor finds it, then `milestone_matches` is read entry by
//! entry. Indices outside the list and repeated indices are ignored (the first entry
//! of an index counts), a milestone without an entry is not completed, and only
//! `"completed": true` completes. A reply without a readable `milestone_matches`
//! array is unparsable (the run asks once more, then scores the episode 0 and flags
//! it).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::milestones::extract_json_text;

/// The judge's answer for one milestone.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchEntry {
    pub completed: bool,
    #[serde(default)]
    pub evidence: String,
}

/// A parsed reply: one slot per milestone (`None`: the reply had no entry for it),
/// and why entries were ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct JudgeVerdict {
    pub matches: Vec<Option<MatchEntry>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<String>,
}

impl JudgeVerdict {
    /// Milestones the judge marked completed.
    pub fn completed(&self) -> usize {
        self.matches
            .iter()
            .filter(|m| m.as_ref().is_some_and(|m| m.completed))
            .count()
    }

    pub fn is_completed(&self, i: usize) -> bool {
        self.matches
            .get(i)
            .is_some_and(|m| m.as_ref().is_some_and(|m| m.completed))
    }
}

fn index_of(v: Option<&Value>) -> Result<u64, String> {
    match v {
        None => Err("no milestone_index".into()),
        Some(Value::Number(n)) => n
            .as_u64()
            .or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && *f >= 0.0)
                    .map(|f| f as u64)
            })
            .ok_or_else(|| format!("milestone_index {n} is not an index")),
        Some(other) => Err(format!("milestone_index {other} is not a number")),
    }
}

/// Reads a reply about `total` milestones.
pub fn parse_verdict(reply: &str, total: usize) -> Result<JudgeVerdict, String> {
    let text = extract_json_text(reply);
    let v: Value =
        serde_json::from_str(&text).map_err(|e| format!("the reply holds no JSON object ({e})"))?;
    let entries = match v.get("milestone_matches") {
        Some(Value::Array(a)) => a,
        Some(_) => return Err("milestone_matches: expected an array".into()),
        None if v.is_object() => return Err("milestone_matches: missing".into()),
        None => return Err("the reply's JSON is not an object".into()),
    };
    let mut verdict = JudgeVerdict {
        matches: vec![None; total],
        ignored: Vec::new(),
    };
    for (k, e) in entries.iter().enumerate() {
        let at = format!("milestone_matches[{k}]");
        let Value::Object(m) = e else {
            verdict.ignored.push(format!("{at}: not an object"));
            continue;
        };
        let i = match index_of(m.get("milestone_index")) {
            Ok(i) => i,
            Err(why) => {
                verdict.ignored.push(format!("{at}: {why}"));
                continue;
            }
        };
        let Some(slot) = usize::try_from(i)
            .ok()
            .and_then(|i| verdict.matches.get_mut(i))
        else {
            verdict.ignored.push(format!(
                "{at}: milestone_index {i} is outside the list (0-{})",
                total.saturating_sub(1)
            ));
            continue;
        };
        if slot.is_some() {
            verdict.ignored.push(format!(
                "{at}: milestone {i} again (the first entry counts)"
            ));
            continue;
        }
        *slot = Some(MatchEntry {
            completed: m.get("completed") == Some(&Value::Bool(true)),
            evidence: match m.get("evidence") {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) | None => String::new(),
                Some(other) => other.to_string(),
            },
        });
    }
    Ok(verdict)
}
