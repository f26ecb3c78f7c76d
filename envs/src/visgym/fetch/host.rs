//! The physics host the Fetch environments run MuJoCo through (docs/fetch.md, "Physics
//! host"): MuJoCo's WebAssembly module behind one JSON request/response call, which the
//! front end installs (the app calls `mujoco_host.mjs` in the page, the command line a
//! Node process running the same file). The environments keep every rule here in Rust;
//! the host only simulates. Requests carry the whole state ([`SimState`]), so an
//! environment is copied by copying its state and the host keeps nothing per episode.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// Something that answers the host's requests: `mujoco_host.mjs`'s `exchange`.
pub trait PhysicsHost {
    /// One request (JSON text) to its response (JSON text); `Err` when the host itself
    /// cannot be reached (a process that died, a module that failed to load).
    fn exchange(&self, request: &str) -> Result<String, String>;
}

/// Why a physics call failed: no host installed, the host unreachable, or an answer
/// that says what it could not do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhysicsError(pub String);

impl std::fmt::Display for PhysicsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PhysicsError {}

/// What starts a host on a thread that has none: set once for the process (the command
/// line's Node process), so threads spawned later (the suite check, concurrent runs,
/// test threads) start their own.
pub type Starter = fn() -> Result<Rc<dyn PhysicsHost>, String>;

static STARTER: std::sync::RwLock<Option<Starter>> = std::sync::RwLock::new(None);

thread_local! {
    // One host per thread: the page's module in the browser, one Node process per
    // thread on the command line (docs/fetch.md).
    static HOST: RefCell<Option<Rc<dyn PhysicsHost>>> = const { RefCell::new(None) };
    static DESCRIPTIONS: RefCell<BTreeMap<String, Rc<Description>>> =
        const { RefCell::new(BTreeMap::new()) };
}

/// Installs the host the Fetch environments of this thread use.
pub fn install(host: Rc<dyn PhysicsHost>) {
    HOST.with(|h| *h.borrow_mut() = Some(host));
    DESCRIPTIONS.with(|d| d.borrow_mut().clear());
}

/// Sets how any thread of the process starts a host when a Fetch environment is first
/// made on it without one.
pub fn install_starter(start: Starter) {
    *STARTER
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(start);
}

/// Whether a host is running on this thread.
pub fn installed() -> bool {
    HOST.with(|h| h.borrow().is_some())
}

/// The running host, started now if there is a way to; why not otherwise.
pub fn start() -> Result<Rc<dyn PhysicsHost>, PhysicsError> {
    if let Some(host) = HOST.with(|h| h.borrow().clone()) {
        return Ok(host);
    }
    let starter = *STARTER
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let Some(starter) = starter else {
        return Err(PhysicsError(
            "the Fetch tasks need MuJoCo's WebAssembly module, and none is loaded \
             (docs/fetch.md, \"Running them\")"
                .into(),
        ));
    };
    let host = starter().map_err(PhysicsError)?;
    install(host.clone());
    Ok(host)
}

fn call(request: &Value) -> Result<Value, PhysicsError> {
    let host = start()?;
    let text = host.exchange(&request.to_string()).map_err(PhysicsError)?;
    let mut answer: Value = serde_json::from_str(&text)
        .map_err(|e| PhysicsError(format!("the physics host answered nonsense ({e})")))?;
    if let Some(e) = answer.get("error") {
        return Err(PhysicsError(format!(
            "the physics host: {}",
            e.as_str().unwrap_or_default()
        )));
    }
    Ok(answer["ok"].take())
}

/// MuJoCo's state of one simulation as the host exchanges it: `mjSTATE_INTEGRATION`'s
/// fields the Fetch models have, and the model fields the environments change (the weld's
/// `eq_data`, the goal marker's `site_pos`, the warm-start flag in `disableflags`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimState {
    pub time: f64,
    pub qpos: Vec<f64>,
    pub qvel: Vec<f64>,
    pub ctrl: Vec<f64>,
    pub mocap_pos: Vec<f64>,
    pub mocap_quat: Vec<f64>,
    pub qacc_warmstart: Vec<f64>,
    pub eq_data: Vec<f64>,
    pub site_pos: Vec<f64>,
    pub disableflags: i64,
}

/// A joint's addresses in `qpos` and `qvel`.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct Joint {
    pub id: usize,
    pub qposadr: usize,
    pub dofadr: usize,
}

/// What the environments need to know of a compiled model.
#[derive(Clone, Debug, Deserialize)]
pub struct Description {
    /// MuJoCo's version string (`mj_versionString`).
    pub version: String,
    pub nq: usize,
    pub nv: usize,
    pub nu: usize,
    pub joints: BTreeMap<String, Joint>,
    pub bodies: BTreeMap<String, usize>,
    pub sites: BTreeMap<String, usize>,
    pub body_mocapid: Vec<i64>,
    pub actuator_trnid: Vec<i64>,
    pub eq_type: Vec<i64>,
    pub eq_obj1id: Vec<i64>,
    pub eq_obj2id: Vec<i64>,
    pub weld: i64,
    pub warmstart_bit: i64,
    /// The state of freshly made data (`mj_resetData`), compiled model fields included.
    pub state: SimState,
    /// What the views draw: geoms, sites, meshes, lights, the field of view
    /// ([`view`](super::view) reads it).
    pub scene: Value,
}

impl Description {
    pub fn joint(&self, name: &str) -> Result<Joint, PhysicsError> {
        self.joints
            .get(name)
            .copied()
            .ok_or_else(|| PhysicsError(format!("the model has no joint {name}")))
    }

    pub fn body(&self, name: &str) -> Result<usize, PhysicsError> {
        self.bodies
            .get(name)
            .copied()
            .ok_or_else(|| PhysicsError(format!("the model has no body {name}")))
    }

