use super::*;
use crate::model_episode::{FrameEncoder, ModelEpisode, Step};
use crate::protocol::endpoint::{Endpoint, Prices};
use crate::protocol::providers::{EncodedImage, Provider, Sampling};
use crate::protocol::session::SessionConfig;
use crate::share::{verify, EpisodeFile, TaskRef, Verification};
use crate::Task;
use envs::gameverse::snake::{
    best_move, LatencyMode, RealtimeDriver, Snake, SnakeConfig, SnakeEnv,
};
use envs::Frame;

struct Fake;
impl FrameEncoder for Fake {
    fn encode(&mut self, f: &Frame) -> Result<EncodedImage, String> {
        Ok(EncodedImage::from_bytes(
            "image/png",
            &vec![0; (f.width() * f.height()) as usize % 97 + 1],
        ))
    }
}

/// The gameverse suite's Snake task in a real-time latency mode.
fn snake_task(latency: &str) -> Task {
    let mut task = crate::suites::latest("gameverse")
        .unwrap()
        .task("snake")
        .unwrap()
        .clone();
    task.id = format!("snake-{latency}");
    task.kwargs
        .insert("latency".into(), serde_json::json!(latency));
    task
}

fn endpoint() -> Endpoint {
    Endpoint {
        provider: Provider::OpenAi,
        base_url: "http://x/v1".into(),
        sampling: Sampling {
            model: "scripted".into(),
            temperature: None,
            max_output_tokens: None,
        },
        headers: vec![],
    }
}

fn answer(text: &str) -> String {
    serde_json::json!({"choices": [{"message": {"content": text}}]}).to_string()
}

fn game(runner: &EpisodeRunner) -> &Snake {
    runner
        .env()
        .as_any()
        .downcast_ref::<SnakeEnv>()
        .unwrap()
        .game()
}

/// A scripted model: the expert's move for the observation it is sent, answered after
/// `latencies[i % len]` (as measured; `source` may replace it). The reference's timing
/// driver plays the same replies with the latencies the run used, on its own game; the
/// states after every observation must agree. Returns the record and the driver's game.
fn run(
    task: &Task,
    latencies: &[u64],
    source: LatencySource,
    mode: LatencyMode,
) -> (EpisodeRecord, Snake) {
    let mut episode = ModelEpisode::new(
        task,
        endpoint(),
        SessionConfig::default(),
        Prices::default(),
    )
    .unwrap();
    episode.set_latency_source(source.clone());
    let mut reference = Snake::new(SnakeConfig {
        latency: mode,
        ..SnakeConfig::default()
    });
    reference.reset(Some(task.seed));
    let mut driver = RealtimeDriver::new(mode).unwrap();
    let mut i = 0;
    while let Step::Send { .. } = episode.next(&mut Fake, None) {
        let runner = episode.runner().unwrap();
        assert_eq!(
            game(runner).state_json(),
            reference.state_json(),
            "reply {i}"
        );
        let key = best_move(game(runner)).letter();
        let measured = latencies[i % latencies.len()];
        let used = source.latency(i, measured).unwrap();
        driver.step(&mut reference, key, used);
        episode.on_response(
            200,
            None,
            0,
            &answer(&format!("[Action: {key}]")),
            measured as f64,
            None,
        );
        i += 1;
        if let Some(r) = episode.runner() {
            assert_eq!(game(r).state_json(), reference.state_json(), "after {i}");
            assert_eq!(game(r).elapsed_ms(), reference.elapsed_ms(), "panel {i}");
        }
    }
    let record = episode.record().unwrap().clone();
    // The last frame is the reference's final state, panel (time, score) included.
    let mut frame = Frame::default();
    reference.render(&mut frame, &mut Default::default());
    let last = record.decisions.last().unwrap();
    assert_eq!(last.frame_hash, format!("{:016x}", frame.hash()));
    // The auditor's replay of the conversation plays the same times (its last state is
    // the episode's end).
    let evidence =
        crate::audit::evidence::build_evidence(task, &record, SessionConfig::default()).unwrap();
    assert_eq!(evidence.states.len(), record.decisions.len() + 1);
    let end = evidence.states.last().unwrap();
    assert_eq!(last.frame_hash, format!("{:016x}", end.hash()));
    // So does the step video reflection and the judge read: every frame is the one the
    // record claims.
    let frames = crate::step_video::step_frames(task, &record).unwrap();
    let hashes: Vec<String> = frames
        .iter()
        .map(|f| format!("{:016x}", f.hash()))
        .collect();
    let claimed: Vec<&str> = record
        .decisions
        .iter()
        .map(|d| d.frame_hash.as_str())
        .collect();
    assert_eq!(hashes, claimed);
    (record, reference)
}

fn verified(task: &Task, record: &EpisodeRecord) -> Verification {
    let file = EpisodeFile::from_record(
        TaskRef::Inline(Box::new(task.clone())),
        record.clone(),
        None,
    );
    let link = file.to_link_fragment().unwrap();
    verify(&EpisodeFile::from_link_fragment(&link).unwrap()).unwrap()
}

