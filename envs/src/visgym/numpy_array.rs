//! How numpy 1.26 turns a Python value into an array (`np.array(x)`,
//! `np.asarray(x, dtype=float32)`): shape discovery with its ragged-array error, and the
//! dtype a list of Python scalars gets. VisGym's argument spaces validate through it.

use super::python::value::{PyInt, PyValue};
use super::python::PyException;

/// The dtype numpy picks for a nested list of Python scalars.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DType {
    Bool,
    Int64,
    UInt64,
    Float64,
    Complex128,
    Str,
    Bytes,
    Object,
}

/// A discovered array: its shape and its leaves in C order.
pub struct Discovered<'a> {
    pub shape: Vec<usize>,
    pub leaves: Vec<&'a PyValue>,
}

const MAX_DIMS: usize = 32;

struct Discovery<'a> {
    max_ndim: usize,
    shape: [usize; MAX_DIMS],
    max_dims_reached: bool,
    ragged: bool,
    leaves: Vec<&'a PyValue>,
}

impl<'a> Discovery<'a> {
    /// numpy's `update_shape`; false when the nesting is ragged.
    fn update_shape(&mut self, curr: usize, new_shape: &[usize], sequence: bool) -> bool {
        let mut ok = true;
        let mut new_ndim = new_shape.len();
        if curr + new_ndim > self.max_ndim {
            ok = false;
            new_ndim = self.max_ndim.saturating_sub(curr);
        } else if !sequence && self.max_ndim != curr + new_ndim {
            self.max_ndim = curr + new_ndim;
            if self.max_dims_reached {
                ok = false;
            }
        }
        for (i, &new_dim) in new_shape.iter().enumerate().take(new_ndim) {
            if !self.max_dims_reached {
                self.shape[curr + i] = new_dim;
            } else if new_dim != self.shape[curr + i] {
                ok = false;
                if !sequence {
                    self.max_ndim -= new_ndim - i;
                } else {
                    self.max_ndim = curr;
                }
                break;
            }
        }
        if !sequence {
            self.max_dims_reached = true;
        }
        ok
    }

    fn visit(&mut self, v: &'a PyValue, curr: usize) {
        match v {
            PyValue::List(items) | PyValue::Tuple(items) if curr < MAX_DIMS => {
                if !self.update_shape(curr, &[items.len()], true) {
                    // numpy stops descending into a ragged branch.
                    self.ragged = true;
                    return;
                }
                if items.is_empty() {
                    // An empty sequence must be the last dimension.
                    self.max_dims_reached = true;
                    self.max_ndim = curr + 1;
                    return;
                }
                for item in items {
                    self.visit(item, curr + 1);
                }
            }
            _ => {
                if !self.update_shape(curr, &[], false) {
                    self.ragged = true;
                    return;
                }
                self.leaves.push(v);
            }
        }
    }
}

/// Shape discovery of `np.array(v)`; a ragged nesting is numpy's `ValueError`.
pub fn discover(v: &PyValue) -> Result<Discovered<'_>, PyException> {
    let mut d = Discovery {
        max_ndim: MAX_DIMS,
        shape: [0; MAX_DIMS],
        max_dims_reached: false,
        ragged: false,
        leaves: Vec::new(),
    };
    d.visit(v, 0);
    let shape = d.shape[..d.max_ndim.min(MAX_DIMS)].to_vec();
    if d.ragged {
        let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
        let tuple = if dims.len() == 1 {
            format!("({},)", dims[0])
        } else {
            format!("({})", dims.join(", "))
        };
        return Err(PyException {
            class: "ValueError",
            message: format!(
                "setting an array element with a sequence. The requested array has an inhomogeneous shape after {} dimensions. The detected shape was {tuple} + inhomogeneous part.",
                shape.len()
            ),
        });
    }
    // A sequence with no elements yields no leaves; numpy makes it float64.
    Ok(Discovered {
        shape,
        leaves: d.leaves,
    })
}

fn int_dtype(i: &PyInt) -> DType {
    match i.as_i128() {
        Some(v) if i64::try_from(v).is_ok() => DType::Int64,
        Some(v) if u64::try_from(v).is_ok() => DType::UInt64,
        _ => DType::Object,
    }
}

/// The dtype `np.array` gives these leaves (numpy's promotion of Python scalars).
pub fn dtype_of(leaves: &[&PyValue]) -> DType {
    let (mut b, mut i64_, mut u64_, mut f, mut c, mut s, mut by, mut o) =
        (false, false, false, false, false, false, false, false);
    for v in leaves {
        match v {
            PyValue::Bool(_) => b = true,
            PyValue::Int(i) => match int_dtype(i) {
                DType::Int64 => i64_ = true,
                DType::UInt64 => u64_ = true,
                _ => o = true,
            },
            PyValue::Float(_) => f = true,
            PyValue::Complex(..) => c = true,
            PyValue::Str(_) => s = true,
            PyValue::Bytes(_) => by = true,
            _ => o = true,
        }
    }
    if leaves.is_empty() {
        return DType::Float64;
    }
    if o {
        DType::Object
    } else if s {
        DType::Str
    } else if by {
        DType::Bytes
    } else if c {
        DType::Complex128
    } else if f || (i64_ && u64_) {
        DType::Float64
    } else if u64_ {
        DType::UInt64
    } else if i64_ {
        DType::Int64
    } else {
        let _ = b;
        DType::Bool
    }
}

