//! The expression tree `ast.parse(..., mode='eval')` builds, reduced to what
//! `ast.literal_eval` and CPython's error messages look at.

use std::rc::Rc;

use super::value::PyValue;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOpKind {
    Add,
    Sub,
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOpKind {
    UAdd,
    USub,
    Not,
    Invert,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOpKind {
    In,
    Other,
}

#[derive(Clone, Debug)]
pub struct Keyword {
    /// `None` for `**mapping`.
    pub arg: Option<String>,
    pub value: Expr,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Constant(PyValue),
    Name(String),
    Tuple(Vec<Expr>),
    List(Vec<Expr>),
    Set(Vec<Expr>),
    /// A `None` key is a `**mapping` entry.
    Dict(Vec<(Option<Expr>, Expr)>),
    BinOp(Box<Expr>, BinOpKind, Box<Expr>),
    UnaryOp(UnaryOpKind, Box<Expr>),
    BoolOp,
    Compare(Box<Expr>, Vec<CmpOpKind>, Vec<Expr>),
    IfExp,
    Lambda,
    Call {
        func: Box<Expr>,
        args: Vec<Expr>,
        keywords: Vec<Keyword>,
    },
    Attribute,
    Subscript,
    Slice,
    Starred(Box<Expr>),
    NamedExpr,
    ListComp,
    SetComp,
    DictComp,
    GeneratorExp,
    Await,
    Yield,
    YieldFrom,
    JoinedStr,
}

/// A node. Its kind is shared: the parser's memo hands out copies of whole subtrees
/// (a left-recursive rule grows its seed one operation at a time), and a copy must
/// cost the same however deep the tree is (docs/fuzzing.md: long call chains were
/// quadratic).
#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: Rc<ExprKind>,
    /// Line of the node's first token.
    pub line: u32,
}

impl Expr {
    pub fn new(kind: ExprKind, line: u32) -> Self {
        Expr {
            kind: Rc::new(kind),
            line,
        }
    }

    /// The `ast` class name, as in `<ast.Name object at 0x…>`.
    pub fn class_name(&self) -> &'static str {
        match &*self.kind {
            ExprKind::Constant(_) => "Constant",
            ExprKind::Name(_) => "Name",
            ExprKind::Tuple(_) => "Tuple",
            ExprKind::List(_) => "List",
            ExprKind::Set(_) => "Set",
            ExprKind::Dict(_) => "Dict",
            ExprKind::BinOp(..) => "BinOp",
            ExprKind::UnaryOp(..) => "UnaryOp",
            ExprKind::BoolOp => "BoolOp",
            ExprKind::Compare(..) => "Compare",
            ExprKind::IfExp => "IfExp",
            ExprKind::Lambda => "Lambda",
            ExprKind::Call { .. } => "Call",
            ExprKind::Attribute => "Attribute",
            ExprKind::Subscript => "Subscript",
            ExprKind::Slice => "Slice",
            ExprKind::Starred(_) => "Starred",
            ExprKind::NamedExpr => "NamedExpr",
            ExprKind::ListComp => "ListComp",
            ExprKind::SetComp => "SetComp",
            ExprKind::DictComp => "DictComp",
            ExprKind::GeneratorExp => "GeneratorExp",
            ExprKind::Await => "Await",
            ExprKind::Yield => "Yield",
            ExprKind::YieldFrom => "YieldFrom",
            ExprKind::JoinedStr => "JoinedStr",
        }
    }

    /// CPython's `_PyPegen_get_expr_name`, used in "cannot assign to %s" messages.
    pub fn expr_name(&self) -> &'static str {
        match &*self.kind {
            ExprKind::Attribute => "attribute",
            ExprKind::Subscript => "subscript",
            ExprKind::Starred(_) => "starred",
            ExprKind::Name(_) => "name",
            ExprKind::List(_) => "list",
            ExprKind::Tuple(_) => "tuple",
            ExprKind::Lambda => "lambda",
            ExprKind::Call { .. } => "function call",
            ExprKind::BoolOp | ExprKind::BinOp(..) | ExprKind::UnaryOp(..) => "expression",
            ExprKind::GeneratorExp => "generator expression",
            ExprKind::Yield | ExprKind::YieldFrom => "yield expression",
            ExprKind::Await => "await expression",
            ExprKind::ListComp => "list comprehension",
            ExprKind::SetComp => "set comprehension",
            ExprKind::DictComp => "dict comprehension",
            ExprKind::Dict(_) => "dict literal",
            ExprKind::Set(_) => "set display",
            ExprKind::JoinedStr => "f-string expression",
            ExprKind::Constant(PyValue::None) => "None",
            ExprKind::Constant(PyValue::Bool(false)) => "False",
            ExprKind::Constant(PyValue::Bool(true)) => "True",
            ExprKind::Constant(PyValue::Ellipsis) => "ellipsis",
            ExprKind::Constant(_) => "literal",
            ExprKind::Compare(..) => "comparison",
            ExprKind::IfExp => "conditional expression",
            ExprKind::NamedExpr => "named expression",
            ExprKind::Slice => "slice",
        }
    }

    /// CPython's `_PyPegen_get_invalid_target` for `for` targets: the first
    /// sub-expression that cannot be assigned to.
    pub fn invalid_for_target(&self) -> Option<&Expr> {
        match &*self.kind {
            ExprKind::Tuple(items) | ExprKind::List(items) => {
                items.iter().find_map(Expr::invalid_for_target)
            }
            ExprKind::Starred(value) => value.invalid_for_target(),
            ExprKind::Compare(left, ops, _) => {
                if ops.first() == Some(&CmpOpKind::In) {
                    left.invalid_for_target()
                } else {
                    None
                }
            }
            ExprKind::Name(_) | ExprKind::Subscript | ExprKind::Attribute => None,
            _ => Some(self),
        }
    }
}
