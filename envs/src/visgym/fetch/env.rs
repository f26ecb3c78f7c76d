//! VisGym's Fetch Reach and Pick-and-Place (docs/fetch-reference.md): the reference's
//! rules, random draws and call order in Rust, MuJoCo through the physics host
//! ([`host`](super::host)). Every `_get_obs` of the reference is reproduced, because
//! each one moves the goal marker and runs `mj_forward` (§2.3, step 7), and the first
//! observation after a step reads positions from before that forward (§2.5).

use std::rc::Rc;

use serde_json::{json, Value};

use super::host::{self, Description, Op, PhysicsError, Reading, SimState};
use super::task::Task;
use crate::rng::NpRandom;
use crate::visgym::action::{resolve, Resolved, StepResult, EXECUTED};
use crate::visgym::numpy_array::{discover, leaf_to_f64};
use crate::visgym::python::{PyException, PyValue};
use crate::visgym::spaces::ArgSpace;

/// One env step is this many MuJoCo steps (`n_substeps`).
pub const SUBSTEPS: u32 = 20;
/// The model's `timestep` (both MJCF files).
const TIMESTEP: f64 = 0.002;
/// The mocap's target moves by at most this far per axis and step (`pos_ctrl *= 0.05`,
/// in float32).
const MOVE_SCALE: f32 = 0.05;
/// Added to the gripper's quaternion as the mocap's target rotation.
const QUAT_DELTA: [f64; 4] = [1.0, 0.0, 1.0, 0.0];
/// `gripper_extra_height`.
const GRIPPER_EXTRA_HEIGHT: f64 = 0.2;
/// `obj_range`, `target_range`.
const RANGE: f64 = 0.15;
/// The front camera before any jitter (`DEFAULT_CAMERA_CONFIG`) and the jitter's
/// centres and spans with the evaluation settings (§1.2, §1.3).
const DEFAULT_CAMERA: Camera = Camera {
    azimuth: 132.0,
    elevation: -14.0,
    distance: 2.5,
    lookat: [1.3, 0.75, 0.55],
};
const JITTER_AZIMUTH: f64 = 10.0;
const JITTER_ELEVATION: f64 = 10.0;
const JITTER_DISTANCE: f64 = 0.1;
const CAMERA_DISTANCE: f64 = 1.75;
/// The follow view looks at the grip site plus this.
const FOLLOW_LOOKAT_OFFSET: [f64; 3] = [0.0, 0.0, -0.01];

/// A MuJoCo free camera (degrees, metres).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    pub azimuth: f64,
    pub elevation: f64,
    pub distance: f64,
    pub lookat: [f64; 3],
}

impl Camera {
    fn to_json(self) -> Value {
        json!({
            "azimuth": self.azimuth,
            "elevation": self.elevation,
            "distance": self.distance,
            "lookat": self.lookat,
        })
    }
}

/// What `_get_obs` returns besides the image.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Obs {
    /// `observation`: 10 values (Reach) or 25 (Pick-and-Place).
    pub observation: Vec<f64>,
    /// The grip site (Reach) or the cube's centre.
    pub achieved_goal: [f64; 3],
}

/// Model indices the rules use.
#[derive(Clone, Debug)]
struct Ids {
    grip_site: usize,
    object_site: Option<usize>,
    target_site: usize,
    /// `(mocap id, welded body)` of each weld, in equality order.
    welds: Vec<(usize, usize)>,
    /// The `qpos` address of each actuator's joint.
    actuator_qpos: Vec<usize>,
    fingers: [usize; 2],
    /// `qpos` and `qvel` addresses of the joints named `robot…`, in joint order.
    robot_joints: Vec<(usize, usize)>,
    object_qpos: Option<usize>,
}

