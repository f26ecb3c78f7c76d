//! The Snake window as the reference lays it out: 55-px cells (500 // 9), the board with
//! y upwards (screen row of cell y is B − 1 − y) on (120,160,180) with the inner cells of
//! even x + y lightened by 26, and a 100-px info panel below ((25,25,25), 2-px grey
//! border). The life bar above each food is the reference's exactly (51×6 at +2,+10,
//! filled to life/10 in green above 0.6, yellow above 0.3, else red, white outline);
//! the reference's sprites (brick walls, apple, snake) are replaced by shapes of ours in
//! their colours, and its Arial text by our font. A finished game darkens the board
//! (black at alpha 180) and names the ending.

use super::{Heading, Point, Snake, MAX_TURNS};
use crate::core::frame::Rgb;
use crate::gameverse::pixels;
use crate::render::{font, raster};
use crate::Frame;

const BACKGROUND: Rgb = [120, 160, 180];
const PANEL: Rgb = [25, 25, 25];
const PANEL_BORDER: Rgb = [100, 100, 100];
pub(super) const PANEL_HEIGHT: i64 = 100;
const BRICK: Rgb = [0, 0, 0];
const SNAKE_GREEN: Rgb = [159, 199, 49];
const SNAKE_SPOT: Rgb = [98, 157, 45];
const TONGUE: Rgb = [255, 46, 89];
const APPLE: Rgb = [230, 46, 73];
const LEAF: Rgb = [76, 150, 50];
const TEXT_SCALE: u32 = 2;
const TITLE_SCALE: u32 = 3;

pub(super) fn cell_size(game: &Snake) -> i64 {
    500 / game.config().board_size
}

/// Top-left pixel of a cell.
fn cell_origin(game: &Snake, (x, y): Point) -> (i64, i64) {
    let c = cell_size(game);
    (x * c, (game.config().board_size - 1 - y) * c)
}

/// A brick-wall icon: an outlined block with staggered mortar lines.
fn brick(frame: &mut Frame, x: i64, y: i64, c: i64) {
    let (inset, line) = (c / 9, (c / 18).max(2));
    let (x0, y0, s) = (x + inset, y + inset, c - 2 * inset);
    pixels::stroke_rect(frame, x0, y0, s, s, line, BRICK);
    for k in 1..3 {
        pixels::fill_rect(frame, x0, y0 + k * s / 3 - line / 2, s, line, BRICK);
    }
    for (row, offsets) in [[1, 3], [2, 0], [1, 3]].iter().enumerate() {
        for &o in offsets {
            if o == 0 {
                continue;
            }
            let vx = x0 + o * s / 4 - line / 2;
            pixels::fill_rect(frame, vx, y0 + row as i64 * s / 3, line, s / 3, BRICK);
        }
    }
}

fn apple(frame: &mut Frame, x: i64, y: i64, c: i64) {
    let (cx, cy) = (x as f64 + c as f64 / 2.0, y as f64 + c as f64 * 0.56);
    let r = c as f64 * 0.36;
    raster::fill_circle(frame, cx, cy, r, APPLE);
    raster::fill_circle(frame, cx + r * 0.45, cy - r * 1.05, r * 0.28, LEAF);
}

/// The reference's life bar, pixel for pixel.
fn life_bar(frame: &mut Frame, x: i64, y: i64, c: i64, life: i64) {
    let (bx, by, bw, bh) = (x + 2, y + 10, c - 4, 6);
    pixels::fill_rect(frame, bx, by, bw, bh, [100, 0, 0]);
    let ratio = (life as f64 / 10.0).max(0.0);
    if ratio > 0.0 {
        let width = (bw as f64 * ratio) as i64;
        let color = if ratio > 0.6 {
            [0, 255, 0]
        } else if ratio > 0.3 {
            [255, 255, 0]
        } else {
            [255, 0, 0]
        };
        pixels::fill_rect(frame, bx, by, width, bh, color);
    }
    pixels::stroke_rect(frame, bx, by, bw, bh, 1, [255, 255, 255]);
}

