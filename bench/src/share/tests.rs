use super::*;
use crate::agents::{OracleAgent, RandomAgent};
use crate::episode::{run_episode, Agent};
use crate::link_codec::PayloadError as P;
use serde_json::json;

fn task(id: &str) -> Task {
    crate::suites::latest(crate::suites::DEFAULT_SUITE)
        .unwrap()
        .task(id)
        .unwrap()
        .clone()
}

fn file_for(id: &str, agent: &mut dyn Agent) -> EpisodeFile {
    let record = run_episode(&task(id), agent).unwrap();
    EpisodeFile::from_record(
        TaskRef::in_suite(
            crate::suites::latest(crate::suites::DEFAULT_SUITE).unwrap(),
            id,
        ),
        record,
        None,
    )
}

fn honest() -> EpisodeFile {
    file_for("frozenlake-4x4-det-s0", &mut OracleAgent::new())
}

fn divergence(file: &EpisodeFile) -> Divergence {
    match verify(file).unwrap() {
        Verification::Diverged(d) => d,
        v => panic!("expected a divergence, got {v:?}"),
    }
}

#[test]
fn base64url_and_crc32_are_standard() {
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    assert_eq!(base64url_encode(b"\xfb\xff\xbf"), "-_-_");
    assert_eq!(base64url_encode(b"ab"), "YWI");
    for n in 0..40u8 {
        let bytes: Vec<u8> = (0..n).map(|i| i.wrapping_mul(97) ^ 0xA5).collect();
        assert_eq!(base64url_decode(&base64url_encode(&bytes)).unwrap(), bytes);
    }
    assert_eq!(base64url_decode("YW+"), Err(Base64Error::BadChar(2)));
    let end = Err(Base64Error::BadEnd);
    assert_eq!(base64url_decode("YWIxY"), end, "a lone last character");
    assert_eq!(base64url_decode("YWJ"), end, "non-zero leftover bits");
}

#[test]
fn every_family_round_trips_and_verifies() {
    let suite = crate::suites::latest(crate::suites::DEFAULT_SUITE).unwrap();
    let mut families: Vec<&str> = Vec::new();
    for t in &suite.tasks {
        if families.contains(&t.tags.family.as_str()) {
            continue;
        }
        families.push(&t.tags.family);
        let agents: [Box<dyn Agent>; 2] =
            [Box::new(RandomAgent::new(3)), Box::new(OracleAgent::new())];
        for mut agent in agents {
            let file = file_for(&t.id, agent.as_mut());
            let link = file.to_link_fragment().unwrap();
            assert!(link.len() < LINK_MAX_CHARS);
            let back = EpisodeFile::from_link_fragment(&link).unwrap();
            assert_eq!(back, file, "{} link", t.id);
            assert_eq!(EpisodeFile::from_json(&file.to_json()).unwrap(), file);
            let (passed, score) = (file.record.passed, file.record.score);
            assert_eq!(
                verify(&back).unwrap(),
                Verification::Verified { passed, score },
                "{} with {}",
                t.id,
                file.agent
            );
        }
    }
    // Every Toy Text and Classic Control family, and MiniGrid's.
    for f in [
        "Taxi",
        "FrozenLake",
        "CliffWalking",
        "CartPole",
        "Acrobot",
        "MountainCar",
        "Pendulum",
        "MiniGrid-DoorKey",
        "MiniGrid-Dynamic-Obstacles",
        "MiniGrid-Memory",
    ] {
        assert!(families.contains(&f), "{f} missing from {families:?}");
    }
}

/// The first task of one family of each group: Toy Text, Classic Control, MiniGrid.
const GROUP_FAMILIES: [&str; 3] = ["Taxi", "CartPole", "MiniGrid-DoorKey"];

fn first_task_of(family: &str) -> Task {
    crate::suites::latest(crate::suites::DEFAULT_SUITE)
        .unwrap()
        .tasks
        .iter()
        .find(|t| t.tags.family == family)
        .unwrap_or_else(|| panic!("no {family} task"))
        .clone()
}

/// Re-encodes a link's content with a valid checksum, as a forger would.
fn reencoded(file: &EpisodeFile) -> EpisodeFile {
    EpisodeFile::from_link_fragment(&file.to_link_fragment().unwrap()).unwrap()
}

