//! `playbench run --agent endpoint` against the scripted server of
//! tests/servers/scripted-openai.mjs (skipped with a note when `node` is missing).

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const KEY: &str = "sk-test-VERY-secret-4417";

struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn server() -> Option<Server> {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/servers/scripted-openai.mjs"
    );
    let mut child = match Command::new("node")
        .arg(script)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("note: skipping the endpoint test, `node` is not available: {e}");
            return None;
        }
    };
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line.trim().strip_prefix("PORT ").unwrap().parse().unwrap();
    Some(Server { child, port })
}

struct Run {
    code: i32,
    out: String,
    err: String,
    record: Value,
    took: Duration,
}

fn run(s: &Server, provider: &str, model: &str, extra: &[&str]) -> Run {
    let base = match provider {
        "gemini" => format!("http://127.0.0.1:{}/v1beta", s.port),
        _ => format!("http://127.0.0.1:{}/v1", s.port),
    };
    let t0 = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_playbench"))
        .args([
            "run",
            "--task",
            "frozenlake-4x4-det-s0",
            "--agent",
            "endpoint",
            "--provider",
            provider,
            "--base-url",
            &base,
            "--model",
            model,
            "--api-key-env",
            "PLAYBENCH_TEST_KEY",
        ])
        .args(extra)
        .env("PLAYBENCH_TEST_KEY", KEY)
        .output()
        .unwrap();
    let took = t0.elapsed();
    let out_s = String::from_utf8_lossy(&out.stdout).into_owned();
    let err_s = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !out_s.contains(KEY) && !err_s.contains(KEY),
        "the key leaked:\n{out_s}\n{err_s}"
    );
    let v: Value = serde_json::from_str(&out_s).unwrap_or(Value::Null);
    // `run` prints an episode file (the record under "record") or a bare record.
    let record = v.get("record").cloned().unwrap_or(v);
    Run {
        code: out.status.code().unwrap_or(-1),
        out: out_s,
        err: err_s,
        record,
        took,
    }
}

