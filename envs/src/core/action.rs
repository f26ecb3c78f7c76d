//! Actions: named discrete presets, continuous values, and parametric actions — a
//! function with typed arguments (a cell, a point on the frame, a permutation …) with one
//! text form that models write and the parser reads, and a structured form for the
//! driver and episode files. See `docs/architecture.md`, "Actions".

use serde::{Deserialize, Serialize};

/// What an environment accepts as an action.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ActionSpace {
    /// `Discrete(n)`: actions `0..n`.
    Discrete { n: usize },
    /// A one-dimensional `Box(low, high)`, e.g. Pendulum's torque.
    Continuous { low: f64, high: f64 },
    /// Functions with typed arguments, e.g. `place(cell)` or `swap(cell, cell)`.
    Parametric { functions: Vec<ActionFn> },
}

/// One function of a parametric action space.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ActionFn {
    pub name: String,
    pub args: Vec<ArgSpec>,
    /// What the function does, for people and models.
    pub doc: String,
}

/// One typed argument.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArgSpec {
    pub name: String,
    pub kind: ArgKind,
}

/// The type of an argument, with its bounds (inclusive).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ArgKind {
    Int {
        min: i64,
        max: i64,
    },
    Float {
        min: f64,
        max: f64,
    },
    /// A cell of a `rows` × `cols` grid, 0-based (row, column).
    Cell {
        rows: u32,
        cols: u32,
    },
    /// A point on the frame, in frame pixels.
    Point {
        width: u32,
        height: u32,
    },
    /// `len` numbers, each within `min..=max`.
    Floats {
        len: usize,
        min: f64,
        max: f64,
    },
    /// An ordering of `n` items numbered from `base` (0 or 1).
    Permutation {
        n: usize,
        base: u32,
    },
    /// A word of at most `max_len` characters.
    Word {
        max_len: usize,
    },
}

/// An argument's value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ArgValue {
    Int(i64),
    Float(f64),
    /// A cell (row, column), a point (x, y), a number list or a permutation.
    List(Vec<f64>),
    Word(String),
}

/// A call of a parametric action: `name(args…)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Call {
    pub name: String,
    pub args: Vec<ArgValue>,
}

/// One action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Action {
    /// An index into a discrete space.
    Index(usize),
    /// A value of a continuous space.
    Value(f64),
    /// A parametric action, structured.
    Call(Call),
    /// The action in the environment's text form, read by the environment itself (which
    /// may give malformed text a consequence of its own, as VisGym and GameVerse do).
    Text(String),
}

impl Action {
    pub fn call(name: &str, args: Vec<ArgValue>) -> Self {
        Self::Call(Call {
            name: name.to_string(),
            args,
        })
    }
}

/// Why a text or structured action was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionError(pub String);

impl std::fmt::Display for ActionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl ActionSpace {
    pub fn function(&self, name: &str) -> Option<&ActionFn> {
        match self {
            Self::Parametric { functions } => functions.iter().find(|f| f.name == name),
            _ => None,
        }
    }
}

impl ArgKind {
    /// Checks a value against the kind and its bounds.
    pub fn check(&self, value: &ArgValue) -> Result<(), String> {
        let within = |v: f64, lo: f64, hi: f64| (lo..=hi).contains(&v);
        let whole = |v: f64| v.fract() == 0.0;
        match (self, value) {
            (Self::Int { min, max }, ArgValue::Int(v)) if (min..=max).contains(&v) => Ok(()),
            (Self::Int { min, max }, _) => Err(format!("an integer from {min} to {max}")),
            (Self::Float { min, max }, ArgValue::Float(v)) if within(*v, *min, *max) => Ok(()),
            (Self::Float { min, max }, ArgValue::Int(v)) if within(*v as f64, *min, *max) => Ok(()),
            (Self::Float { min, max }, _) => Err(format!("a number from {min} to {max}")),
            (Self::Cell { rows, cols }, ArgValue::List(v))
                if v.len() == 2
                    && v.iter().all(|&x| whole(x))
                    && within(v[0], 0.0, f64::from(*rows) - 1.0)
                    && within(v[1], 0.0, f64::from(*cols) - 1.0) =>
            {
                Ok(())
            }
            (Self::Cell { rows, cols }, _) => Err(format!(
                "a cell (row, column) with row 0-{} and column 0-{}",
                rows - 1,
                cols - 1
            )),
            (Self::Point { width, height }, ArgValue::List(v))
                if v.len() == 2
                    && within(v[0], 0.0, f64::from(*width))
                    && within(v[1], 0.0, f64::from(*height)) =>
            {
                Ok(())
            }
            (Self::Point { width, height }, _) => {
                Err(format!("a point (x, y) within {width}×{height}"))
            }
            (Self::Floats { len, min, max }, ArgValue::List(v))
                if v.len() == *len && v.iter().all(|&x| within(x, *min, *max)) =>
            {
                Ok(())
            }
            (Self::Floats { len, min, max }, _) => {
                Err(format!("{len} numbers, each from {min} to {max}"))
            }
            (Self::Permutation { n, base }, ArgValue::List(v)) if is_permutation(v, *n, *base) => {
                Ok(())
            }
            (Self::Permutation { n, base }, _) => Err(format!(
                "an ordering of the numbers {base} to {}, each once",
                *n as u64 + u64::from(*base) - 1
            )),
            (Self::Word { max_len }, ArgValue::Word(w)) if w.chars().count() <= *max_len => Ok(()),
            (Self::Word { max_len }, _) => Err(format!("a word of at most {max_len} characters")),
        }
    }
}

