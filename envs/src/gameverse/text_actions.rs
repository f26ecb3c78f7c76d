//! How a GameVerse environment takes actions: the text a model writes under `### Actions`
//! goes to the game as it is (`Action::Text`), and the game reads it with its own parser,
//! including its fixed consequence for a reply it cannot read. Named presets (the usual
//! moves, for people, oracles and keys) are calls of argument-free functions; each stands
//! for the exact reply text that makes that move in the environment's action mode, and
//! that text is its name. So a preset's text form, typed by a model, plays the same move,
//! and any other text — including the generic call syntax — is judged by the game.

use crate::core::action::{call_text, ActionFn, ActionSpace, Call};
use crate::core::env::Action;
use crate::core::error::EnvError;

/// The `Env` methods a game answers from its `actions: TextActions` field: the action
/// space, the presets and the text forms (one place for the three games that take text).
macro_rules! text_action_methods {
    () => {
        fn action_space(&self) -> $crate::core::action::ActionSpace {
            self.actions.space()
        }

        fn action_names(&self) -> Vec<String> {
            self.actions.names()
        }

        fn preset_action(&self, index: usize) -> Option<$crate::core::env::Action> {
            self.actions.preset_action(index)
        }

        fn action_text(&self, action: &$crate::core::env::Action) -> String {
            self.actions.text(action)
        }

        fn parse_action(
            &self,
            text: &str,
        ) -> Result<$crate::core::env::Action, $crate::core::action::ActionError> {
            Ok(self.actions.parse(text))
        }
    };
}
pub(crate) use text_action_methods;

/// One preset: a call and, when it is a reply, the reply text it stands for.
#[derive(Clone, Debug, PartialEq)]
struct Preset {
    call: Call,
    /// What people and episode files call it: the reply text, or a name no parser reads
    /// as a move (a clock's idle step).
    name: String,
    reply: Option<String>,
}

/// An environment's functions and presets.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextActions {
    functions: Vec<ActionFn>,
    presets: Vec<Preset>,
}

