//! The first-person view of Maze 3D, ray cast with the reference's camera: one cell
//! behind the agent (inside the wall there, whose faces are culled), at half the wall
//! height, looking at the agent's cell along the facing; a 40° horizontal field of
//! view (Ursina's default lens). Walls are 10-unit cubes, floor and ceiling are tiled
//! once per cell, the target is a red sphere of diameter 3 at eye height, everything
//! unlit as in the reference. Textures are our own procedural ones.

use super::maze_3d::FACING;
use super::maze_gen::Maze;
use crate::core::frame::{Frame, Rgb};

/// Horizontal field of view in degrees.
const FOV_DEG: f64 = 40.0;
/// Eye height and sphere radius in cells (the reference's 5 and 1.5 of 10 units).
const EYE: f64 = 0.5;
const SPHERE_RADIUS: f64 = 0.15;
const TARGET: Rgb = [255, 0, 0];

/// `x.floor()` without the library call for the small coordinates of this view (the
/// same value: truncation, one down for negative fractions).
fn floor(x: f64) -> f64 {
    if x.abs() < 1e15 {
        let t = x as i64 as f64;
        if t > x {
            t - 1.0
        } else {
            t
        }
    } else {
        x.floor()
    }
}

fn hash(x: i64, y: i64, salt: i64) -> u32 {
    let mut h = (x.wrapping_mul(374_761_393)
        ^ y.wrapping_mul(668_265_263)
        ^ salt.wrapping_mul(2_147_483_647)) as u64;
    h = (h ^ (h >> 13)).wrapping_mul(1_274_126_177);
    (h ^ (h >> 16)) as u32
}

fn shade(c: Rgb, k: f64) -> Rgb {
    let f = |v: u8| (f64::from(v) * k).clamp(0.0, 255.0) as u8;
    [f(c[0]), f(c[1]), f(c[2])]
}

/// Brick wall: rows of bricks offset every other row, with mortar lines.
fn wall_texture(u: f64, v: f64) -> Rgb {
    let rows = 6.0;
    let row = floor(v * rows);
    let fy = v * rows - row;
    let offset = if row as i64 % 2 == 0 { 0.0 } else { 0.5 };
    let x = u * 3.0 + offset;
    let brick = floor(x);
    let fx = x - brick;
    if fy < 0.08 || fx < 0.04 {
        return [168, 160, 150];
    }
    let n = hash(brick as i64, row as i64, 1) % 40;
    shade([150, 78, 52], 0.85 + f64::from(n) / 200.0)
}

/// Floor: large stone tiles per cell.
fn floor_texture(u: f64, v: f64) -> Rgb {
    let (tx, ty) = (floor(u * 2.0), floor(v * 2.0));
    let (fx, fy) = (u * 2.0 - tx, v * 2.0 - ty);
    if fx < 0.03 || fy < 0.03 {
        return [70, 66, 60];
    }
    let n = hash(tx as i64, ty as i64, 2) % 30;
    shade([128, 122, 110], 0.9 + f64::from(n) / 150.0)
}

/// Ceiling: plain planks.
fn ceiling_texture(u: f64, v: f64) -> Rgb {
    let plank = floor(u * 4.0);
    let fx = u * 4.0 - plank;
    if fx < 0.04 {
        return [60, 52, 44];
    }
    let n = hash(plank as i64, floor(v * 2.0) as i64, 3) % 25;
    shade([104, 90, 74], 0.9 + f64::from(n) / 150.0)
}

fn frac(x: f64) -> f64 {
    x - floor(x)
}

