//! The judge against canned replies: the milestone readers, the request text (the
//! spec's §9.2 byte for byte), reply parsing, the exact answers of oracle and random
//! episodes, the state machine and the agreement report.

use super::exact::exact_completion;
use super::file::JudgeFile;
use super::milestones::{extract_json_text, parse_extractor_reply, parse_milestone_file};
use super::report::format_judge_table;
use super::run::{milestone_list, JudgeItem, JudgeRun, JudgeSource, JudgeStep};
use super::verdict::parse_verdict;
use crate::agents::{OracleAgent, RandomAgent};
use crate::protocol::endpoint::HttpRequest;
use crate::testing::{endpoint, ok, FakeEncoder};
use crate::{run_episode, EpisodeRecord, Task};

fn task(id: &str) -> &'static Task {
    crate::suites::latest("gameverse")
        .unwrap()
        .task(id)
        .unwrap()
}

const GAMES: [&str; 4] = ["tic-tac-toe-x", "2048-s1", "maze-s1", "snake"];

#[test]
fn every_open_game_has_an_exact_list_of_five_to_ten_milestones() {
    for id in GAMES {
        let list = milestone_list(task(id)).unwrap();
        assert!((5..=10).contains(&list.milestones.len()), "{id}");
        assert!(list.is_exact(), "{id}");
        assert!(list.game.is_some(), "{id}");
    }
    // Environments without a list say so.
    let core = crate::suites::latest(crate::suites::DEFAULT_SUITE).unwrap();
    let err = milestone_list(&core.tasks[0]).unwrap_err();
    assert!(err.contains("has no milestone list"), "{err}");
}

#[test]
fn the_oracle_reaches_every_milestone_and_a_random_player_fewer() {
    // Per game, its tasks: together the oracle's episodes reach every milestone (as X
    // the oracle does not take the centre; as O it reaches all seven).
    for ids in [
        &["tic-tac-toe-x", "tic-tac-toe-o"][..],
        &["2048-s1", "2048-s2"],
        &["maze-s1", "maze-s2"],
        &["snake"],
    ] {
        let list = milestone_list(task(ids[0])).unwrap();
        let mut reached = vec![false; list.milestones.len()];
        for id in ids {
            let t = task(id);
            let oracle = run_episode(t, &mut OracleAgent::new()).unwrap();
            let exact = exact_completion(t, &oracle, &list).unwrap();
            for (r, s) in reached.iter_mut().zip(&exact) {
                *r |= s.is_some();
            }
            assert!(exact
                .iter()
                .flatten()
                .all(|&s| s >= 1 && s as usize <= oracle.decisions.len()));
            let random = run_episode(t, &mut RandomAgent::new(3)).unwrap();
            let r = exact_completion(t, &random, &list).unwrap();
            assert!(
                r.iter().flatten().count() < exact.iter().flatten().count(),
                "{id}"
            );
        }
        assert!(reached.iter().all(|&r| r), "{ids:?}: {reached:?}");
    }
}

#[test]
fn a_timed_real_time_record_replays_on_its_thinking_times() {
    use crate::latency::LatencyClock;
    use envs::gameverse::snake::{best_move, SnakeEnv};
    let mut t = task("snake").clone();
    t.id = "snake-normal".into();
    t.kwargs
        .insert("latency".into(), serde_json::json!("normal"));
    let mut runner = crate::EpisodeRunner::start(&t).unwrap();
    let mut clock = LatencyClock::for_runner(&runner).unwrap();
    let latencies = [3_000, 12_000, 4_000, 25_000];
    for i in 0..40 {
        if runner.is_done() {
            break;
        }
        let game = runner
            .env()
            .as_any()
            .downcast_ref::<SnakeEnv>()
            .unwrap()
            .game();
        let key = best_move(game).letter();
        clock
            .play(&mut runner, latencies[i % latencies.len()], |r| {
                r.apply_text(key, None, Vec::new()).map(|_| ())
            })
            .unwrap();
    }
    let record = runner.finish("model");
    assert!(record.decisions.iter().any(|d| d.idle_before > 0));
    let list = milestone_list(&t).unwrap();
    let exact = exact_completion(&t, &record, &list).unwrap();
    // Each milestone is reached exactly when the episode's own events say so.
    for (m, step) in list.milestones.iter().zip(&exact) {
        let event = &m.exact.as_ref().unwrap().event;
        assert_eq!(
            step.is_some(),
            record.progress.events.contains(event),
            "{event}"
        );
    }
    assert!(exact[0].is_some(), "the expert eats");
}

#[test]
fn a_record_that_does_not_replay_is_an_error() {
    let t = task("maze-s1");
    let list = milestone_list(t).unwrap();
    let mut record = run_episode(t, &mut OracleAgent::new()).unwrap();
    record.decisions[0].frame_hash = "0000000000000000".into();
    let err = exact_completion(t, &record, &list).unwrap_err();
    assert!(err.contains("decision 1"), "{err}");
}

