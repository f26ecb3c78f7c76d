//! CPython 3.11's tokenizer, as far as `ast.literal_eval` of one string exercises it.
//!
//! The reference feeds the model's reply to `ast.literal_eval`; when that fails, the
//! feedback quotes CPython's error message and line number, so tokens, their line
//! numbers and paren levels, and every tokenizer error text follow CPython's C
//! tokenizer (string input, eval mode, no type comments).

use super::format::is_printable;
use super::unicode_tables::{XID_CONTINUE, XID_START};

/// The kind of a token, with keywords distinguished from names as the parser sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokKind {
    Name,
    Number,
    Str,
    Newline,
    Indent,
    Dedent,
    Op,
    EndMarker,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub kind: TokKind,
    pub text: String,
    /// 1-based line of the token's start (0 for the end marker of empty input).
    pub line: u32,
    /// Paren nesting level after this token (CPython's `token->level`).
    pub level: u32,
}

/// Which exception class a syntax error is raised as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorClass {
    Syntax,
    Indentation,
    Tab,
    /// The parser's nesting budget ran out (CPython's parser stack overflow).
    Memory,
}

impl ErrorClass {
    pub fn name(self) -> &'static str {
        match self {
            ErrorClass::Syntax => "SyntaxError",
            ErrorClass::Indentation => "IndentationError",
            ErrorClass::Tab => "TabError",
            ErrorClass::Memory => "MemoryError",
        }
    }
}

/// A syntax error with the line CPython reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxErr {
    pub class: ErrorClass,
    pub msg: String,
    pub line: u32,
}

impl SyntaxErr {
    pub fn syntax(msg: impl Into<String>, line: u32) -> Self {
        SyntaxErr {
            class: ErrorClass::Syntax,
            msg: msg.into(),
            line,
        }
    }
}

/// Why the tokenizer stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokError {
    /// An error the tokenizer raises itself.
    Raised(SyntaxErr),
    /// An error the tokenizer only flags (CPython sets `tok->done` without raising):
    /// reported when the parser reads the token, ignored by the scan after a parser
    /// error.
    Flagged(SyntaxErr),
    /// End of input inside brackets: CPython returns an error token without raising;
    /// the parser turns it into "'(' was never closed" depending on where it is.
    EofInParens { paren: char, line: u32 },
    /// A trailing backslash at the end of input ("unexpected EOF while parsing").
    EofAfterContinuation { line: u32 },
}

const TABSIZE: usize = 8;
const MAXINDENT: usize = 100;
pub(crate) const MAXLEVEL: usize = 200;

pub struct Tokenizer {
    src: Vec<char>,
    cur: usize,
    /// Start of the line being read, and the end of the text loaded so far (the
    /// position after the current line's newline).
    line_end: usize,
    lineno: u32,
    at_bol: bool,
    pending: i32,
    indstack: Vec<usize>,
    altindstack: Vec<usize>,
    parens: Vec<(char, u32)>,
    done: bool,
    cont_line: bool,
}

fn in_ranges(table: &[(u32, u32)], c: char) -> bool {
    let cp = c as u32;
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < cp {
                std::cmp::Ordering::Less
            } else if lo > cp {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

fn potential_identifier_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || !c.is_ascii()
}

fn potential_identifier_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || !c.is_ascii()
}

const EOF: Option<char> = None;

impl Tokenizer {
    /// `source` after `literal_eval`'s `lstrip(" \t")`; newlines are normalised here.
    pub fn new(source: &str) -> Self {
        let normalised = source.replace("\r\n", "\n").replace('\r', "\n");
        Tokenizer {
            src: normalised.chars().collect(),
            cur: 0,
            line_end: 0,
            lineno: 0,
            at_bol: true,
            pending: 0,
            indstack: vec![0],
            altindstack: vec![0],
            parens: Vec::new(),
            done: false,
            cont_line: false,
        }
    }

    pub fn level(&self) -> u32 {
        self.parens.len() as u32
    }

    pub fn lineno(&self) -> u32 {
        self.lineno
    }

    /// Whether reading has run into the end of the input (CPython's `tok->done ==
    /// E_EOF`), which happens while finishing the last token, before any end marker.
    pub fn reached_eof(&self) -> bool {
        self.done
    }

