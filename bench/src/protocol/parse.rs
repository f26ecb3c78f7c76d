//! Reading the action from a reply (`docs/vical-protocol.md`, "Reading the action"): the
//! `[Action: <name>]` marker on the first line. Names mentioned anywhere else are never
//! executed.

use serde::{Deserialize, Serialize};

/// How forgiving the parser is; stored with every run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strictness {
    /// V-ICAL: the first non-blank line starts with `[Action: <name>]` and the name is
    /// one of the actions exactly (spaces around the name are ignored, so no space
    /// after the colon is fine too).
    #[default]
    Exact,
    /// Also accepts any letter case, runs of spaces inside the name, and the line
    /// wrapped in Markdown emphasis or code marks (`*`, `_`, `` ` ``).
    Lenient,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The reply is empty.
    Empty,
    /// The first line does not start with the marker.
    NoMarker { first_line: String },
    /// The marker names something that is not an action.
    UnknownAction { name: String },
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Empty => write!(f, "the reply is empty"),
            Self::NoMarker { first_line } => write!(
                f,
                "the first line does not start with [Action: ...]: {first_line:?}"
            ),
            Self::UnknownAction { name } => write!(f, "{name:?} is not one of the actions"),
        }
    }
}

impl std::error::Error for ParseError {}

fn normalise(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The index in `actions` of the action the reply chooses.
pub fn parse_action(
    reply: &str,
    actions: &[String],
    strictness: Strictness,
) -> Result<usize, ParseError> {
    let first = reply
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .ok_or(ParseError::Empty)?;
    let line = match strictness {
        Strictness::Exact => first,
        Strictness::Lenient => first.trim_start_matches(['*', '`', '_']).trim_start(),
    };
    let no_marker = || ParseError::NoMarker {
        first_line: first.chars().take(200).collect(),
    };
    let rest = match strictness {
        Strictness::Exact => line.strip_prefix("[Action:").ok_or_else(no_marker)?,
        Strictness::Lenient => {
            let prefix: String = line.chars().take(8).collect();
            if !prefix.eq_ignore_ascii_case("[action:") {
                return Err(no_marker());
            }
            &line[prefix.len()..]
        }
    };
    let name = rest
        .split(']')
        .next()
        .filter(|_| rest.contains(']'))
        .ok_or_else(no_marker)?
        .trim();
    let found = match strictness {
        Strictness::Exact => actions.iter().position(|a| a == name),
        Strictness::Lenient => {
            let wanted = normalise(name);
            actions.iter().position(|a| normalise(a) == wanted)
        }
    };
    found.ok_or_else(|| ParseError::UnknownAction {
        name: name.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn actions() -> Vec<String> {
        ["turn left", "turn right", "move forward", "FIRE"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    #[test]
    fn the_marker_on_the_first_line_is_the_action() {
        let a = actions();
        assert_eq!(
            parse_action(
                "[Action: move forward]\nbecause the goal is ahead",
                &a,
                Strictness::Exact
            ),
            Ok(2)
        );
        assert_eq!(
            parse_action("\n  [Action: FIRE]", &a, Strictness::Exact),
            Ok(3)
        );
        assert_eq!(
            parse_action("[Action:  turn left ] ok", &a, Strictness::Exact),
            Ok(0)
        );
    }

    #[test]
    fn names_elsewhere_are_never_executed() {
        let a = actions();
        let reply = "I will turn left.\n[Action: turn left]";
        assert!(matches!(
            parse_action(reply, &a, Strictness::Exact),
            Err(ParseError::NoMarker { .. })
        ));
        assert!(matches!(
            parse_action(reply, &a, Strictness::Lenient),
            Err(ParseError::NoMarker { .. })
        ));
    }

    #[test]
    fn exact_and_lenient_differ_as_documented() {
        let a = actions();
        for reply in [
            "[action: Turn  Left]",
            "**[Action:turn left]**",
            "`[ACTION: turn left]`",
        ] {
            assert!(
                parse_action(reply, &a, Strictness::Exact).is_err(),
                "{reply}"
            );
            assert_eq!(
                parse_action(reply, &a, Strictness::Lenient),
                Ok(0),
                "{reply}"
            );
        }
        assert_eq!(
            parse_action("[Action: jump]", &a, Strictness::Lenient),
            Err(ParseError::UnknownAction {
                name: "jump".into()
            })
        );
        assert_eq!(
            parse_action("   \n ", &a, Strictness::Exact),
            Err(ParseError::Empty)
        );
        assert!(parse_action("[Action: turn left", &a, Strictness::Exact).is_err());
    }
}
