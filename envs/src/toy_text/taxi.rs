//! Taxi-v3 (= Taxi-v4 with default arguments): `docs/environments.md`, "Taxi".

use crate::core::env::{
    discrete_action, Action, ActionSpace, Env, Info, KeyBinding, Observation, Reset, Signals, Step,
    Words,
};
use crate::core::error::EnvError;
use crate::core::events::Events;
use crate::core::frame::Frame;
use crate::core::oracle::{Control, Solver};
use crate::rng::EnvRng;

use super::sprites;

const MAP: [&[u8; 11]; 7] = [
    b"+---------+",
    b"|R: | : :G|",
    b"| : | : : |",
    b"| : : : : |",
    b"| | : | : |",
    b"|Y| : |B: |",
    b"+---------+",
];

/// R, G, Y, B as (row, col).
pub const LOCATIONS: [(usize, usize); 4] = [(0, 0), (0, 4), (4, 0), (4, 3)];
pub const LOCATION_NAMES: [&str; 4] = ["R", "G", "Y", "B"];
/// The passenger index meaning "in the taxi".
pub const IN_TAXI: usize = 4;
const N_STATES: usize = 500;

pub const ACTION_NAMES: [&str; 6] = ["Down", "Up", "Right", "Left", "Pickup", "Dropoff"];

/// The milestone of a taxi carrying its passenger.
pub const PICKUP_EVENT: &str = "pickup passenger";

/// A decoded Taxi state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaxiState {
    pub row: usize,
    pub col: usize,
    pub passenger: usize,
    pub destination: usize,
}

impl TaxiState {
    pub fn encode(self) -> usize {
        ((self.row * 5 + self.col) * 5 + self.passenger) * 4 + self.destination
    }

    pub fn decode(s: usize) -> Self {
        Self {
            destination: s % 4,
            passenger: (s / 4) % 5,
            col: (s / 20) % 5,
            row: s / 100,
        }
    }

    fn at_location(self) -> Option<usize> {
        LOCATIONS.iter().position(|&l| l == (self.row, self.col))
    }
}

fn can_move_east(row: usize, col: usize) -> bool {
    MAP[1 + row][2 * col + 2] == b':'
}

fn can_move_west(row: usize, col: usize) -> bool {
    MAP[1 + row][2 * col] == b':'
}

/// The deterministic transition: (next state, reward, terminated).
fn transition(s: TaxiState, action: usize) -> (TaxiState, f64, bool) {
    let mut next = s;
    let mut reward = -1.0;
    let mut terminated = false;
    match action {
        0 => next.row = (s.row + 1).min(4),
        1 => next.row = s.row.saturating_sub(1),
        2 if can_move_east(s.row, s.col) => next.col = (s.col + 1).min(4),
        3 if can_move_west(s.row, s.col) => next.col = s.col.saturating_sub(1),
        4 => {
            if s.passenger < IN_TAXI && (s.row, s.col) == LOCATIONS[s.passenger] {
                next.passenger = IN_TAXI;
            } else {
                reward = -10.0;
            }
        }
        5 => {
            if (s.row, s.col) == LOCATIONS[s.destination] && s.passenger == IN_TAXI {
                next.passenger = s.destination;
                terminated = true;
                reward = 20.0;
            } else if let (Some(loc), IN_TAXI) = (s.at_location(), s.passenger) {
                next.passenger = loc;
            } else {
                reward = -10.0;
            }
        }
        _ => {}
    }
    (next, reward, terminated)
}

/// The reference's `action_mask` for a state.
pub fn action_mask(s: TaxiState) -> [u8; 6] {
    let taxi = (s.row, s.col);
    let mask = [
        s.row < 4,
        s.row > 0,
        s.col < 4 && can_move_east(s.row, s.col),
        s.col > 0 && can_move_west(s.row, s.col),
        s.passenger < IN_TAXI && taxi == LOCATIONS[s.passenger],
        s.passenger == IN_TAXI && LOCATIONS.contains(&taxi),
    ];
    mask.map(u8::from)
}

/// One entry of the transition table.
#[derive(Clone, Copy, Default)]
struct Move {
    next: u16,
    reward: i8,
    terminated: bool,
}

