//! The Maze observation as the reference draws it with PIL: 500×500, 125-px cells, walls
//! black and open cells white without grid lines, the target a red disc of radius 41 and
//! the ball a blue disc of radius 31 on top, both centred 62 px into their cell. PIL fills
//! the disc's bounding box inclusively without anti-aliasing; so does this.

use super::{Cell, Grid, FRAME_SIZE};
use crate::core::frame::Rgb;
use crate::Frame;

const CELL: i64 = 125;
const TARGET_RADIUS: i64 = 41;
const BALL_RADIUS: i64 = 31;

/// A disc filling the pixels of the bounding box [cx − r, cx + r]² whose centres lie
/// within r + ½ of the box centre, a row span at a time.
fn disc(frame: &mut Frame, cx: i64, cy: i64, r: i64, color: Rgb) {
    let reach = (2 * r + 1) * (2 * r + 1);
    for y in cy - r..=cy + r {
        let dy = 2 * (y - cy);
        // The widest |x − cx| with (2·dx)² + dy² ≤ reach.
        let mut half = r;
        while half >= 0 && 4 * half * half + dy * dy > reach {
            half -= 1;
        }
        if half >= 0 {
            frame.fill_rect(cx - half, y, 2 * half + 1, 1, color);
        }
    }
}

/// What one cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Look {
    open: bool,
    target: bool,
    ball: bool,
}

/// The picture a frame stamped by [`draw`] holds (`Frame::restamp`): each cell's look,
/// so that the next draw into the same frame repaints only the cells that changed (a
/// move changes two; a move into a wall none). Every cell's paint stays inside it.
#[derive(Clone, Debug, Default)]
pub struct Drawn {
    stamp: u64,
    looks: Vec<Look>,
}

fn paint(frame: &mut Frame, (r, c): Cell, look: Look) {
    let (x, y) = (c as i64 * CELL, r as i64 * CELL);
    let ground = if look.open {
        [255, 255, 255]
    } else {
        [0, 0, 0]
    };
    frame.fill_rect(x, y, CELL, CELL, ground);
    let (cx, cy) = (x + CELL / 2, y + CELL / 2);
    if look.target {
        disc(frame, cx, cy, TARGET_RADIUS, [255, 0, 0]);
    }
    if look.ball {
        disc(frame, cx, cy, BALL_RADIUS, [0, 0, 255]);
    }
}

pub fn draw(grid: &Grid, ball: Cell, target: Cell, frame: &mut Frame, drawn: &mut Drawn) {
    frame.resize(FRAME_SIZE, FRAME_SIZE);
    let looks: Vec<Look> = grid
        .iter()
        .enumerate()
        .flat_map(|(r, row)| {
            row.iter().enumerate().map(move |(c, &open)| Look {
                open,
                target: (r, c) == target,
                ball: (r, c) == ball,
            })
        })
        .collect();
    let known =
        frame.stamp() != 0 && frame.stamp() == drawn.stamp && drawn.looks.len() == looks.len();
    if !known {
        frame.fill([255, 255, 255]);
    }
    let cols = grid.first().map_or(1, Vec::len).max(1);
    for (i, &look) in looks.iter().enumerate() {
        if !known || drawn.looks[i] != look {
            paint(frame, (i / cols, i % cols), look);
        }
    }
    drawn.looks = looks;
    drawn.stamp = frame.restamp();
}