impl Ids {
    fn new(task: Task, d: &Description) -> Result<Self, PhysicsError> {
        let mut welds = Vec::new();
        for e in 0..d.eq_type.len() {
            if d.eq_type[e] != d.weld {
                continue;
            }
            let (b1, b2) = (d.eq_obj1id[e] as usize, d.eq_obj2id[e] as usize);
            let mocap = |b: usize| d.body_mocapid.get(b).copied().unwrap_or(-1);
            let pair = if mocap(b1) >= 0 {
                (mocap(b1) as usize, b2)
            } else if mocap(b2) >= 0 {
                (mocap(b2) as usize, b1)
            } else {
                return Err(PhysicsError("a weld without a mocap body".into()));
            };
            welds.push(pair);
        }
        let mut robot: Vec<_> = d
            .joints
            .iter()
            .filter(|(n, _)| n.starts_with("robot"))
            .map(|(_, j)| (j.id, j.qposadr, j.dofadr))
            .collect();
        robot.sort_unstable();
        let actuator_qpos = (0..d.nu)
            .map(|i| {
                let jid = d.actuator_trnid[2 * i] as usize;
                d.joints
                    .values()
                    .find(|j| j.id == jid)
                    .map(|j| j.qposadr)
                    .ok_or_else(|| PhysicsError(format!("actuator {i} drives no joint")))
            })
            .collect::<Result<_, _>>()?;
        Ok(Ids {
            grip_site: d.site("robot0:grip")?,
            object_site: if task.has_object() {
                Some(d.site("object0")?)
            } else {
                None
            },
            target_site: d.site("target0")?,
            welds,
            actuator_qpos,
            fingers: [
                d.joint("robot0:l_gripper_finger_joint")?.qposadr,
                d.joint("robot0:r_gripper_finger_joint")?.qposadr,
            ],
            robot_joints: robot.into_iter().map(|(_, q, v)| (q, v)).collect(),
            object_qpos: if task.has_object() {
                Some(d.joint("object0:joint")?.qposadr)
            } else {
                None
            },
        })
    }
}

/// Positions after the last `mj_forward`, which the next step's mocap target and the
/// views read.
#[derive(Clone, Debug, Default)]
pub struct Kinematics {
    pub xpos: Vec<f64>,
    pub xquat: Vec<f64>,
    pub site_xpos: Vec<f64>,
    pub geom_xpos: Vec<f64>,
    pub geom_xmat: Vec<f64>,
}

const KINEMATICS: &[&str] = &["xpos", "xquat", "site_xpos", "geom_xpos", "geom_xmat"];
const OBS_FIELDS: &[&str] = &["site_xpos", "site_xmat", "qpos", "qvel"];

/// The oracle's memory in Pick-and-Place (§7.2).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct OracleMemory {
    pub stage: u32,
    pub prev_opening: Option<f64>,
    pub wait: u32,
    pub stable: u32,
}

/// One Fetch environment.
#[derive(Clone, Debug)]
pub struct Fetch {
    task: Task,
    desc: Rc<Description>,
    ids: Ids,
    /// The state after construction's warm-up, which every reset restores.
    initial: SimState,
    initial_gripper_xpos: [f64; 3],
    height_offset: f64,
    pub(super) sim: SimState,
    kin: Kinematics,
    rng: NpRandom,
    goal: Option<[f64; 3]>,
    camera: Camera,
    pub(super) gripper_bias: f64,
    obs: Obs,
    distance_to_goal: f64,
    is_success: bool,
    env_feedback: Option<String>,
    pub(super) oracle: OracleMemory,
}

fn norm(v: &[f64]) -> f64 {
    // numpy's norm of a vector: sqrt(dot(x, x)), summed in order.
    v.iter().fold(0.0, |s, x| s + x * x).sqrt()
}

