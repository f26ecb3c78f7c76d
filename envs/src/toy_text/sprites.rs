//! Our own Toy Text art, drawn in code at the classic (gymnasium ≤ 1.3) geometry:
//! Taxi 550×350 on an 11×7 grid of 50 px cells, CliffWalking 60 px cells, FrozenLake
//! 64 px cells. Every sprite must read clearly to a person and to a model.

use std::sync::OnceLock;

use crate::core::frame::{Frame, Rgb};
use crate::render::font::draw_text_centered;
use crate::render::raster::{fill_circle, fill_polygon, fill_rect, line, stroke_circle};
use crate::render::sprite::Sprite;

use super::cliff_walking::{self, COLS, GOAL, START};
use super::frozen_lake::LakeMap;
use super::taxi::{TaxiState, IN_TAXI, LOCATIONS, LOCATION_NAMES};

/// Where a character or vehicle faces, in screen terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Facing {
    Left,
    Down,
    Right,
    Up,
}

impl Facing {
    const ALL: [Facing; 4] = [Self::Left, Self::Down, Self::Right, Self::Up];

    fn index(self) -> usize {
        self as usize
    }

    /// Unit vector on screen (y down).
    fn vector(self) -> (f64, f64) {
        match self {
            Self::Left => (-1.0, 0.0),
            Self::Down => (0.0, 1.0),
            Self::Right => (1.0, 0.0),
            Self::Up => (0.0, -1.0),
        }
    }
}

const BLACK: Rgb = [0, 0, 0];
const WHITE: Rgb = [255, 255, 255];

// ---------------------------------------------------------------- Taxi

const TAXI_CELL: f64 = 50.0;
const ROAD: Rgb = [112, 112, 116];
const HEDGE: Rgb = [46, 125, 50];
const HEDGE_DARK: Rgb = [27, 94, 32];
const LOCATION_COLORS: [Rgb; 4] = [[255, 0, 0], [0, 255, 0], [255, 255, 0], [0, 0, 255]];
const TAXI_YELLOW: Rgb = [255, 193, 7];
const PASSENGER_SHIRT: Rgb = [156, 39, 176];

/// Top-left pixel of a taxi-grid cell (the reference's `get_surf_loc`).
fn taxi_cell(row: usize, col: usize) -> (f64, f64) {
    (
        (col * 2 + 1) as f64 * TAXI_CELL,
        (row + 1) as f64 * TAXI_CELL,
    )
}

/// The Taxi picture's fixed parts, drawn once.
struct TaxiArt {
    background: Frame,
    passenger: Sprite,
    hotel: Sprite,
    /// By facing, then empty / occupied.
    taxis: Vec<[Sprite; 2]>,
}

fn taxi_art(map: &[&[u8; 11]; 7]) -> &'static TaxiArt {
    static ART: OnceLock<TaxiArt> = OnceLock::new();
    ART.get_or_init(|| {
        let mut background = Frame::new(550, 350);
        draw_taxi_background(&mut background, map);
        let taxi = |facing: Facing, occupied: bool| {
            Sprite::capture(50, 50, (0, 0), |f, x, y| {
                draw_taxi(f, x, y, facing, occupied)
            })
        };
        TaxiArt {
            background,
            passenger: Sprite::capture(24, 44, (12, 20), draw_passenger),
            hotel: Sprite::capture(50, 52, (0, 6), draw_destination),
            taxis: Facing::ALL
                .iter()
                .map(|&f| [taxi(f, false), taxi(f, true)])
                .collect(),
        }
    })
}

fn draw_taxi_background(frame: &mut Frame, map: &[&[u8; 11]; 7]) {
    frame.fill(ROAD);
    for (y, line_bytes) in map.iter().enumerate() {
        for (x, &c) in line_bytes.iter().enumerate() {
            let (px, py) = (x as f64 * TAXI_CELL, y as f64 * TAXI_CELL);
            match c {
                b'|' | b'-' | b'+' => draw_hedge(frame, px, py),
                b':' => {
                    // Dashed lane marking between two drivable cells.
                    for k in 0..3 {
                        let y0 = py + 6.0 + k as f64 * 16.0;
                        fill_rect(frame, px + 23.0, y0, px + 27.0, y0 + 8.0, [200, 200, 200]);
                    }
                }
                _ => {}
            }
        }
    }
    for (i, &(row, col)) in LOCATIONS.iter().enumerate() {
        let (x, y) = taxi_cell(row, col);
        tint_rect(
            frame,
            x,
            y + 10.0,
            x + TAXI_CELL,
            y + TAXI_CELL,
            LOCATION_COLORS[i],
            0.5,
        );
        draw_text_centered(
            frame,
            x as i64 + 42,
            y as i64 + 41,
            LOCATION_NAMES[i],
            2,
            BLACK,
        );
    }
}

