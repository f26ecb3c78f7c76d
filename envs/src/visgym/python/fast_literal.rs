//! A fast path for `ast.literal_eval` on the strings models usually write: one literal
//! of ASCII tuples, lists, plain strings, decimal numbers (with one sign), `True`,
//! `False` and `None`. Anything else — other characters, escapes, prefixes, bare
//! top-level tuples, nesting beyond a few levels, adjacent strings, names, operators —
//! is left to the full parser (`None`), so the result, when there is one, is the one
//! CPython's parser and `literal_eval` give (checked against the full parser on the
//! golden inputs in the tests).

use super::numbers::number_value;
use super::value::PyValue;

/// Brackets deeper than this go to the full parser (which knows CPython's limits).
const MAX_DEPTH: usize = 16;

struct Scanner<'a> {
    s: &'a [u8],
    i: usize,
}

impl Scanner<'_> {
    fn spaces(&mut self) {
        while self.s.get(self.i) == Some(&b' ') {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    /// Whether the byte after a token ends it (a name or number must not run on).
    fn at_delimiter(&self) -> bool {
        matches!(self.peek(), None | Some(b' ' | b',' | b')' | b']'))
    }

    fn value(&mut self, depth: usize) -> Option<PyValue> {
        self.spaces();
        match self.peek()? {
            b'(' | b'[' if depth < MAX_DEPTH => self.sequence(depth),
            q @ (b'\'' | b'"') => self.string(q),
            b'-' | b'+' => {
                let negative = self.peek() == Some(b'-');
                self.i += 1;
                self.spaces();
                match self.number()? {
                    PyValue::Int(v) if negative => Some(PyValue::Int(v.neg())),
                    PyValue::Float(v) if negative => Some(PyValue::Float(-v)),
                    v => Some(v),
                }
            }
            b'0'..=b'9' | b'.' => self.number(),
            b'T' | b'F' | b'N' => self.keyword(),
            _ => None,
        }
    }

    fn sequence(&mut self, depth: usize) -> Option<PyValue> {
        let open = self.peek()?;
        let close = if open == b'(' { b')' } else { b']' };
        self.i += 1;
        let mut items = Vec::new();
        let mut comma = false;
        loop {
            self.spaces();
            if self.peek()? == close {
                self.i += 1;
                break;
            }
            items.push(self.value(depth + 1)?);
            self.spaces();
            match self.peek()? {
                b',' => {
                    self.i += 1;
                    comma = true;
                }
                c if c == close => {
                    self.i += 1;
                    break;
                }
                _ => return None,
            }
        }
        Some(match (open, comma, items.len()) {
            // `(x)` is x itself.
            (b'(', false, 1) => items.pop()?,
            (b'(', _, _) => PyValue::Tuple(items),
            _ => PyValue::List(items),
        })
    }

    /// A quoted string without escapes or line breaks, not followed by another one.
    fn string(&mut self, quote: u8) -> Option<PyValue> {
        let start = self.i + 1;
        let len = self.s[start..].iter().position(|&c| c == quote)?;
        let body = &self.s[start..start + len];
        if body.contains(&b'\\') {
            return None;
        }
        self.i = start + len + 1;
        self.spaces();
        if matches!(self.peek(), Some(b'\'' | b'"')) {
            return None;
        }
        Some(PyValue::Str(std::str::from_utf8(body).ok()?.to_string()))
    }

    /// A decimal int or float: digits, an optional fraction and exponent.
    fn number(&mut self) -> Option<PyValue> {
        let start = self.i;
        let digits = |s: &mut Self| {
            let from = s.i;
            while matches!(s.peek(), Some(b'0'..=b'9')) {
                s.i += 1;
            }
            s.i - from
        };
        let whole = digits(self);
        let mut float = false;
        if self.peek() == Some(b'.') {
            self.i += 1;
            float = true;
            if digits(self) == 0 && whole == 0 {
                return None;
            }
        } else if whole == 0 {
            return None;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if digits(self) == 0 {
                return None;
            }
            float = true;
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).ok()?;
        // Ints with leading zeros are a syntax error (except all zeros); long ones and
        // anything running on (`1j`, `0x1`, `1_0`) go to the full parser.
        if !self.at_delimiter()
            || (!float && text.len() > 1 && text.starts_with('0'))
            || (!float && text.len() > 30)
        {
            return None;
        }
        number_value(text).ok()
    }

    fn keyword(&mut self) -> Option<PyValue> {
        let rest = &self.s[self.i..];
        let (len, value) = if rest.starts_with(b"True") {
            (4, PyValue::Bool(true))
        } else if rest.starts_with(b"False") {
            (5, PyValue::Bool(false))
        } else if rest.starts_with(b"None") {
            (4, PyValue::None)
        } else {
            return None;
        };
        self.i += len;
        self.at_delimiter().then_some(value)
    }
}

/// `literal_eval(source)` when `source` is in the fast path's reach.
pub fn fast_literal(source: &str) -> Option<PyValue> {
    let bytes = source.as_bytes();
    if !bytes.iter().all(|&c| (0x20..0x7f).contains(&c)) {
        return None;
    }
    let mut s = Scanner { s: bytes, i: 0 };
    let v = s.value(0)?;
    s.spaces();
    (s.i == bytes.len()).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visgym::python::{literal_eval, py_repr};

    #[test]
    fn agrees_with_the_full_parser() {
        let cases = [
            "('move', 0)",
            "  ('move', (1, 2))  ",
            "('move', [0, 6, 2, 0])",
            "('rotate', [15.0, -0.5, 1e30])",
            "('stop', 'stop')",
            "(\"stop\", \"stop\")",
            "('x',)",
            "()",
            "[]",
            "[1, 2,]",
            "(1)",
            "-0",
            "-0.0",
            "+ 1",
            "- 2.5e-3",
            ".5",
            "5.",
            "1e400",
            "(True, False, None)",
            "('move', 99999999999999999999)",
        ];
        for c in cases {
            let fast = fast_literal(c).unwrap_or_else(|| panic!("{c:?} not in the fast path"));
            let full = literal_eval(c).unwrap();
            assert_eq!(py_repr(&fast), py_repr(&full), "{c}");
        }
        for c in [
            "'move', 0",
            "('move', 0j)",
            "01",
            "('a' 'b')",
            "('a\\n')",
            "Truex",
            "--1",
            "-True",
            "(,)",
            "(1,,2)",
            "[1 2]",
            "('move', x)",
            "1_000",
            "0x10",
            "('é', 1)",
            "{'a': 1}",
            "1 + 2",
            "('move',\t0)",
            "",
        ] {
            assert!(fast_literal(c).is_none(), "{c:?} taken by the fast path");
        }
    }
}
