//! CPython 3.11's PEG parser for `mode='eval'`, transcribed rule by rule from its
//! grammar so that it fails where CPython fails: the reported line of a generic
//! "invalid syntax" is that of the furthest token the first pass fetched, and the
//! second pass runs the `invalid_*` rules that produce the specialised messages.
//!
//! Conventions follow the generated C parser: a rule returns `None` when it does not
//! match (the caller resets the position) or when an error was raised (`self.err`),
//! after which every rule returns `None` at once. An alternative whose items matched
//! but whose action yields nothing ends its rule (no later alternative is tried).

use std::collections::{HashMap, HashSet};

use super::ast::{BinOpKind, CmpOpKind, Expr, ExprKind, Keyword, UnaryOpKind};
use super::numbers::number_value;
use super::strings;
use super::tokenizer::{ErrorClass, SyntaxErr, TokError, TokKind, Token, Tokenizer};
use super::value::PyValue;

const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];
const SOFT_KEYWORDS: &[&str] = &["_", "case", "match"];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Rule {
    Expression,
    Disjunction,
    Conjunction,
    Inversion,
    Factor,
    AwaitPrimary,
    StarExpression,
    Strings,
    BitwiseOr,
    Primary,
    StarTarget,
    TargetWithStarAtom,
    TPrimary,
}

/// An argument list as `args` collects it.
#[derive(Clone, Debug, Default)]
struct CallArgs {
    args: Vec<Expr>,
    keywords: Vec<Keyword>,
    line: u32,
}

enum KwOrStarred {
    Keyword(Keyword),
    Starred(Expr),
}

type Memo = HashMap<(Rule, usize), (Option<Expr>, usize)>;

/// How deeply memoized rules may nest. CPython's parser allows 6000 rule levels and
/// 200 brackets; this parser spends about 1 kB of stack per memoized level, so it stops
/// earlier (some 50 brackets or 400 unary operators deep) to stay within a 1 MB wasm
/// stack, reporting what CPython reports when its own parser stack runs out.
const MAX_DEPTH: usize = 400;

pub struct Parser {
    tok: Tokenizer,
    tokens: Vec<Token>,
    mark: usize,
    err: Option<SyntaxErr>,
    /// The tokenizer stopped with an error (CPython's `tok->done` is not E_OK).
    tok_failed: bool,
    invalid: bool,
    depth: usize,
    memo: Memo,
    args_memo: HashMap<usize, (Option<CallArgs>, usize)>,
    /// The positions where `invalid_named_expression` was tried (and did not raise).
    invalid_named_tried: HashSet<usize>,
}

/// The tree of `source` when it parses, from the first pass alone: [`parse_eval`]
/// succeeds exactly when that pass does, and the second pass only words the error.
pub fn parse_eval_tree(source: &str) -> Option<Expr> {
    Parser::new(source).eval()
}

/// Parses `source` as `ast.parse(source, mode='eval')` does.
pub fn parse_eval(source: &str) -> Result<Expr, SyntaxErr> {
    let mut p = Parser::new(source);
    if let Some(e) = p.eval() {
        return Ok(e);
    }
    if let Some(e) = p.err.take() {
        if p.tok_failed {
            return Err(e);
        }
        // A parse-time error in the first pass (e.g. from decoding a string):
        // CPython still runs the second pass (a no-op with the error set) and then
        // prefers any later tokenizer error.
        p.err = Some(e);
        return Err(p.keep_or_replace_error());
    }
    let last = p.tokens.len().saturating_sub(1);
    p.mark = 0;
    p.depth = 0;
    p.invalid = true;
    p.memo.clear();
    p.args_memo.clear();
    p.invalid_named_tried.clear();
    let _ = p.eval();
    if p.err.is_some() {
        if p.tok_failed {
            return Err(p
                .err
                .take()
                .unwrap_or_else(|| SyntaxErr::syntax("invalid syntax", 0)));
        }
        return Err(p.keep_or_replace_error());
    }
    let last_token = p.tokens[last].clone();
    match last_token.kind {
        TokKind::Indent | TokKind::Dedent => {
            let line = p.tokens.last().map_or(0, |t| t.line);
            let msg = if last_token.kind == TokKind::Indent {
                "unexpected indent"
            } else {
                "unexpected unindent"
            };
            Err(SyntaxErr {
                class: ErrorClass::Indentation,
                msg: msg.into(),
                line,
            })
        }
        _ => {
            p.err = Some(SyntaxErr::syntax("invalid syntax", last_token.line));
            Err(p.finish_with_error())
        }
    }
}

impl Parser {
    fn new(source: &str) -> Self {
        Parser {
            tok: Tokenizer::new(source),
            tokens: Vec::new(),
            mark: 0,
            err: None,
            tok_failed: false,
            invalid: false,
            depth: 0,
            memo: HashMap::new(),
            args_memo: HashMap::new(),
            invalid_named_tried: HashSet::new(),
        }
    }

    /// A specialised error stands unless the tokenizer is still mid-input: then the
    /// rest is tokenized and a tokenizer error there wins (CPython skips the scan once
    /// the tokenizer has met the end of the input).
    fn keep_or_replace_error(&mut self) -> SyntaxErr {
        if self.tok.reached_eof() {
            return self
                .err
                .take()
                .unwrap_or_else(|| SyntaxErr::syntax("invalid syntax", 0));
        }
        self.finish_with_error()
    }

    /// `_PyPegen_tokenize_full_source_to_check_for_errors`: a tokenizer error anywhere
    /// after the failure point replaces the parser's error.
    fn finish_with_error(&mut self) -> SyntaxErr {
        let current = self
            .err
            .take()
            .unwrap_or_else(|| SyntaxErr::syntax("invalid syntax", 0));
        let current_line = self.tokens.last().map_or(0, |t| t.line);
        loop {
            match self.tok.next_token() {
                Ok(t) if t.kind == TokKind::EndMarker => return current,
                Ok(_) => {}
                Err(TokError::Raised(e)) => return e,
                Err(TokError::Flagged(_)) => {
                    if let Some((paren, line)) = self.tok.innermost_paren() {
                        if current_line > line {
                            return SyntaxErr::syntax(format!("'{paren}' was never closed"), line);
                        }
                    }
                    return current;
                }
                Err(TokError::EofInParens { paren, line }) => {
                    if current_line > line {
                        return SyntaxErr::syntax(format!("'{paren}' was never closed"), line);
                    }
                    return current;
                }
                Err(TokError::EofAfterContinuation { .. }) => {
                    if let Some((paren, line)) = self.tok.innermost_paren() {
                        if current_line > line {
                            return SyntaxErr::syntax(format!("'{paren}' was never closed"), line);
                        }
                    }
                    return current;
                }
            }
        }
    }

    // ----- tokens --------------------------------------------------------------------

    fn fill(&mut self) -> bool {
        if self.err.is_some() {
            return false;
        }
        match self.tok.next_token() {
            Ok(t) => {
                self.tokens.push(t);
                true
            }
            Err(e) => {
                let line = self.tok.lineno();
                self.tokens.push(Token {
                    kind: TokKind::Op,
                    text: String::new(),
                    line,
                    level: self.tok.level(),
                });
                self.tok_failed = true;
                self.err = Some(match e {
                    TokError::Raised(e) | TokError::Flagged(e) => e,
                    TokError::EofInParens { paren, line } => {
                        SyntaxErr::syntax(format!("'{paren}' was never closed"), line)
                    }
                    TokError::EofAfterContinuation { line } => match self.tok.innermost_paren() {
                        Some((paren, pline)) => {
                            SyntaxErr::syntax(format!("'{paren}' was never closed"), pline)
                        }
                        None => SyntaxErr::syntax("unexpected EOF while parsing", line),
                    },
                });
                false
            }
        }
    }

    fn tok_at(&mut self, i: usize) -> Option<&Token> {
        while self.tokens.len() <= i {
            if !self.fill() {
                return None;
            }
        }
        if self.err.is_some() {
            return None;
        }
        self.tokens.get(i)
    }

    fn cur(&mut self) -> Option<&Token> {
        let m = self.mark;
        self.tok_at(m)
    }

    fn line(&mut self) -> u32 {
        self.cur().map_or(0, |t| t.line)
    }

    fn advance(&mut self) -> Option<Token> {
        let t = self.cur()?.clone();
        self.mark += 1;
        Some(t)
    }

