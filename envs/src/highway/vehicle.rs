//! Vehicles: the kinematic bicycle model every car integrates, the lane-keeping and speed
//! controllers, the ego's discrete meta-actions, and the other cars' IDM car-following and
//! MOBIL lane changes. Every formula keeps the reference's operation order.

use core::f64::consts::PI;

use crate::rng::glibc_trig;

use super::numeric::{clip, dot2, not_zero, round_half_even, wrap_to_pi};
use super::road::{Road, SPEED_LIMIT};

pub const LENGTH: f64 = 5.0;
pub const WIDTH: f64 = 2.0;
const MAX_SPEED: f64 = 40.0;
const MIN_SPEED: f64 = -40.0;
/// The ego's cruise set-points, chosen by FASTER / SLOWER.
pub const TARGET_SPEEDS: [f64; 3] = [20.0, 25.0, 30.0];

// Controller gains: 1 / time constants (0.6 s speed and lateral, 0.2 s heading).
const KP_A: f64 = 1.0 / 0.6;
const KP_HEADING: f64 = 1.0 / 0.2;
const KP_LATERAL: f64 = 1.0 / 0.6;
const MAX_STEERING_ANGLE: f64 = PI / 3.0;

// IDM and MOBIL parameters.
const ACC_MAX: f64 = 6.0;
const COMFORT_ACC_MAX: f64 = 3.0;
const COMFORT_ACC_MIN: f64 = -5.0;
const DISTANCE_WANTED: f64 = 5.0 + LENGTH;
const TIME_WANTED: f64 = 1.5;
const POLITENESS: f64 = 0.0;
const LANE_CHANGE_MIN_ACC_GAIN: f64 = 0.2;
const LANE_CHANGE_MAX_BRAKING_IMPOSED: f64 = 2.0;
const LANE_CHANGE_DELAY: f64 = 1.0;

/// Who decides a car's actions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Driver {
    /// The agent's car: discrete target speeds.
    Ego { speed_index: usize },
    /// IDM + MOBIL with its own velocity exponent and lane-change timer.
    Idm { delta: f64, timer: f64 },
}

/// The four meta-actions besides IDLE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetaAction {
    LaneLeft,
    Idle,
    LaneRight,
    Faster,
    Slower,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Vehicle {
    pub driver: Driver,
    pub position: [f64; 2],
    pub heading: f64,
    pub speed: f64,
    pub lane: usize,
    pub target_lane: usize,
    pub target_speed: f64,
    pub crashed: bool,
    /// A collision push applied at the next integration.
    pub impact: Option<[f64; 2]>,
    pub steering: f64,
    pub acceleration: f64,
    pub check_collisions: bool,
}

impl Vehicle {
    pub fn direction(&self) -> [f64; 2] {
        [glibc_trig::cos(self.heading), glibc_trig::sin(self.heading)]
    }

    pub fn velocity(&self) -> [f64; 2] {
        let d = self.direction();
        [self.speed * d[0], self.speed * d[1]]
    }

    pub fn is_ego(&self) -> bool {
        matches!(self.driver, Driver::Ego { .. })
    }

    /// One integration step of `dt` seconds.
    pub fn step(&mut self, road: &Road, dt: f64) {
        if let Driver::Idm { timer, .. } = &mut self.driver {
            *timer += dt;
        }
        if self.crashed {
            self.steering = 0.0;
            self.acceleration = -self.speed;
        }
        if self.speed > MAX_SPEED {
            self.acceleration = self.acceleration.min(1.0 * (MAX_SPEED - self.speed));
        } else if self.speed < MIN_SPEED {
            self.acceleration = self.acceleration.max(1.0 * (MIN_SPEED - self.speed));
        }
        let beta = libm::atan(0.5 * libm::tan(self.steering));
        let v = [
            self.speed * glibc_trig::cos(self.heading + beta),
            self.speed * glibc_trig::sin(self.heading + beta),
        ];
        self.position = [self.position[0] + v[0] * dt, self.position[1] + v[1] * dt];
        if let Some(impact) = self.impact.take() {
            self.position = [self.position[0] + impact[0], self.position[1] + impact[1]];
            self.crashed = true;
        }
        self.heading += self.speed * glibc_trig::sin(beta) / (LENGTH / 2.0) * dt;
        self.speed += self.acceleration * dt;
        self.lane = road.closest_lane(self.position, self.heading);
    }