#[test]
fn milestone_files_in_the_reference_format_and_their_errors() {
    let file = r#"{
      "milestones": [
        {"timestamp": "00:04 - 00:18", "title": "Open the Door", "description": "The door opens.",
         "category": "Exploration", "importance": "Low"},
        {"timestamp": "0:00 - 0:01", "title": "Win", "description": "The level ends.",
         "category": "Level Completion", "importance": "High",
         "playbench_exact": {"event": "flag"}}
      ]
    }"#;
    let list = parse_milestone_file(file).unwrap();
    assert_eq!(list.milestones.len(), 2);
    assert_eq!(list.milestones[0].timestamp, "00:04 - 00:18");
    assert!(!list.is_exact());
    assert_eq!(list.milestones[1].exact.as_ref().unwrap().event, "flag");
    for (bad, why) in [
        (
            r#"{"milestones": [{"title": "A"}]}"#,
            "milestones[0].description: missing",
        ),
        (
            r#"{"milestones": [{"title": 3, "description": "d"}]}"#,
            "milestones[0].title: expected a string, got a number",
        ),
        (r#"{"milestones": []}"#, "milestones: the list is empty"),
        (
            r#"{"milestones": {}}"#,
            "milestones: expected an array of milestones, got an object",
        ),
        (
            r#"{"milestones": [{"title": "A", "description": "d", "playbench_exact": {"event": "x", "when": 1}}]}"#,
            "milestones[0].playbench_exact.when: unknown field",
        ),
        (
            r#"{"milestones": [{"title": "A", "description": "d", "playbench_exact": "flag"}]}"#,
            "milestones[0].playbench_exact: expected an object",
        ),
        (
            "[1]",
            "expected an object {\"milestones\": [...]}, got an array",
        ),
        ("nope", "the file is not JSON"),
    ] {
        let err = parse_milestone_file(bad).unwrap_err();
        assert!(err.starts_with(why), "{bad}: {err}");
    }
}

#[test]
fn extractor_replies_are_unwrapped_by_gameverse_rules() {
    let m = r#"{"title": "It\'s done", "description": "d", "timestamp": 0}"#;
    // A fenced block after prose; `\'` becomes `'`; a number timestamp is text.
    let reply = format!("Here you go:\n```JSON\n{{\"milestones\": [{m}]}}\n```\nBye {{x}}");
    let list = parse_extractor_reply(&reply).unwrap();
    assert_eq!(list.milestones[0].title, "It's done");
    assert_eq!(list.milestones[0].timestamp, "0");
    // No fence: first `{` to last `}`; a top level without `milestones` is the list.
    let list = parse_extractor_reply(&format!("list: [{m}, {m}] done")).unwrap_err();
    assert!(list.contains("no JSON milestone list"), "{list}");
    assert_eq!(extract_json_text("a {b} c {d} e"), "{b} c {d}");
    assert_eq!(extract_json_text("``` {x} ``` and ```json\n{y}```"), "{x}");
    assert_eq!(extract_json_text("```python\n{x}\n``` {y}"), "{x}\n``` {y}");
    assert_eq!(extract_json_text(r"\\' and \'"), r"\\' and '");
    let wrapped = parse_extractor_reply(&format!("{{\"a\": [{m}]}}")).unwrap_err();
    assert!(
        wrapped.starts_with("milestones: expected an array"),
        "{wrapped}"
    );
}

