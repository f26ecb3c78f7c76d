//! VisGym's harness turns a model's free-text reply into one action string before
//! `step`: optionally the text inside `<answer>…</answer>`, then the last
//! parenthesised Python literal tuple whose first element is a string (a bare first
//! identifier gets quoted), else the reply itself.

mod candidates;

use std::borrow::Cow;

use super::python::tokenizer::MAXLEVEL;
use super::python::{literal_value, PyValue};
use candidates::Candidates;

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

/// The byte range of the identifier `_quote_first_identifier` quotes in a candidate:
/// the first word after `(`, when a comma follows it.
fn first_identifier(s: &str) -> Option<(usize, usize)> {
    let inner = s.strip_prefix('(')?;
    let ident_start = inner.len() - inner.trim_start_matches(is_py_space).len();
    let after_space = &inner[ident_start..];
    if !after_space.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        return None;
    }
    let ident_len = after_space.len() - after_space.trim_start_matches(is_py_word).len();
    let rest = &after_space[ident_len..];
    if !rest.trim_start_matches(is_py_space).starts_with(',') {
        return None;
    }
    Some((1 + ident_start, 1 + ident_start + ident_len))
}

/// `_quote_first_identifier`: `(reorder, [...])` becomes `('reorder', [...])`.
fn quote_first_identifier(s: &str, ident: Option<(usize, usize)>) -> Cow<'_, str> {
    match ident {
        Some((start, end)) => Cow::Owned(format!("('{}'{}", &s[start..end], &s[end..])),
        None => Cow::Borrowed(s),
    }
}

/// Whether the bracketed text starting at `(` could read as a tuple whose first
/// element is a string: past the opening brackets and spaces there must be a quote, a
/// string prefix or an identifier (which `_quote_first_identifier` may quote), within
/// the 200 brackets Python's tokenizer accepts. A necessary condition only, checked
/// in a bounded number of steps so that nested candidates cost nothing.
fn may_be_action_tuple(candidate: &str) -> bool {
    let mut opens = 0;
    for c in candidate.chars() {
        if c == '(' {
            opens += 1;
            if opens > MAXLEVEL {
                return false;
            }
        } else if !is_py_space(c) {
            return c == '\'' || c == '"' || c.is_ascii_alphabetic() || c == '_';
        }
    }
    false
}

/// `parse_output`: the last parenthesised action tuple in the normalised text, or the
/// text given when there is none. The reference scans forward from every `(` to the
/// `)` that closes it and keeps the last candidate that reads as a tuple starting with
/// a string; the same candidates are found here by one pass of bracket matching and
/// tried from the last, parsing only those a scan of their tokens cannot rule out
/// (`candidates`), so a reply of many thousand brackets is not quadratic
/// (`docs/fuzzing.md`).
pub fn parse_output(output: &str) -> String {
    parse_output_with(output, true)
}

