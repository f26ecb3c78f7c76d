//! Patch Reassembly: an R×C board cut into P irregular patches, all parked around it;
//! the agent places them (`('place', (p, row, col))` snaps the patch's anchor cell,
//! its top-left one, onto the board cell), removes them, and stops when the board is
//! tiled. Patches grow round-robin from seed cells drawn by CPython's `random`.
//!
//! Coordinates keep the payload's Python type: a float row or column that places a
//! patch on the board makes every later step raise in the reference (numpy refuses
//! float indices), which is reproduced; complex coordinates are not modelled.

use std::collections::{BTreeSet, VecDeque};

use serde_json::{json, Value};

use super::action::{resolve, Resolved, StepResult, EXECUTED};
use super::python::{py_str, PyException, PyValue};
use super::signature::{FnSig, Payload};
use super::solve_kwargs::SolveKwargs;
use super::spaces::ArgSpace;
use super::{RenderMode, VisGymEnv};
use crate::core::action::ArgKind;
use crate::core::env::{KeyBinding, Words};
use crate::core::frame::{Frame, Rgb};
use crate::core::input::{Gesture, PointerMode};
use crate::render::{font, raster};
use crate::rng::{NpRandom, PyRandom};

const CELL: i64 = 40;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchReassemblyConfig {
    pub rows: usize,
    pub cols: usize,
    pub patches: usize,
    pub seed: u64,
}

/// A coordinate as the payload gave it: an int, or a float (which numpy cannot use as
/// an index).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Coord {
    Int(i64),
    Float(f64),
}

impl Coord {
    fn value(self) -> f64 {
        match self {
            Coord::Int(i) => i as f64,
            Coord::Float(f) => f,
        }
    }

    fn json(self) -> Value {
        match self {
            Coord::Int(i) => json!(i),
            Coord::Float(f) => json!(f),
        }
    }
}

#[derive(Clone, Debug)]
pub struct PatchReassembly {
    config: PatchReassemblyConfig,
    random: PyRandom,
    colors: Vec<Rgb>,
    /// Cells of each patch in board coordinates of its original position, sorted.
    patches: Vec<Vec<(i64, i64)>>,
    anchors: Vec<(i64, i64)>,
    parking: Vec<(i64, i64)>,
    current: Vec<(Coord, Coord)>,
    bounds: (i64, i64, i64, i64),
}

fn index_error() -> PyException {
    PyException {
        class: "IndexError",
        message: "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices".into(),
    }
}

impl PatchReassembly {
    /// The reference's constructor generates patches, then resets once more.
    pub fn new(config: PatchReassemblyConfig) -> Self {
        let mut colors_rng = NpRandom::seeded(42);
        let colors = (0..config.patches)
            .map(|_| {
                let mut c = [0u8; 3];
                for v in &mut c {
                    *v = colors_rng.integers(50, 230).unwrap_or(50) as u8;
                }
                c
            })
            .collect();
        let mut env = PatchReassembly {
            random: PyRandom::new(config.seed),
            colors,
            patches: Vec::new(),
            anchors: Vec::new(),
            parking: Vec::new(),
            current: Vec::new(),
            bounds: (0, 0, 0, 0),
            config,
        };
        env.generate();
        env.reset(None);
        env
    }

    fn functions(&self) -> Vec<(&'static str, ArgSpace)> {
        let c = &self.config;
        vec![
            (
                "place",
                ArgSpace::MultiDiscrete {
                    nvec: vec![c.patches as i64, c.rows as i64, c.cols as i64],
                },
            ),
            ("remove", ArgSpace::discrete(c.patches as i64)),
            ("stop", ArgSpace::text4()),
        ]
    }

