//! Python's `str()` and `repr()` of literal values, byte for byte (CPython 3.11).
//!
//! VisGym's feedback strings embed `str(payload)` and `repr(action_string)`, so floats
//! must print in Python's shortest round-trip form (`1e+16`, `1e-05`, `0.1`), strings
//! with Python's quote choice and escapes, and containers with their brackets.

use super::literal::PyException;
use super::unicode_tables::NOT_PRINTABLE;
use super::value::PyValue;

/// `str(value)`.
pub fn py_str(value: &PyValue) -> String {
    match value {
        PyValue::Str(s) => s.clone(),
        other => py_repr(other),
    }
}

/// `str(value)` as CPython runs it: the `ValueError` of an int too long to print
/// ([`PyValue::str_digits_error`]) instead of the text.
pub fn py_str_checked(value: &PyValue) -> Result<String, PyException> {
    match value.str_digits_error() {
        Some(e) => Err(e),
        None => Ok(py_str(value)),
    }
}

/// `repr(value)`.
pub fn py_repr(value: &PyValue) -> String {
    let mut out = String::new();
    write_repr(&mut out, value);
    out
}

fn write_repr(out: &mut String, value: &PyValue) {
    match value {
        PyValue::None => out.push_str("None"),
        PyValue::Bool(true) => out.push_str("True"),
        PyValue::Bool(false) => out.push_str("False"),
        PyValue::Ellipsis => out.push_str("Ellipsis"),
        PyValue::Int(i) => out.push_str(&i.to_string()),
        PyValue::Float(f) => out.push_str(&float_repr(*f)),
        PyValue::Complex(re, im) => out.push_str(&complex_repr(*re, *im)),
        PyValue::Str(s) => out.push_str(&str_repr(s)),
        PyValue::Bytes(b) => out.push_str(&bytes_repr(b)),
        PyValue::Tuple(items) => {
            out.push('(');
            write_items(out, items);
            if items.len() == 1 {
                out.push(',');
            }
            out.push(')');
        }
        PyValue::List(items) => {
            out.push('[');
            write_items(out, items);
            out.push(']');
        }
        PyValue::Set(items) if items.is_empty() => out.push_str("set()"),
        PyValue::Set(items) => {
            out.push('{');
            write_items(out, items);
            out.push('}');
        }
        PyValue::Dict(entries) => {
            out.push('{');
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_repr(out, k);
                out.push_str(": ");
                write_repr(out, v);
            }
            out.push('}');
        }
    }
}

fn write_items(out: &mut String, items: &[PyValue]) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_repr(out, item);
    }
}

