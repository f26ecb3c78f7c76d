//! GameVerse's JSON GUI actions (its action space of UI-TARS-style types) and the three
//! ways its games pull them out of a reply: one action object (Maze), one click object
//! (Tic-Tac-Toe) or a list of actions (every game built on its common GUI environment,
//! Snake among them).
//! A failure to read the reply means no action at all; what that costs is each game's rule.

use super::py_json::{self, PyValue};
use super::py_pattern::{literal, Class, Node, Pattern};
use super::py_str;

/// The action types GameVerse accepts (case-insensitive in a reply).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionType {
    MoveTo,
    MoveBy,
    Click,
    RightClick,
    DoubleClick,
    DragTo,
    Scroll,
    Typing,
    Hotkey,
    MouseDown,
    MouseUp,
    Press,
    KeyDown,
    KeyUp,
    Wait,
    Done,
    Fail,
}

impl ActionType {
    pub const ALL: [ActionType; 17] = [
        ActionType::MoveTo,
        ActionType::MoveBy,
        ActionType::Click,
        ActionType::RightClick,
        ActionType::DoubleClick,
        ActionType::DragTo,
        ActionType::Scroll,
        ActionType::Typing,
        ActionType::Hotkey,
        ActionType::MouseDown,
        ActionType::MouseUp,
        ActionType::Press,
        ActionType::KeyDown,
        ActionType::KeyUp,
        ActionType::Wait,
        ActionType::Done,
        ActionType::Fail,
    ];

    /// The name as written in GameVerse's action space.
    pub fn name(self) -> &'static str {
        match self {
            ActionType::MoveTo => "MOVE_TO",
            ActionType::MoveBy => "MOVE_BY",
            ActionType::Click => "CLICK",
            ActionType::RightClick => "RIGHT_CLICK",
            ActionType::DoubleClick => "DOUBLE_CLICK",
            ActionType::DragTo => "DRAG_TO",
            ActionType::Scroll => "SCROLL",
            ActionType::Typing => "TYPING",
            ActionType::Hotkey => "HOTKEY",
            ActionType::MouseDown => "MOUSE_DOWN",
            ActionType::MouseUp => "MOUSE_UP",
            ActionType::Press => "PRESS",
            ActionType::KeyDown => "KEY_DOWN",
            ActionType::KeyUp => "KEY_UP",
            ActionType::Wait => "WAIT",
            ActionType::Done => "DONE",
            ActionType::Fail => "FAIL",
        }
    }

    /// The type named by a reply's `action_type` string: Python upper-cases it and
    /// requires an exact name.
    pub fn parse(s: &str) -> Option<ActionType> {
        let upper = s.to_uppercase();
        ActionType::ALL.into_iter().find(|t| t.name() == upper)
    }
}

/// One GUI action as GameVerse builds it from a JSON object.
#[derive(Clone, Debug, PartialEq)]
pub struct GuiAction {
    /// `None` when `action_type` was not a string: Python keeps such a value unchecked,
    /// and it matches no type.
    pub action_type: Option<ActionType>,
    /// The `parameters` value as written (any JSON value; `{}` when absent).
    pub parameters: PyValue,
}

/// Why a reply yields no GUI action.
#[derive(Clone, Debug, PartialEq)]
pub enum GuiParseError {
    Json(py_json::JsonError),
    /// The JSON is not an object (or, for lists, an item is not).
    NotAnObject,
    /// `action_type` names no action type.
    UnknownActionType(String),
}

impl std::fmt::Display for GuiParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GuiParseError::Json(e) => write!(f, "invalid JSON: {e}"),
            GuiParseError::NotAnObject => write!(f, "not a JSON object"),
            GuiParseError::UnknownActionType(t) => write!(f, "'{t}' is not a valid ActionType"),
        }
    }
}

impl std::error::Error for GuiParseError {}

impl GuiAction {
    /// GameVerse's `GUI_action.from_dict`.
    pub fn from_value(value: &PyValue) -> Result<GuiAction, GuiParseError> {
        if !matches!(value, PyValue::Dict(_)) {
            return Err(GuiParseError::NotAnObject);
        }
        let action_type = match value.get("action_type") {
            None => return Err(GuiParseError::UnknownActionType(String::new())),
            Some(PyValue::Str(s)) => Some(
                ActionType::parse(s).ok_or_else(|| GuiParseError::UnknownActionType(s.clone()))?,
            ),
            Some(_) => None,
        };
        let parameters = value
            .get("parameters")
            .cloned()
            .unwrap_or(PyValue::Dict(Vec::new()));
        Ok(GuiAction {
            action_type,
            parameters,
        })
    }

    /// `parameters.get("key", "").lower()` of a PRESS action, as the games read it.
    /// `Err` where Python raises: parameters that are not an object, a key that is not a
    /// string.
    pub fn pressed_key(&self) -> Result<Option<String>, GuiParseError> {
        if self.action_type != Some(ActionType::Press) {
            return Ok(None);
        }
        match &self.parameters {
            PyValue::Dict(_) => match self.parameters.get("key") {
                None => Ok(Some(String::new())),
                Some(PyValue::Str(k)) => Ok(Some(k.to_lowercase())),
                Some(_) => Err(GuiParseError::NotAnObject),
            },
            _ => Err(GuiParseError::NotAnObject),
        }
    }
}

