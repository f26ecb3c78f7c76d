//! Ms. Pac-Man: BCD score at 0xF8-0xFA, lives in 0xFB, game over on the last life when
//! the death timer (0xA7) reads 0x53. The default mode is the standard game: SELECT
//! (10 frames at a time) until 0x99 and 0xA1 both read 1.

use super::{decimal_score, ram_at, Game, ModeSelect, Rules};
use crate::atari::actions::*;

pub static GAME: Game = Game {
    id: "ms_pacman",
    name: "MsPacman",
    md5: "87e79cd41ce136fd4f72cc6e2c161bee",
    minimal_actions: &[
        NOOP, UP, RIGHT, LEFT, DOWN, UPRIGHT, UPLEFT, DOWNRIGHT, DOWNLEFT,
    ],
    mode_select: Some(ModeSelect {
        noop_steps_first: 0,
        frames_per_press: 10,
        reached: |ram| ram_at(ram, 0x99) == 1 && ram_at(ram, 0xa1) == 1,
    }),
    starting_actions: &[],
    new_rules: || Box::new(MsPacman::new()),
};

#[derive(Clone)]
struct MsPacman {
    reward: i32,
    score: i32,
    terminal: bool,
    lives: i32,
}

impl MsPacman {
    fn new() -> Self {
        MsPacman {
            reward: 0,
            score: 0,
            terminal: false,
            lives: 3,
        }
    }
}

impl Rules for MsPacman {
    fn reset(&mut self) {
        *self = MsPacman::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let score = decimal_score(ram, &[0xf8, 0xf9, 0xfa]);
        self.reward = score - self.score;
        self.score = score;
        let lives_byte = ram_at(ram, 0xfb) & 0xf;
        let death_timer = ram_at(ram, 0xa7);
        self.terminal = lives_byte == 0 && death_timer == 0x53;
        self.lives = (lives_byte & 0x7) + 1;
    }

    fn reward(&self) -> i32 {
        self.reward
    }

    fn terminal(&self) -> bool {
        self.terminal
    }

    fn lives(&self) -> i32 {
        if self.terminal {
            0
        } else {
            self.lives
        }
    }
}