    /// `_generate_irregular_patches` and `_make_parking_slots`.
    fn generate(&mut self) {
        let (rows, cols, p) = (self.config.rows, self.config.cols, self.config.patches);
        let all: Vec<(i64, i64)> = (0..rows as i64)
            .flat_map(|r| (0..cols as i64).map(move |c| (r, c)))
            .collect();
        let seeds = self.random.sample(&all, p).unwrap_or_default();
        let mut owner = vec![vec![usize::MAX; cols]; rows];
        let mut frontiers: Vec<VecDeque<(i64, i64)>> =
            seeds.iter().map(|&s| VecDeque::from([s])).collect();
        for (pid, &(r, c)) in seeds.iter().enumerate() {
            owner[r as usize][c as usize] = pid;
        }
        let mut remaining = rows * cols - p;
        'grow: while remaining > 0 {
            let mut progressed = false;
            for (pid, frontier) in frontiers.iter_mut().enumerate() {
                if remaining == 0 {
                    break 'grow;
                }
                let Some((r, c)) = frontier.pop_front() else {
                    continue;
                };
                progressed = true;
                for (nr, nc) in [(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)] {
                    if nr >= 0
                        && nc >= 0
                        && nr < rows as i64
                        && nc < cols as i64
                        && owner[nr as usize][nc as usize] == usize::MAX
                    {
                        owner[nr as usize][nc as usize] = pid;
                        frontier.push_back((nr, nc));
                        remaining -= 1;
                        if remaining == 0 {
                            break;
                        }
                    }
                }
            }
            if !progressed {
                break;
            }
        }
        self.patches = (0..p)
            .map(|pid| {
                let mut cells = Vec::new();
                for (r, row) in owner.iter().enumerate() {
                    for (c, &o) in row.iter().enumerate() {
                        if o == pid {
                            cells.push((r as i64, c as i64));
                        }
                    }
                }
                cells
            })
            .collect();
        self.anchors = self
            .patches
            .iter()
            .map(|cells| cells.iter().min().copied().unwrap_or((0, 0)))
            .collect();