/// ```` ```json\s*(.*?)\s*``` ```` with DOTALL: the body of the first fenced JSON block.
fn fenced_json() -> Pattern {
    Pattern::new(
        [
            literal("```json"),
            vec![
                Node::star(Class::Space),
                Node::Capture(vec![Node::lazy_star(Class::Any)]),
                Node::star(Class::Space),
            ],
            literal("```"),
        ]
        .concat(),
    )
}

/// `\{[^{}]*"action_type"[^{}]*\}`: a flat object that mentions `action_type`.
fn flat_action_object() -> Pattern {
    Pattern::new(
        [
            literal("{"),
            vec![Node::star(Class::NotBrace)],
            literal("\"action_type\""),
            vec![Node::star(Class::NotBrace)],
            literal("}"),
        ]
        .concat(),
    )
}

/// `\[\s*\{.*?\}\s*(?:,\s*\{.*?\}\s*)*\]` with DOTALL: a list of objects.
fn object_list() -> Pattern {
    let item = |lead: Vec<Node>| {
        [
            lead,
            vec![Node::star(Class::Space)],
            literal("{"),
            vec![Node::lazy_star(Class::Any)],
            literal("}"),
            vec![Node::star(Class::Space)],
        ]
        .concat()
    };
    Pattern::new(
        [
            item(literal("[")),
            vec![Node::Star(item(literal(",")))],
            literal("]"),
        ]
        .concat(),
    )
}

/// A run of `\s*` around literal text, as the click patterns write their JSON.
fn spaced(parts: &[Vec<Node>]) -> Vec<Node> {
    let mut out = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            out.push(Node::star(Class::Space));
        }
        out.extend(part.iter().cloned());
    }
    out
}

/// `\{\s*"action_type"\s*:\s*"[^"]+"\s*,\s*"parameters"\s*:\s*\{[^}]*\}\s*\}`: an action
/// whose only keys are `action_type` (a string) and flat `parameters`, in that order.
fn nested_click_object() -> Pattern {
    Pattern::new(spaced(&[
        literal("{"),
        literal("\"action_type\""),
        literal(":"),
        [
            literal("\""),
            vec![Node::plus(Class::NotQuote)],
            literal("\""),
        ]
        .concat(),
        literal(","),
        literal("\"parameters\""),
        literal(":"),
        [
            literal("{"),
            vec![Node::star(Class::NotCloseBrace)],
            literal("}"),
        ]
        .concat(),
        literal("}"),
    ]))
}

/// `\{\s*"x"\s*:\s*\d+\s*,\s*"y"\s*:\s*\d+\s*\}`: a bare point of unsigned integers.
fn bare_point_object() -> Pattern {
    Pattern::new(spaced(&[
        literal("{"),
        literal("\"x\""),
        literal(":"),
        vec![Node::plus(Class::Digit)],
        literal(","),
        literal("\"y\""),
        literal(":"),
        vec![Node::plus(Class::Digit)],
        literal("}"),
    ]))
}

/// The JSON text of a click, the way Tic-Tac-Toe finds it: the fenced JSON block, else
/// the first `{"action_type": "…", "parameters": {…}}` object, else the first bare
/// `{"x": N, "y": N}`, else the whole text. Decoding it and reading the point are the
/// game's (`tic_tac_toe::gui`).
pub fn click_json_text(text: &str) -> String {
    if let Some((_, Some(body))) = fenced_json().search(text) {
        return body;
    }
    [nested_click_object(), bare_point_object()]
        .iter()
        .find_map(|p| p.search(text).map(|(whole, _)| whole))
        .unwrap_or_else(|| text.to_string())
}

/// The single action of a reply, the way Maze reads it: the fenced JSON block, else the
/// first flat object naming `action_type`, else the whole text; it must decode to one
/// object.
pub fn parse_single_action(text: &str) -> Result<GuiAction, GuiParseError> {
    let json_text = match fenced_json().search(text) {
        Some((_, Some(body))) => body,
        _ => match flat_action_object().search(text) {
            Some((whole, _)) => whole,
            None => text.to_string(),
        },
    };
    let value = py_json::loads(&json_text).map_err(GuiParseError::Json)?;
    GuiAction::from_value(&value)
}

