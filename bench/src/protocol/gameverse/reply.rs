//! GameVerse's reply parser (`parse_semi_formatted_text`, docs/gameverse.md "Harness"):
//! a reply is lines; a line that starts (after its leading whitespace) with a known
//! `### Header` opens that field and the rest of the line is dropped; the field's value
//! is the following lines, stripped, up to the next header.

use envs::gameverse::py_str;

/// The zero-shot agent's headers and the fields they open. Longer headers are tested
/// first, as the reference sorts them.
pub const ZERO_SHOT_HEADERS: &[(&str, &str)] = &[
    ("action", "### Actions"),
    ("reasoning", "### Reasoning"),
    ("action_reasoning", "### Action_reasoning"),
    ("lessons_learned", "### Lessons_learned"),
    ("state_summary", "### State_summary"),
];

/// The memory agent's history-review reply headers (`history_review_reasoning`).
pub const REVIEW_HEADERS: &[(&str, &str)] = &[
    ("history_summary", "### History_summary"),
    ("reasoning", "### Reasoning"),
    ("plan", "### Plan"),
];

/// The memory agent's action reply headers (`action_inference_with_memory`).
pub const ACTION_WITH_MEMORY_HEADERS: &[(&str, &str)] = &[
    ("action", "### Actions"),
    ("reasoning", "### Reasoning"),
    ("new_memory", "### New_memory"),
    ("should_save", "### Should_save"),
];

/// Field `name` of parsed `fields`.
pub fn field<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// What the zero-shot agent hands the game when a reply has no `### Actions` field (the
/// reference returns `str(None)`).
pub const NO_ACTION: &str = "None";

/// The fields of `reply` under `headers` (field, header), in the order they appear; a
/// field that appears twice keeps its last value. Text before the first header belongs
/// to no field and is dropped.
pub fn parse_fields(reply: &str, headers: &[(&str, &'static str)]) -> Vec<(String, String)> {
    let mut sorted: Vec<(&str, &str)> = headers.to_vec();
    // A stable sort by length, longest first, like Python's `sorted` with a key.
    sorted.sort_by_key(|(_, h)| std::cmp::Reverse(h.chars().count()));
    let mut fields: Vec<(String, String)> = Vec::new();
    let mut current: Option<&str> = None;
    let mut value: Vec<&str> = Vec::new();
    let mut close = |field: Option<&str>, value: &mut Vec<&str>| {
        if let Some(f) = field {
            let text = py_str::strip(&value.join("\n")).to_string();
            match fields.iter_mut().find(|(k, _)| k == f) {
                Some(slot) => slot.1 = text,
                None => fields.push((f.to_string(), text)),
            }
        }
        value.clear();
    };
    // `text.split("\n")`, each line right-stripped, empty ones dropped.
    let lines = reply
        .split('\n')
        .map(|l| l.trim_end_matches(py_str::is_space))
        .filter(|l| !l.is_empty());
    for line in lines {
        let stripped = py_str::strip(line);
        match sorted.iter().find(|(_, h)| stripped.starts_with(h)) {
            Some((field, _)) => {
                close(current, &mut value);
                current = Some(field);
            }
            None => value.push(stripped),
        }
    }
    close(current, &mut value);
    fields
}

/// The zero-shot reply's `### Actions` text, if it has that field.
pub fn actions_field(reply: &str) -> Option<String> {
    field(&parse_fields(reply, ZERO_SHOT_HEADERS), "action").map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_actions_field_is_the_lines_under_its_header() {
        let reply = "### Reasoning\nThe corner is free.\n### Actions\nA1\n";
        assert_eq!(actions_field(reply).as_deref(), Some("A1"));
        assert_eq!(
            parse_fields(reply, ZERO_SHOT_HEADERS),
            vec![
                ("reasoning".to_string(), "The corner is free.".to_string()),
                ("action".to_string(), "A1".to_string())
            ]
        );
        // Several lines, indented header, blank lines and trailing spaces.
        let reply = "  ### Actions  \n\n  up  \n\n down\t\n";
        assert_eq!(actions_field(reply).as_deref(), Some("up\ndown"));
    }

    #[test]
    fn the_rest_of_a_header_line_is_dropped() {
        assert_eq!(actions_field("### Actions: up").as_deref(), Some(""));
        assert_eq!(
            actions_field("### Actions: B2\n### Reasoning\nwhy").as_deref(),
            Some("")
        );
        // Any line starting with the header opens it.
        assert_eq!(
            actions_field("### ActionsXYZ\nleft").as_deref(),
            Some("left")
        );
    }

    #[test]
    fn no_header_means_no_action() {
        assert_eq!(actions_field("up"), None);
        assert_eq!(actions_field(""), None);
        assert_eq!(actions_field("### Action\nup"), None);
        assert_eq!(actions_field("### actions\nup"), None);
        assert_eq!(actions_field("**### Actions**\nup"), None);
        // Text before the first header belongs to no field.
        assert_eq!(actions_field("up\n### Reasoning\nx"), None);
    }

    #[test]
    fn the_last_field_of_a_name_wins_and_longer_headers_first() {
        assert_eq!(
            actions_field("### Actions\nup\n### Actions\ndown").as_deref(),
            Some("down")
        );
        let fields = parse_fields(
            "### Action_reasoning\nx\n### Actions\n```json\n{\"key\": \"up\"}\n```",
            ZERO_SHOT_HEADERS,
        );
        assert_eq!(fields[0], ("action_reasoning".into(), "x".into()));
        assert_eq!(
            fields[1],
            ("action".into(), "```json\n{\"key\": \"up\"}\n```".into())
        );
        // Python's whitespace: the information separators strip too.
        assert_eq!(
            actions_field("### Actions\n\u{1c}up\u{1f}").as_deref(),
            Some("up")
        );
        // A carriage return ends with the line's whitespace.
        assert_eq!(
            actions_field("### Actions\r\nup\r\n").as_deref(),
            Some("up")
        );
    }
}
