//! Seaquest: score in BCD at 0xB8-0xBA, game over flag at 0xA3, lives at 0xBB.

use super::{decimal_score, ram_at, Game, Rules, FULL};

pub static GAME: Game = Game {
    id: "seaquest",
    name: "Seaquest",
    md5: "240bfbac5163af4df5ae713985386f92",
    minimal_actions: FULL,
    mode_select: None,
    starting_actions: &[],
    new_rules: || Box::new(Seaquest::new()),
};

#[derive(Clone)]
struct Seaquest {
    reward: i32,
    score: i32,
    terminal: bool,
    lives: i32,
}

impl Seaquest {
    fn new() -> Self {
        Seaquest {
            reward: 0,
            score: 0,
            terminal: false,
            lives: 4,
        }
    }
}

impl Rules for Seaquest {
    fn reset(&mut self) {
        *self = Seaquest::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let score = decimal_score(ram, &[0xba, 0xb9, 0xb8]);
        self.reward = score - self.score;
        self.score = score;
        self.terminal = ram_at(ram, 0xa3) != 0;
        self.lives = ram_at(ram, 0xbb) + 1;
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
