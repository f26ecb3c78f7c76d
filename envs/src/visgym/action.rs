//! Actions: the model's text (`"('move', 0)"`) and its structured form, and the common
//! front of every VisGym `step` (literal evaluation, tuple shape, function name,
//! argument space) with the reference's feedback texts.

use super::python::{literal_eval, py_repr, py_str_checked, PyException, PyValue};
use super::spaces::ArgSpace;

/// A parametric action: a function name and its payload, as the reference's
/// `(name, payload)` tuple. Its text form is Python's `repr` of that tuple and
/// round-trips through [`VisAction::parse`].
#[derive(Clone, Debug)]
pub struct VisAction {
    pub name: String,
    pub payload: PyValue,
}

impl PartialEq for VisAction {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.payload.py_eq(&other.payload)
    }
}

impl VisAction {
    pub fn new(name: &str, payload: PyValue) -> Self {
        VisAction {
            name: name.to_string(),
            payload,
        }
    }

    /// `('stop', 'stop')`.
    pub fn stop() -> Self {
        VisAction::new("stop", PyValue::str("stop"))
    }

    /// The action string a model would write: `('move', (1, 2))`.
    pub fn to_text(&self) -> String {
        py_repr(&PyValue::Tuple(vec![
            PyValue::Str(self.name.clone()),
            self.payload.clone(),
        ]))
    }