/// Python's `float(x)` of a string (whitespace around, underscores between digits,
/// `inf`/`nan`); `None` where Python raises `ValueError`. Non-ASCII digits, which
/// Python also accepts, are rejected here.
pub fn parse_python_float(text: &str) -> Option<f64> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    let (sign, body) = match lower.strip_prefix('-') {
        Some(rest) => (-1.0, rest),
        None => (1.0, lower.strip_prefix('+').unwrap_or(&lower)),
    };
    match body {
        "inf" | "infinity" => return Some(sign * f64::INFINITY),
        "nan" => return Some(f64::NAN),
        _ => {}
    }
    let chars: Vec<char> = body.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' {
            let ok = i > 0
                && chars[i - 1].is_ascii_digit()
                && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit());
            if !ok {
                return None;
            }
        } else if !(c.is_ascii_digit() || matches!(c, '.' | 'e' | '+' | '-')) {
            return None;
        }
    }
    let clean: String = chars.iter().filter(|&&c| c != '_').collect();
    // Rust accepts exactly the decimal float grammar left at this point.
    if clean.is_empty() || clean.starts_with(['e', '+', '-']) {
        return None;
    }
    let v: f64 = clean.parse().ok()?;
    Some(sign * v)
}

/// `float(v)` for one leaf when numpy fills a float array: `Ok(None)` where numpy
/// raises `ValueError`/`TypeError` (which `Box.contains` treats as "not in the space"),
/// `Err` where it raises anything else.
pub fn leaf_to_f64(v: &PyValue) -> Result<Option<f64>, PyException> {
    Ok(match v {
        PyValue::Bool(b) => Some(f64::from(u8::from(*b))),
        PyValue::Int(i) => Some(i.to_f64().ok_or_else(|| PyException {
            class: "OverflowError",
            message: "int too large to convert to float".into(),
        })?),
        PyValue::Float(f) => Some(*f),
        PyValue::None => Some(f64::NAN),
        PyValue::Str(s) => parse_python_float(s),
        PyValue::Bytes(b) => std::str::from_utf8(b).ok().and_then(parse_python_float),
        _ => None,
    })
}

