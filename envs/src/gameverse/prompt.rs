//! GameVerse's prompt templates are Python format strings: `{name}` is a placeholder and
//! `{{` / `}}` stand for literal braces. [`fill`] renders one the way `str.format(**values)`
//! does for the plain named fields these templates use.

use crate::core::agent_prompts::AgentPrompts;

/// The text in the experience slot when no reflection is loaded (reflection off, or no
/// experience yet), exactly as GameVerse writes it.
pub const NO_EXPERIENCE: &str =
    "No prior experience available. Play based on the game rules and your strategic reasoning.";

/// A template that could not be filled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplateError {
    /// A placeholder with no value (Python raises `KeyError`).
    Missing(String),
    /// A lone `{` or `}` (Python raises `ValueError`).
    Unbalanced(usize),
}

impl std::fmt::Display for TemplateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TemplateError::Missing(name) => write!(f, "no value for placeholder {{{name}}}"),
            TemplateError::Unbalanced(at) => write!(f, "single brace at byte {at}"),
        }
    }
}

impl std::error::Error for TemplateError {}

/// Renders `template` with `values` (placeholder name, text). Values are inserted as they
/// are; braces inside them stay literal.
pub fn fill(template: &str, values: &[(&str, &str)]) -> Result<String, TemplateError> {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    let mut offset = 0;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let brace = &rest[i..i + 1];
        let after = &rest[i + 1..];
        if after.starts_with(brace) {
            out.push_str(brace);
            rest = &after[1..];
            offset += i + 2;
            continue;
        }
        if brace == "}" {
            return Err(TemplateError::Unbalanced(offset + i));
        }
        let close = after
            .find('}')
            .ok_or(TemplateError::Unbalanced(offset + i))?;
        let name = &after[..close];
        let value = values
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| *v)
            .ok_or_else(|| TemplateError::Missing(name.to_string()))?;
        out.push_str(value);
        rest = &after[close + 1..];
        offset += i + close + 2;
    }
    out.push_str(rest);
    Ok(out)
}

/// The placeholders of a template, in order of first appearance.
pub fn placeholders(template: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        let brace = &rest[i..i + 1];
        let after = &rest[i + 1..];
        if after.starts_with(brace) {
            rest = &after[1..];
            continue;
        }
        match (brace, after.find('}')) {
            ("{", Some(close)) => {
                let name = after[..close].to_string();
                if !names.contains(&name) {
                    names.push(name);
                }
                rest = &after[close + 1..];
            }
            _ => rest = after,
        }
    }
    names
}

/// A game's zero-shot prompt templates (system and per-step user prompt) for one action
/// mode, verbatim from the reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PromptTemplates {
    pub system: &'static str,
    pub user: &'static str,
}

/// A game's zero-shot agent prompts in its current state: its GameVerse name, the action
/// mode's templates and the values the game supplies (`get_game_info`).
pub fn agent_prompts(
    game_name: &'static str,
    templates: PromptTemplates,
    values: Vec<(&'static str, String)>,
) -> AgentPrompts {
    AgentPrompts {
        game_name,
        system: templates.system,
        user: templates.user,
        values,
        memory: None,
        observation: None,
    }
}

/// The system prompt a zero-shot agent sends before any reflection: the system template
/// filled with the game's values and the no-experience sentence. GameVerse observes by
/// screenshot only, so text-mode play has no prompt of the reference's (`None`); so has
/// a template that does not fill (which the prompt tests rule out).
pub fn system_instructions(prompts: &AgentPrompts, text_mode: bool) -> Option<String> {
    if text_mode {
        return None;
    }
    let mut values: Vec<(&str, &str)> = prompts
        .values
        .iter()
        .map(|(k, v)| (*k, v.as_str()))
        .collect();
    values.push(("reflection_experience", NO_EXPERIENCE));
    fill(prompts.system, &values).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_fills_its_templates() {
        use crate::gameverse::maze::{Maze, MazeConfig};
        use crate::gameverse::snake::{Snake, SnakeConfig};
        use crate::gameverse::twenty_forty_eight::{TwentyFortyEight, TwentyFortyEightConfig};
        use crate::gameverse::{maze, snake, twenty_forty_eight, ActionMode};
        let agent = [("action", "up"), ("reflection_experience", NO_EXPERIENCE)];
        type Game = (
            Vec<(&'static str, String)>,
            fn(ActionMode) -> PromptTemplates,
        );
        let games: [Game; 3] = [
            (
                TwentyFortyEight::new(TwentyFortyEightConfig::default()).prompt_values(),
                twenty_forty_eight::prompts,
            ),
            (
                Maze::new(MazeConfig::default()).prompt_values(),
                maze::prompts,
            ),
            (
                Snake::new(SnakeConfig::default()).prompt_values(),
                snake::prompts,
            ),
        ];
        for (values, prompts) in games {
            let mut all: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
            all.extend(agent);
            for mode in [ActionMode::Semantic, ActionMode::Gui] {
                let t = prompts(mode);
                for template in [t.system, t.user] {
                    let text = fill(template, &all);
                    assert!(
                        text.as_ref().is_ok_and(|t| !t.contains("{reflection")),
                        "{text:?}"
                    );
                }
            }
        }
        let snake_gui = fill(
            snake::prompts(ActionMode::Gui).system,
            &[("board_size", "9"), ("reflection_experience", "E")],
        );
        assert!(snake_gui
            .is_ok_and(|t| t.contains("on an 9×9 grid")
                && t.contains("orientation.### Learned Experience")));
    }

    #[test]
    fn fills_like_str_format() {
        assert_eq!(
            fill("a {x} {{b}} {y}", &[("x", "{1}"), ("y", "2")]),
            Ok("a {1} {b} 2".into())
        );
        assert_eq!(fill("{z}", &[]), Err(TemplateError::Missing("z".into())));
        assert!(fill("a } b", &[]).is_err());
        assert_eq!(placeholders("{a}{{b}}{c}{a}"), vec!["a", "c"]);
    }
}
