//! The milestones a step reports (`Signals::events`). Most environments name them from a
//! fixed list, and a milestone is reported again on every step it holds (Taxi's
//! "pickup passenger" while the passenger rides), so a fixed name costs no allocation:
//! steps are the hot path of every run and benchmark.

use std::fmt;

/// Milestones reached or held after a step, in the order the environment names them.
#[derive(Clone)]
pub enum Events {
    /// Names known when the program was built.
    Fixed(&'static [&'static str]),
    /// Names made while playing (a colour, a count).
    Named(Vec<String>),
}

impl Events {
    pub const NONE: Events = Events::Fixed(&[]);

    pub fn len(&self) -> usize {
        match self {
            Events::Fixed(names) => names.len(),
            Events::Named(names) => names.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, i: usize) -> Option<&str> {
        match self {
            Events::Fixed(names) => names.get(i).copied(),
            Events::Named(names) => names.get(i).map(String::as_str),
        }
    }

    pub fn first(&self) -> Option<&str> {
        self.get(0)
    }

    pub fn last(&self) -> Option<&str> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }

    pub fn contains(&self, name: &str) -> bool {
        self.iter().any(|n| n == name)
    }

    pub fn iter(&self) -> Iter<'_> {
        Iter {
            events: self,
            next: 0,
        }
    }

    /// Adds a milestone after the others.
    pub fn push(&mut self, name: impl Into<String>) {
        if let Events::Fixed(names) = self {
            *self = Events::Named(names.iter().map(|n| n.to_string()).collect());
        }
        if let Events::Named(names) = self {
            names.push(name.into());
        }
    }
}

impl Default for Events {
    fn default() -> Self {
        Events::NONE
    }
}

/// Equal when they name the same milestones in the same order, however held.
impl PartialEq for Events {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Events {}

impl fmt::Debug for Events {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl From<Vec<String>> for Events {
    fn from(names: Vec<String>) -> Self {
        Events::Named(names)
    }
}

impl FromIterator<String> for Events {
    fn from_iter<I: IntoIterator<Item = String>>(names: I) -> Self {
        Events::Named(names.into_iter().collect())
    }
}

impl<'a> IntoIterator for &'a Events {
    type Item = &'a str;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

pub struct Iter<'a> {
    events: &'a Events,
    next: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a str;
    fn next(&mut self) -> Option<&'a str> {
        let name = self.events.get(self.next)?;
        self.next += 1;
        Some(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_and_named_compare_by_their_names() {
        let fixed = Events::Fixed(&["pickup passenger", "open red door"]);
        let named = Events::from(vec![
            "pickup passenger".to_string(),
            "open red door".to_string(),
        ]);
        assert_eq!(fixed, named);
        assert_ne!(fixed, Events::Fixed(&["pickup passenger"]));
        assert_ne!(
            fixed,
            Events::Fixed(&["open red door", "pickup passenger"]),
            "order matters"
        );
        assert_eq!(
            format!("{fixed:?}"),
            r#"["pickup passenger", "open red door"]"#
        );
    }

    #[test]
    fn push_keeps_order_and_reads_back() {
        let mut events = Events::Fixed(&["a"]);
        events.push("b");
        events.push(String::from("c"));
        assert_eq!(events.iter().collect::<Vec<_>>(), ["a", "b", "c"]);
        assert_eq!((events.first(), events.last()), (Some("a"), Some("c")));
        assert!(events.contains("b") && !events.contains("d"));
        assert_eq!(events.len(), 3);
        assert!(Events::NONE.is_empty() && Events::NONE.last().is_none());
    }
}
