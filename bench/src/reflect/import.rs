//! Another model's experience for the condition `other` (`docs/gameverse.md`,
//! "Reflect and retry"): GameVerse's experience file (`{game_name, reflections,
//! summary}`, whose `summary` its loader returns), a Playbench run of attempts (file or
//! `a=` link: the experience its last reflection produced), or plain text.

use crate::attempts::{AttemptRun, ATTEMPTS_FORMAT, ATTEMPTS_LINK};

/// The experience in `text` and a description of where it came from.
pub fn experience_from(text: &str) -> Result<(String, String), String> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err("the experience to import is empty".into());
    }
    if trimmed.contains(ATTEMPTS_LINK.tag) && !trimmed.starts_with('{') {
        let run = AttemptRun::from_link_fragment(trimmed).map_err(|e| e.to_string())?;
        return from_run(&run);
    }
    if !trimmed.starts_with('{') {
        return Ok((text.to_string(), "a text".into()));
    }
    let value: serde_json::Value =
        serde_json::from_str(trimmed).map_err(|e| format!("not JSON: {e}"))?;
    if value.get("format").and_then(|f| f.as_str()) == Some(ATTEMPTS_FORMAT) {
        let run = AttemptRun::from_json(trimmed).map_err(|e| e.to_string())?;
        return from_run(&run);
    }
    let game = value
        .get("game_name")
        .and_then(|g| g.as_str())
        .unwrap_or("a game");
    match value.get("summary") {
        Some(serde_json::Value::String(s)) if !s.trim().is_empty() => {
            Ok((s.clone(), format!("a GameVerse experience file for {game}")))
        }
        Some(_) => Err("field `summary`: expected the experience text".into()),
        None => Err(format!(
            "expected GameVerse's experience file (with `summary`) or a run of attempts ({ATTEMPTS_FORMAT})"
        )),
    }
}

fn from_run(run: &AttemptRun) -> Result<(String, String), String> {
    let text = run.carry();
    if text.is_empty() {
        return Err("the run of attempts has no experience (no attempt was reflected on)".into());
    }
    let task = match &run.task {
        crate::share::TaskRef::Suite(t) => t.task.clone(),
        crate::share::TaskRef::Inline(t) => t.id.clone(),
    };
    Ok((
        text,
        format!("a run of attempts by {} on {task}", run.agent),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_gameverse_files_and_text() {
        let file = r#"{"game_name": "Maze", "reflections": [{"text": "x", "metadata": {}}], "summary": "Go down."}"#;
        assert_eq!(
            experience_from(file).unwrap(),
            (
                "Go down.".into(),
                "a GameVerse experience file for Maze".into()
            )
        );
        assert_eq!(experience_from("Just text.\n").unwrap().0, "Just text.\n");
        assert!(experience_from("  ").unwrap_err().contains("empty"));
        assert!(experience_from(r#"{"summary": 3}"#)
            .unwrap_err()
            .contains("summary"));
        assert!(experience_from(r#"{"a": 1}"#)
            .unwrap_err()
            .contains("expected"));
        assert!(experience_from("{oops").unwrap_err().contains("not JSON"));
    }
}
