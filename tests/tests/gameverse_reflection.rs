//! GameVerse's reflection requests and experience cuts against the reference
//! (`tests/golden/gameverse/reflection.py` runs the reference's reflection module with a
//! stub model): both requests' system and user texts byte for byte, the frames' count,
//! order and markers, the tutorial's sampling, and the experience the next attempt gets.
//! The one deliberate difference: the reference lists failure frames by file name
//! (`step_10.png` before `step_2.png`); Playbench sends them in step order.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::io::Read;

use bench::attempts::ReflectionTurn;
use bench::protocol::prompt::{ImageRef, Message, Part, Role};
use bench::reflect::experience::{experience_of, STAGE_EXPERIENCE, STAGE_FAILURE};
use bench::reflect::prompts::{failure_messages, tutorial_messages, Media, MAX_EXPERIENCE_WORDS};
use bench::step_video::sample_every;
use envs::gameverse::py_str::strip;
use serde_json::{json, Value};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

fn golden() -> Value {
    let (_, gz) = playbench_tests::data_files("golden/gameverse/reflection.json.gz")
        .next()
        .expect("reflection.json.gz");
    let mut text = String::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_string(&mut text)
        .unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Our messages in the golden file's form: the system text, then the user items (text
/// verbatim, an image as its frame's number in its video).
fn as_sent(messages: &[Message]) -> Value {
    let items: Vec<Value> = messages[1]
        .parts
        .iter()
        .map(|p| match p {
            Part::Text(t) | Part::TextBlock(t) => json!({ "text": t }),
            Part::Image(ImageRef::Current { step }) => json!({ "image": step - 1 }),
            Part::Image(ImageRef::DemoFrame { frame, .. }) => json!({ "image": frame }),
            Part::Image(other) => panic!("unexpected image {other:?}"),
        })
        .collect();
    assert_eq!(messages[0].role, Role::System);
    json!([
        { "role": "system", "text": messages[0].to_text() },
        { "role": "user", "items": items },
    ])
}

/// Frame numbers in the order the reference lists `step_{n + 1}.png` files.
fn by_file_name(n: usize) -> Vec<usize> {
    let mut names: Vec<(String, usize)> =
        (0..n).map(|i| (format!("step_{}.png", i + 1), i)).collect();
    names.sort();
    names.into_iter().map(|(_, i)| i).collect()
}

fn turn(stage: &str, reply: &str) -> ReflectionTurn {
    ReflectionTurn {
        stage: stage.into(),
        reply: reply.into(),
        ..ReflectionTurn::default()
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn reflection_requests_and_experience_match_the_reference() {
    let g = golden();
    let cases = g["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 5);
    for c in cases {
        let name = c["name"].as_str().unwrap();
        let calls = c["calls"].as_array().unwrap();
        let replies: Vec<&str> = c["replies"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        let failures = c["failure_frames"].as_u64().unwrap() as usize;

        // Stage 1: ours in step order, the reference's in file-name order.
        let ours = failure_messages(
            "Maze",
            Media::Frames(
                by_file_name(failures)
                    .into_iter()
                    .map(|i| ImageRef::Current { step: i as u32 + 1 })
                    .collect(),
            ),
        );
        assert_eq!(as_sent(&ours), calls[0], "{name}: stage 1");
        let in_step_order = failure_messages(
            "Maze",
            Media::Frames(
                (1..=failures as u32)
                    .map(|step| ImageRef::Current { step })
                    .collect(),
            ),
        );
        assert_eq!(
            in_step_order[1].images().count(),
            failures,
            "{name}: every step frame"
        );

        let mut turns = vec![turn(STAGE_FAILURE, replies[0])];
        if c["expert_frames"].as_u64().unwrap() > 0 {
            // Stage 2: the stripped analysis and the tutorial sampled at one frame per 2 s.
            let frames = sample_every(
                c["expert_frames"].as_u64().unwrap() as usize,
                c["expert_fps"].as_f64().unwrap(),
                0.5,
            );
            let ours = tutorial_messages(
                "Maze",
                strip(replies[0]),
                MAX_EXPERIENCE_WORDS,
                Media::Frames(
                    frames
                        .into_iter()
                        .map(|frame| ImageRef::DemoFrame { clip: 0, frame })
                        .collect(),
                ),
            );
            assert_eq!(as_sent(&ours), calls[1], "{name}: stage 2");
            turns.push(turn(STAGE_EXPERIENCE, replies[1]));
        } else {
            assert_eq!(calls.len(), 1, "{name}: failure only");
        }
        assert_eq!(
            experience_of(&turns, MAX_EXPERIENCE_WORDS),
            c["experience"].as_str().unwrap(),
            "{name}: experience"
        );
    }
}
