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

/// CPython 3.11 turns the parsed tree into Python objects recursively and raises
/// `RecursionError` ("maximum recursion depth exceeded during ast construction") when
/// the nesting, counted from three times the caller's Python stack depth, passes three
/// times the recursion limit (1000). Trees that deep come only from left-recursive
/// chains (`1+1+…`, `a.b.…`, `f()()…`); the parser's own limits stop other nesting
/// sooner (`parser::MAX_DEPTH`).
pub const AST_RECURSION_LIMIT: u32 = 3 * 1000;

/// Below a node deeper than this, two levels are kept: such a tree can only end in
/// `RecursionError`, and keeping a chain of millions of nodes would cost memory (and
/// stack to drop).
const KEPT_DEPTH: u32 = AST_RECURSION_LIMIT + 1;

/// Trees this deep are dropped by a loop rather than recursively (a 1 MB wasm stack).
const DROP_BY_LOOP: u32 = 64;

/// A node. Its kind is shared: the parser's memo hands out copies of whole subtrees
/// (a left-recursive rule grows its seed one operation at a time), and a copy must
/// cost the same however deep the tree is (docs/fuzzing.md: long call chains were
/// quadratic).
#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: Rc<ExprKind>,
    /// Line of the node's first token.
    pub line: u32,
    /// Nodes from this one to its deepest leaf, as CPython counts them when it builds
    /// the `ast` objects (children this tree does not keep included).
    pub depth: u32,
}

thread_local! {
    /// What a node's children are replaced with when they are not kept.
    static CUT: Rc<ExprKind> = Rc::new(ExprKind::Constant(PyValue::Ellipsis));
}

impl Expr {
    pub fn new(mut kind: ExprKind, line: u32) -> Self {
        let mut depth = 1 + kind.deepest_child();
        if depth > KEPT_DEPTH {
            // The deep children keep their kind (error messages name it) but not
            // their own children.
            depth = KEPT_DEPTH + 1;
            for child in kind.children_mut().filter(|c| c.depth >= KEPT_DEPTH) {
                for grandchild in Rc::make_mut(&mut child.kind).children_mut() {
                    grandchild.cut();
                }
            }
        }
        Expr {
            kind: Rc::new(kind),
            line,
            depth,
        }
    }

    /// A node whose child (`a.b`'s `a`, `a[i]`'s `a`) this tree does not keep.
    pub fn over(kind: ExprKind, line: u32, child: &Expr) -> Self {
        let mut e = Expr::new(kind, line);
        e.depth = e.depth.max((child.depth + 1).min(KEPT_DEPTH + 1));
        e
    }

    /// Drops the node's subtree, keeping its depth.
    fn cut(&mut self) {
        self.kind = CUT.with(Rc::clone);
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

impl Drop for Expr {
    /// Deep trees are taken apart by a loop: dropping a chain of thousands of nodes
    /// recursively would overflow the stack.
    fn drop(&mut self) {
        if self.depth <= DROP_BY_LOOP {
            return;
        }
        let mut pending = vec![CUT.with(|cut| std::mem::replace(&mut self.kind, Rc::clone(cut)))];
        while let Some(kind) = pending.pop() {
            if let Ok(mut kind) = Rc::try_unwrap(kind) {
                for child in kind.children_mut() {
                    child.depth = 0;
                    pending
                        .push(CUT.with(|cut| std::mem::replace(&mut child.kind, Rc::clone(cut))));
                }
            }
        }
    }
}

impl ExprKind {
    /// The depth of the deepest child this tree keeps (a keyword argument is a node
    /// of its own in CPython's tree).
    fn deepest_child(&self) -> u32 {
        let deepest = |items: &[Expr]| items.iter().map(|c| c.depth).max().unwrap_or(0);
        match self {
            ExprKind::Tuple(items) | ExprKind::List(items) | ExprKind::Set(items) => deepest(items),
            ExprKind::Dict(pairs) => pairs
                .iter()
                .map(|(k, v)| k.as_ref().map_or(0, |k| k.depth).max(v.depth))
                .max()
                .unwrap_or(0),
            ExprKind::BinOp(a, _, b) => a.depth.max(b.depth),
            ExprKind::UnaryOp(_, a) | ExprKind::Starred(a) => a.depth,
            ExprKind::Compare(a, _, rights) => a.depth.max(deepest(rights)),
            ExprKind::Call {
                func,
                args,
                keywords,
            } => func.depth.max(deepest(args)).max(
                keywords
                    .iter()
                    .map(|k| k.value.depth + 1)
                    .max()
                    .unwrap_or(0),
            ),
            _ => 0,
        }
    }

    fn children_mut(&mut self) -> Box<dyn Iterator<Item = &mut Expr> + '_> {
        match self {
            ExprKind::Tuple(items) | ExprKind::List(items) | ExprKind::Set(items) => {
                Box::new(items.iter_mut())
            }
            ExprKind::Dict(pairs) => Box::new(
                pairs
                    .iter_mut()
                    .flat_map(|(k, v)| k.iter_mut().chain(std::iter::once(v))),
            ),
            ExprKind::BinOp(a, _, b) => Box::new([&mut **a, &mut **b].into_iter()),
            ExprKind::UnaryOp(_, a) | ExprKind::Starred(a) => Box::new(std::iter::once(&mut **a)),
            ExprKind::Compare(a, _, rights) => {
                Box::new(std::iter::once(&mut **a).chain(rights.iter_mut()))
            }
            ExprKind::Call {
                func,
                args,
                keywords,
            } => Box::new(
                std::iter::once(&mut **func)
                    .chain(args.iter_mut())
                    .chain(keywords.iter_mut().map(|k| &mut k.value)),
            ),
            _ => Box::new(std::iter::empty()),
        }
    }
}