        let (r_count, c_count) = (rows as i64, cols as i64);
        let mut cursors = [0i64; 4];
        self.parking = (0..p)
            .map(|pid| {
                let (ar, ac) = self.anchors[pid];
                let rs = self.patches[pid].iter().map(|&(r, _)| r - ar);
                let cs = self.patches[pid].iter().map(|&(_, c)| c - ac);
                let (min_dr, max_dr) = (rs.clone().min().unwrap_or(0), rs.max().unwrap_or(0));
                let (min_dc, max_dc) = (cs.clone().min().unwrap_or(0), cs.max().unwrap_or(0));
                let (h, w) = (max_dr - min_dr + 1, max_dc - min_dc + 1);
                match pid % 4 {
                    0 => {
                        let slot = (-(2 + max_dr), cursors[0] - min_dc);
                        cursors[0] += w + 2;
                        slot
                    }
                    1 => {
                        let slot = (cursors[1] - min_dr, c_count + 1 - min_dc);
                        cursors[1] += h + 1;
                        slot
                    }
                    2 => {
                        let slot = (r_count + 1 - min_dr, cursors[2] - min_dc);
                        cursors[2] += w + 1;
                        slot
                    }
                    _ => {
                        let slot = (cursors[3] - min_dr, -(2 + max_dc));
                        cursors[3] += h + 2;
                        slot
                    }
                }
            })
            .collect();
    }

    fn on_board(&self, (r, c): (Coord, Coord)) -> bool {
        let (r, c) = (r.value(), c.value());
        0.0 <= r && r < self.config.rows as f64 && 0.0 <= c && c < self.config.cols as f64
    }

    /// Cells of patch `pid` with its anchor at `at`, as f64 board coordinates.
    fn cells_at(&self, pid: usize, at: (Coord, Coord)) -> Vec<(f64, f64)> {
        let (ar, ac) = self.anchors[pid];
        let (dr, dc) = (at.0.value() - ar as f64, at.1.value() - ac as f64);
        self.patches[pid]
            .iter()
            .map(|&(r, c)| (r as f64 + dr, c as f64 + dc))
            .collect()
    }

    fn valid_placement(&self, pid: usize, at: (Coord, Coord)) -> bool {
        let cells = self.cells_at(pid, at);
        let (rows, cols) = (self.config.rows as f64, self.config.cols as f64);
        if !cells
            .iter()
            .all(|&(r, c)| 0.0 <= r && r < rows && 0.0 <= c && c < cols)
        {
            return false;
        }
        self.current.iter().enumerate().all(|(other, &anchor)| {
            other == pid
                || !self.on_board(anchor)
                || !self
                    .cells_at(other, anchor)
                    .iter()
                    .any(|cell| cells.contains(cell))
        })
    }

    /// `_get_grid`: the owner of each board cell; numpy refuses float indices.
    fn grid(&self) -> Result<Vec<Vec<i64>>, PyException> {
        let mut grid = vec![vec![-1i64; self.config.cols]; self.config.rows];
        for (pid, &anchor) in self.current.iter().enumerate() {
            if !self.on_board(anchor) {
                continue;
            }
            if matches!(anchor.0, Coord::Float(_)) || matches!(anchor.1, Coord::Float(_)) {
                return Err(index_error());
            }
            for (r, c) in self.cells_at(pid, anchor) {
                grid[r as usize][c as usize] = pid as i64;
            }
        }
        Ok(grid)
    }

    fn solved(&self) -> Result<bool, PyException> {
        for &anchor in &self.current {
            if !self.on_board(anchor) {
                return Ok(false);
            }
        }
        Ok(self.grid()?.iter().flatten().all(|&v| v != -1))
    }

    fn count_filled(&self) -> usize {
        self.grid()
            .map(|g| g.iter().flatten().filter(|&&v| v != -1).count())
            .unwrap_or(0)
    }

    fn count_filled_with(&self, test_pos: (Coord, Coord), test_pid: usize) -> usize {
        let mut count = 0;
        for pid in 0..self.current.len() {
            let anchor = if pid == test_pid {
                test_pos
            } else {
                self.current[pid]
            };
            if self.on_board(anchor) {
                let (rows, cols) = (self.config.rows as f64, self.config.cols as f64);
                count += self
                    .cells_at(pid, anchor)
                    .iter()
                    .filter(|&&(r, c)| 0.0 <= r && r < rows && 0.0 <= c && c < cols)
                    .count();
            }
        }
        count
    }

    fn int_pos(r: i64, c: i64) -> (Coord, Coord) {
        (Coord::Int(r), Coord::Int(c))
    }

    fn backtrack(&mut self, unplaced: &[usize], idx: usize, solution: &mut Vec<String>) -> bool {
        if idx >= unplaced.len() {
            return self.solved().unwrap_or(false);
        }
        let pid = unplaced[idx];
        for row in 0..self.config.rows as i64 {
            for col in 0..self.config.cols as i64 {
                if self.valid_placement(pid, Self::int_pos(row, col)) {
                    let original = self.current[pid];
                    self.current[pid] = Self::int_pos(row, col);
                    solution.push(format!("('place', ({pid}, {row}, {col}))"));
                    if self.backtrack(unplaced, idx + 1, solution) {
                        return true;
                    }
                    self.current[pid] = original;
                    solution.pop();
                }
            }
        }
        false
    }

    fn heuristic(&self) -> Vec<String> {
        let mut state = self.clone();
        let (rows, cols) = (self.config.rows as i64, self.config.cols as i64);
        for pid in 0..state.current.len() {
            if !state.on_board(state.current[pid]) {
                for row in 0..rows {
                    for col in 0..cols {
                        if state.valid_placement(pid, Self::int_pos(row, col)) {
                            return vec![format!("('place', ({pid}, {row}, {col}))")];
                        }
                    }
                }
            }
        }
        for pid in 0..state.current.len() {
            if !state.on_board(state.current[pid]) {
                continue;
            }
            let original = state.current[pid];
            let (pr, pc) = state.parking[pid];
            state.current[pid] = Self::int_pos(pr, pc);
            for row in 0..rows {
                for col in 0..cols {
                    if state.valid_placement(pid, Self::int_pos(row, col)) {
                        state.current[pid] = Self::int_pos(row, col);
                        if state.count_filled() > state.count_filled_with(original, pid) {
                            return vec![
                                format!("('remove', {pid})"),
                                format!("('place', ({pid}, {row}, {col}))"),
                            ];
                        }
                        state.current[pid] = Self::int_pos(pr, pc);
                    }
                }
            }
            state.current[pid] = original;
        }
        vec!["('stop', 'stop')".to_string()]
    }

    fn draw(&self, frame: &mut Frame) {
        let (min_r, max_r, min_c, max_c) = self.bounds;
        let (h, w) = ((max_r - min_r + 3) * CELL, (max_c - min_c + 3) * CELL);
        frame.resize(w as u32, h as u32);
        frame.fill([255, 255, 255]);
        let (off_r, off_c) = (1 - min_r, 1 - min_c);
        let (gx0, gy0) = (off_c * CELL, off_r * CELL);
        let (gw, gh) = (
            self.config.cols as i64 * CELL,
            self.config.rows as i64 * CELL,
        );
        let grey = [200, 200, 200];
        for r in 0..=self.config.rows as i64 {
            let y = (gy0 + r * CELL) as f64;
            raster::fill_rect(frame, gx0 as f64, y, (gx0 + gw + 1) as f64, y + 1.0, grey);
        }
        for c in 0..=self.config.cols as i64 {
            let x = (gx0 + c * CELL) as f64;
            raster::fill_rect(frame, x, gy0 as f64, x + 1.0, (gy0 + gh + 1) as f64, grey);
        }
        let blue = [0, 120, 255];
        for c in 0..self.config.cols as i64 {
            let label = c.to_string();
            font::draw_text_centered(
                frame,
                gx0 + c * CELL + CELL / 2,
                gy0 - CELL / 2,
                &label,
                3,
                blue,
            );
        }
        for r in 0..self.config.rows as i64 {
            let label = r.to_string();
            font::draw_text_centered(
                frame,
                gx0 - CELL / 2,
                gy0 + r * CELL + CELL / 2,
                &label,
                3,
                blue,
            );
        }
        for (pid, &anchor) in self.current.iter().enumerate() {
            let color = self.colors[pid];
            let bright = (f64::from(color[0]) + f64::from(color[1]) + f64::from(color[2])) / 3.0;
            let text = if bright > 128.0 {
                [0, 0, 0]
            } else {
                [255, 255, 255]
            };
            for (r, c) in self.cells_at(pid, anchor) {
                let (px, py) = (
                    (off_c as f64 + c) * CELL as f64,
                    (off_r as f64 + r) * CELL as f64,
                );
                // Pillow fills [x, x+40] inclusive with a 1-pixel black outline.
                raster::fill_rect(frame, px, py, px + 41.0, py + 41.0, [0, 0, 0]);
                raster::fill_rect(frame, px + 1.0, py + 1.0, px + 40.0, py + 40.0, color);
            }
            let (px, py) = (
                ((off_c as f64 + anchor.1.value()) * CELL as f64) as i64 + CELL / 2,
                ((off_r as f64 + anchor.0.value()) * CELL as f64) as i64 + CELL / 2,
            );
            font::draw_text_centered(frame, px, py, &pid.to_string(), 3, text);
        }
    }
}

