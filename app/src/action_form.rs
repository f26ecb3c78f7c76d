//! Form controls for a parametric action space: one small form per function, generated
//! from each argument's `ArgKind` — numbers with their bounds (and a slider where the
//! range is short), a cell as row and column, a point as x and y, a list of numbers,
//! a permutation typed as numbers and checked, a word — and the call it makes, checked
//! against the function before anything is played. Plain logic; the page draws it.

use envs::core::action::{ActionFn, ArgKind, ArgSpec, ArgValue, Call};

/// Longest integer range that also gets a slider.
const SLIDER_MAX_RANGE: i64 = 200;

/// How one input of an argument is drawn.
#[derive(Clone, Debug, PartialEq)]
pub enum InputKind {
    /// A number within bounds; `slider` adds a range input beside it.
    Number {
        min: f64,
        max: f64,
        step: Option<f64>,
        slider: bool,
    },
    /// Free text (permutations, words), with a length limit when there is one.
    Text { max_len: Option<usize> },
}

/// One input: its label and how it is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct InputSpec {
    pub label: String,
    pub kind: InputKind,
    /// A hint on what to type (e.g. the numbers of a permutation).
    pub hint: Option<String>,
}

/// The inputs of one argument.
pub fn inputs(arg: &ArgSpec) -> Vec<InputSpec> {
    let name = &arg.name;
    let number = |label: String, min: f64, max: f64, step: Option<f64>| InputSpec {
        label,
        kind: InputKind::Number {
            min,
            max,
            step,
            slider: step.is_some() && max - min <= SLIDER_MAX_RANGE as f64,
        },
        hint: None,
    };
    match &arg.kind {
        ArgKind::Int { min, max } => {
            vec![number(name.clone(), *min as f64, *max as f64, Some(1.0))]
        }
        ArgKind::Float { min, max } => vec![InputSpec {
            label: name.clone(),
            kind: InputKind::Number {
                min: *min,
                max: *max,
                step: None,
                slider: true,
            },
            hint: None,
        }],
        ArgKind::Cell { rows, cols } => vec![
            number(
                format!("{name}: row"),
                0.0,
                f64::from(rows.saturating_sub(1)),
                Some(1.0),
            ),
            number(
                format!("{name}: column"),
                0.0,
                f64::from(cols.saturating_sub(1)),
                Some(1.0),
            ),
        ],
        ArgKind::Point { width, height } => vec![
            number(format!("{name}: x"), 0.0, f64::from(*width), None),
            number(format!("{name}: y"), 0.0, f64::from(*height), None),
        ],
        ArgKind::Floats { len, min, max } => (0..*len)
            .map(|i| number(format!("{name} {}", i + 1), *min, *max, None))
            .collect(),
        ArgKind::Permutation { n, base } => {
            let last = *n as u64 + u64::from(*base);
            vec![InputSpec {
                label: name.clone(),
                kind: InputKind::Text { max_len: None },
                hint: Some(format!(
                    "each of the numbers {base} to {} once, e.g. {}",
                    last.saturating_sub(1),
                    identity(*n, *base)
                )),
            }]
        }
        ArgKind::Word { max_len } => vec![InputSpec {
            label: name.clone(),
            kind: InputKind::Text {
                max_len: Some(*max_len),
            },
            hint: Some(format!("at most {max_len} characters")),
        }],
    }
}

fn identity(n: usize, base: u32) -> String {
    (0..n as u64)
        .map(|i| (i + u64::from(base)).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn number_text(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        v.to_string()
    }
}

/// The texts an argument's inputs start with: valid values (the lower bound, the
/// frame's centre, the identity order, an empty word).
pub fn defaults(arg: &ArgSpec) -> Vec<String> {
    match &arg.kind {
        ArgKind::Int { min, max } => vec![(*min).max(0).min(*max).to_string()],
        ArgKind::Float { min, max } => vec![number_text(0.0_f64.clamp(*min, *max))],
        ArgKind::Cell { .. } => vec!["0".into(), "0".into()],
        ArgKind::Point { width, height } => vec![
            number_text(f64::from(width / 2)),
            number_text(f64::from(height / 2)),
        ],
        ArgKind::Floats { len, min, max } => vec![number_text(0.0_f64.clamp(*min, *max)); *len],
        ArgKind::Permutation { n, base } => vec![identity(*n, *base)],
        ArgKind::Word { .. } => vec![String::new()],
    }
}

fn read_number(text: &str, label: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("{label}: {:?} is not a number", text.trim()))
}

