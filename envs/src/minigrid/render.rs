//! MiniGrid pictures, byte-exact with the reference recipe (`docs/environments.md`,
//! "Rendering"): each tile drawn on a 3× supersampled canvas by point tests,
//! highlighted, averaged down.
//! Tiles are cached by what they show, as the reference does.

use std::cell::RefCell;
use std::collections::HashMap;

use super::grid::{seen_cells, Grid, Pos, View, VIEW, VIEW_AGENT};
use super::object::{kind, Color, DoorState};
use crate::core::frame::Frame;

const SUBDIVS: usize = 3;
const GRID_LINE: [u8; 3] = [100, 100, 100];

type Shape = dyn Fn(f64, f64) -> bool;

fn rect(xmin: f64, xmax: f64, ymin: f64, ymax: f64) -> impl Fn(f64, f64) -> bool {
    move |x, y| x >= xmin && x <= xmax && y >= ymin && y <= ymax
}

fn circle(cx: f64, cy: f64, r: f64) -> impl Fn(f64, f64) -> bool {
    move |x, y| (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r
}

/// `point_in_line`: the segment's direction and length are float32, as in the reference.
fn segment(x0: f64, y0: f64, x1: f64, y1: f64, r: f64) -> impl Fn(f64, f64) -> bool {
    let p0 = (x0 as f32, y0 as f32);
    let d = (x1 as f32 - p0.0, y1 as f32 - p0.1);
    let dist = f32::sqrt(d.0 * d.0 + d.1 * d.1);
    let dir = (f64::from(d.0 / dist), f64::from(d.1 / dist));
    let (p0, dist) = ((f64::from(p0.0), f64::from(p0.1)), f64::from(dist));
    let (xmin, xmax) = (x0.min(x1) - r, x0.max(x1) + r);
    let (ymin, ymax) = (y0.min(y1) - r, y0.max(y1) + r);
    move |x, y| {
        if x < xmin || x > xmax || y < ymin || y > ymax {
            return false;
        }
        let pq = (x - p0.0, y - p0.1);
        let a = (pq.0 * dir.0 + pq.1 * dir.1).clamp(0.0, dist);
        let p = (p0.0 + a * dir.0, p0.1 + a * dir.1);
        let (dx, dy) = (x - p.0, y - p.1);
        f64::sqrt(dx * dx + dy * dy) <= r
    }
}

/// The agent triangle rotated by 90°·dir about the centre, with the reference's
/// float32 vertices and barycentric test.
fn agent_triangle(dir: i64) -> impl Fn(f64, f64) -> bool {
    let a = (0.12f32, 0.19f32);
    let b = (0.87f32, 0.50f32);
    let c = (0.12f32, 0.81f32);
    let v0 = (c.0 - a.0, c.1 - a.1);
    let v1 = (b.0 - a.0, b.1 - a.1);
    let dot00 = v0.0 * v0.0 + v0.1 * v0.1;
    let dot01 = v0.0 * v1.0 + v0.1 * v1.1;
    let dot11 = v1.0 * v1.0 + v1.1 * v1.1;
    let inv_denom = f64::from(1.0 / (dot00 * dot11 - dot01 * dot01));
    let (v0, v1) = (
        (f64::from(v0.0), f64::from(v0.1)),
        (f64::from(v1.0), f64::from(v1.1)),
    );
    let (dot01, dot00, dot11) = (f64::from(dot01), f64::from(dot00), f64::from(dot11));
    let a = (f64::from(a.0), f64::from(a.1));
    // cos and sin of -90°·dir, exactly.
    let (cos, sin) = match dir.rem_euclid(4) {
        0 => (1.0, 0.0),
        1 => (0.0, -1.0),
        2 => (-1.0, 0.0),
        _ => (0.0, 1.0),
    };
    move |x, y| {
        let (x, y) = (x - 0.5, y - 0.5);
        let x2 = 0.5 + x * cos - y * sin;
        let y2 = 0.5 + y * cos + x * sin;
        let v2 = (x2 - a.0, y2 - a.1);
        let dot02 = v0.0 * v2.0 + v0.1 * v2.1;
        let dot12 = v1.0 * v2.0 + v1.1 * v2.1;
        let u = (dot11 * dot02 - dot01 * dot12) * inv_denom;
        let v = (dot00 * dot12 - dot01 * dot02) * inv_denom;
        u >= 0.0 && v >= 0.0 && (u + v) < 1.0
    }
}

struct Canvas {
    side: usize,
    px: Vec<[u8; 3]>,
}

impl Canvas {
    fn fill(&mut self, shape: &Shape, color: [u8; 3]) {
        let n = self.side as f64;
        for y in 0..self.side {
            let yf = (y as f64 + 0.5) / n;
            for x in 0..self.side {
                let xf = (x as f64 + 0.5) / n;
                if shape(xf, yf) {
                    self.px[y * self.side + x] = color;
                }
            }
        }
    }
}

fn scaled(c: [u8; 3], k: f64) -> [u8; 3] {
    c.map(|v| (k * f64::from(v)) as u8)
}

fn color_of(index: u8) -> [u8; 3] {
    let color = match index {
        0 => Color::Red,
        1 => Color::Green,
        2 => Color::Blue,
        3 => Color::Purple,
        4 => Color::Yellow,
        _ => Color::Grey,
    };
    color.rgb()
}

fn door_state(state: u8) -> DoorState {
    match state {
        0 => DoorState::Open,
        1 => DoorState::Closed,
        _ => DoorState::Locked,
    }
}

/// Draws the object with encoding `[type, colour, state]`.
fn draw_object(canvas: &mut Canvas, [ty, color, state]: [u8; 3]) {
    let c = color_of(color);
    let black = [0, 0, 0];
    match ty {
        kind::WALL | kind::GOAL => canvas.fill(&rect(0.0, 1.0, 0.0, 1.0), c),
        kind::FLOOR => canvas.fill(&rect(0.031, 1.0, 0.031, 1.0), scaled(c, 0.5)),
        kind::LAVA => {
            canvas.fill(&rect(0.0, 1.0, 0.0, 1.0), [255, 128, 0]);
            for i in 0..3 {
                let lo = 0.3 + 0.2 * f64::from(i);
                let hi = 0.4 + 0.2 * f64::from(i);
                canvas.fill(&segment(0.1, lo, 0.3, hi, 0.03), black);
                canvas.fill(&segment(0.3, hi, 0.5, lo, 0.03), black);
                canvas.fill(&segment(0.5, lo, 0.7, hi, 0.03), black);
                canvas.fill(&segment(0.7, hi, 0.9, lo, 0.03), black);
            }
        }
        kind::BALL => canvas.fill(&circle(0.5, 0.5, 0.31), c),
        kind::KEY => {
            canvas.fill(&rect(0.50, 0.63, 0.31, 0.88), c);
            canvas.fill(&rect(0.38, 0.50, 0.59, 0.66), c);
            canvas.fill(&rect(0.38, 0.50, 0.81, 0.88), c);
            canvas.fill(&circle(0.56, 0.28, 0.190), c);
            canvas.fill(&circle(0.56, 0.28, 0.064), black);
        }
        kind::BOX => {
            canvas.fill(&rect(0.12, 0.88, 0.12, 0.88), c);
            canvas.fill(&rect(0.18, 0.82, 0.18, 0.82), black);
            canvas.fill(&rect(0.16, 0.84, 0.47, 0.53), c);
        }
        kind::DOOR => match door_state(state) {
            DoorState::Open => {
                canvas.fill(&rect(0.88, 1.00, 0.00, 1.00), c);
                canvas.fill(&rect(0.92, 0.96, 0.04, 0.96), black);
            }
            DoorState::Locked => {
                canvas.fill(&rect(0.00, 1.00, 0.00, 1.00), c);
                canvas.fill(&rect(0.06, 0.94, 0.06, 0.94), scaled(c, 0.45));
                canvas.fill(&rect(0.52, 0.75, 0.50, 0.56), c);
            }
            DoorState::Closed => {
                canvas.fill(&rect(0.00, 1.00, 0.00, 1.00), c);
                canvas.fill(&rect(0.04, 0.96, 0.04, 0.96), black);
                canvas.fill(&rect(0.08, 0.92, 0.08, 0.92), c);
                canvas.fill(&rect(0.12, 0.88, 0.12, 0.88), black);
                canvas.fill(&circle(0.75, 0.50, 0.08), c);
            }
        },
        // Empty, unseen: nothing but the grid lines.
        _ => {}
    }
}

/// What a tile shows, for the cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct TileKey {
    obj: Option<[u8; 3]>,
    agent_dir: Option<i64>,
    highlight: bool,
    tile_size: u32,
}

