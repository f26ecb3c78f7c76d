//! The values a Python literal can denote, with Python's equality and hashing.
//!
//! VisGym evaluates every action with `ast.literal_eval` and then compares, hashes and
//! prints the result with Python semantics (`1 == 1.0 == True`, `{1, 1.0}` has one
//! element, `str((1, 'a'))` is `(1, 'a')`). These types carry exactly what is needed
//! to reproduce that.

use std::fmt;

use super::literal::PyException;
use super::numbers::MAX_STR_DIGITS;

/// A Python `int`. Values that fit an `i128` are stored directly; larger ones keep
/// their decimal magnitude (only printing, comparing and converting them matters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PyInt {
    Small(i128),
    /// A magnitude beyond `i128`, decimal digits without leading zeros (at most
    /// [`MAX_STR_DIGITS`] of them).
    Big {
        negative: bool,
        digits: String,
    },
    /// A magnitude of more than [`MAX_STR_DIGITS`] decimal digits, which only a literal
    /// in base 2, 8 or 16 can denote and which CPython refuses to print
    /// ([`PyValue::str_digits_error`]): little-endian 32-bit limbs, the last non-zero.
    Huge {
        negative: bool,
        limbs: Vec<u32>,
    },
}

impl PyInt {
    pub fn as_i128(&self) -> Option<i128> {
        match self {
            PyInt::Small(v) => Some(*v),
            PyInt::Big { .. } | PyInt::Huge { .. } => None,
        }
    }

    /// An `i64`, or `None` where numpy raises `OverflowError`.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_i128().and_then(|v| i64::try_from(v).ok())
    }

    pub fn is_negative(&self) -> bool {
        match self {
            PyInt::Small(v) => *v < 0,
            PyInt::Big { negative, .. } | PyInt::Huge { negative, .. } => *negative,
        }
    }

    /// `float(int)`: correctly rounded, `None` where Python raises `OverflowError`.
    pub fn to_f64(&self) -> Option<f64> {
        match self {
            // `as` rounds to nearest, ties to even, like `int.__float__`.
            PyInt::Small(v) => Some(*v as f64),
            PyInt::Big { negative, digits } => {
                let magnitude: f64 = digits.parse().ok()?;
                if magnitude.is_infinite() {
                    None
                } else if *negative {
                    Some(-magnitude)
                } else {
                    Some(magnitude)
                }
            }
            // Beyond 10**4300, far beyond `f64::MAX`.
            PyInt::Huge { .. } => None,
        }
    }

    /// An int from the digits of a literal in base 2, 8 or 16 (`bits_per_digit` 1, 3
    /// or 4; no prefix or underscores), in time linear in their number.
    pub fn from_power_of_two_radix(digits: &str, bits_per_digit: u32) -> PyInt {
        let mut limbs: Vec<u32> = Vec::new();
        let (mut acc, mut filled) = (0u64, 0u32);
        for d in digits
            .chars()
            .rev()
            .filter_map(|c| c.to_digit(1 << bits_per_digit))
        {
            acc |= u64::from(d) << filled;
            filled += bits_per_digit;
            if filled >= 32 {
                limbs.push(acc as u32);
                acc >>= 32;
                filled -= 32;
            }
        }
        limbs.push(acc as u32);
        while limbs.last() == Some(&0) {
            limbs.pop();
        }
        // 2**14300 has 4305 decimal digits; anything shorter is converted (quadratic
        // in at most 447 limbs) and kept as `Big` unless it still has too many digits.
        let bits = match limbs.last() {
            None => return PyInt::Small(0),
            Some(top) => limbs.len() * 32 - top.leading_zeros() as usize,
        };
        if bits <= 127 {
            let v = limbs
                .iter()
                .rev()
                .fold(0i128, |v, &limb| (v << 32) | i128::from(limb));
            return PyInt::Small(v);
        }
        if bits > 14_300 {
            return PyInt::Huge {
                negative: false,
                limbs,
            };
        }
        let decimal = limbs_to_decimal(&limbs);
        if decimal.len() > MAX_STR_DIGITS {
            return PyInt::Huge {
                negative: false,
                limbs,
            };
        }
        PyInt::from_decimal(false, &decimal)
    }

    /// Builds an int from a sign and decimal magnitude digits (no leading zeros).
    pub fn from_decimal(negative: bool, digits: &str) -> PyInt {
        let trimmed = digits.trim_start_matches('0');
        if trimmed.is_empty() {
            return PyInt::Small(0);
        }
        match trimmed.parse::<i128>() {
            Ok(v) => PyInt::Small(if negative { -v } else { v }),
            // i128::MIN's magnitude does not parse as a positive i128.
            Err(_) if negative && trimmed == "170141183460469231731687303715884105728" => {
                PyInt::Small(i128::MIN)
            }
            Err(_) => PyInt::Big {
                negative,
                digits: trimmed.to_string(),
            },
        }
    }

    pub fn neg(&self) -> PyInt {
        match self {
            PyInt::Small(v) => match v.checked_neg() {
                Some(n) => PyInt::Small(n),
                None => PyInt::Big {
                    negative: false,
                    digits: v.unsigned_abs().to_string(),
                },
            },
            PyInt::Big { negative, digits } => PyInt::from_decimal(!negative, digits),
            PyInt::Huge { negative, limbs } => PyInt::Huge {
                negative: !negative,
                limbs: limbs.clone(),
            },
        }
    }

    /// `hash(int)`: the value modulo 2**61 - 1 with the sign kept, -1 mapped to -2.
    pub fn py_hash(&self) -> i64 {
        const MODULUS: u128 = (1 << 61) - 1;
        let (negative, magnitude) = match self {
            PyInt::Small(v) => (*v < 0, v.unsigned_abs() % MODULUS),
            PyInt::Big { negative, digits } => {
                let mut m: u128 = 0;
                for d in digits.bytes() {
                    m = (m * 10 + u128::from(d - b'0')) % MODULUS;
                }
                (*negative, m)
            }
            PyInt::Huge { negative, limbs } => {
                let mut m: u128 = 0;
                for &limb in limbs.iter().rev() {
                    m = ((m << 32) | u128::from(limb)) % MODULUS;
                }
                (*negative, m)
            }
        };
        let h = if negative {
            -(magnitude as i64)
        } else {
            magnitude as i64
        };
        if h == -1 {
            -2
        } else {
            h
        }
    }
}