    pub fn site(&self, name: &str) -> Result<usize, PhysicsError> {
        self.sites
            .get(name)
            .copied()
            .ok_or_else(|| PhysicsError(format!("the model has no site {name}")))
    }
}

/// The description of a model (asked of the host once per thread and model).
pub fn describe(model: &str) -> Result<Rc<Description>, PhysicsError> {
    if let Some(d) = DESCRIPTIONS.with(|d| d.borrow().get(model).cloned()) {
        return Ok(d);
    }
    let answer = call(&json!({ "describe": model }))?;
    let d: Description = serde_json::from_value(answer)
        .map_err(|e| PhysicsError(format!("the physics host's description: {e}")))?;
    let d = Rc::new(d);
    DESCRIPTIONS.with(|m| m.borrow_mut().insert(model.to_string(), d.clone()));
    Ok(d)
}

/// One operation of a request, in the order given.
#[derive(Clone, Debug)]
pub enum Op {
    /// `n` × `mj_step`.
    Step(u32),
    /// `mj_forward`.
    Forward,
    /// Sets a state field (`qpos`, `ctrl`, `mocap_pos`, `site_pos`, `disableflags`, …).
    Set(&'static str, Value),
    /// Sets `values` into an array field from `index` on (one joint's `qpos`).
    SetAt(&'static str, usize, Vec<f64>),
    /// Moves a site so that it sits at a world point, by the offset a reference site
    /// has now: `site_pos[site] = point - (site_xpos[reference] - site_pos[reference])`
    /// (how Fetch places its goal marker).
    ShiftSite {
        site: usize,
        reference: usize,
        point: [f64; 3],
    },
    /// Reads fields as they are now (state fields and `xpos`, `xquat`, `xmat`,
    /// `site_xpos`, `site_xmat`, `geom_xpos`, `geom_xmat`).
    Read(&'static [&'static str]),
    /// The translational and rotational Jacobians of a site (`mj_jacSite`), each 3 × nv,
    /// read as `jacp` and `jacr`.
    SiteJacobian(usize),
}

impl Op {
    fn to_json(&self) -> Value {
        match self {
            Op::Step(n) => json!(["step", n]),
            Op::Forward => json!(["forward"]),
            Op::Set(field, v) => json!(["set", field, v]),
            Op::SetAt(field, index, v) => json!(["set_at", field, index, v]),
            Op::ShiftSite {
                site,
                reference,
                point,
            } => json!(["shift_site", site, reference, point]),
            Op::Read(fields) => json!(["read", fields]),
            Op::SiteJacobian(site) => json!(["site_jacobian", site]),
        }
    }
}

/// What one [`Read`](Op::Read) or [`SiteJacobian`](Op::SiteJacobian) saw.
#[derive(Clone, Debug, Default)]
pub struct Reading(Map<String, Value>);

impl Reading {
    /// A field's values (a scalar as one value).
    pub fn values(&self, field: &str) -> Result<Vec<f64>, PhysicsError> {
        let bad = || PhysicsError(format!("the physics host did not read {field}"));
        match self.0.get(field).ok_or_else(bad)? {
            Value::Number(n) => Ok(vec![n.as_f64().ok_or_else(bad)?]),
            Value::Array(items) => items.iter().map(|v| v.as_f64().ok_or_else(bad)).collect(),
            _ => Err(bad()),
        }
    }

    /// Three consecutive values of a field from `index * 3` (`xpos` of a body, …).
    pub fn vec3(&self, field: &str, index: usize) -> Result<[f64; 3], PhysicsError> {
        let v = self.values(field)?;
        v.get(index * 3..index * 3 + 3)
            .map(|s| [s[0], s[1], s[2]])
            .ok_or_else(|| PhysicsError(format!("{field} has no entry {index}")))
    }

    /// Four consecutive values from `index * 4` (`xquat` of a body).
    pub fn vec4(&self, field: &str, index: usize) -> Result<[f64; 4], PhysicsError> {
        let v = self.values(field)?;
        v.get(index * 4..index * 4 + 4)
            .map(|s| [s[0], s[1], s[2], s[3]])
            .ok_or_else(|| PhysicsError(format!("{field} has no entry {index}")))
    }

    /// Nine consecutive values from `index * 9` (a row-major 3 × 3 frame).
    pub fn mat3(&self, field: &str, index: usize) -> Result<[f64; 9], PhysicsError> {
        let v = self.values(field)?;
        let s = v
            .get(index * 9..index * 9 + 9)
            .ok_or_else(|| PhysicsError(format!("{field} has no entry {index}")))?;
        let mut m = [0.0; 9];
        m.copy_from_slice(s);
        Ok(m)
    }
}

/// Runs `ops` on `model` from `state` (`None`: freshly made data) and returns what the
/// reads saw, in order, and the state after the last operation.
pub fn run(
    model: &str,
    state: Option<&SimState>,
    ops: &[Op],
) -> Result<(Vec<Reading>, SimState), PhysicsError> {
    let request = json!({
        "run": model,
        "state": state,
        "ops": ops.iter().map(Op::to_json).collect::<Vec<_>>(),
    });
    let answer = call(&request)?;
    let bad = |e: serde_json::Error| PhysicsError(format!("the physics host's answer: {e}"));
    let reads = match answer.get("reads") {
        Some(Value::Array(items)) => items
            .iter()
            .map(|r| Reading(r.as_object().cloned().unwrap_or_default()))
            .collect(),
        _ => return Err(PhysicsError("the physics host's answer lacks reads".into())),
    };
    let state = SimState::deserialize(&answer["state"]).map_err(bad)?;
    Ok((reads, state))
}