pub fn draw_taxi_world(frame: &mut Frame, map: &[&[u8; 11]; 7], s: TaxiState, facing: usize) {
    let art = taxi_art(map);
    frame.copy_from(&art.background);
    if s.passenger < IN_TAXI {
        let (row, col) = LOCATIONS[s.passenger];
        let (x, y) = taxi_cell(row, col);
        art.passenger.blit(frame, x as i64 + 25, y as i64 + 28);
    }
    let dest = taxi_cell(LOCATIONS[s.destination].0, LOCATIONS[s.destination].1);
    let taxi = taxi_cell(s.row, s.col);
    let facing = match facing {
        0 => Facing::Down,
        1 => Facing::Up,
        2 => Facing::Right,
        _ => Facing::Left,
    };
    let taxi_sprite = &art.taxis[facing.index()][usize::from(s.passenger == IN_TAXI)];
    let hotel_at = (dest.0 as i64, (dest.1 - TAXI_CELL / 2.0) as i64);
    // Draw order as in the reference: whichever is lower on screen goes on top.
    if dest.1 <= taxi.1 {
        art.hotel.blit(frame, hotel_at.0, hotel_at.1);
        taxi_sprite.blit(frame, taxi.0 as i64, taxi.1 as i64);
    } else {
        taxi_sprite.blit(frame, taxi.0 as i64, taxi.1 as i64);
        art.hotel.blit(frame, hotel_at.0, hotel_at.1);
    }
}

fn tint_rect(frame: &mut Frame, x0: f64, y0: f64, x1: f64, y1: f64, color: Rgb, alpha: f64) {
    for y in y0 as i64..y1 as i64 {
        for x in x0 as i64..x1 as i64 {
            frame.blend(x, y, color, alpha);
        }
    }
}

fn draw_hedge(frame: &mut Frame, x: f64, y: f64) {
    fill_rect(frame, x, y, x + TAXI_CELL, y + TAXI_CELL, HEDGE_DARK);
    for (dx, dy) in [
        (14.0, 14.0),
        (36.0, 14.0),
        (14.0, 36.0),
        (36.0, 36.0),
        (25.0, 25.0),
    ] {
        fill_circle(frame, x + dx, y + dy, 12.0, HEDGE);
    }
}

fn draw_passenger(frame: &mut Frame, cx: f64, cy: f64) {
    fill_rect(
        frame,
        cx - 9.0,
        cy - 2.0,
        cx + 9.0,
        cy + 18.0,
        PASSENGER_SHIRT,
    );
    fill_circle(frame, cx, cy - 9.0, 8.0, [255, 205, 160]);
    fill_rect(
        frame,
        cx - 8.0,
        cy - 18.0,
        cx + 8.0,
        cy - 13.0,
        [80, 50, 20],
    );
    fill_rect(frame, cx - 9.0, cy + 18.0, cx - 2.0, cy + 20.0, BLACK);
    fill_rect(frame, cx + 2.0, cy + 18.0, cx + 9.0, cy + 20.0, BLACK);
}

/// A hotel: the destination, drawn over the cell's upper half and the cell above.
fn draw_destination(frame: &mut Frame, x: f64, y: f64) {
    fill_rect(frame, x + 8.0, y + 4.0, x + 42.0, y + 44.0, [121, 85, 72]);
    fill_polygon(
        frame,
        &[(x + 4.0, y + 6.0), (x + 25.0, y - 4.0), (x + 46.0, y + 6.0)],
        [183, 28, 28],
    );
    for row in 0..3 {
        for col in 0..3 {
            let wx = x + 12.0 + col as f64 * 10.0;
            let wy = y + 10.0 + row as f64 * 9.0;
            fill_rect(frame, wx, wy, wx + 6.0, wy + 5.0, [255, 236, 179]);
        }
    }
    fill_rect(frame, x + 21.0, y + 36.0, x + 29.0, y + 44.0, [62, 39, 35]);
}