fn is_permutation(v: &[f64], n: usize, base: u32) -> bool {
    let mut seen = vec![false; n];
    v.len() == n
        && v.iter().all(|&x| {
            let i = x - f64::from(base);
            if x.fract() != 0.0 || i < 0.0 || i >= n as f64 {
                return false;
            }
            !std::mem::replace(&mut seen[i as usize], true)
        })
}

impl ActionFn {
    /// Checks a call's arguments against this function.
    pub fn check(&self, call: &Call) -> Result<(), ActionError> {
        if call.args.len() != self.args.len() {
            return Err(ActionError(format!(
                "{} takes {} argument(s), got {}",
                self.name,
                self.args.len(),
                call.args.len()
            )));
        }
        for (spec, value) in self.args.iter().zip(&call.args) {
            spec.kind.check(value).map_err(|want| {
                ActionError(format!("{}: `{}` must be {want}", self.name, spec.name))
            })?;
        }
        Ok(())
    }
}

fn number_text(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

/// The generic text form of a call: `name(arg, …)` with cells and points as `(a, b)`,
/// lists as `[a, b, …]` and words quoted, e.g. `swap((0, 1), (2, 2))`.
pub fn call_text(space: &ActionSpace, call: &Call) -> String {
    let kinds = space.function(&call.name).map(|f| &f.args);
    let args: Vec<String> = call
        .args
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let kind = kinds.and_then(|k| k.get(i)).map(|s| &s.kind);
            match a {
                ArgValue::Int(v) => v.to_string(),
                ArgValue::Float(v) => number_text(*v),
                ArgValue::Word(w) => format!("'{w}'"),
                ArgValue::List(v) => {
                    let inner = v.iter().map(|&x| number_text(x)).collect::<Vec<_>>();
                    match kind {
                        Some(ArgKind::Cell { .. } | ArgKind::Point { .. }) => {
                            format!("({})", inner.join(", "))
                        }
                        _ => format!("[{}]", inner.join(", ")),
                    }
                }
            }
        })
        .collect();
    format!("{}({})", call.name, args.join(", "))
}

/// Reads the generic text form back (see [`call_text`]), checking it against `space`.
pub fn parse_call(space: &ActionSpace, text: &str) -> Result<Call, ActionError> {
    let bad = |why: &str| ActionError(format!("cannot read {text:?} as an action: {why}"));
    let text = text.trim();
    let open = text
        .find('(')
        .ok_or_else(|| bad("expected name(arguments)"))?;
    let name = text[..open].trim();
    let inner = text[open + 1..]
        .strip_suffix(')')
        .ok_or_else(|| bad("missing the closing parenthesis"))?;
    let function = space.function(name).ok_or_else(|| {
        let names = match space {
            ActionSpace::Parametric { functions } => functions
                .iter()
                .map(|f| f.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            _ => String::new(),
        };
        bad(&format!("unknown action {name:?} (actions: {names})"))
    })?;
    let mut args = Vec::new();
    for (i, piece) in split_top_level(inner).into_iter().enumerate() {
        let kind = function.args.get(i).map(|a| &a.kind);
        args.push(parse_arg(piece.trim(), kind).map_err(|why| bad(&why))?);
    }
    let call = Call {
        name: name.to_string(),
        args,
    };
    function.check(&call)?;
    Ok(call)
}

/// Splits on commas that are not inside brackets or quotes.
fn split_top_level(text: &str) -> Vec<&str> {
    let (mut depth, mut quote, mut start) = (0i32, None, 0);
    let mut out = Vec::new();
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | '[') => depth += 1,
            (None, ')' | ']') => depth -= 1,
            (None, ',') if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !text[start..].trim().is_empty() || !out.is_empty() {
        out.push(&text[start..]);
    }
    out
}

