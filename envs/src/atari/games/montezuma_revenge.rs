//! Montezuma's Revenge: BCD score at 0x93-0x95, lives in the low 3 bits of 0xBA; game
//! over with no lives left when 0xFE reads 0x60.

use super::{decimal_score, ram_at, Game, Rules, FULL};

pub static GAME: Game = Game {
    id: "montezuma_revenge",
    name: "MontezumaRevenge",
    md5: "3347a6dd59049b15a38394aa2dafa585",
    minimal_actions: FULL,
    mode_select: None,
    starting_actions: &[],
    new_rules: || Box::new(MontezumaRevenge::new()),
};

#[derive(Clone)]
struct MontezumaRevenge {
    reward: i32,
    score: i32,
    terminal: bool,
    lives: i32,
}

impl MontezumaRevenge {
    fn new() -> Self {
        MontezumaRevenge {
            reward: 0,
            score: 0,
            terminal: false,
            lives: 6,
        }
    }
}

impl Rules for MontezumaRevenge {
    fn reset(&mut self) {
        *self = MontezumaRevenge::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let score = decimal_score(ram, &[0x95, 0x94, 0x93]);
        self.reward = score - self.score;
        self.score = score;
        let new_lives = ram_at(ram, 0xba);
        let some_byte = ram_at(ram, 0xfe);
        self.terminal = new_lives == 0 && some_byte == 0x60;
        self.lives = (new_lives & 0x7) + 1;
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
