//! NUMBER tokens as Python values: ints of any size in any base, floats (correctly
//! rounded, overflow to `inf`), imaginary literals.

use super::value::{PyInt, PyValue};

/// The value of a NUMBER token the tokenizer accepted.
pub fn number_value(text: &str) -> PyValue {
    let clean: String = text.chars().filter(|&c| c != '_').collect();
    let lower = clean.to_ascii_lowercase();
    if let Some(imag) = lower.strip_suffix('j') {
        return PyValue::Complex(0.0, imag.parse().unwrap_or(f64::NAN));
    }
    let radix = match lower.get(..2) {
        Some("0x") => 16,
        Some("0o") => 8,
        Some("0b") => 2,
        _ => 10,
    };
    if radix != 10 {
        return PyValue::Int(int_in_radix(&lower[2..], radix));
    }
    if lower.contains(['.', 'e']) {
        return PyValue::Float(lower.parse().unwrap_or(f64::NAN));
    }
    PyValue::Int(PyInt::from_decimal(false, &lower))
}

/// Converts digits in `radix` to an int, through base-10^9 limbs when it is large.
fn int_in_radix(digits: &str, radix: u32) -> PyInt {
    let mut limbs: Vec<u64> = vec![0]; // little-endian, base 1e9
    for d in digits.chars().filter_map(|c| c.to_digit(radix)) {
        let mut carry = u64::from(d);
        for limb in limbs.iter_mut() {
            let v = *limb * u64::from(radix) + carry;
            *limb = v % 1_000_000_000;
            carry = v / 1_000_000_000;
        }
        while carry > 0 {
            limbs.push(carry % 1_000_000_000);
            carry /= 1_000_000_000;
        }
    }
    let mut text = String::new();
    for (i, limb) in limbs.iter().rev().enumerate() {
        if i == 0 {
            text.push_str(&limb.to_string());
        } else {
            text.push_str(&format!("{limb:09}"));
        }
    }
    PyInt::from_decimal(false, &text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visgym::python::format::py_repr;

    #[test]
    fn literals_in_every_base() {
        let r = |s: &str| py_repr(&number_value(s));
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
}
