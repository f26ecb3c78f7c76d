//! From reflection replies to the experience the next attempt is given
//! (`docs/gameverse.md`, "Reflect and retry"), as the reference computes it: stage 2's
//! reply is cut to the word limit with `...` and stripped; the saved experience is cut to
//! the limit again without `...` (stage 1 alone, the failure-only condition, gets only
//! that cut); an imported experience is taken as it is.

use envs::gameverse::py_str::{is_space, strip};
use serde::{Deserialize, Serialize};

use crate::attempts::ReflectionTurn;

/// The reflection conditions of the GameVerse paper (§4.3, Table 5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// No reflection: attempts are plain retries.
    #[default]
    None,
    /// Self-F: the failure analysis is the experience.
    Failure,
    /// Self-T: the tutorial alone (stage 2 with no failure analysis).
    Tutorial,
    /// Self: failure analysis, then the tutorial.
    Both,
    /// Another model's (or run's) experience, imported.
    Other,
}

impl Condition {
    pub const ALL: [Condition; 5] = [
        Condition::None,
        Condition::Failure,
        Condition::Tutorial,
        Condition::Both,
        Condition::Other,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Condition::None => "none",
            Condition::Failure => "failure",
            Condition::Tutorial => "tutorial",
            Condition::Both => "both",
            Condition::Other => "other",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The paper's label (Table 5).
    pub fn label(self) -> &'static str {
        match self {
            Condition::None => "No",
            Condition::Failure => "Self-F",
            Condition::Tutorial => "Self-T",
            Condition::Both => "Self",
            Condition::Other => "Other",
        }
    }

    /// Whether the playing model is asked to analyse its failure (stage 1).
    pub fn analyses_failure(self) -> bool {
        matches!(self, Condition::Failure | Condition::Both)
    }

    /// Whether the playing model watches the tutorial (stage 2).
    pub fn watches_tutorial(self) -> bool {
        matches!(self, Condition::Tutorial | Condition::Both)
    }
}

/// The stage names reflection turns carry.
pub const STAGE_FAILURE: &str = "failure_analysis";
pub const STAGE_EXPERIENCE: &str = "experience";
pub const STAGE_IMPORTED: &str = "imported";

/// Python's `text.split()`.
fn words(text: &str) -> Vec<&str> {
    text.split(is_space).filter(|w| !w.is_empty()).collect()
}

/// Stage 2's cut: over `max` words, the first `max` joined by spaces with `...`
/// appended; then stripped.
pub fn cut_reply(text: &str, max: usize) -> String {
    let w = words(text);
    if w.len() > max {
        strip(&format!("{}...", w[..max].join(" "))).to_string()
    } else {
        strip(text).to_string()
    }
}

/// The saver's cut: over `max` words, the first `max` joined by spaces.
pub fn cut_saved(text: &str, max: usize) -> String {
    let w = words(text);
    if w.len() > max {
        w[..max].join(" ")
    } else {
        text.to_string()
    }
}

/// The experience a finished reflection yields (empty when the reflection produced
/// none, e.g. an empty reply: the next attempt then gets the no-experience sentence).
pub fn experience_of(turns: &[ReflectionTurn], max: usize) -> String {
    let Some(last) = turns.last() else {
        return String::new();
    };
    match last.stage.as_str() {
        STAGE_EXPERIENCE => cut_saved(&cut_reply(&last.reply, max), max),
        STAGE_FAILURE => cut_saved(strip(&last.reply), max),
        _ => last.reply.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(stage: &str, reply: &str) -> ReflectionTurn {
        ReflectionTurn {
            stage: stage.into(),
            prompt: String::new(),
            media: Vec::new(),
            reply: reply.into(),
            ..ReflectionTurn::default()
        }
    }

    #[test]
    fn cuts_count_python_words() {
        assert_eq!(cut_reply("  a b\n c  ", 3), "a b\n c");
        assert_eq!(cut_reply("a  b\tc d", 3), "a b c...");
        assert_eq!(cut_saved("a  b\tc d", 3), "a b c");
        assert_eq!(cut_saved("a\n\nb", 3), "a\n\nb");
        // \x1f is whitespace to Python's split.
        assert_eq!(cut_reply("a\x1fb\x1fc", 2), "a b...");
    }

    #[test]
    fn the_experience_follows_the_last_stage() {
        let long: String = (0..1005).map(|i| format!("w{i} ")).collect();
        let e = experience_of(
            &[turn(STAGE_FAILURE, "x"), turn(STAGE_EXPERIENCE, &long)],
            1000,
        );
        assert_eq!(e.split(' ').count(), 1000);
        assert!(e.ends_with("w999..."), "{}", &e[e.len() - 20..]);
        let e = experience_of(&[turn(STAGE_FAILURE, &format!("\n{long}"))], 1000);
        assert!(e.ends_with("w999") && e.starts_with("w0 "));
        assert_eq!(
            experience_of(&[turn(STAGE_IMPORTED, " kept \n")], 1000),
            " kept \n"
        );
        assert_eq!(experience_of(&[], 1000), "");
        assert_eq!(Condition::parse("both"), Some(Condition::Both));
        assert_eq!(Condition::Tutorial.label(), "Self-T");
    }
}