/// Every state's moves and action mask, worked out once as the reference builds its
/// table `P` in its constructor: a step is then two lookups.
struct Table {
    moves: [[Move; 6]; N_STATES],
    masks: [[u8; 6]; N_STATES],
}

fn table() -> &'static Table {
    static TABLE: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| Table {
        moves: std::array::from_fn(|s| {
            std::array::from_fn(|a| {
                let (next, reward, terminated) = transition(TaxiState::decode(s), a);
                Move {
                    next: next.encode() as u16,
                    reward: reward as i8,
                    terminated,
                }
            })
        }),
        masks: std::array::from_fn(|s| action_mask(TaxiState::decode(s))),
    })
}

#[derive(Clone, Debug)]
pub struct Taxi {
    id: &'static str,
    rng: EnvRng,
    state: usize,
    last_action: Option<usize>,
    /// The direction the taxi sprite faces: the last move (south at the start).
    facing: usize,
}

impl Taxi {
    pub fn new(id: &'static str) -> Self {
        Self {
            id,
            rng: EnvRng::default(),
            state: 0,
            last_action: None,
            facing: 0,
        }
    }

    pub fn decoded(&self) -> TaxiState {
        TaxiState::decode(self.state)
    }

    fn info(&self) -> Info {
        Info {
            prob: Some(1.0),
            action_mask: Some(table().masks[self.state]),
        }
    }
}

/// The running sums of the initial-state distribution, normalised as numpy does
/// (`isd / isd.sum()`) and summed in order as `categorical_sample` sums them; made once.
fn initial_cumulative() -> &'static [f64; N_STATES] {
    static CUMULATIVE: std::sync::OnceLock<[f64; N_STATES]> = std::sync::OnceLock::new();
    CUMULATIVE.get_or_init(|| {
        let weights: [f64; N_STATES] = std::array::from_fn(|s| {
            let t = TaxiState::decode(s);
            if t.passenger < IN_TAXI && t.passenger != t.destination {
                1.0
            } else {
                0.0
            }
        });
        let total: f64 = weights.iter().sum();
        let mut sum = 0.0;
        weights.map(|w| {
            sum += w / total;
            sum
        })
    })
}

impl Env for Taxi {
    fn id(&self) -> &str {
        self.id
    }

    fn action_space(&self) -> ActionSpace {
        ActionSpace::Discrete { n: 6 }
    }

    fn action_names(&self) -> Vec<String> {
        ACTION_NAMES.iter().map(|s| s.to_string()).collect()
    }

    fn keymap(&self) -> Vec<KeyBinding> {
        vec![
            KeyBinding::new("ArrowDown", 0),
            KeyBinding::new("ArrowUp", 1),
            KeyBinding::new("ArrowRight", 2),
            KeyBinding::new("ArrowLeft", 3),
            KeyBinding::new("p", 4),
            KeyBinding::new("d", 5),
        ]
    }

    fn reset(&mut self, seed: Option<u64>) -> Reset {
        self.state = self
            .rng
            .reset(seed)
            .categorical_sample_cumulative(initial_cumulative());
        self.last_action = None;
        self.facing = 0;
        Reset {
            obs: self.observation(),
            info: self.info(),
        }
    }

    fn step(&mut self, action: Action) -> Result<Step, EnvError> {
        let a = discrete_action(&action, 6)?;
        let Move {
            next,
            reward,
            terminated,
        } = table().moves[self.state][a];
        // The reference samples its one-entry transition list: one draw per step.
        self.rng.get().categorical_sample(&[1.0]);
        self.state = usize::from(next);
        let reward = f64::from(reward);
        self.last_action = Some(a);
        if a < 4 {
            self.facing = a;
        }
        Ok(Step {
            obs: self.observation(),
            reward,
            terminated,
            truncated: false,
            info: self.info(),
            signals: Signals {
                success: terminated && reward > 0.0,
                events: if TaxiState::decode(self.state).passenger == IN_TAXI {
                    Events::Fixed(&[PICKUP_EVENT])
                } else {
                    Events::NONE
                },
                ..Signals::default()
            },
        })
    }

