//! `playbench run --protocol visgym` against the scripted server of
//! tests/servers/scripted-openai.mjs replays the reference harness's conversation on
//! Maze 2D seed 0 turn by turn (tests/golden/visgym/conversation.json.gz, full history
//! with feedback, a server error, an empty reply and a context overflow): every text and
//! role as the reference sent it, each frame as a JPEG of the reference's size, the same
//! frame as the same image. Skipped with a note when `node` is missing.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use playbench_tests::visgym::{decompress, CONVERSATION_GOLDEN};
use serde_json::Value;

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
            eprintln!("note: skipping the VisGym protocol test, `node` is not available: {e}");
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

/// Width and height of a baseline or progressive JPEG (its first SOF segment).
fn jpeg_size(bytes: &[u8]) -> Option<(u32, u32)> {
    let mut i = 2;
    while i + 9 < bytes.len() {
        if bytes[i] != 0xFF {
            return None;
        }
        let marker = bytes[i + 1];
        let len = usize::from(bytes[i + 2]) << 8 | usize::from(bytes[i + 3]);
        if (0xC0..=0xC2).contains(&marker) {
            let h = u32::from(bytes[i + 5]) << 8 | u32::from(bytes[i + 6]);
            let w = u32::from(bytes[i + 7]) << 8 | u32::from(bytes[i + 8]);
            return Some((w, h));
        }
        i += 2 + len;
    }
    None
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let clean: Vec<u8> = text.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::new();
    for chunk in clean.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &c)| n | u32::from(value(c)) << (18 - 6 * i));
        for k in 0..chunk.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * k)) as u8);
        }
    }
    out
}

#[test]
fn a_maze_run_matches_the_reference_conversation_turn_by_turn() {
    let Some(s) = server() else {
        return;
    };
    let golden: Value = serde_json::from_str(&decompress(CONVERSATION_GOLDEN).unwrap()).unwrap();
    let run = golden["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "full_feedback")
        .unwrap();
    let dir = std::env::temp_dir().join(format!("playbench-visgym-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("script.json");
    std::fs::write(&script, run["script"].to_string()).unwrap();
    let model = format!("file:{}", script.display());
    let out = Command::new(env!("CARGO_BIN_EXE_playbench"))
        .args([
            "run",
            "--suite-id",
            "visgym",
            "--task",
            "maze-2d-easy-s0",
            "--agent",
            "endpoint",
            "--provider",
            "openai",
            "--base-url",
            &format!("http://127.0.0.1:{}/v1", s.port),
            "--model",
            &model,
            "--protocol",
            "visgym",
            "--feedback",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The episode file verifies: the action strings replay the same episode.
    let episode = dir.join("episode.json");
    std::fs::write(&episode, stdout.as_bytes()).unwrap();
    let verify = Command::new(env!("CARGO_BIN_EXE_playbench"))
        .args(["verify", episode.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&verify.stdout).starts_with("verified"),
        "{}{}",
        String::from_utf8_lossy(&verify.stdout),
        String::from_utf8_lossy(&verify.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let file: Value = serde_json::from_str(&stdout).unwrap();
    let record = &file["record"];
    let actions: Vec<&Value> = record["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| &d["action"])
        .collect();
    let want: Vec<&Value> = run["actions"].as_array().unwrap().iter().collect();
    assert_eq!(actions, want);
    assert_eq!(record["passed"], true);
    assert_eq!(
        file["settings"]["protocol"], "visgym",
        "{}",
        file["settings"]
    );

    let log = playbench_cli::endpoint::http_post(
        &format!("http://127.0.0.1:{}/log", s.port),
        &[],
        "{}",
        Duration::from_secs(5),
    )
    .unwrap();
    let log: Vec<Value> = serde_json::from_slice(&log.body).unwrap();
    let requests: Vec<&Value> = log.iter().filter(|e| e["script"] == model).collect();
    let want = run["requests"].as_array().unwrap();
    assert_eq!(requests.len(), want.len());
    // The same reference frame is the same JPEG, and different frames differ.
    let mut images: HashMap<String, String> = HashMap::new();
    for (n, (got, want)) in requests.iter().zip(want).enumerate() {
        let got = got["body"]["messages"].as_array().unwrap();
        let want = want.as_array().unwrap();
        assert_eq!(got.len(), want.len(), "request {n}");
        for (g, w) in got.iter().zip(want) {
            assert_eq!(g["role"], w["role"], "request {n}");
            match &w["content"] {
                Value::String(text) => assert_eq!(g["content"], *text, "request {n}"),
                parts => {
                    let g = g["content"].as_array().unwrap();
                    let w = parts.as_array().unwrap();
                    assert_eq!(g.len(), w.len(), "request {n}");
                    for (gp, wp) in g.iter().zip(w) {
                        if let Some(text) = wp.get("text") {
                            assert_eq!(gp["type"], "text");
                            assert_eq!(gp["text"], *text, "request {n}");
                            continue;
                        }
                        let url = gp["image_url"]["url"].as_str().unwrap();
                        let data = url.strip_prefix("data:image/jpeg;base64,").unwrap();
                        let size = jpeg_size(&base64_decode(data)).unwrap();
                        let image = &wp["image"];
                        assert_eq!(
                            serde_json::json!([size.0, size.1]),
                            image["size"],
                            "request {n}"
                        );
                        let sha = image["frame_sha256"].as_str().unwrap().to_string();
                        let seen = images.entry(sha.clone()).or_insert_with(|| data.into());
                        assert_eq!(seen, data, "request {n}: frame {sha} encoded twice apart");
                    }
                }
            }
        }
    }
    let distinct: std::collections::HashSet<&String> = images.values().collect();
    assert_eq!(distinct.len(), images.len(), "different frames, same image");
    assert!(images.len() > 5);
}
