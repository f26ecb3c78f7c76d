//! Replays the reference's reading of adversarial Tic-Tac-Toe GUI replies
//! (`tests/golden/gameverse/tic_tac_toe_clicks.json.gz`, written by `tic_tac_toe.py` from
//! GameVerse's code) through a [`GameVersePlayer`]: each case is one reply on a fresh game
//! as X, with pixel or normalized coordinates. The state after it must be the reference's;
//! where the reference's step raises (a float point on the board, a coordinate that is not
//! a number), ours ends the game as a loss with nothing placed (`docs/gameverse.md`,
//! "Tic-Tac-Toe's GUI actions").

use serde_json::{json, Value};

use crate::gameverse::GameVersePlayer;

pub const FORMAT: &str = "playbench-gameverse-clicks/1";
const PATH: &str = "golden/gameverse/tic_tac_toe_clicks.json.gz";

/// The committed table.
pub fn golden() -> Result<Value, String> {
    let (path, bytes) = crate::data_files(PATH)
        .next()
        .ok_or_else(|| format!("no {PATH}"))?;
    let doc = crate::reference::read_json(path, bytes)?;
    if doc["format"] != FORMAT {
        return Err(format!("{path}: not {FORMAT}"));
    }
    Ok(doc)
}

/// The cases of the table.
pub fn cases(doc: &Value) -> impl Iterator<Item = &Value> {
    doc["cases"].as_array().into_iter().flatten()
}

/// Whether the reference's step raised on the case.
pub fn raised(case: &Value) -> bool {
    case["landing"]
        .as_str()
        .is_some_and(|l| l.starts_with("raises"))
}

/// Plays every case on `player`; the mismatches, and how many cases raised in the
/// reference.
pub fn replay<P: GameVersePlayer>(player: &mut P, doc: &Value) -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut raises = 0;
    for (i, case) in cases(doc).enumerate() {
        let text = case["text"].as_str().unwrap_or_default();
        let at = format!("case {i} ({}, {text:?})", case["coordinates"]);
        let kwargs = json!({
            "player_mark": "X",
            "action_mode": "gui",
            "coordinates": case["coordinates"],
        });
        let stepped = player
            .make(doc["game"].as_str().unwrap_or_default(), &kwargs)
            .and_then(|()| player.reset(None))
            .and_then(|_| player.step(text));
        let s = match stepped {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{at}: {e}"));
                continue;
            }
        };
        let want = if raised(case) {
            raises += 1;
            json!({
                "board": ["", "", "", "", "", "", "", "", ""],
                "agent_mark": "X",
                "result": "loss",
                "agent_marks": 0,
            })
        } else {
            case["state"].clone()
        };
        if s.state != want {
            failures.push(format!("{at}: state {} vs {want}", s.state));
        }
        let over = want["result"] != "ongoing";
        if s.terminated != over || s.truncated || s.reward != 0.0 {
            failures.push(format!(
                "{at}: terminated {} truncated {} reward {}",
                s.terminated, s.truncated, s.reward
            ));
        }
    }
    (failures, raises)
}
