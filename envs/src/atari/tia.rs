//! The TIA as ALE's Stella models it: registers are applied when written, and the picture
//! is drawn lazily in line segments up to the colour clock of each access (plus a
//! per-register delay), using the object masks of [`super::tia_tables`].
//!
//! Frames go into two 160-pixel-wide index buffers that swap at each frame start; a frame
//! that ends early leaves the rest of its buffer as it was two frames before, and a frame
//! cut off without VSYNC is greyed, as in the reference. No sound is produced; the audio
//! registers are accepted and ignored.

use super::tia_tables::{self as t, TiaTables};

const HBLANK: i32 = 68;
const BUFFER_PIXELS: usize = 160 * 300;
/// Room for the reference's word-wide writes that run a few pixels past a segment, and
/// for the HMOVE blank that is cleared ahead of the drawing position.
const BUFFER_SLACK: usize = 256;

/// Inputs the TIA reads (fire buttons and paddle timing).
#[derive(Clone, Copy, Debug, Default)]
pub struct TiaInputs {
    /// INPT0..INPT3 resistances (`i32::MAX` = nothing connected, 0 = minimum).
    pub resistance: [i32; 4],
    /// INPT4, INPT5: true when the button is NOT pressed (the pin reads high).
    pub fire_high: [bool; 2],
}

pub const MAX_RESISTANCE: i32 = 0x7fff_ffff;

#[derive(Clone, Debug)]
pub struct Tia {
    tables: &'static TiaTables,
    buffers: [Vec<u8>; 2],
    current: usize,
    frame_pointer: usize,

    pub y_start: u32,
    pub height: u32,
    allow_hmove_blanks: bool,
    pal: bool,
    max_scanlines: i32,

    pub partial_frame: bool,
    frame_greyed: bool,
    stop_requested: bool,

    start_display_offset: i32,
    stop_display_offset: i32,
    clock_when_frame_started: i32,
    clock_start_display: i32,
    clock_stop_display: i32,
    clock_at_last_update: i32,
    clocks_to_end_of_scanline: i32,
    vsync_finish_clock: i32,
    scanline_count_for_last_frame: i32,
    current_scanline: i32,
    last_hmove_clock: i32,
    dump_disabled_cycle: i32,
    dump_enabled: bool,

    enabled_objects: u8,
    vsync: u8,
    vblank: u8,
    nusiz0: u8,
    nusiz1: u8,
    priority_and_score: u8,
    // Colour registers: background, playfield, player 0, player 1.
    colors: [u8; 4],
    ctrlpf: u8,
    refp0: bool,
    refp1: bool,
    pf: u32,
    grp0: u8,
    grp1: u8,
    dgrp0: u8,
    dgrp1: u8,
    enam0: bool,
    enam1: bool,
    enabl: bool,
    denabl: bool,
    hmp0: u8,
    hmp1: u8,
    hmm0: u8,
    hmm1: u8,
    hmbl: u8,
    vdelp0: bool,
    vdelp1: bool,
    vdelbl: bool,
    resmp0: bool,
    resmp1: bool,
    collision: u16,
    posp0: i32,
    posp1: i32,
    posm0: i32,
    posm1: i32,
    posbl: i32,
    current_grp0: u8,
    current_grp1: u8,
    // Mask positions (offsets into `tables.masks`, or a playfield table index).
    bl_mask: usize,
    m0_mask: usize,
    m1_mask: usize,
    p0_mask: usize,
    p1_mask: usize,
    pf_table: usize,
    hmove_blank_enabled: bool,
    m0_cosmic_ark_motion: bool,
    m0_cosmic_ark_counter: u32,
}

/// Per TIA write address (bit `addr`), whether the picture is drawn up to the write
/// first: every register drawing reads, VSYNC (it may end the frame) and CXCLR (the
/// collisions so far are latched by drawing). Not WSYNC (0x02), RSYNC (0x03), the audio
/// registers (0x15-0x1a), the motion registers (0x20-0x24, read by HMOVE, which draws
/// first), HMCLR (0x2b) and the undefined 0x2d-0x3f.
const DRAWS_FIRST: u64 = {
    let mut bits = 0u64;
    let mut addr = 0;
    while addr < 0x2d {
        let skipped = matches!(addr, 0x02 | 0x03 | 0x15..=0x1a | 0x20..=0x24 | 0x2b);
        if !skipped {
            bits |= 1 << addr;
        }
        addr += 1;
    }
    bits
};

const BK: usize = 0;
const PF: usize = 1;
const P0: usize = 2;
const P1: usize = 3;

/// Where in `colors` a COLU* write (0x06-0x09) goes.
#[inline(always)]
fn color_index(addr: u16) -> usize {
    match addr {
        0x06 => P0,
        0x07 => P1,
        0x08 => PF,
        _ => BK,
    }
}