impl VisGymEnv for PatchReassembly {
    fn reset(&mut self, seed: Option<u64>) {
        if let Some(s) = seed {
            self.random = PyRandom::new(s);
        }
        self.generate();
        self.current = self
            .parking
            .iter()
            .map(|&(r, c)| Self::int_pos(r, c))
            .collect();
        // `_freeze_canvas`: the board and every parked patch, fixed for the episode.
        let mut rs: Vec<i64> = vec![0, self.config.rows as i64 - 1];
        let mut cs: Vec<i64> = vec![0, self.config.cols as i64 - 1];
        for pid in 0..self.config.patches {
            let (pr, pc) = self.parking[pid];
            for (r, c) in self.cells_at(pid, Self::int_pos(pr, pc)) {
                rs.push(r as i64);
                cs.push(c as i64);
            }
        }
        self.bounds = (
            rs.iter().copied().min().unwrap_or(0),
            rs.iter().copied().max().unwrap_or(0),
            cs.iter().copied().min().unwrap_or(0),
            cs.iter().copied().max().unwrap_or(0),
        );
    }

    fn step(&mut self, action: &str) -> Result<StepResult, PyException> {
        let mut result = StepResult::feedback(EXECUTED);
        match resolve(action, &self.functions())? {
            Resolved::Rejected(f) => result.feedback = f,
            Resolved::Call { index: 0, payload } => {
                let items = match &payload {
                    PyValue::Tuple(v) | PyValue::List(v) => v.clone(),
                    _ => Vec::new(),
                };
                let pid = match &items[0] {
                    PyValue::Int(i) => i.as_i64().unwrap_or(0) as usize,
                    PyValue::Bool(b) => usize::from(*b),
                    other => {
                        return Err(PyException {
                            class: "TypeError",
                            message: format!(
                                "list indices must be integers or slices, not {}",
                                other.type_name()
                            ),
                        })
                    }
                };
                let coord = |v: &PyValue| -> Result<Coord, PyException> {
                    match v {
                        PyValue::Int(i) => Ok(Coord::Int(i.as_i64().unwrap_or(0))),
                        PyValue::Bool(b) => Ok(Coord::Int(i64::from(*b))),
                        PyValue::Float(f) => Ok(Coord::Float(*f)),
                        _ => Err(PyException {
                            class: "TypeError",
                            message: "'<=' not supported between instances of 'int' and 'complex'"
                                .into(),
                        }),
                    }
                };
                let at = (coord(&items[1])?, coord(&items[2])?);
                if self.valid_placement(pid, at) {
                    self.current[pid] = at;
                } else {
                    result.feedback = format!(
                        "The action is not valid because the patch {} cannot be placed at ({}, {}).",
                        py_str(&items[0]),
                        py_str(&items[1]),
                        py_str(&items[2])
                    );
                }
            }
            Resolved::Call { index: 1, payload } => {
                let pid = payload.as_int().and_then(|i| i.as_i64()).unwrap_or(0) as usize;
                if self.on_board(self.current[pid]) {
                    let (r, c) = self.parking[pid];
                    self.current[pid] = Self::int_pos(r, c);
                } else {
                    result.feedback = format!(
                        "The action is not valid because the patch {} is already in the parking slot.",
                        py_str(&payload)
                    );
                }
            }
            Resolved::Call { .. } => {
                result.terminated = true;
                result.reward = if self.solved()? { 1.0 } else { 0.0 };
            }
        }
        // `_get_info` builds the grid after every step.
        self.grid()?;
        Ok(result)
    }

