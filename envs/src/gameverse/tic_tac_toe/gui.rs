//! Tic-Tac-Toe's GUI action mode: a reply is one JSON click, read and mapped onto the
//! board the way the reference does (`docs/gameverse.md`, "Tic-Tac-Toe's GUI actions").
//! The point is kept as Python holds it (an int, a float or something else), because
//! what the reference makes of a click depends on it: a float that lands on the board
//! makes its step raise (it indexes the board with floats), which we score as the
//! loss a malformed action gets.

use crate::gameverse::gui_action::{click_json_text, normalized_to_pixels};
use crate::gameverse::py_json::{self, PyValue};

/// The window's side in pixels (the reference's fixed 500×500 board image).
const WINDOW: u32 = 500;
/// The board's top-left corner and a cell's side, in pixels.
const MARGIN: i128 = 50;
const CELL: i128 = 150;

/// One coordinate of a click as Python holds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Coordinate {
    /// An `int` (a `bool` counts as one).
    Int(i128),
    Float(f64),
    /// Anything arithmetic refuses: a string, `null`, a list, an object.
    NotANumber,
}

/// A click as the reference reads it; (−1, −1) when the reply gives none.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Click {
    pub x: Coordinate,
    pub y: Coordinate,
}

/// Where a click lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    /// On a cell (row-major index), occupied or not.
    Cell(usize),
    /// Off the board, a negative coordinate, or no click: the reference's immediate loss.
    OffBoard,
    /// The reference's step raises on it (a float on the board, a coordinate that is
    /// not a number): the run dies there; here it is an immediate loss too.
    Unplayable,
}

impl Click {
    /// What the reference makes of a reply it cannot read.
    pub const NONE: Click = Click {
        x: Coordinate::Int(-1),
        y: Coordinate::Int(-1),
    };

    /// The click of a reply: the JSON text found by [`click_json_text`] decoded; `x`
    /// and `y` from `parameters` when that key exists, else from the top level (−1 for
    /// a missing one). With `normalized`, each non-negative number is mapped from
    /// 0-1000 onto the 500-pixel window first. Anything that fails on the way (invalid
    /// JSON, an array, `parameters` that is not an object, a coordinate that cannot be
    /// compared or converted) gives [`Click::NONE`].
    pub fn read(text: &str, normalized: bool) -> Click {
        Self::try_read(text, normalized).unwrap_or(Self::NONE)
    }

    fn try_read(text: &str, normalized: bool) -> Option<Click> {
        let value = py_json::loads(&click_json_text(text)).ok()?;
        if !matches!(value, PyValue::Dict(_)) {
            return None;
        }
        let holder = match value.get("parameters") {
            Some(p @ PyValue::Dict(_)) => p,
            Some(_) => return None,
            None => &value,
        };
        let get = |key: &str| holder.get(key).cloned().unwrap_or(PyValue::Int(-1));
        let (mut x, mut y) = (get("x"), get("y"));
        if normalized {
            x = to_pixels(x)?;
            y = to_pixels(y)?;
        }
        Some(Click {
            x: coordinate(&x),
            y: coordinate(&y),
        })
    }

    /// Where the click lands: column ⌊(x − 50) / 150⌋, row ⌊(y − 50) / 150⌋ with
    /// Python's floor division; off the board when either is outside 0-2 or x or y is
    /// negative.
    pub fn landing(&self) -> Landing {
        let (Some(col), Some(row)) = (Axis::of(self.x), Axis::of(self.y)) else {
            return Landing::Unplayable;
        };
        let negative = |c: Coordinate| match c {
            Coordinate::Int(v) => v < 0,
            Coordinate::Float(v) => v < 0.0,
            Coordinate::NotANumber => false,
        };
        if !(row.on_board() && col.on_board()) || negative(self.x) || negative(self.y) {
            return Landing::OffBoard;
        }
        match (row, col) {
            (Axis::Int(r), Axis::Int(c)) => Landing::Cell((r * 3 + c) as usize),
            _ => Landing::Unplayable,
        }
    }
}

/// The reference's mapping of a normalized coordinate: `None` (no number, as Python
/// skips it) stays, a negative number stays, a non-negative one becomes
/// `int(v / 1000 × 500)` clamped to 0-499; a value Python cannot compare with 0 or
/// convert (a string, a list, an object, infinity) fails the whole reading.
fn to_pixels(v: PyValue) -> Option<PyValue> {
    let number = match v {
        PyValue::Null => return Some(PyValue::Null),
        PyValue::Bool(b) => f64::from(u8::from(b)),
        PyValue::Int(i) if i < 0 => return Some(v),
        PyValue::Int(i) => i as f64,
        // NaN compares false with 0, so it stays as it is.
        PyValue::Float(f) if f < 0.0 || f.is_nan() => return Some(v),
        PyValue::Float(f) if f.is_infinite() => return None,
        PyValue::Float(f) => f,
        PyValue::Str(_) | PyValue::List(_) | PyValue::Dict(_) => return None,
    };
    Some(PyValue::Int(i128::from(normalized_to_pixels(
        number, WINDOW,
    ))))
}