fn render_tile(
    obj: Option<[u8; 3]>,
    agent_dir: Option<i64>,
    highlight: bool,
    tile_size: u32,
) -> Vec<u8> {
    let side = tile_size as usize * SUBDIVS;
    let mut canvas = Canvas {
        side,
        px: vec![[0, 0, 0]; side * side],
    };
    canvas.fill(&rect(0.0, 0.031, 0.0, 1.0), GRID_LINE);
    canvas.fill(&rect(0.0, 1.0, 0.0, 0.031), GRID_LINE);
    if let Some(obj) = obj {
        draw_object(&mut canvas, obj);
    }
    if let Some(dir) = agent_dir {
        canvas.fill(&agent_triangle(dir), [255, 0, 0]);
    }
    if highlight {
        for p in &mut canvas.px {
            *p = p.map(|c| (f64::from(c) + 0.3 * f64::from(255 - c)) as u8);
        }
    }
    let ts = tile_size as usize;
    let mut out = Vec::with_capacity(ts * ts * 3);
    for y in 0..ts {
        for x in 0..ts {
            for ch in 0..3 {
                let row_mean = |sy: usize| {
                    let base = (y * SUBDIVS + sy) * side + x * SUBDIVS;
                    let px = &canvas.px[base..base + SUBDIVS];
                    (f64::from(px[0][ch]) + f64::from(px[1][ch]) + f64::from(px[2][ch])) / 3.0
                };
                let mean = (row_mean(0) + row_mean(1) + row_mean(2)) / 3.0;
                out.push(mean as u8);
            }
        }
    }
    out
}

