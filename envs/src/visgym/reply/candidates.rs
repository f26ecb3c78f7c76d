//! Which bracketed candidates of a reply are worth handing to `literal_eval`.
//!
//! The harness tries every `(`…`)` pair of the reply, from the last opening bracket,
//! and keeps the first that reads as a tuple starting with a string. Replies nest: a
//! pair inside a candidate is itself a candidate, tried before it. Each candidate is
//! scanned token by token the way CPython 3.11's tokenizer splits it (strings, numbers,
//! names, brackets), and what an inner candidate showed is reused rather than scanned
//! again (`docs/fuzzing.md`):
//!
//! - If an inner candidate's tokens close exactly at its own `)` and the scan of the
//!   outer one reaches its `(` outside a string, its tokens are the same inside the
//!   outer candidate. Matched parentheses in an expression `literal_eval` accepts
//!   enclose a sub-expression it accepts (the only call it allows, `set()`, has `()`
//!   inside, which reads), so an inner candidate that cannot read makes the outer one
//!   unreadable, and the scan jumps over it.
//! - A name token other than `True`, `False`, `None` and `set` makes a candidate
//!   unreadable: `literal_eval` rejects every node a name can be part of.
//! - A backslash outside a string, a comment inside a bracket, or more than 200 open
//!   brackets stop the tokenizer in any candidate that encloses them too.
//!
//! A candidate is parsed only when none of these shows it unreadable, so a chain of
//! nested candidates costs one parse, not one per level.

use std::collections::HashMap;

use crate::visgym::python::tokenizer::MAXLEVEL;

/// The names `literal_eval` can accept: constants, and `set` of `set()`.
const LITERAL_NAMES: [&[u8]; 4] = [b"True", b"False", b"None", b"set"];

/// What the scan of a candidate showed, kept for the candidates around it.
#[derive(Clone, Copy, Debug)]
enum Shown {
    /// Its tokens close exactly at its `)` (at `end`), at most `depth` brackets deep
    /// (its own included); `unreadable` when it is known not to read.
    Closed {
        end: usize,
        depth: usize,
        unreadable: bool,
    },
    /// The tokenizer stops inside it for a reason every enclosing candidate meets.
    Fails,
}

/// One candidate's scan.
#[derive(Default)]
struct Scan {
    /// The tokenizer certainly stops on the candidate.
    fails: bool,
    /// ... and would stop on every candidate around it.
    fails_around: bool,
    /// Its tokens close exactly at its last byte.
    closed: bool,
    depth: usize,
    /// A name that makes it unreadable, other than the identifier the harness quotes.
    name: bool,
    /// The identifier the harness quotes is a name `literal_eval` rejects.
    quoted_name: bool,
    /// A closed inner candidate that does not read.
    unreadable_inside: bool,
}

impl Scan {
    /// The scan of a candidate the tokenizer stops on; `around` when it stops on
    /// every candidate enclosing it too (its tokens being the same there).
    fn failing(mut self, around: bool) -> Scan {
        self.fails = true;
        self.fails_around = around;
        self
    }
}

/// The candidates of one normalised reply, scanned from the last.
pub(super) struct Candidates<'a> {
    text: &'a [u8],
    shown: HashMap<usize, Shown>,
    /// Where the string starting at a quote ends (one past its closing quote), or
    /// `None` when it runs to the end of the reply: the same from any candidate.
    string_ends: HashMap<usize, Option<usize>>,
}

