//! The auditor's output contracts (`docs/audit.md`, "Replies"): a reply is accepted only
//! when it holds the required nested JSON objects, an allowed label and a non-empty
//! justification for every judgment (the V-ICAL paper, Appendix C.3). A JSON object
//! wrapped in a Markdown code fence is tolerated; anything else is an error that names
//! the offending field.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub const RULE_LABELS: [&str; 2] = ["successful", "unsuccessful"];
pub const STRATEGY_LABELS: [&str; 3] = ["correct", "underfit", "overfit"];
/// The decision chain's stages, upstream first, then `none`.
pub const STAGE_LABELS: [&str; 5] = [
    "knowledge_induction",
    "state_grounding",
    "planning",
    "action_commitment",
    "none",
];

/// One judgment: an allowed label and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Judgment {
    pub label: String,
    pub justification: String,
}

/// Information transfer evaluation (the learner-level request).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransferVerdict {
    pub rule_transfer: Judgment,
    pub strategy_transfer: Judgment,
}

/// Sequential failure attribution (the player-level request).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttributionVerdict {
    pub player_failure_stage: Judgment,
}

/// The demonstration-derived reference of a task: candidate rules the demonstrations
/// show beyond the basic rules, and strategies with their effects.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reference {
    pub rules_not_in_basic_rules: Vec<String>,
    pub strategies: Vec<String>,
}

/// The reply's JSON object, unwrapped from a code fence when it has one.
pub fn reply_object(reply: &str) -> Result<Map<String, Value>, String> {
    let mut body = reply.trim();
    if body.is_empty() {
        return Err("the reply is empty".into());
    }
    if let Some(fenced) = body.strip_prefix("```") {
        // The fence's first line may name a language (```json).
        let inner = fenced.split_once('\n').map_or("", |(_, rest)| rest);
        body = inner.trim_end().strip_suffix("```").unwrap_or(inner).trim();
    }
    match serde_json::from_str::<Value>(body) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(other) => Err(format!(
            "the reply is JSON but not an object (it is {})",
            kind(&other)
        )),
        Err(e) => Err(format!("the reply is not a JSON object ({e})")),
    }
}

/// What kind of JSON value `v` is, for error messages ("got a number").
pub(crate) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn judgment(obj: &Map<String, Value>, key: &str, allowed: &[&str]) -> Result<Judgment, String> {
    let j = match obj.get(key) {
        None => return Err(format!("{key}: missing")),
        Some(Value::Object(j)) => j,
        Some(other) => {
            return Err(format!(
                "{key}: expected an object with label and justification, got {}",
                kind(other)
            ))
        }
    };
    let label = match j.get("label") {
        None => return Err(format!("{key}.label: missing")),
        Some(Value::String(s)) => s,
        Some(other) => {
            return Err(format!(
                "{key}.label: expected a string, got {}",
                kind(other)
            ))
        }
    };
    if !allowed.contains(&label.as_str()) {
        return Err(format!(
            "{key}.label: {label:?} is not one of {}",
            allowed.join(", ")
        ));
    }
    match j.get("justification") {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(Judgment {
            label: label.clone(),
            justification: s.clone(),
        }),
        None => Err(format!("{key}.justification: missing")),
        Some(_) => Err(format!("{key}.justification: must be a non-empty string")),
    }
}

pub fn parse_transfer(reply: &str) -> Result<TransferVerdict, String> {
    let obj = reply_object(reply)?;
    Ok(TransferVerdict {
        rule_transfer: judgment(&obj, "rule_transfer", &RULE_LABELS)?,
        strategy_transfer: judgment(&obj, "strategy_transfer", &STRATEGY_LABELS)?,
    })
}

pub fn parse_attribution(reply: &str) -> Result<AttributionVerdict, String> {
    let obj = reply_object(reply)?;
    Ok(AttributionVerdict {
        player_failure_stage: judgment(&obj, "player_failure_stage", &STAGE_LABELS)?,
    })
}

