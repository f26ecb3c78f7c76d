//! Boxing: reward is the change in own minus opponent score (BCD 0x92, 0x93; 0xC0 means
//! a knockout, 100); the bout ends on a knockout or when the clock (0x90, 0x91) runs
//! out. No lives.

use super::{decimal_score, ram_at, Game, Rules, FULL};

pub static GAME: Game = Game {
    id: "boxing",
    name: "Boxing",
    md5: "c3ef5c4653212088eda54dc91d787870",
    minimal_actions: FULL,
    mode_select: None,
    starting_actions: &[],
    new_rules: || Box::new(Boxing::new()),
};

#[derive(Clone)]
struct Boxing {
    reward: i32,
    score: i32,
    terminal: bool,
}

impl Boxing {
    fn new() -> Self {
        Boxing {
            reward: 0,
            score: 0,
            terminal: false,
        }
    }
}

impl Rules for Boxing {
    fn reset(&mut self) {
        *self = Boxing::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let mut my_score = decimal_score(ram, &[0x92]);
        let mut oppt_score = decimal_score(ram, &[0x93]);
        if ram_at(ram, 0x92) == 0xc0 {
            my_score = 100;
        }
        if ram_at(ram, 0x93) == 0xc0 {
            oppt_score = 100;
        }
        let score = my_score - oppt_score;
        self.reward = score - self.score;
        self.score = score;
        if my_score == 100 || oppt_score == 100 {
            self.terminal = true;
        } else {
            let minutes = ram_at(ram, 0x90) >> 4;
            let clock = ram_at(ram, 0x91);
            let seconds = (clock & 0xf) + (clock >> 4) * 10;
            self.terminal = minutes == 0 && seconds == 0;
        }
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