    fn op(&mut self, s: &str) -> Option<Token> {
        let t = self.cur()?;
        if t.kind == TokKind::Op && t.text == s {
            self.advance()
        } else {
            None
        }
    }

    fn kw(&mut self, s: &str) -> Option<Token> {
        let t = self.cur()?;
        if t.kind == TokKind::Name && t.text == s {
            self.advance()
        } else {
            None
        }
    }

    fn kind(&mut self, k: TokKind) -> Option<Token> {
        let t = self.cur()?;
        if t.kind == k {
            self.advance()
        } else {
            None
        }
    }

    /// A NAME token that is not a keyword.
    fn name_tok(&mut self) -> Option<Token> {
        let t = self.cur()?;
        if t.kind == TokKind::Name && !KEYWORDS.contains(&t.text.as_str()) {
            self.advance()
        } else {
            None
        }
    }

    fn name(&mut self) -> Option<Expr> {
        let t = self.name_tok()?;
        Some(Expr::new(ExprKind::Name(t.text), t.line))
    }

    fn soft_keyword(&mut self) -> Option<Token> {
        let t = self.cur()?;
        if t.kind == TokKind::Name && SOFT_KEYWORDS.contains(&t.text.as_str()) {
            self.advance()
        } else {
            None
        }
    }

    fn failed(&self) -> bool {
        self.err.is_some()
    }

    /// Runs `f` as a lookahead: reports whether it matched, consumes nothing.
    fn ahead<T>(&mut self, f: impl FnOnce(&mut Self) -> Option<T>) -> bool {
        let m = self.mark;
        let r = f(self).is_some();
        self.mark = m;
        r
    }

    fn raise(&mut self, msg: impl Into<String>, line: u32) {
        if self.err.is_none() {
            self.err = Some(SyntaxErr::syntax(msg, line));
        }
    }

    /// `RAISE_SYNTAX_ERROR` without a location: the last token fetched.
    fn raise_here(&mut self, msg: impl Into<String>) {
        let line = self.tokens.last().map_or(0, |t| t.line);
        self.raise(msg, line);
    }

    fn memoized(&mut self, rule: Rule, f: impl FnOnce(&mut Self) -> Option<Expr>) -> Option<Expr> {
        if self.failed() {
            return None;
        }
        // Entering a memoized rule fetches the token at the current position.
        self.cur()?;
        let start = self.mark;
        if let Some((r, end)) = self.memo.get(&(rule, start)) {
            let (r, end) = (r.clone(), *end);
            self.mark = end;
            return r;
        }
        if !self.enter() {
            return None;
        }
        let r = f(self);
        self.depth -= 1;
        if self.failed() {
            return None;
        }
        self.memo.insert((rule, start), (r.clone(), self.mark));
        r
    }

