//! Berzerk: BCD score at 93-95, lives at 0xDA (0xFF: game over). The default mode is 1:
//! after 20 NOOP steps, SELECT is pressed (2 frames at a time) until 0x80 reads 1.

use super::{decimal_score, ram_at, Game, ModeSelect, Rules, FULL};

pub static GAME: Game = Game {
    id: "berzerk",
    name: "Berzerk",
    md5: "136f75c4dd02c29283752b7e5799f978",
    minimal_actions: FULL,
    mode_select: Some(ModeSelect {
        noop_steps_first: 20,
        frames_per_press: 2,
        reached: |ram| ram_at(ram, 0x80) == 1,
    }),
    starting_actions: &[],
    new_rules: || Box::new(Berzerk::new()),
};

#[derive(Clone)]
struct Berzerk {
    reward: i32,
    score: i32,
    terminal: bool,
    lives: i32,
}

impl Berzerk {
    fn new() -> Self {
        Berzerk {
            reward: 0,
            score: 0,
            terminal: false,
            lives: 3,
        }
    }
}

impl Rules for Berzerk {
    fn reset(&mut self) {
        *self = Berzerk::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let score = decimal_score(ram, &[95, 94, 93]);
        self.reward = score - self.score;
        self.score = score;
        let lives_byte = ram_at(ram, 0xda);
        self.terminal = lives_byte == 0xff;
        self.lives = lives_byte + 1;
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
