//! VisGym's argument spaces (Gymnasium's `Discrete`, `MultiDiscrete`, `Box`, `Text`)
//! and their `contains`, with the numpy semantics that leak into validation:
//! `('move', (1.0, 2))` is in `MultiDiscrete([11, 4])`, `['15', 0, 0]` is in a float
//! `Box`, and some payloads make the reference raise instead of answering.

use super::numpy_array::{discover, dtype_of, leaf_to_f64, leaf_to_i64, DType};
use super::python::{PyException, PyValue};

/// An argument space of one action function.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgSpace {
    /// Integers in `start..start + n` (booleans count).
    Discrete { n: i64, start: i64 },
    /// A sequence of numbers with `0 <= x[i] < nvec[i]`.
    MultiDiscrete { nvec: Vec<i64> },
    /// A nested sequence of `shape` with `start <= x[i] < start + nvec[i]` (`nvec`
    /// flattened in C order): Jigsaw's `((row, col), (row, col))`, Zoom-In's 1-based pair.
    MultiDiscreteNd {
        nvec: Vec<i64>,
        shape: Vec<usize>,
        start: i64,
    },
    /// VisGym's `Permutation(n, start)`: a **list** holding `start..start + n` once each;
    /// any other payload type makes the reference raise (it reads `x.shape`).
    Permutation { n: usize, start: i64 },
    /// A float32 array of `shape` within `[low, high]` elementwise.
    Box {
        low: f32,
        high: f32,
        shape: Vec<usize>,
    },
    /// An int32 array of `shape` within `[low, high]` elementwise: each value as
    /// Python's `int()` makes it, wrapped to 32 bits (`4294967301` is 5).
    IntBox {
        low: i64,
        high: i64,
        shape: Vec<usize>,
    },
    /// A string of `min..=max` ASCII letters and digits.
    Text { min: usize, max: usize },
}

impl ArgSpace {
    pub fn discrete(n: i64) -> Self {
        ArgSpace::Discrete { n, start: 0 }
    }

    /// `Text(4)`, the `stop` (and `undo`) argument everywhere.
    pub fn text4() -> Self {
        ArgSpace::Text { min: 1, max: 4 }
    }

    /// `space.contains(payload)`; `Err` is the exception the reference raises instead.
    pub fn contains(&self, x: &PyValue) -> Result<bool, PyException> {
        match self {
            ArgSpace::Discrete { n, start } => {
                let Some(i) = x.as_int() else {
                    return Ok(false);
                };
                let v = i.as_i64().ok_or_else(|| PyException {
                    class: "OverflowError",
                    message: "Python int too large to convert to C long".into(),
                })?;
                Ok(*start <= v && v < start + n)
            }
            ArgSpace::Text { min, max } => Ok(match x {
                PyValue::Str(s) => {
                    let len = s.chars().count();
                    *min <= len && len <= *max && s.chars().all(|c| c.is_ascii_alphanumeric())
                }
                _ => false,
            }),
            ArgSpace::MultiDiscrete { nvec } => multi_discrete_contains(nvec, &[nvec.len()], 0, x),
            ArgSpace::MultiDiscreteNd { nvec, shape, start } => {
                multi_discrete_contains(nvec, shape, *start, x)
            }
            ArgSpace::Permutation { n, start } => permutation_contains(*n, *start, x),
            ArgSpace::Box { low, high, shape } => box_contains(*low, *high, shape, x),
            ArgSpace::IntBox { low, high, shape } => int_box_contains(*low, *high, shape, x),
        }
    }
}

fn multi_discrete_contains(
    nvec: &[i64],
    shape: &[usize],
    start: i64,
    x: &PyValue,
) -> Result<bool, PyException> {
    // Only `collections.abc.Sequence` values are turned into arrays; str and bytes
    // become 0-d arrays, whose shape never matches.
    if !matches!(x, PyValue::Tuple(_) | PyValue::List(_)) {
        return Ok(false);
    }
    let d = discover(x)?;
    if d.shape != shape {
        return Ok(false);
    }
    let dtype = dtype_of(&d.leaves);
    match dtype {
        DType::Object => return Ok(false),
        DType::Str | DType::Bytes => {
            let name = if dtype == DType::Str {
                "StrDType"
            } else {
                "BytesDType"
            };
            return Err(PyException {
                class: "UFuncTypeError",
                message: format!(
                    "ufunc 'less_equal' did not contain a loop with signature matching types (<class 'numpy.dtypes.Int64DType'>, <class 'numpy.dtypes.{name}'>) -> None"
                ),
            });
        }
        _ => {}
    }
    // `all(start <= x)` then `all(x - start < nvec)`; complex values compare
    // lexicographically (real part, then imaginary part), as numpy 1.26 does.
    let value = |v: &PyValue| -> (f64, f64) {
        match v {
            PyValue::Bool(b) => (f64::from(u8::from(*b)), 0.0),
            PyValue::Int(i) => (i.to_f64().unwrap_or(f64::NAN), 0.0),
            PyValue::Float(f) => (*f, 0.0),
            PyValue::Complex(re, im) => (*re, *im),
            _ => (f64::NAN, 0.0),
        }
    };
    let start = start as f64;
    let geq_start = d.leaves.iter().all(|v| {
        let (re, im) = value(v);
        re > start || (re == start && im >= 0.0)
    });
    let below = d.leaves.iter().zip(nvec).all(|(v, &n)| {
        let (re, im) = value(v);
        let (re, n) = (re - start, n as f64);
        re < n || (re == n && im < 0.0)
    });
    Ok(geq_start && below)
}

