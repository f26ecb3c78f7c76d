//! Tetris as tetris-gymnasium 0.3.1 registers it (`tetris_gymnasium/Tetris`), seed for
//! seed and pixel for pixel; behaviour in docs/third-party-games.md.

mod bag;
mod env;
mod interface;
mod oracle;
mod pieces;
mod render;

pub use bag::{Bag, BAG_SIZE};
pub use env::{Placement, StepResult, Tetris, TetrisConfig, TetrisObservation, QUEUE_SIZE};
pub use pieces::{Piece, CELL_COLORS, PIECE_NAMES};

use crate::core::env::KeyBinding;
use crate::core::spec::{wrap, EnvSpec, Family, Variant};

pub const ID: &str = "tetris_gymnasium/Tetris";

/// Action names as the package's `ActionsMapping` defines them. Note "rotate_clockwise"
/// (numpy `rot90(k=1)`) turns the piece counter-clockwise on screen, and vice versa.
pub const ACTION_NAMES: [&str; 8] = [
    "move_left",
    "move_right",
    "move_down",
    "rotate_clockwise",
    "rotate_counterclockwise",
    "hard_drop",
    "swap",
    "no_op",
];

/// `no_op`: gravity still moves the piece.
pub const NOOP_ACTION: usize = 7;

/// Real-time rate for people: the package's `render_fps` metadata, one step (one gravity
/// tick) per second. (Its own interactive example waits for a key instead.)
pub const STEPS_PER_SECOND: u32 = 1;

/// Keys for people: the package example's letters (a d s w e space q) plus arrows. Up and
/// `w` turn the piece clockwise on screen, which is the package's "rotate_counterclockwise".
pub const KEYMAP: &[KeyBinding] = &[
    KeyBinding::new("ArrowLeft", 0),
    KeyBinding::new("a", 0),
    KeyBinding::new("ArrowRight", 1),
    KeyBinding::new("d", 1),
    KeyBinding::new("ArrowDown", 2),
    KeyBinding::new("s", 2),
    KeyBinding::new("e", 3),
    KeyBinding::new("z", 3),
    KeyBinding::new("ArrowUp", 4),
    KeyBinding::new("w", 4),
    KeyBinding::new("x", 4),
    KeyBinding::new(" ", 5),
    KeyBinding::new("q", 6),
    KeyBinding::new("c", 6),
    KeyBinding::new("Shift", 6),
];

/// `hard_drop` and `swap`.
pub const HARD_DROP: usize = 5;
pub const SWAP: usize = 6;

pub static FAMILY: Family = Family {
    id: "tetris",
    label: "Tetris",
    frame_sha256: true,
    specs: SPECS,
};

static SPECS: &[EnvSpec] = &[EnvSpec {
    id: ID,
    aliases: &[],
    family: &FAMILY,
    variants: &[Variant {
        label: "no gravity",
        kwargs: r#"{"gravity": false}"#,
    }],
    // Registered without `max_episode_steps`: the game never truncates.
    max_episode_steps: None,
    kwargs_doc: "width: int (default 10); height: int (default 20); gravity: bool (default \
                 true); render_upscale: int (pixels per cell, default 10)",
    summary: "Tetris (tetris-gymnasium): place falling pieces, clear full rows.",
    make: crate::core::spec::heavy(|spec, kw| {
        Ok(wrap(
            spec,
            Tetris::with_config(TetrisConfig::from_kwargs(kw)?)?,
        ))
    }),
}];