impl Tia {
    pub fn new(y_start: u32, height: u32, allow_hmove_blanks: bool) -> Self {
        let tables = t::tables();
        Tia {
            tables,
            buffers: [
                vec![0; BUFFER_PIXELS + BUFFER_SLACK],
                vec![0; BUFFER_PIXELS + BUFFER_SLACK],
            ],
            current: 0,
            frame_pointer: 0,
            y_start,
            height,
            allow_hmove_blanks,
            pal: false,
            max_scanlines: 290,
            partial_frame: false,
            frame_greyed: false,
            stop_requested: false,
            start_display_offset: 0,
            stop_display_offset: 0,
            clock_when_frame_started: 0,
            clock_start_display: 0,
            clock_stop_display: 0,
            clock_at_last_update: 0,
            clocks_to_end_of_scanline: 228,
            vsync_finish_clock: 0x7fff_ffff,
            scanline_count_for_last_frame: 0,
            current_scanline: 0,
            last_hmove_clock: 0,
            dump_disabled_cycle: 0,
            dump_enabled: false,
            enabled_objects: 0,
            vsync: 0,
            vblank: 0,
            nusiz0: 0,
            nusiz1: 0,
            priority_and_score: 0,
            colors: [0; 4],
            ctrlpf: 0,
            refp0: false,
            refp1: false,
            pf: 0,
            grp0: 0,
            grp1: 0,
            dgrp0: 0,
            dgrp1: 0,
            enam0: false,
            enam1: false,
            enabl: false,
            denabl: false,
            hmp0: 0,
            hmp1: 0,
            hmm0: 0,
            hmm1: 0,
            hmbl: 0,
            vdelp0: false,
            vdelp1: false,
            vdelbl: false,
            resmp0: false,
            resmp1: false,
            collision: 0,
            posp0: 0,
            posp1: 0,
            posm0: 0,
            posm1: 0,
            posbl: 0,
            current_grp0: 0,
            current_grp1: 0,
            bl_mask: 0,
            m0_mask: 0,
            m1_mask: 0,
            p0_mask: 0,
            p1_mask: 0,
            pf_table: 0,
            hmove_blank_enabled: false,
            m0_cosmic_ark_motion: false,
            m0_cosmic_ark_counter: 0,
        }
    }

    /// The frame most recently drawn: `height` rows of 160 palette indices.
    pub fn frame(&self) -> &[u8] {
        let len = (self.height as usize * 160).min(BUFFER_PIXELS);
        &self.buffers[self.current][..len]
    }

    #[inline(always)]
    pub fn stop_requested(&self) -> bool {
        self.stop_requested
    }

    pub fn clear_stop(&mut self) {
        self.stop_requested = false;
    }

    /// Console reset (the partial-frame flag is deliberately kept, as in the reference).
    pub fn reset(&mut self, cycles: u32) {
        self.enabled_objects = 0;
        self.vsync = 0;
        self.vblank = 0;
        self.nusiz0 = 0;
        self.nusiz1 = 0;
        self.colors = [0; 4];
        self.priority_and_score = 0;
        self.ctrlpf = 0;
        self.refp0 = false;
        self.refp1 = false;
        self.pf = 0;
        self.grp0 = 0;
        self.grp1 = 0;
        self.dgrp0 = 0;
        self.dgrp1 = 0;
        self.enam0 = false;
        self.enam1 = false;
        self.enabl = false;
        self.denabl = false;
        self.hmp0 = 0;
        self.hmp1 = 0;
        self.hmm0 = 0;
        self.hmm1 = 0;
        self.hmbl = 0;
        self.vdelp0 = false;
        self.vdelp1 = false;
        self.vdelbl = false;
        self.resmp0 = false;
        self.resmp1 = false;
        self.collision = 0;
        self.posp0 = 0;
        self.posp1 = 0;
        self.posm0 = 0;
        self.posm1 = 0;
        self.posbl = 0;
        self.current_grp0 = 0;
        self.current_grp1 = 0;
        // The reset masks point at the start of the alignment-0 rows (no 160 offset).
        self.bl_mask = t::ball_mask(0, 0);
        self.m0_mask = t::missile_mask(0, 0, 0);
        self.m1_mask = t::missile_mask(0, 0, 0);
        self.p0_mask = t::player_mask(0, 0, 0);
        self.p1_mask = t::player_mask(0, 0, 0);
        self.pf_table = 0;
        self.last_hmove_clock = 0;
        self.hmove_blank_enabled = false;
        self.m0_cosmic_ark_motion = false;
        self.m0_cosmic_ark_counter = 0;
        self.dump_enabled = false;
        self.dump_disabled_cycle = 0;
        self.max_scanlines = if self.pal { 342 } else { 290 };
        self.frame_reset(cycles);
    }

    fn frame_reset(&mut self, cycles: u32) {
        for buffer in self.buffers.iter_mut() {
            buffer.fill(0);
        }
        self.frame_pointer = 0;
        self.start_display_offset = 228 * self.y_start as i32;
        self.stop_display_offset = self.start_display_offset + 228 * self.height as i32;
        self.clock_when_frame_started = cycles.wrapping_mul(3) as i32;
        self.clock_start_display = self.clock_when_frame_started + self.start_display_offset;
        self.clock_stop_display = self.clock_when_frame_started + self.stop_display_offset;
        self.clock_at_last_update = self.clock_when_frame_started;
        self.clocks_to_end_of_scanline = 228;
        self.vsync_finish_clock = 0x7fff_ffff;
        self.scanline_count_for_last_frame = 0;
        self.current_scanline = 0;
    }

    /// The system clock is about to restart from zero.
    pub fn system_cycles_reset(&mut self, cycles: u32) {
        self.dump_disabled_cycle = self.dump_disabled_cycle.wrapping_sub(cycles as i32);
        let clocks = cycles.wrapping_mul(3) as i32;
        self.clock_when_frame_started = self.clock_when_frame_started.wrapping_sub(clocks);
        self.clock_start_display = self.clock_start_display.wrapping_sub(clocks);
        self.clock_stop_display = self.clock_stop_display.wrapping_sub(clocks);
        self.clock_at_last_update = self.clock_at_last_update.wrapping_sub(clocks);
        self.vsync_finish_clock = self.vsync_finish_clock.wrapping_sub(clocks);
        self.last_hmove_clock = self.last_hmove_clock.wrapping_sub(clocks);
    }

    /// Colour clocks into the current line at system clock `cycles`, as the frame start
    /// will be set from them.
    pub fn clocks_into_line(&self, cycles: u32) -> i32 {
        (cycles
            .wrapping_mul(3)
            .wrapping_sub(self.clock_when_frame_started as u32)
            % 228) as i32
    }

