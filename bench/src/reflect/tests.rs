//! Reflect-and-retry against canned replies: the attempts, both reflection requests
//! word for word, the experience in the next attempt, the conditions, retries and the
//! halving of frames, and the run's link.

use super::experience::{Condition, STAGE_EXPERIENCE, STAGE_FAILURE, STAGE_IMPORTED};
use super::prompts::{tutorial_system, FAILURE_SYSTEM};
use super::run::{game_name, tutorial_frames, Phase, ReflectConfig, ReflectRun};
use crate::attempts::{verify_attempts, AttemptRun, AttemptsVerification};
use crate::model_episode::Step;
use crate::protocol::endpoint::{HttpRequest, Prices};
use crate::protocol::session::{Protocol, SessionConfig};
use crate::share::TaskRef;
use crate::testing::{body, endpoint, ok, FakeEncoder};
use crate::Task;
use envs::gameverse::prompt::NO_EXPERIENCE;

const GAME: &str = "Maze";

fn task() -> (&'static Task, TaskRef) {
    let suite = crate::suites::latest("gameverse").unwrap();
    let task = suite.task("maze-s1").unwrap();
    (task, TaskRef::in_suite(suite, &task.id))
}

/// GameVerse's harness, as its reflect and retry plays.
fn session() -> SessionConfig {
    SessionConfig {
        protocol: Protocol::Gameverse,
        ..SessionConfig::default()
    }
}

fn start(config: ReflectConfig) -> ReflectRun {
    let (task, r) = task();
    assert_eq!(game_name(task).unwrap(), GAME);
    ReflectRun::new(
        task,
        r,
        endpoint("player"),
        session(),
        Prices::default(),
        config,
        GAME,
    )
    .unwrap()
}

/// A well-formed reply that moves the ball up (into the wall at the start).
const UP: &str = "### Reasoning\nTry up.\n### Actions\nup";

fn send(run: &mut ReflectRun) -> Option<(HttpRequest, u64)> {
    match run.next(&mut FakeEncoder, Some("sk-x")) {
        Step::Send { request, wait_ms } => Some((request, wait_ms)),
        Step::Done => None,
    }
}

/// Plays the current attempt to its end with a move into the wall (the maze's start
/// is its top-left corner, so the ball never moves and the attempt fails); returns the
/// system message of each request.
fn fail_attempt(run: &mut ReflectRun) -> Vec<String> {
    fail_attempt_with(run, ok)
}