fn permutation_contains(n: usize, start: i64, x: &PyValue) -> Result<bool, PyException> {
    let PyValue::List(items) = x else {
        return Err(PyException {
            class: "AttributeError",
            message: format!("'{}' object has no attribute 'shape'", x.type_name()),
        });
    };
    let d = discover(x)?;
    if d.shape != [n] || !matches!(dtype_of(&d.leaves), DType::Int64 | DType::UInt64) {
        return Ok(false);
    }
    let mut values: Vec<i128> = items
        .iter()
        .map(|v| match v {
            PyValue::Int(i) => i.as_i128().unwrap_or(i128::MAX),
            PyValue::Bool(b) => i128::from(*b),
            _ => i128::MAX,
        })
        .collect();
    values.sort_unstable();
    Ok(values
        .iter()
        .enumerate()
        .all(|(k, &v)| v == i128::from(start) + k as i128))
}

fn box_contains(low: f32, high: f32, shape: &[usize], x: &PyValue) -> Result<bool, PyException> {
    let Ok(d) = discover(x) else {
        return Ok(false);
    };
    let mut values = Vec::with_capacity(d.leaves.len());
    for leaf in &d.leaves {
        match leaf_to_f64(leaf)? {
            Some(v) => values.push(v as f32),
            None => return Ok(false),
        }
    }
    if d.shape != shape {
        return Ok(false);
    }
    Ok(values.iter().all(|&v| v >= low && v <= high))
}

fn int_box_contains(
    low: i64,
    high: i64,
    shape: &[usize],
    x: &PyValue,
) -> Result<bool, PyException> {
    let Ok(d) = discover(x) else {
        return Ok(false);
    };
    let mut values = Vec::with_capacity(d.leaves.len());
    for leaf in &d.leaves {
        match leaf_to_i64(leaf)? {
            Some(v) => values.push(i64::from(v as i32)),
            None => return Ok(false),
        }
    }
    if d.shape != shape {
        return Ok(false);
    }
    Ok(values.iter().all(|&v| low <= v && v <= high))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visgym::python::literal_eval;

    fn contains(space: &ArgSpace, s: &str) -> String {
        let v = literal_eval(s).unwrap_or(PyValue::None);
        match space.contains(&v) {
            Ok(b) => b.to_string(),
            Err(e) => e.class.to_string(),
        }
    }

    #[test]
    fn numpy_semantics() {
        let md = ArgSpace::MultiDiscrete { nvec: vec![11, 4] };
        assert_eq!(contains(&md, "(1.0, 2)"), "true");
        assert_eq!(contains(&md, "(1.5, 2)"), "true");
        assert_eq!(contains(&md, "(True, False)"), "true");
        assert_eq!(contains(&md, "(11, 0)"), "false");
        assert_eq!(contains(&md, "(None, 2)"), "false");
        assert_eq!(contains(&md, "(1+2j, 2)"), "true");
        assert_eq!(contains(&md, "(-1j, 2)"), "false");
        assert_eq!(contains(&md, "('1', 2)"), "UFuncTypeError");
        assert_eq!(contains(&md, "(1, (2, 3))"), "ValueError");
        assert_eq!(contains(&md, "'ab'"), "false");
        let d = ArgSpace::discrete(4);
        assert_eq!(contains(&d, "True"), "true");
        assert_eq!(contains(&d, "1.0"), "false");
        assert_eq!(contains(&d, "9223372036854775808"), "OverflowError");
        let b = ArgSpace::Box {
            low: f32::NEG_INFINITY,
            high: f32::INFINITY,
            shape: vec![3],
        };
        assert_eq!(contains(&b, "['15', 0, 0]"), "true");
        assert_eq!(contains(&b, "[None, 0, 0]"), "false");
        assert_eq!(contains(&b, "[1e39, 0, 0]"), "true");
        assert_eq!(contains(&b, "[1j, 0, 0]"), "false");
        assert_eq!(
            contains(&b, &format!("[1{}, 0, 0]", "0".repeat(400))),
            "OverflowError"
        );
        let ib = ArgSpace::IntBox {
            low: -360,
            high: 360,
            shape: vec![],
        };
        assert_eq!(contains(&ib, "360.9"), "true");
        assert_eq!(contains(&ib, "361"), "false");
        assert_eq!(contains(&ib, "'15'"), "true");
        assert_eq!(contains(&ib, "'15.5'"), "false");
        assert_eq!(contains(&ib, "4294967301"), "true");
        assert_eq!(contains(&ib, "2147483648"), "false");
        assert_eq!(contains(&ib, "1e10"), "false");
        assert_eq!(contains(&ib, "1e400"), "OverflowError");
        assert_eq!(contains(&ib, "[15]"), "false");
        assert_eq!(contains(&ib, "[1e400]"), "OverflowError");
        assert_eq!(contains(&ib, "['abc', 1e400]"), "false");
        assert_eq!(contains(&ib, "None"), "false");
        let t = ArgSpace::text4();
        assert_eq!(contains(&t, "'stop'"), "true");
        assert_eq!(contains(&t, "'halt!'"), "false");
        assert_eq!(contains(&t, "''"), "false");
    }
}
