//! Precomputed drawing tables of the TIA model ALE uses (Stella 2.x's line-segment
//! renderer): object masks per position alignment, size and copy mode, the playfield bit
//! order, collision bits, priority encoding and the HMOVE motion per CPU cycle.
//!
//! Masks are 320 entries long (160 pixels plus a wrapped copy) so a drawing pointer of
//! `160 - (position & !3) + hpos` can run over a whole line; the low two position bits
//! select a table shifted right by that many pixels.

use std::sync::OnceLock;

pub const P0_BIT: u8 = 0x01;
pub const M0_BIT: u8 = 0x02;
pub const P1_BIT: u8 = 0x04;
pub const M1_BIT: u8 = 0x08;
pub const BL_BIT: u8 = 0x10;
pub const PF_BIT: u8 = 0x20;
pub const SCORE_BIT: u8 = 0x40;
pub const PRIORITY_BIT: u8 = 0x80;

const ROW: usize = 320;
const BALL_BASE: usize = 0;
const MISSILE_BASE: usize = BALL_BASE + 4 * 4 * ROW;
const PLAYER_BASE: usize = MISSILE_BASE + 4 * 8 * 4 * ROW;
const DISABLED_BASE: usize = PLAYER_BASE + 4 * 2 * 8 * ROW;
const MASKS_LEN: usize = DISABLED_BASE + 640;

#[derive(Debug)]
pub struct TiaTables {
    /// Ball, missile and player masks and an all-zero mask, one flat array.
    pub masks: Vec<u8>,
    pub playfield: [[u32; 160]; 2],
    pub collision: [u16; 64],
    pub priority: [[u8; 256]; 2],
    pub reflect: [u8; 256],
    /// `[mode][old x][new x]`: 1 when a player reset lands inside a drawn copy, -1 inside
    /// the start delay of a copy, 0 elsewhere.
    pub reset_when: Vec<i8>,
    /// `[cpu cycle of the line][motion register]`: pixels moved by an HMOVE.
    pub motion: [[i8; 16]; 76],
}

pub fn tables() -> &'static TiaTables {
    static TABLES: OnceLock<TiaTables> = OnceLock::new();
    TABLES.get_or_init(TiaTables::build)
}

pub fn ball_mask(align: usize, size: usize) -> usize {
    BALL_BASE + (align * 4 + size) * ROW
}

pub fn missile_mask(align: usize, number: usize, size: usize) -> usize {
    MISSILE_BASE + ((align * 8 + number) * 4 + size) * ROW
}

pub fn player_mask(align: usize, suppress_first: usize, mode: usize) -> usize {
    PLAYER_BASE + ((align * 2 + suppress_first) * 8 + mode) * ROW
}

pub fn disabled_mask() -> usize {
    DISABLED_BASE
}

/// Start offsets of the copies drawn by each NUSIZ number/size mode (players and missiles).
fn copies(mode: usize) -> &'static [usize] {
    match mode {
        1 => &[0, 16],
        2 => &[0, 32],
        3 => &[0, 16, 32],
        4 => &[0, 64],
        6 => &[0, 32, 64],
        _ => &[0],
    }
}