    /// The innermost unclosed bracket and its line.
    pub fn innermost_paren(&self) -> Option<(char, u32)> {
        self.parens.last().copied()
    }

    fn nextc(&mut self) -> Option<char> {
        loop {
            if self.cur < self.line_end {
                let c = self.src[self.cur];
                self.cur += 1;
                return Some(c);
            }
            if self.done || self.line_end >= self.src.len() {
                self.done = true;
                return EOF;
            }
            // Load the next line (up to and including its newline).
            let mut end = self.line_end;
            while end < self.src.len() && self.src[end] != '\n' {
                end += 1;
            }
            if end < self.src.len() {
                end += 1;
            }
            self.line_end = end;
            self.lineno += 1;
        }
    }

    fn backup(&mut self, c: Option<char>) {
        if c.is_some() {
            self.cur -= 1;
        }
    }

    fn raise(&mut self, msg: impl Into<String>) -> TokError {
        self.done = true;
        TokError::Raised(SyntaxErr::syntax(msg, self.lineno))
    }

    fn token(&self, kind: TokKind, start: usize) -> Token {
        Token {
            kind,
            text: self.src[start..self.cur].iter().collect(),
            line: self.lineno,
            level: self.level(),
        }
    }

    fn continuation_line(&mut self) -> Result<(), TokError> {
        let c = self.nextc();
        if c != Some('\n') {
            self.done = true;
            return Err(TokError::Flagged(SyntaxErr::syntax(
                "unexpected character after line continuation character",
                self.lineno,
            )));
        }
        let c = self.nextc();
        if c.is_none() {
            self.done = true;
            return Err(TokError::EofAfterContinuation { line: self.lineno });
        }
        self.backup(c);
        Ok(())
    }

    fn indent_error(&mut self) -> TokError {
        self.done = true;
        TokError::Flagged(SyntaxErr {
            class: ErrorClass::Tab,
            msg: "inconsistent use of tabs and spaces in indentation".into(),
            line: self.lineno,
        })
    }