fn coordinate(v: &PyValue) -> Coordinate {
    match v {
        PyValue::Bool(b) => Coordinate::Int(i128::from(*b)),
        PyValue::Int(i) => Coordinate::Int(*i),
        PyValue::Float(f) => Coordinate::Float(*f),
        PyValue::Null | PyValue::Str(_) | PyValue::List(_) | PyValue::Dict(_) => {
            Coordinate::NotANumber
        }
    }
}

/// A row or column index as Python computes it from a coordinate.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Axis {
    Int(i128),
    Float(f64),
}

impl Axis {
    /// `(v - 50) // 150`; `None` where Python raises (the coordinate is not a number).
    fn of(c: Coordinate) -> Option<Axis> {
        match c {
            Coordinate::Int(v) => Some(Axis::Int(v.saturating_sub(MARGIN).div_euclid(CELL))),
            Coordinate::Float(v) => Some(Axis::Float(python_floor_div(
                v - MARGIN as f64,
                CELL as f64,
            ))),
            Coordinate::NotANumber => None,
        }
    }

    fn on_board(self) -> bool {
        match self {
            Axis::Int(v) => (0..3).contains(&v),
            Axis::Float(v) => (0.0..3.0).contains(&v),
        }
    }
}

/// Python's `float // float` (CPython's `float_floor_div`: from `fmod`, so a quotient
/// that rounds up to an integer is not floored past it; NaN for an infinite dividend).
fn python_floor_div(a: f64, b: f64) -> f64 {
    let m = libm::fmod(a, b);
    let mut div = (a - m) / b;
    if m != 0.0 && (b < 0.0) != (m < 0.0) {
        div -= 1.0;
    }
    if div != 0.0 {
        let floor = libm::floor(div);
        if div - floor > 0.5 {
            floor + 1.0
        } else {
            floor
        }
    } else {
        0.0f64.copysign(a / b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn land(text: &str) -> Landing {
        Click::read(text, false).landing()
    }

    #[test]
    fn clicks_land_as_the_reference_maps_them() {
        let at = |x: i64, y: i64| land(&format!("{{\"x\": {x}, \"y\": {y}}}"));
        assert_eq!(at(375, 250), Landing::Cell(5)); // B3, the prompt's "C2" example
        assert_eq!(at(50, 50), Landing::Cell(0));
        assert_eq!(at(199, 200), Landing::Cell(3));
        assert_eq!(at(499, 499), Landing::Cell(8));
        assert_eq!(at(49, 100), Landing::OffBoard);
        assert_eq!(at(500, 100), Landing::OffBoard);
        assert_eq!(land("no json"), Landing::OffBoard);
        // The bare point inside a list is found; a fenced list is decoded whole.
        assert_eq!(land("[{\"x\": 100, \"y\": 100}]"), Landing::Cell(0));
        assert_eq!(
            land("```json\n[{\"x\": 100, \"y\": 100}]\n```"),
            Landing::OffBoard
        );
        assert_eq!(
            land("{\"action_type\": \"WAIT\", \"parameters\": {\"x\": 100, \"y\": 400}}"),
            Landing::Cell(6)
        );
        assert_eq!(land("{\"x\": 100.0, \"y\": 100}"), Landing::Unplayable);
        assert_eq!(land("{\"x\": 10.5, \"y\": 100}"), Landing::OffBoard);
        assert_eq!(land("{\"x\": \"100\", \"y\": 100}"), Landing::Unplayable);
        assert_eq!(land("{\"x\": true, \"y\": 100}"), Landing::OffBoard);
    }

    #[test]
    fn normalized_points_map_onto_the_window() {
        let read = |x: &str| Click::read(&format!("{{\"x\": {x}, \"y\": 500}}"), true);
        assert_eq!(read("1000").x, Coordinate::Int(499));
        assert_eq!(read("751").x, Coordinate::Int(375));
        assert_eq!(read("99.9").x, Coordinate::Int(49));
        assert_eq!(read("-4").x, Coordinate::Int(-4));
        assert_eq!(read("Infinity"), Click::NONE);
        assert_eq!(read("\"7\""), Click::NONE);
        assert!(matches!(read("NaN").x, Coordinate::Float(f) if f.is_nan()));
        assert_eq!(read("null").x, Coordinate::NotANumber);
    }

    #[test]
    fn floor_division_is_pythons() {
        assert_eq!(python_floor_div(-50.0, 150.0), -1.0);
        assert_eq!(python_floor_div(149.99999999999997, 150.0), 0.0);
        assert!(python_floor_div(f64::INFINITY, 150.0).is_nan());
        assert_eq!(python_floor_div(-0.0, 150.0), -0.0);
    }
}
