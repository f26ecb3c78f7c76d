//! Matchstick symbols as sets of segments (bit `1 << s` for segment `s`), shared by the
//! equation puzzle's rules, its solver and its renderers.

/// Segment sets of the symbols the equation puzzle uses (exact sets only: the
/// reference's helper also maps `{8}`, `{9}` to `/` and `{0, 6}` to `+`, but the
/// environment itself does not).
pub const GLYPHS: [(char, u16); 15] = [
    ('0', 0b0011_1111),
    ('1', 0b0000_0110),
    ('2', 0b0101_1011),
    ('3', 0b0100_1111),
    ('4', 0b0110_0110),
    ('5', 0b0110_1101),
    ('6', 0b0111_1101),
    ('7', 0b0000_0111),
    ('8', 0b0111_1111),
    ('9', 0b0110_1111),
    ('-', 1 << 6),
    ('+', (1 << 6) | (1 << 7)),
    ('*', (1 << 8) | (1 << 9)),
    ('/', 1 << 9),
    ('=', (1 << 11) | (1 << 12)),
];

/// Segment ids 0..=12 (10 exists but no symbol uses it).
pub const ALL_SEGMENTS: u16 = 0x1FFF;

pub fn segments(symbol: char) -> Option<u16> {
    GLYPHS.iter().find(|g| g.0 == symbol).map(|g| g.1)
}

pub fn symbol(segments: u16) -> Option<char> {
    GLYPHS.iter().find(|g| g.1 == segments).map(|g| g.0)
}

/// The helper module's lookup, aliases included (used only by the reference's
/// generation fallback).
pub fn symbol_with_aliases(segments: u16) -> Option<char> {
    match segments {
        s if s == 1 << 8 || s == 1 << 9 => Some('/'),
        s if s == (1 << 0) | (1 << 6) => Some('+'),
        s => symbol(s),
    }
}

/// The segment ids in a set, ascending (the order Python iterates these small sets).
pub fn ids(set: u16) -> impl Iterator<Item = u8> {
    (0..13u8).filter(move |s| set & (1 << s) != 0)
}

/// Segment end points in a symbol's 60×80 box: the match runs from the first point
/// (red head) to the second.
pub const SEGMENT_COORDS: [((i32, i32), (i32, i32)); 13] = [
    ((10, 5), (30, 5)),
    ((30, 5), (30, 25)),
    ((30, 25), (30, 45)),
    ((10, 45), (30, 45)),
    ((10, 25), (10, 45)),
    ((10, 5), (10, 25)),
    ((10, 25), (30, 25)),
    ((20, 5), (20, 45)),
    ((10, 10), (30, 40)),
    ((30, 10), (10, 40)),
    ((10, 40), (30, 10)),
    ((10, 15), (30, 15)),
    ((10, 35), (30, 35)),
];

/// The text-frame art of each segment in a 5-wide cell: (row, column, text).
pub fn segment_art(segment: u8) -> &'static [(usize, usize, &'static str)] {
    match segment {
        0 => &[(0, 1, "---")],
        1 => &[(1, 4, "|"), (2, 4, "|")],
        2 => &[(3, 4, "|"), (4, 4, "|")],
        3 => &[(5, 1, "---")],
        4 => &[(3, 0, "|"), (4, 0, "|")],
        5 => &[(1, 0, "|"), (2, 0, "|")],
        6 => &[(2, 1, "---")],
        7 => &[(1, 2, "|"), (2, 2, "|"), (3, 2, "|")],
        8 => &[(1, 1, "\\"), (2, 2, "\\"), (3, 3, "\\")],
        9 | 10 => &[(1, 3, "/"), (2, 2, "/"), (3, 1, "/")],
        11 => &[(1, 1, "---")],
        12 => &[(4, 1, "---")],
        _ => &[],
    }
}