/// A top-down taxi: yellow body, dark windscreen on the front, headlights; a passenger's
/// head in the back window and a green roof sign when someone is aboard.
fn draw_taxi(frame: &mut Frame, x: f64, y: f64, facing: Facing, occupied: bool) {
    let (fx, fy) = facing.vector();
    let (cx, cy) = (x + 25.0, y + 25.0);
    // Local frame: u along the heading, v across it.
    let at = |u: f64, v: f64| (cx + fx * u - fy * v, cy + fy * u + fx * v);
    let quad =
        |u0: f64, u1: f64, v0: f64, v1: f64| [at(u0, v0), at(u1, v0), at(u1, v1), at(u0, v1)];
    for (u, v) in [(-12.0, -14.0), (-12.0, 14.0), (12.0, -14.0), (12.0, 14.0)] {
        let p = at(u, v);
        fill_circle(frame, p.0, p.1, 4.5, BLACK);
    }
    fill_polygon(frame, &quad(-21.0, 21.0, -13.0, 13.0), TAXI_YELLOW);
    fill_polygon(frame, &quad(6.0, 13.0, -10.0, 10.0), [38, 50, 56]);
    fill_polygon(frame, &quad(-17.0, -11.0, -10.0, 10.0), [38, 50, 56]);
    for v in [-9.0, 9.0] {
        let p = at(20.0, v);
        fill_circle(frame, p.0, p.1, 2.5, [255, 255, 220]);
    }
    let sign = quad(-6.0, 2.0, -6.0, 6.0);
    fill_polygon(
        frame,
        &sign,
        if occupied {
            [0, 200, 83]
        } else {
            [250, 250, 250]
        },
    );
    if occupied {
        let head = at(-14.0, 0.0);
        fill_circle(frame, head.0, head.1, 5.0, [255, 205, 160]);
        fill_circle(
            frame,
            head.0 - fx * 1.5,
            head.1 - fy * 1.5,
            3.0,
            PASSENGER_SHIRT,
        );
    }
}

// ---------------------------------------------------------------- CliffWalking

const CLIFF_CELL: f64 = 60.0;

/// Elf sprites for a cell size, by facing.
fn elves(cell: f64) -> Vec<Sprite> {
    let side = cell as u32 + 16;
    Facing::ALL
        .iter()
        .map(|&facing| {
            Sprite::capture(side, side, (8, 8), |f, x, y| {
                draw_elf(f, x, y, cell, facing)
            })
        })
        .collect()
}

struct GridArt {
    background: Frame,
    elves: Vec<Sprite>,
}

fn cliff_art() -> &'static GridArt {
    static ART: OnceLock<GridArt> = OnceLock::new();
    ART.get_or_init(|| {
        let mut background = Frame::new(720, 240);
        draw_cliff_background(&mut background);
        GridArt {
            background,
            elves: elves(CLIFF_CELL),
        }
    })
}

fn draw_cliff_background(frame: &mut Frame) {
    for s in 0..(cliff_walking::ROWS * COLS) {
        let (row, col) = (s / COLS, s % COLS);
        let (x, y) = (col as f64 * CLIFF_CELL, row as f64 * CLIFF_CELL);
        let grass = if (row + col) % 2 == 0 {
            [139, 195, 74]
        } else {
            [124, 179, 66]
        };
        fill_rect(frame, x, y, x + CLIFF_CELL, y + CLIFF_CELL, grass);
        if cliff_walking::is_cliff(row, col) {
            fill_rect(frame, x, y, x + CLIFF_CELL, y + CLIFF_CELL, [33, 24, 22]);
            fill_rect(frame, x, y, x + CLIFF_CELL, y + 8.0, [141, 110, 99]);
            for k in 0..3 {
                let kx = x + 6.0 + k as f64 * 18.0;
                fill_polygon(
                    frame,
                    &[(kx, y + 8.0), (kx + 12.0, y + 8.0), (kx + 6.0, y + 20.0)],
                    [93, 64, 55],
                );
            }
        } else if row + 1 < cliff_walking::ROWS && cliff_walking::is_cliff(row + 1, col) {
            // A warning edge on the grass just above the drop.
            for k in 0..6 {
                let kx = x + k as f64 * 10.0;
                let c = if k % 2 == 0 {
                    [255, 193, 7]
                } else {
                    [33, 33, 33]
                };
                fill_rect(
                    frame,
                    kx,
                    y + CLIFF_CELL - 5.0,
                    kx + 10.0,
                    y + CLIFF_CELL,
                    c,
                );
            }
        }
        if s == START {
            draw_stool(frame, x + 30.0, y + 38.0);
        }
        if s == GOAL {
            draw_flag(frame, x, y, CLIFF_CELL);
        }
    }
}

