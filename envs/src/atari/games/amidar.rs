//! Amidar: BCD score at 0xD9-0xDB, lives in the low nibble of 0xD6 (0x80: game over).

use super::{decimal_score, ram_at, Game, Rules};
use crate::atari::actions::*;

pub static GAME: Game = Game {
    id: "amidar",
    name: "Amidar",
    md5: "acb7750b4d0c4bd34969802a7deb2990",
    minimal_actions: &[
        NOOP, FIRE, UP, RIGHT, LEFT, DOWN, UPFIRE, RIGHTFIRE, LEFTFIRE, DOWNFIRE,
    ],
    mode_select: None,
    starting_actions: &[],
    new_rules: || Box::new(Amidar::new()),
};

#[derive(Clone)]
struct Amidar {
    reward: i32,
    score: i32,
    terminal: bool,
    lives: i32,
}

impl Amidar {
    fn new() -> Self {
        Amidar {
            reward: 0,
            score: 0,
            terminal: false,
            lives: 3,
        }
    }
}

impl Rules for Amidar {
    fn reset(&mut self) {
        *self = Amidar::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let score = decimal_score(ram, &[0xd9, 0xda, 0xdb]);
        self.reward = score - self.score;
        self.score = score;
        let lives_byte = ram_at(ram, 0xd6);
        self.terminal = lives_byte == 0x80;
        self.lives = lives_byte & 0xf;
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
