//! River Raid: six score digits stored as digit * 8 at 77, 79, ..., 87 (other values read
//! as 0); lives from 0xC0, where 0x58 is the start of an episode and 0x59 the last life;
//! game over when 0xC0 goes from 0x59 to 0x58.

use super::{ram_at, Game, Rules, FULL};

pub static GAME: Game = Game {
    id: "riverraid",
    name: "Riverraid",
    md5: "393948436d1f4cc3192410bb918f9724",
    minimal_actions: FULL,
    mode_select: None,
    starting_actions: &[],
    new_rules: || Box::new(Riverraid::new()),
};

#[derive(Clone)]
struct Riverraid {
    reward: i32,
    score: i32,
    terminal: bool,
    lives_byte: i32,
}

impl Riverraid {
    fn new() -> Self {
        Riverraid {
            reward: 0,
            score: 0,
            terminal: false,
            lives_byte: 0x58,
        }
    }
}

fn digit(value: i32) -> i32 {
    if value % 8 == 0 && (0..=72).contains(&value) {
        value / 8
    } else {
        0
    }
}

impl Rules for Riverraid {
    fn reset(&mut self) {
        *self = Riverraid::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let mut score = 0;
        let mut scale = 1;
        for addr in [87u8, 85, 83, 81, 79, 77] {
            score += scale * digit(ram_at(ram, addr));
            scale *= 10;
        }
        self.reward = score - self.score;
        self.score = score;
        let byte = ram_at(ram, 0xc0);
        self.terminal = byte == 0x58 && self.lives_byte == 0x59;
        self.lives_byte = byte;
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
        } else if self.lives_byte == 0x58 {
            4
        } else if self.lives_byte == 0x59 {
            1
        } else {
            self.lives_byte / 8 + 1
        }
    }
}