impl TiaTables {
    fn build() -> Self {
        let mut masks = vec![0u8; MASKS_LEN];
        // Alignment-0 rows are computed; the other alignments are the same row rotated
        // right by one to three pixels.
        for size in 0..4usize {
            let mut row = [0u8; 160];
            for cell in row.iter_mut().take(1 << size) {
                *cell = 1;
            }
            write_rotations(&mut masks, |align| ball_mask(align, size), &row);
        }
        for number in 0..8usize {
            for size in 0..4usize {
                let mut row = [0u8; 160];
                // Missiles: one, two or three copies; the double/quad player modes (5, 7)
                // still draw a single missile.
                for &start in copies(number) {
                    for x in start..start + (1 << size) {
                        row[x % 160] = 1;
                    }
                }
                write_rotations(&mut masks, |align| missile_mask(align, number, size), &row);
            }
        }
        for suppress_first in 0..2usize {
            for mode in 0..8usize {
                let mut row = [0u8; 160];
                match mode {
                    // Double and quad width start one pixel late.
                    5 | 7 => {
                        let scale = if mode == 5 { 2 } else { 4 };
                        if suppress_first == 0 {
                            for x in 1..=8 * scale {
                                row[x % 160] = 0x80 >> ((x - 1) / scale);
                            }
                        }
                    }
                    _ => {
                        for (copy, &start) in copies(mode).iter().enumerate() {
                            if copy == 0 && suppress_first == 1 {
                                continue;
                            }
                            for x in start..start + 8 {
                                row[x % 160] = 0x80 >> (x - start);
                            }
                        }
                    }
                }
                write_rotations(
                    &mut masks,
                    |align| player_mask(align, suppress_first, mode),
                    &row,
                );
            }
        }

        let mut playfield = [[0u32; 160]; 2];
        let [normal, reflected] = &mut playfield;
        for (x, (n, r)) in normal.iter_mut().zip(reflected.iter_mut()).enumerate() {
            // PF0 (4 bits, low first), PF1 (8 bits, high first), PF2 (8 bits, low first);
            // the right half repeats or, reflected, mirrors the left.
            let left = |x: usize| -> u32 {
                if x < 16 {
                    0x00001 << (x / 4)
                } else if x < 48 {
                    0x00800 >> ((x - 16) / 4)
                } else {
                    0x01000 << ((x - 48) / 4)
                }
            };
            *n = if x < 80 { left(x) } else { left(x - 80) };
            *r = if x < 80 { left(x) } else { left(159 - x) };
        }

        let mut collision = [0u16; 64];
        let pairs: [(u8, u8); 15] = [
            (M0_BIT, P1_BIT),
            (M0_BIT, P0_BIT),
            (M1_BIT, P0_BIT),
            (M1_BIT, P1_BIT),
            (P0_BIT, PF_BIT),
            (P0_BIT, BL_BIT),
            (P1_BIT, PF_BIT),
            (P1_BIT, BL_BIT),
            (M0_BIT, PF_BIT),
            (M0_BIT, BL_BIT),
            (M1_BIT, PF_BIT),
            (M1_BIT, BL_BIT),
            (BL_BIT, PF_BIT),
            (P0_BIT, P1_BIT),
            (M0_BIT, M1_BIT),
        ];
        for (i, entry) in collision.iter_mut().enumerate() {
            for (bit, &(a, b)) in pairs.iter().enumerate() {
                if i as u8 & a != 0 && i as u8 & b != 0 {
                    *entry |= 1 << bit;
                }
            }
        }

        // Colour register index (0 background, 1 playfield, 2 player 0, 3 player 1).
        let mut priority = [[0u8; 256]; 2];
        for (half, table) in priority.iter_mut().enumerate() {
            for (enabled, entry) in table.iter_mut().enumerate() {
                let e = enabled as u8;
                let mut color = 0;
                if e & PRIORITY_BIT != 0 {
                    if e & (P1_BIT | M1_BIT) != 0 {
                        color = 3;
                    }
                    if e & (P0_BIT | M0_BIT) != 0 {
                        color = 2;
                    }
                    if e & (BL_BIT | PF_BIT) != 0 {
                        color = 1;
                    }
                } else {
                    if e & BL_BIT != 0 {
                        color = 1;
                    }
                    if e & PF_BIT != 0 {
                        color = if e & SCORE_BIT != 0 {
                            2 + half as u8
                        } else {
                            1
                        };
                    }
                    if e & (P1_BIT | M1_BIT) != 0 && color != 2 {
                        color = 3;
                    }
                    if e & (P0_BIT | M0_BIT) != 0 {
                        color = 2;
                    }
                }
                *entry = color;
            }
        }

        let mut reflect = [0u8; 256];
        for (i, r) in reflect.iter_mut().enumerate() {
            *r = (i as u8).reverse_bits();
        }

        let mut reset_when = vec![0i8; 8 * 160 * 160];
        for mode in 0..8usize {
            let width = match mode {
                5 => 16,
                7 => 32,
                _ => 8,
            };
            for old in 0..160usize {
                let base = (mode * 160 + old) * 160;
                for &start in copies(mode) {
                    for newx in old + start..old + start + 4 {
                        reset_when[base + newx % 160] = -1;
                    }
                }
                for &start in copies(mode) {
                    for newx in old + start + 4..old + start + 4 + width {
                        reset_when[base + newx % 160] = 1;
                    }
                }
            }
        }

        TiaTables {
            masks,
            playfield,
            collision,
            priority,
            reflect,
            reset_when,
            motion: motion_table(),
        }
    }
}

