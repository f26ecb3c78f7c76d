//! Battlezone: score digits in 0x9D (high nibble) and 0x9E, 0xA read as 0, times 1000;
//! lives in the low nibble of 0xBA, game over at zero. Default mode 1 (0xA1), SELECT
//! pressed 2 frames at a time.

use super::{ram_at, Game, ModeSelect, Rules, FULL};

pub static GAME: Game = Game {
    id: "battle_zone",
    name: "BattleZone",
    md5: "41f252a66c6301f1e8ab3612c19bc5d4",
    minimal_actions: FULL,
    mode_select: Some(ModeSelect {
        noop_steps_first: 0,
        frames_per_press: 2,
        reached: |ram| ram_at(ram, 0xa1) == 1,
    }),
    starting_actions: &[],
    new_rules: || Box::new(BattleZone::new()),
};

#[derive(Clone)]
struct BattleZone {
    reward: i32,
    score: i32,
    terminal: bool,
    lives: i32,
}

impl BattleZone {
    fn new() -> Self {
        BattleZone {
            reward: 0,
            score: 0,
            terminal: false,
            lives: 5,
        }
    }
}

impl Rules for BattleZone {
    fn reset(&mut self) {
        *self = BattleZone::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let first = ram_at(ram, 0x9d);
        let first_right = first & 15;
        let mut first_left = (first - first_right) >> 4;
        if first_left == 10 {
            first_left = 0;
        }
        let second = ram_at(ram, 0x9e);
        let mut second_right = second & 15;
        let mut second_left = (second - second_right) >> 4;
        if second_right == 10 {
            second_right = 0;
        }
        if second_left == 10 {
            second_left = 0;
        }
        let score = (first_left + 10 * second_right + 100 * second_left) * 1000;
        self.reward = score - self.score;
        self.score = score;
        self.lives = ram_at(ram, 0xba) & 0xf;
        self.terminal = self.lives == 0;
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