/// `parse_output`, ruling candidates out by their tokens when `rule_out`.
fn parse_output_with(output: &str, rule_out: bool) -> String {
    let text = normalize(output);
    // Brackets are ASCII, so byte positions find them (and slice on char boundaries).
    let mut open = Vec::new();
    let mut pairs = Vec::new();
    for (j, b) in text.bytes().enumerate() {
        match b {
            b'(' => open.push(j),
            b')' => {
                if let Some(i) = open.pop() {
                    pairs.push((i, j));
                }
            }
            _ => {}
        }
    }
    pairs.sort_unstable_by_key(|&(i, _)| std::cmp::Reverse(i));
    let mut candidates = Candidates::new(&text);
    for (i, j) in pairs {
        let raw = &text[i..=j];
        let ident = first_identifier(raw);
        if rule_out && !candidates.must_parse(i, j, ident, may_be_action_tuple(raw)) {
            continue;
        }
        let attempt = quote_first_identifier(raw, ident);
        #[cfg(test)]
        tests::PARSES.with(|n| n.set(n.get() + 1));
        let value = literal_value(&attempt);
        if let Some(PyValue::Tuple(items)) = &value {
            if matches!(items.first(), Some(PyValue::Str(_))) {
                return attempt.into_owned();
            }
        }
        if rule_out {
            candidates.parsed(i, ident.is_some(), value.is_some());
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
    use crate::visgym::python::literal_eval;

    thread_local! {
        /// Candidates handed to `literal_value` on this thread.
        pub(super) static PARSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// The action read from `reply` (its first 40 characters: failures stay legible)
    /// and the number of candidates parsed for it.
    fn parses_for(reply: &str) -> (String, usize) {
        PARSES.with(|n| n.set(0));
        let action: String = reply_to_action(reply, true).chars().take(40).collect();
        (action, PARSES.with(|n| n.get()))
    }

    /// Nested candidates cost one parse, not one per level (`docs/fuzzing.md`): the
    /// 165 kB reply the 1,000,000-input run found slow (200 candidates of 87 kB each
    /// before the action, parsed one by one: 1.3 s), the same with no name to rule
    /// candidates out, and nesting around an action.
    #[test]
    fn nested_candidates_are_parsed_once() {
        let (open, close) = ("(".repeat(44_000), ")".repeat(2_000));
        let names = format!(
            "<answer>('move', 2)</answ2){open}{}{close}",
            "answ/".repeat(17_400)
        );
        assert_eq!(parses_for(&names), ("('move', 2)".into(), 1));
        let sum = format!(
            "<answer>('move', 2)</answ2){open}'a', {}1{close}",
            "1+".repeat(40_000)
        );
        assert_eq!(parses_for(&sum), ("('move', 2)".into(), 2));
        let action = format!("{}('go', 1){}", "(".repeat(300), ")".repeat(300));
        assert_eq!(parses_for(&action), ("('go', 1)".into(), 1));
    }

    /// A sum of a million terms reads as CPython's `RecursionError` (the tree is too
    /// deep for `ast` objects), in bounded memory, and drops without overflowing the
    /// stack (it once did at 300,000 terms).
    #[test]
    fn a_million_term_sum_is_no_action() {
        let reply = format!("('move', {}1)", "1+".repeat(1_000_000));
        assert_eq!(parses_for(&reply), (reply[..40].to_string(), 1));
        let e = literal_eval(&reply).unwrap_err();
        assert_eq!(e.class, "RecursionError");
    }

    /// The harness's own way: every candidate tried, from the last, with no filter.
    fn parse_output_unfiltered(output: &str) -> String {
        parse_output_with(output, false)
    }

    /// The filters that skip candidates (`may_be_action_tuple`, the token scan of
    /// `candidates`) never skip one that reads: on generated replies of brackets,
    /// strings, escapes, comments, prefixes, names, numbers and operators, nested, and
    /// on nesting around the tokenizer's 200 levels, the answer is the unfiltered one.
    #[test]
    fn skipping_candidates_changes_no_answer() {
        let pieces = [
            "(",
            "(",
            ")",
            ")",
            "[",
            "]",
            "{",
            "}",
            "'",
            "\"",
            "\\",
            "#",
            " ",
            ",",
            ", ",
            "a",
            "move",
            "1",
            "f",
            "r",
            "b",
            "'s'",
            "''",
            "'''",
            "\"x\"",
            "'(",
            ")'",
            "'\\''",
            "('go', 1)",
            "(go, 2)",
            "(1, 'x')",
            ":",
            "é",
            // Names, numbers and operators the token scan reads.
            "x",
            "answ/",
            "True",
            "None",
            "set()",
            "set",
            "-",
            "+",
            "1j",
            "1e5",
            "1e-5",
            "0x1f",
            ".5",
            "1.",
            "1.e5",
            "...",
            "*",
            "=",
            "~",
            "u'",
            "rb\"",
            "if",
            "é'",
            "(True, 1)",
            "(None,",
            "(set, 2)",
            "('a', -1.5e+3j)",
            "(1)+(2j)",
            // Strings that hide a bracket, so that brackets pair up across them.
            "')'",
            "'('",
            "'()'",
            "(')'",
            "')')",
            " ",
            ", ",
        ];
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut found = 0;
        for n in 0..60_000 {
            let len = 1 + next(24);
            let mut reply: String = (0..len).map(|_| pieces[next(pieces.len())]).collect();
            // Half of them nested in brackets, so that inner candidates' scans are
            // reused by the candidates around them.
            if n % 2 == 1 {
                let depth = next(6);
                let around = |next: &mut dyn FnMut(usize) -> usize| {
                    let piece = pieces[next(pieces.len())];
                    if next(2) == 0 {
                        piece
                    } else {
                        ""
                    }
                };
                for _ in 0..depth {
                    let (before, after) = (around(&mut next), around(&mut next));
                    reply = format!("({before}{reply}{after})");
                }
            }
            let want = parse_output_unfiltered(&reply);
            assert_eq!(parse_output(&reply), want, "{reply:?}");
            found += usize::from(want != reply);
        }
        // Enough of them hold an action for the comparison to mean something.
        assert!(found > 2_000, "{found}");
        // Candidates that read only because a string or a comment hides brackets.
        for reply in [
            "x ('(', 1) # )",
            "('a', '''(''', 1)",
            "('\\'(', 2)",
            "('a', \"#(\")",
            // An inner pair `(')` whose string ends only outside it.
            "x ( (')' , '(' ))",
        ] {
            let want = parse_output_unfiltered(reply);
            assert!(
                matches!(literal_eval(&want), Ok(PyValue::Tuple(_))),
                "{reply:?} holds an action"
            );
            assert_eq!(parse_output(reply), want, "{reply:?}");
        }
        // An action whose second element nests a little, and up to and past the
        // tokenizer's limit of 200 brackets (this parser stops sooner, as CPython's
        // does when its stack runs out: `python::parser::MAX_DEPTH`).
        for depth in [10, 40, 199, 200, 201] {
            for (open, close) in [("(", ")"), ("[", "]")] {
                let reply = format!(
                    "x ('ok', 1) ('a', {}1{})",
                    open.repeat(depth),
                    close.repeat(depth)
                );
                let want = parse_output_unfiltered(&reply);
                assert_eq!(want.starts_with("('a'"), depth <= 40, "{depth}: {want:.20}");
                assert_eq!(parse_output(&reply), want, "{depth}");
            }
        }
    }

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