fn sub3(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// `rotations.mat2euler` of a row-major 3 × 3 matrix.
fn mat2euler(m: &[f64; 9]) -> [f64; 3] {
    let at = |r: usize, c: usize| m[r * 3 + c];
    let cy = (at(2, 2) * at(2, 2) + at(1, 2) * at(1, 2)).sqrt();
    let eps4 = f64::EPSILON * 4.0;
    if cy > eps4 {
        [
            -libm::atan2(at(1, 2), at(2, 2)),
            -libm::atan2(-at(0, 2), cy),
            -libm::atan2(at(0, 1), at(0, 0)),
        ]
    } else {
        [
            0.0,
            -libm::atan2(-at(0, 2), cy),
            -libm::atan2(-at(1, 0), at(1, 1)),
        ]
    }
}

/// `jac @ qvel` for a 3 × nv Jacobian, each row summed in order.
fn jac_times(jac: &[f64], qvel: &[f64]) -> [f64; 3] {
    let nv = qvel.len();
    let mut out = [0.0; 3];
    for (r, o) in out.iter_mut().enumerate() {
        *o = jac[r * nv..(r + 1) * nv]
            .iter()
            .zip(qvel)
            .fold(0.0, |s, (a, b)| s + a * b);
    }
    out
}

impl Fetch {
    /// Builds the environment as the reference's constructor does (§3.1): the model's
    /// starting joints, the welds reset, the gripper moved into place and 200 steps of
    /// warm-up, all at the physics host. `seed` seeds the generator a reset without a
    /// seed continues (the reference seeds it from the operating system).
    pub fn new(task: Task, seed: u64) -> Result<Self, PhysicsError> {
        let desc = host::describe(task.model())?;
        let ids = Ids::new(task, &desc)?;
        let mut qpos = desc.state.qpos.clone();
        for (name, values) in task.initial_qpos() {
            let adr = desc.joint(name)?.qposadr;
            qpos[adr..adr + values.len()].copy_from_slice(&values);
        }
        let mut eq_data = desc.state.eq_data.clone();
        for (e, t) in desc.eq_type.iter().enumerate() {
            if *t == desc.weld {
                eq_data[e * 11..e * 11 + 7].copy_from_slice(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
            }
        }
        let (reads, state) = host::run(
            task.model(),
            None,
            &[
                Op::Set("qpos", json!(qpos)),
                Op::Set("eq_data", json!(eq_data)),
                Op::Forward,
                Op::Forward,
                Op::Read(&["site_xpos"]),
            ],
        )?;
        let grip = reads[0].vec3("site_xpos", ids.grip_site)?;
        let offset = [-0.498, 0.005, -0.431 + GRIPPER_EXTRA_HEIGHT];
        let target = [
            offset[0] + grip[0],
            offset[1] + grip[1],
            offset[2] + grip[2],
        ];
        let mut mocap_pos = state.mocap_pos.clone();
        let mut mocap_quat = state.mocap_quat.clone();
        for &(m, _) in &ids.welds {
            mocap_pos[m * 3..m * 3 + 3].copy_from_slice(&target);
            mocap_quat[m * 4..m * 4 + 4].copy_from_slice(&[1.0, 0.0, 1.0, 0.0]);
        }
        let (reads, initial) = host::run(
            task.model(),
            Some(&state),
            &[
                Op::Set("mocap_pos", json!(mocap_pos)),
                Op::Set("mocap_quat", json!(mocap_quat)),
                Op::Step(10 * SUBSTEPS),
                Op::Read(&["site_xpos"]),
            ],
        )?;
        let initial_gripper_xpos = reads[0].vec3("site_xpos", ids.grip_site)?;
        let height_offset = match ids.object_site {
            Some(s) => reads[0].vec3("site_xpos", s)?[2],
            None => 0.0,
        };
        Ok(Fetch {
            task,
            ids,
            sim: initial.clone(),
            initial,
            initial_gripper_xpos,
            height_offset,
            desc,
            kin: Kinematics::default(),
            rng: NpRandom::seeded(u128::from(seed)),
            goal: None,
            camera: DEFAULT_CAMERA,
            gripper_bias: 0.0,
            obs: Obs::default(),
            distance_to_goal: 0.0,
            is_success: false,
            env_feedback: None,
            oracle: OracleMemory::default(),
        })
    }

    /// MuJoCo's `mjDSBL_WARMSTART` bit.
    pub(super) fn warmstart_bit(&self) -> i64 {
        self.desc.warmstart_bit
    }

    pub fn task(&self) -> Task {
        self.task
    }

    /// The grip site after construction's warm-up, around which goals are drawn.
    pub fn initial_gripper_xpos(&self) -> [f64; 3] {
        self.initial_gripper_xpos
    }

    /// The cube's height after the warm-up (Pick-and-Place; 0 for Reach).
    pub fn height_offset(&self) -> f64 {
        self.height_offset
    }

    /// MuJoCo's version at the physics host.
    pub fn mujoco_version(&self) -> &str {
        &self.desc.version
    }

    /// The goal (none before the first reset).
    pub fn goal(&self) -> Option<[f64; 3]> {
        self.goal
    }

    /// The front view's free camera.
    pub fn camera(&self) -> Camera {
        self.camera
    }

    /// The follow view's look-at point (the grip site, 1 cm lower).
    pub fn follow_lookat(&self) -> [f64; 3] {
        let g = self.site(self.ids.grip_site);
        [
            g[0] + FOLLOW_LOOKAT_OFFSET[0],
            g[1] + FOLLOW_LOOKAT_OFFSET[1],
            g[2] + FOLLOW_LOOKAT_OFFSET[2],
        ]
    }

    /// Positions after the last `mj_forward`.
    pub fn kinematics(&self) -> &Kinematics {
        &self.kin
    }

    /// The last observation `reset` or `step` returned.
    pub fn obs(&self) -> &Obs {
        &self.obs
    }

    pub fn is_success(&self) -> bool {
        self.is_success
    }

    /// The distance `info` reported (from positions after the step's last forward).
    pub fn distance_to_goal(&self) -> f64 {
        self.distance_to_goal
    }

    /// The reference's `env_feedback` (it survives resets).
    pub fn env_feedback(&self) -> Option<&str> {
        self.env_feedback.as_deref()
    }

    pub fn state(&self) -> &SimState {
        &self.sim
    }

    fn site(&self, id: usize) -> [f64; 3] {
        let s = &self.kin.site_xpos;
        match s.get(id * 3..id * 3 + 3) {
            Some(v) => [v[0], v[1], v[2]],
            None => [0.0; 3],
        }
    }

    /// `reset(seed=…)` (§3.2): the saved state, the cube placed, the goal drawn, one
    /// observation, then the front camera jittered.
    pub fn reset(&mut self, seed: Option<u64>) -> Result<(), PhysicsError> {
        if let Some(s) = seed {
            self.rng = NpRandom::seeded(u128::from(s));
        }
        // `mj_resetData`, then the saved time, qpos and qvel; the model keeps its
        // changed fields.
        let mut st = self.desc.state.clone();
        st.time = self.initial.time;
        st.qpos.clone_from(&self.initial.qpos);
        st.qvel.clone_from(&self.initial.qvel);
        st.eq_data.clone_from(&self.sim.eq_data);
        st.site_pos.clone_from(&self.sim.site_pos);
        st.disableflags = self.sim.disableflags;
        if let Some(adr) = self.ids.object_qpos {
            let start = [self.initial_gripper_xpos[0], self.initial_gripper_xpos[1]];
            let mut xy = start;
            while norm(&[xy[0] - start[0], xy[1] - start[1]]) < 0.1 {
                xy = [
                    start[0] + self.rng.uniform(-RANGE, RANGE),
                    start[1] + self.rng.uniform(-RANGE, RANGE),
                ];
            }
            st.qpos[adr..adr + 2].copy_from_slice(&xy);
        }
        let base = self.initial_gripper_xpos;
        let mut goal = [
            base[0] + self.rng.uniform(-RANGE, RANGE),
            base[1] + self.rng.uniform(-RANGE, RANGE),
            base[2] + self.rng.uniform(-RANGE, RANGE),
        ];
        if self.task.has_object() {
            for g in &mut goal {
                *g += 0.0;
            }
            goal[2] = self.height_offset;
            if self.rng.uniform(0.0, 1.0) < 0.5 {
                goal[2] += self.rng.uniform(0.0, 0.45);
            }
        }
        self.goal = Some(goal);
        let mut ops = vec![Op::Forward];
        self.push_obs(&mut ops, goal);
        ops.push(Op::Read(KINEMATICS));
        let (reads, state) = host::run(self.task.model(), Some(&st), &ops)?;
        self.sim = state;
        let mut reads = reads.into_iter();
        self.obs = self.take_obs(&mut reads)?;
        self.kin = take_kinematics(&mut reads)?;
        self.oracle = OracleMemory::default();
        self.gripper_bias = 0.0;
        self.is_success = false;
        self.distance_to_goal = norm(&sub3(self.obs.achieved_goal, goal));
        let j = self.task.jitter_lookat();
        let azimuth = DEFAULT_CAMERA.azimuth + self.rng.uniform(-JITTER_AZIMUTH, JITTER_AZIMUTH);
        let elevation =
            DEFAULT_CAMERA.elevation + self.rng.uniform(-JITTER_ELEVATION, JITTER_ELEVATION);
        let distance = CAMERA_DISTANCE + self.rng.uniform(-JITTER_DISTANCE, JITTER_DISTANCE);
        let noise = [
            self.rng.uniform(-j, j),
            self.rng.uniform(-j, j),
            self.rng.uniform(-j, j),
        ];
        let l = DEFAULT_CAMERA.lookat;
        self.camera = Camera {
            azimuth,
            elevation,
            distance,
            lookat: [l[0] + noise[0], l[1] + noise[1], l[2] + noise[2]],
        };
        Ok(())
    }

    /// The operations of one `_get_obs`: read what the observation is made of, then
    /// the render callback (goal marker, `mj_forward`).
    fn push_obs(&self, ops: &mut Vec<Op>, goal: [f64; 3]) {
        ops.push(Op::Read(OBS_FIELDS));
        ops.push(Op::SiteJacobian(self.ids.grip_site));
        if let Some(o) = self.ids.object_site {
            ops.push(Op::SiteJacobian(o));
        }
        ops.push(Op::ShiftSite {
            site: self.ids.target_site,
            reference: 0,
            point: goal,
        });
        ops.push(Op::Forward);
    }

    /// The observation from the reads [`push_obs`](Self::push_obs) asked for
    /// (`generate_mujoco_observations`).
    fn take_obs(&self, reads: &mut impl Iterator<Item = Reading>) -> Result<Obs, PhysicsError> {
        let missing = || PhysicsError("the physics host returned too few reads".into());
        let r = reads.next().ok_or_else(missing)?;
        let grip_jac = reads.next().ok_or_else(missing)?;
        let qpos = r.values("qpos")?;
        let qvel = r.values("qvel")?;
        let dt = f64::from(SUBSTEPS) * TIMESTEP;
        let grip_pos = r.vec3("site_xpos", self.ids.grip_site)?;
        let grip_velp = jac_times(&grip_jac.values("jacp")?, &qvel).map(|v| v * dt);
        let robot = &self.ids.robot_joints;
        let last2 = &robot[robot.len().saturating_sub(2)..];
        let gripper_state: Vec<f64> = last2.iter().map(|&(q, _)| qpos[q]).collect();
        let gripper_vel: Vec<f64> = last2.iter().map(|&(_, v)| qvel[v] * dt).collect();
        let mut o = grip_pos.to_vec();
        let achieved_goal = match self.ids.object_site {
            Some(site) => {
                let obj_jac = reads.next().ok_or_else(missing)?;
                let object_pos = r.vec3("site_xpos", site)?;
                let object_rot = mat2euler(&r.mat3("site_xmat", site)?);
                let velp = jac_times(&obj_jac.values("jacp")?, &qvel).map(|v| v * dt);
                let object_velr = jac_times(&obj_jac.values("jacr")?, &qvel).map(|v| v * dt);
                let rel = sub3(object_pos, grip_pos);
                let object_velp = sub3(velp, grip_velp);
                o.extend(object_pos);
                o.extend(rel);
                o.extend(&gripper_state);
                o.extend(object_rot);
                o.extend(object_velp);
                o.extend(object_velr);
                object_pos
            }
            None => {
                o.extend(&gripper_state);
                grip_pos
            }
        };
        o.extend(grip_velp);
        o.extend(&gripper_vel);
        Ok(Obs {
            observation: o,
            achieved_goal,
        })
    }

    /// `step(action)` (§2): validation as every VisGym environment, then the action's
    /// physics, and two observations (the returned one and `_get_info`'s).
    pub fn step(&mut self, action: &str) -> Result<FetchStep, FetchError> {
        let functions = self.functions();
        let goal = self.goal.unwrap_or_default();
        let mut feedback = None;
        let mut terminated = false;
        // `Some(a)`: the continuous action to execute.
        let mut execute = None;
        // Early returns of the reference leave `env_feedback` out of `info`.
        let mut in_info = true;
        match resolve(action, &functions).map_err(FetchError::Raised)? {
            Resolved::Rejected(text) => {
                in_info = !(text.starts_with("Cannot parse action string")
                    || text.starts_with("The action format is invalid."));
                feedback = Some(text);
            }
            Resolved::Call { index, payload } => match functions[index].0 {
                "move" => execute = Some(move_action(&payload, self.bias())?),
                "gripper" => {
                    if payload.as_int().and_then(|i| i.as_i64()) == Some(0) || is_false(&payload) {
                        self.gripper_bias = 1.0;
                    } else {
                        self.gripper_bias = -1.0;
                    }
                    execute = Some([0.0, 0.0, 0.0, self.gripper_bias as f32]);
                }
                _ => terminated = true,
            },
        }
        let mut ops = Vec::new();
        if let Some(a) = execute {
            self.push_action(&mut ops, a);
        }
        self.push_obs(&mut ops, goal);
        self.push_obs(&mut ops, goal);
        ops.push(Op::Read(KINEMATICS));
        let (reads, state) = host::run(self.task.model(), Some(&self.sim), &ops)?;
        self.sim = state;
        let mut reads = reads.into_iter();
        let obs = self.take_obs(&mut reads)?;
        let info_obs = self.take_obs(&mut reads)?;
        self.kin = take_kinematics(&mut reads)?;
        let threshold = self.task.distance_threshold();
        self.is_success = norm(&sub3(obs.achieved_goal, goal)) < threshold;
        self.distance_to_goal = norm(&sub3(info_obs.achieved_goal, goal));
        self.obs = obs;
        let feedback = feedback.unwrap_or_else(|| EXECUTED.to_string());
        self.env_feedback = Some(feedback.clone());
        let reward = if terminated && self.is_success {
            1.0
        } else {
            0.0
        };
        Ok(FetchStep {
            result: StepResult {
                feedback,
                reward,
                terminated,
                truncated: false,
            },
            feedback_in_info: in_info,
        })
    }

    fn bias(&self) -> f32 {
        match self.task {
            Task::Reach => 0.0,
            Task::PickAndPlace => self.gripper_bias as f32,
        }
    }

    /// The action functions and their argument spaces (§2.2).
    pub fn functions(&self) -> Vec<(&'static str, ArgSpace)> {
        self.task
            .function_names()
            .iter()
            .map(|&n| {
                let space = match n {
                    "move" => ArgSpace::Box {
                        low: -1.0,
                        high: 1.0,
                        shape: vec![3],
                    },
                    "gripper" => ArgSpace::discrete(2),
                    _ => ArgSpace::text4(),
                };
                (n, space)
            })
            .collect()
    }

    /// `_set_action`, the substeps and `_step_callback` of one executed action.
    pub(super) fn push_action(&self, ops: &mut Vec<Op>, a: [f32; 4]) {
        let pos: [f64; 3] = [0, 1, 2].map(|k| f64::from(a[k] * MOVE_SCALE));
        // Reach blocks the gripper; its model has no actuators anyway.
        let g = if self.task.has_object() {
            f64::from(a[3])
        } else {
            0.0
        };
        if !self.ids.actuator_qpos.is_empty() {
            let ctrl: Vec<f64> = self
                .ids
                .actuator_qpos
                .iter()
                .map(|&q| self.sim.qpos[q] + g)
                .collect();
            ops.push(Op::Set("ctrl", json!(ctrl)));
        }
        let mut mocap_pos = self.sim.mocap_pos.clone();
        let mut mocap_quat = self.sim.mocap_quat.clone();
        for &(m, b) in &self.ids.welds {
            for k in 0..3 {
                mocap_pos[m * 3 + k] = self.kin.xpos[b * 3 + k] + pos[k];
            }
            for k in 0..4 {
                mocap_quat[m * 4 + k] = self.kin.xquat[b * 4 + k] + QUAT_DELTA[k];
            }
        }
        ops.push(Op::Set("mocap_pos", json!(mocap_pos)));
        ops.push(Op::Set("mocap_quat", json!(mocap_quat)));
        ops.push(Op::Step(SUBSTEPS));
        if !self.task.has_object() {
            for &q in &self.ids.fingers {
                ops.push(Op::SetAt("qpos", q, vec![0.0]));
            }
            ops.push(Op::Forward);
        }
    }

    /// Runs `ops` (built from this state) and keeps the state; the reads are returned.
    pub(super) fn run(&mut self, ops: &[Op]) -> Result<Vec<Reading>, PhysicsError> {
        let (reads, state) = host::run(self.task.model(), Some(&self.sim), ops)?;
        self.sim = state;
        Ok(reads)
    }

    /// Reads one observation and the kinematics from `reads` (after
    /// [`push_obs`](Self::push_obs) and a [`KINEMATICS`] read).
    pub(super) fn observe(&mut self) -> Result<Obs, PhysicsError> {
        let goal = self.goal.unwrap_or_default();
        let mut ops = Vec::new();
        self.push_obs(&mut ops, goal);
        ops.push(Op::Read(KINEMATICS));
        let mut reads = self.run(&ops)?.into_iter();
        let obs = self.take_obs(&mut reads)?;
        self.kin = take_kinematics(&mut reads)?;
        Ok(obs)
    }

    /// Executes one action's physics without observing (Reach's solver) and keeps the
    /// kinematics.
    pub(super) fn act(&mut self, a: [f32; 4]) -> Result<(), PhysicsError> {
        let mut ops = Vec::new();
        self.push_action(&mut ops, a);
        ops.push(Op::Read(KINEMATICS));
        let mut reads = self.run(&ops)?.into_iter();
        self.kin = take_kinematics(&mut reads)?;
        Ok(())
    }

    /// The state fields of the driver and of the goldens (docs/fetch.md, "State").
    pub fn state_json(&self) -> Value {
        json!({
            "time": self.sim.time,
            "qpos": self.sim.qpos,
            "qvel": self.sim.qvel,
            "ctrl": self.sim.ctrl,
            "mocap_pos": self.sim.mocap_pos,
            "mocap_quat": self.sim.mocap_quat,
            "goal": self.goal,
            "observation": self.obs.observation,
            "achieved_goal": self.obs.achieved_goal,
            "is_success": self.is_success,
            "distance_to_goal": self.distance_to_goal,
            "camera": self.camera.to_json(),
            "follow_lookat": self.follow_lookat(),
            "gripper_bias": if self.task.has_object() { json!(self.gripper_bias) } else { Value::Null },
        })
    }

    /// `get_prompt()`: the instructions, and the last feedback when there is one.
    pub fn prompt(&self) -> String {
        let mut p = super::prompt::instructions(self.task).to_string();
        if let Some(f) = self.env_feedback.as_deref().filter(|f| !f.is_empty()) {
            p.push_str("\n\nFeedback: ");
            p.push_str(f);
        }
        p
    }
}

/// What a step reports.
#[derive(Clone, Debug, PartialEq)]
pub struct FetchStep {
    pub result: StepResult,
    /// Whether `info` carries `env_feedback`: not after an action that does not parse
    /// or is not a pair (the reference returns early, §2.5), so the harness then sends
    /// no feedback line.
    pub feedback_in_info: bool,
}

/// How a step can fail: the reference raises for this action, or the physics host
/// failed.
#[derive(Clone, Debug, PartialEq)]
pub enum FetchError {
    Raised(PyException),
    Physics(PhysicsError),
}

impl From<PhysicsError> for FetchError {
    fn from(e: PhysicsError) -> Self {
        FetchError::Physics(e)
    }
}

impl From<PyException> for FetchError {
    fn from(e: PyException) -> Self {
        FetchError::Raised(e)
    }
}

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FetchError::Raised(e) => write!(f, "the reference raises {}: {}", e.class, e.message),
            FetchError::Physics(e) => e.fmt(f),
        }
    }
}