    /// Begins a frame; the caller then restarts the system clock from zero.
    pub fn start_frame(&mut self, clocks_into_line: i32) {
        self.current ^= 1;
        self.clock_when_frame_started = -clocks_into_line;
        self.clock_start_display = self.clock_when_frame_started + self.start_display_offset;
        self.clock_stop_display = self.clock_when_frame_started + self.stop_display_offset;
        self.clock_at_last_update = self.clock_start_display;
        self.clocks_to_end_of_scanline = 228;
        self.frame_pointer = 0;
        if self.pal {
            for c in self.colors.iter_mut() {
                if self.scanline_count_for_last_frame & 1 != 0 {
                    *c |= 1;
                } else {
                    *c &= 0xfe;
                }
            }
        }
        self.frame_greyed = false;
    }

    /// After the CPU ran for a frame: note the line count, or grey an unfinished frame.
    pub fn finish_update(&mut self, cycles: u32) {
        let total = cycles
            .wrapping_mul(3)
            .wrapping_sub(self.clock_when_frame_started as u32);
        self.current_scanline = (total / 228) as i32;
        if self.partial_frame {
            if !self.frame_greyed {
                self.grey_out_frame(cycles);
            }
            self.frame_greyed = true;
        } else {
            self.scanline_count_for_last_frame = self.current_scanline;
            self.frame_greyed = false;
        }
    }

    /// Scanlines since the frame started.
    pub fn scanlines(&self, cycles: u32) -> u32 {
        cycles
            .wrapping_mul(3)
            .wrapping_sub(self.clock_when_frame_started as u32)
            / 228
    }

    fn grey_out_frame(&mut self, cycles: u32) {
        let c = self.scanlines(cycles).max(self.y_start);
        let buffer = &mut self.buffers[self.current];
        for s in c..self.height + self.y_start {
            let row = (s - self.y_start) as usize * 160;
            if row + 160 > BUFFER_PIXELS {
                break;
            }
            for p in &mut buffer[row..row + 160] {
                *p = (*p & 0x0f) >> 1;
            }
        }
    }