#[test]
fn verdicts_ignore_outside_and_repeated_indices_and_missing_is_not_completed() {
    let reply = r#"```json
{"milestone_matches": [
  {"milestone_index": 0, "completed": true, "evidence": "seen"},
  {"milestone_index": 0, "completed": false, "evidence": "again"},
  {"milestone_index": 7, "completed": true},
  {"milestone_index": "2", "completed": true},
  {"milestone_index": 2, "completed": "yes"}
]}
```"#;
    let v = parse_verdict(reply, 4).unwrap();
    assert_eq!(v.completed(), 1);
    assert!(v.is_completed(0) && !v.is_completed(2) && !v.is_completed(1));
    assert_eq!(v.matches[0].as_ref().unwrap().evidence, "seen");
    assert!(v.matches[1].is_none() && v.matches[3].is_none());
    assert_eq!(
        v.ignored,
        [
            "milestone_matches[1]: milestone 0 again (the first entry counts)",
            "milestone_matches[2]: milestone_index 7 is outside the list (0-3)",
            "milestone_matches[3]: milestone_index \"2\" is not a number",
        ]
    );
    for (bad, why) in [
        ("I think most were done.", "the reply holds no JSON object"),
        (r#"{"matches": []}"#, "milestone_matches: missing"),
        (
            r#"{"milestone_matches": {}}"#,
            "milestone_matches: expected an array",
        ),
    ] {
        assert!(parse_verdict(bad, 2).unwrap_err().starts_with(why), "{bad}");
    }
}

const KEY: &str = "sk-judge-secret";

fn send(run: &mut JudgeRun) -> (HttpRequest, u64) {
    match run.next(&mut FakeEncoder, Some(KEY)) {
        JudgeStep::Send { request, wait_ms } => (request, wait_ms),
        JudgeStep::Done => panic!("done early"),
    }
}

fn source(records: Vec<EpisodeRecord>) -> JudgeSource {
    JudgeSource {
        label: "test".into(),
        agent: "oracle".into(),
        suite: "gameverse".into(),
        suite_version: 1,
        items: records
            .into_iter()
            .map(|record| JudgeItem {
                task: task(&record.task).clone(),
                record,
                repeat: 0,
                link: None,
            })
            .collect(),
    }
}

fn matches(completed: &[bool]) -> String {
    let entries: Vec<serde_json::Value> = completed
        .iter()
        .enumerate()
        .map(|(i, c)| serde_json::json!({"milestone_index": i, "completed": c, "evidence": format!("frame {i}")}))
        .collect();
    serde_json::json!({ "milestone_matches": entries }).to_string()
}

#[test]
fn the_request_is_the_spec_text_with_the_step_frames_and_milestone_lines() {
    let t = task("maze-s1");
    let record = run_episode(t, &mut OracleAgent::new()).unwrap();
    let n = record.decisions.len();
    let mut run = JudgeRun::new(source(vec![record]), endpoint("judge"), 100);
    let (r, wait) = send(&mut run);
    assert_eq!((wait, r.images), (0, n));
    let body: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    let msgs = body["messages"].as_array().unwrap();
    let system = msgs[0]["content"].as_str().unwrap();
    assert!(system.starts_with("You are a game milestone checker. Your task is to watch a gameplay video and check whether each milestone from the reference milestones list has been completed in this video.\n\nRequirements:\n1. Carefully observe the gameplay video\n"));
    assert!(system.contains("{\n    \"milestone_matches\": [\n        {\n            \"milestone_index\": 0,\n            \"completed\": true,"));
    assert!(system.ends_with(
        "- If a milestone is partially completed or unclear, mark it as false and explain why"
    ));
    let user = msgs[1]["content"].as_array().unwrap();
    let last = user.last().unwrap()["text"].as_str().unwrap();
    assert_eq!(
        last,
        "Game name: Maze\n\
         Milestone 0: First Move - Move the Ball: the ball leaves its starting cell, moving one cell along an open path of the maze.\n\
         Milestone 1: Get Closer to the Flag - Make Progress: the ball stands on a cell from which fewer moves along the open paths lead to the flag than from its starting cell.\n\
         Milestone 2: Halve the Distance - Halfway There: the ball has covered at least half of the shortest path; at most half of the moves needed from the start are left to reach the flag.\n\
         Milestone 3: One Step Away - Next to the Flag: the ball stands on an open cell directly beside the flag, one move from reaching it.\n\
         Milestone 4: Reach the Flag - Level Completion: the ball moves onto the flag's cell, which completes the maze.\n\
         Please watch the gameplay video and check which milestones have been completed."
    );
    assert!(user[..n].iter().all(|p| p["type"] == "image_url"));
}

#[test]
fn long_episodes_are_halved_to_the_image_budget_with_markers() {
    let t = task("snake");
    let record = run_episode(t, &mut OracleAgent::new()).unwrap();
    let n = record.decisions.len();
    assert!(n > 40, "{n}");
    let mut run = JudgeRun::new(source(vec![record]), endpoint("judge"), 40);
    let (r, _) = send(&mut run);
    assert!(r.images <= 40 && r.images > 20, "{}", r.images);
    let e = &run.file().episodes[0];
    assert_eq!((e.frames_total, e.frames_sent), (n, r.images));
    assert!(r.body.contains("(Displayed 10 frames)") && r.body.contains("(Displayed 20 frames)"));
    assert!(run.describe_current().unwrap().starts_with(&format!(
        "episode 1 of 1 (snake): {} of {n} frames",
        r.images
    )));
}

#[test]
fn a_judging_with_good_bad_and_failed_replies_and_its_report() {
    let oracle = run_episode(task("maze-s1"), &mut OracleAgent::new()).unwrap();
    let random = run_episode(task("tic-tac-toe-x"), &mut RandomAgent::new(1)).unwrap();
    let snake = run_episode(task("snake"), &mut RandomAgent::new(2)).unwrap();
    let mut run = JudgeRun::new(source(vec![oracle, random, snake]), endpoint("judge"), 100);
    // Episode 1: a good reply, wrong about milestone 4.
    send(&mut run);
    run.on_response(
        200,
        None,
        0,
        &ok(&matches(&[true, true, true, true, false])),
        5.0,
        None,
    );
    // Episode 2: an unparsable reply, then another: flagged, scored 0.
    send(&mut run);
    run.on_response(200, None, 0, &ok("No JSON here."), 5.0, None);
    let (_, wait) = send(&mut run);
    assert_eq!(wait, 0);
    run.on_response(200, None, 0, &ok("Still none."), 5.0, None);
    // Episode 3: a 500 is retried after 1 s, then an auth error ends it.
    send(&mut run);
    run.on_response(500, None, 0, r#"{"error": {"message": "boom"}}"#, 5.0, None);
    let (_, wait) = send(&mut run);
    assert_eq!(wait, 1000);
    run.on_response(
        401,
        None,
        0,
        r#"{"error": {"message": "bad key sk-judge-secret"}}"#,
        5.0,
        Some(KEY),
    );
    assert_eq!(run.next(&mut FakeEncoder, None), JudgeStep::Done);

    let file = run.file();
    let [maze, ttt, snake] = &file.episodes[..] else {
        panic!()
    };
    assert_eq!(maze.judge_score(), Some(0.8));
    assert_eq!(maze.exact_score(), Some(1.0));
    assert_eq!(maze.milestones[4].evidence, "frame 4");
    assert!(ttt.flagged && ttt.problems.len() == 2 && ttt.judge_score() == Some(0.0));
    assert!(
        snake.error.as_deref().unwrap().contains("bad key ***"),
        "{:?}",
        snake.error
    );
    let r = &file.report;
    assert_eq!((r.episodes, r.judged, r.flagged, r.errors), (3, 2, 1, 1));
    assert_eq!(r.overall.milestones, 5);
    assert_eq!(
        (r.overall.false_completions, r.overall.missed_completions),
        (0, 1)
    );
    assert_eq!(r.overall.agreement_rate, Some(0.8));
    // Against an exact answer that is always "completed", agreement is chance's: kappa 0.
    assert_eq!(r.overall.kappa, Some(0.0));
    assert_eq!(r.disagreements.len(), 1);
    assert_eq!(r.disagreements[0].title, "Reach the Flag");
    let table = format_judge_table(&file.judge, r);
    assert!(
        table.contains("GameVerse/Maze") && table.contains("Disagreements:"),
        "{table}"
    );
    assert!(
        table.contains("judge not completed, exact completed: frame 4"),
        "{table}"
    );

    // The file round-trips, and a resumed judging asks only the failed episode.
    let back = JudgeFile::from_json(&file.to_json()).unwrap();
    assert_eq!(&back, file);
    let records: Vec<EpisodeRecord> = [("maze-s1", 0), ("tic-tac-toe-x", 1), ("snake", 2)]
        .iter()
        .map(|(id, _)| id)
        .zip([
            run_episode(task("maze-s1"), &mut OracleAgent::new()).unwrap(),
            run_episode(task("tic-tac-toe-x"), &mut RandomAgent::new(1)).unwrap(),
            run_episode(task("snake"), &mut RandomAgent::new(2)).unwrap(),
        ])
        .map(|(_, r)| r)
        .collect();
    let mut again = JudgeRun::new(source(records), endpoint("judge"), 100);
    again.resume(back).unwrap();
    assert_eq!(again.settled(), 3);
    assert_eq!(again.next(&mut FakeEncoder, None), JudgeStep::Done);
    let mut other = JudgeRun::new(source(vec![]), endpoint("judge"), 100);
    assert!(other.resume(file.clone()).is_err());
}

#[test]
fn a_judge_that_takes_video_watches_the_whole_step_video_as_webm() {
    let t = task("snake");
    let record = run_episode(t, &mut RandomAgent::new(3)).unwrap();
    let frames = crate::step_video::step_frames(t, &record).unwrap();
    let mut judge = endpoint("gemini-judge");
    judge.provider = crate::protocol::providers::Provider::Gemini;
    // The image budget does not apply to a video.
    let mut run = JudgeRun::new(source(vec![record]), judge, 4);
    let (r, _) = send(&mut run);
    let b: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    let parts = b["contents"][0]["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 2);
    assert_eq!(parts[0]["inline_data"]["mime_type"], "video/webm");
    crate::video::tests::assert_video_of(
        parts[0]["inline_data"]["data"].as_str().unwrap(),
        &frames,
        2.0,
    );
    assert!(parts[1]["text"]
        .as_str()
        .unwrap()
        .starts_with("Game name: Snake\n"));
    let e = &run.file().episodes[0];
    assert_eq!(
        (e.frames_total, e.frames_sent),
        (frames.len(), frames.len())
    );
    assert_eq!(
        e.video,
        Some(crate::video::VideoSent::webm(frames.len(), 2.0))
    );
}