fn is_false(v: &PyValue) -> bool {
    matches!(v, PyValue::Bool(false))
}

/// `_map_action_to_continuous` of a `move` the space accepted: `float()` of each
/// element, then a float32 array with the gripper bias.
fn move_action(payload: &PyValue, bias: f32) -> Result<[f32; 4], PyException> {
    let d = discover(payload)?;
    let mut a = [0.0f32; 4];
    for (k, leaf) in d.leaves.iter().take(3).enumerate() {
        a[k] = leaf_to_f64(leaf)?.unwrap_or(f64::NAN) as f32;
    }
    a[3] = bias;
    Ok(a)
}

fn take_kinematics(reads: &mut impl Iterator<Item = Reading>) -> Result<Kinematics, PhysicsError> {
    let r = reads
        .next()
        .ok_or_else(|| PhysicsError("the physics host returned too few reads".into()))?;
    Ok(Kinematics {
        xpos: r.values("xpos")?,
        xquat: r.values("xquat")?,
        site_xpos: r.values("site_xpos")?,
        geom_xpos: r.values("geom_xpos")?,
        geom_xmat: r.values("geom_xmat")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mat2euler_matches_the_reference_formula() {
        let id = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
        assert_eq!(mat2euler(&id).map(|v| v + 0.0), [0.0, 0.0, 0.0]);
        // A quarter turn about z: yaw -pi/2 in this convention's signs.
        let rz = [0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];
        let e = mat2euler(&rz);
        assert!((e[2] - std::f64::consts::FRAC_PI_2).abs() < 1e-15, "{e:?}");
    }

    #[test]
    fn moves_scale_in_float32() {
        let a = move_action(
            &PyValue::List(vec![
                PyValue::int(1),
                PyValue::Float(-0.5),
                PyValue::str("1"),
            ]),
            -1.0,
        )
        .unwrap();
        assert_eq!(a, [1.0, -0.5, 1.0, -1.0]);
        assert_eq!(f64::from(a[0] * MOVE_SCALE), 0.05000000074505806);
    }
}
