//! The `envs-driver` binary, driven over a pipe the way a Python notebook would, replays
//! every golden trajectory of the reference.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use playbench_tests::atari::{
    check_atari_golden, golden_for, gunzip, AtariStepped, AtariStepper, Seen,
};
use playbench_tests::{check_golden_with, golden_files, Stepped, Stepper};
use serde_json::{json, Map, Value};

struct DriverProcess {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// The frame hash of the last reset or step reply.
    last_frame: Option<String>,
}

impl DriverProcess {
    fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_envs-driver"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start envs-driver");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Self {
            child,
            stdin,
            stdout,
            last_frame: None,
        }
    }

    fn ask(&mut self, request: &Value) -> Result<Value, String> {
        writeln!(self.stdin, "{request}").map_err(|e| e.to_string())?;
        let mut line = String::new();
        self.stdout
            .read_line(&mut line)
            .map_err(|e| e.to_string())?;
        let reply: Value = serde_json::from_str(&line).map_err(|e| format!("{e}: {line}"))?;
        match reply.get("error") {
            Some(e) => Err(format!("driver error: {e}")),
            None => Ok(reply),
        }
    }

    fn ask_raw(&mut self, line: &str) -> Value {
        writeln!(self.stdin, "{line}").unwrap();
        let mut reply = String::new();
        self.stdout.read_line(&mut reply).unwrap();
        serde_json::from_str(&reply).unwrap()
    }
}

