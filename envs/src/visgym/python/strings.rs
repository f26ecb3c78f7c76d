//! String and bytes literal tokens turned into values, as CPython 3.11's parser does:
//! prefixes, escapes (with the codec error texts), implicit concatenation, f-strings
//! (only checked for brace structure: `literal_eval` rejects any f-string).

use super::ast::{Expr, ExprKind};
use super::tokenizer::SyntaxErr;
use super::value::PyValue;

struct Parsed {
    bytes: bool,
    fstring: bool,
    value: StrValue,
}

enum StrValue {
    Text(String),
    Bytes(Vec<u8>),
}

/// Concatenates consecutive STRING tokens (`strings: STRING+`). `error_line` is the line
/// CPython attaches to decoding errors (the last token the parser had fetched).
pub fn concatenate(tokens: &[(String, u32)], error_line: u32) -> Result<Expr, SyntaxErr> {
    let line = tokens.first().map_or(0, |t| t.1);
    let mut parts = Vec::with_capacity(tokens.len());
    for (text, tok_line) in tokens {
        parts.push(parse_one(text, *tok_line, error_line)?);
    }
    let any_bytes = parts.iter().any(|p| p.bytes);
    if any_bytes && !parts.iter().all(|p| p.bytes) {
        return Err(SyntaxErr::syntax(
            "cannot mix bytes and nonbytes literals",
            line,
        ));
    }
    if parts.iter().any(|p| p.fstring) {
        return Ok(Expr::new(ExprKind::JoinedStr, line));
    }
    let value = if any_bytes {
        let mut all = Vec::new();
        for p in parts {
            if let StrValue::Bytes(b) = p.value {
                all.extend(b);
            }
        }
        PyValue::Bytes(all)
    } else {
        let mut all = String::new();
        for p in parts {
            if let StrValue::Text(s) = p.value {
                all.push_str(&s);
            }
        }
        PyValue::Str(all)
    };
    Ok(Expr::new(ExprKind::Constant(value), line))
}

fn parse_one(text: &str, line: u32, error_line: u32) -> Result<Parsed, SyntaxErr> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let (mut bytes, mut raw, mut fstring) = (false, false, false);
    while i < chars.len() && chars[i] != '\'' && chars[i] != '"' {
        match chars[i].to_ascii_lowercase() {
            'b' => bytes = true,
            'r' => raw = true,
            'f' => fstring = true,
            _ => {}
        }
        i += 1;
    }
    let quote = chars.get(i).copied().unwrap_or('\'');
    let triple = chars.len() >= i + 6 && chars[i + 1] == quote && chars[i + 2] == quote;
    let q = if triple { 3 } else { 1 };
    let body: Vec<char> = chars[i + q..chars.len().saturating_sub(q)].to_vec();

    if bytes {
        if body.iter().any(|c| !c.is_ascii()) {
            return Err(SyntaxErr::syntax(
                "bytes can only contain ASCII literal characters",
                line,
            ));
        }
        let value = if raw {
            body.iter().map(|&c| c as u8).collect()
        } else {
            decode_bytes_escapes(&body, error_line)?
        };
        return Ok(Parsed {
            bytes: true,
            fstring: false,
            value: StrValue::Bytes(value),
        });
    }
    if fstring {
        check_fstring(&body, line)?;
        return Ok(Parsed {
            bytes: false,
            fstring: true,
            value: StrValue::Text(String::new()),
        });
    }
    let value = if raw {
        body.iter().collect()
    } else {
        decode_unicode_escapes(&body, error_line)?
    };
    Ok(Parsed {
        bytes: false,
        fstring: false,
        value: StrValue::Text(value),
    })
}

fn unicode_error(start: usize, end: usize, reason: &str, line: u32) -> SyntaxErr {
    SyntaxErr::syntax(
        format!(
            "(unicode error) 'unicodeescape' codec can't decode bytes in position {start}-{end}: {reason}"
        ),
        line,
    )
}

