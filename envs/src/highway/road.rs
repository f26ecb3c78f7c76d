//! The straight multi-lane road: lane i runs from (0, 4i) to (10000, 4i), heading 0, width
//! 4, speed limit 30. Local coordinates on a lane are exact: s = x, r = y − 4i.

use super::numeric::wrap_to_pi;

pub const LANE_WIDTH: f64 = 4.0;
pub const LANE_LENGTH: f64 = 10_000.0;
pub const SPEED_LIMIT: f64 = 30.0;
/// The lanes' `VEHICLE_LENGTH`, a longitudinal margin in the lane tests.
const VEHICLE_LENGTH: f64 = 5.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Road {
    pub lanes: usize,
}

impl Road {
    /// (longitudinal, lateral) coordinates of a world point on `lane`.
    pub fn local(&self, lane: usize, p: [f64; 2]) -> (f64, f64) {
        (p[0] - 0.0, p[1] - LANE_WIDTH * lane as f64)
    }

    /// The lane closest to a pose: lateral offset, overshoot past either end and heading
    /// difference, first minimum in lane order.
    pub fn closest_lane(&self, p: [f64; 2], heading: f64) -> usize {
        let mut best = (0, f64::INFINITY);
        for lane in 0..self.lanes {
            let (s, r) = self.local(lane, p);
            let d = r.abs()
                + (s - LANE_LENGTH).max(0.0)
                + (0.0 - s).max(0.0)
                + 1.0 * wrap_to_pi(heading - 0.0).abs();
            if d < best.1 {
                best = (lane, d);
            }
        }
        best.0
    }

    /// Whether a point is on `lane`, with a lateral `margin`.
    pub fn on_lane(&self, lane: usize, p: [f64; 2], margin: f64) -> bool {
        let (s, r) = self.local(lane, p);
        r.abs() <= LANE_WIDTH / 2.0 + margin
            && (-VEHICLE_LENGTH..LANE_LENGTH + VEHICLE_LENGTH).contains(&s)
    }

    /// Whether `lane` can be steered to from a point (within two lane widths).
    pub fn reachable(&self, lane: usize, p: [f64; 2]) -> bool {
        let (s, r) = self.local(lane, p);
        r.abs() <= 2.0 * LANE_WIDTH && (0.0..LANE_LENGTH + VEHICLE_LENGTH).contains(&s)
    }

    /// Adjacent lanes, lower id first.
    pub fn side_lanes(&self, lane: usize) -> Vec<usize> {
        let mut out = Vec::with_capacity(2);
        if lane > 0 {
            out.push(lane - 1);
        }
        if lane + 1 < self.lanes {
            out.push(lane + 1);
        }
        out
    }
}