pub fn draw_cliff_world(frame: &mut Frame, state: usize, last_action: usize) {
    let art = cliff_art();
    frame.copy_from(&art.background);
    let (row, col) = (state / COLS, state % COLS);
    let facing = match last_action {
        0 => Facing::Up,
        1 => Facing::Right,
        2 => Facing::Down,
        _ => Facing::Left,
    };
    // The elf stands a tenth of a cell high, as in the reference.
    let (x, y) = (
        col as f64 * CLIFF_CELL,
        row as f64 * CLIFF_CELL - 0.1 * CLIFF_CELL,
    );
    art.elves[facing.index()].blit(frame, x as i64, y as i64);
}

fn draw_stool(frame: &mut Frame, cx: f64, cy: f64) {
    fill_rect(frame, cx - 12.0, cy, cx - 8.0, cy + 16.0, [93, 64, 55]);
    fill_rect(frame, cx + 8.0, cy, cx + 12.0, cy + 16.0, [93, 64, 55]);
    fill_rect(
        frame,
        cx - 16.0,
        cy - 4.0,
        cx + 16.0,
        cy + 3.0,
        [161, 136, 127],
    );
}

/// The goal: a chequered finish flag on a pole.
fn draw_flag(frame: &mut Frame, x: f64, y: f64, cell: f64) {
    let k = cell / 60.0;
    fill_rect(
        frame,
        x + 14.0 * k,
        y + 8.0 * k,
        x + 18.0 * k,
        y + 54.0 * k,
        [62, 39, 35],
    );
    fill_circle(frame, x + 16.0 * k, y + 55.0 * k, 5.0 * k, [62, 39, 35]);
    for r in 0..3 {
        for c in 0..4 {
            let color = if (r + c) % 2 == 0 {
                [255, 215, 0]
            } else {
                [213, 0, 0]
            };
            let fx = x + 18.0 * k + c as f64 * 8.0 * k;
            let fy = y + 8.0 * k + r as f64 * 7.0 * k;
            fill_rect(frame, fx, fy, fx + 8.0 * k, fy + 7.0 * k, color);
        }
    }
}

/// The player: a round face with a pointed green hat, eyes and a pointer toward `facing`.
fn draw_elf(frame: &mut Frame, x: f64, y: f64, cell: f64, facing: Facing) {
    let k = cell / 64.0;
    let (cx, cy) = (x + cell / 2.0, y + cell * 0.58);
    let (fx, fy) = facing.vector();
    let r = 15.0 * k;
    // Pointer triangle outside the face, in the facing direction.
    let tip = (cx + fx * (r + 12.0 * k), cy + fy * (r + 12.0 * k));
    let base = (cx + fx * (r - 2.0 * k), cy + fy * (r - 2.0 * k));
    let side = (-fy * 8.0 * k, fx * 8.0 * k);
    fill_polygon(
        frame,
        &[
            tip,
            (base.0 + side.0, base.1 + side.1),
            (base.0 - side.0, base.1 - side.1),
        ],
        [229, 57, 53],
    );
    fill_circle(frame, cx, cy + 16.0 * k, 13.0 * k, [56, 142, 60]);
    fill_circle(frame, cx, cy, r, [255, 213, 170]);
    stroke_circle(frame, cx, cy, r, 1.5 * k, [120, 80, 50]);
    fill_polygon(
        frame,
        &[
            (cx - 14.0 * k, cy - 8.0 * k),
            (cx + 14.0 * k, cy - 8.0 * k),
            (cx + 2.0 * k, cy - 30.0 * k),
        ],
        [27, 94, 32],
    );
    if facing != Facing::Up {
        let (ex, ey) = (fx * 6.0 * k, fy * 4.0 * k + 1.0 * k);
        let spread = if fx == 0.0 { 6.0 * k } else { 3.0 * k };
        fill_circle(frame, cx + ex - spread, cy + ey, 2.2 * k, BLACK);
        fill_circle(frame, cx + ex + spread, cy + ey, 2.2 * k, BLACK);
    } else {
        // Seen from behind: hair instead of a face.
        fill_circle(frame, cx, cy + 2.0 * k, 11.0 * k, [121, 85, 72]);
    }
}