    fn state_json(&self, at_reset: bool) -> Value {
        let current: Vec<Value> = self
            .current
            .iter()
            .map(|&(r, c)| json!([r.json(), c.json()]))
            .collect();
        let mut v = json!({ "current_state": current });
        if at_reset {
            v["patches"] = json!(self
                .patches
                .iter()
                .map(|cells| cells.iter().map(|&(r, c)| [r, c]).collect::<Vec<_>>())
                .collect::<Vec<_>>());
            v["patch_anchor"] = json!(self
                .anchors
                .iter()
                .map(|&(r, c)| [r, c])
                .collect::<Vec<_>>());
            v["parking_slot"] = json!(self
                .parking
                .iter()
                .map(|&(r, c)| [r, c])
                .collect::<Vec<_>>());
            v["colors"] = json!(self.colors);
            let (a, b, c, d) = self.bounds;
            v["canvas_bounds"] = json!([a, b, c, d]);
        }
        v
    }

    fn prompt(&self, mode: RenderMode) -> Option<String> {
        let c = &self.config;
        let view = match mode {
            RenderMode::Ansi => "You are given a text-based representation of the grid. Patches on the board are shown with their ID number, and empty cells are marked with '.'. Parked patches are displayed below the grid as small ASCII shapes. The anchor cell for each parked patch is marked with a '*' instead of its ID number.",
            RenderMode::RgbArray => "You see an image of the board and the parked patches.",
        };
        let (rows, cols, p) = (c.rows, c.cols, c.patches);
        let (p1, r1, c1) = (p - 1, rows - 1, cols - 1);
        Some(format!(
            "You are solving a {rows}×{cols} patch-reassembly puzzle. There are {p} irregular pieces parked around the board. Your goal is to place them so the grid is completely filled—no gaps, no overlaps.\n\
{view}\n\
\n\
Available actions:\n\
1. 'place': Snap a patch onto the grid by aligning its anchor (the cell that shows the patch's ID number) with a chosen board coordinate. Format: `('place', (patch_id, row, col))` where patch_id ∈ [0, {p1}], row ∈ [0, {r1}], col ∈ [0, {c1}].\n\
2. 'remove': Return a patch to its parking slot. Format: `('remove', patch_id)` where patch_id ∈ [0, {p1}].\n\
3. 'stop': End the episode and submit your solution. Format: `('stop', 'stop')`\n\
\n\
Success: You succeed if the grid is completely filled with no gaps or overlaps.\n\
\n\
Please respond with exactly one action and its arguments in the specified format. For example:\n\
- To place patch 0 at (2, 3): `('place', (0, 2, 3))`\n\
- To remove patch 0: `('remove', 0)`\n\
- To finish: `('stop', 'stop')`"
        ))
    }

