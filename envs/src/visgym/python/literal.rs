//! `ast.literal_eval` of a string, with the exception CPython 3.11 raises.

use super::ast::{BinOpKind, Expr, ExprKind, UnaryOpKind, AST_RECURSION_LIMIT};
use super::parser::{parse_eval, parse_eval_tree};
use super::set_order::set_from;
use super::tokenizer::ErrorClass;
use super::value::PyValue;

/// A Python exception: its class name and `str(exception)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PyException {
    pub class: &'static str,
    pub message: String,
}

impl PyException {
    /// The exception `class(message)` the reference raises.
    pub fn new(class: &'static str, message: impl Into<String>) -> Self {
        PyException {
            class,
            message: message.into(),
        }
    }
}

/// The address printed in `<ast.Name object at 0x…>`; CPython prints a heap address
/// that changes from run to run, any value stands in for it.
const NODE_ADDRESS: &str = "0x7f5e3c2b1a90";

fn malformed(node: &Expr) -> PyException {
    PyException {
        class: "ValueError",
        message: format!(
            "malformed node or string on line {}: <ast.{} object at {NODE_ADDRESS}>",
            node.line,
            node.class_name()
        ),
    }
}

/// `ast.literal_eval(source)`.
pub fn literal_eval(source: &str) -> Result<PyValue, PyException> {
    if source.contains('\0') {
        return Err(PyException {
            class: "SyntaxError",
            message: "source code string cannot contain null bytes".into(),
        });
    }
    if let Some(v) = super::fast_literal::fast_literal(source) {
        return Ok(v);
    }
    let stripped = source.trim_start_matches([' ', '\t']);
    let tree = parse_eval(stripped).map_err(|e| PyException {
        class: e.class.name(),
        message: match e.class {
            ErrorClass::Memory => String::new(),
            _ => format!("{} (<unknown>, line {})", e.msg, e.line),
        },
    })?;
    if too_deep_for_ast_objects(&tree) {
        return Err(PyException {
            class: "RecursionError",
            message: "maximum recursion depth exceeded during ast construction".into(),
        });
    }
    convert(&tree)
}

/// The Python stack under `literal_eval`'s call to `compile`, in frames: the caller,
/// `literal_eval` and `ast.parse` beneath a script two functions deep (as the golden
/// data's generator calls it, `tests/golden/visgym/generate.py`). CPython's limit on
/// the tree counts from three times this depth, so a caller deeper in the stack meets
/// it a few nodes sooner.
const CALLER_FRAMES: u32 = 5;

/// Whether building the `ast` objects of the tree (under its `Expression` node) passes
/// CPython's limit ([`AST_RECURSION_LIMIT`]).
fn too_deep_for_ast_objects(tree: &Expr) -> bool {
    3 * CALLER_FRAMES + 1 + tree.depth > AST_RECURSION_LIMIT
}

/// `literal_eval`'s value when it has one, without the exception's text (which costs
/// CPython's second parser pass): for callers that only try.
pub fn literal_value(source: &str) -> Option<PyValue> {
    if source.contains('\0') {
        return None;
    }
    if let Some(v) = super::fast_literal::fast_literal(source) {
        return Some(v);
    }
    let tree = parse_eval_tree(source.trim_start_matches([' ', '\t']))?;
    if too_deep_for_ast_objects(&tree) {
        return None;
    }
    convert(&tree).ok()
}