/// An argument's value from its inputs' texts, checked against its kind.
pub fn value(arg: &ArgSpec, texts: &[String]) -> Result<ArgValue, String> {
    let labels = inputs(arg);
    let numbers = || -> Result<Vec<f64>, String> {
        texts
            .iter()
            .zip(&labels)
            .map(|(t, l)| read_number(t, &l.label))
            .collect()
    };
    let text = texts.first().map(String::as_str).unwrap_or_default();
    let v = match &arg.kind {
        ArgKind::Int { .. } => {
            let n = read_number(text, &arg.name)?;
            if n.fract() != 0.0 {
                return Err(format!("{}: a whole number, please", arg.name));
            }
            ArgValue::Int(n as i64)
        }
        ArgKind::Float { .. } => ArgValue::Float(read_number(text, &arg.name)?),
        ArgKind::Cell { .. } | ArgKind::Point { .. } | ArgKind::Floats { .. } => {
            ArgValue::List(numbers()?)
        }
        ArgKind::Permutation { .. } => {
            let items: Vec<&str> = text
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|p| !p.is_empty())
                .collect();
            let list = items
                .iter()
                .map(|p| read_number(p, &arg.name))
                .collect::<Result<Vec<_>, _>>()?;
            ArgValue::List(list)
        }
        ArgKind::Word { .. } => ArgValue::Word(text.trim().to_string()),
    };
    arg.kind
        .check(&v)
        .map_err(|want| format!("{} must be {want}", arg.name))?;
    Ok(v)
}

/// One function's form: the texts of every input of every argument.
#[derive(Clone, Debug, PartialEq)]
pub struct CallForm {
    pub function: ActionFn,
    /// Per argument, the texts of its inputs.
    pub texts: Vec<Vec<String>>,
}

impl CallForm {
    pub fn new(function: ActionFn) -> Self {
        let texts = function.args.iter().map(defaults).collect();
        Self { function, texts }
    }

    /// Sets input `input` of argument `arg` as typed.
    pub fn set(&mut self, arg: usize, input: usize, text: &str) {
        if let Some(t) = self.texts.get_mut(arg).and_then(|a| a.get_mut(input)) {
            *t = text.to_string();
        }
    }

    /// Sets a cell argument from a pick (row, column).
    pub fn pick_cell(&mut self, arg: usize, row: u32, col: u32) {
        self.set(arg, 0, &row.to_string());
        self.set(arg, 1, &col.to_string());
    }

    /// What is wrong with each argument (`None` where it is fine).
    pub fn errors(&self) -> Vec<Option<String>> {
        self.function
            .args
            .iter()
            .zip(&self.texts)
            .map(|(a, t)| value(a, t).err())
            .collect()
    }

    /// The call, or the first thing wrong with it.
    pub fn call(&self) -> Result<Call, String> {
        let args = self
            .function
            .args
            .iter()
            .zip(&self.texts)
            .map(|(a, t)| value(a, t))
            .collect::<Result<Vec<_>, _>>()?;
        let call = Call {
            name: self.function.name.clone(),
            args,
        };
        self.function.check(&call).map_err(|e| e.to_string())?;
        Ok(call)
    }
}

/// The forms of every function of a parametric space, one chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionForms {
    pub forms: Vec<CallForm>,
    pub chosen: usize,
}

