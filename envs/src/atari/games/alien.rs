//! Alien: five score digits at 0x83-0x8B (every other byte, digit * 8, 0x80 = blank)
//! times 10; lives in the low nibble of 0xC0, game over at zero. Default mode 0 (0x81);
//! the lives count is also read when the mode is set.

use super::{ram_at, Game, ModeSelect, Rules, FULL};

pub static GAME: Game = Game {
    id: "alien",
    name: "Alien",
    md5: "f1a0a23e6464d954e3a9579c4ccd01c8",
    minimal_actions: FULL,
    mode_select: Some(ModeSelect {
        noop_steps_first: 0,
        frames_per_press: 1,
        reached: |ram| ram_at(ram, 0x81) == 0,
    }),
    starting_actions: &[],
    new_rules: || Box::new(Alien::new()),
};

#[derive(Clone)]
struct Alien {
    reward: i32,
    score: i32,
    terminal: bool,
    lives: i32,
}

impl Alien {
    fn new() -> Self {
        Alien {
            reward: 0,
            score: 0,
            terminal: false,
            lives: 3,
        }
    }
}

fn digit(ram: &[u8; 128], addr: u8) -> i32 {
    let byte = ram_at(ram, addr);
    if byte == 0x80 {
        0
    } else {
        byte >> 3
    }
}

impl Rules for Alien {
    fn reset(&mut self) {
        *self = Alien::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let score = (digit(ram, 0x8b)
            + digit(ram, 0x89) * 10
            + digit(ram, 0x87) * 100
            + digit(ram, 0x85) * 1000
            + digit(ram, 0x83) * 10000)
            * 10;
        self.reward = score - self.score;
        self.score = score;
        let byte = ram_at(ram, 0xc0) & 15;
        self.terminal = byte <= 0;
        self.lives = byte;
    }

    fn reward(&self) -> i32 {
        self.reward
    }

    fn terminal(&self) -> bool {
        self.terminal
    }

    fn lives(&self) -> i32 {
        self.lives
    }

    fn after_mode_selected(&mut self, ram: &[u8; 128]) {
        self.lives = ram_at(ram, 0xc0) & 15;
    }
}
