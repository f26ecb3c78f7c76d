//! Pong (Video Olympics, paddles): reward is the change in player minus computer score
//! (14 and 13); the game ends at 21. No lives. Default mode 0 (0x96).

use super::{ram_at, Game, ModeSelect, Rules};
use crate::atari::actions::*;

pub static GAME: Game = Game {
    id: "pong",
    name: "Pong",
    md5: "60e0ea3cbe0913d39803477945e9e5ec",
    minimal_actions: &[NOOP, FIRE, RIGHT, LEFT, RIGHTFIRE, LEFTFIRE],
    mode_select: Some(ModeSelect {
        noop_steps_first: 0,
        frames_per_press: 2,
        reached: |ram| ram_at(ram, 0x96) == 0,
    }),
    starting_actions: &[],
    new_rules: || Box::new(Pong::new()),
};

#[derive(Clone)]
struct Pong {
    reward: i32,
    score: i32,
    terminal: bool,
}

impl Pong {
    fn new() -> Self {
        Pong {
            reward: 0,
            score: 0,
            terminal: false,
        }
    }
}

impl Rules for Pong {
    fn reset(&mut self) {
        *self = Pong::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let x = ram_at(ram, 13);
        let y = ram_at(ram, 14);
        let score = y - x;
        self.reward = score - self.score;
        self.score = score;
        self.terminal = x == 21 || y == 21;
    }

    fn reward(&self) -> i32 {
        self.reward
    }

    fn terminal(&self) -> bool {
        self.terminal
    }

    fn lives(&self) -> i32 {
        0
    }
}
