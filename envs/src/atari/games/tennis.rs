//! Tennis: the reward is the change in the point difference (0xC7 - 0xC8), or else in the
//! game difference (0xC5 - 0xC6); the match ends at six games with a two-game lead or at
//! seven. No lives. Default mode 0 (0x80), SELECT pressed 2 frames at a time.

use super::{ram_at, Game, ModeSelect, Rules, FULL};

pub static GAME: Game = Game {
    id: "tennis",
    name: "Tennis",
    md5: "42cdd6a9e42a3639e190722b8ea3fc51",
    minimal_actions: FULL,
    mode_select: Some(ModeSelect {
        noop_steps_first: 0,
        frames_per_press: 2,
        reached: |ram| ram_at(ram, 0x80) == 0,
    }),
    starting_actions: &[],
    new_rules: || Box::new(Tennis::new()),
};

#[derive(Clone)]
struct Tennis {
    reward: i32,
    prev_delta_points: i32,
    prev_delta_score: i32,
    terminal: bool,
}

impl Tennis {
    fn new() -> Self {
        Tennis {
            reward: 0,
            prev_delta_points: 0,
            prev_delta_score: 0,
            terminal: false,
        }
    }
}

impl Rules for Tennis {
    fn reset(&mut self) {
        *self = Tennis::new();
    }

    fn step(&mut self, ram: &[u8; 128]) {
        let my_score = ram_at(ram, 0xc5);
        let oppt_score = ram_at(ram, 0xc6);
        let my_points = ram_at(ram, 0xc7);
        let oppt_points = ram_at(ram, 0xc8);
        let delta_score = my_score - oppt_score;
        let delta_points = my_points - oppt_points;
        self.reward = if self.prev_delta_points != delta_points {
            delta_points - self.prev_delta_points
        } else if self.prev_delta_score != delta_score {
            delta_score - self.prev_delta_score
        } else {
            0
        };
        self.prev_delta_points = delta_points;
        self.prev_delta_score = delta_score;
        self.terminal = (my_points >= 6 && delta_points >= 2)
            || (oppt_points >= 6 && -delta_points >= 2)
            || (my_points == 7 || oppt_points == 7);
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