fn claims(obj: &Map<String, Value>, key: &str) -> Result<Vec<String>, String> {
    let list = match obj.get(key) {
        None => return Err(format!("{key}: missing")),
        Some(Value::Array(a)) => a,
        Some(other) => {
            return Err(format!(
                "{key}: expected an array of strings, got {}",
                kind(other)
            ))
        }
    };
    list.iter()
        .enumerate()
        .map(|(i, v)| match v {
            Value::String(s) if !s.trim().is_empty() => Ok(s.clone()),
            _ => Err(format!("{key}[{i}]: must be a non-empty string")),
        })
        .collect()
}

pub fn parse_reference(reply: &str) -> Result<Reference, String> {
    let obj = reply_object(reply)?;
    Ok(Reference {
        rules_not_in_basic_rules: claims(&obj, "rules_not_in_basic_rules")?,
        strategies: claims(&obj, "strategies")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD_TRANSFER: &str = r#"{"rule_transfer": {"label": "successful", "justification": "uses the wall rule"},
        "strategy_transfer": {"label": "overfit", "justification": "copies the demo's moves"}}"#;

    #[test]
    fn good_and_fenced_replies_are_accepted() {
        let v = parse_transfer(GOOD_TRANSFER).unwrap();
        assert_eq!(v.rule_transfer.label, "successful");
        assert_eq!(v.strategy_transfer.justification, "copies the demo's moves");
        let fenced = format!("```json\n{GOOD_TRANSFER}\n```\n");
        assert_eq!(parse_transfer(&fenced).unwrap(), v);
        let bare_fence = format!("  ```\n{GOOD_TRANSFER}```");
        assert_eq!(parse_transfer(&bare_fence).unwrap(), v);
        let a = parse_attribution(
            r#"{"player_failure_stage": {"label": "state_grounding", "justification": "misread the car"}}"#,
        )
        .unwrap();
        assert_eq!(a.player_failure_stage.label, "state_grounding");
    }

    #[test]
    fn bad_replies_name_the_field() {
        let wrong_label = GOOD_TRANSFER.replace("overfit", "overfitted");
        assert_eq!(
            parse_transfer(&wrong_label).unwrap_err(),
            "strategy_transfer.label: \"overfitted\" is not one of correct, underfit, overfit"
        );
        assert_eq!(
            parse_attribution(r#"{"stage": {"label": "none", "justification": "x"}}"#).unwrap_err(),
            "player_failure_stage: missing"
        );
        assert_eq!(
            parse_attribution(
                r#"{"player_failure_stage": {"label": "none", "justification": " "}}"#
            )
            .unwrap_err(),
            "player_failure_stage.justification: must be a non-empty string"
        );
        assert_eq!(
            parse_attribution(r#"{"player_failure_stage": {"justification": "x"}}"#).unwrap_err(),
            "player_failure_stage.label: missing"
        );
        assert_eq!(
            parse_attribution(r#"{"player_failure_stage": "planning"}"#).unwrap_err(),
            "player_failure_stage: expected an object with label and justification, got a string"
        );
        assert!(parse_transfer("I think the rules were learnt.")
            .unwrap_err()
            .starts_with("the reply is not a JSON object ("));
        assert_eq!(parse_transfer("  ").unwrap_err(), "the reply is empty");
        assert_eq!(
            parse_transfer("[1]").unwrap_err(),
            "the reply is JSON but not an object (it is an array)"
        );
        // Labels are exact: the contract lists them in lower case.
        assert!(parse_attribution(
            r#"{"player_failure_stage": {"label": "Planning", "justification": "x"}}"#
        )
        .is_err());
    }

    #[test]
    fn references_hold_non_empty_claims() {
        let r = parse_reference(
            r#"{"rules_not_in_basic_rules": ["ice slides"], "strategies": ["hug the wall: safe"]}"#,
        )
        .unwrap();
        assert_eq!(r.rules_not_in_basic_rules, vec!["ice slides"]);
        assert_eq!(
            parse_reference(r#"{"rules_not_in_basic_rules": [""], "strategies": []}"#).unwrap_err(),
            "rules_not_in_basic_rules[0]: must be a non-empty string"
        );
        assert_eq!(
            parse_reference(r#"{"rules_not_in_basic_rules": []}"#).unwrap_err(),
            "strategies: missing"
        );
    }
}
