//! Enduro: the score counts cars passed per day (BCD 0xAB-0xAC counts down from 200 on
//! day 1, 300 later; the day at 0xAD); the race ends when 0xAF reads 0xFF. FIRE starts
//! the race. No lives.

use super::{decimal_score, ram_at, Game, Rules};
use crate::atari::actions::*;

pub static GAME: Game = Game {
    id: "enduro",
    name: "Enduro",
    md5: "94b92a882f6dbaa6993a46e2dcc58402",
    minimal_actions: &[
        NOOP, FIRE, RIGHT, LEFT, DOWN, DOWNRIGHT, DOWNLEFT, RIGHTFIRE, LEFTFIRE,
    ],
    mode_select: None,
    starting_actions: &[FIRE],
    new_rules: || Box::new(Enduro::new()),
};

#[derive(Clone)]
struct Enduro {
    reward: i32,
    score: i32,
    terminal: bool,
}

impl Enduro {
    fn new() -> Self {
        Enduro {
            reward: 0,
            score: 0,
            terminal: false,
        }
    }
}

impl Rules for Enduro {
    fn reset(&mut self) {
        *self = Enduro::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let mut score = 0;
        let level = ram_at(ram, 0xad);
        if level != 0 {
            let mut cars_passed = decimal_score(ram, &[0xab, 0xac]);
            if level == 1 {
                cars_passed = 200 - cars_passed;
            } else if level >= 2 {
                cars_passed = 300 - cars_passed;
            }
            if level >= 2 {
                score = 200 + (level - 2) * 300;
            }
            score += cars_passed;
        }
        self.reward = score - self.score;
        self.score = score;
        self.terminal = ram_at(ram, 0xaf) == 0xff;
    }

    fn reward(&self) -> i32 {
        self.reward
    }

    fn terminal(&self) -> bool {
        self.terminal
    }

    fn lives(&self) -> i32 {
        0
    }
}
