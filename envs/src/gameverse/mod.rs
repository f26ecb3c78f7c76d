//! GameVerse's open games, rule-exact: Tic-Tac-Toe so far (`docs/environments.md`,
//! "GameVerse Tic-Tac-Toe").

pub mod tic_tac_toe;

use crate::core::error::EnvError;
use crate::core::kwargs::Kwargs;
use crate::core::spec::{wrap, EnvSpec, Family};
use tic_tac_toe::{Mark, TicTacToe};

pub static FAMILY: Family = Family {
    id: "gameverse",
    label: "GameVerse",
    frame_sha256: true,
    specs: SPECS,
};

fn tic_tac_toe(spec: &'static EnvSpec, kw: &mut Kwargs) -> Result<Box<dyn crate::Env>, EnvError> {
    let mark = match kw.choice("player_mark", &["X", "O"], "X")?.as_str() {
        "O" => Mark::O,
        _ => Mark::X,
    };
    Ok(wrap(spec, TicTacToe::new(spec.id, mark)))
}

static SPECS: &[EnvSpec] = &[EnvSpec {
    id: "GameVerse/TicTacToe",
    aliases: &[],
    family: &FAMILY,
    // GameVerse's runner stops at 20 steps (a game needs at most 5 moves).
    max_episode_steps: Some(20),
    kwargs_doc: "player_mark: \"X\" | \"O\" (default \"X\"; X always moves first)",
    summary: "Tic-Tac-Toe against GameVerse's minimax opponent: click a cell or name it (B2).",
    variants: &[crate::core::spec::Variant {
        label: "as O",
        kwargs: r#"{"player_mark": "O"}"#,
    }],
    make: tic_tac_toe,
}];