fn parse_number(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("{:?} is not a number", text.trim()))
}

fn parse_arg(text: &str, kind: Option<&ArgKind>) -> Result<ArgValue, String> {
    let list = |body: &str| -> Result<ArgValue, String> {
        split_top_level(body)
            .into_iter()
            .map(parse_number)
            .collect::<Result<Vec<_>, _>>()
            .map(ArgValue::List)
    };
    if let Some(body) = text
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .or_else(|| text.strip_prefix('[').and_then(|t| t.strip_suffix(']')))
    {
        return list(body);
    }
    for q in ['\'', '"'] {
        if let Some(w) = text.strip_prefix(q).and_then(|t| t.strip_suffix(q)) {
            return Ok(ArgValue::Word(w.to_string()));
        }
    }
    match kind {
        Some(ArgKind::Word { .. }) => Ok(ArgValue::Word(text.to_string())),
        Some(ArgKind::Float { .. }) => parse_number(text).map(ArgValue::Float),
        _ => match text.parse::<i64>() {
            Ok(v) => Ok(ArgValue::Int(v)),
            Err(_) => parse_number(text).map(ArgValue::Float),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn space() -> ActionSpace {
        let arg = |name: &str, kind| ArgSpec {
            name: name.into(),
            kind,
        };
        ActionSpace::Parametric {
            functions: vec![
                ActionFn {
                    name: "swap".into(),
                    args: vec![
                        arg("a", ArgKind::Cell { rows: 3, cols: 3 }),
                        arg("b", ArgKind::Cell { rows: 3, cols: 3 }),
                    ],
                    doc: String::new(),
                },
                ActionFn {
                    name: "reorder".into(),
                    args: vec![arg("order", ArgKind::Permutation { n: 4, base: 1 })],
                    doc: String::new(),
                },
                ActionFn {
                    name: "rotate".into(),
                    args: vec![arg(
                        "angles",
                        ArgKind::Floats {
                            len: 3,
                            min: -180.0,
                            max: 180.0,
                        },
                    )],
                    doc: String::new(),
                },
                ActionFn {
                    name: "stop".into(),
                    args: vec![arg("word", ArgKind::Word { max_len: 4 })],
                    doc: String::new(),
                },
                ActionFn {
                    name: "move".into(),
                    args: vec![arg("d", ArgKind::Int { min: 0, max: 3 })],
                    doc: String::new(),
                },
            ],
        }
    }

    #[test]
    fn every_kind_round_trips_through_its_text() {
        let s = space();
        let calls = [
            Call {
                name: "swap".into(),
                args: vec![
                    ArgValue::List(vec![0.0, 1.0]),
                    ArgValue::List(vec![2.0, 2.0]),
                ],
            },
            Call {
                name: "reorder".into(),
                args: vec![ArgValue::List(vec![2.0, 1.0, 4.0, 3.0])],
            },
            Call {
                name: "rotate".into(),
                args: vec![ArgValue::List(vec![90.0, -12.5, 0.0])],
            },
            Call {
                name: "stop".into(),
                args: vec![ArgValue::Word("stop".into())],
            },
            Call {
                name: "move".into(),
                args: vec![ArgValue::Int(3)],
            },
        ];
        for call in calls {
            let text = call_text(&s, &call);
            assert_eq!(parse_call(&s, &text), Ok(call.clone()), "{text}");
        }
        assert_eq!(
            call_text(
                &s,
                &Call {
                    name: "swap".into(),
                    args: vec![
                        ArgValue::List(vec![0.0, 1.0]),
                        ArgValue::List(vec![2.0, 2.0])
                    ],
                }
            ),
            "swap((0, 1), (2, 2))"
        );
    }

    #[test]
    fn bad_calls_are_refused_with_the_reason() {
        let s = space();
        for (text, why) in [
            ("swap((0, 1), (3, 0))", "row 0-2"),
            ("reorder([1, 1, 2, 3])", "each once"),
            ("move(4)", "from 0 to 3"),
            ("fly(1)", "unknown action"),
            ("move 1", "name(arguments)"),
            ("stop('halts')", "at most 4"),
            ("rotate([1, 2])", "3 numbers"),
        ] {
            let err = parse_call(&s, text).unwrap_err();
            assert!(err.0.contains(why), "{text}: {err}");
        }
    }
}
