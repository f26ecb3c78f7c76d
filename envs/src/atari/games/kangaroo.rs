//! Kangaroo: BCD score at 0xA7-0xA8 times 100, lives in the low 3 bits of 0xAD (0xFF:
//! game over). Default mode 0 (0xBA reads 0 or 0x80), SELECT 2 frames at a time.

use super::{decimal_score, ram_at, Game, ModeSelect, Rules, FULL};

pub static GAME: Game = Game {
    id: "kangaroo",
    name: "Kangaroo",
    md5: "4326edb70ff20d0ee5ba58fa5cb09d60",
    minimal_actions: FULL,
    mode_select: Some(ModeSelect {
        noop_steps_first: 0,
        frames_per_press: 2,
        reached: |ram| ram_at(ram, 0xba) == 0 || ram_at(ram, 0xba) == 0x80,
    }),
    starting_actions: &[],
    new_rules: || Box::new(Kangaroo::new()),
};

#[derive(Clone)]
struct Kangaroo {
    reward: i32,
    score: i32,
    terminal: bool,
    lives: i32,
}

impl Kangaroo {
    fn new() -> Self {
        Kangaroo {
            reward: 0,
            score: 0,
            terminal: false,
            lives: 3,
        }
    }
}

impl Rules for Kangaroo {
    fn reset(&mut self) {
        *self = Kangaroo::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let score = decimal_score(ram, &[0xa8, 0xa7]) * 100;
        self.reward = score - self.score;
        self.score = score;
        let lives_byte = ram_at(ram, 0xad);
        self.terminal = lives_byte == 0xff;
        self.lives = (lives_byte & 0x7) + 1;
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
