//! Q*bert: lives counted down from 0x88 (2 -> 1 -> 0 -> 0xFE game over); BCD score at
//! 0xD9-0xDB, no reward on the terminal frame (the game resets itself then).

use super::{decimal_score, ram_at, Game, Rules};
use crate::atari::actions::*;

pub static GAME: Game = Game {
    id: "qbert",
    name: "Qbert",
    md5: "484b0076816a104875e00467d431c2d2",
    minimal_actions: &[NOOP, FIRE, UP, RIGHT, LEFT, DOWN],
    mode_select: None,
    starting_actions: &[],
    new_rules: || Box::new(Qbert::new()),
};

#[derive(Clone)]
struct Qbert {
    reward: i32,
    score: i32,
    terminal: bool,
    last_lives: i32,
    lives: i32,
}

impl Qbert {
    fn new() -> Self {
        Qbert {
            reward: 0,
            score: 0,
            terminal: false,
            last_lives: 2,
            lives: 4,
        }
    }
}

impl Rules for Qbert {
    fn reset(&mut self) {
        *self = Qbert::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let lives_value = ram_at(ram, 0x88);
        self.terminal = lives_value == 0xfe || (lives_value == 0x02 && self.last_lives == -1);
        let lives_signed = lives_value as u8 as i8 as i32;
        if self.last_lives - 1 == lives_signed {
            self.lives -= 1;
        }
        self.last_lives = lives_signed;
        if !self.terminal {
            let score = decimal_score(ram, &[0xdb, 0xda, 0xd9]);
            self.reward = score - self.score;
            self.score = score;
        } else {
            self.reward = 0;
        }
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