fn convert(node: &Expr) -> Result<PyValue, PyException> {
    match &*node.kind {
        ExprKind::Constant(v) => Ok(v.clone()),
        ExprKind::Tuple(items) => Ok(PyValue::Tuple(convert_all(items)?)),
        ExprKind::List(items) => Ok(PyValue::List(convert_all(items)?)),
        ExprKind::Set(items) => {
            // `set(map(_convert, elts))`: each element is hashed as it is added.
            let mut values = Vec::with_capacity(items.len());
            for item in items {
                let v = convert(item)?;
                check_hashable(&v)?;
                values.push(v);
            }
            Ok(PyValue::Set(set_from(values)))
        }
        ExprKind::Call {
            func,
            args,
            keywords,
        } if matches!(&*func.kind, ExprKind::Name(n) if n == "set")
            && args.is_empty()
            && keywords.is_empty() =>
        {
            Ok(PyValue::Set(Vec::new()))
        }
        ExprKind::Dict(pairs) => {
            let mut entries: Vec<(PyValue, PyValue)> = Vec::with_capacity(pairs.len());
            for (k, v) in pairs {
                let key = match k {
                    Some(k) => convert(k)?,
                    None => {
                        return Err(PyException {
                            class: "ValueError",
                            message: "malformed node or string: None".into(),
                        })
                    }
                };
                let value = convert(v)?;
                check_hashable(&key)?;
                match entries
                    .iter_mut()
                    .find(|(existing, _)| existing.py_eq(&key))
                {
                    Some(entry) => entry.1 = value,
                    None => entries.push((key, value)),
                }
            }
            Ok(PyValue::Dict(entries))
        }
        ExprKind::BinOp(left, op @ (BinOpKind::Add | BinOpKind::Sub), right) => {
            let l = convert_signed_num(left)?;
            let r = convert_num(right)?;
            match (&l, &r) {
                (PyValue::Int(_) | PyValue::Float(_), PyValue::Complex(re, im)) => {
                    let lf = match &l {
                        PyValue::Int(i) => i.to_f64().ok_or_else(|| PyException {
                            class: "OverflowError",
                            message: "int too large to convert to float".into(),
                        })?,
                        PyValue::Float(f) => *f,
                        _ => 0.0,
                    };
                    // `complex(l) ± r`: the left imaginary part is +0.0.
                    Ok(if *op == BinOpKind::Add {
                        PyValue::Complex(lf + re, 0.0 + im)
                    } else {
                        PyValue::Complex(lf - re, 0.0 - im)
                    })
                }
                _ => convert_signed_num(node),
            }
        }
        _ => convert_signed_num(node),
    }
}

fn convert_all(items: &[Expr]) -> Result<Vec<PyValue>, PyException> {
    items.iter().map(convert).collect()
}

fn check_hashable(v: &PyValue) -> Result<(), PyException> {
    match v.unhashable_type() {
        Some(t) => Err(PyException {
            class: "TypeError",
            message: format!("unhashable type: '{t}'"),
        }),
        None => Ok(()),
    }
}

fn convert_num(node: &Expr) -> Result<PyValue, PyException> {
    match &*node.kind {
        ExprKind::Constant(v @ (PyValue::Int(_) | PyValue::Float(_) | PyValue::Complex(..))) => {
            Ok(v.clone())
        }
        _ => Err(malformed(node)),
    }
}

fn convert_signed_num(node: &Expr) -> Result<PyValue, PyException> {
    if let ExprKind::UnaryOp(op @ (UnaryOpKind::UAdd | UnaryOpKind::USub), operand) = &*node.kind {
        let v = convert_num(operand)?;
        if *op == UnaryOpKind::UAdd {
            return Ok(v);
        }
        return Ok(match v {
            PyValue::Int(i) => PyValue::Int(i.neg()),
            PyValue::Float(f) => PyValue::Float(-f),
            PyValue::Complex(re, im) => PyValue::Complex(-re, -im),
            other => other,
        });
    }
    convert_num(node)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visgym::python::format::py_repr;

    fn show(s: &str) -> String {
        match literal_eval(s) {
            Ok(v) => py_repr(&v),
            Err(e) => format!("{}: {}", e.class, e.message),
        }
    }

    #[test]
    fn actions_evaluate() {
        assert_eq!(show("('move', 0)"), "('move', 0)");
        assert_eq!(show("  ('stop', 'stop')"), "('stop', 'stop')");
        assert_eq!(show("'move', (1.0, 2)"), "('move', (1.0, 2))");
        assert_eq!(show("-0j"), "(-0-0j)");
        assert_eq!(show("1-2j"), "(1-2j)");
        assert_eq!(show("{3, 1, 2}"), "{1, 2, 3}");
        assert_eq!(show("{1: 2, 1.0: 3}"), "{1: 3}");
    }

    #[test]
    fn errors_evaluate() {
        assert_eq!(
            show("move"),
            format!("ValueError: malformed node or string on line 1: <ast.Name object at {NODE_ADDRESS}>")
        );
        assert_eq!(show("{[1]}"), "TypeError: unhashable type: 'list'");
        assert_eq!(show("{**x}"), "ValueError: malformed node or string: None");
        assert_eq!(
            show("hello world"),
            "SyntaxError: invalid syntax (<unknown>, line 1)"
        );
    }
}