    /// Steering command that brings the car onto `target_lane` (lateral position → heading
    /// → heading rate → steering angle).
    fn steering_control(&self, road: &Road, target_lane: usize) -> f64 {
        let (_, lateral) = road.local(target_lane, self.position);
        let lane_future_heading = 0.0;
        let lateral_speed_command = -KP_LATERAL * lateral;
        let heading_command = libm::asin(clip(
            lateral_speed_command / not_zero(self.speed),
            -1.0,
            1.0,
        ));
        let heading_ref = lane_future_heading + clip(heading_command, -PI / 4.0, PI / 4.0);
        let heading_rate_command = KP_HEADING * wrap_to_pi(heading_ref - self.heading);
        let slip_angle = libm::asin(clip(
            LENGTH / 2.0 / not_zero(self.speed) * heading_rate_command,
            -1.0,
            1.0,
        ));
        let steering_angle = libm::atan(2.0 * libm::tan(slip_angle));
        clip(steering_angle, -MAX_STEERING_ANGLE, MAX_STEERING_ANGLE)
    }

    /// The low-level controllers toward the current targets (lane and speed).
    fn control(&mut self, road: &Road) {
        let steering = self.steering_control(road, self.target_lane);
        self.steering = clip(steering, -MAX_STEERING_ANGLE, MAX_STEERING_ANGLE);
        self.acceleration = KP_A * (self.target_speed - self.speed);
    }

    /// The ego's act: the meta-action (if any) changes its targets, then the controllers run.
    pub fn ego_act(&mut self, road: &Road, action: Option<MetaAction>) {
        let Driver::Ego { speed_index } = &mut self.driver else {
            return;
        };
        match action {
            Some(MetaAction::Faster | MetaAction::Slower) => {
                let current = speed_to_index(self.speed) as i64;
                let step = if action == Some(MetaAction::Faster) {
                    1
                } else {
                    -1
                };
                let index = (current + step).clamp(0, TARGET_SPEEDS.len() as i64 - 1) as usize;
                *speed_index = index;
                self.target_speed = TARGET_SPEEDS[index];
            }
            Some(side @ (MetaAction::LaneLeft | MetaAction::LaneRight)) => {
                let last = road.lanes as i64 - 1;
                let delta = if side == MetaAction::LaneRight { 1 } else { -1 };
                let candidate = (self.target_lane as i64 + delta).clamp(0, last) as usize;
                if road.reachable(candidate, self.position) {
                    self.target_lane = candidate;
                }
            }
            Some(MetaAction::Idle) | None => {}
        }
        self.control(road);
    }
}

/// Index of the target speed closest to `speed` (numpy rounding: 22.5 → 0, 27.5 → 2).
pub fn speed_to_index(speed: f64) -> usize {
    let first = TARGET_SPEEDS[0];
    let last = TARGET_SPEEDS[TARGET_SPEEDS.len() - 1];
    let x = (speed - first) / (last - first);
    clip(
        round_half_even(x * (TARGET_SPEEDS.len() - 1) as f64),
        0.0,
        (TARGET_SPEEDS.len() - 1) as f64,
    ) as usize
}

/// The cars nearest ahead and behind `me` on `lane` (within 1 m beyond the lane's edges):
/// ahead = smallest s' ≥ s (a later car wins a tie), behind = largest s' < s.
pub fn neighbours(
    road: &Road,
    cars: &[Vehicle],
    me: usize,
    lane: usize,
) -> (Option<usize>, Option<usize>) {
    let (s, _) = road.local(lane, cars[me].position);
    // (index, longitudinal coordinate) of the best candidates so far.
    let mut front: Option<(usize, f64)> = None;
    let mut rear: Option<(usize, f64)> = None;
    for (i, v) in cars.iter().enumerate() {
        if i == me {
            continue;
        }
        let (s_v, _) = road.local(lane, v.position);
        if !road.on_lane(lane, v.position, 1.0) {
            continue;
        }
        if s <= s_v && front.is_none_or(|(_, sf)| s_v <= sf) {
            front = Some((i, s_v));
        }
        if s_v < s && rear.is_none_or(|(_, sr)| s_v > sr) {
            rear = Some((i, s_v));
        }
    }
    (front.map(|f| f.0), rear.map(|r| r.0))
}

/// IDM's desired gap from `ego` to the car ahead of it.
fn desired_gap(ego: &Vehicle, front: &Vehicle) -> f64 {
    let ab = -COMFORT_ACC_MAX * COMFORT_ACC_MIN;
    let (ve, vf) = (ego.velocity(), front.velocity());
    let dv = dot2([ve[0] - vf[0], ve[1] - vf[1]], ego.direction());
    DISTANCE_WANTED + ego.speed * TIME_WANTED + ego.speed * dv / (2.0 * f64::sqrt(ab))
}