/// A multiply-rotate hasher: tile keys are a few small integers, and SipHash would
/// dominate the cost of drawing a frame from cached tiles.
#[derive(Default)]
struct TileHasher(u64);

impl std::hash::Hasher for TileHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type TileCache = HashMap<TileKey, Vec<u8>, std::hash::BuildHasherDefault<TileHasher>>;

thread_local! {
    static TILES: RefCell<TileCache> = RefCell::new(TileCache::default());
}

/// Copies the (cached) tile into `frame` with its top-left corner at (px, py).
fn blit_tile(frame: &mut Frame, px: usize, py: usize, key: TileKey) {
    let ts = key.tile_size as usize;
    let width = frame.width() as usize;
    TILES.with(|cache| {
        let mut cache = cache.borrow_mut();
        let tile = cache
            .entry(key)
            .or_insert_with(|| render_tile(key.obj, key.agent_dir, key.highlight, key.tile_size));
        let data = frame.data_mut();
        for row in 0..ts {
            let dst = ((py + row) * width + px) * 3;
            data[dst..dst + ts * 3].copy_from_slice(&tile[row * ts * 3..(row + 1) * ts * 3]);
        }
    });
}

/// What [`render_full`] last drew, so that drawing into the same picture again redraws
/// only the cells whose tile changed: a step changes a few cells and the highlighted
/// view, and copying every tile of a large grid costs as much as the step itself.
#[derive(Clone, Debug, Default)]
pub struct Drawn {
    /// The frame stamp of that picture (`Frame::restamp`).
    stamp: u64,
    /// Each cell's tile, row by row.
    tiles: Vec<TileKey>,
}