#[test]
fn tampering_is_detected_in_every_group() {
    for family in GROUP_FAMILIES {
        let t = first_task_of(family);
        let file = file_for(&t.id, &mut OracleAgent::new());
        let link = file.to_link_fragment().unwrap();
        // Altered bytes: the checksum (or the deflate stream) refuses the link.
        let start = "e=pb1.".len();
        for i in [start + 1, start + 10, link.len() / 2, link.len() - 3] {
            let mut bytes = link.clone().into_bytes();
            bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
            let flipped = String::from_utf8(bytes).unwrap();
            match EpisodeFile::from_link_fragment(&flipped) {
                Err(e) => assert!(
                    matches!(
                        e,
                        ShareError::Link(P::Checksum { .. })
                            | ShareError::Link(P::Corrupt(_))
                            | ShareError::Link(P::Truncated)
                            | ShareError::Link(P::Base64(_))
                    ),
                    "{}: {e:?}",
                    t.id
                ),
                // Only the unused low bits of the last character may change nothing.
                Ok(f) => assert_eq!(f, file, "{} position {i}", t.id),
            }
        }
        // Forged content with a fresh checksum: re-simulation finds the lie.
        let mut reward = file.clone();
        reward.record.decisions[0].reward += 1.0;
        let d = divergence(&reencoded(&reward));
        assert_eq!(
            (d.step, d.field.as_str()),
            (DivergenceStep::Decision(1), "reward"),
            "{}",
            t.id
        );
        let mut frame = file.clone();
        let last = frame.record.decisions.len() - 1;
        frame.record.decisions[last].frame_hash = "f".repeat(16);
        let d = divergence(&reencoded(&frame));
        assert_eq!(d.step, DivergenceStep::Decision(last + 1), "{}", t.id);
        let mut score = file.clone();
        score.record.score -= 1.0;
        assert_eq!(divergence(&reencoded(&score)).step, DivergenceStep::Final);
    }
}

#[test]
fn forked_episodes_round_trip_with_their_task_inline() {
    for family in GROUP_FAMILIES {
        let t = first_task_of(family);
        let file = file_for(&t.id, &mut OracleAgent::new());
        assert!(file.record.decisions.len() >= 2, "{}", t.id);
        let forked = crate::results::fork_task(&file, 1).unwrap();
        let record = run_episode(&forked, &mut OracleAgent::new()).unwrap();
        let fork_file = EpisodeFile::from_record(TaskRef::Inline(Box::new(forked)), record, None);
        let back = reencoded(&fork_file);
        assert_eq!(back, fork_file, "{}", t.id);
        let (passed, score) = (back.record.passed, back.record.score);
        assert_eq!(
            verify(&back).unwrap(),
            Verification::Verified { passed, score },
            "{}",
            t.id
        );
        // An inline task edited in the link (here its seed) no longer verifies.
        let mut edited = back.clone();
        if let TaskRef::Inline(task) = &mut edited.task {
            task.seed += 1;
        }
        assert_eq!(divergence(&reencoded(&edited)).step, DivergenceStep::Start);
    }
}

#[test]
fn inline_tasks_and_replies_verify() {
    let t = task("pendulum-s3");
    let mut runner = EpisodeRunner::start(&t).unwrap();
    for _ in 0..3 {
        runner
            .apply(0, Some("[Action: x]".into()), vec!["um".into()])
            .unwrap();
    }
    runner.fail(FailureMode::InvalidAction, vec!["no idea".into(); 3]);
    let record = runner.finish("model");
    let file = EpisodeFile::from_record(TaskRef::Inline(Box::new(t)), record, None);
    let back = EpisodeFile::from_link_fragment(&file.to_link_fragment().unwrap()).unwrap();
    assert_eq!(back.record.decisions[1].raw.as_deref(), Some("[Action: x]"));
    assert_eq!(back.record.rejected.len(), 3);
    let (passed, score) = (back.record.passed, back.record.score);
    assert_eq!(
        verify(&back).unwrap(),
        Verification::Verified { passed, score }
    );
    // An inline task must itself be valid.
    let mut bad = back.clone();
    if let TaskRef::Inline(t) = &mut bad.task {
        t.max_steps = 0;
    }
    let e = verify(&bad).unwrap_err();
    assert!(
        matches!(&e, ShareError::Field(f) if f.field == "task.max_steps"),
        "{e}"
    );
}