    fn text_frame(&self) -> Option<String> {
        let (rows, cols) = (self.config.rows, self.config.cols);
        let grid = self.grid().ok()?;
        let mut out = Vec::new();
        let header: Vec<String> = (0..cols).map(|c| format!("{c:<2}")).collect();
        out.push(format!("   {}", header.join(" ")));
        out.push(format!("  {}", "-".repeat(cols * 3)));
        for (r, row) in grid.iter().enumerate().take(rows) {
            let mut line = format!("{r:<2}|");
            for &v in row {
                if v == -1 {
                    line.push_str(" . ");
                } else {
                    line.push_str(&format!(" {v:<2}"));
                }
            }
            out.push(line);
        }
        out.push("\n--- Parked Patches ---".to_string());
        let mut any = false;
        for (pid, &anchor) in self.current.iter().enumerate() {
            if self.on_board(anchor) {
                continue;
            }
            any = true;
            out.push(format!("\nPatch {pid}:"));
            let (ar, ac) = self.anchors[pid];
            let rel: BTreeSet<(i64, i64)> = self.patches[pid]
                .iter()
                .map(|&(r, c)| (r - ar, c - ac))
                .collect();
            let min_r = rel.iter().map(|p| p.0).min().unwrap_or(0);
            let max_r = rel.iter().map(|p| p.0).max().unwrap_or(0);
            let min_c = rel.iter().map(|p| p.1).min().unwrap_or(0);
            let max_c = rel.iter().map(|p| p.1).max().unwrap_or(0);
            let digit = pid.to_string();
            for r in min_r..=max_r {
                let mut line = String::from("  ");
                for c in min_c..=max_c {
                    if !rel.contains(&(r, c)) {
                        line.push(' ');
                    } else if (r, c) == (0, 0) {
                        line.push('*');
                    } else {
                        line.push_str(&digit);
                    }
                }
                out.push(line);
            }
        }
        if !any {
            out.push("  (None)".to_string());
        }
        Some(out.join("\n"))
    }

    fn frame_size(&self) -> (u32, u32) {
        let (min_r, max_r, min_c, max_c) = self.bounds;
        (
            ((max_c - min_c + 3) * CELL) as u32,
            ((max_r - min_r + 3) * CELL) as u32,
        )
    }

    fn render(&self, frame: &mut Frame) {
        self.draw(frame);
    }

    /// Depth-first placement of the parked patches (rows, then columns), then stop.
    fn solve(&self) -> Vec<String> {
        if self.solved().unwrap_or(false) {
            return vec!["('stop', 'stop')".to_string()];
        }
        let unplaced: Vec<usize> = (0..self.current.len())
            .filter(|&pid| !self.on_board(self.current[pid]))
            .collect();
        let mut solution = if unplaced.is_empty() {
            // Everything is on the board but wrong: the reference's next-move
            // heuristic, then its stop.
            self.heuristic()
        } else {
            let mut work = self.clone();
            let mut placed = Vec::new();
            if !work.backtrack(&unplaced, 0, &mut placed) {
                return self.heuristic();
            }
            placed
        };
        solution.push("('stop', 'stop')".to_string());
        solution
    }

