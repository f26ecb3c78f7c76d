//! Breakout (paddles): score digits in 0x4D and the low nibble of 0x4C; lives at 0x39.
//! The game counts as started once 5 lives show and ends when they reach 0. Default mode
//! 0 (0xB2).

use super::{ram_at, Game, ModeSelect, Rules};
use crate::atari::actions::*;

pub static GAME: Game = Game {
    id: "breakout",
    name: "Breakout",
    md5: "f34f08e5eb96e500e851a80be3277a56",
    minimal_actions: &[NOOP, FIRE, RIGHT, LEFT],
    mode_select: Some(ModeSelect {
        noop_steps_first: 0,
        frames_per_press: 1,
        reached: |ram| ram_at(ram, 0xb2) == 0,
    }),
    starting_actions: &[],
    new_rules: || Box::new(Breakout::new()),
};

#[derive(Clone)]
struct Breakout {
    reward: i32,
    score: i32,
    terminal: bool,
    started: bool,
    lives: i32,
}

impl Breakout {
    fn new() -> Self {
        Breakout {
            reward: 0,
            score: 0,
            terminal: false,
            started: false,
            lives: 5,
        }
    }
}

impl Rules for Breakout {
    fn reset(&mut self) {
        *self = Breakout::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let x = ram_at(ram, 77);
        let y = ram_at(ram, 76);
        let score = (x & 0x0f) + 10 * ((x & 0xf0) >> 4) + 100 * (y & 0x0f);
        self.reward = score - self.score;
        self.score = score;
        let lives_byte = ram_at(ram, 57);
        if !self.started && lives_byte == 5 {
            self.started = true;
        }
        self.terminal = self.started && lives_byte == 0;
        self.lives = lives_byte;
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