impl<'a> Candidates<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Candidates {
            text: text.as_bytes(),
            shown: HashMap::new(),
            string_ends: HashMap::new(),
        }
    }

    /// Whether the candidate `i..=j` must be parsed (every candidate starting after
    /// `i` has been decided; if it is parsed, tell [`Candidates::parsed`] whether it
    /// read). `quoted` is the byte range of the identifier the harness quotes in it,
    /// `may_be_action` whether it can start with a string at all.
    pub(super) fn must_parse(
        &mut self,
        i: usize,
        j: usize,
        quoted: Option<(usize, usize)>,
        may_be_action: bool,
    ) -> bool {
        let scan = self.scan(i, j, quoted);
        if scan.fails {
            if scan.fails_around {
                self.shown.insert(i, Shown::Fails);
            }
            return false;
        }
        let attempt_unreadable = scan.unreadable_inside || scan.name;
        if scan.closed {
            self.shown.insert(
                i,
                Shown::Closed {
                    end: j,
                    depth: scan.depth,
                    unreadable: attempt_unreadable || scan.quoted_name,
                },
            );
        }
        may_be_action && !attempt_unreadable
    }

    /// After [`Candidates::must_parse`] said yes: whether the candidate (as the harness tried it)
    /// read. When the harness did not change it, that is its own verdict.
    pub(super) fn parsed(&mut self, i: usize, quoted: bool, read: bool) {
        if let Some(Shown::Closed { unreadable, .. }) = self.shown.get_mut(&i) {
            if !quoted && !read {
                *unreadable = true;
            }
        }
    }

    fn string_end(&mut self, start: usize) -> Option<usize> {
        if let Some(&end) = self.string_ends.get(&start) {
            return end;
        }
        let bytes = self.text;
        let q = bytes[start];
        let triple = bytes.get(start + 1) == Some(&q) && bytes.get(start + 2) == Some(&q);
        let quote_len = if triple { 3 } else { 1 };
        let mut k = start + quote_len;
        // A backslash keeps the byte after it in the string, in every kind of string.
        let end = loop {
            match bytes.get(k) {
                None => break None,
                Some(b'\\') => k += 2,
                Some(&b)
                    if b == q
                        && (quote_len == 1
                            || (bytes.get(k + 1) == Some(&q) && bytes.get(k + 2) == Some(&q))) =>
                {
                    break Some(k + quote_len)
                }
                Some(_) => k += 1,
            }
        };
        self.string_ends.insert(start, end);
        end
    }

    fn scan(&mut self, i: usize, j: usize, quoted: Option<(usize, usize)>) -> Scan {
        let bytes = self.text;
        let mut scan = Scan::default();
        let mut open: Vec<u8> = Vec::new();
        // Whether the brackets opened after `i` have all closed before the end.
        let mut closed_early = false;
        let mut k = i;
        while k <= j {
            let b = bytes[k];
            match b {
                b'(' | b'[' | b'{' => {
                    let inner = if b == b'(' && k > i {
                        self.shown.get(&k).copied()
                    } else {
                        None
                    };
                    match inner {
                        Some(Shown::Fails) => return scan.failing(true),
                        Some(Shown::Closed {
                            end,
                            depth,
                            unreadable,
                        }) => {
                            if open.len() + depth > MAXLEVEL {
                                return scan.failing(true);
                            }
                            scan.depth = scan.depth.max(open.len() + depth);
                            scan.unreadable_inside |= unreadable;
                            k = end + 1;
                            continue;
                        }
                        None => {
                            if open.len() >= MAXLEVEL {
                                return scan.failing(true);
                            }
                            open.push(b);
                            scan.depth = scan.depth.max(open.len());
                        }
                    }
                }
                b')' | b']' | b'}' => {
                    let opening = match b {
                        b')' => b'(',
                        b']' => b'[',
                        _ => b'{',
                    };
                    match open.pop() {
                        Some(top) if top == opening => {}
                        // The same bracket is on top around it.
                        Some(_) => return scan.failing(true),
                        // Around it, this may close a bracket opened outside.
                        None => return scan.failing(false),
                    }
                    if open.is_empty() && k < j {
                        closed_early = true;
                    }
                }
                b'\\' => return scan.failing(true),
                // A comment inside a bracket stops the tokenizer (and inside every
                // candidate around, where more brackets are open); outside, it hides
                // the rest of the candidate.
                b'#' if !open.is_empty() => return scan.failing(true),
                b'#' => return scan,
                b'\'' | b'"' => match self.string_end(k) {
                    Some(end) if end <= j + 1 => {
                        k = end;
                        continue;
                    }
                    // Unterminated here; around it, the string may end.
                    _ => return scan.failing(false),
                },
                b'0'..=b'9' => {
                    k = number_end(bytes, k, j);
                    continue;
                }
                b'.' if matches!(bytes.get(k + 1), Some(b'0'..=b'9')) => {
                    k = number_end(bytes, k, j);
                    continue;
                }
                b'A'..=b'Z' | b'a'..=b'z' | b'_' | 0x80..=0xff => {
                    let start = k;
                    let mut ascii = b < 0x80;
                    while k <= j
                        && (bytes[k].is_ascii_alphanumeric()
                            || bytes[k] == b'_'
                            || bytes[k] >= 0x80)
                    {
                        ascii &= bytes[k] < 0x80;
                        k += 1;
                    }
                    // A run before a quote may be a string prefix; a non-ASCII run is
                    // left to the parser.
                    let before_quote = k <= j && matches!(bytes[k], b'\'' | b'"');
                    let word = &bytes[start..k];
                    if ascii && !before_quote && !LITERAL_NAMES.contains(&word) {
                        if quoted == Some((start - i, k - i)) {
                            scan.quoted_name = true;
                        } else {
                            scan.name = true;
                        }
                    }
                    continue;
                }
                _ => {}
            }
            k += 1;
        }
        scan.closed = open.is_empty() && !closed_early;
        scan
    }
}

/// One past a number token starting at `k` (no further than `j`), read generously:
/// digits, letters, `_`, `.` and a sign after an exponent's `e`. It never ends a number
/// early, so no part of a number is taken for a name.
fn number_end(bytes: &[u8], mut k: usize, j: usize) -> usize {
    while k <= j {
        let b = bytes[k];
        let sign_of_exponent =
            matches!(b, b'+' | b'-') && k > 0 && matches!(bytes[k - 1], b'e' | b'E');
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || sign_of_exponent {
            k += 1;
        } else {
            break;
        }
    }
    k
}
