//! The direction reader of GameVerse's 2048 and Maze (semantic mode, and 2048's GUI mode
//! too): the reply is cut into runs of word characters and spaces, each optionally
//! wrapped in `*` and followed by one more character (Python: `\**([\w ]+)\**.?`); the
//! first run that is exactly `up`, `down`, `left` or `right` after lower-casing and
//! trimming is the move. So `**Up**`, `up.`, `Move: up` and `{"key": "up"}` move up,
//! while `move up` (one run) does not.

use super::py_pattern::{Class, Node, Pattern};
use super::py_str;

/// One of the four moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// The word the games read (and a key name in GUI actions).
    pub fn word(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Down => "down",
            Direction::Left => "left",
            Direction::Right => "right",
        }
    }

    pub fn from_word(word: &str) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.word() == word)
    }
}

fn runs() -> Pattern {
    Pattern::new(vec![
        Node::star(Class::Lit('*')),
        Node::Capture(vec![Node::plus(Class::WordOrSpace)]),
        Node::star(Class::Lit('*')),
        Node::optional(Class::AnyButNewline),
    ])
}

/// Every direction the reply names, in order (the games play the first).
pub fn directions(text: &str) -> Vec<Direction> {
    runs()
        .findall(text)
        .iter()
        .filter_map(|run| Direction::from_word(py_str::strip(&run.to_lowercase())))
        .collect()
}

/// The move a reply makes, if any.
pub fn first_direction(text: &str) -> Option<Direction> {
    directions(text).into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Direction::*;

    #[test]
    fn reads_like_the_reference() {
        assert_eq!(first_direction("**Up**"), Some(Up));
        assert_eq!(first_direction("up."), Some(Up));
        assert_eq!(first_direction("Move: down"), Some(Down));
        assert_eq!(first_direction("UP-arrow"), Some(Up));
        assert_eq!(first_direction("{\"key\": \"left\"}"), Some(Left));
        assert_eq!(first_direction("move up"), None);
        // The character after the closing stars is swallowed: "own" is not a direction.
        assert_eq!(directions("**up**down"), vec![Up]);
        assert_eq!(first_direction("x**up**"), None);
        assert_eq!(first_direction("### Actions: up"), Some(Up));
        assert_eq!(first_direction(""), None);
    }
}
