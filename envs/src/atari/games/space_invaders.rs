//! Space Invaders: BCD score at 0xE6/0xE8 (wrapping at 10000), lives at 0xC9, game over
//! on bit 7 of 0x98 or no lives. Default mode 0 (0xDC).

use super::{decimal_score, ram_at, Game, ModeSelect, Rules};
use crate::atari::actions::*;

pub static GAME: Game = Game {
    id: "space_invaders",
    name: "SpaceInvaders",
    md5: "72ffbef6504b75e69ee1045af9075f66",
    minimal_actions: &[NOOP, FIRE, RIGHT, LEFT, RIGHTFIRE, LEFTFIRE],
    mode_select: Some(ModeSelect {
        noop_steps_first: 0,
        frames_per_press: 2,
        reached: |ram| ram_at(ram, 0xdc) == 0,
    }),
    starting_actions: &[],
    new_rules: || Box::new(SpaceInvaders::new()),
};

#[derive(Clone)]
struct SpaceInvaders {
    reward: i32,
    score: i32,
    terminal: bool,
    lives: i32,
}

impl SpaceInvaders {
    fn new() -> Self {
        SpaceInvaders {
            reward: 0,
            score: 0,
            terminal: false,
            lives: 3,
        }
    }
}

impl Rules for SpaceInvaders {
    fn reset(&mut self) {
        *self = SpaceInvaders::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let score = decimal_score(ram, &[0xe8, 0xe6]);
        self.reward = score - self.score;
        if self.reward < 0 {
            // The score wrapped past its maximum.
            self.reward = (10_000 - self.score) + score;
        }
        self.score = score;
        self.lives = ram_at(ram, 0xc9);
        self.terminal = ram_at(ram, 0x98) & 0x80 != 0 || self.lives == 0;
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
