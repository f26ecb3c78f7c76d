//! The auditor's requests as conversations (`docs/audit.md`, "The two requests"): the
//! demonstration-derived reference of a task, and for each episode the two independent
//! audit requests, information transfer and sequential failure attribution (the V-ICAL
//! paper, Appendix C.4), each a system message and one user message holding the
//! rubric, the payload of Appendix C.4.3 and the evidence with its images in order.

use serde::{Deserialize, Serialize};

use super::contract::Reference;
use super::evidence::Evidence;
use super::prompts;
use crate::protocol::prompt::{ImageRef, Message, Part, Role};
use crate::Task;

/// One of the two audit criteria.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Criterion {
    /// Learner level: were the demonstrated rules and strategies induced and used?
    InformationTransfer,
    /// Player level: the most upstream consequentially deficient stage.
    FailureAttribution,
}

impl Criterion {
    pub const BOTH: [Criterion; 2] = [Self::InformationTransfer, Self::FailureAttribution];

    pub fn title(self) -> &'static str {
        match self {
            Self::InformationTransfer => "information transfer",
            Self::FailureAttribution => "failure attribution",
        }
    }

    fn system(self) -> &'static str {
        match self {
            Self::InformationTransfer => prompts::transfer_system(),
            Self::FailureAttribution => prompts::attribution_system(),
        }
    }

    fn rubric(self) -> &'static str {
        match self {
            Self::InformationTransfer => prompts::transfer_task(),
            Self::FailureAttribution => prompts::attribution_task(),
        }
    }

    fn output_format(self) -> &'static str {
        match self {
            Self::InformationTransfer => prompts::transfer_output_format(),
            Self::FailureAttribution => prompts::attribution_output_format(),
        }
    }
}

/// What the evidence says in place of a model's separate reasoning: our records keep
/// the whole reply, which is quoted as the formal answer.
pub const NO_DISPLAYED_THINKING: &str = "(none: the complete reply is quoted as the formal answer)";
/// The formal answer of a request that got no reply.
pub const NO_RESPONSE: &str = "(no response: the request failed and the episode ended)";

#[derive(Serialize)]
struct TaskIds<'a> {
    game_id: &'a str,
    task_id: &'a str,
}

#[derive(Serialize)]
struct Preprocessing {
    media_transport: &'static str,
}

/// `AUDITING_LLM_CONTEXT_JSON` (C.4.3), fields in the paper's order.
#[derive(Serialize)]
struct AuditContext<'a> {
    task: TaskIds<'a>,
    basic_rules: &'a str,
    detailed_rules: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    demo_derived_reference: Option<&'a Reference>,
    #[serde(skip_serializing_if = "Option::is_none")]
    preprocessing: Option<Preprocessing>,
}

/// The paper's "detailed rules": expert-written mechanics that Playbench's tasks do not
/// carry. The auditor gets what the task and the environment state in words instead:
/// the budget, the environment's goal and endings, the pass condition and score rule.
pub fn detailed_rules(task: &Task) -> String {
    let words = envs::registry::make(&task.env, &task.kwargs)
        .map(|env| env.words())
        .ok();
    let mut out = format!(
        "Decision budget: {} decisions; {} environment step(s) per decision.",
        task.max_steps, task.frame_skip
    );
    if let Some(w) = words.filter(|w| !w.goal.is_empty()) {
        out.push_str(&format!(
            " Goal: {}. Success: the agent {}. Other endings: the agent {}.",
            w.goal, w.success, w.failure
        ));
    }
    out.push_str(&format!(
        " Pass condition: {}. Score rule: {}.",
        compact(&task.pass),
        compact(&task.score)
    ));
    out
}

fn compact<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn context(task: &Task, reference: Option<&Reference>) -> String {
    let ctx = AuditContext {
        task: TaskIds {
            game_id: &task.env,
            task_id: &task.id,
        },
        basic_rules: &task.rules,
        detailed_rules: detailed_rules(task),
        demo_derived_reference: reference,
        preprocessing: reference.map(|_| Preprocessing {
            media_transport: prompts::media_transport(),
        }),
    };
    serde_json::to_string_pretty(&ctx).unwrap_or_default()
}

fn system(text: &str) -> Message {
    Message {
        role: Role::System,
        parts: vec![Part::Text(text.to_string())],
    }
}

fn user(parts: Vec<Part>) -> Message {
    Message {
        role: Role::User,
        parts,
    }
}

/// The request that builds a task's demonstration-derived reference: the task's rules
/// and every demonstration as its ordered frames (`frames[i]` frames in clip i).
pub fn reference_messages(task: &Task, frames: &[usize]) -> Vec<Message> {
    let mut parts = vec![Part::Text(format!(
        "{}\n{}\n\nAUDITING_LLM_CONTEXT_JSON\n{}\n\n",
        prompts::reference_task(),
        prompts::reference_output_format(),
        context(task, None)
    ))];
    for (clip, (&n, demo)) in frames.iter().zip(&task.demos).enumerate() {
        parts.push(Part::Text(format!(
            "DEMO_VIDEO {} ({}): {n} frame(s), in order\n",
            clip + 1,
            demo.label
        )));
        parts.extend((0..n).map(|frame| Part::Image(ImageRef::DemoFrame { clip, frame })));
        parts.push(Part::Text("\n\n".into()));
    }
    parts.push(Part::Text(format!(
        "{}\n{}",
        prompts::reference_final(),
        prompts::reference_output_format()
    )));
    vec![system(prompts::reference_system()), user(parts)]
}

/// One audit request for `criterion` over an episode's evidence.
pub fn audit_messages(
    criterion: Criterion,
    task: &Task,
    reference: &Reference,
    evidence: &Evidence,
) -> Vec<Message> {
    let mut parts = vec![Part::Text(format!(
        "{}\n{}\n\nAUDITING_LLM_CONTEXT_JSON\n{}\n\n",
        criterion.rubric(),
        criterion.output_format(),
        context(task, Some(reference))
    ))];
    for (i, turn) in evidence.turns.iter().enumerate() {
        let k = i + 1;
        parts.push(Part::Text(format!(
            "PLAYING_LLM_REQUEST: TURN {k} (quoted historical evidence)\n"
        )));
        parts.extend(turn.request.parts.iter().cloned());
        parts.push(Part::Text(format!(
            "\n\nPLAYING_LLM_RESPONSE: TURN {k}\nDISPLAYED_THINKING: {NO_DISPLAYED_THINKING}\nFORMAL_ANSWER: {}\n\n",
            turn.response.as_deref().unwrap_or(NO_RESPONSE)
        )));
    }
    parts.push(Part::Text("PLAYING_SESSION_END_FRAME\n".into()));
    parts.push(Part::Image(ImageRef::EndingFrame));
    parts.push(Part::Text(format!(
        "\n\n{}\n{}",
        prompts::final_output_requirement(),
        criterion.output_format()
    )));
    vec![system(criterion.system()), user(parts)]
}