/// Draws the view from the agent's cell facing `cam_dir` into `frame` (already sized).
pub fn draw_view(frame: &mut Frame, maze: &Maze, cam_dir: usize) {
    let (w, h) = (frame.width() as usize, frame.height() as usize);
    if w == 0 || h == 0 {
        return;
    }
    let (dr, dc) = FACING[cam_dir % 4];
    // Grid coordinates: x along columns, y along rows, one unit per cell.
    let forward = (dc as f64, dr as f64);
    // Rows grow southward, so "right" of the facing is (-dy, dx) in (x, y).
    let right = (-forward.1, forward.0);
    let cam_cell = (maze.agent.0 as i64 - dr, maze.agent.1 as i64 - dc);
    let cam = (cam_cell.1 as f64 + 0.5, cam_cell.0 as f64 + 0.5);
    let tan_h = libm::tan(FOV_DEG.to_radians() / 2.0);
    let aspect = w as f64 / h as f64;
    let tan_v = tan_h / aspect;
    let fx = (w as f64 / 2.0) / tan_h;
    let fy = (h as f64 / 2.0) / tan_v;
    let horizon = h as f64 / 2.0;
    let mut depth = vec![f64::INFINITY; w];
    // Floor below the horizon, ceiling above: the distance to the plane seen on each row.
    let plane: Vec<f64> = (0..h)
        .map(|y| {
            let py = y as f64 + 0.5;
            let height = if py > horizon { EYE } else { 1.0 - EYE };
            height * fy / (py - horizon).abs().max(1e-9)
        })
        .collect();
    let stride = w * 3;

    for (x, column_depth) in depth.iter_mut().enumerate() {
        let s = (2.0 * (x as f64 + 0.5) / w as f64 - 1.0) * tan_h;
        let ray = (forward.0 + right.0 * s, forward.1 + right.1 * s);
        // DDA over the grid from the camera's cell (skipped: its own faces are culled).
        let (mut cx, mut cy) = (cam_cell.1, cam_cell.0);
        let step_x = if ray.0 < 0.0 { -1 } else { 1 };
        let step_y = if ray.1 < 0.0 { -1 } else { 1 };
        let dx = if ray.0 == 0.0 {
            f64::INFINITY
        } else {
            (1.0 / ray.0).abs()
        };
        let dy = if ray.1 == 0.0 {
            f64::INFINITY
        } else {
            (1.0 / ray.1).abs()
        };
        let mut side_x = if ray.0 < 0.0 {
            (cam.0 - cx as f64) * dx
        } else {
            (cx as f64 + 1.0 - cam.0) * dx
        };
        let mut side_y = if ray.1 < 0.0 {
            (cam.1 - cy as f64) * dy
        } else {
            (cy as f64 + 1.0 - cam.1) * dy
        };
        let mut hit: Option<(f64, bool)> = None;
        for _ in 0..256 {
            let vertical = side_x < side_y;
            if vertical {
                side_x += dx;
                cx += step_x;
            } else {
                side_y += dy;
                cy += step_y;
            }
            let inside =
                cx >= 0 && cy >= 0 && (cy as usize) < maze.height() && (cx as usize) < maze.width();
            if !inside {
                break;
            }
            if maze.is_wall(cy, cx) {
                let dist = if vertical { side_x - dx } else { side_y - dy };
                hit = Some((dist, vertical));
                break;
            }
        }
        let (wall_top, wall_bottom, wall_u, shade_k) = match hit {
            Some((dist, vertical)) => {
                *column_depth = dist;
                let along = if vertical {
                    cam.1 + dist * ray.1
                } else {
                    cam.0 + dist * ray.0
                };
                (
                    horizon - (1.0 - EYE) / dist * fy,
                    horizon + EYE / dist * fy,
                    frac(along),
                    if vertical { 1.0 } else { 0.82 },
                )
            }
            None => (horizon, horizon, 0.0, 1.0),
        };
        let pixels = frame.data_mut();
        for (y, &dist) in plane.iter().enumerate() {
            let py = y as f64 + 0.5;
            let color = if py >= wall_top && py < wall_bottom {
                let v = (py - wall_top) / (wall_bottom - wall_top);
                shade(wall_texture(wall_u, v), shade_k)
            } else {
                let (wx, wy) = (cam.0 + ray.0 * dist, cam.1 + ray.1 * dist);
                if py > horizon {
                    floor_texture(frac(wx), frac(wy))
                } else {
                    ceiling_texture(frac(wx), frac(wy))
                }
            };
            let at = y * stride + x * 3;
            pixels[at..at + 3].copy_from_slice(&color);
        }
    }

    // The target sphere, depth-tested against the walls column by column.
    let t = (maze.target.1 as f64 + 0.5, maze.target.0 as f64 + 0.5);
    let rel = (t.0 - cam.0, t.1 - cam.1);
    let z = rel.0 * forward.0 + rel.1 * forward.1;
    if z > 0.05 {
        let lateral = rel.0 * right.0 + rel.1 * right.1;
        let sx = w as f64 / 2.0 + lateral / z * fx;
        let sy = horizon;
        let radius = SPHERE_RADIUS / z * fy;
        let (x0, x1) = (
            (sx - radius).floor().max(0.0) as usize,
            (sx + radius).ceil().min(w as f64) as usize,
        );
        let (y0, y1) = (
            (sy - radius).floor().max(0.0) as usize,
            (sy + radius).ceil().min(h as f64) as usize,
        );
        for (x, &wall) in depth.iter().enumerate().take(x1).skip(x0) {
            if z - SPHERE_RADIUS > wall {
                continue;
            }
            for y in y0..y1 {
                let (ddx, ddy) = (x as f64 + 0.5 - sx, y as f64 + 0.5 - sy);
                if ddx * ddx + ddy * ddy <= radius * radius {
                    frame.set(x as i64, y as i64, TARGET);
                }
            }
        }
    }
}