/// Writes a 160-pixel alignment-0 row and its three rotations (each with its wrap copy).
fn write_rotations(masks: &mut [u8], offset: impl Fn(usize) -> usize, row: &[u8; 160]) {
    for align in 0..4usize {
        let base = offset(align);
        for x in 0..ROW {
            masks[base + x] = row[(x + ROW - align) % ROW % 160];
        }
    }
}

/// Pixels an HMOVE moves an object, by the CPU cycle of the line it is strobed on and the
/// object's motion register. Early in the line (cycles 0-20 and 75) the full motion
/// applies but the leftward motions are cut short progressively; strobes late in the line
/// (cycles 55-74) give only part of the leftward motion; in between nothing moves.
fn motion_table() -> [[i8; 16]; 76] {
    // Full motion for register value h: 0..7 move left by h, 8..15 move right by 16 - h.
    let full = |h: usize| -> i8 {
        if h < 8 {
            -(h as i8)
        } else {
            16 - h as i8
        }
    };
    const EARLY_FLOOR: [i8; 21] = [
        -8, -8, -8, -8, -6, -5, -5, -4, -3, -2, -2, -1, 0, 1, 1, 2, 3, 4, 4, 5, 6,
    ];
    const LATE_SHIFT: [i8; 20] = [
        6, 5, 4, 4, 3, 2, 1, 1, 0, -1, -2, -2, -3, -4, -5, -5, -6, -7, -8, -8,
    ];
    let mut table = [[0i8; 16]; 76];
    for (cycle, row) in table.iter_mut().enumerate() {
        for (h, cell) in row.iter_mut().enumerate() {
            *cell = match cycle {
                0..=20 => full(h).max(EARLY_FLOOR[cycle]),
                55..=74 => (full(h) + LATE_SHIFT[cycle - 55]).min(0),
                75 => full(h),
                _ => 0,
            };
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmove_motion_by_cycle() {
        let m = &tables().motion;
        // Early HMOVE: full motion, leftward motion cut progressively.
        assert_eq!((m[0][1], m[0][7], m[0][8], m[0][15]), (-1, -7, 8, 1));
        assert_eq!((m[4][7], m[7][6], m[12][7]), (-6, -4, 0));
        assert_eq!((m[16][0], m[16][14], m[16][8]), (3, 3, 8));
        assert_eq!(m[20], [6, 6, 6, 6, 6, 6, 6, 6, 8, 7, 6, 6, 6, 6, 6, 6]);
        // Mid-line: nothing moves; late: part of the leftward motion.
        assert!(m[21..55].iter().all(|row| row.iter().all(|&v| v == 0)));
        assert_eq!((m[55][7], m[55][6], m[63][7], m[64][0]), (-1, 0, -7, -1));
        assert_eq!((m[73][15], m[73][8], m[74][7]), (-7, 0, -15));
        assert_eq!(m[75], m[0]);
    }

    #[test]
    fn object_masks() {
        let t = tables();
        // Double-width player starts a pixel late, two pixels per graphics bit.
        let p = player_mask(0, 0, 5);
        assert_eq!(&t.masks[p..p + 4], &[0, 0x80, 0x80, 0x40]);
        assert_eq!(t.masks[p + 16], 0x01);
        // Three close copies of a player; with the first copy suppressed.
        let p = player_mask(0, 1, 3);
        assert_eq!(
            (t.masks[p], t.masks[p + 16], t.masks[p + 39]),
            (0, 0x80, 0x01)
        );
        // An alignment of 2 shifts the row right by two pixels.
        let b = ball_mask(2, 1);
        assert_eq!(&t.masks[b..b + 4], &[0, 0, 1, 1]);
        // Playfield: PF0 bit 4 at pixel 0, PF2 bit 7 at pixel 79; mirrored on the right.
        assert_eq!((t.playfield[0][0], t.playfield[0][79]), (1, 0x80000));
        assert_eq!((t.playfield[1][80], t.playfield[1][159]), (0x80000, 1));
    }
}
