//! Matchstick Equation's frame. The reference draws each symbol's matches in a 60×100
//! box, 68 pixels apart, with the symbol's index below, and squeezes that canvas to
//! 300×80 (docs/visgym.md, "Fidelity and known gaps": our rasteriser and an area
//! average stand in for Pillow and its resize).
//!
//! Each output column averages at most a few canvas columns, and a symbol's drawing
//! lies well inside its box, so every output column shows one symbol's slot and
//! nothing of its neighbours. The frame is therefore put together from per-slot strips
//! (the slot's output columns, resampled from a canvas holding only that slot's glyph
//! and the indices), each computed once per symbol count, slot and glyph and kept:
//! the same pixels as resampling the whole canvas, at the cost of a copy
//! (`strips_match_the_whole_canvas` checks it for every glyph in every slot).

use std::collections::btree_map::Entry;
use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock, PoisonError};

use super::matchstick_glyphs::{ids, segments, GLYPHS, SEGMENT_COORDS};
use super::resample::{resize_area, resize_area_columns, source_columns};
use crate::core::frame::{Frame, Rgb};
use crate::render::{font, raster};

/// The frame's size.
pub const IMAGE_W: u32 = 300;
pub const IMAGE_H: u32 = 80;

/// A symbol's box, the distance between boxes and the canvas height.
const BOX_W: usize = 60;
const PITCH: usize = 68;
const CANVAS_H: u32 = 100;
/// The part of a box the matches are drawn in.
const GLYPH_H: u32 = 80;
/// Where the output columns switch from one slot to the next: this far left of a box,
/// halfway between the previous box's drawing (which ends 26 pixels before the box)
/// and this box's (which starts 4 pixels in).
const SLOT_SWITCH: f64 = 11.0;

const WHITE: Rgb = [255, 255, 255];

/// The canvas width for `n` symbols.
pub fn canvas_width(n: usize) -> u32 {
    ((BOX_W * n + (PITCH - BOX_W) * n.saturating_sub(1)).max(1)) as u32
}

/// The matches of a glyph on white: each segment (ascending) a dark line 8 wide, a
/// light line 6 wide, a red head and a light end (Pillow's pixel centres on integers).
fn draw_glyph(c: char) -> Frame {
    let mut f = Frame::new(BOX_W as u32, GLYPH_H);
    f.fill(WHITE);
    if let Some(set) = segments(c) {
        for s in ids(set) {
            let ((sx, sy), (ex, ey)) = SEGMENT_COORDS[usize::from(s)];
            let a = (f64::from(sx) + 0.5, f64::from(sy) + 0.5);
            let b = (f64::from(ex) + 0.5, f64::from(ey) + 0.5);
            raster::line(&mut f, a, b, 8.0, [100, 80, 40]);
            raster::line(&mut f, a, b, 6.0, [235, 210, 150]);
            raster::fill_circle(&mut f, a.0, a.1, 6.5, [200, 0, 0]);
            raster::fill_circle(&mut f, b.0, b.1, 4.5, [235, 210, 150]);
        }
    }
    f
}

/// Each glyph's drawing, made on first use (the same for every environment).
fn glyph_sprite(c: char) -> Option<&'static Frame> {
    static SPRITES: OnceLock<Vec<(char, Frame)>> = OnceLock::new();
    SPRITES
        .get_or_init(|| GLYPHS.iter().map(|&(g, _)| (g, draw_glyph(g))).collect())
        .iter()
        .find(|(g, _)| *g == c)
        .map(|(_, f)| f)
}

/// Canvas columns `x0..x0 + width` of `n` symbols, slot k showing `glyph(k)`'s matches
/// (none for `None`) and every slot its index.
fn draw_part(n: usize, glyph: impl Fn(usize) -> Option<char>, x0: usize, width: usize) -> Frame {
    let mut part = Frame::new(width as u32, CANVAS_H);
    part.fill(WHITE);
    let stride = width * 3;
    for k in 0..n {
        let bx = PITCH * k;
        if bx + BOX_W <= x0 || bx >= x0 + width {
            continue;
        }
        if let Some(sprite) = glyph(k).and_then(glyph_sprite) {
            let (from, to) = (bx.max(x0), (bx + BOX_W).min(x0 + width));
            let data = part.data_mut();
            for y in 0..GLYPH_H as usize {
                let src = &sprite.data()[(y * BOX_W + from - bx) * 3..(y * BOX_W + to - bx) * 3];
                let at = y * stride + (from - x0) * 3;
                data[at..at + src.len()].copy_from_slice(src);
            }
        }
        let cx = (bx + 30) as i64 - x0 as i64;
        font::draw_text_centered(&mut part, cx, 90, &k.to_string(), 2, [0, 0, 0]);
    }
    part
}

