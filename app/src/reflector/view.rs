//! What `/attempts` shows of a run of attempts (`bench::attempts`): whether it verifies
//! (every attempt re-simulated, every carried experience re-checked) or where it
//! diverged, and per attempt its score, what it carried in, its replay link and its
//! reflection turns. Also reads what people paste or drop: a link or a file.

use bench::attempts::{
    verify_attempts, AttemptRun, AttemptsVerification, ReflectionTurn, ATTEMPTS_FORMAT,
};
use bench::reflect::experience::{STAGE_EXPERIENCE, STAGE_FAILURE, STAGE_IMPORTED};

use crate::compare::gains::{condition_label, task_id};
use crate::replay::episode_links::{link_for, EpisodeLink};
use crate::routes::ATTEMPTS;
use crate::task_session::{failure_text, score_text};

/// A run of attempts from a pasted link (`a=pa1.…`, or a whole URL holding it) or a
/// file's text.
pub fn read_attempts(text: &str) -> Result<AttemptRun, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err(
            "Paste a link to a run of attempts (…/attempts#a=pa1.…) or drop its file.".into(),
        );
    }
    if t.starts_with('{') {
        return AttemptRun::from_json(t)
            .map_err(|e| format!("not a usable run of attempts ({ATTEMPTS_FORMAT}): {e}"));
    }
    AttemptRun::from_link_fragment(t).map_err(|e| format!("not a usable attempts link: {e}"))
}

/// `/attempts#a=pa1.…` from a link fragment.
pub fn attempts_href(fragment: &str) -> String {
    format!("{ATTEMPTS}#{fragment}")
}

/// The download's name: `playbench-attempts-<task>-<condition>.json`.
pub fn attempts_file_name(run: &AttemptRun) -> String {
    let safe = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    format!(
        "playbench-attempts-{}-{}.json",
        safe(&task_id(run)),
        safe(run.condition.as_deref().unwrap_or("run"))
    )
}

/// The verdict in words: `(verified, text)`.
pub fn verdict(run: &AttemptRun) -> (bool, String) {
    match verify_attempts(run) {
        Ok(AttemptsVerification::Verified { scores, .. }) => (
            true,
            format!(
                "Verified: all {} attempts re-simulate to their claims and each carried in what the reflection before it wrote.",
                scores.len()
            ),
        ),
        Ok(AttemptsVerification::Diverged {
            attempt,
            divergence,
        }) => (false, format!("Not verified: attempt {attempt} {divergence}.")),
        Err(e) => (false, format!("Cannot be verified: {e}.")),
    }
}

/// The run's heading facts: task, agent, condition.
pub fn summary(run: &AttemptRun) -> String {
    let condition = run
        .condition
        .as_deref()
        .map(|c| format!(" · condition {} ({c})", condition_label(c)))
        .unwrap_or_default();
    format!(
        "{} · {} · {} attempts{condition}",
        task_id(run),
        run.agent,
        run.attempts.len()
    )
}

/// A reflection turn as shown (texts as texts: replies are the model's, never markup).
#[derive(Clone, Debug, PartialEq)]
pub struct TurnView {
    pub stage: String,
    pub system: String,
    pub prompt: String,
    pub media: String,
    pub frames: String,
    pub reply: String,
}

/// A stage in words.
pub fn stage_text(stage: &str) -> String {
    match stage {
        STAGE_FAILURE => "Failure analysis".into(),
        STAGE_EXPERIENCE => "Experience (after the expert tutorial)".into(),
        STAGE_IMPORTED => "Imported experience".into(),
        other => other.replace('_', " "),
    }
}

