//! The memory agent's long-term store (GameVerse's `GenericMemory` vector store,
//! docs/gameverse.md "Memory agent"): texts with their [`lexical`](super::lexical)
//! word counts. A new text is kept unless a stored one is a near duplicate (distance
//! ≤ 0.8); a query returns the nearest min(3, stored) texts, keeps those at distance ≤
//! 0.4 and renders them `1: …\n2: …`.

use super::lexical::{distance, WordCounts};

/// A new memory within this distance of a stored one is not saved.
pub const DUPLICATE_DISTANCE: f64 = 0.8;
/// A stored memory within this distance of the query is retrieved.
pub const RETRIEVAL_DISTANCE: f64 = 0.4;
/// At most this many memories are looked at per query.
pub const TOP_K: usize = 3;

#[derive(Clone, Debug, Default)]
pub struct LongTermStore {
    memories: Vec<(String, WordCounts)>,
}

impl LongTermStore {
    pub fn len(&self) -> usize {
        self.memories.len()
    }

    pub fn is_empty(&self) -> bool {
        self.memories.is_empty()
    }

    /// The stored texts, oldest first.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.memories.iter().map(|(t, _)| t.as_str())
    }

    /// Stored memories by distance to `counts`, nearest first (ties: oldest first).
    fn nearest(&self, counts: &WordCounts) -> Vec<(f64, &str)> {
        let mut by_distance: Vec<(f64, &str)> = self
            .memories
            .iter()
            .map(|(t, c)| (distance(counts, c), t.as_str()))
            .collect();
        by_distance.sort_by(|a, b| a.0.total_cmp(&b.0));
        by_distance
    }

    /// Saves `text` unless it is empty or a stored memory is a near duplicate; whether
    /// it was saved.
    pub fn add(&mut self, text: &str) -> bool {
        if text.is_empty() {
            return false;
        }
        let counts = WordCounts::of(text);
        if let Some((d, _)) = self.nearest(&counts).first() {
            if *d <= DUPLICATE_DISTANCE {
                return false;
            }
        }
        self.memories.push((text.to_string(), counts));
        true
    }

    /// The memories near `query`, rendered `1: …\n2: …`; `None` when the store is
    /// empty, the query is empty or nothing is near.
    pub fn retrieve(&self, query: &str) -> Option<String> {
        if self.memories.is_empty() || query.is_empty() {
            return None;
        }
        let hits: Vec<String> = self
            .nearest(&WordCounts::of(query))
            .into_iter()
            .take(TOP_K.min(self.memories.len()))
            .filter(|(d, _)| *d <= RETRIEVAL_DISTANCE)
            .enumerate()
            .map(|(i, (_, t))| format!("{}: {t}", i + 1))
            .collect();
        (!hits.is_empty()).then(|| hits.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_duplicates_are_not_saved() {
        let mut s = LongTermStore::default();
        assert!(!s.add(""));
        assert!(s.add("The wall is left of the start"));
        // Same words: distance 0.
        assert!(!s.add("the start: wall is LEFT of the"));
        // Half the words in common: cos 0.5, distance 1.0 > 0.8.
        assert!(s.add("wall start left of ball moved down twice"));
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn retrieval_keeps_the_near_ones_of_the_top_three() {
        let mut s = LongTermStore::default();
        assert_eq!(s.retrieve("anything"), None);
        for t in [
            "alpha beta gamma delta",
            "one two three four",
            "red green blue cyan",
        ] {
            assert!(s.add(t));
        }
        assert_eq!(s.retrieve(""), None);
        assert_eq!(s.retrieve("nothing shared"), None);
        assert_eq!(
            s.retrieve("alpha beta gamma delta").as_deref(),
            Some("1: alpha beta gamma delta")
        );
        assert!(s.add("alpha beta gamma epsilon zeta eta theta iota"));
        // cos with the first: 4/4 = 1; with the fourth: 3/sqrt(4*8) ≈ 0.53 (a miss).
        assert_eq!(
            s.retrieve("alpha beta gamma delta").as_deref(),
            Some("1: alpha beta gamma delta")
        );
        // cos 4/sqrt(5*4) ≈ 0.89 with the first: a duplicate.
        assert!(!s.add("alpha beta gamma delta kappa"));
        // cos 2/sqrt(4*4) = 0.5 with the first: saved; a query sharing 3 words with
        // each (cos 3/sqrt(4*4) = 0.75, distance 0.5) hits neither.
        assert!(s.add("alpha beta lambda mu"));
        assert_eq!(s.retrieve("alpha beta gamma mu"), None);
        // Two hits at the same distance (cos 4/sqrt(24) ≈ 0.82): oldest first.
        assert_eq!(
            s.retrieve("alpha beta gamma delta lambda mu").as_deref(),
            Some("1: alpha beta gamma delta\n2: alpha beta lambda mu")
        );
    }
}