/// [`fail_attempt`] with the provider's answer shape.
fn fail_attempt_with(run: &mut ReflectRun, answer: fn(&str) -> String) -> Vec<String> {
    let mut systems = Vec::new();
    let current = run.phase();
    while run.phase() == current && matches!(current, Phase::Playing { .. }) {
        let Some((r, _)) = send(run) else { break };
        systems.push(
            body(&r)["messages"][0]["content"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        );
        run.on_response(200, None, 0, &answer(UP), 10.0, Some("sk-x"));
    }
    systems
}

fn user_texts(b: &serde_json::Value) -> Vec<String> {
    b["messages"][1]["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["text"].as_str().map(str::to_string))
        .collect()
}

fn images(b: &serde_json::Value) -> usize {
    b["messages"][1]["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["type"] == "image_url")
        .count()
}

#[test]
fn three_attempts_with_both_stages_carry_the_experience_word_for_word() {
    let (task, _) = task();
    let mut run = start(ReflectConfig::default());
    assert_eq!(run.phase(), Phase::Playing { attempt: 1 });
    let systems = fail_attempt(&mut run);
    assert_eq!(systems.len(), 20);
    assert!(systems[0].contains(NO_EXPERIENCE), "{}", systems[0]);

    // Stage 1: the failure's step video, every frame in step order.
    assert_eq!(
        run.phase(),
        Phase::Reflecting {
            attempt: 1,
            stage: STAGE_FAILURE
        }
    );
    let (r, _) = send(&mut run).unwrap();
    let b = body(&r);
    assert_eq!(b["messages"][0]["role"], "system");
    assert_eq!(b["messages"][0]["content"], FAILURE_SYSTEM);
    assert_eq!(
        user_texts(&b),
        vec![
            "Game name: Maze\n\nPlease analyze this failure video and summarize the failure scenarios and reasons.\n",
            "\nAll frames from the failure video:",
            "(Displayed 10 frames)",
            "(Displayed 20 frames)",
        ]
    );
    assert_eq!(images(&b), 20);
    run.on_response(
        200,
        None,
        0,
        &ok("  - Pressed up into the wall.\n"),
        5.0,
        None,
    );

    // Stage 2: the analysis (stripped), then the tutorial, one frame per step.
    let (r, _) = send(&mut run).unwrap();
    let b = body(&r);
    assert_eq!(b["messages"][0]["content"], tutorial_system(1000));
    let texts = user_texts(&b);
    assert_eq!(texts[0], "Game name: Maze\n\n");
    assert_eq!(
        texts[1],
        "### Previously analyzed failure scenarios and reasons:\n- Pressed up into the wall.\n\n"
    );
    assert!(texts[2].starts_with("### Expert video:\nPlease watch"));
    assert_eq!(
        texts[3],
        "\nKey frames from the expert video (1 frame per 2 seconds):"
    );
    let tutorial = tutorial_frames(task).unwrap().len();
    assert_eq!(images(&b), tutorial);
    let long: String = (0..1200).map(|i| format!("tip{i}\n")).collect();
    run.on_response(200, None, 0, &ok(&long), 5.0, None);

    // Attempt 2 carries the experience, cut to 1000 words, in its system message.
    assert_eq!(run.phase(), Phase::Playing { attempt: 2 });
    let systems = fail_attempt(&mut run);
    let experience: String = (0..1000)
        .map(|i| format!("tip{i}"))
        .collect::<Vec<_>>()
        .join(" ")
        + "...";
    assert!(systems
        .iter()
        .all(|s| s.contains(&experience) && !s.contains(NO_EXPERIENCE)));
    let (_, _) = send(&mut run).unwrap();
    run.on_response(200, None, 0, &ok("- Still stuck."), 5.0, None);
    let (_, _) = send(&mut run).unwrap();
    run.on_response(200, None, 0, &ok("Go down first."), 5.0, None);
    fail_attempt(&mut run);
    assert_eq!(run.phase(), Phase::Done);
    assert!(send(&mut run).is_none());

    let doc = run.run();
    assert_eq!(doc.attempts.len(), 3);
    assert_eq!(doc.condition.as_deref(), Some("both"));
    assert_eq!(doc.attempts[0].carried_in, "");
    let carried = &doc.attempts[1].carried_in;
    assert_eq!(carried.split(' ').count(), 1000);
    assert!(carried.starts_with("tip0 tip1 ") && carried.ends_with("tip999..."));
    assert_eq!(doc.attempts[2].carried_in, "Go down first.");
    assert_eq!(
        doc.attempts[2].record.experience.as_deref(),
        Some("Go down first.")
    );
    assert_eq!(doc.attempts[0].record.experience, None);
    let first = &doc.attempts[0].reflection;
    assert_eq!(first[0].stage, STAGE_FAILURE);
    assert_eq!(first[0].system, FAILURE_SYSTEM);
    assert_eq!(first[0].frames, (0..20).collect::<Vec<_>>());
    assert_eq!(first[1].stage, STAGE_EXPERIENCE);
    assert_eq!(first[1].frames.len(), tutorial);
    assert!(doc.attempts[2].reflection.is_empty());

    // The run's link re-simulates every attempt and re-derives each carry.
    let link = doc.to_link_fragment().unwrap();
    let back = AttemptRun::from_link_fragment(&link).unwrap();
    assert!(matches!(
        verify_attempts(&back).unwrap(),
        AttemptsVerification::Verified { ref passed, .. } if passed == &[false, false, false]
    ));
    let mut forged = back.clone();
    forged.attempts[1].carried_in.push_str(" and more");
    assert!(matches!(
        verify_attempts(&forged).unwrap(),
        AttemptsVerification::Diverged { attempt: 2, .. }
    ));
}

#[test]
fn conditions_choose_the_stages() {
    // No reflection: three plain attempts.
    let mut run = start(ReflectConfig {
        condition: Condition::None,
        ..ReflectConfig::default()
    });
    for _ in 0..3 {
        fail_attempt(&mut run);
    }
    assert_eq!(run.phase(), Phase::Done);
    assert!(run.run().attempts.iter().all(|a| a.reflection.is_empty()));

    // Failure only: stage 1's analysis is the experience.
    let mut run = start(ReflectConfig {
        condition: Condition::Failure,
        attempts: 2,
        ..ReflectConfig::default()
    });
    fail_attempt(&mut run);
    send(&mut run).unwrap();
    run.on_response(200, None, 0, &ok("\n- Walls.\n"), 1.0, None);
    assert_eq!(run.phase(), Phase::Playing { attempt: 2 });
    fail_attempt(&mut run);
    assert_eq!(run.run().attempts[1].carried_in, "- Walls.");

    // Tutorial only: stage 2 with no analysis.
    let mut run = start(ReflectConfig {
        condition: Condition::Tutorial,
        attempts: 2,
        ..ReflectConfig::default()
    });
    fail_attempt(&mut run);
    let (r, _) = send(&mut run).unwrap();
    assert_eq!(
        user_texts(&body(&r))[1],
        "### Previously analyzed failure scenarios and reasons:\nNone\n\n"
    );
    run.on_response(200, None, 0, &ok("Down, then right."), 1.0, None);
    fail_attempt(&mut run);
    assert_eq!(run.run().attempts[1].carried_in, "Down, then right.");

    // Another model's experience.
    let mut run = start(ReflectConfig {
        condition: Condition::Other,
        attempts: 2,
        imported: Some(("Use the right wall.".into(), "run X".into())),
        ..ReflectConfig::default()
    });
    fail_attempt(&mut run);
    assert_eq!(run.phase(), Phase::Playing { attempt: 2 });
    fail_attempt(&mut run);
    let doc = run.run();
    assert_eq!(doc.attempts[0].reflection[0].stage, STAGE_IMPORTED);
    assert_eq!(doc.attempts[1].carried_in, "Use the right wall.");
    assert!(matches!(
        verify_attempts(doc).unwrap(),
        AttemptsVerification::Verified { .. }
    ));
    let (task, r) = task();
    let refused = ReflectRun::new(
        task,
        r,
        endpoint("p"),
        session(),
        Prices::default(),
        ReflectConfig {
            condition: Condition::Other,
            ..ReflectConfig::default()
        },
        GAME,
    );
    assert!(refused.err().unwrap().contains("import"));
}

#[test]
fn retries_and_a_too_long_request_halve_the_frames() {
    let mut run = start(ReflectConfig {
        condition: Condition::Failure,
        attempts: 2,
        ..ReflectConfig::default()
    });
    fail_attempt(&mut run);
    let (r, wait) = send(&mut run).unwrap();
    assert_eq!((images(&body(&r)), wait), (20, 0));
    run.on_network_error("connection reset", 1.0, None);
    let (_, wait) = send(&mut run).unwrap();
    assert_eq!(wait, 1000);
    let too_long = serde_json::json!({"error": {"message": "maximum context length exceeded",
        "code": "context_length_exceeded"}})
    .to_string();
    run.on_response(400, None, 0, &too_long, 1.0, None);
    let (r, wait) = send(&mut run).unwrap();
    assert_eq!((images(&body(&r)), wait), (11, 0));
    run.on_response(200, None, 0, &ok("- Walls."), 1.0, None);
    let turn = &run.run().attempts[0].reflection[0];
    assert_eq!(turn.frames, vec![0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 19]);
    assert!(
        turn.media[0].contains("11 of its 20 frames"),
        "{:?}",
        turn.media
    );
}

/// A Gemini answer.
fn gemini_ok(text: &str) -> String {
    serde_json::json!({"candidates": [{"content": {"parts": [{"text": text}]}}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 3}})
    .to_string()
}

#[test]
fn endpoints_that_take_video_get_the_failure_and_the_tutorial_as_webm() {
    let (task, task_ref) = task();
    let mut gemini = endpoint("gemini-x");
    gemini.provider = crate::protocol::providers::Provider::Gemini;
    let mut run = ReflectRun::new(
        task,
        task_ref,
        gemini,
        session(),
        Prices::default(),
        ReflectConfig::default(),
        GAME,
    )
    .unwrap();
    fail_attempt_with(&mut run, gemini_ok);
    let failure = crate::step_video::step_frames(task, &run.run().attempts[0].record).unwrap();
    assert_eq!(failure.len(), 20);

    // Stage 1: the step video first, as one WebM at 2 fps, then the text (no frames lead).
    let (r, _) = send(&mut run).unwrap();
    let b = body(&r);
    assert_eq!(b["systemInstruction"]["parts"][0]["text"], FAILURE_SYSTEM);
    let parts = b["contents"][0]["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 2);
    assert_eq!(parts[0]["inline_data"]["mime_type"], "video/webm");
    crate::video::tests::assert_video_of(
        parts[0]["inline_data"]["data"].as_str().unwrap(),
        &failure,
        2.0,
    );
    assert_eq!(
        parts[1]["text"],
        "Game name: Maze\n\nPlease analyze this failure video and summarize the failure scenarios and reasons.\n"
    );
    run.on_response(200, None, 0, &gemini_ok("- Pressed up."), 5.0, None);

    // Stage 2: the tutorial as one WebM at one step per 2 s, then the three texts.
    let (r, _) = send(&mut run).unwrap();
    let b = body(&r);
    let parts = b["contents"][0]["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 4);
    let tutorial = tutorial_frames(task).unwrap();
    crate::video::tests::assert_video_of(
        parts[0]["inline_data"]["data"].as_str().unwrap(),
        &tutorial,
        0.5,
    );
    assert!(parts[3]["text"]
        .as_str()
        .unwrap()
        .starts_with("### Expert video:"));
    run.on_response(200, None, 0, &gemini_ok("Go down first."), 5.0, None);

    // The record says what was sent: videos, their frames and rates, no images.
    let turns = &run.run().attempts[0].reflection;
    let sent: Vec<_> = turns.iter().map(|t| t.video.clone().unwrap()).collect();
    assert_eq!(
        sent,
        vec![
            crate::video::VideoSent::webm(20, 2.0),
            crate::video::VideoSent::webm(tutorial.len(), 0.5)
        ]
    );
    assert!(turns.iter().all(|t| t.frames.is_empty()));
    assert!(
        turns[0].media[0].contains("one WebM video of its 20 frames at 2 fps"),
        "{}",
        turns[0].media[0]
    );
    let json = serde_json::to_string(&run.run().attempts[0]).unwrap();
    assert!(
        json.contains(r#""video":{"mime":"video/webm","frames":20,"fps":2.0}"#),
        "{json}"
    );
    // The next attempt carries the experience; the run verifies.
    assert_eq!(run.phase(), Phase::Playing { attempt: 2 });
    let systems = fail_attempt_with(&mut run, gemini_ok);
    assert!(!systems.is_empty());
    let link = run.run().to_link_fragment().unwrap();
    let back = AttemptRun::from_link_fragment(&link).unwrap();
    assert_eq!(
        back.attempts[0].reflection[0].video,
        Some(crate::video::VideoSent::webm(20, 2.0))
    );
    assert!(matches!(
        verify_attempts(&back).unwrap(),
        AttemptsVerification::Verified { .. }
    ));
}
