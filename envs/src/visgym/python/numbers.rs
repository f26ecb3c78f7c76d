//! NUMBER tokens as Python values: ints of any size in any base, floats (correctly
//! rounded, overflow to `inf`), imaginary literals.
//!
//! CPython 3.11 converts an int between decimal text and binary only up to 4300
//! decimal digits (`sys.int_info.default_max_str_digits`): a longer decimal literal is a
//! `SyntaxError`, while a literal in base 2, 8 or 16 of any length is read (in linear
//! time) and only printing it fails. Both limits are kept here, so no reply costs more
//! than linear time to read.

use super::value::{PyInt, PyValue};

/// CPython's default limit on int/decimal-text conversions.
pub const MAX_STR_DIGITS: usize = 4300;

/// The value of a NUMBER token the tokenizer accepted, or the `SyntaxError` message of
/// a decimal int literal longer than [`MAX_STR_DIGITS`].
pub fn number_value(text: &str) -> Result<PyValue, String> {
    let clean: String = text.chars().filter(|&c| c != '_').collect();
    let lower = clean.to_ascii_lowercase();
    if let Some(imag) = lower.strip_suffix('j') {
        return Ok(PyValue::Complex(0.0, imag.parse().unwrap_or(f64::NAN)));
    }
    let bits_per_digit = match lower.get(..2) {
        Some("0x") => 4,
        Some("0o") => 3,
        Some("0b") => 1,
        _ => 0,
    };
    if bits_per_digit > 0 {
        return Ok(PyValue::Int(PyInt::from_power_of_two_radix(
            &lower[2..],
            bits_per_digit,
        )));
    }
    if lower.contains(['.', 'e']) {
        return Ok(PyValue::Float(lower.parse().unwrap_or(f64::NAN)));
    }
    let digits = lower.trim_start_matches('0').len();
    if digits > MAX_STR_DIGITS {
        return Err(format!(
            "Exceeds the limit ({MAX_STR_DIGITS} digits) for integer string conversion: value has {digits} digits; use sys.set_int_max_str_digits() to increase the limit - Consider hexadecimal for huge integer literals to avoid decimal conversion limits."
        ));
    }
    Ok(PyValue::Int(PyInt::from_decimal(false, &lower)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visgym::python::format::py_repr;

    #[test]
    fn literals_in_every_base() {
        let r = |s: &str| py_repr(&number_value(s).unwrap());
        assert_eq!(r("0x10"), "16");
        assert_eq!(r("0o17"), "15");
        assert_eq!(r("0b101"), "5");
        assert_eq!(r("1_000_000"), "1000000");
        assert_eq!(
            r("0xffffffffffffffffffffffffffffffffffff"),
            "22300745198530623141535718272648361505980415"
        );
        assert_eq!(r("1e309"), "inf");
        assert_eq!(r("1.5J"), "1.5j");
        assert_eq!(r("00"), "0");
        assert_eq!(r("09.5"), "9.5");
        assert_eq!(r(".5"), "0.5");
    }

    #[test]
    fn decimal_ints_stop_at_the_digit_limit_and_power_of_two_bases_do_not() {
        assert!(number_value(&"9".repeat(MAX_STR_DIGITS)).is_ok());
        assert!(number_value(&format!("000{}", "9".repeat(MAX_STR_DIGITS))).is_ok());
        let err = number_value(&"9".repeat(MAX_STR_DIGITS + 1)).unwrap_err();
        assert!(err.contains("value has 4301 digits"), "{err}");
        // A megabyte of hex digits reads, in linear time.
        let value = number_value(&format!("0x{}", "f".repeat(1 << 20))).unwrap();
        assert!(value.str_digits_error().is_some());
        let small = number_value(&format!("0b{}", "1".repeat(100))).unwrap();
        assert!(small.str_digits_error().is_none());
    }
}
