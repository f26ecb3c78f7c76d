//! GameVerse's open games, rule for rule with the reference repository (its commit
//! 7cbb423; `tests/golden/gameverse/` replays its code): Tic-Tac-Toe, 2048, Maze and Snake.
//!
//! Each game takes the text a model writes under `### Actions` and reads it the way the
//! reference does in its semantic or GUI action mode, with the same fixed consequence of
//! a reply it cannot read (a step that does nothing). Randomness goes through our ports of
//! the reference's generators: CPython's `random` for 2048 and Maze (unseeded in the
//! benchmark; `reset(seed)` here is `random.seed(seed)` there), numpy's legacy
//! `RandomState` for Snake (seeded with 42 in the benchmark).
//!
//! The shared pieces mirror the Python behaviour the parsers depend on: string classes
//! ([`py_str`]), regular expressions ([`py_pattern`]), `json.loads` ([`py_json`]), the
//! JSON GUI actions ([`gui_action`]), the direction reader of 2048 and Maze
//! ([`direction_words`]) and the prompt templates ([`prompt`]).
//!
//! Under the environment interface (ids `GameVerse/…`, see `docs/gameverse.md` and
//! `docs/environments.md`, "GameVerse Tic-Tac-Toe") every game
//! takes the reply text as its action ([`text_actions`]); 2048 and Maze share their moves
//! ([`moves`]).

pub mod direction_words;
pub mod gui_action;
pub mod maze;
pub mod moves;
pub mod prompt;
pub mod py_json;
pub mod py_pattern;
pub mod py_str;
pub mod snake;
pub mod text_actions;
pub mod tic_tac_toe;
pub mod twenty_forty_eight;

use crate::core::error::EnvError;
use crate::core::kwargs::Kwargs;
use crate::core::spec::{wrap, EnvSpec, Family, Variant};
use crate::core::wrappers::Registered;
use maze::MazeEnv;
use snake::{LatencyMode, SnakeEnv};
use tic_tac_toe::{Mark, TicTacToe};
use twenty_forty_eight::TwentyFortyEightEnv;

/// GameVerse turns each attempt's step frames into a video at this rate.
pub const VIDEO_FPS: u32 = 2;

fn action_mode(kw: &mut Kwargs) -> Result<ActionMode, EnvError> {
    Ok(
        match kw
            .choice("action_mode", &["semantic", "gui"], "semantic")?
            .as_str()
        {
            "gui" => ActionMode::Gui,
            _ => ActionMode::Semantic,
        },
    )
}

fn snake(spec: &'static EnvSpec, kw: &mut Kwargs) -> Result<Box<dyn crate::Env>, EnvError> {
    let mode = action_mode(kw)?;
    let latency = match kw
        .choice("latency", &["stop", "slow", "normal"], "stop")?
        .as_str()
    {
        "slow" => LatencyMode::Slow,
        "normal" => LatencyMode::Normal,
        _ => LatencyMode::Stop,
    };
    let env = SnakeEnv::new(mode, latency);
    Ok(if latency.is_realtime() {
        // The clock's idle steps are no replies: the environment caps the replies itself
        // (own_step_limit) instead of a time limit that would count them.
        Box::new(Registered::new(env, None))
    } else {
        wrap(spec, env)
    })
}

const GUI: Variant = Variant {
    label: "GUI actions",
    kwargs: r#"{"action_mode": "gui"}"#,
};

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
    let mode = action_mode(kw)?;
    let normalized = kw.choice("coordinates", &["pixels", "normalized"], "pixels")? == "normalized";
    Ok(wrap(
        spec,
        TicTacToe::new(spec.id, mark, mode).with_normalized_coordinates(normalized),
    ))
}

static SPECS: &[EnvSpec] = &[
    EnvSpec {
        id: "GameVerse/TicTacToe",
        aliases: &[],
        family: &FAMILY,
        // GameVerse's runner stops at 20 steps (a game needs at most 5 moves).
        max_episode_steps: Some(20),
        kwargs_doc: "player_mark: \"X\" | \"O\" (default \"X\"; X always moves first); action_mode: \"semantic\" | \"gui\" (default \"semantic\"; gui: a JSON click on the 500×500 frame); coordinates: \"pixels\" | \"normalized\" (default \"pixels\"; normalized: GUI clicks on a 0-1000 scale)",
        summary: "Tic-Tac-Toe against GameVerse's minimax opponent: click a cell or name it (B2).",
        variants: &[
            Variant {
                label: "as O",
                kwargs: r#"{"player_mark": "O"}"#,
            },
            GUI,
        ],
        make: crate::core::spec::heavy(tic_tac_toe),
    },
    EnvSpec {
        id: twenty_forty_eight::ID,
        aliases: &[],
        family: &FAMILY,
        variants: &[GUI],
        max_episode_steps: Some(twenty_forty_eight::STEP_CAP),
        kwargs_doc: "action_mode: \"semantic\" | \"gui\" (default \"semantic\")",
        summary: "Slide and merge tiles until one reaches 2048.",
        make: crate::core::spec::heavy(|spec, kw| {
            Ok(wrap(spec, TwentyFortyEightEnv::new(action_mode(kw)?)))
        }),
    },
    EnvSpec {
        id: maze::ID,
        aliases: &[],
        family: &FAMILY,
        variants: &[GUI],
        max_episode_steps: Some(maze::STEP_CAP),
        kwargs_doc: "action_mode: \"semantic\" | \"gui\" (default \"semantic\")",
        summary: "Roll the ball through a 4×4 maze to the red flag.",
        make: crate::core::spec::heavy(|spec, kw| Ok(wrap(spec, MazeEnv::new(action_mode(kw)?)))),
    },
    EnvSpec {
        id: snake::ID,
        aliases: &[],
        family: &FAMILY,
        variants: &[
            Variant {
                label: "Normal latency (10 s)",
                kwargs: r#"{"latency": "normal"}"#,
            },
            Variant {
                label: "Slow latency (20 s)",
                kwargs: r#"{"latency": "slow"}"#,
            },
            GUI,
        ],
        max_episode_steps: Some(snake::STEP_CAP),
        kwargs_doc: "action_mode: \"semantic\" | \"gui\" (default \"semantic\"); latency: \"stop\" | \"slow\" | \"normal\" (default \"stop\": the snake waits for each reply; slow and normal: it moves on by itself after 20 s or 10 s without a key)",
        summary: "Steer the snake to the food on a 9×9 board without hitting a wall or itself.",
        make: crate::core::spec::heavy(snake),
    },
];

/// How the model acts: game-level commands or JSON GUI actions on the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ActionMode {
    #[default]
    Semantic,
    Gui,
}

impl ActionMode {
    pub fn name(self) -> &'static str {
        match self {
            ActionMode::Semantic => "semantic",
            ActionMode::Gui => "gui",
        }
    }
}

/// The outcome of one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepResult {
    /// The change of the game's own score over the step (the number the reference's
    /// `evaluate` reports: 2048 merge points, Maze progress 0-1, Snake foods eaten).
    pub reward: f64,
    /// The game is over.
    pub terminated: bool,
    /// GameVerse's step cap was reached while the game was still on.
    pub truncated: bool,
}
pub mod pixels;