/// The decimal digits of a magnitude (no leading zeros; `"0"` for none).
fn limbs_to_decimal(limbs: &[u32]) -> String {
    let mut rest = limbs.to_vec();
    let mut chunks = Vec::new(); // base 1e9, least significant first
    while !rest.is_empty() {
        let mut remainder = 0u64;
        for limb in rest.iter_mut().rev() {
            let v = (remainder << 32) | u64::from(*limb);
            *limb = (v / 1_000_000_000) as u32;
            remainder = v % 1_000_000_000;
        }
        chunks.push(remainder);
        while rest.last() == Some(&0) {
            rest.pop();
        }
    }
    let mut text = chunks.last().map_or("0".to_string(), u64::to_string);
    for chunk in chunks.iter().rev().skip(1) {
        text.push_str(&format!("{chunk:09}"));
    }
    text
}

/// Python's decimal form. A `Huge` int, which Python would refuse to print, is written
/// as the hexadecimal literal that reads back to it: callers that reproduce the
/// reference's `str()` check [`PyValue::str_digits_error`] first.
impl fmt::Display for PyInt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PyInt::Small(v) => write!(f, "{v}"),
            PyInt::Big { negative, digits } => {
                write!(f, "{}{digits}", if *negative { "-" } else { "" })
            }
            PyInt::Huge { negative, limbs } => {
                write!(f, "{}0x", if *negative { "-" } else { "" })?;
                for (i, limb) in limbs.iter().rev().enumerate() {
                    if i == 0 {
                        write!(f, "{limb:x}")?;
                    } else {
                        write!(f, "{limb:08x}")?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// A value `ast.literal_eval` can return.
#[derive(Clone, Debug)]
pub enum PyValue {
    None,
    Bool(bool),
    Int(PyInt),
    Float(f64),
    Complex(f64, f64),
    Str(String),
    Bytes(Vec<u8>),
    Ellipsis,
    Tuple(Vec<PyValue>),
    List(Vec<PyValue>),
    /// Elements in CPython's iteration order (see `set_order`).
    Set(Vec<PyValue>),
    /// Entries in insertion order, keys unique under Python equality.
    Dict(Vec<(PyValue, PyValue)>),
}

/// A number as Python's numeric tower sees it, for cross-type comparisons.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Numeric<'a> {
    Int(&'a PyInt),
    Float(f64),
    Complex(f64, f64),
}

impl PyValue {
    pub fn int(v: i128) -> PyValue {
        PyValue::Int(PyInt::Small(v))
    }

    pub fn str(s: &str) -> PyValue {
        PyValue::Str(s.to_string())
    }

    /// The type name Python reports (`type(x).__name__`).
    pub fn type_name(&self) -> &'static str {
        match self {
            PyValue::None => "NoneType",
            PyValue::Bool(_) => "bool",
            PyValue::Int(_) => "int",
            PyValue::Float(_) => "float",
            PyValue::Complex(..) => "complex",
            PyValue::Str(_) => "str",
            PyValue::Bytes(_) => "bytes",
            PyValue::Ellipsis => "ellipsis",
            PyValue::Tuple(_) => "tuple",
            PyValue::List(_) => "list",
            PyValue::Set(_) => "set",
            PyValue::Dict(_) => "dict",
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            PyValue::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Python `isinstance(x, int)` (booleans are ints) as an int.
    pub fn as_int(&self) -> Option<PyInt> {
        match self {
            PyValue::Int(i) => Some(i.clone()),
            PyValue::Bool(b) => Some(PyInt::Small(i128::from(*b))),
            _ => None,
        }
    }

    fn numeric(&self) -> Option<Numeric<'_>> {
        static FALSE: PyInt = PyInt::Small(0);
        static TRUE: PyInt = PyInt::Small(1);
        match self {
            PyValue::Bool(false) => Some(Numeric::Int(&FALSE)),
            PyValue::Bool(true) => Some(Numeric::Int(&TRUE)),
            PyValue::Int(i) => Some(Numeric::Int(i)),
            PyValue::Float(f) => Some(Numeric::Float(*f)),
            PyValue::Complex(re, im) => Some(Numeric::Complex(*re, *im)),
            _ => None,
        }
    }

    /// Python `==`.
    pub fn py_eq(&self, other: &PyValue) -> bool {
        if let (Some(a), Some(b)) = (self.numeric(), other.numeric()) {
            return numeric_eq(a, b);
        }
        match (self, other) {
            (PyValue::None, PyValue::None) | (PyValue::Ellipsis, PyValue::Ellipsis) => true,
            (PyValue::Str(a), PyValue::Str(b)) => a == b,
            (PyValue::Bytes(a), PyValue::Bytes(b)) => a == b,
            (PyValue::Tuple(a), PyValue::Tuple(b)) | (PyValue::List(a), PyValue::List(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.py_eq(y))
            }
            (PyValue::Set(a), PyValue::Set(b)) => {
                a.len() == b.len() && a.iter().all(|x| b.iter().any(|y| x.py_eq(y)))
            }
            (PyValue::Dict(a), PyValue::Dict(b)) => {
                a.len() == b.len()
                    && a.iter().all(|(k, v)| {
                        b.iter()
                            .find(|(k2, _)| k.py_eq(k2))
                            .is_some_and(|(_, v2)| v.py_eq(v2))
                    })
            }
            _ => false,
        }
    }

    /// The `ValueError` CPython raises on `str()` of this value: an int inside it has
    /// more than [`MAX_STR_DIGITS`] decimal digits.
    pub fn str_digits_error(&self) -> Option<PyException> {
        match self {
            PyValue::Int(PyInt::Huge { .. }) => Some(PyException {
                class: "ValueError",
                message: format!("Exceeds the limit ({MAX_STR_DIGITS} digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit"),
            }),
            PyValue::Tuple(items) | PyValue::List(items) | PyValue::Set(items) => {
                items.iter().find_map(PyValue::str_digits_error)
            }
            PyValue::Dict(entries) => entries
                .iter()
                .find_map(|(k, v)| k.str_digits_error().or_else(|| v.str_digits_error())),
            _ => None,
        }
    }

    /// The first unhashable type inside this value (`TypeError: unhashable type`).
    pub fn unhashable_type(&self) -> Option<&'static str> {
        match self {
            PyValue::List(_) | PyValue::Set(_) | PyValue::Dict(_) => Some(self.type_name()),
            PyValue::Tuple(items) => items.iter().find_map(PyValue::unhashable_type),
            _ => None,
        }
    }

    /// `hash(x)` where it does not depend on the process (ints, floats, complex,
    /// booleans and tuples of them). Strings, bytes and `None` hash differently in every
    /// Python process, so no order derived from their hash can be reproduced.
    pub fn stable_hash(&self) -> Option<i64> {
        match self {
            PyValue::Bool(b) => Some(i64::from(*b)),
            PyValue::Int(i) => Some(i.py_hash()),
            PyValue::Float(f) => Some(float_hash(*f)),
            PyValue::Complex(re, im) => {
                let h = (float_hash(*re) as u64)
                    .wrapping_add((float_hash(*im) as u64).wrapping_mul(1_000_003));
                let h = h as i64;
                Some(if h == -1 { -2 } else { h })
            }
            PyValue::Tuple(items) => tuple_hash(items),
            _ => None,
        }
    }
}

fn numeric_eq(a: Numeric<'_>, b: Numeric<'_>) -> bool {
    match (a, b) {
        (Numeric::Int(x), Numeric::Int(y)) => x == y,
        (Numeric::Int(i), Numeric::Float(f)) | (Numeric::Float(f), Numeric::Int(i)) => {
            int_eq_float(i, f)
        }
        (Numeric::Float(x), Numeric::Float(y)) => x == y,
        (Numeric::Complex(re, im), other) | (other, Numeric::Complex(re, im)) => match other {
            Numeric::Complex(re2, im2) => re == re2 && im == im2,
            Numeric::Float(f) => im == 0.0 && re == f,
            Numeric::Int(i) => im == 0.0 && int_eq_float(i, re),
        },
    }
}

/// Exact comparison of an int with a float (Python never rounds here).
fn int_eq_float(i: &PyInt, f: f64) -> bool {
    if !f.is_finite() || f.fract() != 0.0 {
        return false;
    }
    match i {
        PyInt::Small(v) => {
            // Every integral f64 below 2**127 converts exactly.
            f.abs() < 1.7e38 && (f as i128) == *v
        }
        PyInt::Big { negative, digits } => {
            (f < 0.0) == *negative && format!("{:.0}", f.abs()) == *digits
        }
        PyInt::Huge { .. } => false,
    }
}

/// CPython's `_Py_HashDouble` (integral values hash like the equal int).
fn float_hash(v: f64) -> i64 {
    const BITS: i32 = 61;
    const MODULUS: u64 = (1 << BITS) - 1;
    if !v.is_finite() {
        return if v.is_infinite() {
            if v > 0.0 {
                314_159
            } else {
                -314_159
            }
        } else {
            // NaN hashes by identity in CPython; any value will do here.
            0
        };
    }
    let (mut m, mut e) = libm::frexp(v);
    let mut sign = 1i64;
    if m < 0.0 {
        sign = -1;
        m = -m;
    }
    let mut x: u64 = 0;
    while m != 0.0 {
        x = ((x << 28) & MODULUS) | (x >> (BITS - 28));
        m *= 268_435_456.0;
        e -= 28;
        let y = m as u64;
        m -= y as f64;
        x += y;
        if x >= MODULUS {
            x -= MODULUS;
        }
    }
    let e = if e >= 0 {
        e % BITS
    } else {
        BITS - 1 - ((-1 - e) % BITS)
    };
    x = ((x << e) & MODULUS) | (x >> (BITS - e));
    let h = (x as i64) * sign;
    if h == -1 {
        -2
    } else {
        h
    }
}

/// CPython 3.11's tuple hash (xxHash-based).
fn tuple_hash(items: &[PyValue]) -> Option<i64> {
    const P1: u64 = 11_400_714_785_074_694_791;
    const P2: u64 = 14_029_467_366_897_019_727;
    const P5: u64 = 2_870_177_450_012_600_261;
    let mut acc = P5;
    for item in items {
        let lane = item.stable_hash()? as u64;
        acc = acc.wrapping_add(lane.wrapping_mul(P2));
        acc = acc.rotate_left(31);
        acc = acc.wrapping_mul(P1);
    }
    acc = acc.wrapping_add((items.len() as u64) ^ (P5 ^ 3_527_539));
    if acc == u64::MAX {
        return Some(1_546_275_796);
    }
    Some(acc as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_equality_crosses_types() {
        assert!(PyValue::int(1).py_eq(&PyValue::Float(1.0)));
        assert!(PyValue::Bool(true).py_eq(&PyValue::int(1)));
        assert!(PyValue::Complex(1.0, 0.0).py_eq(&PyValue::int(1)));
        assert!(!PyValue::int(1).py_eq(&PyValue::str("1")));
        assert!(!PyValue::Float(f64::NAN).py_eq(&PyValue::Float(f64::NAN)));
    }

    #[test]
    fn hashes_match_cpython() {
        // Values printed by CPython 3.11 on 64-bit Linux.
        assert_eq!(PyValue::int(-1).stable_hash(), Some(-2));
        assert_eq!(
            PyValue::Float(1.5).stable_hash(),
            Some(1_152_921_504_606_846_977)
        );
        assert_eq!(
            PyValue::Float(0.1).stable_hash(),
            Some(230_584_300_921_369_408)
        );
        assert_eq!(
            PyValue::Tuple(vec![PyValue::int(1), PyValue::int(2)]).stable_hash(),
            Some(-3_550_055_125_485_641_917)
        );
        assert_eq!(
            PyValue::int(1 << 61).stable_hash(),
            PyValue::int(1).stable_hash()
        );
    }

    #[test]
    fn big_ints_round_trip() {
        let big = PyInt::from_decimal(false, "1000000000000000000000000000000000000000");
        assert!(matches!(big, PyInt::Big { .. }));
        assert_eq!(big.to_string(), "1000000000000000000000000000000000000000");
        assert_eq!(big.to_f64(), Some(1e39));
        assert_eq!(
            PyInt::from_decimal(true, &"9".repeat(400)).to_f64(),
            None,
            "too large for a float"
        );
    }
}