    /// The next token, or the error CPython's tokenizer reports at this point.
    pub fn next_token(&mut self) -> Result<Token, TokError> {
        'nextline: loop {
            let mut blankline = false;
            if self.at_bol {
                self.at_bol = false;
                let (mut col, mut altcol, mut cont_line_col) = (0usize, 0usize, 0usize);
                let mut c;
                loop {
                    c = self.nextc();
                    match c {
                        Some(' ') => {
                            col += 1;
                            altcol += 1;
                        }
                        Some('\t') => {
                            col = (col / TABSIZE + 1) * TABSIZE;
                            // CPython's ALTTABSIZE is 1.
                            altcol += 1;
                        }
                        Some('\x0c') => {
                            col = 0;
                            altcol = 0;
                        }
                        Some('\\') => {
                            if cont_line_col == 0 {
                                cont_line_col = col;
                            }
                            self.continuation_line()?;
                        }
                        _ => break,
                    }
                }
                self.backup(c);
                if c == Some('#') || c == Some('\n') {
                    blankline = true;
                }
                if !blankline && self.parens.is_empty() {
                    if cont_line_col != 0 {
                        col = cont_line_col;
                        altcol = cont_line_col;
                    }
                    let top = self.indstack.len() - 1;
                    if col == self.indstack[top] {
                        if altcol != self.altindstack[top] {
                            return Err(self.indent_error());
                        }
                    } else if col > self.indstack[top] {
                        if self.indstack.len() >= MAXINDENT {
                            self.done = true;
                            return Err(TokError::Flagged(SyntaxErr {
                                class: ErrorClass::Indentation,
                                msg: "too many levels of indentation".into(),
                                line: self.lineno,
                            }));
                        }
                        if altcol <= self.altindstack[top] {
                            return Err(self.indent_error());
                        }
                        self.pending += 1;
                        self.indstack.push(col);
                        self.altindstack.push(altcol);
                    } else {
                        while self.indstack.len() > 1
                            && col < self.indstack[self.indstack.len() - 1]
                        {
                            self.pending -= 1;
                            self.indstack.pop();
                            self.altindstack.pop();
                        }
                        let top = self.indstack.len() - 1;
                        if col != self.indstack[top] {
                            self.done = true;
                            return Err(TokError::Flagged(SyntaxErr {
                                class: ErrorClass::Indentation,
                                msg: "unindent does not match any outer indentation level".into(),
                                line: self.lineno,
                            }));
                        }
                        if altcol != self.altindstack[top] {
                            return Err(self.indent_error());
                        }
                    }
                }
            }

            if self.pending != 0 {
                let kind = if self.pending < 0 {
                    self.pending += 1;
                    TokKind::Dedent
                } else {
                    self.pending -= 1;
                    TokKind::Indent
                };
                return Ok(Token {
                    kind,
                    text: String::new(),
                    line: self.lineno,
                    level: self.level(),
                });
            }

            'again: loop {
                let mut c;
                loop {
                    c = self.nextc();
                    if !matches!(c, Some(' ') | Some('\t') | Some('\x0c')) {
                        break;
                    }
                }
                let start = if c.is_some() { self.cur - 1 } else { self.cur };

                if c == Some('#') {
                    while c.is_some() && c != Some('\n') {
                        c = self.nextc();
                    }
                }

                let Some(ch) = c else {
                    if let Some(&(paren, line)) = self.parens.last() {
                        return Err(TokError::EofInParens { paren, line });
                    }
                    return Ok(Token {
                        kind: TokKind::EndMarker,
                        text: String::new(),
                        line: self.lineno,
                        level: 0,
                    });
                };

                if potential_identifier_start(ch) {
                    let (mut saw_b, mut saw_r, mut saw_u, mut saw_f) = (false, false, false, false);
                    let mut c = Some(ch);
                    loop {
                        let l = c.unwrap_or('\0');
                        if !(saw_b || saw_u || saw_f) && (l == 'b' || l == 'B') {
                            saw_b = true;
                        } else if !(saw_b || saw_u || saw_r || saw_f) && (l == 'u' || l == 'U') {
                            saw_u = true;
                        } else if !(saw_r || saw_u) && (l == 'r' || l == 'R') {
                            saw_r = true;
                        } else if !(saw_f || saw_b || saw_u) && (l == 'f' || l == 'F') {
                            saw_f = true;
                        } else {
                            break;
                        }
                        c = self.nextc();
                        if c == Some('"') || c == Some('\'') {
                            return self.string(start, c.unwrap_or('\''));
                        }
                    }
                    let mut nonascii = false;
                    while let Some(l) = c.filter(|&l| potential_identifier_char(l)) {
                        if !l.is_ascii() {
                            nonascii = true;
                        }
                        c = self.nextc();
                    }
                    self.backup(c);
                    if nonascii {
                        self.verify_identifier(start)?;
                    }
                    return Ok(self.token(TokKind::Name, start));
                }

                if ch == '\n' {
                    self.at_bol = true;
                    if blankline || !self.parens.is_empty() {
                        continue 'nextline;
                    }
                    self.cont_line = false;
                    return Ok(Token {
                        kind: TokKind::Newline,
                        text: String::new(),
                        line: self.lineno,
                        level: self.level(),
                    });
                }

                if ch == '.' {
                    let c = self.nextc();
                    if c.is_some_and(|d| d.is_ascii_digit()) {
                        return self.fraction(start, c);
                    } else if c == Some('.') {
                        let c3 = self.nextc();
                        if c3 == Some('.') {
                            return Ok(self.token(TokKind::Op, start));
                        }
                        self.backup(c3);
                        self.backup(Some('.'));
                    } else {
                        self.backup(c);
                    }
                    return Ok(self.token(TokKind::Op, start));
                }

                if ch.is_ascii_digit() {
                    return self.number(start, ch);
                }

                if ch == '\'' || ch == '"' {
                    return self.string(start, ch);
                }

                if ch == '\\' {
                    self.continuation_line()?;
                    self.cont_line = true;
                    continue 'again;
                }

                let c2 = self.nextc();
                if let Some(c2v) = c2 {
                    if two_char_op(ch, c2v) {
                        let c3 = self.nextc();
                        if !c3.is_some_and(|c3v| three_char_op(ch, c2v, c3v)) {
                            self.backup(c3);
                        }
                        return Ok(self.token(TokKind::Op, start));
                    }
                }
                self.backup(c2);

                match ch {
                    '(' | '[' | '{' => {
                        if self.parens.len() >= MAXLEVEL {
                            return Err(self.raise("too many nested parentheses"));
                        }
                        self.parens.push((ch, self.lineno));
                    }
                    ')' | ']' | '}' => {
                        let Some((opening, line)) = self.parens.pop() else {
                            return Err(self.raise(format!("unmatched '{ch}'")));
                        };
                        let matches = matches!((opening, ch), ('(', ')') | ('[', ']') | ('{', '}'));
                        if !matches {
                            let msg = if line != self.lineno {
                                format!(
                                    "closing parenthesis '{ch}' does not match opening parenthesis '{opening}' on line {line}"
                                )
                            } else {
                                format!(
                                    "closing parenthesis '{ch}' does not match opening parenthesis '{opening}'"
                                )
                            };
                            return Err(self.raise(msg));
                        }
                    }
                    _ => {}
                }

                if !is_printable(ch) {
                    return Err(self.raise(format!(
                        "invalid non-printable character U+{:04X}",
                        ch as u32
                    )));
                }
                return Ok(self.token(TokKind::Op, start));
            }
        }
    }

    fn verify_identifier(&mut self, start: usize) -> Result<(), TokError> {
        let ident = &self.src[start..self.cur];
        let bad = ident.iter().enumerate().find(|&(i, &c)| {
            if i == 0 {
                !(c == '_' || in_ranges(XID_START, c))
            } else {
                !in_ranges(XID_CONTINUE, c)
            }
        });
        if let Some((_, &c)) = bad {
            let msg = if is_printable(c) {
                format!("invalid character '{c}' (U+{:04X})", c as u32)
            } else {
                format!("invalid non-printable character U+{:04X}", c as u32)
            };
            return Err(self.raise(msg));
        }
        Ok(())
    }

    /// `tok_decimal_tail`: digits with single underscores between them.
    fn decimal_tail(&mut self) -> Result<Option<char>, TokError> {
        loop {
            let mut c;
            loop {
                c = self.nextc();
                if !c.is_some_and(|d| d.is_ascii_digit()) {
                    break;
                }
            }
            if c != Some('_') {
                return Ok(c);
            }
            let c = self.nextc();
            if !c.is_some_and(|d| d.is_ascii_digit()) {
                self.backup(c);
                return Err(self.raise("invalid decimal literal"));
            }
        }
    }

    /// `verify_end_of_number`: a letter right after a number is an error, except the
    /// keywords that may follow a number in valid code (a deprecation warning only).
    fn verify_end_of_number(&mut self, c: Option<char>, kind: &str) -> Result<(), TokError> {
        let follows_keyword = match c {
            Some('a') => self.lookahead("nd"),
            Some('e') => self.lookahead("lse"),
            Some('f') => self.lookahead("or"),
            Some('i') => {
                let c2 = self.nextc();
                let r = matches!(c2, Some('f') | Some('n') | Some('s'));
                self.backup(c2);
                r
            }
            Some('o') => self.lookahead("r"),
            Some('n') => self.lookahead("ot"),
            _ => false,
        };
        if follows_keyword {
            return Ok(());
        }
        // Only ASCII letters count here: `1°` ends the number and fails later as an
        // invalid character.
        if c.is_some_and(|ch| ch.is_ascii() && potential_identifier_char(ch)) {
            self.backup(c);
            return Err(self.raise(format!("invalid {kind} literal")));
        }
        Ok(())
    }

    /// Whether `rest` follows and ends there (CPython's `lookahead`).
    fn lookahead(&mut self, rest: &str) -> bool {
        let mut read = Vec::new();
        let mut res = false;
        let mut want = rest.chars();
        loop {
            let c = self.nextc();
            read.push(c);
            match want.next() {
                None => {
                    res = !c.is_some_and(potential_identifier_char);
                    break;
                }
                Some(w) if c == Some(w) => continue,
                Some(_) => break,
            }
        }
        for c in read.into_iter().rev() {
            self.backup(c);
        }
        res
    }

    fn number_token(&mut self, c: Option<char>, start: usize) -> Result<Token, TokError> {
        self.backup(c);
        Ok(self.token(TokKind::Number, start))
    }

    fn number(&mut self, start: usize, first: char) -> Result<Token, TokError> {
        if first == '0' {
            let mut c = self.nextc();
            match c {
                Some('x') | Some('X') => {
                    c = self.nextc();
                    loop {
                        if c == Some('_') {
                            c = self.nextc();
                        }
                        if !c.is_some_and(|d| d.is_ascii_hexdigit()) {
                            self.backup(c);
                            return Err(self.raise("invalid hexadecimal literal"));
                        }
                        loop {
                            c = self.nextc();
                            if !c.is_some_and(|d| d.is_ascii_hexdigit()) {
                                break;
                            }
                        }
                        if c != Some('_') {
                            break;
                        }
                    }
                    self.verify_end_of_number(c, "hexadecimal")?;
                    return self.number_token(c, start);
                }
                Some('o') | Some('O') | Some('b') | Some('B') => {
                    let binary = matches!(c, Some('b') | Some('B'));
                    let (kind, max) = if binary {
                        ("binary", '1')
                    } else {
                        ("octal", '7')
                    };
                    c = self.nextc();
                    loop {
                        if c == Some('_') {
                            c = self.nextc();
                        }
                        if !c.is_some_and(|d| ('0'..=max).contains(&d)) {
                            if let Some(d) = c.filter(char::is_ascii_digit) {
                                return Err(
                                    self.raise(format!("invalid digit '{d}' in {kind} literal"))
                                );
                            }
                            self.backup(c);
                            return Err(self.raise(format!("invalid {kind} literal")));
                        }
                        loop {
                            c = self.nextc();
                            if !c.is_some_and(|d| ('0'..=max).contains(&d)) {
                                break;
                            }
                        }
                        if c != Some('_') {
                            break;
                        }
                    }
                    if let Some(d) = c.filter(char::is_ascii_digit) {
                        return Err(self.raise(format!("invalid digit '{d}' in {kind} literal")));
                    }
                    self.verify_end_of_number(c, kind)?;
                    return self.number_token(c, start);
                }
                _ => {
                    let mut nonzero = false;
                    loop {
                        if c == Some('_') {
                            c = self.nextc();
                            if !c.is_some_and(|d| d.is_ascii_digit()) {
                                self.backup(c);
                                return Err(self.raise("invalid decimal literal"));
                            }
                        }
                        if c != Some('0') {
                            break;
                        }
                        c = self.nextc();
                    }
                    if c.is_some_and(|d| d.is_ascii_digit()) {
                        nonzero = true;
                        c = self.decimal_tail()?;
                    }
                    match c {
                        Some('.') => {
                            let c = self.nextc();
                            return self.fraction(start, c);
                        }
                        Some('e') | Some('E') => return self.exponent(start, c),
                        Some('j') | Some('J') => return self.imaginary(start),
                        _ => {}
                    }
                    if nonzero {
                        self.backup(c);
                        return Err(self.raise(
                            "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers",
                        ));
                    }
                    self.verify_end_of_number(c, "decimal")?;
                    return self.number_token(c, start);
                }
            }
        }
        let c = self.decimal_tail()?;
        if c == Some('.') {
            let c = self.nextc();
            return self.fraction(start, c);
        }
        self.after_fraction(start, c)
    }

    fn fraction(&mut self, start: usize, c: Option<char>) -> Result<Token, TokError> {
        let c = if c.is_some_and(|d| d.is_ascii_digit()) {
            self.decimal_tail()?
        } else {
            c
        };
        self.after_fraction(start, c)
    }

    fn after_fraction(&mut self, start: usize, c: Option<char>) -> Result<Token, TokError> {
        if matches!(c, Some('e') | Some('E')) {
            return self.exponent(start, c);
        }
        if matches!(c, Some('j') | Some('J')) {
            return self.imaginary(start);
        }
        self.verify_end_of_number(c, "decimal")?;
        self.number_token(c, start)
    }

    fn exponent(&mut self, start: usize, e: Option<char>) -> Result<Token, TokError> {
        let mut c = self.nextc();
        if matches!(c, Some('+') | Some('-')) {
            c = self.nextc();
            if !c.is_some_and(|d| d.is_ascii_digit()) {
                self.backup(c);
                return Err(self.raise("invalid decimal literal"));
            }
        } else if !c.is_some_and(|d| d.is_ascii_digit()) {
            self.backup(c);
            self.verify_end_of_number(e, "decimal")?;
            self.backup(e);
            return Ok(self.token(TokKind::Number, start));
        }
        let c = self.decimal_tail()?;
        if matches!(c, Some('j') | Some('J')) {
            return self.imaginary(start);
        }
        self.verify_end_of_number(c, "decimal")?;
        self.number_token(c, start)
    }

    fn imaginary(&mut self, start: usize) -> Result<Token, TokError> {
        let c = self.nextc();
        self.verify_end_of_number(c, "imaginary")?;
        self.number_token(c, start)
    }

    fn string(&mut self, start: usize, quote: char) -> Result<Token, TokError> {
        let first_lineno = self.lineno;
        let mut quote_size = 1;
        let mut end_quote_size = 0;
        let mut c = self.nextc();
        if c == Some(quote) {
            c = self.nextc();
            if c == Some(quote) {
                quote_size = 3;
            } else {
                end_quote_size = 1;
            }
        }
        if c != Some(quote) {
            self.backup(c);
        }
        while end_quote_size != quote_size {
            let c = self.nextc();
            if c.is_none() || (quote_size == 1 && c == Some('\n')) {
                let detected = self.lineno;
                self.done = true;
                let msg = if quote_size == 3 {
                    format!(
                        "unterminated triple-quoted string literal (detected at line {detected})"
                    )
                } else {
                    format!("unterminated string literal (detected at line {detected})")
                };
                return Err(TokError::Raised(SyntaxErr::syntax(msg, first_lineno)));
            }
            if c == Some(quote) {
                end_quote_size += 1;
            } else {
                end_quote_size = 0;
                if c == Some('\\') {
                    self.nextc();
                }
            }
        }
        Ok(Token {
            kind: TokKind::Str,
            text: self.src[start..self.cur].iter().collect(),
            line: first_lineno,
            level: self.level(),
        })
    }
}