impl Drop for DriverProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Stepper for DriverProcess {
    fn make(&mut self, env: &str, kwargs: &Map<String, Value>) -> Result<(), String> {
        self.ask(&json!({"op": "make", "env": env, "kwargs": kwargs}))
            .map(|_| ())
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<Value, String> {
        Ok(self.ask(&json!({"op": "reset", "seed": seed}))?["state"].take())
    }

    fn step(&mut self, action: &Value) -> Result<Stepped, String> {
        let mut r = self.ask(&json!({"op": "step", "action": action}))?;
        Ok(Stepped {
            state: r["state"].take(),
            reward: r["reward"].as_f64().ok_or("no reward")?,
            terminated: r["terminated"].as_bool().ok_or("no terminated")?,
            truncated: r["truncated"].as_bool().ok_or("no truncated")?,
        })
    }
}

/// The driver playing `ALE/<Game>-v5` with ROMs from a folder (the `"roms"` kwarg).
struct AtariDriver {
    driver: DriverProcess,
    roms: String,
}

fn seen(reply: &mut Value) -> Result<Seen, String> {
    let hex = reply["frame_sha256"].as_str().ok_or("no frame_sha256")?;
    let mut screen_sha256 = [0u8; 32];
    for (i, byte) in screen_sha256.iter_mut().enumerate() {
        *byte = hex
            .get(2 * i..2 * i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .ok_or("frame_sha256 is not 64 hex digits")?;
    }
    Ok(Seen {
        state: reply["state"].take(),
        screen_sha256,
        obs: None,
    })
}

impl AtariStepper for AtariDriver {
    fn make(&mut self, env: &str, kwargs: &Map<String, Value>) -> Result<(), String> {
        let mut kwargs = kwargs.clone();
        kwargs.insert("roms".into(), self.roms.clone().into());
        let reply = self
            .driver
            .ask(&json!({"op": "make", "env": env, "kwargs": kwargs}))?;
        if reply["roms"].as_array().is_none_or(|r| r.is_empty()) {
            return Err(format!("the driver found no ROM in {}: {reply}", self.roms));
        }
        Ok(())
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<Seen, String> {
        seen(&mut self.driver.ask(&json!({"op": "reset", "seed": seed}))?)
    }

    fn step(&mut self, action: usize) -> Result<AtariStepped, String> {
        let mut r = self.driver.ask(&json!({"op": "step", "action": action}))?;
        Ok(AtariStepped {
            reward: r["reward"].as_f64().ok_or("no reward")?,
            terminated: r["terminated"].as_bool().ok_or("no terminated")?,
            truncated: r["truncated"].as_bool().ok_or("no truncated")?,
            seen: seen(&mut r)?,
        })
    }
}

/// The Atari goldens through the driver, the ROMs given as a folder (the ale-py wheel's,
/// extracted into `.cache/`; without them this test fails, it does not skip).
#[test]
fn driver_replays_the_atari_golden_files_with_a_rom_folder() {
    let dir = playbench_tests::atari::roms::rom_dir()
        .unwrap_or_else(|e| panic!("the Atari driver test needs the ALE ROMs: {e}"));
    let mut atari = AtariDriver {
        driver: DriverProcess::start(),
        roms: dir.to_string_lossy().into_owned(),
    };
    // Without the folder, a game whose ROM this process has not seen is refused clearly.
    let e = atari
        .driver
        .ask(&json!({"op": "make", "env": "ALE/Pong-v5"}))
        .unwrap_err();
    assert!(
        e.contains("ROM not supplied: ALE/Pong-v5") && e.contains("\\\"roms\\\""),
        "{e}"
    );
    for spec in envs::atari::FAMILY.specs {
        let json = gunzip(golden_for(spec.id).unwrap()).unwrap();
        let cov = check_atari_golden(&mut atari, &json).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            cov.steps >= 6000 && cov.ram_checks >= 20,
            "{}: {cov:?}",
            spec.id
        );
    }
}

#[test]
fn driver_replays_every_golden_file() {
    let mut driver = DriverProcess::start();
    let files = golden_files();
    assert!(files.len() >= 11, "only {} golden files", files.len());
    for (name, json) in files {
        let cov = check_golden_with(&mut driver, json).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(cov.steps >= 50, "{name}");
    }
}

#[test]
fn driver_survives_bad_input_and_renders_png() {
    let mut driver = DriverProcess::start();
    assert!(driver.ask_raw("{\"op\":").get("error").is_some());
    assert!(driver
        .ask_raw("{\"op\":\"step\",\"action\":0}")
        .get("error")
        .is_some());
    driver
        .ask(&json!({"op": "make", "env": "Pendulum-v1"}))
        .unwrap();
    driver.reset(Some(0)).unwrap();
    assert!(driver
        .ask_raw("{\"op\":\"step\",\"action\":\"left\"}")
        .get("error")
        .is_some());
    driver.step(&json!(1.5)).unwrap();
    driver.step(&json!([-0.5])).unwrap();
    let dir = std::env::temp_dir().join(format!("envs-driver-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("frame.png");
    let r = driver
        .ask(&json!({"op": "render", "path": path.to_str().unwrap()}))
        .unwrap();
    assert_eq!(
        (r["width"].as_u64(), r["height"].as_u64()),
        (Some(500), Some(500))
    );
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn driver_replays_minigrid_golden_files() {
    let mut driver = DriverProcess::start();
    for (id, gz) in playbench_tests::minigrid::minigrid_golden_files() {
        let cov = playbench_tests::minigrid::check_minigrid_golden(&mut driver, gz)
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        assert!(cov.steps > 30, "{id}");
    }
}

#[test]
fn driver_answers_help_and_version() {
    let run = |arg: &str| {
        Command::new(env!("CARGO_BIN_EXE_envs-driver"))
            .arg(arg)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let help = run("--help");
    assert!(help.status.success());
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(
        text.contains("JSON") && text.contains("Usage: envs-driver"),
        "{text}"
    );
    let version = run("--version");
    assert!(version.status.success());
    assert_eq!(
        String::from_utf8_lossy(&version.stdout),
        format!("envs-driver {}\n", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(run("--fly").status.code(), Some(2));
}

/// Every golden file in the generic format (`playbench-golden/1`) replays through the
/// driver process too, frames by their SHA-256 where the file has them.
#[test]
fn generic_golden_files_replay_through_the_driver() {
    use playbench_tests::data_files;
    use playbench_tests::reference::{read_json, FORMAT};
    let mut d = DriverProcess::start();
    let mut files = 0;
    for (path, bytes) in data_files("golden/") {
        if !(path.ends_with(".json") || path.ends_with(".json.gz")) {
            continue;
        }
        let doc = read_json(path, bytes).unwrap();
        if doc["format"] != FORMAT {
            continue;
        }
        files += 1;
        let env = doc["env"].as_str().unwrap();
        for (e, ep) in doc["episodes"].as_array().unwrap().iter().enumerate() {
            let at = |what: &str| format!("{path} episode {e}: {what}");
            if !ep["continue"].as_bool().unwrap_or(false) || e == 0 {
                d.ask(&json!({"op": "make", "env": env, "kwargs": ep["kwargs"]}))
                    .unwrap();
            }
            let r = d.ask(&json!({"op": "reset", "seed": ep["seed"]})).unwrap();
            if !ep["reset"].is_null() {
                assert_eq!(r["state"], ep["reset"], "{}", at("reset"));
            }
            if let Some(h) = ep.get("reset_frame_sha256") {
                assert_eq!(&r["frame_sha256"], h, "{}", at("reset frame"));
            }
            for (i, st) in ep["steps"].as_array().unwrap().iter().enumerate() {
                let r = d
                    .ask(&json!({"op": "step", "action": st["action"]}))
                    .unwrap_or_else(|x| panic!("{}", at(&format!("step {i}: {x}"))));
                for key in ["state", "reward", "terminated", "truncated", "frame_sha256"] {
                    if let Some(want) = st.get(key) {
                        assert_eq!(&r[key], want, "{}", at(&format!("step {i} {key}")));
                    }
                }
            }
        }
    }
    assert!(files >= 1, "no {FORMAT} golden file");
}

/// The driver as a VisGym player: replies as the golden replay reads them.
impl playbench_tests::visgym::VisGymPlayer for DriverProcess {
    fn make(&mut self, id: &str, kwargs: &Map<String, Value>) -> Result<(), String> {
        self.ask(&json!({"op": "make", "env": id, "kwargs": kwargs}))
            .map(|_| ())
    }

    fn prompt(&mut self, text_mode: bool) -> Result<Option<String>, String> {
        let mode = if text_mode { "ansi" } else { "rgb_array" };
        let r = self.ask_raw(&json!({"op": "prompt", "mode": mode}).to_string());
        match (r["prompt"].as_str(), r["error"].as_str()) {
            (Some(p), _) => Ok(Some(p.to_string())),
            (None, Some(e)) if e.ends_with("has no instructions of its own") => Ok(None),
            _ => Err(format!("prompt: {r}")),
        }
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<Value, String> {
        let r = self.ask(&json!({"op": "reset", "seed": seed}))?;
        self.last_frame = r["frame_sha256"].as_str().map(String::from);
        Ok(r)
    }

    fn step(&mut self, action: &str) -> Result<Result<Value, String>, String> {
        let r = self.ask_raw(&json!({"op": "step", "action": action}).to_string());
        if let Some(e) = r["error"].as_str() {
            return Ok(Err(e.to_string()));
        }
        self.last_frame = r["frame_sha256"].as_str().map(String::from);
        Ok(Ok(r))
    }

    fn solve(&mut self, kwargs: &Map<String, Value>) -> Result<Vec<String>, String> {
        let r = self.ask(&json!({"op": "solve", "kwargs": kwargs}))?;
        serde_json::from_value(r["actions"].clone()).map_err(|e| e.to_string())
    }

    fn frame_sha256(&mut self) -> Result<String, String> {
        self.last_frame
            .clone()
            .ok_or_else(|| "no frame_sha256 in the last reply".into())
    }
}

/// The Fetch golden files replay through the driver process, on the MuJoCo it starts
/// under Node: states, rewards, flags, feedback, success, distances, prompts and plans.
#[test]
fn driver_replays_the_fetch_golden_files() {
    let mut driver = DriverProcess::start();
    for (name, episodes) in [("fetch_reach", 6), ("fetch_pick_and_place", 5)] {
        let path = format!("golden/visgym/{name}.json.gz");
        let (_, gz) = playbench_tests::data_files(&path).next().unwrap();
        let cov = playbench_tests::fetch::check_fetch_golden_through(&mut driver, gz)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            cov.episodes >= episodes && cov.plans >= 4,
            "{name}: {cov:?}"
        );
        eprintln!("{name}: {cov:?}");
    }
}

/// Every VisGym golden file replays through the driver process: states, rewards, flags,
/// feedback, text frames, Maze 2D frame hashes, the reference's exceptions, prompts and
/// solver lists (with the reference's keyword arguments).
#[test]
fn driver_replays_visgym_golden_files() {
    let mut driver = DriverProcess::start();
    for (name, gz) in playbench_tests::visgym::ENV_GOLDEN {
        let tol = if name.starts_with("matchstick_rotation")
            || name.starts_with("mental_rotation")
            || name.starts_with("zoom_in_puzzle")
            || name.starts_with("counting")
        {
            1e-9
        } else {
            0.0
        };
        let cov = playbench_tests::visgym::check_env_golden(&mut driver, gz, tol)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(cov.steps > 400 && cov.solves >= 30, "{name}: {cov:?}");
        if name.starts_with("maze_2d") {
            assert!(cov.frames > 400, "{name}: {cov:?}");
        }
    }
}

/// The driver as a GameVerse player: replies and idle steps as text; every reset and
/// step reply must carry the frame's SHA-256 (`docs/driver.md`).
struct GameVerseDriver {
    driver: DriverProcess,
    /// Replies checked for `frame_sha256`.
    hashed: usize,
}

impl GameVerseDriver {
    fn start() -> Self {
        Self {
            driver: DriverProcess::start(),
            hashed: 0,
        }
    }

    fn hashed(&mut self, reply: &Value) -> Result<(), String> {
        let hex = reply["frame_sha256"].as_str().unwrap_or_default();
        if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("no frame_sha256 in {reply}"));
        }
        self.hashed += 1;
        Ok(())
    }
}

impl playbench_tests::gameverse::GameVersePlayer for GameVerseDriver {
    fn make(&mut self, id: &str, kwargs: &Value) -> Result<(), String> {
        self.driver
            .ask(&json!({"op": "make", "env": id, "kwargs": kwargs}))
            .map(|_| ())
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<Value, String> {
        let mut r = self.driver.ask(&json!({"op": "reset", "seed": seed}))?;
        self.hashed(&r)?;
        Ok(r["state"].take())
    }

    fn step(&mut self, text: &str) -> Result<Stepped, String> {
        let mut r = self.driver.ask(&json!({"op": "step", "action": text}))?;
        self.hashed(&r)?;
        Ok(Stepped {
            state: r["state"].take(),
            reward: r["reward"].as_f64().ok_or("no reward")?,
            terminated: r["terminated"].as_bool().ok_or("no terminated")?,
            truncated: r["truncated"].as_bool().ok_or("no truncated")?,
        })
    }
}

/// GameVerse's goldens through the driver process, with the replay the library's golden
/// test uses (`playbench_tests::gameverse`): 2048, Maze and Snake (Stop mode, and the
/// real-time episodes on the virtual clock, the idle steps sent as `(timeout)`), states,
/// rewards and flags; Tic-Tac-Toe's generic golden file replays in
/// `generic_golden_files_replay_through_the_driver`, its frame hashes are checked here.
#[test]
fn driver_replays_the_gameverse_golden_files() {
    use playbench_tests::gameverse::{
        golden, replay_2048, replay_maze, replay_snake_realtime, replay_snake_stop, report, Tally,
    };
    use std::cell::Cell;
    let no_extra = &mut |_: &GameVerseDriver, _: &Value, _: Option<(usize, &Value)>| Vec::new();
    let hashed = Cell::new(0);
    let count = |p: &GameVerseDriver| hashed.set(hashed.get() + p.hashed);

    let mut tally = Tally::default();
    let mut d = GameVerseDriver::start();
    let g = golden(envs::gameverse::twenty_forty_eight::ID).unwrap();
    report(&replay_2048(&mut d, &g, no_extra, &mut tally)).unwrap();
    count(&d);
    assert!(
        tally.steps > 3000 && tally.ends >= 9 && tally.caps >= 1,
        "2048 {tally:?}"
    );

    let mut tally = Tally::default();
    let g = golden(envs::gameverse::maze::ID).unwrap();
    report(&replay_maze(
        GameVerseDriver::start,
        &g,
        no_extra,
        &mut tally,
    ))
    .unwrap();
    assert!(
        tally.steps > 1500 && tally.ends > 50 && tally.caps > 20,
        "maze {tally:?}"
    );

    let mut tally = Tally::default();
    let g = golden(envs::gameverse::snake::ID).unwrap();
    report(&replay_snake_stop(
        GameVerseDriver::start,
        &g,
        no_extra,
        &mut tally,
    ))
    .unwrap();
    assert!(
        tally.steps > 450 && tally.ends > 10 && tally.caps == 1,
        "snake {tally:?}"
    );

    let mut tally = Tally::default();
    let mut d = GameVerseDriver::start();
    let mut episodes = (0, 0);
    report(&replay_snake_realtime(
        &mut d,
        &g,
        no_extra,
        &mut tally,
        &mut episodes,
    ))
    .unwrap();
    count(&d);
    assert!(
        episodes == (8, 5) && tally.steps > 200 && tally.idles > 20,
        "real-time snake {episodes:?} {tally:?}"
    );
    assert!(hashed.get() > 3500, "{}", hashed.get());

    // Tic-Tac-Toe's replies carry the frame hash too.
    use playbench_tests::gameverse::GameVersePlayer;
    let mut d = GameVerseDriver::start();
    d.make("GameVerse/TicTacToe", &json!({"player_mark": "O"}))
        .unwrap();
    d.reset(Some(0)).unwrap();
    let s = d.step("B2").unwrap();
    assert_eq!(s.state["agent_marks"], 1, "{}", s.state);
    assert_eq!(d.hashed, 2);

    // Its GUI replies, read as the reference reads them (the whole GUI games are in the
    // generic golden file).
    let doc = playbench_tests::tic_tac_toe_clicks::golden().unwrap();
    let (failures, raises) = playbench_tests::tic_tac_toe_clicks::replay(&mut d, &doc);
    report(&failures).unwrap();
    assert!(raises >= 10, "{raises}");
}

/// VisGym's image environments read `sample_dir` from disk: pictures one folder down
/// count for Jigsaw, deeper ones and other files do not; an unreadable picture and the
/// end of the pictures are error replies to the reset that meets them (the reference
/// raises there), and the driver keeps serving.
#[test]
fn driver_reads_image_folders_and_reports_resets_the_reference_raises_on() {
    let zip = playbench_tests::visgym::BUNDLED_IMAGES;
    let entry = envs::core::zip::entries(zip)
        .unwrap()
        .into_iter()
        .find(|e| e.name == "procedural/shapes_b.png")
        .unwrap();
    let png = envs::core::zip::extract(zip, &entry).unwrap();
    let dir = std::env::temp_dir().join(format!("envs-driver-pictures-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub/deeper")).unwrap();
    std::fs::write(dir.join("sub/a.png"), &png).unwrap();
    std::fs::write(dir.join("b.png"), b"not a picture").unwrap();
    std::fs::write(dir.join("sub/deeper/c.png"), &png).unwrap();
    std::fs::write(dir.join("notes.txt"), b"hello").unwrap();

    let mut driver = DriverProcess::start();
    let missing = driver.ask(&json!({"op": "make", "env": "jigsaw/easy",
        "kwargs": {"sample_dir": dir.join("nope").to_str().unwrap()}}));
    assert!(missing.unwrap_err().contains("is not a folder"));
    let made = driver
        .ask(&json!({"op": "make", "env": "jigsaw/easy",
            "kwargs": {"sample_dir": dir.to_str().unwrap(), "seed": 0}}))
        .unwrap();
    assert_eq!(made["ok"], true);
    let first = driver.ask(&json!({"op": "reset", "seed": 0}));
    let second = driver.ask(&json!({"op": "reset"}));
    let (good, bad) = match (first, second) {
        (Ok(g), Err(b)) | (Err(b), Ok(g)) => (g, b),
        other => panic!("one picture reads, the other does not: {other:?}"),
    };
    assert_eq!(good["state"]["image_name"], "sub/a.png");
    assert!(bad.contains("b.png"), "{bad}");
    let third = driver.ask(&json!({"op": "reset"})).unwrap_err();
    assert!(third.contains("All samples exhausted"), "{third}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Counting, Referring Dot-Pointing and Video Unshuffle on folders as the original data
/// sets lay them out (here the bundled scenes unpacked): the annotation files are read
/// from the folder, a missing picture fails its reset (Counting) or leaves its references
/// out (Referring Dot-Pointing), a folder without annotations is refused by name, and
/// WebM clips (which are not decoded here) are refused by name.
#[test]
fn driver_reads_annotated_folders_as_the_original_data_sets_lay_them_out() {
    let unpack = |zip: &[u8], dir: &std::path::Path| {
        for e in envs::core::zip::entries(zip).unwrap() {
            let path = dir.join(&e.name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, envs::core::zip::extract(zip, &e).unwrap()).unwrap();
        }
    };
    let root = std::env::temp_dir().join(format!("envs-driver-scenes-{}", std::process::id()));
    let (lvis, refcoco) = (root.join("lvis"), root.join("refcoco"));
    unpack(playbench_tests::visgym::BUNDLED_COUNTING, &lvis);
    unpack(playbench_tests::visgym::BUNDLED_REFERRING, &refcoco);
    let mut driver = DriverProcess::start();

    // The bundled scenes and the same files from a folder play the same first sample.
    let first = |driver: &mut DriverProcess, kwargs: Value| {
        driver
            .ask(&json!({"op": "make", "env": "counting/easy", "kwargs": kwargs}))
            .unwrap();
        driver.ask(&json!({"op": "reset", "seed": 1})).unwrap()["state"].clone()
    };
    let bundled = first(&mut driver, json!({}));
    let folder = first(&mut driver, json!({"sample_dir": lvis.to_str().unwrap()}));
    assert_eq!(bundled, folder);
    let name = bundled["image_name"].as_str().unwrap().to_string();
    assert!(bundled["true_count"].as_i64().unwrap() >= 2, "{bundled}");

    // Without that picture the constructor still lists it (LVIS says it exists); its
    // reset raises.
    std::fs::remove_file(lvis.join(&name)).unwrap();
    driver
        .ask(&json!({"op": "make", "env": "counting/easy",
            "kwargs": {"sample_dir": lvis.to_str().unwrap()}}))
        .unwrap();
    let failed = driver.ask(&json!({"op": "reset", "seed": 1})).unwrap_err();
    assert!(
        failed.contains("Could not load image") && failed.contains(&name),
        "{failed}"
    );
    let moved = driver
        .ask(&json!({"op": "make", "env": "counting/easy",
            "kwargs": {"sample_dir": lvis.to_str().unwrap(), "annotation_file": "nope.json"}}))
        .unwrap_err();
    assert!(moved.contains("nope.json"), "{moved}");

    // Referring Dot-Pointing: a reference whose picture is gone is left out.
    let count = |driver: &mut DriverProcess| {
        driver
            .ask(&json!({"op": "make", "env": "referring_dot_pointing/easy",
                "kwargs": {"sample_dir": refcoco.to_str().unwrap()}}))
            .unwrap();
        driver.ask(&json!({"op": "reset"})).unwrap()["state"]["num_refs"]
            .as_u64()
            .unwrap()
    };
    let all = count(&mut driver);
    let pictures = refcoco.join("refcoco+/images/mscoco/images/train2014");
    let gone = std::fs::read_dir(&pictures)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::remove_file(&gone).unwrap();
    assert!(count(&mut driver) < all);
    std::fs::remove_file(refcoco.join("refcoco+/instances.json")).unwrap();
    let refused = driver
        .ask(&json!({"op": "make", "env": "referring_dot_pointing/easy",
            "kwargs": {"sample_dir": refcoco.to_str().unwrap()}}))
        .unwrap_err();
    assert!(refused.contains("refcoco+/instances.json"), "{refused}");

    // Video Unshuffle: the folder as `root_dir`; a real WebM clip is refused by name.
    let clips = root.join("ssv2");
    unpack(playbench_tests::visgym::BUNDLED_VIDEOS, &clips);
    let make_reset = |driver: &mut DriverProcess| {
        driver
            .ask(&json!({"op": "make", "env": "video_unshuffle/easy",
                "kwargs": {"root_dir": clips.to_str().unwrap()}}))
            .unwrap();
        driver.ask(&json!({"op": "reset", "seed": 1}))
    };
    let played = make_reset(&mut driver).unwrap();
    assert_eq!(
        played["state"]["frame_positions"].as_array().unwrap().len(),
        4
    );
    let videos = clips.join("20bn-something-something-v2");
    for clip in std::fs::read_dir(&videos).unwrap() {
        std::fs::write(clip.unwrap().path(), [0x1a, 0x45, 0xdf, 0xa3, 0x9f]).unwrap();
    }
    let webm = make_reset(&mut driver).unwrap_err();
    assert!(webm.contains("WebM"), "{webm}");

    // Mental Rotation 3D: a folder of models plays as the bundled ones do; a `.gltf`
    // reads its buffer from a `.bin` beside it; a compressed model is refused by name,
    // and a folder without models at `make`.
    let models = root.join("objaverse");
    unpack(playbench_tests::visgym::BUNDLED_OBJECTS, &models);
    let first_model = |driver: &mut DriverProcess, kwargs: Value| {
        driver
            .ask(&json!({"op": "make", "env": "mental_rotation_3d_objaverse/easy", "kwargs": kwargs}))
            .and_then(|_| driver.ask(&json!({"op": "reset", "seed": 1})))
    };
    let bundled = first_model(&mut driver, json!({})).unwrap();
    let folder = first_model(&mut driver, json!({"sample_dir": models.to_str().unwrap()})).unwrap();
    assert_eq!(bundled["state"], folder["state"]);
    assert_eq!(bundled["frame_sha256"], folder["frame_sha256"]);
    let teapot: Value =
        serde_json::from_slice(&std::fs::read(models.join("objects/more/teapot.gltf")).unwrap())
            .unwrap();
    let uri = teapot["buffers"][0]["uri"].as_str().unwrap();
    let bin = base64_bytes(uri.split_once(',').unwrap().1);
    let split = root.join("split");
    std::fs::create_dir_all(split.join("pots")).unwrap();
    let mut beside = teapot.clone();
    beside["buffers"][0]["uri"] = json!("teapot%20data.bin");
    std::fs::write(split.join("pots/teapot.gltf"), beside.to_string()).unwrap();
    std::fs::write(split.join("pots/teapot data.bin"), &bin).unwrap();
    // The same model at the same path, its buffer embedded: the same episode and frames.
    let embedded = root.join("embedded");
    std::fs::create_dir_all(embedded.join("pots")).unwrap();
    std::fs::write(embedded.join("pots/teapot.gltf"), teapot.to_string()).unwrap();
    let from_bin =
        first_model(&mut driver, json!({"sample_dir": split.to_str().unwrap()})).unwrap();
    let from_uri = first_model(
        &mut driver,
        json!({"sample_dir": embedded.to_str().unwrap()}),
    )
    .unwrap();
    assert_eq!(from_bin["state"]["object_path"], "pots/teapot.gltf");
    assert_eq!(from_bin["state"], from_uri["state"]);
    assert_eq!(from_bin["frame_sha256"], from_uri["frame_sha256"]);
    std::fs::write(
        split.join("pots/teapot.gltf"),
        teapot.to_string().replace(
            "\"asset\"",
            "\"extensionsRequired\":[\"KHR_draco_mesh_compression\"],\"asset\"",
        ),
    )
    .unwrap();
    let draco =
        first_model(&mut driver, json!({"sample_dir": split.to_str().unwrap()})).unwrap_err();
    assert!(draco.contains("KHR_draco_mesh_compression"), "{draco}");
    std::fs::remove_file(split.join("pots/teapot.gltf")).unwrap();
    let none =
        first_model(&mut driver, json!({"sample_dir": split.to_str().unwrap()})).unwrap_err();
    assert!(none.contains("No GLB/GLTF"), "{none}");
    std::fs::remove_dir_all(&root).unwrap();
}

/// Standard base64 (a data URI's payload).
fn base64_bytes(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let (mut out, mut acc, mut bits) = (Vec::new(), 0u32, 0u32);
    for c in text.bytes().filter(|&c| c != b'=') {
        let v = ALPHABET.iter().position(|&a| a == c).expect("base64") as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}
