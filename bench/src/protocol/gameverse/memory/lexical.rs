//! The memory agent's stand-in for an embedding model (docs/gameverse.md, "Memory
//! agent"): a deterministic lexical distance, so that a run needs no embedding endpoint
//! and replays exactly.
//!
//! A text is the bag of its words: maximal runs of ASCII letters and digits, ASCII
//! letters lower-cased (every other character separates words). Two texts are compared
//! as their word-count vectors scaled to length 1, by the squared Euclidean distance
//! between them, which is what GameVerse's vector store (Chroma's default `l2` space)
//! reports for its unit-length embeddings: `d = 2 − 2·cos`, from 0 (same words in the
//! same proportions) to 2 (no word in common; a text without words is that far from
//! everything). So the reference's thresholds keep their geometric meaning: a memory is
//! retrieved at `d ≤ 0.4`, i.e. cosine ≥ 0.8, and a new memory is a duplicate of a
//! stored one at `d ≤ 0.8`, i.e. cosine ≥ 0.6.
//!
//! The arithmetic is integer until one square root and one division, so the Python twin
//! of the golden generator (tests/golden/gameverse/memory_conversation.py) computes the
//! same bits.

use std::collections::BTreeMap;

/// A text's words and how often each occurs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WordCounts(BTreeMap<String, u64>);

impl WordCounts {
    pub fn of(text: &str) -> Self {
        let mut counts = BTreeMap::new();
        for word in text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            *counts.entry(word.to_ascii_lowercase()).or_insert(0) += 1;
        }
        Self(counts)
    }

    fn norm_squared(&self) -> u64 {
        self.0.values().map(|c| c * c).sum()
    }

    fn dot(&self, other: &Self) -> u64 {
        self.0
            .iter()
            .filter_map(|(w, c)| other.0.get(w).map(|d| c * d))
            .sum()
    }
}

/// The distance between two texts' word counts: `2 − 2·cos`, in [0, 2].
pub fn distance(a: &WordCounts, b: &WordCounts) -> f64 {
    let norms = a.norm_squared() as f64 * b.norm_squared() as f64;
    if norms == 0.0 {
        return 2.0;
    }
    let cos = a.dot(b) as f64 / norms.sqrt();
    2.0 - 2.0 * cos
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(a: &str, b: &str) -> f64 {
        distance(&WordCounts::of(a), &WordCounts::of(b))
    }

    #[test]
    fn words_are_ascii_alphanumeric_runs_lower_cased() {
        assert_eq!(
            WordCounts::of("Up, up; DOWN-left 2048 é"),
            WordCounts::of("up up down left 2048")
        );
        assert_eq!(WordCounts::of(" ,;é "), WordCounts::default());
    }

    #[test]
    fn distance_is_two_minus_twice_the_cosine() {
        assert_eq!(d("wall left", "Left wall!"), 0.0);
        assert_eq!(d("wall left", "ball right"), 2.0);
        assert_eq!(d("", "anything"), 2.0);
        assert_eq!(d("", ""), 2.0);
        // One word of two in common: cos = 1/2.
        assert!((d("a b", "a c") - 1.0).abs() < 1e-12);
        // Four of five words shared: cos = 0.8, right at the retrieval threshold.
        assert!((d("a b c d e", "a b c d f") - 0.4).abs() < 1e-12);
    }
}
