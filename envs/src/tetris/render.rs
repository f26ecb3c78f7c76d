//! The frame of the package's RGB observation wrapper: the padded board on the left, the
//! queue at the top right, bedrock grey below it and the holder at the bottom right,
//! every cell a square block of `render_upscale` pixels. (The environment's own
//! `rgb_array` render fails on numpy 2; the wrapper draws the same layout.)

use crate::core::frame::Frame;

use super::env::{Tetris, QUEUE_SIZE};
use super::pieces::{BEDROCK, CELL_COLORS, PADDING};

/// Width in cells of the panel right of the board (the queue, the wider of queue and holder).
const PANEL_COLS: usize = PADDING * QUEUE_SIZE;

impl Tetris {
    /// Frame size in pixels: (cols + 16) × rows cells.
    pub fn frame_dims(&self) -> (u32, u32) {
        let up = self.config().render_upscale;
        (
            (self.cols() + PANEL_COLS) as u32 * up,
            self.rows() as u32 * up,
        )
    }

    /// The grid of cell values the frame shows, rows × (cols + 16).
    pub fn frame_cells(&self) -> Vec<u8> {
        let obs = self.observation_dict();
        let (rows, cols) = (self.rows(), self.cols());
        let width = cols + PANEL_COLS;
        let mut grid = vec![BEDROCK; rows * width];
        for r in 0..rows {
            grid[r * width..r * width + cols].copy_from_slice(&obs.board[r * cols..(r + 1) * cols]);
        }
        for r in 0..PADDING {
            let queue_row = &obs.queue[r * PANEL_COLS..(r + 1) * PANEL_COLS];
            grid[r * width + cols..(r + 1) * width].copy_from_slice(queue_row);
            let holder_row = &obs.holder[r * PADDING..(r + 1) * PADDING];
            let at = (rows - PADDING + r) * width + cols;
            grid[at..at + PADDING].copy_from_slice(holder_row);
        }
        grid
    }

    /// The wrapper's frame of the current state.
    pub fn draw(&self, frame: &mut Frame) {
        let (w, h) = self.frame_dims();
        frame.resize(w, h);
        let up = self.config().render_upscale as usize;
        let cells = self.frame_cells();
        let grid_width = self.cols() + PANEL_COLS;
        let row_bytes = w as usize * 3;
        let data = frame.data_mut();
        for (r, grid_row) in cells.chunks_exact(grid_width).enumerate() {
            let first = r * up * row_bytes;
            let line = &mut data[first..first + row_bytes];
            for (c, &v) in grid_row.iter().enumerate() {
                let color = CELL_COLORS[usize::from(v).min(CELL_COLORS.len() - 1)];
                for px in line[c * up * 3..(c + 1) * up * 3].chunks_exact_mut(3) {
                    px.copy_from_slice(&color);
                }
            }
            for k in 1..up {
                data.copy_within(first..first + row_bytes, first + k * row_bytes);
            }
        }
    }
}
