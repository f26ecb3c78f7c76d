//! Fetch Reach and Pick-and-Place as VisGym environments (`fetch_reach/easy`, …): the
//! rules of [`Fetch`] behind [`VisGymEnv`], with the two views, the presets and keys
//! people play with, and the solver's settings. Easy and hard are the same environment;
//! the harness's budget (20 or 30 steps) is the task's (docs/fetch-reference.md §1.1).

use std::rc::Rc;

use serde_json::{json, Value};

use super::env::{Fetch, FetchError};
use super::host::PhysicsError;
use super::oracle::{solve, solve_pick_and_place, solve_reach};
use super::task::Task;
use super::view::{self, Scene};
use crate::core::action::ArgKind;
use crate::core::env::{KeyBinding, Words};
use crate::core::frame::Frame;
use crate::visgym::python::PyException;
use crate::visgym::signature::{FnSig, Payload};
use crate::visgym::solve_kwargs::SolveKwargs;
use crate::visgym::spaces::ArgSpace;
use crate::visgym::{RenderMode, StepResult, VisGymEnv};

/// The class a physics host failure is reported under (the reference has none: its
/// MuJoCo runs in process).
const PHYSICS_FAILURE: &str = "PhysicsHostError";

fn physics_exception(e: &PhysicsError) -> PyException {
    PyException::new(PHYSICS_FAILURE, e.to_string())
}

/// One Fetch environment under the VisGym interface.
#[derive(Clone)]
pub struct FetchPuzzle {
    env: Fetch,
    scene: Rc<Scene>,
    failure: Option<PyException>,
    /// [`FetchStep::feedback_in_info`](super::env::FetchStep::feedback_in_info) of the
    /// last step.
    feedback_in_info: bool,
}

impl FetchPuzzle {
    /// Builds the environment at the installed physics host (`seed`: the generator of
    /// resets without a seed).
    pub fn new(task: Task, seed: u64) -> Result<Self, PhysicsError> {
        let env = Fetch::new(task, seed)?;
        let scene = Scene::from_json(&super::host::describe(task.model())?.scene)
            .map_err(|e| PhysicsError(e.to_string()))?;
        Ok(FetchPuzzle {
            env,
            scene: Rc::new(scene),
            failure: None,
            feedback_in_info: true,
        })
    }

    /// The environment's rules and state.
    pub fn fetch(&self) -> &Fetch {
        &self.env
    }
}

/// `('move', [x, y, z])` with ints, as the prompt's examples and the solvers write it.
fn move_text(m: [i8; 3]) -> String {
    format!("('move', [{}, {}, {}])", m[0], m[1], m[2])
}

impl VisGymEnv for FetchPuzzle {
    fn reset(&mut self, seed: Option<u64>) {
        self.failure = self.env.reset(seed).err().map(|e| physics_exception(&e));
    }

    fn reset_failure(&self) -> Option<PyException> {
        self.failure.clone()
    }

    fn feedback_in_info(&self) -> bool {
        self.feedback_in_info
    }

    fn step(&mut self, action: &str) -> Result<StepResult, PyException> {
        match self.env.step(action) {
            Ok(s) => {
                self.feedback_in_info = s.feedback_in_info;
                Ok(s.result)
            }
            Err(FetchError::Raised(e)) => Err(e),
            Err(FetchError::Physics(e)) => Err(physics_exception(&e)),
        }
    }

    fn state_json(&self, at_reset: bool) -> Value {
        let mut v = self.env.state_json();
        if at_reset {
            v["initial_gripper_xpos"] = json!(self.env.initial_gripper_xpos());
            if self.env.task().has_object() {
                v["height_offset"] = json!(self.env.height_offset());
            }
            v["mujoco"] = json!(self.env.mujoco_version());
        }
        v
    }

    fn prompt(&self, mode: RenderMode) -> Option<String> {
        (mode == RenderMode::RgbArray).then(|| self.env.prompt())
    }

    fn text_frame(&self) -> Option<String> {
        None
    }

    fn frame_size(&self) -> (u32, u32) {
        (view::WIDTH, view::HEIGHT)
    }

    fn render(&self, frame: &mut Frame) {
        view::draw(
            &self.scene,
            self.env.kinematics(),
            &self.env.camera(),
            self.env.follow_lookat(),
            frame,
        );
    }

