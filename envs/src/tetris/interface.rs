//! Tetris under the `Env` interface: the package's action names as presets, keys and the
//! real-time clock for people, the driver's STATE and info, a text picture, the oracle.

use crate::core::clock::{Clock, ClockMode};
use crate::core::env::{
    discrete_action, Action, Env, Info, Observation, Reset, Signals, Step, Words,
};
use crate::core::error::EnvError;
use crate::core::oracle::{Control, Solver};
use crate::core::package_port::package_port_methods;

use super::env::Tetris;
use super::pieces::{BEDROCK, EMPTY, PADDING, PIECE_NAMES, PIECE_VALUE_OFFSET};
use super::{ACTION_NAMES, ID, KEYMAP, NOOP_ACTION, STEPS_PER_SECOND};

/// The observation dict as one vector: `board`, `active_tetromino_mask`, `holder` and
/// `queue`, each flattened row-major, in that order (the package's key order). Every
/// value is a small integer, exact in float32.
fn flat_observation(env: &Tetris) -> Observation {
    Observation::Vector(env.observation_floats().into())
}

fn piece_name(value: u8) -> &'static str {
    PIECE_NAMES
        .get(usize::from(value.saturating_sub(PIECE_VALUE_OFFSET)))
        .copied()
        .unwrap_or("?")
}

impl Env for Tetris {
    fn id(&self) -> &str {
        ID
    }

    package_port_methods!(ACTION_NAMES, NOOP_ACTION, KEYMAP);

    /// One step per tick at the package's `render_fps` (1): every step is one gravity
    /// row, so this is the speed the package's game falls at. Its own keyboard example
    /// waits for a key instead; a fixed clock makes the piece fall while a person thinks,
    /// as in any Tetris, and a key pressed between ticks is played at the next one.
    fn clock(&self) -> Option<Clock> {
        Some(Clock {
            mode: ClockMode::Fixed,
            tick_ms: 1000 / STEPS_PER_SECOND,
            idle: NOOP_ACTION,
        })
    }

    fn render_fps(&self) -> u32 {
        STEPS_PER_SECOND
    }

    /// Tetris is endless: it has no success event, only the stack reaching the top.
    fn words(&self) -> Words {
        Words {
            goal: "Place the falling pieces to clear rows and keep the stack below the top",
            success: "cleared rows",
            failure: "the stack reached the top",
        }
    }

    fn reset(&mut self, seed: Option<u64>) -> Reset {
        self.start(seed);
        Reset {
            obs: flat_observation(self),
            info: Info::default(),
        }
    }

    fn step(&mut self, action: Action) -> Result<Step, EnvError> {
        let a = discrete_action(&action, ACTION_NAMES.len())?;
        let reward = self.advance(a)?;
        Ok(Step {
            obs: flat_observation(self),
            reward,
            terminated: self.game_over(),
            truncated: false,
            info: Info::default(),
            signals: Signals::default(),
        })
    }

    fn observation(&self) -> Observation {
        flat_observation(self)
    }

    /// The well (`.` empty, a piece's letter for locked cells, `@` for the falling
    /// piece), then the falling piece, the queue and the holder by name.
    fn render_text(&self) -> String {
        let obs = self.observation_dict();
        let cols = self.cols();
        let width = self.config().width;
        let mut lines = Vec::with_capacity(self.config().height + 2);
        for r in 0..self.config().height {
            let line: String = (PADDING..PADDING + width)
                .map(|c| {
                    let at = r * cols + c;
                    let locked = self.locked_board()[at];
                    match obs.board[at] {
                        EMPTY => '.',
                        BEDROCK => '#',
                        _ if locked == EMPTY => '@',
                        v => piece_name(v).chars().next().unwrap_or('?'),
                    }
                })
                .collect();
            lines.push(format!("|{line}|"));
        }
        lines.push(format!("+{}+", "-".repeat(width)));
        let p = self.placement();
        let queue: Vec<&str> = self
            .queue()
            .map(|i| PIECE_NAMES.get(i).copied().unwrap_or("?"))
            .collect();
        let holder = match self.holder() {
            Some(h) => piece_name(h.value()),
            None => "nothing",
        };
        lines.push(format!(
            "falling (@): {} at column {}, row {}; next: {}; holding: {holder}{}",
            piece_name(p.piece.value()),
            p.x as i64 - PADDING as i64,
            p.y,
            queue.join(" "),
            if self.has_swapped() {
                " (already swapped this piece)"
            } else {
                ""
            }
        ));
        lines.join("\n")
    }

    fn oracle(&self, control: Control) -> Option<Box<dyn Solver>> {
        Some(Box::new(super::oracle::PlacementSearch::new(control)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_text_picture_shows_the_falling_piece_and_the_panel() {
        let mut env = crate::make_default(ID).unwrap();
        env.reset(Some(1));
        let text = env.render_text();
        let first = text.lines().next().unwrap();
        assert_eq!(first, "|....@.....|");
        assert!(
            text.ends_with("falling (@): J at column 4, row 0; next: I O Z T; holding: nothing"),
            "{text}"
        );
        assert_eq!(env.reply_fields()["info"], json!({"lines_cleared": 0}));
        let Observation::Vector(v) = env.observation() else {
            panic!("a vector")
        };
        assert_eq!(v.len(), 2 * 24 * 18 + 16 + 64);
    }
}