    /// Draws `count` pixels of the current line starting at pixel `hpos`.
    fn draw_segment(&mut self, count: usize, hpos: usize) {
        let start = self.frame_pointer;
        let ending = start + count;
        let tables = self.tables;
        let masks = &tables.masks[..];
        let [bk, pfc, p0c, p1c] = self.colors;
        let buffer = &mut self.buffers[self.current];
        if self.vblank & 0x02 != 0 {
            buffer[start..ending].fill(0);
            self.frame_pointer = ending;
            return;
        }
        let pf = self.pf;
        let pf_row = &tables.playfield[self.pf_table];
        let grp0 = self.current_grp0;
        let grp1 = self.current_grp1;
        let (p0m, p1m, m0m, m1m, blm) = (
            self.p0_mask,
            self.p1_mask,
            self.m0_mask,
            self.m1_mask,
            self.bl_mask,
        );
        let mut collision = self.collision;
        let col = &tables.collision;
        let word_zero = |base: usize, h: usize| masks[base + h..base + h + 4] == [0, 0, 0, 0];
        let key = self.enabled_objects | self.priority_and_score;
        let objects = key & 0x3f;
        let prio = key & t::PRIORITY_BIT != 0;
        let score = key & t::SCORE_BIT != 0;

        // Runs the reference's segment loop: at word-aligned positions a whole 4-pixel
        // word may be written at once (possibly past the segment's end, which a later
        // segment overwrites); otherwise pixel by pixel.
        macro_rules! run {
            (|$h:ident| skip $skip:expr, pixel $pixel:expr) => {{
                let mut p = start;
                let mut $h = hpos;
                while p < ending {
                    if p & 3 == 0 {
                        if let Some(c) = $skip {
                            buffer[p..p + 4].fill(c);
                            p += 4;
                            $h += 4;
                            continue;
                        }
                    }
                    buffer[p] = $pixel;
                    p += 1;
                    $h += 1;
                }
            }};
        }
        let pf_at = |h: usize| pf & pf_row[h] != 0;

        match objects {
            0 => buffer[start..ending].fill(bk),
            o if o == t::PF_BIT && !score => run!(|h| skip Some(if pf_at(h) { pfc } else { bk }),
                pixel if pf_at(h) { pfc } else { bk }),
            o if o == t::PF_BIT => {
                let score_color = |h: usize| {
                    if pf_at(h) {
                        if h < 80 {
                            p0c
                        } else {
                            p1c
                        }
                    } else {
                        bk
                    }
                };
                run!(|h| skip Some(score_color(h)), pixel score_color(h))
            }
            o if o == t::P0_BIT => run!(|h| skip word_zero(p0m, h).then_some(bk),
                pixel if grp0 & masks[p0m + h] != 0 { p0c } else { bk }),
            o if o == t::P1_BIT => run!(|h| skip word_zero(p1m, h).then_some(bk),
                pixel if grp1 & masks[p1m + h] != 0 { p1c } else { bk }),
            o if o == t::P0_BIT | t::P1_BIT => {
                run!(|h| skip (word_zero(p0m, h) && word_zero(p1m, h)).then_some(bk), pixel {
                    let a = grp0 & masks[p0m + h] != 0;
                    let b = grp1 & masks[p1m + h] != 0;
                    if a && b {
                        collision |= col[(t::P0_BIT | t::P1_BIT) as usize];
                    }
                    if a {
                        p0c
                    } else if b {
                        p1c
                    } else {
                        bk
                    }
                })
            }
            o if o == t::M0_BIT => run!(|h| skip word_zero(m0m, h).then_some(bk),
                pixel if masks[m0m + h] != 0 { p0c } else { bk }),
            o if o == t::M1_BIT => run!(|h| skip word_zero(m1m, h).then_some(bk),
                pixel if masks[m1m + h] != 0 { p1c } else { bk }),
            o if o == t::BL_BIT => run!(|h| skip word_zero(blm, h).then_some(bk),
                pixel if masks[blm + h] != 0 { pfc } else { bk }),
            o if o == t::M0_BIT | t::M1_BIT => {
                run!(|h| skip (word_zero(m0m, h) && word_zero(m1m, h)).then_some(bk), pixel {
                    let a = masks[m0m + h] != 0;
                    let b = masks[m1m + h] != 0;
                    if a && b {
                        collision |= col[(t::M0_BIT | t::M1_BIT) as usize];
                    }
                    if a {
                        p0c
                    } else if b {
                        p1c
                    } else {
                        bk
                    }
                })
            }
            o if o == t::BL_BIT | t::M0_BIT || o == t::BL_BIT | t::M1_BIT => {
                let (mm, mc) = if o & t::M0_BIT != 0 {
                    (m0m, p0c)
                } else {
                    (m1m, p1c)
                };
                let pair = col[o as usize];
                run!(|h| skip (word_zero(blm, h) && word_zero(mm, h)).then_some(bk), pixel {
                    let b = masks[blm + h] != 0;
                    let m = masks[mm + h] != 0;
                    if b && m {
                        collision |= pair;
                    }
                    if prio {
                        if b {
                            pfc
                        } else if m {
                            mc
                        } else {
                            bk
                        }
                    } else if m {
                        mc
                    } else if b {
                        pfc
                    } else {
                        bk
                    }
                })
            }
            o if o == t::BL_BIT | t::P1_BIT => {
                let pair = col[o as usize];
                run!(|h| skip (word_zero(p1m, h) && word_zero(blm, h)).then_some(bk), pixel {
                    let b = masks[blm + h] != 0;
                    let p = grp1 & masks[p1m + h] != 0;
                    if b && p {
                        collision |= pair;
                    }
                    if prio {
                        if b {
                            pfc
                        } else if p {
                            p1c
                        } else {
                            bk
                        }
                    } else if p {
                        p1c
                    } else if b {
                        pfc
                    } else {
                        bk
                    }
                })
            }
            o if (o == t::PF_BIT | t::P0_BIT || o == t::PF_BIT | t::P1_BIT) && !score => {
                let (pm, grp, pc) = if o & t::P0_BIT != 0 {
                    (p0m, grp0, p0c)
                } else {
                    (p1m, grp1, p1c)
                };
                let pair = col[o as usize];
                run!(|h| skip word_zero(pm, h).then_some(if pf_at(h) { pfc } else { bk }), pixel {
                    let f = pf_at(h);
                    let p = grp & masks[pm + h] != 0;
                    if f && p {
                        collision |= pair;
                    }
                    if prio {
                        if f {
                            pfc
                        } else if p {
                            pc
                        } else {
                            bk
                        }
                    } else if p {
                        pc
                    } else if f {
                        pfc
                    } else {
                        bk
                    }
                })
            }
            o if o == t::PF_BIT | t::BL_BIT && !score => {
                let pair = col[o as usize];
                run!(|h| skip word_zero(blm, h).then_some(if pf_at(h) { pfc } else { bk }), pixel {
                    let f = pf_at(h);
                    let b = masks[blm + h] != 0;
                    if f && b {
                        collision |= pair;
                    }
                    if f || b {
                        pfc
                    } else {
                        bk
                    }
                })
            }
            _ => {
                // Every object through the priority encoder, pixel by pixel where an
                // object shows. A playfield-aligned word of 4 pixels where none shows
                // has one colour and no collision (the playfield's pixels are 4 wide
                // from pixel 0), so it is written whole. Masks of a disabled ball or
                // missile read as the all-zero mask.
                let n = ending - start;
                let enabled = self.enabled_objects;
                let extra = self.priority_and_score as usize;
                let colors = [bk, pfc, p0c, p1c];
                let zero = t::disabled_mask();
                let slice = |base: usize, on: bool| {
                    let b = if on { base + hpos } else { zero };
                    &masks[b..b + n]
                };
                let bl = slice(blm, enabled & t::BL_BIT != 0);
                let m0 = slice(m0m, enabled & t::M0_BIT != 0);
                let m1 = slice(m1m, enabled & t::M1_BIT != 0);
                let p0 = slice(p0m, true);
                let p1 = slice(p1m, true);
                let pf_bits = &pf_row[hpos..hpos + n];
                let out = &mut buffer[start..ending];
                let word = |s: &[u8], i: usize| {
                    s.get(i..i + 4)
                        .and_then(|w| w.try_into().ok())
                        .map_or(u32::MAX, u32::from_ne_bytes)
                };
                let (grp0_word, grp1_word) =
                    (u32::from(grp0) * 0x0101_0101, u32::from(grp1) * 0x0101_0101);
                let mut i = 0;
                while i < n {
                    let h = hpos + i;
                    if h & 3 == 0
                        && i + 4 <= n
                        && (word(bl, i)
                            | word(m0, i)
                            | word(m1, i)
                            | (word(p0, i) & grp0_word)
                            | (word(p1, i) & grp1_word))
                            == 0
                    {
                        let e = usize::from(pf & pf_bits[i] != 0) << 5;
                        let half = usize::from(h >= 80);
                        out[i..i + 4].fill(colors[tables.priority[half][e | extra] as usize]);
                        i += 4;
                        continue;
                    }
                    let e = (u8::from(pf & pf_bits[i] != 0) << 5)
                        | (u8::from(bl[i] != 0) << 4)
                        | (u8::from(m1[i] != 0) << 3)
                        | (u8::from(grp1 & p1[i] != 0) << 2)
                        | (u8::from(m0[i] != 0) << 1)
                        | u8::from(grp0 & p0[i] != 0);
                    collision |= col[e as usize];
                    let half = usize::from(h >= 80);
                    out[i] = colors[tables.priority[half][e as usize | extra] as usize];
                    i += 1;
                }
            }
        }
        self.collision = collision;
        self.frame_pointer = ending;
    }