    /// The solver's plan; empty when the physics host fails.
    fn solve(&self) -> Vec<String> {
        solve(&self.env).unwrap_or_default()
    }

    fn solve_named(&self, name: &str) -> Option<Vec<String>> {
        (name == "oracle").then(|| self.solve())
    }

    fn clone_box(&self) -> Box<dyn VisGymEnv> {
        Box::new(self.clone())
    }

    fn functions(&self) -> Vec<(&'static str, ArgSpace)> {
        self.env.functions()
    }

    fn signatures(&self) -> Vec<FnSig> {
        let mut sigs = vec![FnSig::new(
            "move",
            "Move the gripper by up to 5 cm along each axis: x -1 left / 1 right, y -1 backward / 1 forward, z -1 down / 1 up",
            Payload::Value,
            &[(
                "delta",
                ArgKind::Floats {
                    len: 3,
                    min: -1.0,
                    max: 1.0,
                },
            )],
        )];
        if self.env.task().has_object() {
            sigs.push(FnSig::new(
                "gripper",
                "Open (0) or close (1) the gripper; it stays so until changed",
                Payload::Value,
                &[("close", ArgKind::Int { min: 0, max: 1 })],
            ));
        }
        sigs.push(FnSig::stop());
        sigs
    }

    /// Reach: `solve(num_steps=None, strategy=None)`, at most `max(num_steps, 10)` moves.
    /// Pick-and-Place: `solve(max_steps=1000, num_steps=None, strategy=None)`; the last two
    /// are not read.
    fn solve_kwargs(&self, kw: &mut SolveKwargs) -> Result<Vec<String>, String> {
        kw.ignored("strategy");
        let plan = match self.env.task() {
            Task::Reach => {
                let n = kw.count("num_steps")?.unwrap_or(10);
                solve_reach(&self.env, usize::try_from(n).unwrap_or(usize::MAX))
            }
            Task::PickAndPlace => {
                kw.ignored("num_steps");
                let n = kw.count("max_steps")?.unwrap_or(1000);
                solve_pick_and_place(&self.env, usize::try_from(n).unwrap_or(usize::MAX))
            }
        };
        plan.map_err(|e| e.to_string())
    }

    /// One 5 cm move each way along each axis, holding still, the gripper (Pick-and-Place)
    /// and stop.
    fn presets(&self) -> Vec<String> {
        let mut p: Vec<String> = [
            [1, 0, 0],
            [-1, 0, 0],
            [0, 1, 0],
            [0, -1, 0],
            [0, 0, 1],
            [0, 0, -1],
            [0, 0, 0],
        ]
        .into_iter()
        .map(move_text)
        .collect();
        if self.env.task().has_object() {
            p.push("('gripper', 0)".into());
            p.push("('gripper', 1)".into());
        }
        p.push("('stop', 'stop')".into());
        p
    }

    /// Arrows move along x and y, w/s up and down, space holds still, o/c open and close
    /// the gripper, Enter stops.
    fn keymap(&self) -> Vec<KeyBinding> {
        let stop = self.presets().len() - 1;
        let mut keys = vec![
            KeyBinding::new("ArrowRight", 0),
            KeyBinding::new("ArrowLeft", 1),
            KeyBinding::new("ArrowUp", 2),
            KeyBinding::new("ArrowDown", 3),
            KeyBinding::new("w", 4),
            KeyBinding::new("s", 5),
            KeyBinding::new(" ", 6),
        ];
        if self.env.task().has_object() {
            keys.push(KeyBinding::new("o", 7));
            keys.push(KeyBinding::new("c", 8));
        }
        keys.push(KeyBinding::new("Enter", stop));
        keys
    }

    fn words(&self) -> Words {
        match self.env.task() {
            Task::Reach => Words {
                goal: "Move the gripper to the red marker, then stop",
                success: "stopped within 10 cm of the marker",
                failure: "stopped farther than 10 cm from the marker",
            },
            Task::PickAndPlace => Words {
                goal: "Pick up the grey cube and bring it to the red marker, then stop",
                success: "stopped with the cube within 5 cm of the marker",
                failure: "stopped with the cube farther than 5 cm from the marker",
            },
        }
    }

    /// How much farther than the success distance the gripper (Reach) or the cube is
    /// from the goal, in metres.
    fn remaining(&self) -> f64 {
        (self.env.distance_to_goal() - self.env.task().distance_threshold()).max(0.0)
    }
}