/// The shortest round-trip digits of a finite, non-zero `|v|` and the position of the
/// decimal point: `|v| = 0.d1d2… × 10^decpt`.
fn shortest_digits(v: f64) -> (String, i32) {
    // Rust's `{:e}` prints the shortest digits that round-trip, as Python's repr does.
    let s = format!("{:e}", v.abs());
    let (mantissa, exponent) = s.split_once('e').unwrap_or((s.as_str(), "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exponent: i32 = exponent.parse().unwrap_or(0);
    (digits, exponent + 1)
}

/// `PyOS_double_to_string(v, 'r', 0, flags)`: `add_dot_0` appends `.0` to integral
/// fixed-point output (float repr does, complex parts do not); `sign` forces a `+`.
fn format_r(v: f64, add_dot_0: bool, sign: bool) -> String {
    let mut out = String::new();
    if v.is_sign_negative() && !v.is_nan() {
        out.push('-');
    } else if sign {
        out.push('+');
    }
    if v.is_nan() {
        out.push_str("nan");
        return out;
    }
    if v.is_infinite() {
        out.push_str("inf");
        return out;
    }
    if v == 0.0 {
        out.push('0');
        if add_dot_0 {
            out.push_str(".0");
        }
        return out;
    }
    let (digits, decpt) = shortest_digits(v);
    let n = digits.len() as i32;
    if decpt <= -4 || decpt > 16 {
        let exp = decpt - 1;
        out.push_str(&digits[..1]);
        if n > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", exp.abs()));
    } else if decpt <= 0 {
        out.push_str("0.");
        out.push_str(&"0".repeat((-decpt) as usize));
        out.push_str(&digits);
    } else if decpt >= n {
        out.push_str(&digits);
        out.push_str(&"0".repeat((decpt - n) as usize));
        if add_dot_0 {
            out.push_str(".0");
        }
    } else {
        out.push_str(&digits[..decpt as usize]);
        out.push('.');
        out.push_str(&digits[decpt as usize..]);
    }
    out
}

/// `repr(float)`.
/// Python's `round(x, 1)` (correctly rounded, ties to even on the exact value).
pub fn py_round1(x: f64) -> f64 {
    format!("{x:.1}").parse().unwrap_or(x)
}

pub fn float_repr(v: f64) -> String {
    format_r(v, true, false)
}

/// `repr(complex)`.
pub fn complex_repr(re: f64, im: f64) -> String {
    if re == 0.0 && re.is_sign_positive() {
        format!("{}j", format_r(im, false, false))
    } else {
        format!(
            "({}{}j)",
            format_r(re, false, false),
            format_r(im, false, true)
        )
    }
}

/// `str.isprintable()` for one character.
pub fn is_printable(c: char) -> bool {
    let cp = c as u32;
    NOT_PRINTABLE
        .binary_search_by(|&(lo, hi)| {
            if hi < cp {
                std::cmp::Ordering::Less
            } else if lo > cp {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_err()
}

/// `repr(str)`.
pub fn str_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if c.is_ascii() || is_printable(c) => out.push(c),
            c => {
                let cp = c as u32;
                if cp <= 0xff {
                    out.push_str(&format!("\\x{cp:02x}"));
                } else if cp <= 0xffff {
                    out.push_str(&format!("\\u{cp:04x}"));
                } else {
                    out.push_str(&format!("\\U{cp:08x}"));
                }
            }
        }
    }
    out.push(quote);
    out
}

/// `repr(bytes)`.
pub fn bytes_repr(b: &[u8]) -> String {
    let quote = if b.contains(&b'\'') && !b.contains(&b'"') {
        b'"'
    } else {
        b'\''
    };
    let mut out = String::from("b");
    out.push(char::from(quote));
    for &c in b {
        match c {
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(char::from(c));
            }
            c if !(0x20..0x7f).contains(&c) => out.push_str(&format!("\\x{c:02x}")),
            c => out.push(char::from(c)),
        }
    }
    out.push(char::from(quote));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_like_python() {
        let cases = [
            (1.0, "1.0"),
            (0.1, "0.1"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (123456789012345680.0, "1.2345678901234568e+17"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (-0.0, "-0.0"),
            (1e300, "1e+300"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
            (2.5, "2.5"),
            (-12.3, "-12.3"),
        ];
        for (v, want) in cases {
            assert_eq!(float_repr(v), want, "{v:e}");
        }
    }

    #[test]
    fn complex_prints_like_python() {
        assert_eq!(complex_repr(0.0, 2.0), "2j");
        assert_eq!(complex_repr(1.0, 2.0), "(1+2j)");
        assert_eq!(complex_repr(-0.0, -1.5), "(-0-1.5j)");
        assert_eq!(complex_repr(1e20, 1.0), "(1e+20+1j)");
        assert_eq!(complex_repr(0.0, -0.0), "-0j");
    }

    #[test]
    fn strings_quote_like_python() {
        assert_eq!(str_repr("move"), "'move'");
        assert_eq!(str_repr("it's"), "\"it's\"");
        assert_eq!(str_repr("a'b\"c"), "'a\\'b\"c'");
        assert_eq!(str_repr("a\nb\t\\"), "'a\\nb\\t\\\\'");
        assert_eq!(
            str_repr("é→\u{a0}\u{200b}\u{1F600}"),
            "'é→\\xa0\\u200b\u{1F600}'"
        );
        assert_eq!(bytes_repr(b"a'\x00\xff"), "b\"a'\\x00\\xff\"");
    }

    #[test]
    fn containers_print_like_python() {
        let v = PyValue::Tuple(vec![
            PyValue::str("move"),
            PyValue::Tuple(vec![PyValue::int(1)]),
            PyValue::List(vec![PyValue::Float(1.0), PyValue::Bool(true)]),
            PyValue::Set(vec![]),
            PyValue::Dict(vec![(PyValue::str("a"), PyValue::None)]),
        ]);
        assert_eq!(
            py_str(&v),
            "('move', (1,), [1.0, True], set(), {'a': None})"
        );
        assert_eq!(py_str(&PyValue::str("stopp")), "stopp");
    }
}