    /// Draws everything up to colour clock `clock` of the frame.
    fn update_frame(&mut self, clock: i32) {
        if clock < self.clock_start_display
            || self.clock_at_last_update >= self.clock_stop_display
            || self.clock_at_last_update >= clock
        {
            return;
        }
        let clock = clock.min(self.clock_stop_display);
        loop {
            let mut clocks_to_update;
            let mut from_line_start = 228 - self.clocks_to_end_of_scanline;
            if clock > self.clock_at_last_update + self.clocks_to_end_of_scanline {
                clocks_to_update = self.clocks_to_end_of_scanline;
                self.clocks_to_end_of_scanline = 228;
                self.clock_at_last_update += clocks_to_update;
            } else {
                clocks_to_update = clock - self.clock_at_last_update;
                self.clocks_to_end_of_scanline -= clocks_to_update;
                self.clock_at_last_update = clock;
            }
            if from_line_start < HBLANK {
                let skip = (HBLANK - from_line_start).min(clocks_to_update);
                from_line_start += skip;
                clocks_to_update -= skip;
            }
            let old_pointer = self.frame_pointer;
            if clocks_to_update != 0 {
                self.draw_segment(
                    clocks_to_update as usize,
                    (from_line_start - HBLANK) as usize,
                );
            }
            if self.hmove_blank_enabled && from_line_start < HBLANK + 8 {
                // The HMOVE blank is cleared from the segment start to pixel 8, even when
                // that runs ahead of what has been drawn.
                let blanks = (HBLANK + 8 - from_line_start) as usize;
                let end = (old_pointer + blanks).min(BUFFER_PIXELS + BUFFER_SLACK);
                self.buffers[self.current][old_pointer..end].fill(0);
                if clocks_to_update + from_line_start >= HBLANK + 8 {
                    self.hmove_blank_enabled = false;
                }
            }
            if self.clocks_to_end_of_scanline == 228 {
                self.end_of_line();
            }
            if self.clock_at_last_update >= clock {
                break;
            }
        }
    }

    /// Mask refresh at the end of each drawn line: a player copy suppressed by a reset
    /// shows again, and the Cosmic Ark missile effect advances.
    fn end_of_line(&mut self) {
        self.pf_table = (self.ctrlpf & 1) as usize;
        self.p0_mask = self.player_mask_at(self.posp0, 0, self.nusiz0);
        self.p1_mask = self.player_mask_at(self.posp1, 0, self.nusiz1);
        if self.m0_cosmic_ark_motion {
            const STEPS: [i32; 4] = [18, 33, 0, 17];
            self.m0_cosmic_ark_counter = (self.m0_cosmic_ark_counter + 1) & 3;
            self.posm0 -= STEPS[self.m0_cosmic_ark_counter as usize];
            if self.posm0 >= 160 {
                self.posm0 -= 160;
            } else if self.posm0 < 0 {
                self.posm0 += 160;
            }
            let pos = self.posm0;
            let base = 160 - (pos & 0xfc) as usize;
            let number = (self.nusiz0 & 7) as usize;
            let size = ((self.nusiz0 & 0x30) >> 4) as usize;
            self.m0_mask = match self.m0_cosmic_ark_counter {
                1 => t::missile_mask((pos & 3) as usize, number, size | 1) + base,
                2 => t::disabled_mask(),
                _ => t::missile_mask((pos & 3) as usize, number, size) + base,
            };
        }
    }

    /// Colour clocks from a write at `clock` to where it takes effect in the picture.
    #[inline(always)]
    fn write_delay(&self, addr: u16, clock: i32) -> i32 {
        match addr {
            0x01 | 0x0b | 0x0c | 0x1b | 0x1c => 1,
            0x04 | 0x05 | 0x12 | 0x13 => 8,
            0x0d..=0x0f => {
                // Playfield writes land on the next 4-pixel playfield boundary.
                const D: [i32; 4] = [4, 5, 2, 3];
                let x = (clock - self.clock_when_frame_started) % 228;
                D[((x / 3) & 3) as usize]
            }
            _ => 0,
        }
    }

    /// Whether writing `value` to `addr` leaves the picture as it is: the registers
    /// kernels rewrite on every line (colours, CTRLPF, playfield, graphics, enables)
    /// keep what drawing reads; `false` for the others.
    #[inline(always)]
    fn writes_the_same(&self, addr: u16, value: u8) -> bool {
        let on = value & 0x02 != 0;
        match addr {
            0x06..=0x09 => self.colors[color_index(addr)] == self.color_of(value),
            0x0d..=0x0f => self.pf_after(addr, value) == self.pf,
            // The playfield's reflection switches at the write before pixel 79, else at
            // the end of the line, which may not be drawn yet.
            0x0a => self.ctrlpf == value && self.pf_table == usize::from(value & 1),
            // Graphics: the players and the ball as drawn stay as they are (a delayed
            // register changes out of sight).
            // (GRP0 copies GRP1 to its delayed register, GRP1 copies GRP0 and ENABL.)
            0x1b => {
                self.shown_graphics([value, self.dgrp0], [self.grp1, self.grp1])
                    == (self.current_grp0, self.current_grp1)
            }
            0x1c => {
                self.shown_graphics([self.grp0, self.grp0], [value, self.dgrp1])
                    == (self.current_grp0, self.current_grp1)
                    && (self.enabled_objects & t::BL_BIT != 0) == self.enabl
            }
            0x1d => self.enam0 == on,
            0x1e => self.enam1 == on,
            0x1f => self.enabl == on,
            _ => false,
        }
    }

    /// The 20 playfield bits after a write of PF0, PF1 or PF2 (0x0d-0x0f).
    #[inline(always)]
    fn pf_after(&self, addr: u16, value: u8) -> u32 {
        match addr {
            0x0d => (self.pf & 0x000f_fff0) | ((value as u32 >> 4) & 0x0f),
            0x0e => (self.pf & 0x000f_f00f) | ((value as u32) << 4),
            _ => (self.pf & 0x0000_0fff) | ((value as u32) << 12),
        }
    }

