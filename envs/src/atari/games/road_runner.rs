//! Road Runner: four score digits (low nibbles of 0xC9-0xCC, 0xA read as 0) times 100;
//! lives in the low 3 bits of 0xC4; game over on the last life once the death
//! velocities (0xB9, 0xBD) are set.

use super::{ram_at, Game, Rules, FULL};

pub static GAME: Game = Game {
    id: "road_runner",
    name: "RoadRunner",
    md5: "ce5cc62608be2cd3ed8abd844efb8919",
    minimal_actions: FULL,
    mode_select: None,
    starting_actions: &[],
    new_rules: || Box::new(RoadRunner::new()),
};

#[derive(Clone)]
struct RoadRunner {
    reward: i32,
    score: i32,
    terminal: bool,
    lives: i32,
}

impl RoadRunner {
    fn new() -> Self {
        RoadRunner {
            reward: 0,
            score: 0,
            terminal: false,
            lives: 3,
        }
    }
}

impl Rules for RoadRunner {
    fn reset(&mut self) {
        *self = RoadRunner::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let mut score = 0;
        let mut mult = 1;
        for digit in 0..4u8 {
            let mut value = ram_at(ram, 0xc9 + digit) & 0xf;
            if value == 0xa {
                value = 0;
            }
            score += mult * value;
            mult *= 10;
        }
        score *= 100;
        self.reward = score - self.score;
        self.score = score;
        let lives_byte = ram_at(ram, 0xc4) & 0x7;
        let y_vel = ram_at(ram, 0xb9);
        let x_vel_death = ram_at(ram, 0xbd);
        self.terminal = lives_byte == 0 && (y_vel != 0 || x_vel_death != 0);
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