/// What an action asks of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Played<'a> {
    /// A reply for the game's parser.
    Reply(&'a str),
    /// A preset that is not a reply (the function's name), e.g. a clock's idle step.
    Call(&'a str),
}

impl TextActions {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an argument-free function whose call is a preset standing for `reply`.
    pub fn reply_preset(mut self, function: &str, doc: &str, reply: &str) -> Self {
        self.push(function, doc, reply.to_string(), Some(reply.to_string()));
        self
    }

    /// Adds an argument-free function whose call is a preset the game plays itself (not
    /// a reply), named `name` in text.
    pub fn game_preset(mut self, function: &str, doc: &str, name: &str) -> Self {
        self.push(function, doc, name.to_string(), None);
        self
    }

    /// Adds a function with arguments (no preset); the environment turns its calls into
    /// replies itself.
    pub fn function(mut self, function: ActionFn) -> Self {
        self.functions.push(function);
        self
    }

    fn push(&mut self, function: &str, doc: &str, name: String, reply: Option<String>) {
        self.functions.push(ActionFn {
            name: function.to_string(),
            args: Vec::new(),
            doc: doc.to_string(),
        });
        self.presets.push(Preset {
            call: Call {
                name: function.to_string(),
                args: Vec::new(),
            },
            name,
            reply,
        });
    }

    pub fn space(&self) -> ActionSpace {
        ActionSpace::Parametric {
            functions: self.functions.clone(),
        }
    }

    pub fn names(&self) -> Vec<String> {
        self.presets.iter().map(|p| p.name.clone()).collect()
    }

    pub fn preset_action(&self, index: usize) -> Option<Action> {
        self.presets
            .get(index)
            .map(|p| Action::Call(p.call.clone()))
    }

    /// The index of the preset a function name calls.
    pub fn preset_index(&self, function: &str) -> Option<usize> {
        self.presets.iter().position(|p| p.call.name == function)
    }

    /// The text form: a preset's name, a text as written, a call in the generic syntax.
    pub fn text(&self, action: &Action) -> String {
        match action {
            Action::Call(call) => match self.presets.iter().find(|p| &p.call == call) {
                Some(p) => p.name.clone(),
                None => call_text(&self.space(), call),
            },
            Action::Text(text) => text.clone(),
            Action::Index(i) => i.to_string(),
            Action::Value(v) => v.to_string(),
        }
    }

    /// Reads a text form: a preset's name (trimmed, as the generic reader does) is the
    /// preset, anything else is a reply for the game to judge.
    pub fn parse(&self, text: &str) -> Action {
        match self.presets.iter().find(|p| p.name == text.trim()) {
            Some(p) => Action::Call(p.call.clone()),
            None => Action::Text(text.to_string()),
        }
    }

    /// What `action` asks of the game; calls of functions with arguments are `Err` here
    /// (environments that have them resolve those first). A text that names a preset
    /// which is no reply is that preset, as [`parse`](Self::parse) reads it, so an action
    /// means the same whether its text was read first or not (the JSON-lines driver
    /// passes texts on as they are).
    pub fn resolve<'a>(&'a self, action: &'a Action) -> Result<Played<'a>, EnvError> {
        match action {
            Action::Text(text) => Ok(
                match self
                    .presets
                    .iter()
                    .find(|p| p.reply.is_none() && p.name == text.trim())
                {
                    Some(p) => Played::Call(&p.call.name),
                    None => Played::Reply(text),
                },
            ),
            Action::Call(call) => match self.presets.iter().find(|p| &p.call == call) {
                Some(Preset {
                    reply: Some(reply), ..
                }) => Ok(Played::Reply(reply)),
                Some(p) => Ok(Played::Call(&p.call.name)),
                None => Err(EnvError::InvalidAction(format!(
                    "{} is not an action here (actions: {})",
                    call_text(&self.space(), call),
                    self.names().join(", ")
                ))),
            },
            other => Err(EnvError::InvalidAction(format!(
                "{other:?}: this environment takes the text of a reply or one of its calls"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn actions() -> TextActions {
        TextActions::new()
            .reply_preset("up", "Slide up", "up")
            .reply_preset("left", "Slide left", "{\"key\": \"left\"}")
            .game_preset("timeout", "The clock's idle step", "(timeout)")
    }

    #[test]
    fn presets_round_trip_and_other_text_is_a_reply() {
        let a = actions();
        for i in 0..3 {
            let preset = a.preset_action(i).unwrap();
            assert_eq!(a.parse(&a.text(&preset)), preset);
        }
        assert_eq!(a.names(), vec!["up", "{\"key\": \"left\"}", "(timeout)"]);
        assert_eq!(a.parse(" up\n"), a.preset_action(0).unwrap());
        // The generic call syntax is not read: the game judges it like any reply.
        assert_eq!(a.parse("up()"), Action::Text("up()".into()));
        assert_eq!(a.parse("**Up**"), Action::Text("**Up**".into()));
    }

    #[test]
    fn actions_resolve_to_replies_or_game_calls() {
        let a = actions();
        let left = a.preset_action(1).unwrap();
        assert_eq!(a.resolve(&left), Ok(Played::Reply("{\"key\": \"left\"}")));
        let idle = a.preset_action(2).unwrap();
        assert_eq!(a.resolve(&idle), Ok(Played::Call("timeout")));
        let text = Action::Text("whatever".into());
        assert_eq!(a.resolve(&text), Ok(Played::Reply("whatever")));
        let named = Action::Text("(timeout)".into());
        assert_eq!(a.resolve(&named), Ok(Played::Call("timeout")));
        assert!(a.resolve(&Action::Index(0)).is_err());
        assert!(a.resolve(&Action::call("jump", Vec::new())).is_err());
        assert_eq!(a.preset_index("timeout"), Some(2));
    }

    #[test]
    fn functions_with_arguments_are_listed_and_left_to_the_environment() {
        use crate::core::action::{ArgKind, ArgSpec, ArgValue};
        let a = actions().function(ActionFn {
            name: "place".into(),
            args: vec![ArgSpec {
                name: "cell".into(),
                kind: ArgKind::Cell { rows: 3, cols: 3 },
            }],
            doc: "Mark a cell".into(),
        });
        assert!(a.space().function("place").is_some());
        assert_eq!(a.names().len(), 3, "no preset of its own");
        let call = Action::call("place", vec![ArgValue::List(vec![1.0, 2.0])]);
        assert_eq!(a.text(&call), "place((1, 2))");
        assert!(a.resolve(&call).is_err());
    }
}