    /// The colour a COLU* write sets (PAL sets bit 0 on odd frames).
    #[inline(always)]
    fn color_of(&self, value: u8) -> u8 {
        let odd = self.pal && self.scanline_count_for_last_frame & 1 != 0;
        value & 0xfe | u8::from(odd)
    }

    fn player_mask_at(&self, pos: i32, suppress_first: usize, nusiz: u8) -> usize {
        t::player_mask((pos & 3) as usize, suppress_first, (nusiz & 7) as usize) + 160
            - (pos & 0xfc) as usize
    }

    fn missile_mask_at(&self, pos: i32, nusiz: u8) -> usize {
        t::missile_mask(
            (pos & 3) as usize,
            (nusiz & 7) as usize,
            ((nusiz & 0x30) >> 4) as usize,
        ) + 160
            - (pos & 0xfc) as usize
    }

    fn ball_mask_at(&self) -> usize {
        t::ball_mask(
            (self.posbl & 3) as usize,
            ((self.ctrlpf & 0x30) >> 4) as usize,
        ) + 160
            - (self.posbl & 0xfc) as usize
    }

    fn set_enabled(&mut self, bit: u8, on: bool) {
        if on {
            self.enabled_objects |= bit;
        } else {
            self.enabled_objects &= !bit;
        }
    }

    fn refresh_current_graphics(&mut self) {
        (self.current_grp0, self.current_grp1) =
            self.shown_graphics([self.grp0, self.dgrp0], [self.grp1, self.dgrp1]);
    }

    /// The players' graphics as drawn from their registers `[GRPn, delayed GRPn]`
    /// (VDELPn picks the delayed one, REFPn mirrors it).
    #[inline(always)]
    fn shown_graphics(&self, p0: [u8; 2], p1: [u8; 2]) -> (u8, u8) {
        let shown = |[now, delayed]: [u8; 2], vdel: bool, reflect: bool| {
            let g = if vdel { delayed } else { now };
            if reflect {
                self.tables.reflect[g as usize]
            } else {
                g
            }
        };
        (
            shown(p0, self.vdelp0, self.refp0),
            shown(p1, self.vdelp1, self.refp1),
        )
    }

    /// A read at system clock `cycles`; `data_bus` is the bus's last value (the bits the
    /// TIA does not drive).
    pub fn peek(&mut self, addr: u16, cycles: u32, data_bus: u8, inputs: &TiaInputs) -> u8 {
        self.update_frame(cycles.wrapping_mul(3) as i32);
        let noise = data_bus & 0x3f;
        let bits = |hi: u16, lo: u16| -> u8 {
            (if self.collision & hi != 0 { 0x80 } else { 0 })
                | (if self.collision & lo != 0 { 0x40 } else { 0 })
        };
        match addr & 0x0f {
            0x00 => bits(0x0001, 0x0002) | noise,
            0x01 => bits(0x0004, 0x0008) | noise,
            0x02 => bits(0x0010, 0x0020) | noise,
            0x03 => bits(0x0040, 0x0080) | noise,
            0x04 => bits(0x0100, 0x0200) | noise,
            0x05 => bits(0x0400, 0x0800) | noise,
            0x06 => bits(0x1000, 0) | noise,
            0x07 => bits(0x2000, 0x4000) | noise,
            pin @ 0x08..=0x0b => {
                let r = inputs.resistance[(pin - 8) as usize];
                if r == 0 {
                    0x80 | noise
                } else if r == MAX_RESISTANCE || self.dump_enabled {
                    noise
                } else {
                    // Paddle capacitor charge time, in the reference's double arithmetic.
                    let t = 1.6 * r as f64 * 0.01e-6;
                    let needed = (t * 1.19e6) as u32;
                    if cycles > (self.dump_disabled_cycle as u32).wrapping_add(needed) {
                        0x80 | noise
                    } else {
                        noise
                    }
                }
            }
            0x0c => (if inputs.fire_high[0] { 0x80 } else { 0 }) | noise,
            0x0d => (if inputs.fire_high[1] { 0x80 } else { 0 }) | noise,
            _ => noise,
        }
    }

