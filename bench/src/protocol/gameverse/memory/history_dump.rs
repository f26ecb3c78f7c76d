//! What GameVerse's memory agent hands the game when its action reply has no `###
//! Actions` field (docs/gameverse.md, "Memory agent"): the agent returns its last
//! module's result, the short-term history list, printed as Python prints it
//! (`str(list)`, i.e. the `repr` of its dicts). The semantic games read that text like
//! any reply, so it can name a move.

/// One short-term history entry (`update_short_term_history`), in key order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryEntry {
    /// The decision's number, from 1.
    pub step: u32,
    pub state: String,
    /// The last `### Actions` text, `None` before any.
    pub action: Option<String>,
    /// The last reasoning, when not empty.
    pub reasoning: Option<String>,
    /// The step's retrieved memories (at most 500 characters), when any.
    pub retrieved: Option<String>,
}

/// Python's `repr` of a `str` (the port VisGym's replies are read with, Unicode's
/// printable table included).
pub use envs::visgym::python::format::str_repr as py_repr;

fn py_opt(s: &Option<String>) -> String {
    s.as_deref().map_or_else(|| "None".to_string(), py_repr)
}

/// `str(histories)`.
pub fn dump(entries: &[HistoryEntry]) -> String {
    let items: Vec<String> = entries
        .iter()
        .map(|e| {
            let n = e.step;
            let mut fields = vec![
                format!("'step_{n}_state': {}", py_repr(&e.state)),
                format!("'step_{n}_action': {}", py_opt(&e.action)),
                format!("'step_{n}_has_image': True"),
            ];
            if let Some(r) = &e.reasoning {
                fields.push(format!("'step_{n}_reasoning': {}", py_repr(r)));
            }
            if let Some(m) = &e.retrieved {
                fields.push(format!("'step_{n}_retrieved_memory': {}", py_repr(m)));
            }
            format!("{{{}}}", fields.join(", "))
        })
        .collect();
    format!("[{}]", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_print_as_python_reprs() {
        assert_eq!(py_repr("up"), "'up'");
        assert_eq!(py_repr("it's"), "\"it's\"");
        assert_eq!(py_repr("it's \"x\""), "'it\\'s \"x\"'");
        assert_eq!(
            py_repr("a\\b\n\tc\r\u{1}\u{7f}é"),
            "'a\\\\b\\n\\tc\\r\\x01\\x7fé'"
        );
    }

    #[test]
    fn the_history_prints_as_a_list_of_dicts() {
        let entries = [
            HistoryEntry {
                step: 1,
                state: "S".into(),
                action: None,
                reasoning: Some("r".into()),
                retrieved: None,
            },
            HistoryEntry {
                step: 2,
                state: "T".into(),
                action: Some("up".into()),
                reasoning: None,
                retrieved: Some("1: m".into()),
            },
        ];
        assert_eq!(
            dump(&entries),
            "[{'step_1_state': 'S', 'step_1_action': None, 'step_1_has_image': True, 'step_1_reasoning': 'r'}, \
             {'step_2_state': 'T', 'step_2_action': 'up', 'step_2_has_image': True, 'step_2_retrieved_memory': '1: m'}]"
        );
    }
}