#[test]
fn tampered_claims_diverge_at_the_end() {
    let mut f = honest();
    f.record.score = 99.0;
    let d = divergence(&f);
    assert_eq!((d.step, d.field.as_str()), (DivergenceStep::Final, "score"));
    assert_eq!(
        d.to_string(),
        "diverged at the end: score expected 99.0, got 100.0"
    );
    let mut f = honest();
    f.record.passed = false;
    assert_eq!(divergence(&f).field, "passed");
    let mut f = honest();
    f.record.failure = Some(FailureMode::Timeout);
    assert_eq!(divergence(&f).field, "failure");
    let mut f = honest();
    f.record.seed = 5;
    assert_eq!(divergence(&f).step, DivergenceStep::Start);
}

#[test]
fn tampered_actions_diverge_at_their_step() {
    // The oracle goes Down Down Right Right Down Right; step 3 becomes Up.
    let mut f = honest();
    assert_eq!(f.record.decisions[2].action, "Right");
    f.record.decisions[2].action = "Up".into();
    let d = divergence(&f);
    assert_eq!(d.step, DivergenceStep::Decision(3), "{d}");
    assert!(d.to_string().starts_with("diverged at step 3: frame_hash"));
    let mut f = honest();
    f.record.decisions[1].action = "Jump".into();
    let d = divergence(&f);
    assert_eq!(
        (d.step, d.field.as_str()),
        (DivergenceStep::Decision(2), "action")
    );
    let mut f = honest();
    f.record.decisions[3].frame_hash = "0".repeat(16);
    assert_eq!(divergence(&f).field, "frame_hash");
    // Extra decisions after the end.
    let mut f = honest();
    let last = f.record.decisions[5].clone();
    f.record.decisions.push(last);
    assert_eq!(divergence(&f).step, DivergenceStep::Decision(7));
    // A tampered link carries its tampering through a valid checksum.
    let mut f = honest();
    f.record.decisions[0].reward = 1.0;
    let back = EpisodeFile::from_link_fragment(&f.to_link_fragment().unwrap()).unwrap();
    assert_eq!(divergence(&back).field, "reward");
}

#[test]
fn damaged_links_are_refused_clearly() {
    let file = honest();
    let link = file.to_link_fragment().unwrap();
    assert!(link.starts_with("e=pb1."));
    let url = format!("http://127.0.0.1:8080/episode#{link}");
    assert_eq!(EpisodeFile::from_link_fragment(&url).unwrap(), file);
    let bare = link.trim_start_matches("e=");
    assert_eq!(EpisodeFile::from_link_fragment(bare).unwrap(), file);

    // Cut off at a whole number of bytes, so only the deflate stream notices.
    let start = "e=pb1.".len();
    let cut = &link[..start + ((link.len() - start) / 4 - 1) * 4];
    assert_eq!(
        EpisodeFile::from_link_fragment(cut),
        Err(ShareError::Link(P::Truncated))
    );
    for n in start..link.len() {
        let e = EpisodeFile::from_link_fragment(&link[..n]).unwrap_err();
        assert_eq!(e, ShareError::Link(P::Truncated), "cut at {n}");
    }
    for n in 0..start {
        assert!(EpisodeFile::from_link_fragment(&link[..n]).is_err());
    }

    // Any one character changed: refused, or (unused bits) the same episode.
    let mut refused = 0;
    for i in start..link.len() {
        let mut bytes = link.clone().into_bytes();
        bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
        let flipped = String::from_utf8(bytes).unwrap();
        match EpisodeFile::from_link_fragment(&flipped) {
            Ok(f) => assert_eq!(f, file, "position {i}"),
            Err(e) => {
                refused += 1;
                assert!(!e.to_string().is_empty());
            }
        }
    }
    assert!(refused > (link.len() - start) * 9 / 10);
    let mut bytes = link.clone().into_bytes();
    bytes[start + 2] = if bytes[start + 2] == b'A' { b'B' } else { b'A' };
    assert!(matches!(
        EpisodeFile::from_link_fragment(&String::from_utf8(bytes).unwrap()),
        Err(ShareError::Link(P::Checksum { .. }))
    ));

    type Check = fn(&ShareError) -> bool;
    let cases: [(&str, Check); 6] = [
        ("", |e| *e == ShareError::Link(P::NotALink)),
        ("hello world", |e| *e == ShareError::Link(P::NotALink)),
        (
            "https://x.org/#e=pb7.AAAA",
            |e| matches!(e, ShareError::Link(P::LinkVersion(v)) if v == "pb7."),
        ),
        ("e=pb1.abc$def", |e| *e == ShareError::Link(P::Base64(3))),
        ("e=pb1.", |e| *e == ShareError::Link(P::Truncated)),
        ("e=pb1.AAAAAP__", |e| {
            matches!(e, ShareError::Link(P::Corrupt(_)))
        }),
    ];
    for (input, ok) in cases {
        let e = EpisodeFile::from_link_fragment(input).unwrap_err();
        assert!(ok(&e), "{input:?}: {e:?}");
    }
}

