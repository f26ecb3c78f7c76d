//! One MiniGrid environment: a [`Level`] (how the grid is generated, and any rule on
//! top of the base step) over the shared [`World`].

use serde_json::json;

use super::grid::{encode_cell, VIEW};
use super::object::ObjKind;
use super::render::{render_full, render_view, Drawn};
use super::world::{GenError, Outcome, World};
use std::cell::RefCell;
use std::collections::BTreeSet;

use super::grid::Pos;
use super::object::DoorState;
use crate::core::env::{
    discrete_action, Action, ActionSpace, Env, GridObservation, Info, KeyBinding, Observation,
    RenderCaps, RenderOptions, Reset, Signals, Step, Words,
};
use crate::core::error::EnvError;
use crate::core::frame::Frame;
use crate::core::oracle::{Control, Solver};

pub const ACTION_NAMES: [&str; 7] = [
    "turn left",
    "turn right",
    "move forward",
    "pickup",
    "drop",
    "toggle",
    "done",
];

const TILE: u32 = 32;
const TOGGLE: usize = 5;

/// How a family generates its grid and steps.
pub trait Level: Clone + 'static {
    /// Grid width and height.
    fn size(&self) -> (usize, usize);
    fn max_steps(&self) -> u32;
    fn see_through_walls(&self) -> bool {
        false
    }
    /// Dynamic-Obstacles offers only turn left, turn right and move forward.
    fn num_actions(&self) -> usize {
        7
    }
    /// Builds the grid, places the agent and sets the mission, drawing from `w.rng`.
    fn generate(&mut self, w: &mut World) -> Result<(), GenError>;
    /// One step; the default is the reference base step.
    fn step(&mut self, w: &mut World, action: usize) -> Outcome {
        w.base_step(action)
    }
}

#[derive(Clone)]
pub struct MiniGrid<L: Level> {
    id: &'static str,
    level: L,
    world: World,
    /// Set when generation failed: the reference would have raised during reset.
    error: Option<String>,
    /// Doors seen open since the reset: opening one of the others is a milestone.
    seen_open: BTreeSet<Pos>,
    /// What the last full-grid render drew (render takes `&self`).
    drawn: RefCell<Drawn>,
}

impl<L: Level> MiniGrid<L> {
    pub fn new(id: &'static str, level: L) -> Self {
        let (w, h) = level.size();
        let world = World::new(w, h, level.max_steps(), level.see_through_walls());
        Self {
            id,
            level,
            world,
            error: None,
            seen_open: BTreeSet::new(),
            drawn: RefCell::default(),
        }
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    fn open_doors(&self) -> impl Iterator<Item = (Pos, &super::object::Obj)> {
        self.world
            .grid
            .cells()
            .filter(|(_, o)| o.kind == ObjKind::Door(DoorState::Open))
    }

    /// The milestones after a step: what the agent carries, and doors opened for the
    /// first time since the reset.
    fn events(&mut self, action: usize) -> Vec<String> {
        let mut events = Vec::new();
        if let Some(c) = &self.world.carrying {
            events.push(format!("pickup {} {}", c.color.name(), c.type_name()));
        }
        if action == TOGGLE {
            let opened: Vec<(Pos, String)> = self
                .open_doors()
                .filter(|(pos, _)| !self.seen_open.contains(pos))
                .map(|(pos, o)| (pos, format!("open {} door", o.color.name())))
                .collect();
            for (pos, event) in opened {
                self.seen_open.insert(pos);
                events.push(event);
            }
        }
        events
    }
}

impl<L: Level> Env for MiniGrid<L> {
    fn id(&self) -> &str {
        self.id
    }

    fn action_space(&self) -> ActionSpace {
        ActionSpace::Discrete {
            n: self.level.num_actions(),
        }
    }