/// One body cell: a rounded block reaching towards its neighbours.
fn segment(frame: &mut Frame, game: &Snake, p: Point, neighbours: [Option<Point>; 2]) {
    let c = cell_size(game);
    let (x, y) = cell_origin(game, p);
    let (xf, yf, cf) = (x as f64, y as f64, c as f64);
    let inset = cf * 0.2;
    raster::fill_circle(
        frame,
        xf + cf / 2.0,
        yf + cf / 2.0,
        cf / 2.0 - inset,
        SNAKE_GREEN,
    );
    for n in neighbours.into_iter().flatten() {
        let (dx, dy) = (n.0 - p.0, -(n.1 - p.1));
        if dx.abs() + dy.abs() != 1 {
            continue;
        }
        let (l, t, r, b) = match (dx, dy) {
            (1, _) => (cf / 2.0, inset, cf, cf - inset),
            (-1, _) => (0.0, inset, cf / 2.0, cf - inset),
            (_, 1) => (inset, cf / 2.0, cf - inset, cf),
            _ => (inset, 0.0, cf - inset, cf / 2.0),
        };
        raster::fill_rect(frame, xf + l, yf + t, xf + r, yf + b, SNAKE_GREEN);
    }
}

fn head(frame: &mut Frame, game: &Snake, p: Point, heading: Heading) {
    let c = cell_size(game) as f64;
    let (x, y) = cell_origin(game, p);
    let (cx, cy) = (x as f64 + c / 2.0, y as f64 + c / 2.0);
    let (dx, dy) = heading.delta();
    let (fx, fy) = (dx as f64, -(dy as f64));
    raster::fill_circle(frame, cx, cy, c * 0.38, SNAKE_GREEN);
    let tip = (cx + fx * c * 0.5, cy + fy * c * 0.5);
    raster::line(
        frame,
        (cx + fx * c * 0.36, cy + fy * c * 0.36),
        tip,
        2.0,
        TONGUE,
    );
    for side in [-1.0, 1.0] {
        let (ex, ey) = (
            cx + fx * c * 0.12 - fy * side * c * 0.16,
            cy + fy * c * 0.12 + fx * side * c * 0.16,
        );
        raster::fill_circle(frame, ex, ey, c * 0.06, [0, 0, 0]);
    }
}

/// What a board cell shows over the backdrop, in drawing order.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Item {
    Food { life: i64 },
    Segment { neighbours: [Option<Point>; 2] },
    Spot,
    Head(Heading),
}

/// Each board cell's items (row-major by `(x, y)`): food in spawn order, then the snake
/// from tail to head, the order a whole-board drawing paints them in. Every item's paint
/// stays inside its cell, so cells can be painted in any order.
fn cell_looks(game: &Snake) -> Vec<Vec<Item>> {
    let b = game.config().board_size;
    let mut looks = vec![Vec::new(); (b * b) as usize];
    let mut put = |(x, y): Point, item: Item| {
        if (0..b).contains(&x) && (0..b).contains(&y) {
            looks[(y * b + x) as usize].push(item);
        }
    };
    for (p, life) in game.food() {
        put(p, Item::Food { life });
    }
    let body = game.body_head_first();
    for (i, &p) in body.iter().enumerate().rev() {
        let neighbours = [i.checked_sub(1).map(|j| body[j]), body.get(i + 1).copied()];
        if i > 0 || body.len() > 1 {
            put(p, Item::Segment { neighbours });
        }
        if i == 0 {
            put(p, Item::Head(game.heading()));
        } else if i % 2 == 1 {
            put(p, Item::Spot);
        }
    }
    looks
}

fn paint_item(frame: &mut Frame, game: &Snake, p: Point, item: Item) {
    let c = cell_size(game);
    let (x, y) = cell_origin(game, p);
    match item {
        Item::Food { life } => {
            apple(frame, x, y, c);
            life_bar(frame, x, y, c, life);
        }
        Item::Segment { neighbours } => segment(frame, game, p, neighbours),
        Item::Spot => {
            let c = c as f64;
            raster::fill_circle(
                frame,
                x as f64 + c * 0.42,
                y as f64 + c * 0.45,
                c * 0.1,
                SNAKE_SPOT,
            );
        }
        Item::Head(heading) => head(frame, game, p, heading),
    }
}

