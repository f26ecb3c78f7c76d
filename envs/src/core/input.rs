//! How people play an environment: keys bound to action presets, and pointer gestures on
//! the frame (a click on a cell or a point, a drag from one tile to another) that the
//! environment turns into actions.

use serde::Serialize;

/// A key (a browser `KeyboardEvent.key` value) that plays one action preset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KeyBinding {
    pub key: &'static str,
    pub action: usize,
}

impl KeyBinding {
    pub const fn new(key: &'static str, action: usize) -> Self {
        Self { key, action }
    }
}

/// What the pointer does on an environment's frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PointerMode {
    /// A click (press and release in place) is an action.
    Click,
    /// A drag from one place to another is an action.
    Drag,
    /// Both.
    ClickOrDrag,
}

/// A gesture on the frame, in frame pixels (not screen pixels).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Gesture {
    Click { x: f64, y: f64 },
    Drag { from: (f64, f64), to: (f64, f64) },
}

/// A grid drawn on the frame: which cell a point falls in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridGeometry {
    /// The top-left corner of cell (0, 0), in frame pixels.
    pub left: f64,
    pub top: f64,
    pub cell_width: f64,
    pub cell_height: f64,
    pub rows: u32,
    pub cols: u32,
}

impl GridGeometry {
    /// The (row, column) under a point, if it is on the grid.
    pub fn cell_at(&self, x: f64, y: f64) -> Option<(u32, u32)> {
        let col = ((x - self.left) / self.cell_width).floor();
        let row = ((y - self.top) / self.cell_height).floor();
        let inside = |v: f64, n: u32| v >= 0.0 && v < f64::from(n);
        (inside(row, self.rows) && inside(col, self.cols)).then_some((row as u32, col as u32))
    }

    /// The centre of a cell, in frame pixels.
    pub fn centre(&self, row: u32, col: u32) -> (f64, f64) {
        (
            self.left + (f64::from(col) + 0.5) * self.cell_width,
            self.top + (f64::from(row) + 0.5) * self.cell_height,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_map_to_cells_and_back() {
        let g = GridGeometry {
            left: 50.0,
            top: 50.0,
            cell_width: 150.0,
            cell_height: 150.0,
            rows: 3,
            cols: 3,
        };
        assert_eq!(g.cell_at(375.0, 250.0), Some((1, 2)));
        assert_eq!(g.cell_at(49.0, 250.0), None);
        assert_eq!(g.cell_at(499.0, 499.0), Some((2, 2)));
        assert_eq!(g.cell_at(500.0, 100.0), None);
        let (x, y) = g.centre(2, 0);
        assert_eq!(g.cell_at(x, y), Some((2, 0)));
    }
}