    /// Reads an action string; `None` unless it is a Python literal `(str, payload)`.
    pub fn parse(text: &str) -> Option<Self> {
        match literal_eval(text).ok()? {
            PyValue::Tuple(mut items) if items.len() == 2 => {
                let payload = items.pop()?;
                match items.pop()? {
                    PyValue::Str(name) => Some(VisAction { name, payload }),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// What one `step` reports besides the state change.
#[derive(Clone, Debug, PartialEq)]
pub struct StepResult {
    pub feedback: String,
    pub reward: f64,
    pub terminated: bool,
    /// Always false: VisGym environments never truncate (the harness's budget does).
    pub truncated: bool,
}

impl StepResult {
    /// A step without reward or termination.
    pub fn feedback(feedback: impl Into<String>) -> Self {
        StepResult {
            feedback: feedback.into(),
            reward: 0.0,
            terminated: false,
            truncated: false,
        }
    }

    /// An accepted `stop`: the episode ends, with reward 1 if it succeeded.
    pub fn stopped(success: bool) -> Self {
        StepResult {
            feedback: EXECUTED.to_string(),
            reward: if success { 1.0 } else { 0.0 },
            terminated: true,
            truncated: false,
        }
    }
}

/// The feedback when a step executed without any other message.
pub const EXECUTED: &str = "Action executed successfully.";

/// How a step's action string resolved before the environment acts on it.
pub enum Resolved {
    /// A function of the environment with a payload its argument space accepts:
    /// `index` into the function table given to [`resolve`].
    Call { index: usize, payload: PyValue },
    /// Nothing is executed; this is the feedback.
    Rejected(String),
}

/// The reference's common step front: evaluate, check the `(name, payload)` shape,
/// find the function, check the payload against its space. `Err` is an exception the
/// reference raises from the space check.
pub fn resolve(action: &str, functions: &[(&str, ArgSpace)]) -> Result<Resolved, PyException> {
    resolve_worded(action, functions, &|_, _| None)
}

/// How an environment words the refusal of a payload its space rejects, for the
/// functions whose refusal is not the common one (`None`: the common text).
pub type Refusal<'a> = &'a dyn Fn(&str, &PyValue) -> Option<Result<String, PyException>>;

/// [`resolve`], with `refusal` wording the rejected payloads of some functions.
pub fn resolve_worded(
    action: &str,
    functions: &[(&str, ArgSpace)],
    refusal: Refusal<'_>,
) -> Result<Resolved, PyException> {
    let parsed = match literal_eval(action) {
        Ok(v) => v,
        Err(e) => {
            return Ok(Resolved::Rejected(format!(
                "Cannot parse action string {}: {} so the action is invalid.",
                py_repr(&PyValue::str(action)),
                e.message
            )))
        }
    };
    let (branch, payload) = match parsed {
        PyValue::Tuple(items) if items.len() == 2 => {
            let mut it = items.into_iter();
            match (it.next(), it.next()) {
                (Some(b), Some(p)) => (b, p),
                _ => return Ok(Resolved::Rejected(format_invalid())),
            }
        }
        _ => return Ok(Resolved::Rejected(format_invalid())),
    };
    let Some(index) = functions
        .iter()
        .position(|(name, _)| branch.as_str() == Some(name))
    else {
        // The reference's f-string calls `str(branch)`, which raises for a huge int.
        return Ok(Resolved::Rejected(format!(
            "The action name '{}' is not recognized in the available action space.",
            py_str_checked(&branch)?
        )));
    };
    let (name, space) = &functions[index];
    if !space.contains(&payload)? {
        if let Some(text) = refusal(name, &payload) {
            return Ok(Resolved::Rejected(text?));
        }
        return Ok(Resolved::Rejected(format!(
            "The action {} is not in the valid action space of {name} so nothing is executed.",
            py_str_checked(&payload)?
        )));
    }
    Ok(Resolved::Call { index, payload })
}

fn format_invalid() -> String {
    "The action format is invalid. The action should be a tuple of two elements with the first element being the action name and the second element being the action payload.".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn functions() -> Vec<(&'static str, ArgSpace)> {
        vec![("move", ArgSpace::discrete(4)), ("stop", ArgSpace::text4())]
    }

    fn feedback(action: &str) -> String {
        match resolve(action, &functions()) {
            Ok(Resolved::Call { index, payload }) => format!("call {index} {}", py_repr(&payload)),
            Ok(Resolved::Rejected(f)) => f,
            Err(e) => e.class.to_string(),
        }
    }

    #[test]
    fn texts_match_the_reference() {
        assert_eq!(feedback("('move', 0)"), "call 0 0");
        assert_eq!(feedback("('move', True)"), "call 0 True");
        assert_eq!(
            feedback("hello world"),
            "Cannot parse action string 'hello world': invalid syntax (<unknown>, line 1) so the action is invalid."
        );
        assert_eq!(
            feedback("('move',)"),
            "The action format is invalid. The action should be a tuple of two elements with the first element being the action name and the second element being the action payload."
        );
        assert_eq!(
            feedback("(1, 2)"),
            "The action name '1' is not recognized in the available action space."
        );
        assert_eq!(
            feedback("('stop', 'stopp')"),
            "The action stopp is not in the valid action space of stop so nothing is executed."
        );
        assert_eq!(
            feedback("('move', 1.0)"),
            "The action 1.0 is not in the valid action space of move so nothing is executed."
        );
    }

    #[test]
    fn text_form_round_trips() {
        for a in [
            VisAction::new("move", PyValue::int(0)),
            VisAction::new(
                "move",
                PyValue::Tuple(vec![PyValue::int(1), PyValue::int(2)]),
            ),
            VisAction::new(
                "rotate",
                PyValue::List(vec![
                    PyValue::Float(15.5),
                    PyValue::Float(-0.0),
                    PyValue::Float(1e30),
                ]),
            ),
            VisAction::stop(),
        ] {
            let text = a.to_text();
            assert_eq!(VisAction::parse(&text), Some(a.clone()), "{text}");
        }
        assert_eq!(VisAction::stop().to_text(), "('stop', 'stop')");
    }

    #[test]
    fn ints_too_long_to_print_raise_as_in_python() {
        // 0x1F...: about 72,000 decimal digits, past CPython's 4300-digit str() limit.
        let huge = format!("0x{}", "1F".repeat(30_000));
        assert_eq!(feedback(&format!("('stop', {huge})")), "ValueError");
        assert_eq!(feedback(&format!("({huge}, 1)")), "ValueError");
        assert_eq!(feedback(&format!("('move', {huge})")), "OverflowError");
        assert_eq!(feedback(&format!("('move', -{huge})")), "OverflowError");
        let a = VisAction::parse(&format!("('rotate', {huge})")).unwrap();
        assert_eq!(VisAction::parse(&a.to_text()), Some(a));
    }
}
