//! GameVerse's memory agent replays the reference's, request by request
//! (`tests/golden/gameverse/memory_conversation.py` runs the reference's own memory-agent
//! modules at commit 7cbb423 with Playbench's Maze, 2048 and Snake memory templates, a scripted
//! model and the Python twin of the lexical distance): each run goes through
//! `ModelEpisode` with the `gameverse` protocol and the memory agent, and every request of
//! every step (the history review's and the action's: system text, user parts in order,
//! screenshots by the step they show), the text the game gets, the game's state and the
//! long-term memories stored must be the reference's. Natively and as wasm.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::io::Read;

use bench::model_episode::{ModelEpisode, Step};
use bench::protocol::endpoint::Prices;
use bench::protocol::session::{GameVerseAgent, Protocol, SessionConfig};
use playbench_tests::gameverse_requests::{
    fields, reply, request_form, scripted_endpoint, task, StepTag,
};
use serde_json::Value;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

const GOLDEN: &[u8] = include_bytes!("../golden/gameverse/memory_conversation.json.gz");

fn golden() -> Value {
    let mut text = String::new();
    flate2::read::GzDecoder::new(GOLDEN)
        .read_to_string(&mut text)
        .unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn the_memory_agent_sends_what_the_reference_sends() {
    let golden = golden();
    let (mut requests, mut steps_seen) = (0, 0);
    for run in golden["runs"].as_array().unwrap() {
        let name = run["name"].as_str().unwrap();
        let task = task(run).unwrap();
        let config = SessionConfig {
            protocol: Protocol::Gameverse,
            gameverse_agent: GameVerseAgent::Memory,
            ..SessionConfig::default()
        };
        let mut episode =
            ModelEpisode::new(&task, scripted_endpoint(), config, Prices::default()).unwrap();
        episode.replace_protocol_encoder(Box::new(StepTag(0)));
        let mut script = run["script"].as_array().unwrap().iter();
        let steps = run["steps"].as_array().unwrap();
        for (i, step) in steps.iter().enumerate() {
            for (k, want) in step["requests"].as_array().unwrap().iter().enumerate() {
                let at = format!("{name}, step {i}, request {k}");
                let Step::Send { request, .. } = episode.next(&mut StepTag(1000), None) else {
                    panic!("{at}: the episode ended before the reference's")
                };
                assert_eq!(request_form(&request.body).unwrap(), *want, "{at}");
                let text = script.next().unwrap().as_str().unwrap();
                episode.on_response(200, None, 0, &reply(text), 1.0, None);
                requests += 1;
            }
            let at = format!("{name}, step {i}");
            let last = episode.turns().last().unwrap();
            assert_eq!(last.action.as_deref(), step["text"].as_str(), "{at}: text");
            let want = &step["state"];
            match episode.runner() {
                Some(runner) => {
                    let snapshot = runner.env().snapshot().unwrap();
                    assert_eq!(fields(&snapshot, want), *want, "{at}");
                    let prompts = runner.env().agent_prompts().unwrap();
                    if !runner.is_done() {
                        // The observation text of the next step is the reference's.
                        if let Some(next) = steps.get(i + 1) {
                            assert_eq!(
                                prompts.observation.as_deref(),
                                next["observation"].as_str(),
                                "{at}"
                            );
                        }
                    }
                }
                // Over: the game ended or the step cap was reached.
                None => assert!(
                    step["terminated"].as_bool().unwrap() || i + 1 == task.max_steps as usize,
                    "{at}: over"
                ),
            }
            steps_seen += 1;
        }
        let memories: Vec<String> = episode.gameverse_memories().unwrap_or_default();
        let want: Vec<String> =
            serde_json::from_value(steps.last().unwrap()["memories"].clone()).unwrap();
        assert_eq!(memories, want, "{name}: the long-term memories");
        if let Some(record) = episode.record() {
            assert_eq!(record.decisions.len(), steps.len(), "{name}");
        }
    }
    assert!(
        steps_seen >= 16 && requests >= 30,
        "{steps_seen} steps, {requests} requests"
    );
}