/// The full grid with the agent, and (optionally) the cells it sees highlighted.
/// (With `see_through_walls` the view marks its whole square visible.)
pub fn render_full(
    frame: &mut Frame,
    grid: &Grid,
    agent: (Pos, i64),
    view: Option<&View>,
    tile_size: u32,
    drawn: &mut Drawn,
) {
    let ts = tile_size as usize;
    frame.resize((grid.width * ts) as u32, (grid.height * ts) as u32);
    let cells = grid.width * grid.height;
    // The frame holds the picture `drawn` describes only if it still bears its stamp.
    let known = frame.stamp() != 0 && frame.stamp() == drawn.stamp && drawn.tiles.len() == cells;
    if !known {
        drawn.tiles.clear();
    }
    let mut highlight = vec![false; grid.width * grid.height];
    if let Some(view) = view {
        for (x, y) in seen_cells(grid, agent.0, agent.1, view) {
            highlight[y as usize * grid.width + x as usize] = true;
        }
    }
    for y in 0..grid.height {
        for x in 0..grid.width {
            let pos = (x as i64, y as i64);
            let i = y * grid.width + x;
            let key = TileKey {
                obj: grid.get(pos).map(|o| o.encode()),
                agent_dir: (pos == agent.0).then_some(agent.1),
                highlight: highlight[i],
                tile_size,
            };
            if known {
                if drawn.tiles[i] == key {
                    continue;
                }
                drawn.tiles[i] = key;
            } else {
                drawn.tiles.push(key);
            }
            blit_tile(frame, x * ts, y * ts, key);
        }
    }
    drawn.stamp = frame.restamp();
}

/// The agent's-eye picture: its 7×7 view, the agent at the bottom centre facing up.
pub fn render_view(frame: &mut Frame, view: &View, tile_size: u32) {
    let ts = tile_size as usize;
    frame.resize((VIEW * ts) as u32, (VIEW * ts) as u32);
    for j in 0..VIEW {
        for i in 0..VIEW {
            let agent = (i, j) == VIEW_AGENT;
            let enc = view.get(i, j);
            let key = TileKey {
                obj: (enc[0] != kind::EMPTY).then_some(enc),
                agent_dir: agent.then_some(3),
                highlight: view.is_visible(i, j),
                tile_size,
            };
            blit_tile(frame, i * ts, j * ts, key);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::core::env::Action;
    use crate::core::frame::Frame;
    use crate::rng::NpRandom;

    /// Drawing each step into the same frame (only the changed cells) gives the same
    /// picture as drawing it afresh, also after someone else drew into the frame, after
    /// another environment did, and from a clone.
    #[test]
    fn redrawing_changed_cells_gives_the_fresh_picture() {
        let ids = [
            "MiniGrid-FourRooms-v0",
            "MiniGrid-DoorKey-8x8-v0",
            "MiniGrid-Dynamic-Obstacles-8x8-v0",
            "MiniGrid-LockedRoom-v0",
        ];
        let mut actions = NpRandom::seeded(7);
        let mut kept = Frame::default();
        for id in ids {
            let mut env = crate::make_default(id).expect(id);
            let mut other = crate::make_default("MiniGrid-FourRooms-v0").expect("FourRooms");
            env.reset(Some(3));
            other.reset(Some(4));
            for step in 0..300 {
                let a = actions.index(env.action_names().len()).expect("index");
                let s = env.step(Action::Index(a)).expect("step");
                if s.terminated || s.truncated {
                    env.reset(None);
                }
                match step % 50 {
                    // Someone else's pixels in the frame.
                    10 => kept.data_mut()[0] ^= 0xff,
                    // Another environment's picture in the frame.
                    20 => other.render(&mut kept),
                    // A clone continues from the picture the original drew.
                    30 => env = env.clone_box(),
                    _ => {}
                }
                env.render(&mut kept);
                // From a clone, so that `env` remembers `kept` for the next step.
                let mut fresh = Frame::default();
                env.clone_box().render(&mut fresh);
                assert!(
                    kept == fresh,
                    "{id}: step {step} differs from a fresh picture"
                );
            }
        }
    }
}
