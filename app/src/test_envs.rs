//! Environments that only tests play: a clocked one (no real-time environment is
//! registered yet) and a parametric one played with the pointer, so the pages' logic
//! for both is tested natively before such families arrive.

use envs::core::action::{call_text, ActionFn, ArgKind, ArgSpec, ArgValue};
use envs::core::clock::{Clock, ClockMode};
use envs::core::env::{
    Action, ActionSpace, Env, Info, KeyBinding, Observation, Reset, Signals, Step,
};
use envs::core::input::{Gesture, GridGeometry, PointerMode};
use envs::{EnvError, Frame};

/// A clocked toy: a dot on a line of 20 cells. Presets: 0 stay (the idle action),
/// 1 left, 2 right; it ends on cell 0 (a crash) or 19 (the goal).
#[derive(Clone, Debug)]
pub struct Runner {
    pub pos: i64,
    pub steps: u32,
    pub clock: Clock,
}

impl Runner {
    pub fn new(mode: ClockMode, tick_ms: u32) -> Self {
        Self {
            pos: 10,
            steps: 0,
            clock: Clock {
                mode,
                tick_ms,
                idle: 0,
            },
        }
    }
}

impl Env for Runner {
    fn id(&self) -> &str {
        "Runner-v0"
    }
    fn action_space(&self) -> ActionSpace {
        ActionSpace::Discrete { n: 3 }
    }
    fn action_names(&self) -> Vec<String> {
        ["stay", "left", "right"].map(String::from).to_vec()
    }
    fn keymap(&self) -> Vec<KeyBinding> {
        vec![
            KeyBinding::new("ArrowLeft", 1),
            KeyBinding::new("ArrowRight", 2),
        ]
    }
    fn clock(&self) -> Option<Clock> {
        Some(self.clock)
    }
    fn reset(&mut self, _seed: Option<u64>) -> Reset {
        self.pos = 10;
        self.steps = 0;
        Reset {
            obs: self.observation(),
            info: Info::default(),
        }
    }
    fn step(&mut self, action: Action) -> Result<Step, EnvError> {
        let a = envs::core::env::discrete_action(&action, 3)?;
        self.pos += [0, -1, 1][a];
        self.steps += 1;
        let terminated = self.pos <= 0 || self.pos >= 19;
        Ok(Step {
            obs: self.observation(),
            reward: if self.pos >= 19 { 1.0 } else { 0.0 },
            terminated,
            truncated: false,
            info: Info::default(),
            signals: Signals {
                success: self.pos >= 19,
                ..Signals::default()
            },
        })
    }
    fn observation(&self) -> Observation {
        Observation::Int(self.pos)
    }
    fn frame_size(&self) -> (u32, u32) {
        (20, 1)
    }
    fn render(&self, frame: &mut Frame) {
        *frame = Frame::new(20, 1);
        frame.set(self.pos.clamp(0, 19), 0, [255, 255, 255]);
    }
    fn render_text(&self) -> String {
        format!("pos {}", self.pos)
    }
    fn clone_box(&self) -> Box<dyn Env> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A parametric toy: a 3×3 board of lamps. `light(cell)` lights one, `swap(cell, cell)`
/// exchanges two, `order(permutation of 1-3)` relights the top row in that order and
/// `say(word)` does nothing; a click lights a cell, a drag swaps two. Presets: `light`
/// of the top-left cell. Success when every lamp is lit.
#[derive(Clone, Debug, Default)]
pub struct Picker {
    pub lit: [[bool; 3]; 3],
    pub steps: u32,
}

/// Cells of 20 pixels from (10, 10): a 80×80 frame.
pub const PICKER_GRID: GridGeometry = GridGeometry {
    left: 10.0,
    top: 10.0,
    cell_width: 20.0,
    cell_height: 20.0,
    rows: 3,
    cols: 3,
};

fn cell(v: &ArgValue) -> Option<(usize, usize)> {
    match v {
        ArgValue::List(l) if l.len() == 2 => Some((l[0] as usize, l[1] as usize)),
        _ => None,
    }
}

fn cell_value(r: u32, c: u32) -> ArgValue {
    ArgValue::List(vec![f64::from(r), f64::from(c)])
}

impl Env for Picker {
    fn id(&self) -> &str {
        "Picker-v0"
    }
    fn action_space(&self) -> ActionSpace {
        let arg = |name: &str, kind| ArgSpec {
            name: name.into(),
            kind,
        };
        let cell = || ArgKind::Cell { rows: 3, cols: 3 };
        let f = |name: &str, args, doc: &str| ActionFn {
            name: name.into(),
            args,
            doc: doc.into(),
        };
        ActionSpace::Parametric {
            functions: vec![
                f("light", vec![arg("at", cell())], "light a lamp"),
                f(
                    "swap",
                    vec![arg("a", cell()), arg("b", cell())],
                    "swap two lamps",
                ),
                f(
                    "order",
                    vec![arg("top", ArgKind::Permutation { n: 3, base: 1 })],
                    "relight the top row",
                ),
                f(
                    "say",
                    vec![arg("word", ArgKind::Word { max_len: 5 })],
                    "nothing",
                ),
            ],
        }
    }
    fn action_names(&self) -> Vec<String> {
        vec!["light((0, 0))".into()]
    }
    fn preset_action(&self, index: usize) -> Option<Action> {
        (index == 0).then(|| Action::call("light", vec![cell_value(0, 0)]))
    }
    fn keymap(&self) -> Vec<KeyBinding> {
        vec![KeyBinding::new("l", 0)]
    }
    fn pointer_mode(&self) -> Option<PointerMode> {
        Some(PointerMode::ClickOrDrag)
    }
    fn pointer_action(&self, gesture: Gesture) -> Option<Action> {
        match gesture {
            Gesture::Click { x, y } => {
                let (r, c) = PICKER_GRID.cell_at(x, y)?;
                Some(Action::call("light", vec![cell_value(r, c)]))
            }
            Gesture::Drag { from, to } => {
                let (a, b) = (
                    PICKER_GRID.cell_at(from.0, from.1)?,
                    PICKER_GRID.cell_at(to.0, to.1)?,
                );
                Some(Action::call(
                    "swap",
                    vec![cell_value(a.0, a.1), cell_value(b.0, b.1)],
                ))
            }
        }
    }
    fn reset(&mut self, _seed: Option<u64>) -> Reset {
        *self = Self::default();
        Reset {
            obs: self.observation(),
            info: Info::default(),
        }
    }
    fn step(&mut self, action: Action) -> Result<Step, EnvError> {
        let Action::Call(call) = action else {
            return Err(EnvError::InvalidAction(format!("{action:?} is not a call")));
        };
        let space = self.action_space();
        let f = space
            .function(&call.name)
            .ok_or_else(|| EnvError::InvalidAction(call.name.clone()))?;
        f.check(&call)
            .map_err(|e| EnvError::InvalidAction(e.to_string()))?;
        match call.name.as_str() {
            "light" => {
                if let Some((r, c)) = cell(&call.args[0]) {
                    self.lit[r][c] = true;
                }
            }
            "swap" => {
                if let (Some(a), Some(b)) = (cell(&call.args[0]), cell(&call.args[1])) {
                    let t = self.lit[a.0][a.1];
                    self.lit[a.0][a.1] = self.lit[b.0][b.1];
                    self.lit[b.0][b.1] = t;
                }
            }
            "order" => self.lit[0] = [true; 3],
            _ => {}
        }
        self.steps += 1;
        let done = self.lit.iter().flatten().all(|&l| l);
        Ok(Step {
            obs: self.observation(),
            reward: f64::from(u8::from(done)),
            terminated: done,
            truncated: false,
            info: Info::default(),
            signals: Signals {
                success: done,
                ..Signals::default()
            },
        })
    }
    fn observation(&self) -> Observation {
        let bits = self
            .lit
            .iter()
            .flatten()
            .enumerate()
            .map(|(i, &l)| i64::from(l) << i)
            .sum();
        Observation::Int(bits)
    }
    fn frame_size(&self) -> (u32, u32) {
        (80, 80)
    }
    fn render(&self, frame: &mut Frame) {
        *frame = Frame::new(80, 80);
        for (r, row) in self.lit.iter().enumerate() {
            for (c, &on) in row.iter().enumerate() {
                let (x, y) = PICKER_GRID.centre(r as u32, c as u32);
                if on {
                    frame.set(x as i64, y as i64, [255, 220, 0]);
                }
            }
        }
    }
    fn render_text(&self) -> String {
        let space = self.action_space();
        let probe = envs::Call {
            name: "light".into(),
            args: vec![cell_value(0, 0)],
        };
        format!("{:?} ({})", self.lit, call_text(&space, &probe))
    }
    fn clone_box(&self) -> Box<dyn Env> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_environments_keep_their_own_rules() {
        // Every call round-trips through the text form; gestures land on cells.
        let mut p = Picker::default();
        for text in [
            "light((1, 2))",
            "swap((0, 0), (2, 2))",
            "order([3, 1, 2])",
            "say('hi')",
        ] {
            let a = p.parse_action(text).unwrap();
            assert_eq!(p.action_text(&a), text);
            p.step(a).unwrap();
        }
        assert_eq!(p.steps, 4);
        let (x, y) = PICKER_GRID.centre(1, 1);
        assert_eq!(
            p.pointer_action(Gesture::Click { x, y }),
            Some(Action::call("light", vec![cell_value(1, 1)]))
        );
        assert_eq!(p.pointer_action(Gesture::Click { x: 0.0, y: 0.0 }), None);
        assert!(p.step(Action::Index(0)).is_err());
        assert_eq!(p.preset_action(0), p.parse_action("light((0, 0))").ok());
        // The runner's clock names its idle preset.
        let r = Runner::new(ClockMode::Fixed, 50);
        assert_eq!(r.clock().map(|c| c.idle), Some(0));
        assert_eq!(r.action_names()[0], "stay");
    }
}
