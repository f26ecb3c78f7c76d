//! The action functions of a VisGym environment as the environment interface lists
//! them (typed arguments, `envs::core::action`), and the two-way conversion between a
//! structured call and the reference's action string: `move(1, 2)` with a block and a
//! direction is the string `('move', (1, 2))`.
//!
//! A call's text is always the canonical string (Python's `repr` of the `(name,
//! payload)` tuple); a string is read back as a call only when it is exactly that
//! canonical text of a call within the argument bounds. Any other string stays text and
//! goes to the environment as the model wrote it, so stepping a string and stepping what
//! it was read as always do the same thing.

use super::action::VisAction;
use super::python::{PyInt, PyValue};
use crate::core::action::{ActionFn, ArgKind, ArgSpec, ArgValue, Call};

/// How a call's arguments make the reference's payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payload {
    /// The single argument is the payload: an integer, a word, or a number list.
    Value,
    /// The arguments, a cell counting as two integers, as a tuple: `(block, dir)`.
    Tuple,
    /// The same as a list: `[src, seg, dst, seg]`.
    List,
    /// A tuple of cells, each cell a tuple: `((row1, col1), (row2, col2))`.
    CellPairs,
}

/// One action function: its interface description and its payload form.
#[derive(Clone, Debug, PartialEq)]
pub struct FnSig {
    pub function: ActionFn,
    pub payload: Payload,
}

impl FnSig {
    pub fn new(name: &str, doc: &str, payload: Payload, args: &[(&str, ArgKind)]) -> Self {
        FnSig {
            function: ActionFn {
                name: name.to_string(),
                args: args
                    .iter()
                    .map(|(n, kind)| ArgSpec {
                        name: (*n).to_string(),
                        kind: kind.clone(),
                    })
                    .collect(),
                doc: doc.to_string(),
            },
            payload,
        }
    }

    /// `stop(word)`: a word of one to four letters or digits ends the episode.
    pub fn stop() -> Self {
        FnSig::new(
            "stop",
            "End the episode and submit the current state (the word is usually 'stop')",
            Payload::Value,
            &[("word", ArgKind::Word { max_len: 4 })],
        )
    }

    /// An integer argument within `min..=max`.
    pub fn int(min: i64, max: i64) -> ArgKind {
        ArgKind::Int { min, max }
    }
}

fn int(v: i64) -> PyValue {
    PyValue::Int(PyInt::Small(i128::from(v)))
}

/// An integral `f64` as an integer (cells and permutations carry numbers).
fn whole(v: f64) -> Option<i64> {
    (v.fract() == 0.0 && v.abs() < 1e15).then_some(v as i64)
}

/// The reference's action for a call; `None` if the call does not fit the signature.
pub fn call_to_action(sigs: &[FnSig], call: &Call) -> Option<VisAction> {
    let sig = sigs.iter().find(|s| s.function.name == call.name)?;
    sig.function.check(call).ok()?;
    let mut items = Vec::new();
    for (spec, value) in sig.function.args.iter().zip(&call.args) {
        match (&spec.kind, value) {
            (ArgKind::Int { .. }, ArgValue::Int(v)) => items.push(int(*v)),
            (ArgKind::Word { .. }, ArgValue::Word(w)) => items.push(PyValue::Str(w.clone())),
            (ArgKind::Float { .. }, ArgValue::Float(v)) => items.push(PyValue::Float(*v)),
            (ArgKind::Float { .. }, ArgValue::Int(v)) => items.push(PyValue::Float(*v as f64)),
            (ArgKind::Cell { .. }, ArgValue::List(v)) => {
                for &x in v {
                    items.push(int(whole(x)?));
                }
            }
            (ArgKind::Floats { .. }, ArgValue::List(v)) => items.push(PyValue::List(
                v.iter().map(|&x| PyValue::Float(x)).collect(),
            )),
            (ArgKind::Permutation { .. }, ArgValue::List(v)) => items.push(PyValue::List(
                v.iter()
                    .map(|&x| whole(x).map(int))
                    .collect::<Option<Vec<PyValue>>>()?,
            )),
            _ => return None,
        }
    }
    let payload = match sig.payload {
        Payload::Value if items.len() == 1 => items.pop()?,
        Payload::Value => return None,
        Payload::Tuple => PyValue::Tuple(items),
        Payload::List => PyValue::List(items),
        Payload::CellPairs => PyValue::Tuple(
            items
                .chunks(2)
                .map(|c| PyValue::Tuple(c.to_vec()))
                .collect(),
        ),
    };
    Some(VisAction::new(&call.name, payload))
}