pub fn turn_view(t: &ReflectionTurn) -> TurnView {
    TurnView {
        stage: stage_text(&t.stage),
        system: t.system.clone(),
        prompt: t.prompt.clone(),
        media: t.media.join("; "),
        frames: if t.frames.is_empty() {
            String::new()
        } else {
            format!(
                "{} frames: {}",
                t.frames.len(),
                t.frames
                    .iter()
                    .map(|f| (f + 1).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
        reply: t.reply.clone(),
    }
}

/// One attempt as shown.
#[derive(Clone, Debug, PartialEq)]
pub struct AttemptView {
    pub number: usize,
    pub outcome: String,
    pub passed: bool,
    pub carried_in: String,
    /// The attempt in the replay viewer, or why there is no link.
    pub replay: Result<EpisodeLink, String>,
    pub turns: Vec<TurnView>,
}

pub fn attempt_views(run: &AttemptRun) -> Vec<AttemptView> {
    run.attempts
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let r = &a.record;
            let outcome = if r.passed {
                format!("passed · score {}", score_text(r.score))
            } else {
                format!(
                    "not passed ({}) · score {}",
                    failure_text(r.failure),
                    score_text(r.score)
                )
            };
            AttemptView {
                number: i + 1,
                outcome,
                passed: r.passed,
                carried_in: a.carried_in.clone(),
                replay: run
                    .episode_file(i)
                    .ok_or_else(|| "no such attempt".to_string())
                    .and_then(|f| link_for(&f).map_err(|e| e.to_string())),
                turns: a.reflection.iter().map(turn_view).collect(),
            }
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use bench::encode::ImageEncoder;
    use bench::exchange::Step;
    use bench::protocol::endpoint::{Endpoint, Prices};
    use bench::protocol::providers::{Provider, Sampling};
    use bench::protocol::session::{Protocol, SessionConfig};
    use bench::reflect::run::{game_name, Phase};
    use bench::reflect::{ReflectConfig, ReflectRun};
    use bench::share::TaskRef;

    fn ok(text: &str) -> String {
        serde_json::json!({"choices": [{"message": {"content": text}}]}).to_string()
    }

    /// A three-attempt `both` run on GameVerse's `maze-s1` with GameVerse's harness,
    /// whose model always presses up (into the wall) and reflects with fixed texts.
    pub fn maze_run() -> AttemptRun {
        let suite = bench::suites::latest("gameverse").unwrap();
        let task = suite.task("maze-s1").unwrap();
        let endpoint = Endpoint {
            provider: Provider::OpenAi,
            base_url: "http://x/v1".into(),
            sampling: Sampling {
                model: "m".into(),
                temperature: None,
                max_output_tokens: None,
            },
            headers: vec![],
        };
        let mut run = ReflectRun::new(
            task,
            TaskRef::in_suite(suite, &task.id),
            endpoint,
            SessionConfig {
                protocol: Protocol::Gameverse,
                ..SessionConfig::default()
            },
            Prices::default(),
            ReflectConfig::default(),
            &game_name(task).unwrap(),
        )
        .unwrap();
        let mut enc = ImageEncoder::new(Default::default());
        while let Step::Send { .. } = run.next(&mut enc, None) {
            let reply = match run.phase() {
                Phase::Reflecting { stage, .. } if stage == STAGE_FAILURE => {
                    "- <b>up</b> hit the wall."
                }
                Phase::Reflecting { .. } => "Go down first.",
                _ => "### Reasoning\nUp.\n### Actions\nup",
            };
            run.on_response(200, None, 0, &ok(reply), 1.0, None);
        }
        run.run().clone()
    }

    #[test]
    fn a_run_verifies_and_shows_its_attempts_and_turns() {
        let run = maze_run();
        assert_eq!(run.attempts.len(), 3);
        let (ok, text) = verdict(&run);
        assert!(ok, "{text}");
        assert!(text.starts_with("Verified: all 3 attempts"), "{text}");
        assert_eq!(
            summary(&run),
            "maze-s1 · endpoint:openai:m · 3 attempts · condition Self (both)"
        );
        assert_eq!(
            attempts_file_name(&run),
            "playbench-attempts-maze-s1-both.json"
        );
        let views = attempt_views(&run);
        assert_eq!(views[0].carried_in, "");
        assert_eq!(views[1].carried_in, "Go down first.");
        assert!(
            views[0].outcome.starts_with("not passed ("),
            "{}",
            views[0].outcome
        );
        let turns = &views[0].turns;
        assert_eq!(turns.len(), 2);
        assert_eq!(turns[0].stage, "Failure analysis");
        // The reply stays text: the page shows its characters, markup and all.
        assert_eq!(turns[0].reply, "- <b>up</b> hit the wall.");
        assert!(
            turns[0].frames.starts_with("20 frames: 1, 2,"),
            "{}",
            turns[0].frames
        );
        assert!(turns[1]
            .system
            .starts_with("You are a game strategy analysis expert"));
        assert!(
            views[2].turns.is_empty(),
            "the last attempt is not reflected on"
        );
        let href = views[0].replay.as_ref().unwrap().href().to_string();
        assert!(href.starts_with("/episode"), "{href}");

        // Through its link and back; an edited carry is found.
        let link = run.to_link_fragment().unwrap();
        assert_eq!(
            read_attempts(&format!("https://h{}", attempts_href(&link))).unwrap(),
            run
        );
        assert_eq!(read_attempts(&run.to_json()).unwrap(), run);
        let mut edited = run.clone();
        edited.attempts[2].carried_in = "Go up.".into();
        let (ok, text) = verdict(&edited);
        assert!(!ok);
        assert!(
            text.starts_with("Not verified: attempt 3 diverged at the start"),
            "{text}"
        );
        assert!(read_attempts(" ").unwrap_err().starts_with("Paste a link"));
        assert!(read_attempts("a=pa1.AAAA")
            .unwrap_err()
            .starts_with("not a usable attempts link"));
        assert!(read_attempts("{}")
            .unwrap_err()
            .starts_with("not a usable run of attempts"));
    }
}