    fn action_names(&self) -> Vec<String> {
        ACTION_NAMES[..self.level.num_actions()]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    fn keymap(&self) -> Vec<KeyBinding> {
        let keys = vec![
            KeyBinding::new("ArrowLeft", 0),
            KeyBinding::new("ArrowRight", 1),
            KeyBinding::new("ArrowUp", 2),
            KeyBinding::new("p", 3),
            KeyBinding::new("d", 4),
            KeyBinding::new(" ", 5),
            KeyBinding::new("Enter", 6),
        ];
        keys.into_iter()
            .filter(|k| k.action < self.level.num_actions())
            .collect()
    }

    fn reset(&mut self, seed: Option<u64>) -> Reset {
        self.world.rng.reset(seed);
        let (w, h) = self.level.size();
        self.world.grid = super::grid::Grid::new(w, h);
        self.world.agent_pos = (-1, -1);
        self.world.agent_dir = -1;
        self.error = self.level.generate(&mut self.world).err().map(|e| e.0);
        self.world.carrying = None;
        self.world.step_count = 0;
        self.seen_open = self.open_doors().map(|(pos, _)| pos).collect();
        Reset {
            obs: self.observation(),
            info: Info::default(),
        }
    }

    fn step(&mut self, action: Action) -> Result<Step, EnvError> {
        let a = discrete_action(&action, self.level.num_actions())?;
        if let Some(e) = &self.error {
            return Err(EnvError::InvalidAction(format!(
                "the level failed to generate: {e}"
            )));
        }
        let out = self.level.step(&mut self.world, a);
        let events = self.events(a);
        Ok(Step {
            obs: self.observation(),
            reward: out.reward,
            terminated: out.terminated,
            truncated: out.truncated,
            info: Info::default(),
            signals: Signals {
                success: out.terminated && out.reward > 0.0,
                events: events.into(),
                ..Signals::default()
            },
        })
    }

    fn observation(&self) -> Observation {
        if self.world.agent_dir < 0 {
            return Observation::Grid(GridObservation {
                image: vec![[0, 0, 0]; VIEW * VIEW],
                direction: self.world.agent_dir,
                mission: self.world.mission.clone(),
            });
        }
        Observation::Grid(GridObservation {
            image: self.world.view().encode(),
            direction: self.world.agent_dir,
            mission: self.world.mission.clone(),
        })
    }

    fn frame_size(&self) -> (u32, u32) {
        let (w, h) = self.level.size();
        (w as u32 * TILE, h as u32 * TILE)
    }

    fn render(&self, frame: &mut Frame) {
        self.render_with(
            frame,
            RenderOptions {
                highlight: true,
                ..RenderOptions::default()
            },
        );
    }

    fn render_with(&self, frame: &mut Frame, options: RenderOptions) -> bool {
        let tile = if options.tile_size == 0 {
            TILE
        } else {
            options.tile_size.clamp(4, 96)
        };
        let w = &self.world;
        let placed = w.agent_dir >= 0;
        if options.agent_view && placed {
            render_view(frame, &w.view(), tile);
            return true;
        }
        let view = (options.highlight && placed).then(|| w.view());
        render_full(
            frame,
            &w.grid,
            (w.agent_pos, w.agent_dir),
            view.as_ref(),
            tile,
            &mut self.drawn.borrow_mut(),
        );
        true
    }

    fn snapshot(&self) -> Option<serde_json::Value> {
        let w = &self.world;
        let (gw, gh) = (w.grid.width, w.grid.height);
        let flat = w.grid.encode();
        let grid: Vec<Vec<[u8; 3]>> = (0..gw)
            .map(|x| flat[x * gh..(x + 1) * gh].to_vec())
            .collect();
        let Observation::Grid(obs) = self.observation() else {
            return None;
        };
        let img: Vec<Vec<[u8; 3]>> = (0..VIEW)
            .map(|i| obs.image[i * VIEW..(i + 1) * VIEW].to_vec())
            .collect();
        let carrying = w.carrying.as_ref().map(|c| {
            let e = encode_cell(Some(c));
            json!([e[0], e[1], e[2]])
        });
        Some(json!({
            "agent_pos": [w.agent_pos.0, w.agent_pos.1],
            "agent_dir": w.agent_dir,
            "carrying": carrying,
            "step_count": w.step_count,
            "grid": grid,
            "img": img,
            "mission": w.mission,
        }))
    }

    fn render_text(&self) -> String {
        let w = &self.world;
        let mut out = String::new();
        for y in 0..w.grid.height as i64 {
            for x in 0..w.grid.width as i64 {
                if (x, y) == w.agent_pos {
                    let c = [">>", "VV", "<<", "^^"][w.agent_dir.rem_euclid(4) as usize];
                    out.push_str(c);
                    continue;
                }
                match w.grid.get((x, y)) {
                    None => out.push_str("  "),
                    Some(o) => {
                        let initial = o
                            .color
                            .name()
                            .chars()
                            .next()
                            .unwrap_or(' ')
                            .to_ascii_uppercase();
                        let code = match o.kind {
                            ObjKind::Wall => 'W',
                            ObjKind::Floor => 'F',
                            ObjKind::Door(super::object::DoorState::Open) => {
                                out.push_str("__");
                                continue;
                            }
                            ObjKind::Door(super::object::DoorState::Locked) => 'L',
                            ObjKind::Door(_) => 'D',
                            ObjKind::Key => 'K',
                            ObjKind::Ball => 'A',
                            ObjKind::Box(_) => 'B',
                            ObjKind::Goal => 'G',
                            ObjKind::Lava => 'V',
                        };
                        out.push(code);
                        out.push(initial);
                    }
                }
            }
            out.push('\n');
        }
        out.push_str(&format!("mission: {}", w.mission));
        if let Some(c) = &w.carrying {
            out.push_str(&format!(
                "; carrying a {} {}",
                c.color.name(),
                c.type_name()
            ));
        }
        out
    }

    fn clone_box(&self) -> Box<dyn Env> {
        Box::new(self.clone())
    }

    fn render_caps(&self) -> RenderCaps {
        RenderCaps {
            highlight: true,
            agent_view: true,
            tile_size: true,
        }
    }

    fn render_fps(&self) -> u32 {
        10
    }

    fn words(&self) -> Words {
        Words {
            goal: "Complete the mission",
            ..Words::default()
        }
    }

    fn mission(&self) -> Option<String> {
        Some(self.world.mission.clone())
    }

    fn own_step_limit(&self) -> Option<u32> {
        Some(self.level.max_steps())
    }

    fn status_note(&self) -> Option<String> {
        self.world
            .carrying
            .as_ref()
            .map(|c| format!("carrying a {} {}", c.color.name(), c.type_name()))
    }

    fn ending_note(&self) -> Option<String> {
        let under = self.world.grid.get(self.world.agent_pos)?;
        (under.kind == ObjKind::Lava).then(|| "stepped into lava".to_string())
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn world_any(&self) -> Option<&dyn std::any::Any> {
        Some(&self.world)
    }

    fn oracle(&self, control: Control) -> Option<Box<dyn Solver>> {
        super::oracle::solver(self.id, control)
    }

    fn distance_to_goal(&self) -> Option<u32> {
        super::oracle::distance_to_goal(self.id, &self.world)
    }
}
