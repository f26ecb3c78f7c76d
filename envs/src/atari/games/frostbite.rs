//! Frostbite: BCD score at 0xC8-0xCA, lives in the low nibble of 0xCC, game over when no
//! lives are left and bit 7 of 0xF1 is set. Default mode 0 (mode number at 0x80).

use super::{decimal_score, ram_at, Game, ModeSelect, Rules, FULL};

pub static GAME: Game = Game {
    id: "frostbite",
    name: "Frostbite",
    md5: "4ca73eb959299471788f0b685c3ba0b5",
    minimal_actions: FULL,
    mode_select: Some(ModeSelect {
        noop_steps_first: 0,
        frames_per_press: 1,
        reached: |ram| ram_at(ram, 0x80) == 0,
    }),
    starting_actions: &[],
    new_rules: || Box::new(Frostbite::new()),
};

#[derive(Clone)]
struct Frostbite {
    reward: i32,
    score: i32,
    terminal: bool,
    lives: i32,
}

impl Frostbite {
    fn new() -> Self {
        Frostbite {
            reward: 0,
            score: 0,
            terminal: false,
            lives: 4,
        }
    }
}

impl Rules for Frostbite {
    fn reset(&mut self) {
        *self = Frostbite::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let score = decimal_score(ram, &[0xca, 0xc9, 0xc8]);
        self.reward = score - self.score;
        self.score = score;
        let lives_byte = ram_at(ram, 0xcc) & 0xf;
        let flag = ram_at(ram, 0xf1) & 0x80;
        self.terminal = lives_byte == 0 && flag != 0;
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
