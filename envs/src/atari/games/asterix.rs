//! Asterix: BCD score at 0xDE-0xE0, lives in the low nibble of 0xD3; the game ends when
//! the death counter (0xC7) reaches 1 on the last life. FIRE starts a game.

use super::{decimal_score, ram_at, Game, Rules};
use crate::atari::actions::*;

pub static GAME: Game = Game {
    id: "asterix",
    name: "Asterix",
    md5: "89a68746eff7f266bbf08de2483abe55",
    minimal_actions: &[
        NOOP, UP, RIGHT, LEFT, DOWN, UPRIGHT, UPLEFT, DOWNRIGHT, DOWNLEFT,
    ],
    mode_select: None,
    starting_actions: &[FIRE],
    new_rules: || Box::new(Asterix::new()),
};

#[derive(Clone)]
struct Asterix {
    reward: i32,
    score: i32,
    terminal: bool,
    lives: i32,
}

impl Asterix {
    fn new() -> Self {
        Asterix {
            reward: 0,
            score: 0,
            terminal: false,
            lives: 3,
        }
    }
}

impl Rules for Asterix {
    fn reset(&mut self) {
        *self = Asterix::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let score = decimal_score(ram, &[0xe0, 0xdf, 0xde]);
        self.reward = score - self.score;
        self.score = score;
        self.lives = ram_at(ram, 0xd3) & 0xf;
        let death_counter = ram_at(ram, 0xc7);
        self.terminal = death_counter == 0x01 && self.lives == 1;
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