/// The whole canvas before the reference squeezes it.
fn draw_canvas(symbols: &[char]) -> Frame {
    let n = symbols.len();
    draw_part(n, |k| symbols.get(k).copied(), 0, canvas_width(n) as usize)
}

/// Each slot's output columns for `n` symbols (contiguous, in order, covering the frame).
fn slot_columns(n: usize) -> Vec<std::ops::Range<u32>> {
    let f = f64::from(canvas_width(n)) / f64::from(IMAGE_W);
    let slot_of = |ox: u32| {
        let centre = (f64::from(ox) + 0.5) * f;
        (((centre + SLOT_SWITCH) / PITCH as f64).floor().max(0.0) as usize).min(n - 1)
    };
    let mut out = vec![0..0; n];
    for ox in 0..IMAGE_W {
        let k = slot_of(ox);
        if out[k].is_empty() {
            out[k] = ox..ox + 1;
        } else {
            out[k].end = ox + 1;
        }
    }
    out
}

/// Slot `k`'s output columns `columns` with `glyph` in it, of `n` symbols.
fn strip(n: usize, k: usize, glyph: char, columns: std::ops::Range<u32>) -> Option<Vec<u8>> {
    let full = canvas_width(n);
    let src = source_columns(full, IMAGE_W, columns.clone());
    let part = draw_part(n, |j| (j == k).then_some(glyph), src.start, src.len());
    resize_area_columns(&part, src.start, full, (IMAGE_W, IMAGE_H), columns)
}

/// Draws the frame of the symbol row `symbols`.
pub fn render(symbols: &[char], frame: &mut Frame) {
    static STRIPS: Mutex<BTreeMap<(usize, usize, char), Vec<u8>>> = Mutex::new(BTreeMap::new());
    let n = symbols.len();
    frame.resize(IMAGE_W, IMAGE_H);
    if n > 0 {
        let mut strips = STRIPS.lock().unwrap_or_else(PoisonError::into_inner);
        let stride = IMAGE_W as usize * 3;
        let mut complete = true;
        for (k, columns) in slot_columns(n).into_iter().enumerate() {
            let s = match strips.entry((n, k, symbols[k])) {
                Entry::Occupied(e) => e.into_mut(),
                Entry::Vacant(e) => match strip(n, k, symbols[k], columns.clone()) {
                    Some(s) => e.insert(s),
                    None => {
                        complete = false;
                        break;
                    }
                },
            };
            let row_len = columns.len() * 3;
            let data = frame.data_mut();
            for y in 0..IMAGE_H as usize {
                let at = y * stride + columns.start as usize * 3;
                data[at..at + row_len].copy_from_slice(&s[y * row_len..(y + 1) * row_len]);
            }
        }
        if complete {
            return;
        }
    }
    resize_area(&draw_canvas(symbols), frame, IMAGE_W, IMAGE_H);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_match_the_whole_canvas() {
        let glyphs: Vec<char> = GLYPHS.iter().map(|&(g, _)| g).chain([' ']).collect();
        for n in [1, 2, 3, 5, 7, 10, 13, 17, 30] {
            // Every glyph in every slot, next to every other glyph.
            for shift in 0..glyphs.len() {
                let symbols: Vec<char> = (0..n)
                    .map(|k| glyphs[(k * 7 + shift) % glyphs.len()])
                    .collect();
                let mut composed = Frame::default();
                render(&symbols, &mut composed);
                let mut whole = Frame::default();
                resize_area(&draw_canvas(&symbols), &mut whole, IMAGE_W, IMAGE_H);
                assert!(composed.data() == whole.data(), "{symbols:?}");
            }
        }
    }
}