fn panel(frame: &mut Frame, game: &Snake, top: i64, width: i64) {
    pixels::fill_rect(frame, 0, top, width, PANEL_HEIGHT, PANEL);
    pixels::stroke_rect(frame, 0, top, width, PANEL_HEIGHT, 2, PANEL_BORDER);
    let config = game.config();
    let (left, right) = if config.latency.is_realtime() {
        let timeout = config.latency.auto_advance_after_ms().unwrap_or(0);
        (
            [
                "Mode: Real-time".to_string(),
                format!("Score: {}", game.foods_eaten()),
            ],
            [
                format!(
                    "Time: {:.1}s / {:.0}s",
                    game.elapsed_ms as f64 / 1000.0,
                    config.max_duration_ms as f64 / 1000.0
                ),
                format!("Action Timeout: {:.1}", timeout as f64 / 1000.0),
            ],
        )
    } else {
        (
            [
                "Mode: Discrete".to_string(),
                format!("Score: {}", game.foods_eaten()),
            ],
            [
                format!("Turn: {} / {MAX_TURNS}", game.turn()),
                format!("Length: {}", game.body.len()),
            ],
        )
    };
    for (k, (l, r)) in left.iter().zip(&right).enumerate() {
        let y = top + 15 + 35 * k as i64 + 6;
        font::draw_text(frame, 15, y, l, TEXT_SCALE, [255, 255, 255]);
        let w = i64::from(font::text_width(r, TEXT_SCALE));
        font::draw_text(frame, width - 15 - w, y, r, TEXT_SCALE, [200, 200, 200]);
    }
}

/// Copies cell (x, y)'s pixels from `from`, a board-wide picture as wide as the frame.
fn copy_cell(frame: &mut Frame, from: &[u8], (x, y): (i64, i64), c: i64) {
    let stride = frame.width() as usize * 3;
    for row in y..y + c {
        let at = row as usize * stride + x as usize * 3;
        let span = at..at + c as usize * 3;
        frame.data_mut()[span.clone()].copy_from_slice(&from[span]);
    }
}

/// The finished game's veil over the board: black at alpha 180.
fn darken(frame: &mut Frame, x: i64, y: i64, w: i64, h: i64) {
    pixels::blend_rect(frame, x, y, w, h, [0, 0, 0], 180);
}

/// Darkens the board as one blend over it would: cells showing only the backdrop take
/// the darkened backdrop's pixels (blended once per backdrop), the others are blended.
fn veil(frame: &mut Frame, game: &Snake, backdrop: &mut Backdrop, looks: &[Vec<Item>]) {
    let (b, c) = (game.config().board_size, cell_size(game));
    if backdrop.dark.is_empty() {
        let mut dark = backdrop.pixels.clone();
        darken(&mut dark, 0, 0, b * c, b * c);
        backdrop.dark = dark.data().to_vec();
    }
    for (i, items) in looks.iter().enumerate() {
        let (x, y) = cell_origin(game, (i as i64 % b, i as i64 / b));
        if items.is_empty() {
            copy_cell(frame, &backdrop.dark, (x, y), c);
        } else {
            darken(frame, x, y, c, c);
        }
    }
}

fn ending(frame: &mut Frame, game: &Snake, board: i64) {
    let n = game.foods_eaten();
    let (text, color) = if game.config().latency.is_realtime() {
        if game.time_up() {
            (format!("TIME UP! SCORE: {n}"), [255, 165, 0])
        } else {
            (format!("GAME OVER! SCORE: {n}"), [255, 0, 0])
        }
    } else if game.turn() < MAX_TURNS {
        (format!("GAME OVER! REWARD: {n}"), [255, 0, 0])
    } else {
        (format!("COMPLETED! REWARD: {n}"), [0, 255, 0])
    };
    let w = pixels::bold_text_width(&text, TITLE_SCALE);
    let h = i64::from(font::GLYPH_H * TITLE_SCALE);
    let (x, y) = ((board - w) / 2, (board - h) / 2);
    pixels::draw_bold_text(frame, x + 2, y + 2, &text, TITLE_SCALE, [0, 0, 0]);
    pixels::draw_bold_text(frame, x, y, &text, TITLE_SCALE, color);
}

