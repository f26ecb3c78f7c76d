//! The reference's Fetch solvers (docs/fetch-reference.md §7): a greedy axis mover for
//! Reach and the staged grasp-carry controller for Pick-and-Place, each rolled out on a
//! copy of the environment (the reference restores a snapshot afterwards; our copy
//! leaves the live environment untouched, see docs/fetch.md, "Deviations").

use super::env::{Fetch, FetchError, Obs};
use super::task::Task;

/// Reach's solver stops early when every axis is this close (2 mm).
const REACH_AXIS_TOLERANCE: f64 = 0.002;
/// Pick-and-Place's controller settings (its defaults).
const APPROACH_MARGIN: f64 = 0.10;
const POS_THRESHOLD: f64 = 0.03;
const OPEN_THRESHOLD: f64 = 0.08;
const XY_ALIGN: f64 = 0.03;
const Z_CONTACT: f64 = 0.005;
const CLOSE_HOLD_STEPS: u32 = 3;
const STABLE_EPS: f64 = 1e-4;
const STABLE_REQUIRED: u32 = 2;
const STEP_SIZE: f64 = 0.05;
const MAX_STEPS: usize = 1000;

/// An action of the solvers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Act {
    Move([i8; 3]),
    Gripper(u8),
}

impl Act {
    const HOLD: Act = Act::Move([0, 0, 0]);

    /// `str(action)` of the reference's tuple.
    fn text(self) -> String {
        match self {
            Act::Move([x, y, z]) => format!("('move', [{x}, {y}, {z}])"),
            Act::Gripper(v) => format!("('gripper', {v})"),
        }
    }
}

const STOP: &str = "('stop', 'stop')";

/// The first index of the largest absolute value (numpy's `argmax(abs(v))`).
fn argmax_abs(v: [f64; 3]) -> usize {
    let mut best = 0;
    for k in 1..3 {
        if v[k].abs() > v[best].abs() {
            best = k;
        }
    }
    best
}