/// IDM acceleration of `ego` behind `front`, with the *calling* car's exponent `delta`.
fn idm_acceleration(delta: f64, ego: Option<&Vehicle>, front: Option<&Vehicle>) -> f64 {
    let Some(ego) = ego else {
        return 0.0;
    };
    let target = clip(ego.target_speed, 0.0, SPEED_LIMIT);
    let speed = if 0.0 > ego.speed { 0.0 } else { ego.speed };
    let mut acceleration =
        COMFORT_ACC_MAX * (1.0 - libm::pow(speed / not_zero(target).abs(), delta));
    if let Some(front) = front {
        let d = front.position[0] - ego.position[0];
        let ratio = desired_gap(ego, front) / not_zero(d);
        acceleration -= COMFORT_ACC_MAX * (ratio * ratio);
    }
    acceleration
}

/// MOBIL: is moving `me` to `lane` safe for its new follower and worth ≥ 0.2 m/s²?
fn mobil(road: &Road, cars: &[Vehicle], me: usize, delta: f64, lane: usize) -> bool {
    let car = |i: Option<usize>| i.map(|i| &cars[i]);
    let this = Some(&cars[me]);
    let (new_preceding, new_following) = neighbours(road, cars, me, lane);
    let new_following_a = idm_acceleration(delta, car(new_following), car(new_preceding));
    let new_following_pred_a = idm_acceleration(delta, car(new_following), this);
    if new_following_pred_a < -LANE_CHANGE_MAX_BRAKING_IMPOSED {
        return false;
    }
    let (old_preceding, old_following) = neighbours(road, cars, me, cars[me].lane);
    let self_pred_a = idm_acceleration(delta, this, car(new_preceding));
    let self_a = idm_acceleration(delta, this, car(old_preceding));
    let old_following_a = idm_acceleration(delta, car(old_following), this);
    let old_following_pred_a = idm_acceleration(delta, car(old_following), car(old_preceding));
    let jerk = self_pred_a - self_a
        + POLITENESS
            * (new_following_pred_a - new_following_a + old_following_pred_a - old_following_a);
    jerk >= LANE_CHANGE_MIN_ACC_GAIN
}

/// The new target lane of IDM car `me` (MOBIL), and whether its lane-change timer fired.
fn lane_change_decision(
    road: &Road,
    cars: &[Vehicle],
    me: usize,
    delta: f64,
    timer: f64,
) -> (usize, bool) {
    let v = &cars[me];
    if v.lane != v.target_lane {
        // A change in progress is aborted if another car is already moving into that lane
        // just ahead.
        for (i, other) in cars.iter().enumerate() {
            if i != me && other.lane != v.target_lane && other.target_lane == v.target_lane {
                let d = other.position[0] - v.position[0];
                let d_star = desired_gap(v, other);
                if 0.0 < d && d < d_star {
                    return (v.lane, false);
                }
            }
        }
        return (v.target_lane, false);
    }
    if timer <= LANE_CHANGE_DELAY {
        return (v.target_lane, false);
    }
    let mut target = v.target_lane;
    for lane in road.side_lanes(v.lane) {
        if !road.reachable(lane, v.position) || v.speed.abs() < 1.0 {
            continue;
        }
        if mobil(road, cars, me, delta, lane) {
            target = lane;
        }
    }
    (target, true)
}

/// IDM car `me` decides its lane and its controls (nothing if it has crashed).
pub fn idm_act(road: &Road, cars: &mut [Vehicle], me: usize) {
    let Driver::Idm { delta, timer } = cars[me].driver else {
        return;
    };
    if cars[me].crashed {
        return;
    }
    let (target, fired) = lane_change_decision(road, cars, me, delta, timer);
    if fired {
        cars[me].driver = Driver::Idm { delta, timer: 0.0 };
    }
    cars[me].target_lane = target;
    let v = &cars[me];
    let steering = clip(
        v.steering_control(road, target),
        -MAX_STEERING_ANGLE,
        MAX_STEERING_ANGLE,
    );
    let (front, _) = neighbours(road, cars, me, v.lane);
    let mut acceleration = idm_acceleration(delta, Some(v), front.map(|i| &cars[i]));
    if v.lane != v.target_lane {
        let (front, _) = neighbours(road, cars, me, v.target_lane);
        let on_target = idm_acceleration(delta, Some(v), front.map(|i| &cars[i]));
        if on_target < acceleration {
            acceleration = on_target;
        }
    }
    let v = &mut cars[me];
    v.steering = steering;
    v.acceleration = clip(acceleration, -ACC_MAX, ACC_MAX);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speed_index_rounds_half_to_even() {
        assert_eq!(speed_to_index(22.5), 0);
        assert_eq!(speed_to_index(27.5), 2);
        assert_eq!(speed_to_index(25.0), 1);
        assert_eq!(speed_to_index(40.0), 2);
        assert_eq!(speed_to_index(3.0), 0);
    }
}