/// The call an action is, if its payload has exactly a call's form and bounds.
fn action_to_call(sigs: &[FnSig], action: &VisAction) -> Option<Call> {
    let sig = sigs.iter().find(|s| s.function.name == action.name)?;
    let items: Vec<&PyValue> = match (sig.payload, &action.payload) {
        (Payload::Value, v) => vec![v],
        (Payload::Tuple, PyValue::Tuple(v)) | (Payload::List, PyValue::List(v)) => {
            v.iter().collect()
        }
        (Payload::CellPairs, PyValue::Tuple(cells)) => {
            let mut flat = Vec::new();
            for cell in cells {
                match cell {
                    PyValue::Tuple(rc) if rc.len() == 2 => flat.extend(rc.iter()),
                    _ => return None,
                }
            }
            flat
        }
        _ => return None,
    };
    let small = |v: &PyValue| match v {
        PyValue::Int(i) => i.as_i64(),
        _ => None,
    };
    let mut items = items.into_iter();
    let mut args = Vec::new();
    for spec in &sig.function.args {
        let arg = match &spec.kind {
            ArgKind::Int { .. } => ArgValue::Int(small(items.next()?)?),
            ArgKind::Word { .. } => ArgValue::Word(items.next()?.as_str()?.to_string()),
            ArgKind::Float { .. } => match items.next()? {
                PyValue::Float(v) => ArgValue::Float(*v),
                _ => return None,
            },
            ArgKind::Cell { .. } => {
                let (r, c) = (small(items.next()?)?, small(items.next()?)?);
                ArgValue::List(vec![r as f64, c as f64])
            }
            ArgKind::Floats { .. } => match items.next()? {
                PyValue::List(v) => ArgValue::List(
                    v.iter()
                        .map(|x| match x {
                            PyValue::Float(f) => Some(*f),
                            _ => None,
                        })
                        .collect::<Option<Vec<f64>>>()?,
                ),
                _ => return None,
            },
            ArgKind::Permutation { .. } => match items.next()? {
                PyValue::List(v) => ArgValue::List(
                    v.iter()
                        .map(|x| small(x).map(|i| i as f64))
                        .collect::<Option<Vec<f64>>>()?,
                ),
                _ => return None,
            },
            ArgKind::Point { .. } => return None,
        };
        args.push(arg);
    }
    if items.next().is_some() {
        return None;
    }
    let call = Call {
        name: action.name.clone(),
        args,
    };
    sig.function.check(&call).ok()?;
    Some(call)
}

/// The call `text` is exactly the canonical string of, if any.
pub fn text_to_call(sigs: &[FnSig], text: &str) -> Option<Call> {
    let action = VisAction::parse(text)?;
    let call = action_to_call(sigs, &action)?;
    (call_to_action(sigs, &call)?.to_text() == text).then_some(call)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sigs() -> Vec<FnSig> {
        vec![
            FnSig::new(
                "move",
                "",
                Payload::Tuple,
                &[
                    ("block", FnSig::int(0, 10)),
                    ("direction", FnSig::int(0, 3)),
                ],
            ),
            FnSig::new(
                "place",
                "",
                Payload::Tuple,
                &[
                    ("patch", FnSig::int(0, 4)),
                    ("cell", ArgKind::Cell { rows: 6, cols: 6 }),
                ],
            ),
            FnSig::new(
                "rotate",
                "",
                Payload::Value,
                &[(
                    "angles",
                    ArgKind::Floats {
                        len: 3,
                        min: -180.0,
                        max: 180.0,
                    },
                )],
            ),
            FnSig::new(
                "swap",
                "",
                Payload::List,
                &[("a", FnSig::int(0, 29)), ("b", FnSig::int(0, 12))],
            ),
            FnSig::stop(),
        ]
    }

    #[test]
    fn calls_and_canonical_strings_round_trip() {
        let s = sigs();
        for (call, text) in [
            (
                Call {
                    name: "move".into(),
                    args: vec![ArgValue::Int(1), ArgValue::Int(2)],
                },
                "('move', (1, 2))",
            ),
            (
                Call {
                    name: "place".into(),
                    args: vec![ArgValue::Int(3), ArgValue::List(vec![2.0, 5.0])],
                },
                "('place', (3, 2, 5))",
            ),
            (
                Call {
                    name: "rotate".into(),
                    args: vec![ArgValue::List(vec![90.0, -0.5, 0.0])],
                },
                "('rotate', [90.0, -0.5, 0.0])",
            ),
            (
                Call {
                    name: "swap".into(),
                    args: vec![ArgValue::Int(0), ArgValue::Int(12)],
                },
                "('swap', [0, 12])",
            ),
            (
                Call {
                    name: "stop".into(),
                    args: vec![ArgValue::Word("stop".into())],
                },
                "('stop', 'stop')",
            ),
        ] {
            assert_eq!(call_to_action(&s, &call).unwrap().to_text(), text);
            assert_eq!(text_to_call(&s, text), Some(call));
        }
    }

    #[test]
    fn other_strings_are_no_calls() {
        let s = sigs();
        for text in [
            "('move',(1, 2))",
            "('move', [1, 2])",
            "('move', (1.0, 2))",
            "('move', (11, 2))",
            "('move', (True, 2))",
            "('rotate', [90, 0, 0])",
            "('rotate', [190.0, 0.0, 0.0])",
            "('place', (3, 2))",
            "('stop', \"stop\")",
            " ('stop', 'stop')",
            "('jump', 1)",
            "hello",
        ] {
            assert_eq!(text_to_call(&s, text), None, "{text}");
        }
        // A call out of bounds has no action string.
        let bad = Call {
            name: "move".into(),
            args: vec![ArgValue::Int(12), ArgValue::Int(0)],
        };
        assert_eq!(call_to_action(&s, &bad), None);
    }
}
