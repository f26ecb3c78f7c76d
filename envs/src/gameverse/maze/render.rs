//! The Maze observation as the reference draws it with PIL: 500×500, 125-px cells, walls
//! black and open cells white without grid lines, the target a red disc of radius 41 and
//! the ball a blue disc of radius 31 on top, both centred 62 px into their cell. PIL fills
//! the disc's bounding box inclusively without anti-aliasing; so does this.

use super::{Cell, Grid, FRAME_SIZE};
use crate::core::frame::Rgb;
use crate::gameverse::pixels;
use crate::Frame;

const CELL: i64 = 125;
const TARGET_RADIUS: i64 = 41;
const BALL_RADIUS: i64 = 31;

/// A disc filling the pixels of the bounding box [cx − r, cx + r]² whose centres lie
/// within r + ½ of the box centre.
fn disc(frame: &mut Frame, cx: i64, cy: i64, r: i64, color: Rgb) {
    let reach = (2 * r + 1) * (2 * r + 1);
    for y in cy - r..=cy + r {
        for x in cx - r..=cx + r {
            let (dx, dy) = (2 * (x - cx), 2 * (y - cy));
            if dx * dx + dy * dy <= reach {
                frame.set(x, y, color);
            }
        }
    }
}

pub fn draw(grid: &Grid, ball: Cell, target: Cell, frame: &mut Frame) {
    frame.resize(FRAME_SIZE, FRAME_SIZE);
    frame.fill([255, 255, 255]);
    for (r, row) in grid.iter().enumerate() {
        for (c, &open) in row.iter().enumerate() {
            if !open {
                pixels::fill_rect(
                    frame,
                    c as i64 * CELL,
                    r as i64 * CELL,
                    CELL,
                    CELL,
                    [0, 0, 0],
                );
            }
        }
    }
    let centre = |(r, c): Cell| (c as i64 * CELL + CELL / 2, r as i64 * CELL + CELL / 2);
    let (tx, ty) = centre(target);
    disc(frame, tx, ty, TARGET_RADIUS, [255, 0, 0]);
    let (bx, by) = centre(ball);
    disc(frame, bx, by, BALL_RADIUS, [0, 0, 255]);
}