#[test]
fn normal_mode_plays_thinking_time_as_the_reference_times_it_and_replays_exactly() {
    let task = snake_task("normal");
    let latencies = [
        3_000, 35_000, 12_000, 4_000, 2_500, 800, 21_000, 1_500, 6_000,
    ];
    let (record, reference) = run(
        &task,
        &latencies,
        LatencySource::Measured,
        LatencyMode::Normal,
    );
    // Eleven decisions, the last an idle step: 35 s of thinking ran the snake into a wall.
    assert!(record.decisions.len() >= 10, "{record:?}");
    // Every reply carries its latency; the idle steps are the reference's blind moves.
    let replies: Vec<u64> = record
        .decisions
        .iter()
        .filter_map(|d| d.latency_ms)
        .collect();
    let expected: Vec<u64> = (0..replies.len())
        .map(|i| latencies[i % latencies.len()])
        .collect();
    assert_eq!(replies, expected);
    // The idle steps before decisions, and the one that ended the episode.
    let closing = record
        .decisions
        .iter()
        .filter(|d| d.action == envs::gameverse::snake::TIMEOUT_TEXT)
        .count() as u32;
    let idle: u32 = record.decisions.iter().map(|d| d.idle_before).sum();
    assert_eq!(idle + closing, reference.auto_moves());
    assert!(
        idle >= 3,
        "35 s of thinking at a 10 s timeout moves the snake blind"
    );
    assert_eq!(record.decisions[1].idle_before, 3);
    assert_eq!(record.score, reference.normalized_score());
    assert_eq!(
        verified(&task, &record),
        Verification::Verified {
            passed: record.passed,
            score: record.score
        }
    );
    // A record whose thinking times were altered does not verify.
    let mut altered = record.clone();
    altered.decisions[2].latency_ms = Some(25_000);
    assert!(matches!(
        verified(&task, &altered),
        Verification::Diverged(_)
    ));
    // Nor one whose idle steps were.
    let mut altered = record.clone();
    altered.decisions[1].idle_before = 2;
    let Verification::Diverged(d) = verified(&task, &altered) else {
        panic!("verified")
    };
    assert_eq!(d.field, "idle_before");
    // Nor one that lost a thinking time.
    let mut altered = record.clone();
    altered.decisions[2].latency_ms = None;
    let Verification::Diverged(d) = verified(&task, &altered) else {
        panic!("verified")
    };
    assert_eq!(d.field, "latency_ms");
    // Replaying the record's latencies reproduces it, whatever the new measurements.
    let replay = LatencySource::replay_of(&record).unwrap();
    let (again, _) = run(&task, &[1], replay, LatencyMode::Normal);
    assert_eq!(again, record);
}

#[test]
fn slow_mode_ends_at_the_first_move_at_or_after_1200_s() {
    let task = snake_task("slow");
    // 19 s of thinking and the 500 ms screenshot: a reply every 19.5 s, never blind.
    let (record, reference) = run(&task, &[0], LatencySource::Fixed(19_000), LatencyMode::Slow);
    assert!(reference.time_up(), "{:?}", reference.state_json());
    assert_eq!(reference.elapsed_ms(), 1_209_000);
    let last = record.decisions.last().unwrap();
    assert!(last.terminated);
    // A reply every 19.5 s from the first (which starts the loop): the 63rd comes 1209 s
    // after it, the first move at or after 1200 s, and ends the game.
    assert_eq!(record.decisions.len(), 63);
    assert!(record
        .decisions
        .iter()
        .all(|d| d.latency_ms == Some(19_000)));
    assert_eq!(record.score, reference.normalized_score());
    assert!(matches!(
        verified(&task, &record),
        Verification::Verified { .. }
    ));
}

#[test]
fn an_episode_that_ends_while_the_model_thinks_records_the_idle_step() {
    let task = snake_task("normal");
    // Long thinking: the snake runs into the wall on its own.
    let (record, reference) = run(
        &task,
        &[2_000, 60_000],
        LatencySource::Measured,
        LatencyMode::Normal,
    );
    let last = record.decisions.last().unwrap();
    assert!(last.terminated && reference.game_over());
    assert_eq!(last.action, envs::gameverse::snake::TIMEOUT_TEXT);
    assert_eq!(last.latency_ms, Some(60_000));
    assert!(matches!(
        verified(&task, &record),
        Verification::Verified { .. }
    ));
}

#[test]
fn sources_parse_and_stats_summarise() {
    assert_eq!(
        LatencySource::parse("measured"),
        Ok(LatencySource::Measured)
    );
    assert_eq!(
        LatencySource::parse(" fixed:2500"),
        Ok(LatencySource::Fixed(2500))
    );
    assert!(LatencySource::parse("fixed:2.5s").is_err());
    assert!(LatencySource::parse("fast").is_err());
    let replay = LatencySource::Replay(vec![1, 2]);
    assert_eq!(replay.latency(1, 9), Ok(2));
    assert!(replay.latency(2, 9).is_err());
    let decisions: Vec<Decision> = [Some(3_000), None, Some(35_000), Some(12_000), Some(4_000)]
        .into_iter()
        .map(|latency_ms| Decision {
            idle_before: 0,
            latency_ms,
            at_ms: None,
            action: "L".into(),
            raw: None,
            rejected: Vec::new(),
            reward: 0.0,
            terminated: false,
            truncated: false,
            frame_hash: String::new(),
        })
        .collect();
    let stats = LatencyStats::of(&decisions).unwrap();
    assert_eq!(
        (stats.count, stats.min_ms, stats.median_ms, stats.max_ms),
        (4, 3_000, 8_000, 35_000)
    );
    assert_eq!(
        stats.summary(),
        "latency min 3.0 s · median 8.0 s · max 35.0 s (4 replies)"
    );
    assert_eq!(LatencyStats::of(&decisions[1..2]), None);
}

#[test]
fn turn_based_tasks_have_no_latency_clock() {
    let stop = crate::suites::latest("gameverse")
        .unwrap()
        .task("snake")
        .unwrap();
    let runner = EpisodeRunner::start(stop).unwrap();
    assert!(LatencyClock::for_runner(&runner).is_none());
    let episode = ModelEpisode::new(
        stop,
        endpoint(),
        SessionConfig::default(),
        Prices::default(),
    )
    .unwrap();
    assert_eq!(episode.latency_source(), None);
}
