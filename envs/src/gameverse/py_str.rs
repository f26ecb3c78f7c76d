//! The few Python `str` behaviours GameVerse's action parsers rely on, so that a reply is
//! read the same way here as by the reference (Python 3): which characters count as
//! whitespace, word characters and digits, `strip()` and `splitlines()`.

/// Python's `str.isspace()` / `\s` in a `str` pattern: Unicode White_Space plus the ASCII
/// information separators U+001C..U+001F, which Python also counts as whitespace.
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `\w` in a Python `str` pattern: `_` and every letter or number.
///
/// Python takes `str.isalnum()` (letters and numbers by general category); Rust's
/// `is_alphanumeric` also admits the few marks and symbols with the Other_Alphabetic
/// property (e.g. circled letters, some vowel signs). Replies never hinge on those.
pub fn is_word(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// `\d` in a Python `str` pattern: a decimal digit of any script (general category Nd).
///
/// Rust's `is_numeric` is wider (it also admits other numbers, such as `²` or `½`); a
/// reply never hinges on those.
pub fn is_digit(c: char) -> bool {
    c.is_numeric()
}

/// `s.strip()`.
pub fn strip(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// `s.splitlines()`: lines split at `\n`, `\r`, `\r\n`, `\v`, `\f`, `\x1c`..`\x1e`,
/// `\x85`, U+2028 and U+2029, without the breaks; no empty last line for a final break.
pub fn splitlines(s: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let is_break = matches!(
            c,
            '\n' | '\r'
                | '\u{0b}'
                | '\u{0c}'
                | '\u{1c}'
                | '\u{1d}'
                | '\u{1e}'
                | '\u{85}'
                | '\u{2028}'
                | '\u{2029}'
        );
        if !is_break {
            continue;
        }
        lines.push(&s[start..i]);
        let mut end = i + c.len_utf8();
        if c == '\r' {
            if let Some(&(j, '\n')) = chars.peek() {
                chars.next();
                end = j + 1;
            }
        }
        start = end;
    }
    if start < s.len() {
        lines.push(&s[start..]);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitlines_matches_python() {
        assert_eq!(splitlines("a\nb\r\nc\rd"), vec!["a", "b", "c", "d"]);
        assert_eq!(splitlines("a\n"), vec!["a"]);
        assert_eq!(splitlines("a\n\nb"), vec!["a", "", "b"]);
        assert_eq!(splitlines(""), Vec::<&str>::new());
        assert_eq!(splitlines("\n"), vec![""]);
        assert_eq!(splitlines("x\u{1c}y\u{2028}z"), vec!["x", "y", "z"]);
    }

    #[test]
    fn strip_and_classes_match_python() {
        assert_eq!(strip("\u{1f} \u{a0}up\t\u{3000}"), "up");
        assert!(is_word('é') && is_word('_') && is_word('٣') && !is_word('-'));
        assert!(is_space('\u{85}') && !is_space('\u{200b}'));
    }
}