#[test]
fn bad_files_name_the_field() {
    let good: Value = serde_json::from_str(&honest().to_json()).unwrap();
    let with = |path: &[&str], v: Value| {
        let mut j = good.clone();
        let mut at = &mut j;
        for p in &path[..path.len() - 1] {
            at = &mut at[*p];
        }
        at[path[path.len() - 1]] = v;
        j.to_string()
    };
    let cases = [
        (with(&["format"], json!("other/2")), "format"),
        (with(&["record", "score"], json!("high")), "record.score"),
        (
            with(&["record", "decisions"], json!([{"action": 3}])),
            "record.decisions[0].action",
        ),
        (with(&["task", "suite_version"], json!("one")), "task"),
        (with(&["surprise"], json!(1)), "surprise"),
    ];
    for (text, field) in cases {
        match EpisodeFile::from_json(&text) {
            Err(ShareError::Field(e)) => assert!(e.field.starts_with(field), "{field}: {e}"),
            other => panic!("{field}: {other:?}"),
        }
    }
    for junk in ["", "{", "[1,2]", "null", "\u{0}\u{1}"] {
        assert!(EpisodeFile::from_json(junk).is_err());
    }
    let mut f = honest();
    f.task = TaskRef::Suite(SuiteTask {
        suite: crate::suites::DEFAULT_SUITE.into(),
        suite_version: 999,
        task: "frozenlake-4x4-det-s0".into(),
    });
    assert!(matches!(
        verify(&f),
        Err(ShareError::Suite(crate::suites::SuiteError::Version { .. }))
    ));
    f.task = TaskRef::in_suite(
        crate::suites::latest(crate::suites::DEFAULT_SUITE).unwrap(),
        "nope",
    );
    assert!(matches!(verify(&f), Err(ShareError::UnknownTask { .. })));
}

#[test]
fn secrets_never_reach_a_file_or_link() {
    let settings = json!({
        "model": "gpt-x", "api_key": "sk-SECRET", "temperature": 0.0,
        "headers": {"Authorization": "Bearer sk-SECRET", "Accept": "json"},
        "endpoints": [{"url": "http://h", "OPENAI_API_KEY": "sk-SECRET", "Session-Token": "sk-SECRET"}],
        "client_secret": "sk-SECRET"
    });
    let record = honest().record;
    let file = EpisodeFile::from_record(
        TaskRef::in_suite(
            crate::suites::latest(crate::suites::DEFAULT_SUITE).unwrap(),
            "frozenlake-4x4-det-s0",
        ),
        record,
        settings.as_object().cloned(),
    );
    let kept = Value::Object(file.settings.clone().unwrap());
    assert_eq!(
        kept,
        json!({"model": "gpt-x", "temperature": 0.0, "headers": {"Accept": "json"},
               "endpoints": [{"url": "http://h"}]})
    );
    let link = file.to_link_fragment().unwrap();
    let back = EpisodeFile::from_link_fragment(&link).unwrap();
    assert!(!back.to_json().contains("SECRET") && !file.to_json().contains("SECRET"));
    // Secrets put in after the fact are still stripped on the way out.
    let mut f = file.clone();
    f.settings = settings.as_object().cloned();
    assert!(!f.to_json().contains("SECRET"));
    let back = EpisodeFile::from_link_fragment(&f.to_link_fragment().unwrap()).unwrap();
    assert!(!back.to_json().contains("SECRET"));
}

#[test]
fn long_episodes_are_too_large_for_a_link() {
    let mut f = honest();
    let mut x = 12345u64;
    let noise: String = (0..30_000)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            char::from(b'a' + (x >> 59) as u8)
        })
        .collect();
    f.record.decisions[0].raw = Some(noise);
    assert!(matches!(
        f.to_link_fragment(),
        Err(ShareError::TooLargeForLink { .. })
    ));
}

#[test]
fn token_budgets_are_kept_but_tokens_are_not() {
    let mut settings = serde_json::json!({"max_tokens": 512, "max_output_tokens": 64, "session_token": "x", "api_key": "y"});
    strip_secrets(&mut settings);
    assert_eq!(
        settings,
        serde_json::json!({"max_tokens": 512, "max_output_tokens": 64})
    );
}