    fn solve_named(&self, name: &str) -> Option<Vec<String>> {
        (name == "oracle").then(|| self.solve())
    }

    fn clone_box(&self) -> Box<dyn VisGymEnv> {
        Box::new(self.clone())
    }

    fn functions(&self) -> Vec<(&'static str, ArgSpace)> {
        PatchReassembly::functions(self)
    }

    fn signatures(&self) -> Vec<FnSig> {
        let c = &self.config;
        let patch = FnSig::int(0, c.patches as i64 - 1);
        vec![
            FnSig::new(
                "place",
                "Put a patch on the board with its anchor (the cell showing its number) on a cell",
                Payload::Tuple,
                &[
                    ("patch", patch.clone()),
                    (
                        "cell",
                        ArgKind::Cell {
                            rows: c.rows as u32,
                            cols: c.cols as u32,
                        },
                    ),
                ],
            ),
            FnSig::new(
                "remove",
                "Return a patch to its parking slot",
                Payload::Value,
                &[("patch", patch)],
            ),
            FnSig::stop(),
        ]
    }

    /// `solve(strategy=None, num_steps=None)`: the strategy is not read; padding is not
    /// reproduced.
    fn solve_kwargs(&self, kw: &mut SolveKwargs) -> Result<Vec<String>, String> {
        kw.ignored("strategy");
        kw.default_only("num_steps", Value::Null)?;
        Ok(self.solve())
    }

    /// Removing each patch, and stop (patches are placed with the pointer).
    fn presets(&self) -> Vec<String> {
        let mut p: Vec<String> = (0..self.config.patches)
            .map(|pid| format!("('remove', {pid})"))
            .collect();
        p.push("('stop', 'stop')".to_string());
        p
    }

    fn keymap(&self) -> Vec<KeyBinding> {
        vec![KeyBinding::new("Enter", self.config.patches)]
    }

    fn pointer_mode(&self) -> Option<PointerMode> {
        Some(PointerMode::ClickOrDrag)
    }

    /// Dragging a patch by any of its cells onto the board places it where it is
    /// dropped; dragging a placed patch off the board, or clicking it, removes it.
    fn pointer_action(&self, gesture: Gesture) -> Option<String> {
        let (from, to) = match gesture {
            Gesture::Click { x, y } => ((x, y), None),
            Gesture::Drag { from, to } => (from, Some(to)),
        };
        let (r0, c0) = self.board_cell(from);
        let pid = (0..self.current.len()).find(|&pid| {
            self.cells_at(pid, self.current[pid])
                .contains(&(r0 as f64, c0 as f64))
        })?;
        let placed = self.on_board(self.current[pid]);
        let remove = Some(format!("('remove', {pid})"));
        let Some(to) = to else {
            return if placed { remove } else { None };
        };
        let (r1, c1) = self.board_cell(to);
        let (rows, cols) = (self.config.rows as i64, self.config.cols as i64);
        if !(0..rows).contains(&r1) || !(0..cols).contains(&c1) {
            return if placed { remove } else { None };
        }
        let anchor = self.current[pid];
        let (ar, ac) = (
            r1 - (r0 - anchor.0.value() as i64),
            c1 - (c0 - anchor.1.value() as i64),
        );
        ((0..rows).contains(&ar) && (0..cols).contains(&ac))
            .then(|| format!("('place', ({pid}, {ar}, {ac}))"))
    }

    fn words(&self) -> Words {
        Words {
            goal: "Place every patch so the board is filled without gaps, then stop",
            success: "stopped with the board filled",
            failure: "stopped with the board not filled",
        }
    }

    /// Board cells not yet covered.
    fn remaining(&self) -> f64 {
        (self.config.rows * self.config.cols - self.count_filled()) as f64
    }
}

impl PatchReassembly {
    /// The board cell (row, column) under a frame point, also outside the board.
    fn board_cell(&self, (x, y): (f64, f64)) -> (i64, i64) {
        let (min_r, _, min_c, _) = self.bounds;
        let cell = CELL as f64;
        (
            (y / cell).floor() as i64 - (1 - min_r),
            (x / cell).floor() as i64 - (1 - min_c),
        )
    }
}
