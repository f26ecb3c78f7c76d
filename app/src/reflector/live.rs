//! What `/reflect` shows while a run goes on: the stage (which attempt is played or
//! reflected on), each finished attempt's score, the reflection replies as they
//! arrive, and the requests, tokens and cost so far.

use bench::reflect::run::Phase;
use bench::reflect::ReflectRun;

use super::view::{turn_view, TurnView};
use crate::task_session::score_text;

/// One snapshot of a run for the page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LiveView {
    /// `Playing attempt 2 of 3 (decision 5)`, `Reflecting on attempt 1: failure analysis`.
    pub stage: String,
    /// `Attempt 1: not passed · score 0`, per finished attempt.
    pub scores: Vec<String>,
    /// The turns of the reflection under way, replies as they arrive.
    pub turns: Vec<TurnView>,
    pub usage: String,
    pub error: Option<String>,
    /// Attempts finished.
    pub done: usize,
}

pub fn phase_text(phase: Phase, attempts: u32, decision: Option<u32>) -> String {
    match phase {
        Phase::Playing { attempt } => match decision {
            Some(d) => format!("Playing attempt {attempt} of {attempts} (decision {d})"),
            None => format!("Playing attempt {attempt} of {attempts}"),
        },
        Phase::Reflecting { attempt, stage } => format!(
            "Reflecting on attempt {attempt}: {}",
            super::view::stage_text(stage).to_lowercase()
        ),
        Phase::Done => "Done".into(),
    }
}

pub fn live_view(run: &ReflectRun, attempts: u32) -> LiveView {
    let doc = run.run();
    let decision = run.episode().map(|e| e.step());
    LiveView {
        stage: phase_text(run.phase(), attempts, decision),
        scores: doc
            .attempts
            .iter()
            .enumerate()
            .map(|(i, a)| {
                format!(
                    "Attempt {}: {} · score {}",
                    i + 1,
                    if a.record.passed {
                        "passed"
                    } else {
                        "not passed"
                    },
                    score_text(a.record.score)
                )
            })
            .collect(),
        turns: run.reflection_so_far().iter().map(turn_view).collect(),
        usage: run.usage().summary(),
        error: run.last_error().map(|e| e.message.clone()),
        done: doc.attempts.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_in_words() {
        assert_eq!(
            phase_text(Phase::Playing { attempt: 2 }, 3, Some(5)),
            "Playing attempt 2 of 3 (decision 5)"
        );
        assert_eq!(
            phase_text(
                Phase::Reflecting {
                    attempt: 1,
                    stage: "failure_analysis"
                },
                3,
                None
            ),
            "Reflecting on attempt 1: failure analysis"
        );
        assert_eq!(phase_text(Phase::Done, 3, None), "Done");
    }
}