// ---------------------------------------------------------------- FrozenLake

const LAKE_CELL: f64 = 64.0;

fn lake_art(map: LakeMap) -> &'static GridArt {
    static SMALL: OnceLock<GridArt> = OnceLock::new();
    static LARGE: OnceLock<GridArt> = OnceLock::new();
    let cache = match map {
        LakeMap::FourByFour => &SMALL,
        LakeMap::EightByEight => &LARGE,
    };
    cache.get_or_init(|| {
        let n = map.size();
        let side = (n as f64 * LAKE_CELL) as u32;
        let mut background = Frame::new(side, side);
        for s in 0..n * n {
            let (x, y) = ((s % n) as f64 * LAKE_CELL, (s / n) as f64 * LAKE_CELL);
            fill_rect(
                &mut background,
                x,
                y,
                x + LAKE_CELL,
                y + LAKE_CELL,
                [176, 216, 240],
            );
            fill_rect(
                &mut background,
                x + 2.0,
                y + 2.0,
                x + LAKE_CELL - 2.0,
                y + LAKE_CELL - 2.0,
                [214, 238, 252],
            );
            line(
                &mut background,
                (x + 10.0, y + 22.0),
                (x + 26.0, y + 12.0),
                2.0,
                WHITE,
            );
            line(
                &mut background,
                (x + 38.0, y + 52.0),
                (x + 54.0, y + 42.0),
                2.0,
                WHITE,
            );
            match map.tile(s) {
                b'H' => draw_hole(&mut background, x, y),
                b'G' => draw_present(&mut background, x, y),
                b'S' => draw_stool(&mut background, x + 32.0, y + 38.0),
                _ => {}
            }
        }
        GridArt {
            background,
            elves: elves(LAKE_CELL),
        }
    })
}

pub fn draw_lake_world(frame: &mut Frame, map: LakeMap, state: usize, last_action: usize) {
    let art = lake_art(map);
    frame.copy_from(&art.background);
    let facing = match last_action {
        0 => Facing::Left,
        1 => Facing::Down,
        2 => Facing::Right,
        _ => Facing::Up,
    };
    let n = map.size();
    let (x, y) = (
        (state % n) as f64 * LAKE_CELL,
        (state / n) as f64 * LAKE_CELL,
    );
    art.elves[facing.index()].blit(frame, x as i64, y as i64);
}

/// A hole: dark open water with a jagged ice rim.
fn draw_hole(frame: &mut Frame, x: f64, y: f64) {
    let (cx, cy) = (x + 32.0, y + 34.0);
    let mut rim = Vec::new();
    let mut water = Vec::new();
    for i in 0..16 {
        let a = i as f64 * std::f64::consts::PI / 8.0;
        let wobble = if i % 2 == 0 { 1.0 } else { 0.88 };
        let (c, s) = (libm::cos(a), libm::sin(a));
        rim.push((cx + 27.0 * wobble * c, cy + 22.0 * wobble * s));
        water.push((cx + 22.0 * wobble * c, cy + 17.0 * wobble * s));
    }
    fill_polygon(frame, &rim, [84, 110, 122]);
    fill_polygon(frame, &water, [13, 27, 62]);
    line(
        frame,
        (cx - 10.0, cy - 4.0),
        (cx + 2.0, cy - 8.0),
        2.0,
        [40, 70, 120],
    );
}

/// The goal: a wrapped present.
fn draw_present(frame: &mut Frame, x: f64, y: f64) {
    fill_rect(frame, x + 14.0, y + 24.0, x + 50.0, y + 56.0, [229, 57, 53]);
    fill_rect(frame, x + 11.0, y + 18.0, x + 53.0, y + 27.0, [211, 47, 47]);
    fill_rect(frame, x + 29.0, y + 18.0, x + 35.0, y + 56.0, [255, 214, 0]);
    fill_rect(frame, x + 11.0, y + 20.0, x + 53.0, y + 25.0, [255, 214, 0]);
    fill_circle(frame, x + 25.0, y + 13.0, 6.0, [255, 214, 0]);
    fill_circle(frame, x + 39.0, y + 13.0, 6.0, [255, 214, 0]);
}