/// Python's `int(text)` in base 10: white space around (ASCII white space and non-ASCII
/// Unicode spaces, not U+001C..U+001F), a sign, single underscores between digits, at
/// most 4300 digits. `None` where Python raises `ValueError`; values beyond `i128`
/// saturate. `ascii_space` strips only ASCII white space, as `int()` does for bytes.
/// Non-ASCII digits, which Python also accepts in a str, are rejected here.
pub fn parse_python_int(text: &str, ascii_space: bool) -> Option<i128> {
    let t = if ascii_space {
        text.trim_matches(|c: char| matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r'))
    } else {
        text.trim()
    };
    let (negative, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let bytes = body.as_bytes();
    let mut value: i128 = 0;
    let mut digits = 0;
    for (i, &c) in bytes.iter().enumerate() {
        if c == b'_' {
            let between = i > 0
                && bytes[i - 1].is_ascii_digit()
                && bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
            if !between {
                return None;
            }
        } else if c.is_ascii_digit() {
            digits += 1;
            value = value
                .saturating_mul(10)
                .saturating_add(i128::from(c - b'0'));
        } else {
            return None;
        }
    }
    // CPython 3.11 refuses to convert more digits than sys.get_int_max_str_digits().
    if digits == 0 || digits > 4300 {
        return None;
    }
    Some(if negative { -value } else { value })
}

/// numpy's `OverflowError` for a Python int outside a C `long`.
fn c_long_overflow() -> PyException {
    PyException {
        class: "OverflowError",
        message: "Python int too large to convert to C long".into(),
    }
}

/// One leaf as numpy fills an integer array from it (`np.asarray(x, dtype=int32)`):
/// Python's `int(v)`, then a C `long` (the caller wraps it to the array's width, as
/// numpy 1.26 still does with a warning). `Ok(None)` where numpy raises
/// `ValueError`/`TypeError` (which `Box.contains` treats as "not in the space"), `Err`
/// where it raises `OverflowError`.
pub fn leaf_to_i64(v: &PyValue) -> Result<Option<i64>, PyException> {
    let wide = |w: i128| i64::try_from(w).map(Some).map_err(|_| c_long_overflow());
    match v {
        PyValue::Bool(b) => Ok(Some(i64::from(*b))),
        PyValue::Int(i) => i.as_i64().map(Some).ok_or_else(c_long_overflow),
        PyValue::Float(f) if f.is_nan() => Ok(None),
        PyValue::Float(f) if f.is_infinite() => Err(PyException {
            class: "OverflowError",
            message: "cannot convert float infinity to integer".into(),
        }),
        // `int()` truncates; 2**63 itself is already too large.
        PyValue::Float(f) => {
            let t = f.trunc();
            if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&t) {
                Ok(Some(t as i64))
            } else {
                Err(c_long_overflow())
            }
        }
        PyValue::Str(s) => parse_python_int(s, false).map_or(Ok(None), wide),
        PyValue::Bytes(b) if b.is_ascii() => std::str::from_utf8(b)
            .ok()
            .and_then(|s| parse_python_int(s, true))
            .map_or(Ok(None), wide),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visgym::python::literal_eval;

    fn info(s: &str) -> String {
        let v = literal_eval(s).unwrap_or(PyValue::None);
        match discover(&v) {
            Ok(d) => format!("{:?} {:?}", dtype_of(&d.leaves), d.shape),
            Err(e) => e.message,
        }
    }

    #[test]
    fn discovery_matches_numpy() {
        assert_eq!(info("(1, 2)"), "Int64 [2]");
        assert_eq!(info("(1.0, 2)"), "Float64 [2]");
        assert_eq!(info("(True, False)"), "Bool [2]");
        assert_eq!(info("(True, 2)"), "Int64 [2]");
        assert_eq!(info("('1', 2)"), "Str [2]");
        assert_eq!(info("(None, 2)"), "Object [2]");
        assert_eq!(info("((1,2),(3,4))"), "Int64 [2, 2]");
        assert_eq!(info("()"), "Float64 [0]");
        assert_eq!(info("(18446744073709551615, 1)"), "Float64 [2]");
        assert_eq!(info("(9223372036854775808,)"), "UInt64 [1]");
        assert_eq!(info("(-9223372036854775809, 1)"), "Object [2]");
        assert_eq!(info("[(), ()]"), "Float64 [2, 0]");
        let ragged = |dims: &str, shape: &str| {
            format!("setting an array element with a sequence. The requested array has an inhomogeneous shape after {dims} dimensions. The detected shape was {shape} + inhomogeneous part.")
        };
        assert_eq!(info("[[1], []]"), ragged("1", "(2,)"));
        assert_eq!(info("[[], [1]]"), ragged("1", "(2,)"));
        assert_eq!(info("[[[]], [1]]"), ragged("2", "(2, 1)"));
        assert_eq!(
            info("(1, (2, 3))"),
            "setting an array element with a sequence. The requested array has an inhomogeneous shape after 1 dimensions. The detected shape was (2,) + inhomogeneous part."
        );
    }

    #[test]
    fn floats_parse_like_python() {
        assert_eq!(parse_python_float(" 15 "), Some(15.0));
        assert_eq!(parse_python_float("1_0"), Some(10.0));
        assert_eq!(parse_python_float("-Infinity"), Some(f64::NEG_INFINITY));
        assert_eq!(parse_python_float("1."), Some(1.0));
        assert_eq!(parse_python_float(".5"), Some(0.5));
        assert_eq!(parse_python_float("1e"), None);
        assert_eq!(parse_python_float("0x10"), None);
        assert_eq!(parse_python_float(""), None);
        assert_eq!(parse_python_float("True"), None);
    }

    /// What `np.asarray(v, dtype=np.int32)` does with one value (numpy 1.26.4): the
    /// converted value, "none" for ValueError/TypeError, or the exception raised.
    #[test]
    fn ints_convert_like_numpy() {
        let conv = |s: &str| {
            let v = literal_eval(s).unwrap();
            match leaf_to_i64(&v) {
                Ok(Some(i)) => (i as i32).to_string(),
                Ok(None) => "none".to_string(),
                Err(e) => e.message,
            }
        };
        let too_large = "Python int too large to convert to C long";
        assert_eq!(conv("15.7"), "15");
        assert_eq!(conv("-360.99"), "-360");
        assert_eq!(conv("4294967301"), "5");
        assert_eq!(conv("4294967301.0"), "5");
        assert_eq!(conv("9223372036854775807"), "-1");
        assert_eq!(conv("9223372036854775808"), too_large);
        assert_eq!(conv("1e19"), too_large);
        assert_eq!(conv("1e400"), "cannot convert float infinity to integer");
        assert_eq!(conv("' 15 '"), "15");
        assert_eq!(conv("'\\x1c15'"), "none");
        assert_eq!(conv("'\\u00a0-15'"), "-15");
        assert_eq!(conv("'1_5'"), "15");
        assert_eq!(conv("'007'"), "7");
        assert_eq!(conv("'+12'"), "12");
        assert_eq!(conv("'9223372036854775808'"), too_large);
        assert_eq!(conv("b' 7'"), "7");
        assert_eq!(conv("b'\\xa015'"), "none");
        for bad in [
            "'15.5'", "'1__5'", "'_15'", "'15_'", "''", "'+'", "'0x10'", "None", "1j", "b'1e3'",
        ] {
            assert_eq!(conv(bad), "none", "{bad}");
        }
        assert_eq!(conv(&format!("'{}'", "1".repeat(4301))), "none");
        assert_eq!(conv(&format!("'{}'", "1".repeat(4300))), too_large);
    }
}