/// The board without food or snake (ground, checks, walls, obstacles), which stays the
/// same through a game: drawn once into its own frame, whose rows are the first rows of
/// every frame drawn with it. Also what the frame it last drew holds (`Frame::restamp`):
/// each cell's items, so the next drawing into that frame repaints only the cells that
/// changed (a move changes three or four of 81), as GameVerse Maze does.
#[derive(Clone, Debug, Default)]
pub struct Backdrop {
    /// Board size and obstacles it shows.
    key: Option<(i64, Vec<Point>)>,
    pixels: Frame,
    /// `pixels` under the finished game's veil, made when first needed.
    dark: Vec<u8>,
    stamp: u64,
    looks: Vec<Vec<Item>>,
}

fn paint_backdrop(game: &Snake, frame: &mut Frame) {
    let b = game.config().board_size;
    let c = cell_size(game);
    let board = b * c;
    frame.resize(board as u32, board as u32);
    pixels::fill_rect(frame, 0, 0, board, board, BACKGROUND);
    let lighter = BACKGROUND.map(|v| v.saturating_add(26));
    for y in 0..b {
        for x in 0..b {
            let (px, py) = cell_origin(game, (x, y));
            let border = x == 0 || y == 0 || x == b - 1 || y == b - 1;
            if border {
                brick(frame, px, py, c);
            } else if (x + y) % 2 == 0 {
                pixels::fill_rect(frame, px, py, c, c, lighter);
            }
        }
    }
    for &p in &game.obstacles {
        let (px, py) = cell_origin(game, p);
        brick(frame, px, py, c);
    }
}

pub fn draw(game: &Snake, frame: &mut Frame, backdrop: &mut Backdrop) {
    let b = game.config().board_size;
    let c = cell_size(game);
    let board = b * c;
    let key = (b, game.obstacles.clone());
    if backdrop.key.as_ref() != Some(&key) {
        paint_backdrop(game, &mut backdrop.pixels);
        backdrop.key = Some(key);
        backdrop.dark.clear();
        backdrop.stamp = 0;
    }
    let looks = cell_looks(game);
    let known = frame.stamp() != 0 && frame.stamp() == backdrop.stamp;
    if !known {
        // The board and the panel (drawn last) cover the whole frame.
        frame.resize(board as u32, (board + PANEL_HEIGHT) as u32);
        let ground = backdrop.pixels.data();
        frame.data_mut()[..ground.len()].copy_from_slice(ground);
    }
    for (i, items) in looks.iter().enumerate() {
        if known && backdrop.looks[i] == *items {
            continue;
        }
        let p = (i as i64 % b, i as i64 / b);
        let (x, y) = cell_origin(game, p);
        if known {
            copy_cell(frame, backdrop.pixels.data(), (x, y), c);
        }
        for &item in items {
            paint_item(frame, game, p, item);
        }
    }
    panel(frame, game, board, board);
    if game.game_over() {
        // Darkens the whole board: the next drawing starts afresh.
        veil(frame, game, backdrop, &looks);
        ending(frame, game, board);
        backdrop.stamp = 0;
    } else {
        backdrop.stamp = frame.restamp();
    }
    backdrop.looks = looks;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gameverse::snake::SnakeConfig;

    #[test]
    fn the_veil_is_one_blend_over_the_whole_board() {
        let mut game = Snake::new(SnakeConfig {
            obstacles: 4,
            ..SnakeConfig::default()
        });
        game.reset(Some(3));
        game.step(super::super::oracle::best_move(&game).letter());
        assert!(!game.game_over());
        let (mut frame, mut backdrop) = (Frame::default(), Backdrop::default());
        draw(&game, &mut frame, &mut backdrop);
        let board = game.config().board_size * cell_size(&game);
        let mut whole = frame.clone();
        darken(&mut whole, 0, 0, board, board);
        let looks = cell_looks(&game);
        assert!(looks.iter().filter(|l| !l.is_empty()).count() >= 3);
        veil(&mut frame, &game, &mut backdrop, &looks);
        assert_eq!(frame.data(), whole.data());
    }
}
