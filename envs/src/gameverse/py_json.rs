//! `json.loads` as Python 3 does it (its C scanner with the default `strict=True`), for the
//! JSON GUI actions GameVerse's games read from a reply. It differs from strict JSON the
//! way Python does: `NaN`, `Infinity` and `-Infinity` are numbers, duplicate keys keep the
//! last value, only ` \t\n\r` is whitespace and a leading byte-order mark is an error.

/// A decoded Python value.
#[derive(Clone, Debug, PartialEq)]
pub enum PyValue {
    Null,
    Bool(bool),
    /// An `int`; Python's are unbounded, these saturate at the i128 range (far beyond
    /// any coordinate a game could use).
    Int(i128),
    Float(f64),
    Str(String),
    List(Vec<PyValue>),
    /// A `dict` in insertion order; a repeated key replaces the value in place.
    Dict(Vec<(String, PyValue)>),
}

impl PyValue {
    /// `d.get(key)` on a dict; `None` for a missing key or a value that is not a dict.
    pub fn get(&self, key: &str) -> Option<&PyValue> {
        match self {
            PyValue::Dict(items) => items.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value as a number, as Python arithmetic would see it (`bool` is an `int`).
    pub fn as_number(&self) -> Option<f64> {
        match self {
            PyValue::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
            PyValue::Int(i) => Some(*i as f64),
            PyValue::Float(f) => Some(*f),
            _ => None,
        }
    }
}

/// Why the text is not JSON to Python (the message `json.JSONDecodeError` would give).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    pub message: &'static str,
    /// Character offset.
    pub pos: usize,
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (char {})", self.message, self.pos)
    }
}

impl std::error::Error for JsonError {}

/// Python's recursion limit stops deeply nested input; the exact depth depends on the
/// interpreter's stack at the call, so this is an approximation of where it gives up.
const MAX_DEPTH: usize = 990;

/// `json.loads(text)`.
pub fn loads(text: &str) -> Result<PyValue, JsonError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.first() == Some(&'\u{feff}') {
        return Err(JsonError {
            message: "Unexpected UTF-8 BOM (decode using utf-8-sig)",
            pos: 0,
        });
    }
    let mut p = Parser {
        s: &chars,
        depth: 0,
    };
    let start = p.skip_ws(0);
    let (value, end) = p.value(start)?;
    let end = p.skip_ws(end);
    if end != chars.len() {
        return Err(JsonError {
            message: "Extra data",
            pos: end,
        });
    }
    Ok(value)
}

struct Parser<'a> {
    s: &'a [char],
    depth: usize,
}