    /// Counts one more nested rule; false (with the error set) past [`MAX_DEPTH`].
    fn enter(&mut self) -> bool {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            if self.err.is_none() {
                self.err = Some(SyntaxErr {
                    class: ErrorClass::Memory,
                    msg: String::new(),
                    line: 0,
                });
            }
            // Like CPython's MemoryError, no tokenizer error replaces it.
            self.tok_failed = true;
            return false;
        }
        true
    }

    /// A left-recursive rule: grow the seed while the result gets longer.
    fn left_recursive(
        &mut self,
        rule: Rule,
        raw: impl Fn(&mut Self) -> Option<Expr>,
    ) -> Option<Expr> {
        if self.failed() {
            return None;
        }
        self.cur()?;
        let start = self.mark;
        if let Some((r, end)) = self.memo.get(&(rule, start)) {
            let (r, end) = (r.clone(), *end);
            self.mark = end;
            return r;
        }
        if !self.enter() {
            return None;
        }
        self.memo.insert((rule, start), (None, start));
        let mut best: Option<Expr> = None;
        let mut best_end = start;
        loop {
            self.mark = start;
            let r = raw(self);
            if self.failed() {
                self.depth -= 1;
                return None;
            }
            let end = self.mark;
            if r.is_none() || end <= best_end {
                break;
            }
            best = r;
            best_end = end;
            self.memo.insert((rule, start), (best.clone(), best_end));
        }
        self.depth -= 1;
        self.mark = best_end;
        best
    }

    // ----- start rule ------------------------------------------------------------------

    fn eval(&mut self) -> Option<Expr> {
        let a = self.expressions()?;
        while self.kind(TokKind::Newline).is_some() {}
        if self.failed() {
            return None;
        }
        self.kind(TokKind::EndMarker)?;
        Some(a)
    }

    fn expressions(&mut self) -> Option<Expr> {
        self.comma_tuple(Self::expression)
    }

    /// `item (',' item)+ [','] | item ',' | item`: CPython's `expressions` and
    /// `star_expressions`, which differ only in their item.
    fn comma_tuple(&mut self, item: fn(&mut Self) -> Option<Expr>) -> Option<Expr> {
        let m = self.mark;
        if let Some(a) = item(self) {
            let line = a.line;
            let mut items = vec![a];
            loop {
                let m2 = self.mark;
                if self.op(",").is_some() {
                    if let Some(c) = item(self) {
                        items.push(c);
                        continue;
                    }
                }
                if self.failed() {
                    return None;
                }
                self.mark = m2;
                break;
            }
            if items.len() > 1 {
                let m3 = self.mark;
                if self.op(",").is_none() {
                    self.mark = m3;
                }
                if self.failed() {
                    return None;
                }
                return Some(Expr::new(ExprKind::Tuple(items), line));
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        if let Some(a) = item(self) {
            if self.op(",").is_some() {
                let line = a.line;
                return Some(Expr::new(ExprKind::Tuple(vec![a]), line));
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        item(self)
    }

    // ----- expressions -----------------------------------------------------------------

    fn expression(&mut self) -> Option<Expr> {
        self.memoized(Rule::Expression, |p| {
            let m = p.mark;
            if p.invalid {
                p.invalid_expression();
                if p.failed() {
                    return None;
                }
                p.mark = m;
                p.invalid_legacy_expression();
                if p.failed() {
                    return None;
                }
                p.mark = m;
            }
            if let Some(a) = p.disjunction() {
                if p.kw("if").is_some()
                    && p.disjunction().is_some()
                    && p.kw("else").is_some()
                    && p.expression().is_some()
                {
                    return Some(Expr::over(ExprKind::IfExp, a.line, &a));
                }
            }
            if p.failed() {
                return None;
            }
            p.mark = m;
            if let Some(d) = p.disjunction() {
                return Some(d);
            }
            if p.failed() {
                return None;
            }
            p.mark = m;
            p.lambdef()
        })
    }

    /// `expression_without_invalid`: `expression` with the error pass switched off.
    fn expression_without_invalid(&mut self) -> Option<Expr> {
        let saved = self.invalid;
        self.invalid = false;
        let m = self.mark;
        let r = (|| {
            if let Some(a) = self.disjunction() {
                if self.kw("if").is_some()
                    && self.disjunction().is_some()
                    && self.kw("else").is_some()
                    && self.expression().is_some()
                {
                    return Some(Expr::over(ExprKind::IfExp, a.line, &a));
                }
            }
            if self.failed() {
                return None;
            }
            self.mark = m;
            if let Some(d) = self.disjunction() {
                return Some(d);
            }
            if self.failed() {
                return None;
            }
            self.mark = m;
            self.lambdef()
        })();
        self.invalid = saved;
        r
    }

    fn invalid_legacy_expression(&mut self) {
        let Some(a) = self.name_tok() else { return };
        if self.ahead(|p| p.op("(")) {
            return;
        }
        if self.failed() {
            return;
        }
        if self.star_expressions().is_some() && (a.text == "print" || a.text == "exec") {
            self.raise(
                format!(
                    "Missing parentheses in call to '{0}'. Did you mean {0}(...)?",
                    a.text
                ),
                a.line,
            );
        }
    }

    fn invalid_expression(&mut self) {
        let m = self.mark;
        let excluded = self.ahead(|p| {
            let m = p.mark;
            if p.name_tok().is_some() && p.kind(TokKind::Str).is_some() {
                return Some(());
            }
            p.mark = m;
            p.soft_keyword().map(|_| ())
        });
        if self.failed() {
            return;
        }
        if !excluded {
            if let Some(a) = self.disjunction() {
                if self.expression_without_invalid().is_some() {
                    let legacy =
                        matches!(&*a.kind, ExprKind::Name(n) if n == "print" || n == "exec");
                    let level = self.tokens[self.mark - 1].level;
                    if !legacy && level != 0 {
                        self.raise("invalid syntax. Perhaps you forgot a comma?", a.line);
                    }
                    // The alternative matched: its action ends the rule.
                    return;
                }
            }
            if self.failed() {
                return;
            }
        }
        self.mark = m;
        if let Some(a) = self.disjunction() {
            if self.kw("if").is_some() && self.disjunction().is_some() {
                let followed = self.ahead(|p| {
                    let m = p.mark;
                    if p.kw("else").is_some() {
                        return Some(());
                    }
                    p.mark = m;
                    p.op(":").map(|_| ())
                });
                if !followed && !self.failed() {
                    self.raise("expected 'else' after 'if' expression", a.line);
                }
            }
        }
    }

    fn yield_expr(&mut self) -> Option<Expr> {
        let m = self.mark;
        if let Some(t) = self.kw("yield") {
            if self.kw("from").is_some() && self.expression().is_some() {
                return Some(Expr::new(ExprKind::YieldFrom, t.line));
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        let t = self.kw("yield")?;
        let m2 = self.mark;
        if self.star_expressions().is_none() {
            if self.failed() {
                return None;
            }
            self.mark = m2;
        }
        Some(Expr::new(ExprKind::Yield, t.line))
    }

    fn star_expressions(&mut self) -> Option<Expr> {
        self.comma_tuple(Self::star_expression)
    }

    fn star_expression(&mut self) -> Option<Expr> {
        self.memoized(Rule::StarExpression, |p| {
            let m = p.mark;
            if let Some(t) = p.op("*") {
                if let Some(a) = p.bitwise_or() {
                    return Some(Expr::new(ExprKind::Starred(Box::new(a)), t.line));
                }
            }
            if p.failed() {
                return None;
            }
            p.mark = m;
            p.expression()
        })
    }

    /// `','.star_named_expression+ [',']`
    fn star_named_expressions(&mut self) -> Option<Vec<Expr>> {
        let first = self.star_named_expression()?;
        let mut items = vec![first];
        loop {
            let m = self.mark;
            if self.op(",").is_some() {
                if let Some(e) = self.star_named_expression() {
                    items.push(e);
                    continue;
                }
            }
            if self.failed() {
                return None;
            }
            self.mark = m;
            break;
        }
        let m = self.mark;
        if self.op(",").is_none() {
            if self.failed() {
                return None;
            }
            self.mark = m;
        }
        Some(items)
    }

    fn star_named_expression(&mut self) -> Option<Expr> {
        let m = self.mark;
        if let Some(t) = self.op("*") {
            if let Some(a) = self.bitwise_or() {
                return Some(Expr::new(ExprKind::Starred(Box::new(a)), t.line));
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        self.named_expression()
    }

    fn assignment_expression(&mut self) -> Option<Expr> {
        let a = self.name_tok()?;
        self.op(":=")?;
        self.expression()?;
        Some(Expr::new(ExprKind::NamedExpr, a.line))
    }

    fn named_expression(&mut self) -> Option<Expr> {
        let m = self.mark;
        if let Some(e) = self.assignment_expression() {
            return Some(e);
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        if self.invalid {
            self.invalid_named_expression();
            if self.failed() {
                return None;
            }
            self.mark = m;
        }
        let e = self.expression()?;
        if self.ahead(|p| p.op(":=")) || self.failed() {
            return None;
        }
        Some(e)
    }

    fn not_assign_follows(&mut self) -> bool {
        let followed = self.ahead(|p| {
            let m = p.mark;
            if p.op("=").is_some() {
                return Some(());
            }
            p.mark = m;
            p.op(":=").map(|_| ())
        });
        !followed && !self.failed()
    }

    fn invalid_named_expression(&mut self) {
        // Memoized in CPython: it only ever raises, so a position tried once without
        // raising is not tried again. Without this, the lookahead below (lists, tuples
        // and generators, which do not memoize) re-parses nested brackets exponentially
        // often (`{{{{…`: seconds at 20 deep).
        let m = self.mark;
        if !self.invalid_named_tried.insert(m) {
            return;
        }
        if let Some(a) = self.expression() {
            if self.op(":=").is_some() && self.expression().is_some() {
                let msg = format!("cannot use assignment expressions with {}", a.expr_name());
                self.raise(msg, a.line);
                return;
            }
        }
        if self.failed() {
            return;
        }
        self.mark = m;
        if let Some(a) = self.name_tok() {
            if self.op("=").is_some() && self.bitwise_or().is_some() && self.not_assign_follows() {
                self.raise(
                    "invalid syntax. Maybe you meant '==' or ':=' instead of '='?",
                    a.line,
                );
                return;
            }
        }
        if self.failed() {
            return;
        }
        self.mark = m;
        let excluded = self.ahead(|p| {
            let m = p.mark;
            if p.list().is_some() {
                return Some(());
            }
            p.mark = m;
            if p.tuple().is_some() {
                return Some(());
            }
            p.mark = m;
            if p.genexp().is_some() {
                return Some(());
            }
            p.mark = m;
            for k in ["True", "None", "False"] {
                if p.kw(k).is_some() {
                    return Some(());
                }
                p.mark = m;
            }
            None
        });
        if excluded || self.failed() {
            return;
        }
        if let Some(a) = self.bitwise_or() {
            if self.op("=").is_some() && self.bitwise_or().is_some() && self.not_assign_follows() {
                let msg = format!(
                    "cannot assign to {} here. Maybe you meant '==' instead of '='?",
                    a.expr_name()
                );
                self.raise(msg, a.line);
            }
        }
    }

    fn disjunction(&mut self) -> Option<Expr> {
        self.memoized(Rule::Disjunction, |p| {
            let m = p.mark;
            if let Some(a) = p.conjunction() {
                let mut n = 0;
                loop {
                    let m2 = p.mark;
                    if p.kw("or").is_some() && p.conjunction().is_some() {
                        n += 1;
                        continue;
                    }
                    if p.failed() {
                        return None;
                    }
                    p.mark = m2;
                    break;
                }
                if n > 0 {
                    return Some(Expr::over(ExprKind::BoolOp, a.line, &a));
                }
            }
            if p.failed() {
                return None;
            }
            p.mark = m;
            p.conjunction()
        })
    }

    fn conjunction(&mut self) -> Option<Expr> {
        self.memoized(Rule::Conjunction, |p| {
            let m = p.mark;
            if let Some(a) = p.inversion() {
                let mut n = 0;
                loop {
                    let m2 = p.mark;
                    if p.kw("and").is_some() && p.inversion().is_some() {
                        n += 1;
                        continue;
                    }
                    if p.failed() {
                        return None;
                    }
                    p.mark = m2;
                    break;
                }
                if n > 0 {
                    return Some(Expr::over(ExprKind::BoolOp, a.line, &a));
                }
            }
            if p.failed() {
                return None;
            }
            p.mark = m;
            p.inversion()
        })
    }

    fn inversion(&mut self) -> Option<Expr> {
        self.memoized(Rule::Inversion, |p| {
            let m = p.mark;
            if let Some(t) = p.kw("not") {
                if let Some(a) = p.inversion() {
                    return Some(Expr::new(
                        ExprKind::UnaryOp(UnaryOpKind::Not, Box::new(a)),
                        t.line,
                    ));
                }
            }
            if p.failed() {
                return None;
            }
            p.mark = m;
            p.comparison()
        })
    }

    fn comparison(&mut self) -> Option<Expr> {
        let m = self.mark;
        if let Some(a) = self.bitwise_or() {
            let mut ops = Vec::new();
            let mut rights = Vec::new();
            while let Some((op, b)) = self.compare_op_pair() {
                ops.push(op);
                rights.push(b);
            }
            if self.failed() {
                return None;
            }
            if !ops.is_empty() {
                let line = a.line;
                return Some(Expr::new(ExprKind::Compare(Box::new(a), ops, rights), line));
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        self.bitwise_or()
    }

    fn compare_op_pair(&mut self) -> Option<(CmpOpKind, Expr)> {
        let m = self.mark;
        for op in ["==", "!=", "<=", "<", ">=", ">"] {
            if self.op(op).is_some() {
                if let Some(b) = self.bitwise_or() {
                    return Some((CmpOpKind::Other, b));
                }
            }
            if self.failed() {
                return None;
            }
            self.mark = m;
        }
        if self.kw("not").is_some() && self.kw("in").is_some() {
            if let Some(b) = self.bitwise_or() {
                return Some((CmpOpKind::Other, b));
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        if self.kw("in").is_some() {
            if let Some(b) = self.bitwise_or() {
                return Some((CmpOpKind::In, b));
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        if self.kw("is").is_some() && self.kw("not").is_some() {
            if let Some(b) = self.bitwise_or() {
                return Some((CmpOpKind::Other, b));
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        if self.kw("is").is_some() {
            if let Some(b) = self.bitwise_or() {
                return Some((CmpOpKind::Other, b));
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        None
    }

    /// The binary operator levels from `|` down to `+`/`-`, left-recursive in the
    /// grammar; each grows a seed with its operators over the next level.
    fn bitwise_or(&mut self) -> Option<Expr> {
        self.memoized(Rule::BitwiseOr, |p| p.binary_level(0))
    }

    fn binary_level(&mut self, level: usize) -> Option<Expr> {
        const LEVELS: [&[&str]; 5] = [&["|"], &["^"], &["&"], &["<<", ">>"], &["+", "-"]];
        if level == LEVELS.len() {
            return self.term();
        }
        let mut a = self.binary_level(level + 1)?;
        'grow: loop {
            for op in LEVELS[level] {
                let m = self.mark;
                if self.op(op).is_some() {
                    if let Some(b) = self.binary_level(level + 1) {
                        let kind = match *op {
                            "+" => BinOpKind::Add,
                            "-" => BinOpKind::Sub,
                            _ => BinOpKind::Other,
                        };
                        let line = a.line;
                        a = Expr::new(ExprKind::BinOp(Box::new(a), kind, Box::new(b)), line);
                        continue 'grow;
                    }
                }
                if self.failed() {
                    return None;
                }
                self.mark = m;
            }
            return Some(a);
        }
    }

    fn term(&mut self) -> Option<Expr> {
        let mut a = self.factor()?;
        'grow: loop {
            for op in ["*", "/", "//", "%", "@"] {
                let m = self.mark;
                if self.op(op).is_some() {
                    if let Some(b) = self.factor() {
                        let line = a.line;
                        a = Expr::new(
                            ExprKind::BinOp(Box::new(a), BinOpKind::Other, Box::new(b)),
                            line,
                        );
                        continue 'grow;
                    }
                }
                if self.failed() {
                    return None;
                }
                self.mark = m;
            }
            return Some(a);
        }
    }

    fn factor(&mut self) -> Option<Expr> {
        self.memoized(Rule::Factor, |p| {
            let m = p.mark;
            for (op, kind) in [
                ("+", UnaryOpKind::UAdd),
                ("-", UnaryOpKind::USub),
                ("~", UnaryOpKind::Invert),
            ] {
                if let Some(t) = p.op(op) {
                    if let Some(a) = p.factor() {
                        return Some(Expr::new(ExprKind::UnaryOp(kind, Box::new(a)), t.line));
                    }
                }
                if p.failed() {
                    return None;
                }
                p.mark = m;
            }
            p.power()
        })
    }

    fn power(&mut self) -> Option<Expr> {
        let m = self.mark;
        if let Some(a) = self.await_primary() {
            if self.op("**").is_some() {
                if let Some(b) = self.factor() {
                    let line = a.line;
                    return Some(Expr::new(
                        ExprKind::BinOp(Box::new(a), BinOpKind::Other, Box::new(b)),
                        line,
                    ));
                }
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        self.await_primary()
    }

    fn await_primary(&mut self) -> Option<Expr> {
        self.memoized(Rule::AwaitPrimary, |p| {
            let m = p.mark;
            if let Some(t) = p.kw("await") {
                if p.primary().is_some() {
                    return Some(Expr::new(ExprKind::Await, t.line));
                }
            }
            if p.failed() {
                return None;
            }
            p.mark = m;
            p.primary()
        })
    }

    fn primary(&mut self) -> Option<Expr> {
        self.left_recursive(Rule::Primary, |p| {
            let start = p.mark;
            // Alternatives starting with `primary` use the memoized seed.
            if let Some(a) = p.memo_seed(Rule::Primary, start) {
                let after = p.mark;
                if p.op(".").is_some() && p.name_tok().is_some() {
                    return Some(Expr::over(ExprKind::Attribute, a.line, &a));
                }
                if p.failed() {
                    return None;
                }
                p.mark = after;
                if let Some(g) = p.genexp() {
                    let line = a.line;
                    return Some(Expr::new(
                        ExprKind::Call {
                            func: Box::new(a),
                            args: vec![g],
                            keywords: vec![],
                        },
                        line,
                    ));
                }
                if p.failed() {
                    return None;
                }
                p.mark = after;
                if p.op("(").is_some() {
                    let m2 = p.mark;
                    let args = match p.arguments() {
                        Some(a) => a,
                        None => {
                            if p.failed() {
                                return None;
                            }
                            p.mark = m2;
                            CallArgs::default()
                        }
                    };
                    if p.op(")").is_some() {
                        let line = a.line;
                        return Some(Expr::new(
                            ExprKind::Call {
                                func: Box::new(a),
                                args: args.args,
                                keywords: args.keywords,
                            },
                            line,
                        ));
                    }
                }
                if p.failed() {
                    return None;
                }
                p.mark = after;
                if p.op("[").is_some() && p.slices().is_some() && p.op("]").is_some() {
                    return Some(Expr::over(ExprKind::Subscript, a.line, &a));
                }
                if p.failed() {
                    return None;
                }
            }
            p.mark = start;
            p.atom()
        })
    }

    /// The current seed of a left-recursive rule at `start`, moving past it.
    fn memo_seed(&mut self, rule: Rule, start: usize) -> Option<Expr> {
        let (r, end) = self.memo.get(&(rule, start))?.clone();
        let r = r?;
        self.mark = end;
        Some(r)
    }

    fn slices(&mut self) -> Option<Expr> {
        let m = self.mark;
        if let Some(a) = self.slice() {
            if !self.ahead(|p| p.op(",")) && !self.failed() {
                return Some(a);
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        let line = self.line();
        let first = self.slice_or_starred()?;
        let mut n = 1;
        loop {
            let m2 = self.mark;
            if self.op(",").is_some() && self.slice_or_starred().is_some() {
                n += 1;
                continue;
            }
            if self.failed() {
                return None;
            }
            self.mark = m2;
            break;
        }
        let _ = (first, n);
        let m3 = self.mark;
        if self.op(",").is_none() {
            self.mark = m3;
        }
        if self.failed() {
            return None;
        }
        Some(Expr::new(ExprKind::Tuple(vec![]), line))
    }

    fn slice_or_starred(&mut self) -> Option<Expr> {
        let m = self.mark;
        if let Some(s) = self.slice() {
            return Some(s);
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        self.starred_expression()
    }

    fn slice(&mut self) -> Option<Expr> {
        let m = self.mark;
        let line = self.line();
        let m1 = self.mark;
        if self.expression().is_none() {
            if self.failed() {
                return None;
            }
            self.mark = m1;
        }
        if self.op(":").is_some() {
            let m2 = self.mark;
            if self.expression().is_none() {
                if self.failed() {
                    return None;
                }
                self.mark = m2;
            }
            let m3 = self.mark;
            let ok = self.op(":").is_some() && {
                let m4 = self.mark;
                if self.expression().is_none() {
                    if self.failed() {
                        return None;
                    }
                    self.mark = m4;
                }
                true
            };
            if !ok {
                if self.failed() {
                    return None;
                }
                self.mark = m3;
            }
            return Some(Expr::new(ExprKind::Slice, line));
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        self.named_expression()
    }

    fn atom(&mut self) -> Option<Expr> {
        let t = self.cur()?.clone();
        match t.kind {
            TokKind::Name => match t.text.as_str() {
                "True" => {
                    self.mark += 1;
                    Some(Expr::new(ExprKind::Constant(PyValue::Bool(true)), t.line))
                }
                "False" => {
                    self.mark += 1;
                    Some(Expr::new(ExprKind::Constant(PyValue::Bool(false)), t.line))
                }
                "None" => {
                    self.mark += 1;
                    Some(Expr::new(ExprKind::Constant(PyValue::None), t.line))
                }
                _ => self.name(),
            },
            TokKind::Str => self.strings(),
            TokKind::Number => {
                self.mark += 1;
                // `_PyPegen_number_token`: a decimal literal past the digit limit is an
                // error raised at once, even in the first pass.
                match number_value(&t.text) {
                    Ok(v) => Some(Expr::new(ExprKind::Constant(v), t.line)),
                    Err(msg) => {
                        self.raise(msg, t.line);
                        None
                    }
                }
            }
            TokKind::Op => match t.text.as_str() {
                "(" => {
                    let m = self.mark;
                    if let Some(e) = self.tuple() {
                        return Some(e);
                    }
                    if self.failed() {
                        return None;
                    }
                    self.mark = m;
                    if let Some(e) = self.group() {
                        return Some(e);
                    }
                    if self.failed() {
                        return None;
                    }
                    self.mark = m;
                    self.genexp()
                }
                "[" => {
                    let m = self.mark;
                    if let Some(e) = self.list() {
                        return Some(e);
                    }
                    if self.failed() {
                        return None;
                    }
                    self.mark = m;
                    self.listcomp()
                }
                "{" => {
                    let m = self.mark;
                    if let Some(e) = self.dict() {
                        return Some(e);
                    }
                    if self.failed() {
                        return None;
                    }
                    self.mark = m;
                    if let Some(e) = self.set() {
                        return Some(e);
                    }
                    if self.failed() {
                        return None;
                    }
                    self.mark = m;
                    if let Some(e) = self.dictcomp() {
                        return Some(e);
                    }
                    if self.failed() {
                        return None;
                    }
                    self.mark = m;
                    self.setcomp()
                }
                "..." => {
                    self.mark += 1;
                    Some(Expr::new(ExprKind::Constant(PyValue::Ellipsis), t.line))
                }
                _ => None,
            },
            _ => None,
        }
    }

    fn strings(&mut self) -> Option<Expr> {
        self.memoized(Rule::Strings, |p| {
            let mut toks = Vec::new();
            while let Some(t) = p.kind(TokKind::Str) {
                toks.push((t.text, t.line));
            }
            if p.failed() || toks.is_empty() {
                return None;
            }
            let error_line = p.tokens.last().map_or(0, |t| t.line);
            match strings::concatenate(&toks, error_line) {
                Ok(e) => Some(e),
                Err(e) => {
                    if p.err.is_none() {
                        p.err = Some(e);
                    }
                    None
                }
            }
        })
    }

    fn group(&mut self) -> Option<Expr> {
        let m = self.mark;
        if self.op("(").is_some() {
            let m2 = self.mark;
            let inner = match self.yield_expr() {
                Some(e) => Some(e),
                None => {
                    if self.failed() {
                        return None;
                    }
                    self.mark = m2;
                    self.named_expression()
                }
            };
            if let Some(e) = inner {
                if self.op(")").is_some() {
                    return Some(e);
                }
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        if self.invalid {
            self.invalid_group();
        }
        None
    }

    fn invalid_group(&mut self) {
        let m = self.mark;
        if self.op("(").is_some() {
            if let Some(a) = self.starred_expression() {
                if self.op(")").is_some() {
                    self.raise("cannot use starred expression here", a.line);
                    return;
                }
            }
        }
        if self.failed() {
            return;
        }
        self.mark = m;
        if self.op("(").is_some() {
            if let Some(a) = self.op("**") {
                if self.expression().is_some() && self.op(")").is_some() {
                    self.raise("cannot use double starred expression here", a.line);
                }
            }
        }
    }

    fn lambdef(&mut self) -> Option<Expr> {
        let t = self.kw("lambda")?;
        let m = self.mark;
        if self.lambda_params().is_none() {
            if self.failed() {
                return None;
            }
            self.mark = m;
        }
        self.op(":")?;
        self.expression()?;
        Some(Expr::new(ExprKind::Lambda, t.line))
    }

    /// Lambda parameters: names with defaults, `*`, `**` and `/`, separated by commas
    /// and followed by `:` (a simplification of the grammar's parameter rules).
    fn lambda_params(&mut self) -> Option<()> {
        if self.invalid {
            self.invalid_lambda_parameters();
            if self.failed() {
                return None;
            }
        }
        let mut any = false;
        loop {
            let m = self.mark;
            if self.invalid && self.ahead(|p| p.op("*")) {
                // invalid_lambda_star_etc: `'*' (':' | ',' (':' | '**'))`
                let bare = self.ahead(|p| {
                    p.op("*")?;
                    if p.op(":").is_some() {
                        return Some(());
                    }
                    p.op(",")?;
                    if p.op(":").is_some() {
                        return Some(());
                    }
                    p.op("**").map(|_| ())
                });
                if bare {
                    self.raise_here("named arguments must follow bare *");
                    return None;
                }
            }
            let ok = if self.op("/").is_some() {
                true
            } else if self.op("**").is_some() || self.op("*").is_some() {
                let m2 = self.mark;
                if self.name_tok().is_none() {
                    self.mark = m2;
                }
                true
            } else if self.name_tok().is_some() {
                let m2 = self.mark;
                if !(self.op("=").is_some() && self.expression().is_some()) {
                    if self.failed() {
                        return None;
                    }
                    self.mark = m2;
                }
                true
            } else {
                false
            };
            if self.failed() {
                return None;
            }
            if !ok {
                self.mark = m;
                break;
            }
            any = true;
            if self.ahead(|p| p.op(":")) {
                break;
            }
            if self.op(",").is_none() {
                self.mark = m;
                return None;
            }
        }
        any.then_some(())
    }

    /// The parenthesised-parameters case of `invalid_lambda_parameters`.
    fn invalid_lambda_parameters(&mut self) {
        let m = self.mark;
        loop {
            let m2 = self.mark;
            if self.name_tok().is_some() && (self.op(",").is_some() || self.ahead(|p| p.op(":"))) {
                continue;
            }
            if self.failed() {
                return;
            }
            self.mark = m2;
            break;
        }
        if let Some(a) = self.op("(") {
            if self.name_tok().is_some() {
                loop {
                    let m3 = self.mark;
                    if self.op(",").is_some() && self.name_tok().is_some() {
                        continue;
                    }
                    if self.failed() {
                        return;
                    }
                    self.mark = m3;
                    break;
                }
                let m4 = self.mark;
                if self.op(",").is_none() {
                    self.mark = m4;
                }
                if self.op(")").is_some() {
                    self.raise(
                        "Lambda expression parameters cannot be parenthesized",
                        a.line,
                    );
                    return;
                }
            }
        }
        self.mark = m;
    }

    fn list(&mut self) -> Option<Expr> {
        let t = self.op("[")?;
        let m = self.mark;
        let items = match self.star_named_expressions() {
            Some(v) => v,
            None => {
                if self.failed() {
                    return None;
                }
                self.mark = m;
                vec![]
            }
        };
        self.op("]")?;
        Some(Expr::new(ExprKind::List(items), t.line))
    }

    fn tuple(&mut self) -> Option<Expr> {
        let t = self.op("(")?;
        let m = self.mark;
        let mut items = Vec::new();
        let mut matched = false;
        if let Some(y) = self.star_named_expression() {
            if self.op(",").is_some() {
                items.push(y);
                let m2 = self.mark;
                match self.star_named_expressions() {
                    Some(z) => items.extend(z),
                    None => {
                        if self.failed() {
                            return None;
                        }
                        self.mark = m2;
                    }
                }
                matched = true;
            }
        }
        if self.failed() {
            return None;
        }
        if !matched {
            self.mark = m;
        }
        self.op(")")?;
        Some(Expr::new(ExprKind::Tuple(items), t.line))
    }

    fn set(&mut self) -> Option<Expr> {
        let t = self.op("{")?;
        let items = self.star_named_expressions()?;
        self.op("}")?;
        Some(Expr::new(ExprKind::Set(items), t.line))
    }

    fn dict(&mut self) -> Option<Expr> {
        let m = self.mark;
        if let Some(t) = self.op("{") {
            let m2 = self.mark;
            let pairs = match self.double_starred_kvpairs() {
                Some(p) => p,
                None => {
                    if self.failed() {
                        return None;
                    }
                    self.mark = m2;
                    vec![]
                }
            };
            if self.op("}").is_some() {
                return Some(Expr::new(ExprKind::Dict(pairs), t.line));
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        if self.invalid && self.op("{").is_some() {
            self.invalid_double_starred_kvpairs();
            if self.failed() {
                return None;
            }
        }
        None
    }

    fn double_starred_kvpairs(&mut self) -> Option<Vec<(Option<Expr>, Expr)>> {
        let first = self.double_starred_kvpair()?;
        let mut pairs = vec![first];
        loop {
            let m = self.mark;
            if self.op(",").is_some() {
                if let Some(p) = self.double_starred_kvpair() {
                    pairs.push(p);
                    continue;
                }
            }
            if self.failed() {
                return None;
            }
            self.mark = m;
            break;
        }
        let m = self.mark;
        if self.op(",").is_none() {
            if self.failed() {
                return None;
            }
            self.mark = m;
        }
        Some(pairs)
    }

    fn double_starred_kvpair(&mut self) -> Option<(Option<Expr>, Expr)> {
        let m = self.mark;
        if self.op("**").is_some() {
            if let Some(a) = self.bitwise_or() {
                return Some((None, a));
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        let (k, v) = self.kvpair()?;
        Some((Some(k), v))
    }

    fn kvpair(&mut self) -> Option<(Expr, Expr)> {
        let a = self.expression()?;
        self.op(":")?;
        let b = self.expression()?;
        Some((a, b))
    }

    fn invalid_double_starred_kvpairs(&mut self) {
        let m = self.mark;
        // ','.double_starred_kvpair+ ',' invalid_kvpair
        if self.double_starred_kvpair().is_some() {
            loop {
                let m2 = self.mark;
                if self.op(",").is_some() && self.double_starred_kvpair().is_some() {
                    continue;
                }
                if self.failed() {
                    return;
                }
                self.mark = m2;
                break;
            }
            if self.op(",").is_some() {
                self.invalid_kvpair();
                if self.failed() {
                    return;
                }
            }
        }
        if self.failed() {
            return;
        }
        self.mark = m;
        if self.expression().is_some() && self.op(":").is_some() {
            if let Some(a) = self.op("*") {
                if self.bitwise_or().is_some() {
                    self.raise(
                        "cannot use a starred expression in a dictionary value",
                        a.line,
                    );
                    return;
                }
            }
        }
        if self.failed() {
            return;
        }
        self.mark = m;
        if self.expression().is_some() {
            if let Some(a) = self.op(":") {
                if self.ahead(|p| {
                    let m = p.mark;
                    if p.op("}").is_some() {
                        return Some(());
                    }
                    p.mark = m;
                    p.op(",").map(|_| ())
                }) {
                    self.raise("expression expected after dictionary key and ':'", a.line);
                }
            }
        }
    }

    fn invalid_kvpair(&mut self) {
        let m = self.mark;
        if let Some(a) = self.expression() {
            if !self.ahead(|p| p.op(":")) && !self.failed() {
                self.raise("':' expected after dictionary key", a.line);
                return;
            }
        }
        if self.failed() {
            return;
        }
        self.mark = m;
        if self.expression().is_some() && self.op(":").is_some() {
            if let Some(a) = self.op("*") {
                if self.bitwise_or().is_some() {
                    self.raise(
                        "cannot use a starred expression in a dictionary value",
                        a.line,
                    );
                    return;
                }
            }
        }
        if self.failed() {
            return;
        }
        self.mark = m;
        if self.expression().is_some() {
            if let Some(a) = self.op(":") {
                if self.ahead(|p| {
                    let m = p.mark;
                    if p.op("}").is_some() {
                        return Some(());
                    }
                    p.mark = m;
                    p.op(",").map(|_| ())
                }) {
                    self.raise("expression expected after dictionary key and ':'", a.line);
                }
            }
        }
    }

    // ----- comprehensions ----------------------------------------------------------------

    fn for_if_clauses(&mut self) -> Option<()> {
        self.for_if_clause()?;
        loop {
            let m = self.mark;
            if self.for_if_clause().is_none() {
                if self.failed() {
                    return None;
                }
                self.mark = m;
                return Some(());
            }
        }
    }

    fn for_if_clause(&mut self) -> Option<()> {
        let m = self.mark;
        for is_async in [true, false] {
            self.mark = m;
            if is_async && self.kw("async").is_none() {
                if self.failed() {
                    return None;
                }
                continue;
            }
            if self.kw("for").is_some() && self.star_targets().is_some() && self.kw("in").is_some()
            {
                // Cut: after `in`, no other alternative is tried.
                self.disjunction()?;
                loop {
                    let m2 = self.mark;
                    if self.kw("if").is_some() && self.disjunction().is_some() {
                        continue;
                    }
                    if self.failed() {
                        return None;
                    }
                    self.mark = m2;
                    break;
                }
                return Some(());
            }
            if self.failed() {
                return None;
            }
        }
        self.mark = m;
        if self.invalid {
            let m2 = self.mark;
            if self.kw("async").is_none() {
                self.mark = m2;
            }
            if self.kw("for").is_some() {
                if let Some(a) = self.star_expressions() {
                    if let Some(t) = a.invalid_for_target() {
                        let msg = format!("cannot assign to {}", t.expr_name());
                        let line = t.line;
                        self.raise(msg, line);
                    }
                }
            }
        }
        None
    }

    fn listcomp(&mut self) -> Option<Expr> {
        let m = self.mark;
        if let Some(t) = self.op("[") {
            if let Some(elt) = self.named_expression() {
                if self.for_if_clauses().is_some() && self.op("]").is_some() {
                    return Some(Expr::over(ExprKind::ListComp, t.line, &elt));
                }
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        if self.invalid {
            self.invalid_comprehension();
        }
        None
    }

    fn setcomp(&mut self) -> Option<Expr> {
        let m = self.mark;
        if let Some(t) = self.op("{") {
            if let Some(elt) = self.named_expression() {
                if self.for_if_clauses().is_some() && self.op("}").is_some() {
                    return Some(Expr::over(ExprKind::SetComp, t.line, &elt));
                }
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        if self.invalid {
            self.invalid_comprehension();
        }
        None
    }

    fn genexp(&mut self) -> Option<Expr> {
        let m = self.mark;
        if let Some(t) = self.op("(") {
            let m2 = self.mark;
            let head = match self.assignment_expression() {
                Some(e) => Some(e),
                None => {
                    if self.failed() {
                        return None;
                    }
                    self.mark = m2;
                    match self.expression() {
                        Some(e) if !self.ahead(|p| p.op(":=")) => Some(e),
                        _ => None,
                    }
                }
            };
            if head.is_some() && self.for_if_clauses().is_some() && self.op(")").is_some() {
                return Some(Expr::new(ExprKind::GeneratorExp, t.line));
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        if self.invalid {
            self.invalid_comprehension();
        }
        None
    }

    fn dictcomp(&mut self) -> Option<Expr> {
        let m = self.mark;
        if let Some(t) = self.op("{") {
            if self.kvpair().is_some() && self.for_if_clauses().is_some() && self.op("}").is_some()
            {
                return Some(Expr::new(ExprKind::DictComp, t.line));
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        if self.invalid && self.op("{").is_some() {
            if let Some(a) = self.op("**") {
                if self.bitwise_or().is_some()
                    && self.for_if_clauses().is_some()
                    && self.op("}").is_some()
                {
                    self.raise(
                        "dict unpacking cannot be used in dict comprehension",
                        a.line,
                    );
                }
            }
        }
        None
    }

    fn invalid_comprehension(&mut self) {
        let m = self.mark;
        if self.op("[").is_some() || self.op("(").is_some() || self.op("{").is_some() {
            if let Some(a) = self.starred_expression() {
                if self.for_if_clauses().is_some() {
                    self.raise("iterable unpacking cannot be used in comprehension", a.line);
                    return;
                }
            }
        }
        if self.failed() {
            return;
        }
        self.mark = m;
        if self.op("[").is_some() || self.op("{").is_some() {
            if let Some(a) = self.star_named_expression() {
                if self.op(",").is_some()
                    && self.star_named_expressions().is_some()
                    && self.for_if_clauses().is_some()
                {
                    self.raise(
                        "did you forget parentheses around the comprehension target?",
                        a.line,
                    );
                    return;
                }
            }
        }
        if self.failed() {
            return;
        }
        self.mark = m;
        if self.op("[").is_some() || self.op("{").is_some() {
            if let Some(a) = self.star_named_expression() {
                if self.op(",").is_some() && self.for_if_clauses().is_some() {
                    self.raise(
                        "did you forget parentheses around the comprehension target?",
                        a.line,
                    );
                }
            }
        }
    }

    // ----- call arguments ----------------------------------------------------------------

    fn arguments(&mut self) -> Option<CallArgs> {
        if self.failed() {
            return None;
        }
        self.cur()?;
        let start = self.mark;
        if let Some((r, end)) = self.args_memo.get(&start) {
            let (r, end) = (r.clone(), *end);
            self.mark = end;
            return r;
        }
        let r = (|| {
            if let Some(a) = self.args() {
                let m = self.mark;
                if self.op(",").is_none() {
                    self.mark = m;
                }
                if self.ahead(|p| p.op(")")) {
                    return Some(a);
                }
            }
            if self.failed() {
                return None;
            }
            self.mark = start;
            if self.invalid {
                self.invalid_arguments();
            }
            None
        })();
        if self.failed() {
            return None;
        }
        self.args_memo.insert(start, (r.clone(), self.mark));
        r
    }

    fn positional_arg(&mut self) -> Option<Expr> {
        let m = self.mark;
        if let Some(e) = self.starred_expression() {
            return Some(e);
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        let e = match self.assignment_expression() {
            Some(e) => e,
            None => {
                if self.failed() {
                    return None;
                }
                self.mark = m;
                let e = self.expression()?;
                if self.ahead(|p| p.op(":=")) || self.failed() {
                    return None;
                }
                e
            }
        };
        if self.ahead(|p| p.op("=")) || self.failed() {
            return None;
        }
        Some(e)
    }

    fn args(&mut self) -> Option<CallArgs> {
        let m = self.mark;
        let line = self.line();
        if let Some(first) = self.positional_arg() {
            let mut out = CallArgs {
                args: vec![first],
                keywords: vec![],
                line,
            };
            loop {
                let m2 = self.mark;
                if self.op(",").is_some() {
                    if let Some(e) = self.positional_arg() {
                        out.args.push(e);
                        continue;
                    }
                }
                if self.failed() {
                    return None;
                }
                self.mark = m2;
                break;
            }
            let m3 = self.mark;
            if self.op(",").is_some() {
                if let Some(kw) = self.kwargs() {
                    for k in kw {
                        match k {
                            KwOrStarred::Keyword(k) => out.keywords.push(k),
                            KwOrStarred::Starred(s) => out.args.push(s),
                        }
                    }
                    return Some(out);
                }
            }
            if self.failed() {
                return None;
            }
            self.mark = m3;
            return Some(out);
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        let kw = self.kwargs()?;
        let mut out = CallArgs {
            line,
            ..CallArgs::default()
        };
        for k in kw {
            match k {
                KwOrStarred::Keyword(k) => out.keywords.push(k),
                KwOrStarred::Starred(s) => out.args.push(s),
            }
        }
        Some(out)
    }

    fn gather(&mut self, item: fn(&mut Self) -> Option<KwOrStarred>) -> Option<Vec<KwOrStarred>> {
        let first = item(self)?;
        let mut out = vec![first];
        loop {
            let m = self.mark;
            if self.op(",").is_some() {
                if let Some(x) = item(self) {
                    out.push(x);
                    continue;
                }
            }
            if self.failed() {
                return None;
            }
            self.mark = m;
            return Some(out);
        }
    }

    fn kwargs(&mut self) -> Option<Vec<KwOrStarred>> {
        let m = self.mark;
        if let Some(mut a) = self.gather(Self::kwarg_or_starred) {
            if self.op(",").is_some() {
                if let Some(b) = self.gather(Self::kwarg_or_double_starred) {
                    a.extend(b);
                    return Some(a);
                }
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        if let Some(a) = self.gather(Self::kwarg_or_starred) {
            return Some(a);
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        self.gather(Self::kwarg_or_double_starred)
    }

    fn starred_expression(&mut self) -> Option<Expr> {
        let t = self.op("*")?;
        let a = self.expression()?;
        Some(Expr::new(ExprKind::Starred(Box::new(a)), t.line))
    }

    fn kwarg_or_starred(&mut self) -> Option<KwOrStarred> {
        let m = self.mark;
        if self.invalid {
            self.invalid_kwarg();
            if self.failed() {
                return None;
            }
            self.mark = m;
        }
        if let Some(a) = self.name_tok() {
            if self.op("=").is_some() {
                if let Some(b) = self.expression() {
                    return Some(KwOrStarred::Keyword(Keyword {
                        arg: Some(a.text),
                        value: b,
                    }));
                }
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        self.starred_expression().map(KwOrStarred::Starred)
    }

    fn kwarg_or_double_starred(&mut self) -> Option<KwOrStarred> {
        let m = self.mark;
        if self.invalid {
            self.invalid_kwarg();
            if self.failed() {
                return None;
            }
            self.mark = m;
        }
        if let Some(a) = self.name_tok() {
            if self.op("=").is_some() {
                if let Some(b) = self.expression() {
                    return Some(KwOrStarred::Keyword(Keyword {
                        arg: Some(a.text),
                        value: b,
                    }));
                }
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        self.op("**")?;
        let a = self.expression()?;
        Some(KwOrStarred::Keyword(Keyword {
            arg: None,
            value: a,
        }))
    }

    fn invalid_kwarg(&mut self) {
        let m = self.mark;
        for k in ["True", "False", "None"] {
            if let Some(a) = self.kw(k) {
                if self.op("=").is_some() {
                    self.raise(format!("cannot assign to {k}"), a.line);
                    return;
                }
            }
            if self.failed() {
                return;
            }
            self.mark = m;
        }
        if let Some(a) = self.name_tok() {
            if self.op("=").is_some()
                && self.expression().is_some()
                && self.for_if_clauses().is_some()
            {
                self.raise(
                    "invalid syntax. Maybe you meant '==' or ':=' instead of '='?",
                    a.line,
                );
                return;
            }
        }
        if self.failed() {
            return;
        }
        self.mark = m;
        let name_eq = self.ahead(|p| {
            p.name_tok()?;
            p.op("=")
        });
        if name_eq || self.failed() {
            return;
        }
        if let Some(a) = self.expression() {
            if self.op("=").is_some() {
                self.raise(
                    "expression cannot contain assignment, perhaps you meant \"==\"?",
                    a.line,
                );
            }
        }
    }

    fn invalid_arguments(&mut self) {
        let m = self.mark;
        // a=args ',' '*'
        if let Some(a) = self.args() {
            if self.op(",").is_some() && self.op("*").is_some() {
                self.raise(
                    "iterable argument unpacking follows keyword argument unpacking",
                    a.line,
                );
                return;
            }
        }
        if self.failed() {
            return;
        }
        self.mark = m;
        // a=expression b=for_if_clauses ',' [args | expression for_if_clauses]
        if let Some(a) = self.expression() {
            if self.for_if_clauses().is_some() && self.op(",").is_some() {
                let m2 = self.mark;
                if self.args().is_none() {
                    if self.failed() {
                        return;
                    }
                    self.mark = m2;
                    if !(self.expression().is_some() && self.for_if_clauses().is_some()) {
                        if self.failed() {
                            return;
                        }
                        self.mark = m2;
                    }
                }
                self.raise("Generator expression must be parenthesized", a.line);
                return;
            }
        }
        if self.failed() {
            return;
        }
        self.mark = m;
        // a=NAME b='=' expression for_if_clauses
        if let Some(a) = self.name_tok() {
            if self.op("=").is_some()
                && self.expression().is_some()
                && self.for_if_clauses().is_some()
            {
                self.raise(
                    "invalid syntax. Maybe you meant '==' or ':=' instead of '='?",
                    a.line,
                );
                return;
            }
        }
        if self.failed() {
            return;
        }
        self.mark = m;
        // a=args b=for_if_clauses
        if let Some(a) = self.args() {
            if self.for_if_clauses().is_some() {
                if a.args.len() > 1 {
                    let line = a.args[a.args.len() - 1].line;
                    self.raise("Generator expression must be parenthesized", line);
                }
                return;
            }
        }
        if self.failed() {
            return;
        }
        self.mark = m;
        // args ',' a=expression b=for_if_clauses
        if self.args().is_some() && self.op(",").is_some() {
            if let Some(a) = self.expression() {
                if self.for_if_clauses().is_some() {
                    self.raise("Generator expression must be parenthesized", a.line);
                    return;
                }
            }
        }
        if self.failed() {
            return;
        }
        self.mark = m;
        // a=args ',' args
        if let Some(a) = self.args() {
            if self.op(",").is_some() && self.args().is_some() {
                let unpacking = a.keywords.iter().any(|k| k.arg.is_none());
                let msg = if unpacking {
                    "positional argument follows keyword argument unpacking"
                } else {
                    "positional argument follows keyword argument"
                };
                self.raise_here(msg);
            }
        }
    }

    // ----- assignment targets (comprehension `for` targets) --------------------------------

    fn star_targets(&mut self) -> Option<Expr> {
        let m = self.mark;
        if let Some(a) = self.star_target() {
            if !self.ahead(|p| p.op(",")) && !self.failed() {
                return Some(a);
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        let a = self.star_target()?;
        let line = a.line;
        let mut items = vec![a];
        loop {
            let m2 = self.mark;
            if self.op(",").is_some() {
                if let Some(c) = self.star_target() {
                    items.push(c);
                    continue;
                }
            }
            if self.failed() {
                return None;
            }
            self.mark = m2;
            break;
        }
        let m3 = self.mark;
        if self.op(",").is_none() {
            self.mark = m3;
        }
        if self.failed() {
            return None;
        }
        Some(Expr::new(ExprKind::Tuple(items), line))
    }

    fn star_target(&mut self) -> Option<Expr> {
        self.memoized(Rule::StarTarget, |p| {
            let m = p.mark;
            if let Some(t) = p.op("*") {
                if !p.ahead(|q| q.op("*")) && !p.failed() {
                    if let Some(a) = p.star_target() {
                        return Some(Expr::new(ExprKind::Starred(Box::new(a)), t.line));
                    }
                }
            }
            if p.failed() {
                return None;
            }
            p.mark = m;
            p.target_with_star_atom()
        })
    }

    fn t_lookahead(&mut self) -> bool {
        let r = self.ahead(|p| {
            let m = p.mark;
            for o in ["(", "[", "."] {
                if p.op(o).is_some() {
                    return Some(());
                }
                p.mark = m;
            }
            None
        });
        r && !self.failed()
    }

    fn target_with_star_atom(&mut self) -> Option<Expr> {
        self.memoized(Rule::TargetWithStarAtom, |p| {
            let m = p.mark;
            if let Some(a) = p.t_primary() {
                let after = p.mark;
                if p.op(".").is_some() && p.name_tok().is_some() && !p.t_lookahead() && !p.failed()
                {
                    return Some(Expr::over(ExprKind::Attribute, a.line, &a));
                }
                if p.failed() {
                    return None;
                }
                p.mark = after;
                if p.op("[").is_some()
                    && p.slices().is_some()
                    && p.op("]").is_some()
                    && !p.t_lookahead()
                    && !p.failed()
                {
                    return Some(Expr::over(ExprKind::Subscript, a.line, &a));
                }
            }
            if p.failed() {
                return None;
            }
            p.mark = m;
            p.star_atom()
        })
    }

    fn star_atom(&mut self) -> Option<Expr> {
        let m = self.mark;
        if let Some(a) = self.name() {
            return Some(a);
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        if self.op("(").is_some() {
            if let Some(a) = self.target_with_star_atom() {
                if self.op(")").is_some() {
                    return Some(a);
                }
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        if let Some(t) = self.op("(") {
            let m2 = self.mark;
            let items = match self.star_targets_tuple_seq() {
                Some(v) => v,
                None => {
                    if self.failed() {
                        return None;
                    }
                    self.mark = m2;
                    vec![]
                }
            };
            if self.op(")").is_some() {
                return Some(Expr::new(ExprKind::Tuple(items), t.line));
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        let t = self.op("[")?;
        let m2 = self.mark;
        let items = match self.star_targets_list_seq() {
            Some(v) => v,
            None => {
                if self.failed() {
                    return None;
                }
                self.mark = m2;
                vec![]
            }
        };
        self.op("]")?;
        Some(Expr::new(ExprKind::List(items), t.line))
    }

    fn star_targets_list_seq(&mut self) -> Option<Vec<Expr>> {
        let first = self.star_target()?;
        let mut items = vec![first];
        loop {
            let m = self.mark;
            if self.op(",").is_some() {
                if let Some(c) = self.star_target() {
                    items.push(c);
                    continue;
                }
            }
            if self.failed() {
                return None;
            }
            self.mark = m;
            break;
        }
        let m = self.mark;
        if self.op(",").is_none() {
            self.mark = m;
        }
        if self.failed() {
            return None;
        }
        Some(items)
    }

    fn star_targets_tuple_seq(&mut self) -> Option<Vec<Expr>> {
        let m = self.mark;
        if let Some(a) = self.star_target() {
            let mut items = vec![a];
            loop {
                let m2 = self.mark;
                if self.op(",").is_some() {
                    if let Some(c) = self.star_target() {
                        items.push(c);
                        continue;
                    }
                }
                if self.failed() {
                    return None;
                }
                self.mark = m2;
                break;
            }
            if items.len() > 1 {
                let m3 = self.mark;
                if self.op(",").is_none() {
                    self.mark = m3;
                }
                if self.failed() {
                    return None;
                }
                return Some(items);
            }
        }
        if self.failed() {
            return None;
        }
        self.mark = m;
        let a = self.star_target()?;
        self.op(",")?;
        Some(vec![a])
    }

    fn t_primary(&mut self) -> Option<Expr> {
        self.left_recursive(Rule::TPrimary, |p| {
            let start = p.mark;
            if let Some(a) = p.memo_seed(Rule::TPrimary, start) {
                let after = p.mark;
                if p.op(".").is_some() && p.name_tok().is_some() && p.t_lookahead() {
                    return Some(Expr::over(ExprKind::Attribute, a.line, &a));
                }
                if p.failed() {
                    return None;
                }
                p.mark = after;
                if p.op("[").is_some()
                    && p.slices().is_some()
                    && p.op("]").is_some()
                    && p.t_lookahead()
                {
                    return Some(Expr::over(ExprKind::Subscript, a.line, &a));
                }
                if p.failed() {
                    return None;
                }
                p.mark = after;
                if p.genexp().is_some() && p.t_lookahead() {
                    return Some(Expr::new(
                        ExprKind::Call {
                            func: Box::new(a.clone()),
                            args: vec![],
                            keywords: vec![],
                        },
                        a.line,
                    ));
                }
                if p.failed() {
                    return None;
                }
                p.mark = after;
                if p.op("(").is_some() {
                    let m2 = p.mark;
                    if p.arguments().is_none() {
                        if p.failed() {
                            return None;
                        }
                        p.mark = m2;
                    }
                    if p.op(")").is_some() && p.t_lookahead() {
                        return Some(Expr::new(
                            ExprKind::Call {
                                func: Box::new(a.clone()),
                                args: vec![],
                                keywords: vec![],
                            },
                            a.line,
                        ));
                    }
                }
                if p.failed() {
                    return None;
                }
            }
            p.mark = start;
            let a = p.atom()?;
            if p.t_lookahead() {
                Some(a)
            } else {
                None
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> String {
        match parse_eval(s) {
            Ok(e) => format!("ok {}", e.class_name()),
            Err(e) => format!("{}: {} (line {})", e.class.name(), e.msg, e.line),
        }
    }

    #[test]
    fn messages_match_cpython() {
        assert_eq!(err("hello world"), "SyntaxError: invalid syntax (line 1)");
        assert_eq!(
            err("(move right)"),
            "SyntaxError: invalid syntax. Perhaps you forgot a comma? (line 1)"
        );
        assert_eq!(
            err("move right if possible"),
            "SyntaxError: expected 'else' after 'if' expression (line 1)"
        );
        assert_eq!(err(""), "SyntaxError: invalid syntax (line 0)");
        assert_eq!(
            err("(move right"),
            "SyntaxError: '(' was never closed (line 1)"
        );
        assert_eq!(
            err("a\n  b"),
            "IndentationError: unexpected indent (line 2)"
        );
        assert_eq!(err("('move', 0)"), "ok Tuple");
    }

    #[test]
    fn deep_nesting_stops_within_a_wasm_sized_stack() {
        let inputs = [
            "(".repeat(199) + "1" + &")".repeat(199),
            "[".repeat(199) + "x y" + &"]".repeat(199),
            "-".repeat(5000) + "1",
            "not ".repeat(3000) + "1",
        ];
        let handle = std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(move || inputs.iter().map(|s| err(s)).collect::<Vec<_>>())
            .unwrap();
        for e in handle.join().unwrap() {
            assert!(e.starts_with("MemoryError"), "{e}");
        }
        // Shallower nesting parses as CPython does.
        assert_eq!(
            err(&("(".repeat(40) + "1" + &")".repeat(40))),
            "ok Constant"
        );
        assert_eq!(err(&("-".repeat(300) + "1")), "ok UnaryOp");
    }
}