/// The actions of a reply, the way GameVerse's common GUI environment reads them: the
/// fenced JSON block (stripped), else the first list of objects, else the first flat
/// object naming `action_type`, else the whole text; a list gives its items (each must
/// be an action), an object gives one action.
pub fn parse_action_list(text: &str) -> Result<Vec<GuiAction>, GuiParseError> {
    let json_text = match fenced_json().search(text) {
        Some((_, Some(body))) => py_str::strip(&body).to_string(),
        _ => match object_list().search(text) {
            Some((whole, _)) => whole,
            None => match flat_action_object().search(text) {
                Some((whole, _)) => whole,
                None => text.to_string(),
            },
        },
    };
    let value = py_json::loads(&json_text).map_err(GuiParseError::Json)?;
    match &value {
        PyValue::List(items) => items.iter().map(GuiAction::from_value).collect(),
        other => Ok(vec![GuiAction::from_value(other)?]),
    }
}

/// The reply text of one GUI key press, as GameVerse's prompts show it (one JSON object,
/// which both the single-action and the list readers accept).
pub fn press_text(key: &str) -> String {
    format!("{{\"action_type\": \"PRESS\", \"parameters\": {{\"key\": \"{key}\"}}}}")
}

/// The reply text of one GUI click at (x, y) in the coordinates the game reads.
pub fn click_text(x: i64, y: i64) -> String {
    format!("{{\"action_type\": \"CLICK\", \"parameters\": {{\"x\": {x}, \"y\": {y}}}}}")
}

/// GameVerse's normalized coordinates: a value on a 0-1000 scale mapped onto `size`
/// pixels, `int(value / 1000 * size)` clamped to `0..size`.
pub fn normalized_to_pixels(value: f64, size: u32) -> i64 {
    let v = value / 1000.0 * f64::from(size);
    // Python's int() truncates toward zero; NaN raises there, here it clamps to 0.
    let truncated = if v.is_nan() { 0.0 } else { v.trunc() };
    let max = i64::from(size.max(1) - 1);
    if truncated <= 0.0 {
        0
    } else if truncated >= max as f64 {
        max
    } else {
        truncated as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_action_extraction() {
        let press = |t: &str| parse_single_action(t).and_then(|a| a.pressed_key());
        assert_eq!(
            press("```json\n{\"action_type\": \"press\", \"parameters\": {\"key\": \"UP\"}}\n```"),
            Ok(Some("up".into()))
        );
        assert_eq!(
            press("I press {\"action_type\": \"PRESS\", \"parameters\": {\"key\": \"down\"}} now"),
            Err(GuiParseError::Json(py_json::JsonError {
                message: "Expecting value",
                pos: 0
            }))
        );
        assert!(matches!(
            parse_single_action(
                "[{\"action_type\": \"PRESS\", \"parameters\": {\"key\": \"up\"}}]"
            ),
            Err(GuiParseError::NotAnObject)
        ));
        assert!(matches!(
            parse_single_action("{\"action_type\": \"JUMP\"}"),
            Err(GuiParseError::UnknownActionType(_))
        ));
        assert_eq!(
            parse_single_action("{\"action_type\": 7}").map(|a| a.action_type),
            Ok(None)
        );
    }

    #[test]
    fn written_actions_read_back() {
        let press = press_text("up");
        assert_eq!(
            parse_single_action(&press).unwrap().pressed_key(),
            Ok(Some("up".into()))
        );
        assert_eq!(parse_action_list(&press).unwrap().len(), 1);
        let click = parse_single_action(&click_text(375, 250)).unwrap();
        assert_eq!(click.action_type, Some(ActionType::Click));
        assert_eq!(click.parameters.get("x"), Some(&PyValue::Int(375)));
    }

    #[test]
    fn click_extraction() {
        let click = "{\"action_type\": \"CLICK\", \"parameters\": {\"x\": 1, \"y\": 2}}";
        assert_eq!(click_json_text(&format!("I click {click} now")), click);
        // An extra key breaks the nested form; its parameters are a bare point.
        let extra =
            "{\"action_type\": \"CLICK\", \"note\": 1, \"parameters\": { \"x\" : 1 ,\"y\":2 }}";
        assert_eq!(click_json_text(extra), "{ \"x\" : 1 ,\"y\":2 }");
        // Negative or fractional points are not bare points: the whole text is kept.
        assert_eq!(
            click_json_text("at {\"x\": -3, \"y\": 4}"),
            "at {\"x\": -3, \"y\": 4}"
        );
        assert_eq!(click_json_text("```json\n [1] \n```"), "[1]");
    }

    #[test]
    fn list_extraction() {
        let keys = |t: &str| {
            parse_action_list(t).map(|v| {
                v.iter()
                    .map(|a| a.pressed_key().ok().flatten().unwrap_or_default())
                    .collect::<Vec<_>>()
            })
        };
        assert_eq!(
            keys("I will press:\n[ {\"action_type\": \"PRESS\", \"parameters\": {\"key\": \"up\"}}, {\"action_type\": \"PRESS\", \"parameters\": {\"key\": \"left\"}} ]\nDone."),
            Ok(vec!["up".to_string(), "left".to_string()])
        );
        assert!(keys("[1, 2]").is_err());
        assert_eq!(normalized_to_pixels(500.0, 495), 247);
        assert_eq!(normalized_to_pixels(1000.0, 500), 499);
        assert_eq!(normalized_to_pixels(-3.0, 500), 0);
    }
}