impl Parser<'_> {
    fn skip_ws(&self, mut i: usize) -> usize {
        while i < self.s.len() && matches!(self.s[i], ' ' | '\t' | '\n' | '\r') {
            i += 1;
        }
        i
    }

    fn starts_with(&self, i: usize, word: &str) -> bool {
        (i..)
            .zip(word.chars())
            .all(|(j, c)| self.s.get(j) == Some(&c))
    }

    fn expecting_value(pos: usize) -> JsonError {
        JsonError {
            message: "Expecting value",
            pos,
        }
    }

    fn value(&mut self, i: usize) -> Result<(PyValue, usize), JsonError> {
        let Some(&c) = self.s.get(i) else {
            return Err(Self::expecting_value(i));
        };
        match c {
            '"' => {
                let (s, end) = self.string(i + 1)?;
                Ok((PyValue::Str(s), end))
            }
            '{' | '[' => {
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return Err(JsonError {
                        message: "maximum recursion depth exceeded",
                        pos: i,
                    });
                }
                let r = if c == '{' {
                    self.object(i + 1)
                } else {
                    self.array(i + 1)
                };
                self.depth -= 1;
                r
            }
            'n' if self.starts_with(i, "null") => Ok((PyValue::Null, i + 4)),
            't' if self.starts_with(i, "true") => Ok((PyValue::Bool(true), i + 4)),
            'f' if self.starts_with(i, "false") => Ok((PyValue::Bool(false), i + 5)),
            'N' if self.starts_with(i, "NaN") => Ok((PyValue::Float(f64::NAN), i + 3)),
            'I' if self.starts_with(i, "Infinity") => Ok((PyValue::Float(f64::INFINITY), i + 8)),
            '-' if self.starts_with(i, "-Infinity") => {
                Ok((PyValue::Float(f64::NEG_INFINITY), i + 9))
            }
            _ => self.number(i),
        }
    }

    fn number(&self, start: usize) -> Result<(PyValue, usize), JsonError> {
        let digit = |j: usize| self.s.get(j).is_some_and(|c| c.is_ascii_digit());
        let mut i = start;
        if self.s.get(i) == Some(&'-') {
            i += 1;
        }
        match self.s.get(i) {
            Some('1'..='9') => {
                while digit(i) {
                    i += 1;
                }
            }
            Some('0') => i += 1,
            _ => return Err(Self::expecting_value(start)),
        }
        let mut is_float = false;
        if self.s.get(i) == Some(&'.') && digit(i + 1) {
            is_float = true;
            i += 1;
            while digit(i) {
                i += 1;
            }
        }
        if matches!(self.s.get(i), Some('e' | 'E')) {
            let mut j = i + 1;
            if matches!(self.s.get(j), Some('+' | '-')) {
                j += 1;
            }
            let digits_start = j;
            while digit(j) {
                j += 1;
            }
            if j > digits_start {
                is_float = true;
                i = j;
            }
        }
        let text: String = self.s[start..i].iter().collect();
        let value = if is_float {
            PyValue::Float(text.parse::<f64>().unwrap_or(f64::NAN))
        } else {
            let negative = text.starts_with('-');
            let magnitude = text
                .trim_start_matches('-')
                .chars()
                .filter_map(|c| c.to_digit(10))
                .fold(0i128, |acc, d| {
                    acc.saturating_mul(10).saturating_add(i128::from(d))
                });
            PyValue::Int(if negative { -magnitude } else { magnitude })
        };
        Ok((value, i))
    }

    /// The string whose opening quote is just before `i`.
    fn string(&self, mut i: usize) -> Result<(String, usize), JsonError> {
        let mut out = String::new();
        let unterminated = JsonError {
            message: "Unterminated string starting at",
            pos: i.saturating_sub(1),
        };
        loop {
            let Some(&c) = self.s.get(i) else {
                return Err(unterminated);
            };
            match c {
                '"' => return Ok((out, i + 1)),
                '\\' => {
                    let Some(&e) = self.s.get(i + 1) else {
                        return Err(unterminated);
                    };
                    i += 2;
                    match e {
                        '"' => out.push('"'),
                        '\\' => out.push('\\'),
                        '/' => out.push('/'),
                        'b' => out.push('\u{8}'),
                        'f' => out.push('\u{c}'),
                        'n' => out.push('\n'),
                        'r' => out.push('\r'),
                        't' => out.push('\t'),
                        'u' => {
                            let hi = self.hex4(i)?;
                            i += 4;
                            let mut code = hi;
                            if (0xd800..0xdc00).contains(&hi)
                                && self.s.get(i) == Some(&'\\')
                                && self.s.get(i + 1) == Some(&'u')
                            {
                                if let Ok(lo) = self.hex4(i + 2) {
                                    if (0xdc00..0xe000).contains(&lo) {
                                        code = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
                                        i += 6;
                                    }
                                }
                            }
                            // A lone surrogate is a valid Python str but not a Rust one;
                            // it can never complete a key name or action type anyway.
                            out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                        }
                        _ => {
                            return Err(JsonError {
                                message: "Invalid \\escape",
                                pos: i - 2,
                            })
                        }
                    }
                }
                c if (c as u32) < 0x20 => {
                    return Err(JsonError {
                        message: "Invalid control character at",
                        pos: i,
                    })
                }
                c => {
                    out.push(c);
                    i += 1;
                }
            }
        }
    }

    fn hex4(&self, i: usize) -> Result<u32, JsonError> {
        let mut v = 0;
        for k in 0..4 {
            let d = self
                .s
                .get(i + k)
                .and_then(|c| c.to_digit(16))
                .ok_or(JsonError {
                    message: "Invalid \\uXXXX escape",
                    pos: i.saturating_sub(1),
                })?;
            v = v * 16 + d;
        }
        Ok(v)
    }

    fn object(&mut self, i: usize) -> Result<(PyValue, usize), JsonError> {
        let mut items: Vec<(String, PyValue)> = Vec::new();
        let mut i = self.skip_ws(i);
        if self.s.get(i) == Some(&'}') {
            return Ok((PyValue::Dict(items), i + 1));
        }
        loop {
            if self.s.get(i) != Some(&'"') {
                return Err(JsonError {
                    message: "Expecting property name enclosed in double quotes",
                    pos: i,
                });
            }
            let (key, after_key) = self.string(i + 1)?;
            i = self.skip_ws(after_key);
            if self.s.get(i) != Some(&':') {
                return Err(JsonError {
                    message: "Expecting ':' delimiter",
                    pos: i,
                });
            }
            i = self.skip_ws(i + 1);
            let (value, after_value) = self.value(i)?;
            match items.iter_mut().find(|(k, _)| *k == key) {
                Some(slot) => slot.1 = value,
                None => items.push((key, value)),
            }
            i = self.skip_ws(after_value);
            match self.s.get(i) {
                Some('}') => return Ok((PyValue::Dict(items), i + 1)),
                Some(',') => i = self.skip_ws(i + 1),
                _ => {
                    return Err(JsonError {
                        message: "Expecting ',' delimiter",
                        pos: i,
                    })
                }
            }
        }
    }

    fn array(&mut self, i: usize) -> Result<(PyValue, usize), JsonError> {
        let mut items = Vec::new();
        let mut i = self.skip_ws(i);
        if self.s.get(i) == Some(&']') {
            return Ok((PyValue::List(items), i + 1));
        }
        loop {
            let (value, after) = self.value(i)?;
            items.push(value);
            i = self.skip_ws(after);
            match self.s.get(i) {
                Some(']') => return Ok((PyValue::List(items), i + 1)),
                Some(',') => i = self.skip_ws(i + 1),
                _ => {
                    return Err(JsonError {
                        message: "Expecting ',' delimiter",
                        pos: i,
                    })
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_extensions_and_errors() {
        assert_eq!(
            loads(r#" {"a": NaN, "a": 2, "b": [true, null, -Infinity]} "#)
                .map(|v| v.get("a").cloned()),
            Ok(Some(PyValue::Int(2)))
        );
        assert!(loads(r#"{"a": 1,}"#).is_err());
        assert!(loads("[1,]").is_err());
        assert!(loads("01").is_err());
        assert!(loads("1.").is_err());
        assert_eq!(loads("1e5"), Ok(PyValue::Float(100000.0)));
        assert!(loads("1e").is_err());
        assert!(loads("\u{feff}1").is_err());
        assert!(loads("\"a\nb\"").is_err());
        assert!(loads("\u{a0}1").is_err());
        assert_eq!(
            loads(r#""u\u0070 \ud83d\ude00""#),
            Ok(PyValue::Str("up \u{1f600}".into()))
        );
        assert!(loads("-").is_err());
        assert_eq!(loads("-0"), Ok(PyValue::Int(0)));
    }
}
