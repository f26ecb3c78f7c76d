//! The seven tetrominoes, their cell values and colours, and the package's rotation.

use crate::core::frame::Rgb;

/// Cell value of an empty cell.
pub const EMPTY: u8 = 0;
/// Cell value of the bedrock that frames the well (and fills the panel's gaps).
pub const BEDROCK: u8 = 1;
/// Piece index `i` is stored on the board as `i + PIECE_VALUE_OFFSET`.
pub const PIECE_VALUE_OFFSET: u8 = 2;
/// The padding around the well: the largest piece matrix side.
pub const PADDING: usize = 4;

pub const PIECE_NAMES: [&str; 7] = ["I", "O", "T", "S", "Z", "J", "L"];

/// Colour of every cell value 0..=8 (empty, bedrock, I, O, T, S, Z, J, L).
pub const CELL_COLORS: [Rgb; 9] = [
    [0, 0, 0],
    [128, 128, 128],
    [0, 240, 240],
    [240, 240, 0],
    [160, 0, 240],
    [0, 240, 0],
    [240, 0, 0],
    [0, 0, 240],
    [240, 160, 0],
];

/// Spawn shapes, rows top to bottom (`#` = a cell of the piece).
const SHAPES: [&[&str]; 7] = [
    &["....", "####", "....", "...."],
    &["##", "##"],
    &[".#.", "###", "..."],
    &[".##", "##.", "..."],
    &["##.", ".##", "..."],
    &["#..", "###", "..."],
    &["..#", "###", "..."],
];

/// A piece in some orientation: a square matrix of cell values (0 or the piece's value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Piece {
    value: u8,
    size: usize,
    cells: [u8; PADDING * PADDING],
}

impl Piece {
    /// Piece `index` (0..7, I O T S Z J L) in its spawn orientation.
    pub fn spawn(index: usize) -> Self {
        let shape = SHAPES[index % SHAPES.len()];
        let value = index as u8 + PIECE_VALUE_OFFSET;
        let mut cells = [EMPTY; PADDING * PADDING];
        for (r, row) in shape.iter().enumerate() {
            for (c, ch) in row.bytes().enumerate() {
                if ch == b'#' {
                    cells[r * shape.len() + c] = value;
                }
            }
        }
        Self {
            value,
            size: shape.len(),
            cells,
        }
    }

    /// The board value of this piece's cells (2..=8).
    pub fn value(&self) -> u8 {
        self.value
    }

    /// Side of the square matrix.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Matrix entry at (row, col): 0 or the piece's value.
    pub fn cell(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.size + col]
    }

    /// The matrix turned a quarter: `counter_clockwise` is numpy's `rot90(m, k=1)`, which
    /// the package calls "clockwise" (its action 3); the other way is `k=-1`.
    pub fn rotated(&self, counter_clockwise: bool) -> Self {
        let n = self.size;
        let mut cells = [EMPTY; PADDING * PADDING];
        for i in 0..n {
            for j in 0..n {
                cells[i * n + j] = if counter_clockwise {
                    self.cell(j, n - 1 - i)
                } else {
                    self.cell(n - 1 - j, i)
                };
            }
        }
        Self { cells, ..*self }
    }

    /// Matrix rows as digit strings, e.g. `["070", "777", "000"]`.
    pub fn rows(&self) -> Vec<String> {
        (0..self.size)
            .map(|r| {
                (0..self.size)
                    .map(|c| char::from(b'0' + self.cell(r, c)))
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spawn_matrices_carry_their_value() {
        assert_eq!(Piece::spawn(0).rows(), ["0000", "2222", "0000", "0000"]);
        assert_eq!(Piece::spawn(1).rows(), ["33", "33"]);
        assert_eq!(Piece::spawn(5).rows(), ["700", "777", "000"]);
    }

    #[test]
    fn rotation_follows_numpy_rot90() {
        // rot90(k=1) of the T turns its nose from up to left.
        let t = Piece::spawn(2);
        assert_eq!(t.rotated(true).rows(), ["040", "440", "040"]);
        assert_eq!(t.rotated(false).rows(), ["040", "044", "040"]);
        assert_eq!(t.rotated(true).rotated(false), t);
        let i = Piece::spawn(0);
        assert_eq!(i.rotated(true).rows(), ["0200", "0200", "0200", "0200"]);
        assert_eq!(i.rotated(false).rows(), ["0020", "0020", "0020", "0020"]);
        assert_eq!(Piece::spawn(1).rotated(true), Piece::spawn(1));
    }
}