fn decisions(r: &Run) -> Vec<Value> {
    r.record["decisions"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn server_log(s: &Server) -> Vec<Value> {
    let resp = playbench_cli::endpoint::http_post(
        &format!("http://127.0.0.1:{}/log", s.port),
        &[],
        "{}",
        Duration::from_secs(5),
    )
    .unwrap();
    serde_json::from_slice(&resp.body).unwrap()
}

#[test]
fn valid_replies_play_the_episode_for_every_provider() {
    let Some(s) = server() else { return };
    for provider in ["openai", "anthropic", "gemini"] {
        let r = run(&s, provider, "valid:Down", &[]);
        assert_eq!(r.code, 0, "{provider}: {}", r.err);
        // Down, Down, Down falls into the hole at row 3.
        let d = decisions(&r);
        assert_eq!(d.len(), 3, "{provider}: {}", r.out);
        assert!(d.iter().all(|d| d["action"] == "Down"));
        assert_eq!(d[0]["raw"], "[Action: Down]\nscripted reply 1");
        assert_eq!(r.record["failure"], "early_termination");
        assert_eq!(
            r.record["agent"],
            format!("endpoint:{provider}:valid:Down").as_str()
        );
    }
    let log = server_log(&s);
    assert_eq!(log.len(), 9);
    for (i, entry) in log.iter().enumerate() {
        assert_eq!(entry["auth"], true, "{entry}");
        // The first turn holds the demo frames and the initial state; later requests
        // carry the whole history (full window).
        assert_eq!(entry["messages"], 1 + 2 * (i % 3) as u64, "{entry}");
        assert!(entry["images"].as_u64().unwrap() >= 2, "{entry}");
        assert_eq!(entry["mimes"], serde_json::json!(["image/png"]), "{entry}");
    }
}

#[test]
fn frames_go_as_jpeg_at_the_quality_and_scale_asked_for() {
    let Some(s) = server() else { return };
    let r = run(
        &s,
        "openai",
        "valid:Down",
        &[
            "--image-format",
            "jpeg",
            "--jpeg-quality",
            "0.5",
            "--image-scale",
            "2",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(decisions(&r).len(), 3, "{}", r.out);
    let file: Value = serde_json::from_str(&r.out).unwrap();
    let settings = &file["settings"];
    assert_eq!(settings["image_format"], "image/jpeg", "{settings}");
    assert_eq!(settings["image_quality"], 0.5);
    assert_eq!(settings["image_scale"], 2.0);
    let jpeg_log = server_log(&s);
    assert_eq!(jpeg_log.len(), 3);
    for entry in &jpeg_log {
        assert_eq!(entry["mimes"], serde_json::json!(["image/jpeg"]), "{entry}");
    }
    // The same episode with PNG frames at scale 1 sends other bytes.
    let png = run(&s, "openai", "valid:Down", &[]);
    assert_eq!(png.code, 0, "{}", png.err);
    let log = server_log(&s);
    assert_eq!(log[3]["mimes"], serde_json::json!(["image/png"]));
    assert_ne!(log[3]["bytes"], jpeg_log[0]["bytes"]);
}

#[test]
fn demonstrations_go_to_gemini_as_the_encoders_webm() {
    let Some(s) = server() else { return };
    let r = run(
        &s,
        "gemini",
        "valid:Down",
        &["--demos-as-video", "--video-fps", "2"],
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(decisions(&r).len(), 3, "{}", r.out);
    let file: Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(file["settings"]["demos"], "video (webm, 2 fps)");
    // Each clip is the bytes bench::video makes of its captioned frames at 2 fps.
    let suite = bench::suites::latest(bench::suites::DEFAULT_SUITE).unwrap();
    let task = suite.task("frozenlake-4x4-det-s0").unwrap();
    let endpoint = bench::protocol::endpoint::Endpoint {
        provider: bench::protocol::providers::Provider::Gemini,
        base_url: String::new(),
        sampling: bench::protocol::providers::Sampling {
            model: "m".into(),
            temperature: None,
            max_output_tokens: None,
        },
        headers: vec![],
    };
    let mut episode = bench::model_episode::ModelEpisode::new(
        task,
        endpoint,
        bench::protocol::session::SessionConfig::default(),
        Default::default(),
    )
    .unwrap();
    let expected: Vec<String> = episode
        .demos()
        .unwrap()
        .iter()
        .map(|clip| {
            bench::video::webm_video(clip, 2.0)
                .unwrap()
                .base64()
                .to_string()
        })
        .collect();
    let log = server_log(&s);
    assert_eq!(log.len(), 3);
    for entry in &log {
        assert_eq!(
            entry["mimes"],
            serde_json::json!(["video/webm", "image/png"]),
            "{entry}"
        );
        assert_eq!(entry["videos"], serde_json::json!(expected));
    }
    // Endpoints without video and other harnesses are told so.
    let r = run(&s, "openai", "valid:Down", &["--demos-as-video"]);
    assert_ne!(r.code, 0);
    assert!(r.err.contains("openai takes no video"), "{}", r.err);
}

#[test]
fn malformed_replies_are_retried_and_kept() {
    let Some(s) = server() else { return };
    let r = run(&s, "openai", "malformed-then-valid", &[]);
    assert_eq!(r.code, 0, "{}", r.err);
    let d = decisions(&r);
    assert_eq!(
        d[0]["rejected"],
        serde_json::json!(["I think I should go down."])
    );
    assert_eq!(d[0]["action"], "Down");
    let r = run(&s, "anthropic", "garbage", &[]);
    assert_eq!(r.record["failure"], "invalid_action");
    assert_eq!(r.record["rejected"].as_array().unwrap().len(), 4);
    assert!(decisions(&r).is_empty());
    // The retry carried the rejected reply and the retry message.
    let log = server_log(&s);
    let garbage: Vec<_> = log.iter().filter(|e| e["script"] == "garbage").collect();
    assert_eq!(
        garbage
            .iter()
            .map(|e| e["messages"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        vec![1, 3, 5, 7]
    );
}

#[test]
fn rate_limits_and_server_errors_are_retried_with_backoff() {
    let Some(s) = server() else { return };
    let r = run(&s, "gemini", "429:Down", &[]);
    assert_eq!((r.code, decisions(&r).len()), (0, 3), "{}", r.err);
    assert!(
        r.took >= Duration::from_millis(1_000),
        "Retry-After: 1 honoured"
    );
    assert!(
        r.err.contains("rate limited") && r.err.contains("retry 1 of 3"),
        "{}",
        r.err
    );
    let r = run(&s, "openai", "500:Down", &[]);
    assert_eq!((r.code, decisions(&r).len()), (0, 3), "{}", r.err);
    assert!(r.took >= Duration::from_millis(3_000), "1 s then 2 s");
    assert_eq!(r.record["failure"], "early_termination");
}

#[test]
fn overflow_is_token_overflow_and_fatal_errors_are_api_errors() {
    let Some(s) = server() else { return };
    for provider in ["openai", "anthropic", "gemini"] {
        let r = run(&s, provider, "overflow", &[]);
        assert_eq!(r.code, 0, "{}", r.err);
        assert_eq!(r.record["failure"], "token_overflow", "{provider}");
        assert!(decisions(&r).is_empty());
    }
    // The server echoes the key in its error: it is redacted on stderr.
    let r = run(&s, "openai", "401", &[]);
    assert_eq!(r.record["failure"], "api_error");
    assert_eq!(r.code, 3, "an endpoint failure: {}", r.err);
    assert!(
        r.err.contains("authentication failed") && r.err.contains("***"),
        "{}",
        r.err
    );
    let r = run(&s, "openai", "no-such-model", &[]);
    assert_eq!(r.record["failure"], "api_error");
    assert!(r.err.contains("unknown model"), "{}", r.err);
}

#[test]
fn a_hanging_endpoint_times_out_into_api_error() {
    let Some(s) = server() else { return };
    let r = run(&s, "openai", "hang", &["--timeout", "1"]);
    assert_eq!(r.record["failure"], "api_error", "{}", r.err);
    assert_eq!(r.code, 3);
    // Four attempts of 1 s and backoffs of 1, 2 and 4 s.
    assert!(r.took >= Duration::from_secs(11), "{:?}", r.took);
    assert!(r.err.contains("no answer"), "{}", r.err);
}

#[test]
fn broken_answers_are_retried_then_named() {
    let Some(s) = server() else { return };
    let cases = [
        ("drop", "the connection broke off"),
        ("truncated", "broke off after 40 bytes"),
        ("huge:Down", "larger than 8 MB"),
    ];
    std::thread::scope(|scope| {
        for (model, said) in cases {
            let s = &s;
            scope.spawn(move || {
                let r = run(s, "openai", model, &[]);
                assert_eq!(r.record["failure"], "api_error", "{model}: {}", r.err);
                assert_eq!(r.code, 3, "{model}");
                // Tried four times (three transport retries), then the reason is given.
                assert!(r.err.contains("retry 3 of 3"), "{model}: {}", r.err);
                assert!(r.err.contains(said), "{model}: {}", r.err);
            });
        }
    });
}

#[test]
fn the_history_window_is_applied() {
    let Some(s) = server() else { return };
    let r = run(&s, "openai", "valid:Down", &["--history", "1"]);
    assert_eq!(decisions(&r).len(), 3, "{}", r.err);
    let counts: Vec<_> = server_log(&s)
        .iter()
        .map(|e| e["messages"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, vec![1, 3, 3]);
}

#[test]
fn suite_runs_go_in_parallel_and_print_a_results_file() {
    let Some(s) = server() else { return };
    let base = format!("http://127.0.0.1:{}/v1", s.port);
    let suite_run = |concurrency: &str| {
        let t0 = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_playbench"))
            .args([
                "run",
                "--suite",
                "--filter",
                "frozenlake-4x4-det",
                "--agent",
                "endpoint",
                "--provider",
                "openai",
                "--base-url",
                &base,
                "--model",
                "delay:150:Down",
                "--concurrency",
                concurrency,
                "--json",
                "--price-in",
                "1",
                "--price-out",
                "2",
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let file: Value = serde_json::from_slice(&out.stdout).unwrap();
        (file, t0.elapsed())
    };
    let (one, t1) = suite_run("1");
    let (four, t4) = suite_run("4");
    assert_eq!(one["format"], "playbench-results/1");
    let eps = one["episodes"].as_array().unwrap();
    assert!(eps.len() >= 2, "{eps:?}");
    // Same episodes in the same order whatever the concurrency.
    assert_eq!(
        one["episodes"].as_array().unwrap().len(),
        four["episodes"].as_array().unwrap().len()
    );
    for (a, b) in eps.iter().zip(four["episodes"].as_array().unwrap()) {
        assert_eq!(a["record"]["task"], b["record"]["task"]);
        assert_eq!(
            a["record"]["decisions"].as_array().unwrap().len(),
            b["record"]["decisions"].as_array().unwrap().len()
        );
    }
    let usage = &one["usage"];
    assert!(usage["requests"].as_u64().unwrap() >= eps.len() as u64);
    assert!(usage["input_tokens"].as_u64().unwrap() > 0);
    assert!(usage["cost_usd"].as_f64().unwrap() > 0.0);
    assert_eq!(one["config"]["concurrency"], "1");
    // Parallel episodes overlap their waits (a loose bound: the machine is shared).
    assert!(t4 < t1, "concurrency 4 took {t4:?}, concurrency 1 {t1:?}");
}

#[test]
fn https_endpoints_are_spoken_with_certificates_checked() {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/servers/scripted-openai.mjs"
    );
    let Ok(mut child) = Command::new("node")
        .args([script, "0", "--tls"])
        .stdout(Stdio::piped())
        .spawn()
    else {
        eprintln!("note: skipping the TLS test, `node` is not available");
        return;
    };
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let tls_port = lines
        .by_ref()
        .map(|l| l.unwrap())
        .find_map(|l| l.strip_prefix("TLS_PORT ").map(str::to_string))
        .unwrap();
    // The test certificate is self-signed: the TLS handshake happens and is refused.
    let e = playbench_cli::endpoint::http_post(
        &format!("https://127.0.0.1:{tls_port}/v1/chat/completions"),
        &[],
        "{}",
        Duration::from_secs(5),
    )
    .err()
    .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(e.to_lowercase().contains("certificate"), "{e}");
}

/// `playbench ARGS` with the test key in the environment: exit code, stdout, stderr.
fn playbench(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_playbench"))
        .args(args)
        .env("PLAYBENCH_TEST_KEY", KEY)
        .output()
        .unwrap();
    let (o, e) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(!o.contains(KEY) && !e.contains(KEY), "the key leaked");
    (out.status.code().unwrap_or(-1), o, e)
}

#[test]
fn an_audit_of_a_results_file_with_good_and_malformed_auditor_replies() {
    let Some(s) = server() else { return };
    let dir = std::env::temp_dir().join(format!("playbench-audit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let results = dir.join("results.json");
    let audit = dir.join("audit.json");
    let base = format!("http://127.0.0.1:{}/v1", s.port);
    let endpoint = |model: &'static str| {
        [
            "--provider",
            "openai",
            "--base-url",
            base.as_str(),
            "--model",
            model,
            "--api-key-env",
            "PLAYBENCH_TEST_KEY",
        ]
    };
    let (code, _, err) = playbench(
        &[
            &[
                "run",
                "--suite",
                "--filter",
                "frozenlake-4x4-det-s0",
                "--agent",
                "endpoint",
            ][..],
            &endpoint("seq:Right,Right,Down,Down,Down,Right"),
            &["--json", "--out", results.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(code, 0, "{err}");

    // Good replies: every verdict, progress per episode, links to the step.
    let (code, out, err) = playbench(
        &[
            &["audit", results.to_str().unwrap()][..],
            &endpoint("audit"),
        ]
        .concat(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("playbench: audit 1/2 (frozenlake-4x4-det-s0): rules successful, strategy underfit; failure stage planning"),
        "{err}"
    );
    let file: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(file["format"], "playbench-audit/1");
    assert_eq!(file["auditor"], "endpoint:openai:audit");
    assert_eq!(file["references"].as_array().unwrap().len(), 2);
    let first = &file["episodes"][0];
    let link = first["failure_attribution"]["link"].as_str().unwrap();
    // TURN 2 is the request after the first decision.
    assert!(
        link.starts_with("/episode#e=pb1.") && link.ends_with("&t=1"),
        "{link}"
    );
    let log = server_log(&s);
    let audits: Vec<&Value> = log.iter().filter(|e| e["script"] == "audit").collect();
    // A reference per task, then two requests per episode.
    assert_eq!(audits.len(), 2 + 2 * 2);
    assert!(audits.iter().all(|e| e["images"].as_u64().unwrap() > 2));

    // Malformed replies: retried, then recorded as errors; exit 3; the file is written.
    let (code, _, err) = playbench(
        &[
            &["audit", results.to_str().unwrap()][..],
            &endpoint("audit:malformed"),
            &["--out", audit.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("no failure stage (3 replies broke the output contract; the last: the reply is not a JSON object ("), "{err}");
    assert!(
        err.contains("the audit is incomplete: 2 of 4 verdicts are missing"),
        "{err}"
    );
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&audit).unwrap()).unwrap();
    let transfer = &file["episodes"][0]["information_transfer"];
    assert_eq!(
        transfer["problems"][0],
        "strategy_transfer.label: \"overfitted\" is not one of correct, underfit, overfit"
    );
    assert_eq!(
        transfer["verdict"]["strategy_transfer"]["label"],
        "underfit"
    );

    // The report over the audit file; a bad file is named.
    let (code, out, err) = playbench(&["audit", "--report", audit.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("endpoint:openai:seq:Right,Right,Down,Down,Down,Right\n"),
        "{out}"
    );
    assert!(
        out.contains("Overall (environments weighted equally)"),
        "{out}"
    );
    assert!(out.contains("  memory: single"), "{out}");
    let (code, _, err) = playbench(&["audit", "--report", "Cargo.toml"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("Cargo.toml: not JSON"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_judging_of_oracle_and_random_episodes_against_the_exact_milestones() {
    let Some(s) = server() else { return };
    let dir = std::env::temp_dir().join(format!("playbench-judge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let base = format!("http://127.0.0.1:{}/v1", s.port);
    let judge = |inputs: &[&str], model: &str, extra: &[&str]| {
        playbench(
            &[
                &["judge"][..],
                inputs,
                &[
                    "--provider",
                    "openai",
                    "--base-url",
                    &base,
                    "--model",
                    model,
                    "--api-key-env",
                    "PLAYBENCH_TEST_KEY",
                ],
                extra,
            ]
            .concat(),
        )
    };
    let baseline = |filter: &str, agent: &str, out: &str| {
        let (code, _, err) = playbench(&[
            "run",
            "--suite",
            "--suite-id",
            "gameverse",
            "--filter",
            filter,
            "--agent",
            agent,
            "--seed",
            "1",
            "--json",
            "--out",
            out,
        ]);
        assert_eq!(code, 0, "{err}");
    };
    let (oracle, random) = (path("oracle.json"), path("random.json"));
    baseline("maze-s", "oracle", &oracle);
    baseline("tic-tac-toe", "random", &random);

    // The oracle's ten semantic mazes: the scripted judge completes the even milestones,
    // the replay all five; its repeated and out-of-range entries are ignored.
    let (code, out, err) = judge(&[&oracle], "judge", &["--out", &path("j-oracle.json")]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("playbench: judge 1/10 (maze-s1): judge 3/5 completed, exact 5/5 (6 of 6 frames); 0 false, 2 missed"),
        "{err}"
    );
    let file: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(file["format"], "playbench-judge/1");
    assert_eq!(file["judge"], "endpoint:openai:judge");
    assert_eq!(file["report"]["overall"]["milestones"], 50);
    assert_eq!(file["report"]["overall"]["missed_completions"], 20);
    let first = &file["episodes"][0];
    assert_eq!(first["ignored"].as_array().unwrap().len(), 2);
    assert_eq!(first["milestones"][4]["exact_step"], 6);
    let link = file["report"]["disagreements"][0]["link"].as_str().unwrap();
    assert!(
        link.starts_with("/episode#e=pb1.") && link.ends_with("&t=1"),
        "{link}"
    );
    let log = server_log(&s);
    let requests: Vec<&Value> = log.iter().filter(|e| e["script"] == "judge").collect();
    assert_eq!(requests.len(), 10);
    assert_eq!(requests[0]["images"], 6);

    // Random Tic-Tac-Toe: each first reply is unparsable and asked again.
    let (code, out, err) = judge(
        &[&random],
        "judge:retry",
        &["--out", &path("j-random.json")],
    );
    assert_eq!(code, 0, "{err}");
    let file: Value = serde_json::from_str(&out).unwrap();
    for e in file["episodes"].as_array().unwrap() {
        assert_eq!(e["replies"].as_array().unwrap().len(), 2, "{e}");
        assert!(e["problems"][0]
            .as_str()
            .unwrap()
            .starts_with("the reply holds no JSON object"));
    }

    // A share link whose every reply is unparsable: flagged, scored 0, exit 3.
    let (code, link, err) = playbench(&[
        "run",
        "--task",
        "maze-s2",
        "--suite-id",
        "gameverse",
        "--agent",
        "random",
        "--link",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = judge(&[link.trim()], "judge:garbage", &["--max-images", "2"]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("(maze-s2): flagged, scored 0 (2 unparsable replies"),
        "{err}"
    );
    assert!(
        err.contains("the judging is incomplete: 1 of 1 episodes"),
        "{err}"
    );
    let file: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(file["episodes"][0]["frames_sent"], 2);
    assert_eq!(file["report"]["judge_score"], 0.0);

    // The agreement table over both judge files; a bad input is named.
    let (code, out, err) = playbench(&[
        "judge",
        "--report",
        &path("j-oracle.json"),
        &path("j-random.json"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("endpoint:openai:judge\n  episodes 10 (judged 10"),
        "{out}"
    );
    assert!(out.contains("  GameVerse/Maze "), "{out}");
    assert!(out.contains("  GameVerse/TicTacToe "), "{out}");
    let (code, _, err) = playbench(&["judge", "--report", "Cargo.toml"]);
    assert_eq!(code, 2, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Reflect and retry against scripted replies: three failed attempts at a maze, both
/// reflection requests after each of the first two, the experience in the next
/// attempt, progress on stderr, and a file whose attempts verify.
#[test]
fn reflect_and_retry_runs_three_attempts_and_verifies() {
    let Some(s) = server() else { return };
    let dir = std::env::temp_dir().join(format!("playbench-reflect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let play: Vec<Value> = vec![Value::from("### Reasoning\nUp.\n### Actions\nup"); 20];
    let script: Vec<Value> = [
        &play[..],
        &[
            "- I pressed up into the wall.".into(),
            "Go down, then right.".into(),
        ],
        &play[..],
        &["- The wall again.".into(), "Go down first.".into()],
        &play[..],
    ]
    .concat();
    let script_path = dir.join("script.json");
    std::fs::write(&script_path, Value::from(script).to_string()).unwrap();
    let out_path = dir.join("run.json");
    let model = format!("file:{}", script_path.display());
    let base = format!("http://127.0.0.1:{}/v1", s.port);
    let (code, out, err) = playbench(&[
        "reflect",
        "--task",
        "maze-s1",
        "--provider",
        "openai",
        "--base-url",
        &base,
        "--model",
        &model,
        "--api-key-env",
        "PLAYBENCH_TEST_KEY",
        "--out",
        out_path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(
            "playbench: reflect: attempt 1 scored 0.0; reflecting on attempt 1 (failure analysis)"
        ),
        "{err}"
    );
    let run: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(run["format"], "playbench-attempts/1");
    assert_eq!(run["condition"], "both");
    let attempts = run["attempts"].as_array().unwrap();
    assert_eq!(attempts.len(), 3);
    assert_eq!(attempts[1]["carried_in"], "Go down, then right.");
    assert_eq!(attempts[2]["carried_in"], "Go down first.");
    let first = attempts[0]["reflection"].as_array().unwrap();
    assert_eq!(first[0]["stage"], "failure_analysis");
    assert_eq!(first[0]["frames"].as_array().unwrap().len(), 20);
    assert_eq!(first[1]["stage"], "experience");
    assert!(first[1]["prompt"].as_str().unwrap().contains(
        "### Previously analyzed failure scenarios and reasons:\n- I pressed up into the wall.\n"
    ));

    // Both reflections reached the endpoint with their frames.
    let log = server_log(&s);
    let reflections: Vec<&Value> = log
        .iter()
        .filter(|e| {
            e["body"]["messages"][0]["content"]
                .as_str()
                .is_some_and(|t| t.starts_with("You are a game strategy analysis expert"))
        })
        .collect();
    assert_eq!(reflections.len(), 4);
    assert_eq!(reflections[0]["images"], 20);

    // The file and its link verify; an edited carry does not.
    let (code, out, err) = playbench(&["verify", out_path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("verified: 3 attempts"), "{out}");
    let mut edited = run.clone();
    edited["attempts"][2]["carried_in"] = "Go up.".into();
    let edited_path = dir.join("edited.json");
    std::fs::write(&edited_path, edited.to_string()).unwrap();
    let (code, out, err) = playbench(&["verify", edited_path.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("attempt 3") && out.contains("carried_in"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// GameVerse's memory agent against scripted replies: two requests per step after the
/// first (the history review, then the action), the record naming the agent, and a file
/// that verifies.
#[test]
fn the_gameverse_memory_agent_runs_two_requests_per_step_and_verifies() {
    let Some(s) = server() else { return };
    let dir = std::env::temp_dir().join(format!("playbench-gv-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let review =
        "### History_summary\nThe ball went down.\n### Reasoning\nKeep left.\n### Plan\nLeft.";
    let action = "### Reasoning\nLeft.\n### Actions\nleft\n### New_memory\nThe wall is on the left.\n### Should_save\nYes";
    // 20 decisions: the first without a review.
    let mut script = vec![Value::from(action)];
    for _ in 1..20 {
        script.push(review.into());
        script.push(action.into());
    }
    let script_path = dir.join("script.json");
    std::fs::write(&script_path, Value::from(script).to_string()).unwrap();
    let out_path = dir.join("run.json");
    let model = format!("file:{}", script_path.display());
    let base = format!("http://127.0.0.1:{}/v1", s.port);
    let run = |agent: &str| {
        playbench(&[
            "run",
            "--task",
            "maze-s1",
            "--suite-id",
            "gameverse",
            "--protocol",
            "gameverse",
            "--gameverse-agent",
            agent,
            "--agent",
            "endpoint",
            "--provider",
            "openai",
            "--base-url",
            &base,
            "--model",
            &model,
            "--api-key-env",
            "PLAYBENCH_TEST_KEY",
        ])
    };
    let (code, out, err) = run("memory");
    assert_eq!(code, 0, "{err}");
    std::fs::write(&out_path, &out).unwrap();
    let log = server_log(&s);
    let systems: Vec<&str> = log
        .iter()
        .filter_map(|e| e["body"]["messages"][0]["content"].as_str())
        .collect();
    assert_eq!(systems.len(), 39, "{err}");
    let reviews = systems
        .iter()
        .filter(|t| t.contains("review recent game history"))
        .count();
    assert_eq!(reviews, 19);
    // The saved memory is retrieved in the next action request... only when the query
    // repeats its words; here it does not, so every retrieval renders `None`.
    let last_user = &log.last().unwrap()["body"]["messages"][1]["content"];
    assert!(
        last_user[0]["text"]
            .as_str()
            .unwrap()
            .contains("### Retrieved Long-term Memory\nNone\n"),
        "{last_user}"
    );
    assert!(out.contains("\"gameverse_agent\""), "{out}");
    assert!(out.contains("memory"), "{out}");
    let (code, vout, verr) = playbench(&["verify", out_path.to_str().unwrap()]);
    assert_eq!(code, 0, "{verr}");
    assert!(vout.starts_with("verified"), "{vout}");
    // Tic-Tac-Toe has no memory-agent templates: a clear error, no request.
    let (code, _, err) = playbench(&[
        "run",
        "--task",
        "tic-tac-toe-x",
        "--suite-id",
        "gameverse",
        "--protocol",
        "gameverse",
        "--gameverse-agent",
        "memory",
        "--agent",
        "endpoint",
        "--provider",
        "openai",
        "--base-url",
        &base,
        "--model",
        &model,
        "--api-key-env",
        "PLAYBENCH_TEST_KEY",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("has no memory-agent templates"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
