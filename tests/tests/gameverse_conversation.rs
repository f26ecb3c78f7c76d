//! GameVerse's agent loop replays the reference's, request by request
//! (`tests/golden/gameverse/conversation.py` runs the reference's own zero-shot agent and
//! runner at commit 7cbb423 against a scripted model): each run goes through
//! `ModelEpisode` with the `gameverse` protocol and the same replies, and every request
//! (the system text; the user parts in order, text verbatim, screenshots by the step they
//! show) and every resulting game state must be the reference's.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::io::Read;

use bench::model_episode::{ModelEpisode, Step};
use bench::protocol::endpoint::Prices;
use bench::protocol::session::{Protocol, SessionConfig};
use bench::Task;
use envs::Action;
use playbench_tests::gameverse_requests::{self, fields, reply, scripted_endpoint, StepTag};
use serde_json::Value;

const GOLDEN: &[u8] = include_bytes!("../golden/gameverse/conversation.json.gz");

fn golden() -> Value {
    let mut text = String::new();
    flate2::read::GzDecoder::new(GOLDEN)
        .read_to_string(&mut text)
        .unwrap();
    serde_json::from_str(&text).unwrap()
}

fn task(run: &Value) -> Task {
    gameverse_requests::task(run).unwrap()
}

fn request_form(body: &str) -> Value {
    gameverse_requests::request_form(body).unwrap()
}

#[test]
fn the_agent_loop_sends_what_the_reference_sends() {
    let golden = golden();
    let mut requests = 0;
    for run in golden["runs"].as_array().unwrap() {
        let name = run["name"].as_str().unwrap();
        let task = task(run);
        let endpoint = scripted_endpoint();
        let config = SessionConfig {
            protocol: Protocol::Gameverse,
            ..SessionConfig::default()
        };
        let mut episode = ModelEpisode::new(&task, endpoint, config, Prices::default()).unwrap();
        episode.replace_protocol_encoder(Box::new(StepTag(0)));
        let experience = run["experience"].as_str().map(str::to_string);
        episode.set_experience(experience.clone()).unwrap();
        // A fresh copy of the game, stepped with the texts the episode hands over, for
        // the state after the episode has ended.
        let mut replay = envs::make(run["env"].as_str().unwrap(), &task.kwargs).unwrap();
        replay.reset(Some(task.seed));
        let steps = run["steps"].as_array().unwrap();
        for (i, step) in steps.iter().enumerate() {
            let at = format!("{name}, step {i}");
            let Step::Send { request, .. } = episode.next(&mut StepTag(1000), None) else {
                panic!("{at}: the episode ended before the reference's")
            };
            assert_eq!(request_form(&request.body), step["request"], "{at}");
            let script = run["script"][i].as_str().unwrap();
            episode.on_response(200, None, 0, &reply(script), 1.0, None);
            assert_eq!(
                episode.turns()[i].action.as_deref(),
                step["text"].as_str(),
                "{at}: the text the game gets"
            );
            let text = step["text"].as_str().unwrap().to_string();
            replay.step(Action::Text(text)).unwrap();
            let want = &step["state"];
            assert_eq!(fields(&replay.snapshot().unwrap(), want), *want, "{at}");
            if let Some(runner) = episode.runner() {
                assert_eq!(
                    fields(&runner.env().snapshot().unwrap(), want),
                    *want,
                    "{at}"
                );
            }
            let done = episode.runner().is_none_or(|r| r.is_done());
            assert_eq!(done, step["terminated"].as_bool().unwrap(), "{at}: over");
            requests += 1;
        }
        if let Some(record) = episode.record() {
            assert_eq!(record.decisions.len(), steps.len(), "{name}");
            assert_eq!(record.experience, experience, "{name}");
            assert_eq!(
                record.decisions[0].raw.as_deref(),
                run["script"][0].as_str()
            );
        }
    }
    assert!(requests >= 50, "{requests} requests compared");
}

#[test]
fn the_experience_is_set_before_the_first_request_only() {
    let golden = golden();
    let run = &golden["runs"][0];
    let task = task(run);
    let endpoint = scripted_endpoint();
    let gameverse = SessionConfig {
        protocol: Protocol::Gameverse,
        ..SessionConfig::default()
    };
    let mut episode =
        ModelEpisode::new(&task, endpoint.clone(), gameverse, Prices::default()).unwrap();
    episode
        .set_experience(Some("Take the centre.".into()))
        .unwrap();
    let Step::Send { request, .. } = episode.next(&mut StepTag(0), None) else {
        panic!()
    };
    assert!(request.body.contains("Take the centre."));
    assert!(episode.set_experience(None).is_err());
    let mut vical =
        ModelEpisode::new(&task, endpoint, SessionConfig::default(), Prices::default()).unwrap();
    assert!(vical.set_experience(Some("x".into())).is_err());
}