impl ActionForms {
    pub fn new(functions: Vec<ActionFn>) -> Self {
        Self {
            forms: functions.into_iter().map(CallForm::new).collect(),
            chosen: 0,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.forms.is_empty()
    }

    pub fn current(&self) -> Option<&CallForm> {
        self.forms.get(self.chosen)
    }

    pub fn current_mut(&mut self) -> Option<&mut CallForm> {
        self.forms.get_mut(self.chosen)
    }

    /// Chooses a function by name.
    pub fn choose(&mut self, name: &str) {
        if let Some(i) = self.forms.iter().position(|f| f.function.name == name) {
            self.chosen = i;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(name: &str, kind: ArgKind) -> ArgSpec {
        ArgSpec {
            name: name.into(),
            kind,
        }
    }

    fn swap() -> ActionFn {
        ActionFn {
            name: "swap".into(),
            args: vec![
                arg("a", ArgKind::Cell { rows: 3, cols: 4 }),
                arg("b", ArgKind::Cell { rows: 3, cols: 4 }),
            ],
            doc: "swap two tiles".into(),
        }
    }

    #[test]
    fn inputs_follow_each_kind_and_its_bounds() {
        let cell = inputs(&arg("at", ArgKind::Cell { rows: 3, cols: 4 }));
        assert_eq!(cell.len(), 2);
        assert_eq!(cell[0].label, "at: row");
        assert_eq!(
            cell[1].kind,
            InputKind::Number {
                min: 0.0,
                max: 3.0,
                step: Some(1.0),
                slider: true
            }
        );
        let wide = inputs(&arg(
            "n",
            ArgKind::Int {
                min: 0,
                max: 10_000,
            },
        ));
        assert!(matches!(
            wide[0].kind,
            InputKind::Number { slider: false, .. }
        ));
        let f = inputs(&arg(
            "t",
            ArgKind::Float {
                min: -2.0,
                max: 2.0,
            },
        ));
        assert!(matches!(
            f[0].kind,
            InputKind::Number {
                step: None,
                slider: true,
                ..
            }
        ));
        let p = inputs(&arg("order", ArgKind::Permutation { n: 4, base: 1 }));
        assert_eq!(p[0].kind, InputKind::Text { max_len: None });
        assert_eq!(
            p[0].hint.as_deref(),
            Some("each of the numbers 1 to 4 once, e.g. 1 2 3 4")
        );
        let w = inputs(&arg("w", ArgKind::Word { max_len: 5 }));
        assert_eq!(w[0].kind, InputKind::Text { max_len: Some(5) });
        let v = inputs(&arg(
            "angles",
            ArgKind::Floats {
                len: 3,
                min: -1.0,
                max: 1.0,
            },
        ));
        assert_eq!(
            v.iter().map(|i| i.label.as_str()).collect::<Vec<_>>(),
            ["angles 1", "angles 2", "angles 3"]
        );
        let pt = inputs(&arg(
            "p",
            ArgKind::Point {
                width: 600,
                height: 400,
            },
        ));
        assert_eq!(pt[1].label, "p: y");
    }

    #[test]
    fn every_kind_starts_valid() {
        let kinds = [
            ArgKind::Int { min: -3, max: 3 },
            ArgKind::Int { min: 5, max: 9 },
            ArgKind::Float { min: 1.0, max: 2.0 },
            ArgKind::Cell { rows: 2, cols: 2 },
            ArgKind::Point {
                width: 10,
                height: 5,
            },
            ArgKind::Floats {
                len: 2,
                min: 0.5,
                max: 1.0,
            },
            ArgKind::Permutation { n: 3, base: 0 },
            ArgKind::Word { max_len: 3 },
        ];
        for kind in kinds {
            let a = arg("x", kind.clone());
            let d = defaults(&a);
            assert_eq!(d.len(), inputs(&a).len(), "{kind:?}");
            assert!(value(&a, &d).is_ok(), "{kind:?}: {:?}", value(&a, &d));
        }
    }

    #[test]
    fn values_are_read_and_checked() {
        let order = arg("order", ArgKind::Permutation { n: 4, base: 1 });
        assert_eq!(
            value(&order, &["2 1, 4 3".into()]),
            Ok(ArgValue::List(vec![2.0, 1.0, 4.0, 3.0]))
        );
        let e = value(&order, &["1 1 2 3".into()]).unwrap_err();
        assert!(e.contains("each once"), "{e}");
        let e = value(&order, &["1 2 x 4".into()]).unwrap_err();
        assert!(e.contains("\"x\" is not a number"), "{e}");
        let n = arg("n", ArgKind::Int { min: 0, max: 3 });
        assert_eq!(value(&n, &[" 2 ".into()]), Ok(ArgValue::Int(2)));
        assert!(value(&n, &["4".into()])
            .unwrap_err()
            .contains("from 0 to 3"));
        assert!(value(&n, &["1.5".into()]).unwrap_err().contains("whole"));
        let w = arg("w", ArgKind::Word { max_len: 3 });
        assert_eq!(
            value(&w, &[" abc ".into()]),
            Ok(ArgValue::Word("abc".into()))
        );
        assert!(value(&w, &["abcd".into()]).is_err());
        let c = arg("at", ArgKind::Cell { rows: 3, cols: 3 });
        assert!(value(&c, &["1".into(), "".into()])
            .unwrap_err()
            .starts_with("at: column"));
    }

    #[test]
    fn a_form_makes_a_checked_call() {
        let mut forms = ActionForms::new(vec![
            swap(),
            ActionFn {
                name: "say".into(),
                args: vec![arg("word", ArgKind::Word { max_len: 8 })],
                doc: String::new(),
            },
        ]);
        assert!(!forms.is_empty());
        let f = forms.current_mut().unwrap();
        f.pick_cell(1, 2, 3);
        let call = f.call().unwrap();
        assert_eq!(call.name, "swap");
        assert_eq!(
            call.args,
            [
                ArgValue::List(vec![0.0, 0.0]),
                ArgValue::List(vec![2.0, 3.0])
            ]
        );
        f.set(0, 1, "9");
        let errors = f.errors();
        assert!(errors[0].as_deref().unwrap().contains("column 0-3"));
        assert_eq!(errors[1], None);
        assert!(f.call().is_err());
        f.set(7, 0, "ignored");
        forms.choose("say");
        assert_eq!(forms.current().unwrap().function.name, "say");
        forms.choose("nothing");
        assert_eq!(forms.chosen, 1);
        let f = forms.current_mut().unwrap();
        f.set(0, 0, "hello");
        assert_eq!(f.call().unwrap().args, [ArgValue::Word("hello".into())]);
    }
}