    /// A write at system clock `*cycles` (WSYNC moves it on); `last_access_was_read` is
    /// the bus's previous access. Each is passed alone, not with the other bus state:
    /// the board stores them as single bytes, and a wider load of both right after
    /// those stores stalled every write natively.
    pub fn poke(&mut self, addr: u16, value: u8, cycles: &mut u32, last_access_was_read: bool) {
        let addr = addr & 0x3f;
        let clock = cycles.wrapping_mul(3) as i32;
        // A write nothing drawn reads, or one that leaves its registers as they are,
        // leaves the picture to the next write that changes it: one segment instead of
        // two, joined without a seam (the word writes past a segment's end and the HMOVE
        // blank ahead of it are redrawn by the next).
        if DRAWS_FIRST & (1 << addr) != 0 && !self.writes_the_same(addr, value) {
            self.update_frame(clock + self.write_delay(addr, clock));
        }

        if (clock - self.clock_when_frame_started) / 228 > self.max_scanlines {
            self.stop_requested = true;
            self.partial_frame = false;
        }

        let hpos = (clock - self.clock_when_frame_started) % 228;
        match addr {
            0x00 => {
                self.vsync = value;
                if self.vsync & 0x02 != 0 {
                    self.vsync_finish_clock = clock + 228;
                } else if clock >= self.vsync_finish_clock {
                    self.vsync_finish_clock = 0x7fff_ffff;
                    self.stop_requested = true;
                    self.partial_frame = false;
                }
            }
            0x01 => {
                if self.vblank & 0x80 == 0 && value & 0x80 != 0 {
                    self.dump_enabled = true;
                }
                if self.vblank & 0x80 != 0 && value & 0x80 == 0 {
                    self.dump_enabled = false;
                    self.dump_disabled_cycle = *cycles as i32;
                }
                self.vblank = value;
            }
            // WSYNC halts the CPU to the end of the line (only after a read, which a
            // store's operand fetch always is).
            0x02 if last_access_was_read => {
                let line_start = (self.clock_when_frame_started / 3) as u32;
                let to_end = 76 - (cycles.wrapping_sub(line_start) % 76);
                if to_end < 76 {
                    *cycles = cycles.wrapping_add(to_end);
                }
            }
            0x04 => {
                self.nusiz0 = value;
                self.p0_mask = self.player_mask_at(self.posp0, 0, self.nusiz0);
                self.m0_mask = self.missile_mask_at(self.posm0, self.nusiz0);
            }
            0x05 => {
                self.nusiz1 = value;
                self.p1_mask = self.player_mask_at(self.posp1, 0, self.nusiz1);
                self.m1_mask = self.missile_mask_at(self.posm1, self.nusiz1);
            }
            0x06..=0x09 => self.colors[color_index(addr)] = self.color_of(value),
            0x0a => {
                self.ctrlpf = value;
                self.priority_and_score = (self.ctrlpf & 0x06) << 5;
                if hpos < 68 + 79 {
                    self.pf_table = (self.ctrlpf & 1) as usize;
                }
                self.bl_mask = self.ball_mask_at();
            }
            0x0b => {
                let on = value & 0x08 != 0;
                if on != self.refp0 {
                    self.refp0 = on;
                    self.current_grp0 = self.tables.reflect[self.current_grp0 as usize];
                }
            }
            0x0c => {
                let on = value & 0x08 != 0;
                if on != self.refp1 {
                    self.refp1 = on;
                    self.current_grp1 = self.tables.reflect[self.current_grp1 as usize];
                }
            }
            0x0d..=0x0f => {
                self.pf = self.pf_after(addr, value);
                self.set_enabled(t::PF_BIT, self.pf != 0);
            }
            0x10 | 0x11 => {
                let newx = if hpos < HBLANK {
                    3
                } else {
                    ((hpos - HBLANK) + 5) % 160
                };
                let (pos, nusiz) = if addr == 0x10 {
                    (self.posp0, self.nusiz0)
                } else {
                    (self.posp1, self.nusiz1)
                };
                let when = self.tables.reset_when
                    [((nusiz & 7) as usize * 160 + pos as usize) * 160 + newx as usize];
                if when == 1 {
                    self.update_frame(clock + 11);
                }
                // A reset inside a copy's display or outside any copy hides the first
                // copy until the line ends; inside a copy's start delay it does not.
                let suppress = usize::from(when != -1);
                let mask = self.player_mask_at(newx, suppress, nusiz);
                if addr == 0x10 {
                    self.posp0 = newx;
                    self.p0_mask = mask;
                } else {
                    self.posp1 = newx;
                    self.p1_mask = mask;
                }
            }
            0x12 => {
                self.posm0 = if hpos < HBLANK {
                    2
                } else {
                    ((hpos - HBLANK) + 4) % 160
                };
                if clock - self.last_hmove_clock == 20 * 3 && hpos == 69 {
                    self.posm0 = 8;
                }
                self.m0_mask = self.missile_mask_at(self.posm0, self.nusiz0);
            }
            0x13 => {
                self.posm1 = if hpos < HBLANK {
                    2
                } else {
                    ((hpos - HBLANK) + 4) % 160
                };
                if clock - self.last_hmove_clock == 3 * 3 && hpos == 18 {
                    self.posm1 = 3;
                }
                self.m1_mask = self.missile_mask_at(self.posm1, self.nusiz1);
            }
            0x14 => {
                self.posbl = if hpos < HBLANK {
                    2
                } else {
                    ((hpos - HBLANK) + 4) % 160
                };
                let since = clock - self.last_hmove_clock;
                if since == 18 * 3 && (hpos == 60 || hpos == 69) {
                    self.posbl = 10;
                } else if since == 3 * 3 && hpos == 18 {
                    self.posbl = 3;
                } else if since == 7 * 3 && hpos == 30 {
                    self.posbl = 6;
                } else if since == 6 * 3 && hpos == 27 {
                    self.posbl = 5;
                }
                self.bl_mask = self.ball_mask_at();
            }
            0x1b => {
                self.grp0 = value;
                self.dgrp1 = self.grp1;
                self.refresh_current_graphics();
                self.set_enabled(t::P0_BIT, self.current_grp0 != 0);
                self.set_enabled(t::P1_BIT, self.current_grp1 != 0);
            }
            0x1c => {
                self.grp1 = value;
                self.dgrp0 = self.grp0;
                self.denabl = self.enabl;
                self.refresh_current_graphics();
                self.set_enabled(t::P0_BIT, self.current_grp0 != 0);
                self.set_enabled(t::P1_BIT, self.current_grp1 != 0);
                let ball = if self.vdelbl { self.denabl } else { self.enabl };
                self.set_enabled(t::BL_BIT, ball);
            }
            0x1d => {
                self.enam0 = value & 0x02 != 0;
                self.set_enabled(t::M0_BIT, self.enam0 && !self.resmp0);
            }
            0x1e => {
                self.enam1 = value & 0x02 != 0;
                self.set_enabled(t::M1_BIT, self.enam1 && !self.resmp1);
            }
            0x1f => {
                self.enabl = value & 0x02 != 0;
                let ball = if self.vdelbl { self.denabl } else { self.enabl };
                self.set_enabled(t::BL_BIT, ball);
            }
            0x20 => self.hmp0 = value >> 4,
            0x21 => self.hmp1 = value >> 4,
            0x22 => {
                let motion = value >> 4;
                if clock == self.last_hmove_clock + 21 * 3 && self.hmm0 == 7 && motion == 6 {
                    self.m0_cosmic_ark_motion = true;
                    self.m0_cosmic_ark_counter = 0;
                }
                self.hmm0 = motion;
            }
            0x23 => self.hmm1 = value >> 4,
            0x24 => self.hmbl = value >> 4,
            0x25 => {
                self.vdelp0 = value & 0x01 != 0;
                self.refresh_current_graphics();
                self.set_enabled(t::P0_BIT, self.current_grp0 != 0);
            }
            0x26 => {
                self.vdelp1 = value & 0x01 != 0;
                self.refresh_current_graphics();
                self.set_enabled(t::P1_BIT, self.current_grp1 != 0);
            }
            0x27 => {
                self.vdelbl = value & 0x01 != 0;
                let ball = if self.vdelbl { self.denabl } else { self.enabl };
                self.set_enabled(t::BL_BIT, ball);
            }
            0x28 | 0x29 => {
                let first = addr == 0x28;
                let (was_locked, nusiz, posp) = if first {
                    (self.resmp0, self.nusiz0, self.posp0)
                } else {
                    (self.resmp1, self.nusiz1, self.posp1)
                };
                if was_locked && value & 0x02 == 0 {
                    let middle = match nusiz & 7 {
                        5 => 8,
                        7 => 16,
                        _ => 4,
                    };
                    let pos = (posp + middle) % 160;
                    let mask = self.missile_mask_at(pos, nusiz);
                    if first {
                        self.posm0 = pos;
                        self.m0_mask = mask;
                    } else {
                        self.posm1 = pos;
                        self.m1_mask = mask;
                    }
                }
                let locked = value & 0x02 != 0;
                if first {
                    self.resmp0 = locked;
                    self.set_enabled(t::M0_BIT, self.enam0 && !self.resmp0);
                } else {
                    self.resmp1 = locked;
                    self.set_enabled(t::M1_BIT, self.enam1 && !self.resmp1);
                }
            }
            0x2a => {
                let x = (hpos / 3) as usize;
                if self.allow_hmove_blanks && (x <= 20 || x == 75) {
                    self.hmove_blank_enabled = true;
                }
                let motion = &self.tables.motion[x];
                let wrap = |p: i32| {
                    if p >= 160 {
                        p - 160
                    } else if p < 0 {
                        p + 160
                    } else {
                        p
                    }
                };
                self.posp0 = wrap(self.posp0 + motion[self.hmp0 as usize] as i32);
                self.posp1 = wrap(self.posp1 + motion[self.hmp1 as usize] as i32);
                self.posm0 = wrap(self.posm0 + motion[self.hmm0 as usize] as i32);
                self.posm1 = wrap(self.posm1 + motion[self.hmm1 as usize] as i32);
                self.posbl = wrap(self.posbl + motion[self.hmbl as usize] as i32);
                self.bl_mask = self.ball_mask_at();
                self.p0_mask = self.player_mask_at(self.posp0, 0, self.nusiz0);
                self.p1_mask = self.player_mask_at(self.posp1, 0, self.nusiz1);
                self.m0_mask = self.missile_mask_at(self.posm0, self.nusiz0);
                self.m1_mask = self.missile_mask_at(self.posm1, self.nusiz1);
                self.last_hmove_clock = clock;
                self.m0_cosmic_ark_motion = false;
            }
            0x2b => {
                self.hmp0 = 0;
                self.hmp1 = 0;
                self.hmm0 = 0;
                self.hmm1 = 0;
                self.hmbl = 0;
            }
            0x2c => self.collision = 0,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random writes through a frame, most of them rewriting what kernels rewrite on
    /// every line from a few values (so that many change nothing), the others moving,
    /// delaying, reflecting and resizing objects: the picture and the collisions equal
    /// those of drawing up to every write first, as the reference does.
    #[test]
    fn rewrites_left_undrawn_leave_the_picture_as_drawing_first() {
        const REWRITTEN: [u16; 13] = [
            0x06, 0x07, 0x08, 0x09, 0x0a, 0x0d, 0x0e, 0x0f, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
        ];
        const OTHERS: [u16; 25] = [
            0x01, 0x02, 0x03, 0x04, 0x05, 0x0b, 0x0c, 0x10, 0x11, 0x12, 0x13, 0x14, 0x20, 0x21,
            0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c,
        ];
        const VALUES: [u8; 6] = [0x00, 0x02, 0x18, 0x55, 0xf3, 0xff];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 33) as usize % n
        };
        let mut left_undrawn = 0;
        for frame in 0..200 {
            let mut lazy = Tia::new(0, 210, true);
            lazy.reset(0);
            lazy.start_frame(0);
            let mut eager = lazy.clone();
            let mut cycles = 0u32;
            while cycles < 76 * 200 {
                cycles += 2 + next(5) as u32;
                let addr = if next(4) == 0 {
                    OTHERS[next(OTHERS.len())]
                } else {
                    REWRITTEN[next(REWRITTEN.len())]
                };
                let value = VALUES[next(VALUES.len())];
                let clock = cycles.wrapping_mul(3) as i32;
                left_undrawn += usize::from(lazy.writes_the_same(addr, value));
                if DRAWS_FIRST & (1 << addr) != 0 {
                    eager.update_frame(clock + eager.write_delay(addr, clock));
                }
                let (mut at_lazy, mut at_eager) = (cycles, cycles);
                lazy.poke(addr, value, &mut at_lazy, true);
                eager.poke(addr, value, &mut at_eager, true);
                assert_eq!(at_lazy, at_eager);
                cycles = at_lazy;
            }
            for tia in [&mut lazy, &mut eager] {
                let end = tia.clock_stop_display;
                tia.update_frame(end);
            }
            let differ = lazy
                .frame()
                .iter()
                .zip(eager.frame())
                .position(|(a, b)| a != b);
            assert_eq!(differ, None, "frame {frame}: first differing pixel");
            assert_eq!(lazy.collision, eager.collision, "frame {frame}");
        }
        assert!(left_undrawn > 50_000, "{left_undrawn} writes left undrawn");
    }
}