/// The `unicode_escape` decoder over the body, after CPython's rewrite of every
/// non-ASCII character into a `\U%08x` escape (which shifts error positions).
fn decode_unicode_escapes(body: &[char], line: u32) -> Result<String, SyntaxErr> {
    // Positions in CPython's rewritten buffer.
    let pos_of: Vec<usize> = {
        let mut v = Vec::with_capacity(body.len() + 1);
        let mut p = 0;
        for &c in body {
            v.push(p);
            p += if c.is_ascii() { 1 } else { 10 };
        }
        v.push(p);
        v
    };
    let mut out = String::new();
    let mut i = 0;
    while i < body.len() {
        let c = body[i];
        if c != '\\' {
            out.push(c);
            i += 1;
            continue;
        }
        let start = pos_of[i];
        let Some(&e) = body.get(i + 1) else {
            return Err(unicode_error(start, start, "\\ at end of string", line));
        };
        i += 2;
        match e {
            '\n' => {}
            '\\' => out.push('\\'),
            '\'' => out.push('\''),
            '"' => out.push('"'),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'f' => out.push('\x0c'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\x0b'),
            '0'..='7' => {
                let mut v = e as u32 - '0' as u32;
                for _ in 0..2 {
                    match body.get(i) {
                        Some(&d @ '0'..='7') => {
                            v = v * 8 + (d as u32 - '0' as u32);
                            i += 1;
                        }
                        _ => break,
                    }
                }
                out.push(char::from_u32(v).unwrap_or('\u{fffd}'));
            }
            'x' | 'u' | 'U' => {
                let (n, reason) = match e {
                    'x' => (2, "truncated \\xXX escape"),
                    'u' => (4, "truncated \\uXXXX escape"),
                    _ => (8, "truncated \\UXXXXXXXX escape"),
                };
                let mut v: u32 = 0;
                for k in 0..n {
                    match body.get(i + k).and_then(|d| d.to_digit(16)) {
                        Some(d) => v = v * 16 + d,
                        None => {
                            let end = pos_of[i + k] - 1;
                            return Err(unicode_error(start, end, reason, line));
                        }
                    }
                }
                i += n;
                match char::from_u32(v) {
                    Some(ch) => out.push(ch),
                    None => {
                        let end = pos_of[i] - 1;
                        return Err(unicode_error(start, end, "illegal Unicode character", line));
                    }
                }
            }
            'N' => {
                // Character names need Unicode's name table, which is not bundled:
                // every well-formed `\N{...}` is reported as an unknown name.
                let malformed = "malformed \\N character escape";
                if body.get(i) != Some(&'{') {
                    return Err(unicode_error(start, pos_of[i] - 1, malformed, line));
                }
                return Err(match body[i + 1..].iter().position(|&c| c == '}') {
                    None => unicode_error(start, pos_of[body.len()] - 1, malformed, line),
                    Some(0) => unicode_error(start, pos_of[i + 1] - 1, malformed, line),
                    Some(n) => unicode_error(
                        start,
                        pos_of[i + 1 + n + 1] - 1,
                        "unknown Unicode character name",
                        line,
                    ),
                });
            }
            other => {
                // Unknown escapes keep their backslash (a DeprecationWarning only).
                out.push('\\');
                out.push(other);
            }
        }
    }
    Ok(out)
}

fn decode_bytes_escapes(body: &[char], line: u32) -> Result<Vec<u8>, SyntaxErr> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let c = body[i];
        if c != '\\' {
            out.push(c as u8);
            i += 1;
            continue;
        }
        let start = out.len();
        let Some(&e) = body.get(i + 1) else {
            return Err(SyntaxErr::syntax(
                "(value error) Trailing \\ in string",
                line,
            ));
        };
        i += 2;
        match e {
            '\n' => {}
            '\\' => out.push(b'\\'),
            '\'' => out.push(b'\''),
            '"' => out.push(b'"'),
            'a' => out.push(7),
            'b' => out.push(8),
            'f' => out.push(12),
            'n' => out.push(b'\n'),
            'r' => out.push(b'\r'),
            't' => out.push(b'\t'),
            'v' => out.push(11),
            '0'..='7' => {
                let mut v = e as u32 - '0' as u32;
                for _ in 0..2 {
                    match body.get(i) {
                        Some(&d @ '0'..='7') => {
                            v = v * 8 + (d as u32 - '0' as u32);
                            i += 1;
                        }
                        _ => break,
                    }
                }
                out.push((v & 0xff) as u8);
            }
            'x' => {
                let hi = body.get(i).and_then(|d| d.to_digit(16));
                let lo = body.get(i + 1).and_then(|d| d.to_digit(16));
                match (hi, lo) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 2;
                    }
                    _ => {
                        return Err(SyntaxErr::syntax(
                            format!("(value error) invalid \\x escape at position {start}"),
                            line,
                        ))
                    }
                }
            }
            other => {
                out.push(b'\\');
                out.push(other as u8);
            }
        }
    }
    Ok(out)
}

/// The brace structure CPython 3.11's f-string parser checks before it compiles the
/// expressions inside (which `literal_eval` never evaluates anyway).
fn check_fstring(body: &[char], line: u32) -> Result<(), SyntaxErr> {
    let err = |m: &str| Err(SyntaxErr::syntax(format!("f-string: {m}"), line));
    let mut i = 0;
    while i < body.len() {
        match body[i] {
            '{' if body.get(i + 1) == Some(&'{') => i += 2,
            '}' if body.get(i + 1) == Some(&'}') => i += 2,
            '}' => return err("single '}' is not allowed"),
            '{' => {
                i += 1;
                let start = i;
                let mut depth = 0i32;
                let mut quote: Option<char> = None;
                loop {
                    let Some(&c) = body.get(i) else {
                        return err("expecting '}'");
                    };
                    if let Some(q) = quote {
                        if c == q {
                            quote = None;
                        }
                    } else if c == '\'' || c == '"' {
                        quote = Some(c);
                    } else if matches!(c, '(' | '[' | '{') {
                        depth += 1;
                    } else if matches!(c, ')' | ']') || (c == '}' && depth > 0) {
                        depth -= 1;
                    } else if depth == 0 && (c == '}' || c == '!' || c == ':') {
                        break;
                    }
                    i += 1;
                }
                if body[start..i].iter().all(|c| c.is_whitespace()) {
                    return err("empty expression not allowed");
                }
                // Skip a conversion and format spec up to the closing brace.
                let mut nested = 0;
                while let Some(&c) = body.get(i) {
                    if c == '{' {
                        nested += 1;
                    } else if c == '}' {
                        if nested == 0 {
                            break;
                        }
                        nested -= 1;
                    }
                    i += 1;
                }
                if body.get(i) != Some(&'}') {
                    return err("expecting '}'");
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    Ok(())
}
