//! The four moves of 2048 and Maze as presets and keys: `up`, `down`, `left`, `right`,
//! each written as the action mode writes it (the word, or a GUI key press), played by
//! the arrow keys and WASD.

use super::direction_words::Direction;
use super::gui_action::press_text;
use super::text_actions::TextActions;
use super::ActionMode;
use crate::core::env::KeyBinding;

/// The presets, in the order of [`Direction::ALL`]; `doc` starts each description.
pub fn presets(mode: ActionMode, doc: &str) -> TextActions {
    Direction::ALL
        .into_iter()
        .fold(TextActions::new(), |actions, d| {
            let word = d.word();
            let reply = match mode {
                ActionMode::Semantic => word.to_string(),
                ActionMode::Gui => press_text(word),
            };
            actions.reply_preset(word, &format!("{doc} {word}"), &reply)
        })
}

/// Arrow keys and WASD.
pub fn keymap() -> Vec<KeyBinding> {
    let index = |d: Direction| Direction::ALL.iter().position(|&x| x == d).unwrap_or(0);
    [
        ("ArrowUp", Direction::Up),
        ("w", Direction::Up),
        ("ArrowDown", Direction::Down),
        ("s", Direction::Down),
        ("ArrowLeft", Direction::Left),
        ("a", Direction::Left),
        ("ArrowRight", Direction::Right),
        ("d", Direction::Right),
    ]
    .into_iter()
    .map(|(key, d)| KeyBinding::new(key, index(d)))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gameverse::direction_words::first_direction;

    #[test]
    fn each_preset_is_read_as_its_move_in_its_mode() {
        for mode in [ActionMode::Semantic, ActionMode::Gui] {
            let p = presets(mode, "Move");
            for (name, d) in p.names().iter().zip(Direction::ALL) {
                assert_eq!(first_direction(name), Some(d), "{name}");
            }
        }
        assert_eq!(keymap().len(), 8);
    }
}
