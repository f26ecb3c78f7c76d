//! A small backtracking matcher with the semantics of Python's `re` module (leftmost
//! match, greedy and lazy repetition tried in Python's order), for the handful of fixed
//! patterns GameVerse's games use to pull actions out of a reply. Patterns are built from
//! [`Node`]s rather than parsed from strings; each parser module spells out the Python
//! pattern it mirrors next to its construction.
//!
//! Positions are in characters (Python indexes `str` by code point).

use super::py_str;

/// A set of single characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// One literal character.
    Lit(char),
    /// `\s`.
    Space,
    /// `[\w ]`: a word character or a plain space.
    WordOrSpace,
    /// `.` with `re.DOTALL`: any character.
    Any,
    /// `.` without `re.DOTALL`: any character but `\n`.
    AnyButNewline,
    /// `[^{}]`.
    NotBrace,
    /// `[^}]`.
    NotCloseBrace,
    /// `[^"]`.
    NotQuote,
    /// `\d`.
    Digit,
}

impl Class {
    fn contains(self, c: char) -> bool {
        match self {
            Class::Lit(l) => c == l,
            Class::Space => py_str::is_space(c),
            Class::WordOrSpace => c == ' ' || py_str::is_word(c),
            Class::Any => true,
            Class::AnyButNewline => c != '\n',
            Class::NotBrace => c != '{' && c != '}',
            Class::NotCloseBrace => c != '}',
            Class::NotQuote => c != '"',
            Class::Digit => py_str::is_digit(c),
        }
    }
}

/// One element of a pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// Exactly one character of the class.
    One(Class),
    /// `min..=max` characters of the class; greedy unless `lazy`.
    Repeat {
        class: Class,
        min: usize,
        max: usize,
        lazy: bool,
    },
    /// Capturing group 1.
    Capture(Vec<Node>),
    /// `(?:…)*`, greedy.
    Star(Vec<Node>),
}

impl Node {
    /// `c*`.
    pub fn star(class: Class) -> Node {
        Node::Repeat {
            class,
            min: 0,
            max: usize::MAX,
            lazy: false,
        }
    }

    /// `c+`.
    pub fn plus(class: Class) -> Node {
        Node::Repeat {
            class,
            min: 1,
            max: usize::MAX,
            lazy: false,
        }
    }

    /// `c*?`.
    pub fn lazy_star(class: Class) -> Node {
        Node::Repeat {
            class,
            min: 0,
            max: usize::MAX,
            lazy: true,
        }
    }

    /// `c?`.
    pub fn optional(class: Class) -> Node {
        Node::Repeat {
            class,
            min: 0,
            max: 1,
            lazy: false,
        }
    }
}

/// The literal characters of `s`, one node each.
pub fn literal(s: &str) -> Vec<Node> {
    s.chars().map(|c| Node::One(Class::Lit(c))).collect()
}

/// A match: character offsets of the whole match and of group 1 (if the pattern has one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Match {
    pub start: usize,
    pub end: usize,
    pub group: Option<(usize, usize)>,
}

/// A compiled pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    nodes: Vec<Node>,
}

struct Matcher<'a> {
    text: &'a [char],
    group: std::cell::Cell<Option<(usize, usize)>>,
}

impl Matcher<'_> {
    fn seq(&self, nodes: &[Node], pos: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
        let Some((first, rest)) = nodes.split_first() else {
            return k(pos);
        };
        match first {
            Node::One(class) => {
                pos < self.text.len()
                    && class.contains(self.text[pos])
                    && self.seq(rest, pos + 1, k)
            }
            Node::Repeat {
                class,
                min,
                max,
                lazy,
            } => {
                let mut n = 0;
                while n < *max && pos + n < self.text.len() && class.contains(self.text[pos + n]) {
                    n += 1;
                }
                if n < *min {
                    return false;
                }
                if *lazy {
                    (*min..=n).any(|count| self.seq(rest, pos + count, k))
                } else {
                    (*min..=n).rev().any(|count| self.seq(rest, pos + count, k))
                }
            }
            Node::Capture(inner) => self.seq(inner, pos, &mut |end| {
                self.group.set(Some((pos, end)));
                self.seq(rest, end, k)
            }),
            Node::Star(inner) => self.star(inner, rest, pos, k),
        }
    }

    /// Greedy `(?:inner)*` then `rest`: one more iteration first, then stop here. An
    /// iteration that matches nothing ends the loop, as in Python.
    fn star(
        &self,
        inner: &[Node],
        rest: &[Node],
        pos: usize,
        k: &mut dyn FnMut(usize) -> bool,
    ) -> bool {
        if self.seq(inner, pos, &mut |end| {
            end > pos && self.star(inner, rest, end, k)
        }) {
            return true;
        }
        self.seq(rest, pos, k)
    }
}

impl Pattern {
    pub fn new(nodes: Vec<Node>) -> Self {
        Pattern { nodes }
    }

    /// `re.search` from character offset `from`: the leftmost match.
    pub fn search_chars(&self, text: &[char], from: usize) -> Option<Match> {
        let m = Matcher {
            text,
            group: std::cell::Cell::new(None),
        };
        for start in from..=text.len() {
            let mut end = None;
            if m.seq(&self.nodes, start, &mut |e| {
                end = Some(e);
                true
            }) {
                return end.map(|end| Match {
                    start,
                    end,
                    group: m.group.get(),
                });
            }
        }
        None
    }

    /// `re.search(pattern, text)`, returning the whole match and group 1 as strings.
    pub fn search(&self, text: &str) -> Option<(String, Option<String>)> {
        let chars: Vec<char> = text.chars().collect();
        let m = self.search_chars(&chars, 0)?;
        let slice = |(a, b): (usize, usize)| chars[a..b].iter().collect::<String>();
        Some((slice((m.start, m.end)), m.group.map(slice)))
    }

    /// `re.findall` for a pattern with one group: group 1 of every non-overlapping match.
    pub fn findall(&self, text: &str) -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        let mut out = Vec::new();
        let mut pos = 0;
        while pos <= chars.len() {
            let Some(m) = self.search_chars(&chars, pos) else {
                break;
            };
            if let Some((a, b)) = m.group {
                out.push(chars[a..b].iter().collect());
            }
            pos = if m.end == m.start { m.end + 1 } else { m.end };
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lazy_and_greedy_follow_python_order() {
        // a.*?b on "aXbYb" matches "aXb"; a.*b matches "aXbYb".
        let lazy = Pattern::new(
            [
                literal("a"),
                vec![Node::lazy_star(Class::Any)],
                literal("b"),
            ]
            .concat(),
        );
        let greedy =
            Pattern::new([literal("a"), vec![Node::star(Class::Any)], literal("b")].concat());
        assert_eq!(lazy.search("zaXbYb").map(|m| m.0), Some("aXb".into()));
        assert_eq!(greedy.search("zaXbYb").map(|m| m.0), Some("aXbYb".into()));
    }

    #[test]
    fn star_group_backtracks() {
        // \[(?:,x)*\] over "[,x,x]" and "[,x,y]".
        let p =
            Pattern::new([literal("["), vec![Node::Star(literal(",x"))], literal("]")].concat());
        assert!(p.search("[,x,x]").is_some());
        assert!(p.search("[,x,y]").is_none());
    }
}
