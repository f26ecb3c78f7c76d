//! Freeway: BCD score at 103, reward clipped to 0..1 per frame, game over when 22 reads 1.
//! No lives. Default mode 0 (0x80).

use super::{decimal_score, ram_at, Game, ModeSelect, Rules};
use crate::atari::actions::*;

pub static GAME: Game = Game {
    id: "freeway",
    name: "Freeway",
    md5: "8e0ab801b1705a740b476b7f588c6d16",
    minimal_actions: &[NOOP, UP, DOWN],
    mode_select: Some(ModeSelect {
        noop_steps_first: 0,
        frames_per_press: 1,
        reached: |ram| ram_at(ram, 0x80) == 0,
    }),
    starting_actions: &[],
    new_rules: || Box::new(Freeway::new()),
};

#[derive(Clone)]
struct Freeway {
    reward: i32,
    score: i32,
    terminal: bool,
}

impl Freeway {
    fn new() -> Self {
        Freeway {
            reward: 0,
            score: 0,
            terminal: false,
        }
    }
}

impl Rules for Freeway {
    fn reset(&mut self) {
        *self = Freeway::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let score = decimal_score(ram, &[103]);
        self.reward = (score - self.score).clamp(0, 1);
        self.score = score;
        self.terminal = ram_at(ram, 22) == 1;
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