    fn observation(&self) -> Observation {
        Observation::Int(self.state as i64)
    }

    fn frame_size(&self) -> (u32, u32) {
        (550, 350)
    }

    fn render(&self, frame: &mut Frame) {
        sprites::draw_taxi_world(frame, &MAP, self.decoded(), self.facing);
    }

    fn render_text(&self) -> String {
        let s = self.decoded();
        let mut rows: Vec<Vec<char>> = MAP
            .iter()
            .map(|r| r.iter().map(|&b| b as char).collect())
            .collect();
        let (r, c) = (s.row + 1, 2 * s.col + 1);
        rows[r][c] = if s.passenger == IN_TAXI { 'T' } else { 't' };
        let mut text: String = rows
            .iter()
            .map(|r| r.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join("\n");
        let passenger = if s.passenger == IN_TAXI {
            "in taxi".to_string()
        } else {
            format!("waiting at {}", LOCATION_NAMES[s.passenger])
        };
        text.push_str(&format!(
            "\ntaxi (t, T with passenger) at row {} col {}; passenger {passenger}; destination {}",
            s.row, s.col, LOCATION_NAMES[s.destination]
        ));
        if let Some(a) = self.last_action {
            text.push_str(&format!("; last action {}", ACTION_NAMES[a]));
        }
        text
    }

    fn clone_box(&self) -> Box<dyn Env> {
        Box::new(self.clone())
    }

    fn render_fps(&self) -> u32 {
        4
    }
    fn words(&self) -> Words {
        Words {
            goal: "Deliver the passenger to its destination",
            success: "passenger delivered",
            failure: "the episode ended",
        }
    }
    fn oracle(&self, control: Control) -> Option<Box<dyn Solver>> {
        super::oracle::solver(self, control)
    }

    fn distance_to_goal(&self) -> Option<u32> {
        super::oracle::distance_to_goal(self)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_decode_round_trip() {
        for s in 0..N_STATES {
            assert_eq!(TaxiState::decode(s).encode(), s);
        }
    }

    #[test]
    fn initial_weights_match_numpy() {
        let cumulative = initial_cumulative();
        let steps: Vec<f64> = cumulative
            .windows(2)
            .map(|w| w[1] - w[0])
            .filter(|&d| d > 0.0)
            .collect();
        assert_eq!(steps.len() + usize::from(cumulative[0] > 0.0), 300);
        assert!(steps.iter().all(|&d| (d - 1.0 / 300.0).abs() < 1e-15));
        assert_eq!(cumulative[N_STATES - 1], 0.9999999999999961);
    }

    #[test]
    fn walls_block_and_delivery_pays() {
        // Taxi at R (0,0) with the passenger aboard, destination G.
        let s = TaxiState {
            row: 0,
            col: 1,
            passenger: IN_TAXI,
            destination: 1,
        };
        let (n, r, _) = transition(s, 2); // wall east of (0,1)
        assert_eq!((n.col, r), (1, -1.0));
        let at_g = TaxiState {
            row: 0,
            col: 4,
            ..s
        };
        assert_eq!(
            transition(at_g, 5),
            (
                TaxiState {
                    passenger: 1,
                    ..at_g
                },
                20.0,
                true
            )
        );
        let at_r = TaxiState {
            row: 0,
            col: 0,
            ..s
        };
        assert_eq!(
            transition(at_r, 5),
            (
                TaxiState {
                    passenger: 0,
                    ..at_r
                },
                -1.0,
                false
            )
        );
        let empty_road = TaxiState {
            row: 2,
            col: 2,
            passenger: 0,
            destination: 1,
        };
        assert_eq!(transition(empty_road, 4).1, -10.0);
        assert_eq!(transition(empty_road, 5).1, -10.0);
    }

    #[test]
    fn each_step_draws_once() {
        let mut a = Taxi::new("Taxi-v3");
        let mut b = Taxi::new("Taxi-v3");
        a.reset(Some(5));
        b.reset(Some(5));
        a.step(Action::Index(0)).unwrap();
        b.rng.get().random();
        assert_eq!(a.rng.get().random(), b.rng.get().random());
    }
}