fn sub(a: &[f64], b: &[f64]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// Python's `max(a, b)`: `a` unless `b` is larger.
fn py_max(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// The solver's plan from the environment's current state with its default settings
/// (Reach: 10 moves at most; Pick-and-Place: 1000 steps), ending with `stop`.
pub fn solve(env: &Fetch) -> Result<Vec<String>, FetchError> {
    match env.task() {
        Task::Reach => solve_reach(env, 10),
        Task::PickAndPlace => solve_pick_and_place(env, MAX_STEPS),
    }
}

/// `solve(num_steps=…)` of Reach: at most `max(num_steps, 10)` moves.
pub fn solve_reach(env: &Fetch, num_steps: usize) -> Result<Vec<String>, FetchError> {
    let mut env = env.clone();
    let goal = env.goal().unwrap_or_default();
    let mut plan = Vec::new();
    for _ in 0..num_steps.max(10) {
        let obs = env.observe()?;
        let err = sub(&goal, &obs.achieved_goal);
        let mut m = [0i8; 3];
        if !err.iter().all(|e| e.abs() <= REACH_AXIS_TOLERANCE) {
            let axis = argmax_abs(err);
            m[axis] = if err[axis] > 0.0 { 1 } else { -1 };
        }
        plan.push(Act::Move(m).text());
        env.act([f32::from(m[0]), f32::from(m[1]), f32::from(m[2]), 0.0])?;
        let obs = env.observe()?;
        let err = sub(&goal, &obs.achieved_goal);
        if err.iter().all(|e| e.abs() <= REACH_AXIS_TOLERANCE) {
            break;
        }
    }
    plan.push(STOP.to_string());
    Ok(plan)
}

/// `solve(max_steps=…)` of Pick-and-Place: the controller's rollout, at most
/// `max_steps` steps.
pub fn solve_pick_and_place(env: &Fetch, max_steps: usize) -> Result<Vec<String>, FetchError> {
    let mut env = env.clone();
    // The reference rolls out with MuJoCo's warm start off.
    env.sim.disableflags |= env.warmstart_bit();
    env.observe()?;
    let mut plan = Vec::new();
    for _ in 0..max_steps {
        let act = oracle_action(&mut env)?;
        plan.push(act.text());
        let step = env.step(&act.text())?;
        if step.result.terminated || step.result.truncated || env.is_success() {
            break;
        }
    }
    plan.push(STOP.to_string());
    Ok(plan)
}

/// `_axis_greedy_move`.
fn greedy(current: &[f64], target: [f64; 3]) -> Act {
    let err = sub(&target, current);
    let tol = py_max(POS_THRESHOLD, STEP_SIZE * 0.6);
    if err.iter().all(|e| e.abs() <= tol) {
        return Act::HOLD;
    }
    let axis = argmax_abs(err);
    let mut m = [0i8; 3];
    m[axis] = if err[axis] >= 0.0 { 1 } else { -1 };
    Act::Move(m)
}

/// Pick-and-Place's `oracle_action` (§7.2): one observation, one staged decision.
fn oracle_action(env: &mut Fetch) -> Result<Act, FetchError> {
    let obs: Obs = env.observe()?;
    let o = &obs.observation;
    let grip = &o[0..3];
    let obj = &o[3..6];
    let goal = env.goal().unwrap_or_default();
    let opening = o[9] + o[10];
    let mem = &mut env.oracle;
    let act = match mem.stage {
        0 => {
            let safe_z = py_max(obj[2] + APPROACH_MARGIN, grip[2]);
            let act = greedy(grip, [obj[0], obj[1], safe_z]);
            if act == Act::HOLD {
                mem.stage = 1;
            }
            act
        }
        1 => {
            if opening >= OPEN_THRESHOLD {
                mem.stage = 2;
                Act::HOLD
            } else {
                Act::Gripper(0)
            }
        }
        2 => {
            let ex = obj[0] - grip[0];
            let ey = obj[1] - grip[1];
            if ex.abs() > XY_ALIGN {
                Act::Move([if ex > 0.0 { 1 } else { -1 }, 0, 0])
            } else if ey.abs() > XY_ALIGN {
                Act::Move([0, if ey > 0.0 { 1 } else { -1 }, 0])
            } else if grip[2] > obj[2] + Z_CONTACT {
                Act::Move([0, 0, -1])
            } else {
                mem.stage = 3;
                Act::HOLD
            }
        }
        3 => {
            if mem.wait == 0 {
                mem.stable = 0;
            }
            if let Some(prev) = mem.prev_opening {
                if (opening - prev).abs() < STABLE_EPS {
                    mem.stable += 1;
                } else {
                    mem.stable = 0;
                }
            }
            mem.wait += 1;
            if mem.wait >= CLOSE_HOLD_STEPS || mem.stable >= STABLE_REQUIRED {
                mem.stage = 4;
                mem.wait = 0;
                mem.stable = 0;
            }
            Act::Gripper(1)
        }
        4 => {
            let err = sub(&goal, &obs.achieved_goal);
            if err.iter().all(|e| e.abs() <= POS_THRESHOLD) {
                mem.stage = 7;
                Act::HOLD
            } else {
                let axis = argmax_abs(err);
                let mut m = [0i8; 3];
                m[axis] = if err[axis] > 0.0 { 1 } else { -1 };
                Act::Move(m)
            }
        }
        // Unreachable in the reference too: back to carrying, without bookkeeping.
        5 | 6 => {
            mem.stage = 4;
            return Ok(Act::HOLD);
        }
        7 => {
            env.gripper_bias = -1.0;
            Act::HOLD
        }
        _ => Act::HOLD,
    };
    env.oracle.prev_opening = Some(opening);
    Ok(act)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_print_as_python_tuples() {
        assert_eq!(Act::Move([0, 0, -1]).text(), "('move', [0, 0, -1])");
        assert_eq!(Act::Gripper(1).text(), "('gripper', 1)");
    }

    #[test]
    fn argmax_takes_the_first_largest() {
        assert_eq!(argmax_abs([0.1, -0.1, 0.05]), 0);
        assert_eq!(argmax_abs([0.1, -0.2, 0.2]), 1);
    }
}