fn two_char_op(c1: char, c2: char) -> bool {
    matches!(
        (c1, c2),
        ('!', '=')
            | ('%', '=')
            | ('&', '=')
            | ('*', '*')
            | ('*', '=')
            | ('+', '=')
            | ('-', '=')
            | ('-', '>')
            | ('/', '/')
            | ('/', '=')
            | (':', '=')
            | ('<', '<')
            | ('<', '=')
            | ('<', '>')
            | ('=', '=')
            | ('>', '=')
            | ('>', '>')
            | ('@', '=')
            | ('^', '=')
            | ('|', '=')
    )
}

fn three_char_op(c1: char, c2: char, c3: char) -> bool {
    matches!(
        (c1, c2, c3),
        ('*', '*', '=') | ('.', '.', '.') | ('/', '/', '=') | ('<', '<', '=') | ('>', '>', '=')
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(TokKind, String, u32)> {
        let mut t = Tokenizer::new(src);
        let mut out = Vec::new();
        loop {
            let tok = t.next_token().unwrap();
            let end = tok.kind == TokKind::EndMarker;
            out.push((tok.kind, tok.text, tok.line));
            if end {
                return out;
            }
        }
    }

    #[test]
    fn tokens_of_an_action() {
        let toks = kinds("('move', [1.5e3, -2])");
        let texts: Vec<&str> = toks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(
            texts,
            vec!["(", "'move'", ",", "[", "1.5e3", ",", "-", "2", "]", ")", ""]
        );
    }

    #[test]
    fn errors_match_cpython_texts() {
        let err = |s: &str| {
            let mut t = Tokenizer::new(s);
            loop {
                match t.next_token() {
                    Ok(tok) if tok.kind == TokKind::EndMarker => return None,
                    Ok(_) => {}
                    Err(e) => return Some(e),
                }
            }
        };
        assert_eq!(
            err("I'll go"),
            Some(TokError::Raised(SyntaxErr::syntax(
                "unterminated string literal (detected at line 1)",
                1
            )))
        );
        assert_eq!(
            err("1st"),
            Some(TokError::Raised(SyntaxErr::syntax(
                "invalid decimal literal",
                1
            )))
        );
        assert_eq!(
            err("a’b"),
            Some(TokError::Raised(SyntaxErr::syntax(
                "invalid character '’' (U+2019)",
                1
            )))
        );
        assert_eq!(
            err("(\n"),
            Some(TokError::EofInParens {
                paren: '(',
                line: 1
            })
        );
    }
}
