//! The 2048 window as the reference paints it: background (187,173,160), 125-px boxes each
//! holding a 101-px tile 12 px in, the value centred in the box (dark text on 2 and 4,
//! light otherwise), no score; when the game is over, (238,228,218) at alpha 200 over
//! everything and "GAME OVER!" or "YOU WIN!" in black, centred, near y = 166.

use super::{Board, Status, FRAME_SIZE};
use crate::core::frame::Rgb;
use crate::gameverse::pixels;
use crate::Frame;

const BACKGROUND: Rgb = [187, 173, 160];
const DARK_TEXT: Rgb = [119, 110, 101];
const LIGHT_TEXT: Rgb = [249, 246, 242];
const OVERLAY: Rgb = [238, 228, 218];
const OVERLAY_ALPHA: u8 = 200;
const BOX: i64 = 125;
const PADDING: i64 = 12;
/// Our font at this scale stands about as tall as the reference's 41-px digits.
const NUMBER_SCALE: u32 = 4;
const TITLE_SCALE: u32 = 5;
/// Top of the title's rendered line in the reference, plus the room above its capitals.
const TITLE_TOP: i64 = 166 + 10;

/// The tile colour of a value (the reference defines them up to 2048).
pub fn tile_color(value: u32) -> Rgb {
    match value {
        0 => [205, 193, 180],
        2 => [238, 228, 218],
        4 => [237, 224, 200],
        8 => [242, 177, 121],
        16 => [245, 149, 99],
        32 => [246, 124, 95],
        64 => [246, 94, 59],
        128 => [237, 207, 114],
        256 => [237, 204, 97],
        512 => [237, 200, 80],
        1024 => [237, 197, 63],
        _ => [237, 194, 46],
    }
}

pub fn draw(board: &Board, status: Status, frame: &mut Frame) {
    frame.resize(FRAME_SIZE, FRAME_SIZE);
    frame.fill(BACKGROUND);
    for (i, row) in board.iter().enumerate() {
        for (j, &value) in row.iter().enumerate() {
            let (x, y) = (j as i64 * BOX, i as i64 * BOX);
            let side = BOX - 2 * PADDING;
            pixels::fill_rect(
                frame,
                x + PADDING,
                y + PADDING,
                side,
                side,
                tile_color(value),
            );
            if value != 0 {
                let text = value.to_string();
                let color = if value <= 4 { DARK_TEXT } else { LIGHT_TEXT };
                let w = pixels::bold_text_width(&text, NUMBER_SCALE);
                let h = i64::from(crate::render::font::GLYPH_H * NUMBER_SCALE);
                pixels::draw_bold_text(
                    frame,
                    x + (BOX - w) / 2,
                    y + (BOX - h) / 2,
                    &text,
                    NUMBER_SCALE,
                    color,
                );
            }
        }
    }
    if status != Status::Play {
        let size = i64::from(FRAME_SIZE);
        pixels::blend_rect(frame, 0, 0, size, size, OVERLAY, OVERLAY_ALPHA);
        let title = if status == Status::Win {
            "YOU WIN!"
        } else {
            "GAME OVER!"
        };
        let w = pixels::bold_text_width(title, TITLE_SCALE);
        pixels::draw_bold_text(
            frame,
            (size - w) / 2,
            TITLE_TOP,
            title,
            TITLE_SCALE,
            [0, 0, 0],
        );
    }
}
