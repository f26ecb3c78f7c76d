//! VisGym's harness turns a model's free-text reply into one action string before
//! `step`: optionally the text inside `<answer>…</answer>`, then the last
//! parenthesised Python literal tuple whose first element is a string (a bare first
//! identifier gets quoted), else the reply itself.

use super::python::{literal_eval, PyValue};

/// Python's `\s` (str patterns): Unicode whitespace, including the ASCII separators
/// U+001C..U+001F that Rust does not count.
fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `\w` (str patterns).
fn is_py_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The harness's `_normalize`: code fences, backticks and box/think markers removed,
/// `Action:` labels replaced by a space, whitespace runs collapsed, trimmed.
pub fn normalize(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    // ```lang fences (the language tag is a run of word characters and '-').
    let mut t = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i..].starts_with(&['`', '`', '`']) {
            i += 3;
            while i < chars.len() && (is_py_word(chars[i]) || chars[i] == '-') {
                i += 1;
            }
            continue;
        }
        t.push(chars[i]);
        i += 1;
    }
    let t = t.replace("```", "").replace('`', "");
    let t = t
        .replace("<|begin_of_box|>", "")
        .replace("<|end_of_box|>", "")
        .replace("\u{25c1}think\u{25b7}", "")
        .replace("\u{25c1}/think\u{25b7}", "");
    // `\bAction\s*:\s*` (case-insensitive) becomes a space.
    let chars: Vec<char> = t.chars().collect();
    let mut out = String::with_capacity(t.len());
    let mut i = 0;
    while i < chars.len() {
        let boundary = i == 0 || !is_py_word(chars[i - 1]);
        let word: String = chars[i..].iter().take(6).collect();
        if boundary && word.to_lowercase() == "action" && word.chars().count() == 6 {
            let mut j = i + 6;
            while j < chars.len() && is_py_space(chars[j]) {
                j += 1;
            }
            if j < chars.len() && chars[j] == ':' {
                j += 1;
                while j < chars.len() && is_py_space(chars[j]) {
                    j += 1;
                }
                out.push(' ');
                i = j;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    // Collapse whitespace, then strip.
    let mut collapsed = String::with_capacity(out.len());
    let mut in_space = false;
    for c in out.chars() {
        if is_py_space(c) {
            if !in_space {
                collapsed.push(' ');
            }
            in_space = true;
        } else {
            collapsed.push(c);
            in_space = false;
        }
    }
    collapsed.trim_matches(is_py_space).to_string()
}

/// `_quote_first_identifier`: `(reorder, [...])` becomes `('reorder', [...])`.
fn quote_first_identifier(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    if chars.first() != Some(&'(') {
        return s.to_string();
    }
    let mut i = 1;
    while i < chars.len() && is_py_space(chars[i]) {
        i += 1;
    }
    let start = i;
    if !(i < chars.len() && (chars[i].is_ascii_alphabetic() || chars[i] == '_')) {
        return s.to_string();
    }
    i += 1;
    while i < chars.len() && is_py_word(chars[i]) {
        i += 1;
    }
    let end = i;
    while i < chars.len() && is_py_space(chars[i]) {
        i += 1;
    }
    if i >= chars.len() || chars[i] != ',' {
        return s.to_string();
    }
    let ident: String = chars[start..end].iter().collect();
    let rest: String = chars[end..].iter().collect();
    format!("('{ident}'{rest}")
}

/// `parse_output`: the last parenthesised action tuple in the normalised text, or the
/// text given when there is none. The reference scans forward from every `(` to the
/// `)` that closes it and keeps the last candidate that reads as a tuple starting with
/// a string; the same candidates are found here by one pass of bracket matching and
/// tried from the last, so a reply of many thousand brackets is not quadratic
/// (`docs/fuzzing.md`).
pub fn parse_output(output: &str) -> String {
    let text: Vec<char> = normalize(output).chars().collect();
    if text.is_empty() {
        return output.to_string();
    }
    let mut open = Vec::new();
    let mut candidates = Vec::new();
    for (j, c) in text.iter().enumerate() {
        match c {
            '(' => open.push(j),
            ')' => {
                if let Some(i) = open.pop() {
                    candidates.push((i, j));
                }
            }
            _ => {}
        }
    }
    candidates.sort_unstable_by_key(|&(i, _)| std::cmp::Reverse(i));
    for (i, j) in candidates {
        let raw: String = text[i..=j].iter().collect();
        let attempt = quote_first_identifier(&raw);
        if let Ok(PyValue::Tuple(items)) = literal_eval(&attempt) {
            if matches!(items.first(), Some(PyValue::Str(_))) {
                return attempt;
            }
        }
    }
    output.to_string()
}

/// The action string the harness passes to `step` for a reply; with verbalisation on,
/// the part between the first `<answer>` and the next `</answer>` is parsed.
pub fn reply_to_action(reply: &str, verbalize: bool) -> String {
    let action = match reply.split_once("<answer>") {
        Some((_, after)) if verbalize => after.split("</answer>").next().unwrap_or(after),
        _ => reply,
    };
    parse_output(action)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn harness_vectors() {
        let cases = [
            (
                "I will move right.\n\n```python\n('move', 0)\n```",
                "('move', 0)",
            ),
            ("(reorder, [2, 1, 3, 4])", "('reorder', [2, 1, 3, 4])"),
            ("First ('move', 1) then maybe ('move', 2)", "('move', 2)"),
            ("(left, 'x') and (1, 2)", "('left', 'x')"),
            ("ACTION:   ('guess',   5)", "('guess', 5)"),
            ("no action here", "no action here"),
        ];
        for (reply, want) in cases {
            assert_eq!(reply_to_action(reply, false), want, "{reply:?}");
        }
        assert_eq!(
            reply_to_action(
                "<think>(1, 2)</think><answer>('stop', 'stop')</answer>",
                true
            ),
            "('stop', 'stop')"
        );
    }
}
