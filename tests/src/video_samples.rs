//! Clips of game frames for the WebM encoder's checks (`docs/video.md`, "Proof"): the
//! same frames natively, as wasm and in `scripts/check_webm.py`.

use envs::{Action, Frame};
use serde_json::Map;

/// A clip: its name, frames and frame rate.
pub struct Clip {
    pub name: &'static str,
    pub frames: Vec<Frame>,
    pub fps: f64,
}

/// The frames of `id` reset with `seed` and played with `moves` (the frame before each
/// move, then the last).
fn played(id: &str, seed: u64, moves: &[&str]) -> Vec<Frame> {
    let mut env = envs::make(id, &Map::new()).expect("a registered id");
    env.reset(Some(seed));
    let mut frames = Vec::new();
    for m in moves.iter().map(Some).chain([None]) {
        let mut f = Frame::default();
        env.render(&mut f);
        frames.push(f);
        if let Some(m) = m {
            let _ = env.step(Action::Text((*m).to_string()));
        }
    }
    frames
}

/// 2048 (500×500) at the step videos' 2 fps and Snake (495×595: odd sides) at the
/// tutorials' one frame per 2 s.
pub fn clips() -> Vec<Clip> {
    vec![
        Clip {
            name: "2048",
            frames: played("GameVerse/2048", 3, &["up", "left", "down", "left", "up"]),
            fps: 2.0,
        },
        Clip {
            name: "snake",
            frames: played("GameVerse/Snake", 42, &["U", "L", "L", "D"]),
            fps: 0.5,
        },
    ]
}
