//! The 6507 CPU as ALE runs it (Stella's "low compatibility" core, ALE's default).
//!
//! The timing model matters for exactness: after the opcode fetch the whole
//! instruction's base cycle count is added to the system clock at once, before any
//! operand access, so every TIA/RIOT access of an instruction sees the clock of the
//! instruction's end. Indexed reads that cross a page and taken branches add their extra
//! cycles just before the access that follows. Only the bus accesses listed per
//! addressing mode happen (no dummy reads of indexed or read-modify-write modes), and a
//! read-modify-write writes once. The undocumented opcodes behave as that core does;
//! the twelve jam opcodes halt the CPU for good.

use super::riot::Riot;

/// What the CPU needs from the rest of the machine.
pub trait Bus {
    fn peek(&mut self, addr: u16) -> u8;
    fn poke(&mut self, addr: u16, value: u8);
    fn add_cycles(&mut self, cycles: u32);
    /// Set by the TIA when a frame ends (VSYNC): the CPU stops after the instruction.
    fn stop_requested(&self) -> bool;
    /// A byte of code as the next fetch would read it, without a bus access: `None`
    /// where a device answers (a read of it could switch banks).
    fn code(&self, _addr: u16) -> Option<u8> {
        None
    }
    /// A program waits on the RIOT timer: a loop reading `addr` every `cycles_per_loop`
    /// cycles, from the cycle just reached, until the read is below `lowest`. Skips at
    /// most `max_loops` whole loops whose reads are at least `lowest` and change
    /// nothing, moving the clock past them; returns how many (0 if `addr` is not the
    /// timer).
    fn skip_timer_wait(
        &mut self,
        _addr: u16,
        _lowest: u8,
        _cycles_per_loop: u32,
        _max_loops: u32,
    ) -> u32 {
        0
    }
}

/// Base cycles per opcode (extra cycles for page crossings and branches come on top).
const CYCLES: [u8; 256] = [
    7, 6, 2, 8, 3, 3, 5, 5, 3, 2, 2, 2, 4, 4, 6, 6, // 0x
    2, 5, 2, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7, // 1x
    6, 6, 2, 8, 3, 3, 5, 5, 4, 2, 2, 2, 4, 4, 6, 6, // 2x
    2, 5, 2, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7, // 3x
    6, 6, 2, 8, 3, 3, 5, 5, 3, 2, 2, 2, 3, 4, 6, 6, // 4x
    2, 5, 2, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7, // 5x
    6, 6, 2, 8, 3, 3, 5, 5, 4, 2, 2, 2, 5, 4, 6, 6, // 6x
    2, 5, 2, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7, // 7x
    2, 6, 2, 6, 3, 3, 3, 3, 2, 2, 2, 2, 4, 4, 4, 4, // 8x
    2, 6, 2, 6, 4, 4, 4, 4, 2, 5, 2, 5, 5, 5, 5, 5, // 9x
    2, 6, 2, 6, 3, 3, 3, 4, 2, 2, 2, 2, 4, 4, 4, 4, // Ax
    2, 5, 2, 5, 4, 4, 4, 4, 2, 4, 2, 4, 4, 4, 4, 4, // Bx
    2, 6, 2, 8, 3, 3, 5, 5, 2, 2, 2, 2, 4, 4, 6, 6, // Cx
    2, 5, 2, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7, // Dx
    2, 6, 2, 8, 3, 3, 5, 5, 2, 2, 2, 2, 4, 4, 6, 6, // Ex
    2, 5, 2, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7, // Fx
];

/// Packed BCD byte (each nibble 0..15) to its two-digit value, as the decimal mode uses it.
#[inline]
fn bcd_to_bin(v: u8) -> i32 {
    ((v >> 4) as i32) * 10 + (v & 0x0f) as i32
}

/// Value to packed BCD. Negative values (possible only for invalid BCD operands) read the
/// conversion table of the other direction just before this one, as the reference's
/// contiguous tables do.
#[inline]
fn bin_to_bcd(v: i32) -> u8 {
    if v < 0 {
        bcd_to_bin((256 + v).clamp(0, 255) as u8) as u8
    } else {
        let t = v & 0xff;
        ((((t % 100) / 10) << 4) | (t % 10)) as u8
    }
}

#[inline]
fn crosses_page(a: u16, b: u16) -> bool {
    (a ^ b) & 0xff00 != 0
}

#[derive(Clone, Debug, Default)]
pub struct Cpu {
    pub a: u8,
    pub x: u8,
    pub y: u8,
    pub sp: u8,
    pub pc: u16,
    /// N and Z as the value they come from: Z while its low byte is zero, N while bit 7
    /// or bit 8 is set (bit 8 sets N apart from Z, for BIT and status loads). One value
    /// written per instruction instead of two flags.
    nz: u16,
    v: bool,
    d: bool,
    i: bool,
    c: bool,
    /// A jam opcode was executed: the CPU runs no further instruction.
    jammed: bool,
}

impl Cpu {
    pub fn reset<B: Bus>(&mut self, bus: &mut B) {
        self.jammed = false;
        self.a = 0;
        self.x = 0;
        self.y = 0;
        self.sp = 0xff;
        self.set_status(0x20);
        let lo = bus.peek(0xfffc) as u16;
        let hi = bus.peek(0xfffd) as u16;
        self.pc = lo | (hi << 8);
    }

    #[cfg(test)]
    pub fn jammed(&self) -> bool {
        self.jammed
    }

    /// The status byte. The 6507's B flag always reads as set in this core.
    #[inline(always)]
    fn status(&self) -> u8 {
        let mut ps = 0x30;
        if self.n() {
            ps |= 0x80;
        }
        if self.v {
            ps |= 0x40;
        }
        if self.d {
            ps |= 0x08;
        }
        if self.i {
            ps |= 0x04;
        }
        if self.z() {
            ps |= 0x02;
        }
        if self.c {
            ps |= 0x01;
        }
        ps
    }

    #[inline(always)]
    fn set_status(&mut self, ps: u8) {
        self.set_n_z(ps & 0x80 != 0, ps & 0x02 != 0);
        self.v = ps & 0x40 != 0;
        self.d = ps & 0x08 != 0;
        self.i = ps & 0x04 != 0;
        self.c = ps & 0x01 != 0;
    }

    #[inline(always)]
    fn set_nz(&mut self, v: u8) {
        self.nz = v as u16;
    }

    #[inline(always)]
    fn set_n_z(&mut self, n: bool, z: bool) {
        self.nz = u16::from(!z) | (u16::from(n) << 8);
    }

    #[inline(always)]
    fn n(&self) -> bool {
        self.nz & 0x180 != 0
    }

    #[inline(always)]
    fn z(&self) -> bool {
        self.nz & 0xff == 0
    }

    #[inline(always)]
    fn fetch<B: Bus>(&mut self, bus: &mut B) -> u8 {
        let v = bus.peek(self.pc);
        self.pc = self.pc.wrapping_add(1);
        v
    }

    #[inline(always)]
    fn fetch_word<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let lo = bus.peek(self.pc) as u16;
        let hi = bus.peek(self.pc.wrapping_add(1)) as u16;
        self.pc = self.pc.wrapping_add(2);
        lo | (hi << 8)
    }

    // Effective addresses. `page_penalty` adds the page-crossing cycle (read modes only).
    #[inline(always)]
    fn addr_zero<B: Bus>(&mut self, bus: &mut B) -> u16 {
        self.fetch(bus) as u16
    }

    #[inline(always)]
    fn addr_zero_x<B: Bus>(&mut self, bus: &mut B) -> u16 {
        self.fetch(bus).wrapping_add(self.x) as u16
    }

    #[inline(always)]
    fn addr_zero_y<B: Bus>(&mut self, bus: &mut B) -> u16 {
        self.fetch(bus).wrapping_add(self.y) as u16
    }

    #[inline(always)]
    fn addr_abs<B: Bus>(&mut self, bus: &mut B) -> u16 {
        self.fetch_word(bus)
    }

    #[inline(always)]
    fn addr_abs_indexed<B: Bus>(&mut self, bus: &mut B, index: u8, page_penalty: bool) -> u16 {
        let base = self.fetch_word(bus);
        let addr = base.wrapping_add(index as u16);
        if page_penalty && crosses_page(base, addr) {
            bus.add_cycles(1);
        }
        addr
    }

    /// (zp,X): the pointer's high byte is read from pointer+1 without zero-page wrap
    /// (0xFF reads its high byte from 0x100), as the reference core does.
    #[inline(always)]
    fn addr_indirect_x<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let pointer = self.fetch(bus).wrapping_add(self.x) as u16;
        let lo = bus.peek(pointer) as u16;
        let hi = bus.peek(pointer + 1) as u16;
        lo | (hi << 8)
    }

    #[inline(always)]
    fn addr_indirect_y<B: Bus>(&mut self, bus: &mut B, page_penalty: bool) -> u16 {
        let pointer = self.fetch(bus) as u16;
        let lo = bus.peek(pointer) as u16;
        let hi = bus.peek(pointer + 1) as u16;
        let base = lo | (hi << 8);
        let addr = base.wrapping_add(self.y as u16);
        if page_penalty && crosses_page(base, addr) {
            bus.add_cycles(1);
        }
        addr
    }

    /// Effective address for the read and read-modify-write groups (opcode column bits).
    #[inline(always)]
    fn read_addr<B: Bus>(&mut self, bus: &mut B, mode: Mode) -> u16 {
        match mode {
            Mode::Zero => self.addr_zero(bus),
            Mode::ZeroX => self.addr_zero_x(bus),
            Mode::ZeroY => self.addr_zero_y(bus),
            Mode::Abs => self.addr_abs(bus),
            Mode::AbsX => self.addr_abs_indexed(bus, self.x, true),
            Mode::AbsY => self.addr_abs_indexed(bus, self.y, true),
            Mode::IndX => self.addr_indirect_x(bus),
            Mode::IndY => self.addr_indirect_y(bus, true),
            Mode::Imm => {
                let a = self.pc;
                self.pc = self.pc.wrapping_add(1);
                a
            }
        }
    }

    /// Effective address for writes and read-modify-writes: no page-crossing cycle.
    #[inline(always)]
    fn write_addr<B: Bus>(&mut self, bus: &mut B, mode: Mode) -> u16 {
        match mode {
            Mode::AbsX => self.addr_abs_indexed(bus, self.x, false),
            Mode::AbsY => self.addr_abs_indexed(bus, self.y, false),
            Mode::IndY => self.addr_indirect_y(bus, false),
            other => self.read_addr(bus, other),
        }
    }

    #[inline(always)]
    fn read<B: Bus>(&mut self, bus: &mut B, mode: Mode) -> u8 {
        let addr = self.read_addr(bus, mode);
        bus.peek(addr)
    }

    #[inline(always)]
    fn adc(&mut self, operand: u8) {
        let carry = self.c as i32;
        if !self.d {
            let signed = (self.a as i8) as i32 + (operand as i8) as i32 + carry;
            self.v = !(-128..=127).contains(&signed);
            let sum = self.a as i32 + operand as i32 + carry;
            self.a = sum as u8;
            self.c = sum > 0xff;
            self.set_nz(self.a);
        } else {
            let old_a = self.a;
            let sum = bcd_to_bin(self.a) + bcd_to_bin(operand) + carry;
            self.c = sum > 99;
            self.a = bin_to_bcd(sum & 0xff);
            self.set_nz(self.a);
            self.v = ((old_a ^ self.a) & 0x80 != 0) && ((self.a ^ operand) & 0x80 != 0);
        }
    }

    #[inline(always)]
    fn sbc(&mut self, operand: u8) {
        let carry = self.c as i32;
        if !self.d {
            let inverted = !operand;
            let signed = (self.a as i8) as i32 + (inverted as i8) as i32 + carry;
            self.v = !(-128..=127).contains(&signed);
            let diff = self.a as i32 + inverted as i32 + carry;
            self.a = diff as u8;
            self.c = diff > 0xff;
            self.set_nz(self.a);
        } else {
            let old_a = self.a;
            let borrow = 1 - carry;
            let mut diff = bcd_to_bin(self.a) - bcd_to_bin(operand) - borrow;
            if diff < 0 {
                diff += 100;
            }
            self.a = bin_to_bcd(diff);
            self.set_nz(self.a);
            self.c = old_a as i32 >= operand as i32 + borrow;
            self.v = ((old_a ^ self.a) & 0x80 != 0) && ((self.a ^ operand) & 0x80 != 0);
        }
    }

    #[inline(always)]
    fn compare(&mut self, reg: u8, operand: u8) {
        let value = (reg as u16).wrapping_sub(operand as u16);
        // Zero only when equal; bit 7 is N.
        self.nz = value & 0xff;
        self.c = value & 0x100 == 0;
    }

    #[inline(always)]
    fn branch<B: Bus>(&mut self, bus: &mut B, taken: bool) {
        let offset = self.fetch(bus) as i8;
        if taken {
            let target = self.pc.wrapping_add(offset as i16 as u16);
            bus.add_cycles(if crosses_page(self.pc, target) { 2 } else { 1 });
            self.pc = target;
        }
    }

    #[inline(always)]
    fn push<B: Bus>(&mut self, bus: &mut B, value: u8) {
        bus.poke(0x100 + self.sp as u16, value);
        self.sp = self.sp.wrapping_sub(1);
    }

    /// Reads the stack at SP, then increments SP (the reference's `peek(0x100 + SP++)`).
    #[inline(always)]
    fn stack_read_post_inc<B: Bus>(&mut self, bus: &mut B) -> u8 {
        let v = bus.peek(0x100 + self.sp as u16);
        self.sp = self.sp.wrapping_add(1);
        v
    }

    /// Runs up to `count` instructions; stops early when the bus asks (end of frame) or
    /// the CPU is jammed. Returns false when jammed.
    pub fn execute<B: Bus>(&mut self, bus: &mut B, count: u32) -> bool {
        // The registers live in a local copy while the loop runs, so the compiler keeps
        // them in machine registers instead of memory.
        let mut cpu = self.clone();
        let mut remaining = count;
        while remaining != 0 && !cpu.jammed && !bus.stop_requested() {
            remaining -= cpu.step_within(bus, remaining);
        }
        *self = cpu;
        !self.jammed
    }

    /// One instruction.
    #[cfg(test)]
    pub fn step<B: Bus>(&mut self, bus: &mut B) {
        self.step_within(bus, 1);
    }

    /// One instruction, or more where a wait on the timer is skipped: at most `budget`
    /// (at least 1); returns how many ran. Each opcode has its own arm, so its
    /// addressing mode is a constant the compiler folds in (no second dispatch on the
    /// mode).
    #[inline(always)]
    fn step_within<B: Bus>(&mut self, bus: &mut B, budget: u32) -> u32 {
        let op = self.fetch(bus);
        bus.add_cycles(CYCLES[op as usize] as u32);
        // Reads: the operand goes to `$f`.
        macro_rules! read {
            ($mode:ident, $f:ident) => {{
                let v = self.read(bus, Mode::$mode);
                self.$f(v)
            }};
        }
        // Writes: `$f` gives the byte to store at the effective address.
        macro_rules! write {
            ($mode:ident, $f:ident) => {{
                let addr = self.write_addr(bus, Mode::$mode);
                let v = self.$f(addr);
                bus.poke(addr, v)
            }};
        }
        // Read-modify-writes: one read, one write of what `$f` returns (register
        // effects of the combined undocumented opcodes happen in `$f`; the order does
        // not matter as the bus never sees registers).
        macro_rules! rmw {
            ($mode:ident, $f:ident) => {{
                let addr = self.write_addr(bus, Mode::$mode);
                let operand = bus.peek(addr);
                let result = self.$f(operand);
                bus.poke(addr, result)
            }};
        }
        match op {
            0x01 => read!(IndX, ora),
            0x03 => rmw!(IndX, slo),
            0x04 => read!(Zero, nop_read),
            0x05 => read!(Zero, ora),
            0x06 => rmw!(Zero, asl),
            0x07 => rmw!(Zero, slo),
            0x09 => read!(Imm, ora),
            0x0b => read!(Imm, anc),
            0x0c => read!(Abs, nop_read),
            0x0d => read!(Abs, ora),
            0x0e => rmw!(Abs, asl),
            0x0f => rmw!(Abs, slo),
            0x11 => read!(IndY, ora),
            0x13 => rmw!(IndY, slo),
            0x14 => read!(ZeroX, nop_read),
            0x15 => read!(ZeroX, ora),
            0x16 => rmw!(ZeroX, asl),
            0x17 => rmw!(ZeroX, slo),
            0x19 => read!(AbsY, ora),
            0x1b => rmw!(AbsY, slo),
            0x1c => read!(AbsX, nop_read),
            0x1d => read!(AbsX, ora),
            0x1e => rmw!(AbsX, asl),
            0x1f => rmw!(AbsX, slo),
            0x21 => read!(IndX, and),
            0x23 => rmw!(IndX, rla),
            0x24 => read!(Zero, bit),
            0x25 => read!(Zero, and),
            0x26 => rmw!(Zero, rol),
            0x27 => rmw!(Zero, rla),
            0x29 => read!(Imm, and),
            0x2b => read!(Imm, anc),
            0x2c => read!(Abs, bit),
            0x2d => read!(Abs, and),
            0x2e => rmw!(Abs, rol),
            0x2f => rmw!(Abs, rla),
            0x31 => read!(IndY, and),
            0x33 => rmw!(IndY, rla),
            0x34 => read!(ZeroX, nop_read),
            0x35 => read!(ZeroX, and),
            0x36 => rmw!(ZeroX, rol),
            0x37 => rmw!(ZeroX, rla),
            0x39 => read!(AbsY, and),
            0x3b => rmw!(AbsY, rla),
            0x3c => read!(AbsX, nop_read),
            0x3d => read!(AbsX, and),
            0x3e => rmw!(AbsX, rol),
            0x3f => rmw!(AbsX, rla),
            0x41 => read!(IndX, eor),
            0x43 => rmw!(IndX, sre),
            0x44 => read!(Zero, nop_read),
            0x45 => read!(Zero, eor),
            0x46 => rmw!(Zero, lsr),
            0x47 => rmw!(Zero, sre),
            0x49 => read!(Imm, eor),
            0x4b => read!(Imm, asr),
            0x4d => read!(Abs, eor),
            0x4e => rmw!(Abs, lsr),
            0x4f => rmw!(Abs, sre),
            0x51 => read!(IndY, eor),
            0x53 => rmw!(IndY, sre),
            0x54 => read!(ZeroX, nop_read),
            0x55 => read!(ZeroX, eor),
            0x56 => rmw!(ZeroX, lsr),
            0x57 => rmw!(ZeroX, sre),
            0x59 => read!(AbsY, eor),
            0x5b => rmw!(AbsY, sre),
            0x5c => read!(AbsX, nop_read),
            0x5d => read!(AbsX, eor),
            0x5e => rmw!(AbsX, lsr),
            0x5f => rmw!(AbsX, sre),
            0x61 => read!(IndX, adc),
            0x63 => rmw!(IndX, rra),
            0x64 => read!(Zero, nop_read),
            0x65 => read!(Zero, adc),
            0x66 => rmw!(Zero, ror),
            0x67 => rmw!(Zero, rra),
            0x69 => read!(Imm, adc),
            0x6b => read!(Imm, arr),
            0x6d => read!(Abs, adc),
            0x6e => rmw!(Abs, ror),
            0x6f => rmw!(Abs, rra),
            0x71 => read!(IndY, adc),
            0x73 => rmw!(IndY, rra),
            0x74 => read!(ZeroX, nop_read),
            0x75 => read!(ZeroX, adc),
            0x76 => rmw!(ZeroX, ror),
            0x77 => rmw!(ZeroX, rra),
            0x79 => read!(AbsY, adc),
            0x7b => rmw!(AbsY, rra),
            0x7c => read!(AbsX, nop_read),
            0x7d => read!(AbsX, adc),
            0x7e => rmw!(AbsX, ror),
            0x7f => rmw!(AbsX, rra),
            0x80 => read!(Imm, nop_read),
            0x81 => write!(IndX, sta),
            0x82 => read!(Imm, nop_read),
            0x83 => write!(IndX, sax),
            0x84 => write!(Zero, sty),
            0x85 => write!(Zero, sta),
            0x86 => write!(Zero, stx),
            0x87 => write!(Zero, sax),
            0x89 => read!(Imm, nop_read),
            0x8b => read!(Imm, ane),
            0x8c => write!(Abs, sty),
            0x8d => write!(Abs, sta),
            0x8e => write!(Abs, stx),
            0x8f => write!(Abs, sax),
            0x91 => write!(IndY, sta),
            0x93 => write!(IndY, sha),
            0x94 => write!(ZeroX, sty),
            0x95 => write!(ZeroX, sta),
            0x96 => write!(ZeroY, stx),
            0x97 => write!(ZeroY, sax),
            0x99 => write!(AbsY, sta),
            0x9b => write!(AbsY, shs),
            0x9c => write!(AbsX, shy),
            0x9d => write!(AbsX, sta),
            0x9e => write!(AbsY, shx),
            0x9f => write!(AbsY, sha),
            0xa0 => read!(Imm, ldy),
            0xa1 => read!(IndX, lda),
            0xa2 => read!(Imm, ldx),
            0xa3 => read!(IndX, lax),
            0xa4 => read!(Zero, ldy),
            0xa5 => read!(Zero, lda),
            0xa6 => read!(Zero, ldx),
            0xa7 => read!(Zero, lax),
            0xa9 => read!(Imm, lda),
            0xab => read!(Imm, lxa),
            0xac => return self.load_abs(bus, budget, Self::ldy),
            0xad => return self.load_abs(bus, budget, Self::lda),
            0xae => return self.load_abs(bus, budget, Self::ldx),
            0xaf => read!(Abs, lax),
            0xb1 => read!(IndY, lda),
            0xb3 => read!(IndY, lax),
            0xb4 => read!(ZeroX, ldy),
            0xb5 => read!(ZeroX, lda),
            0xb6 => read!(ZeroY, ldx),
            0xb7 => read!(ZeroY, lax),
            0xb9 => read!(AbsY, lda),
            0xbb => read!(AbsY, las),
            0xbc => read!(AbsX, ldy),
            0xbd => read!(AbsX, lda),
            0xbe => read!(AbsY, ldx),
            0xbf => read!(AbsY, lax),
            0xc0 => read!(Imm, cpy),
            0xc1 => read!(IndX, cmp),
            0xc2 => read!(Imm, nop_read),
            0xc3 => rmw!(IndX, dcp),
            0xc4 => read!(Zero, cpy),
            0xc5 => read!(Zero, cmp),
            0xc6 => rmw!(Zero, dec),
            0xc7 => rmw!(Zero, dcp),
            0xc9 => read!(Imm, cmp),
            0xcb => read!(Imm, sbx),
            0xcc => read!(Abs, cpy),
            0xcd => read!(Abs, cmp),
            0xce => rmw!(Abs, dec),
            0xcf => rmw!(Abs, dcp),
            0xd1 => read!(IndY, cmp),
            0xd3 => rmw!(IndY, dcp),
            0xd4 => read!(ZeroX, nop_read),
            0xd5 => read!(ZeroX, cmp),
            0xd6 => rmw!(ZeroX, dec),
            0xd7 => rmw!(ZeroX, dcp),
            0xd9 => read!(AbsY, cmp),
            0xdb => rmw!(AbsY, dcp),
            0xdc => read!(AbsX, nop_read),
            0xdd => read!(AbsX, cmp),
            0xde => rmw!(AbsX, dec),
            0xdf => rmw!(AbsX, dcp),
            0xe0 => read!(Imm, cpx),
            0xe1 => read!(IndX, sbc),
            0xe2 => read!(Imm, nop_read),
            0xe3 => rmw!(IndX, isb),
            0xe4 => read!(Zero, cpx),
            0xe5 => read!(Zero, sbc),
            0xe6 => rmw!(Zero, inc),
            0xe7 => rmw!(Zero, isb),
            0xe9 => read!(Imm, sbc),
            0xeb => read!(Imm, sbc),
            0xec => read!(Abs, cpx),
            0xed => read!(Abs, sbc),
            0xee => rmw!(Abs, inc),
            0xef => rmw!(Abs, isb),
            0xf1 => read!(IndY, sbc),
            0xf3 => rmw!(IndY, isb),
            0xf4 => read!(ZeroX, nop_read),
            0xf5 => read!(ZeroX, sbc),
            0xf6 => rmw!(ZeroX, inc),
            0xf7 => rmw!(ZeroX, isb),
            0xf9 => read!(AbsY, sbc),
            0xfb => rmw!(AbsY, isb),
            0xfc => read!(AbsX, nop_read),
            0xfd => read!(AbsX, sbc),
            0xfe => rmw!(AbsX, inc),
            0xff => rmw!(AbsX, isb),
            // Shifts and rotates on the accumulator.
            0x0a => {
                self.c = self.a & 0x80 != 0;
                self.a <<= 1;
                self.set_nz(self.a);
            }
            0x4a => {
                self.c = self.a & 0x01 != 0;
                self.a >>= 1;
                self.set_nz(self.a);
            }
            0x2a => {
                let old_c = self.c as u8;
                self.c = self.a & 0x80 != 0;
                self.a = (self.a << 1) | old_c;
                self.set_nz(self.a);
            }
            0x6a => {
                let old_c = self.c as u8;
                self.c = self.a & 0x01 != 0;
                self.a = (self.a >> 1) | (old_c << 7);
                self.set_nz(self.a);
            }
            // Register transfers, increments and flags.
            0xaa => {
                self.x = self.a;
                self.set_nz(self.x);
            }
            0xa8 => {
                self.y = self.a;
                self.set_nz(self.y);
            }
            0x8a => {
                self.a = self.x;
                self.set_nz(self.a);
            }
            0x98 => {
                self.a = self.y;
                self.set_nz(self.a);
            }
            0xba => {
                self.x = self.sp;
                self.set_nz(self.x);
            }
            0x9a => self.sp = self.x,
            0xe8 => {
                self.x = self.x.wrapping_add(1);
                self.set_nz(self.x);
            }
            0xc8 => {
                self.y = self.y.wrapping_add(1);
                self.set_nz(self.y);
            }
            0xca => {
                self.x = self.x.wrapping_sub(1);
                self.set_nz(self.x);
            }
            0x88 => {
                self.y = self.y.wrapping_sub(1);
                self.set_nz(self.y);
            }
            0x18 => self.c = false,
            0x38 => self.c = true,
            0x58 => self.i = false,
            0x78 => self.i = true,
            0xb8 => self.v = false,
            0xd8 => self.d = false,
            0xf8 => self.d = true,
            // Branches.
            0x10 => self.branch(bus, !self.n()),
            0x30 => self.branch(bus, self.n()),
            0x50 => self.branch(bus, !self.v),
            0x70 => self.branch(bus, self.v),
            0x90 => self.branch(bus, !self.c),
            0xb0 => self.branch(bus, self.c),
            0xd0 => self.branch(bus, !self.z()),
            0xf0 => self.branch(bus, self.z()),
            // Jumps, calls, returns, stack.
            0x4c => self.pc = self.fetch_word(bus),
            0x6c => {
                let pointer = self.fetch_word(bus);
                // The 6502's indirect jump does not carry into the pointer's high byte.
                let high = if crosses_page(pointer, pointer.wrapping_add(1)) {
                    pointer & 0xff00
                } else {
                    pointer.wrapping_add(1)
                };
                let lo = bus.peek(pointer) as u16;
                let hi = bus.peek(high) as u16;
                self.pc = lo | (hi << 8);
            }
            0x20 => {
                let lo = self.fetch(bus) as u16;
                bus.peek(0x100 + self.sp as u16);
                let pc = self.pc;
                self.push(bus, (pc >> 8) as u8);
                self.push(bus, pc as u8);
                let hi = self.fetch(bus) as u16;
                self.pc = lo | (hi << 8);
            }
            0x60 => {
                self.stack_read_post_inc(bus);
                let lo = self.stack_read_post_inc(bus) as u16;
                let hi = bus.peek(0x100 + self.sp as u16) as u16;
                self.pc = lo | (hi << 8);
                self.fetch(bus);
            }
            0x40 => {
                self.stack_read_post_inc(bus);
                let ps = self.stack_read_post_inc(bus);
                self.set_status(ps);
                let lo = self.stack_read_post_inc(bus) as u16;
                let hi = bus.peek(0x100 + self.sp as u16) as u16;
                self.pc = lo | (hi << 8);
            }
            0x00 => {
                self.fetch(bus);
                let pc = self.pc;
                self.push(bus, (pc >> 8) as u8);
                self.push(bus, pc as u8);
                let ps = self.status();
                self.push(bus, ps);
                self.i = true;
                let lo = bus.peek(0xfffe) as u16;
                let hi = bus.peek(0xffff) as u16;
                self.pc = lo | (hi << 8);
            }
            0x48 => self.push(bus, self.a),
            0x08 => {
                let ps = self.status();
                self.push(bus, ps);
            }
            0x68 => {
                self.stack_read_post_inc(bus);
                self.a = bus.peek(0x100 + self.sp as u16);
                self.set_nz(self.a);
            }
            0x28 => {
                self.stack_read_post_inc(bus);
                let ps = bus.peek(0x100 + self.sp as u16);
                self.set_status(ps);
            }
            0xea | 0x1a | 0x3a | 0x5a | 0x7a | 0xda | 0xfa => {}
            // The jam opcodes (0x02, 0x12, ... 0xF2).
            _ => self.jammed = true,
        }
        1
    }

    /// LDA, LDX or LDY absolute (`load` sets the register). Games wait for the end of
    /// the blanking periods with `LD? INTIM` / `BNE` (or `BMI`) back to it, which was
    /// a tenth to a half of all instructions run; the loops whose reads only show the
    /// timer counting down are skipped in one go, with the clock moved as they would
    /// have moved it, and this load reads the timer where they would have ended.
    /// Nothing else happens in such a loop (no interrupts on the 6507, the TIA and the
    /// timer are computed from the clock), so the machine is the same after it.
    #[inline(always)]
    fn load_abs<B: Bus>(&mut self, bus: &mut B, budget: u32, load: fn(&mut Self, u8)) -> u32 {
        let addr = self.addr_abs(bus);
        let mut skipped = 0;
        if budget >= 3 && Riot::reads_timer(addr) {
            let lowest = match bus.code(self.pc) {
                Some(0xd0) => 1,    // BNE: loops while the read is not zero
                Some(0x30) => 0x80, // BMI: while bit 7 is set
                _ => 0,
            };
            if lowest != 0 && bus.code(self.pc.wrapping_add(1)) == Some(0xfb) {
                // The load (4), the branch (2) and its taken cycle, and one more where
                // the jump back crosses a page.
                let back = self.pc.wrapping_sub(3);
                let cycles = 7 + u32::from(crosses_page(self.pc.wrapping_add(2), back));
                skipped = bus.skip_timer_wait(addr, lowest, cycles, (budget - 1) / 2);
            }
        }
        let v = bus.peek(addr);
        load(self, v);
        1 + 2 * skipped
    }

    // Read operations.
    #[inline(always)]
    fn lda(&mut self, v: u8) {
        self.a = v;
        self.set_nz(v);
    }

    #[inline(always)]
    fn ldx(&mut self, v: u8) {
        self.x = v;
        self.set_nz(v);
    }

    #[inline(always)]
    fn ldy(&mut self, v: u8) {
        self.y = v;
        self.set_nz(v);
    }

    #[inline(always)]
    fn lax(&mut self, v: u8) {
        self.a = v;
        self.x = v;
        self.set_nz(v);
    }

    #[inline(always)]
    fn ora(&mut self, v: u8) {
        self.a |= v;
        self.set_nz(self.a);
    }

    #[inline(always)]
    fn and(&mut self, v: u8) {
        self.a &= v;
        self.set_nz(self.a);
    }

    #[inline(always)]
    fn eor(&mut self, v: u8) {
        self.a ^= v;
        self.set_nz(self.a);
    }

    #[inline(always)]
    fn cmp(&mut self, v: u8) {
        self.compare(self.a, v);
    }

    #[inline(always)]
    fn cpx(&mut self, v: u8) {
        self.compare(self.x, v);
    }

    #[inline(always)]
    fn cpy(&mut self, v: u8) {
        self.compare(self.y, v);
    }

    #[inline(always)]
    fn bit(&mut self, v: u8) {
        self.nz = (self.a & v) as u16 | ((v as u16 & 0x80) << 1);
        self.v = v & 0x40 != 0;
    }

    #[inline(always)]
    fn nop_read(&mut self, _v: u8) {}

    #[inline(always)]
    fn anc(&mut self, v: u8) {
        self.a &= v;
        self.set_nz(self.a);
        self.c = self.n();
    }

    #[inline(always)]
    fn asr(&mut self, v: u8) {
        self.a &= v;
        self.c = self.a & 0x01 != 0;
        self.a >>= 1;
        self.set_nz(self.a);
    }

    #[inline(always)]
    fn ane(&mut self, v: u8) {
        self.a = (self.a | 0xee) & self.x & v;
        self.set_nz(self.a);
    }

    #[inline(always)]
    fn lxa(&mut self, v: u8) {
        self.a = (self.a | 0xee) & v;
        self.x = self.a;
        self.set_nz(self.a);
    }

    #[inline(always)]
    fn sbx(&mut self, v: u8) {
        let value = ((self.x & self.a) as u16).wrapping_sub(v as u16);
        self.x = value as u8;
        self.set_nz(self.x);
        self.c = value & 0x100 == 0;
    }

    #[inline(always)]
    fn las(&mut self, v: u8) {
        let r = self.sp & v;
        self.a = r;
        self.x = r;
        self.sp = r;
        self.set_nz(r);
    }

    // Write operations: the byte stored at `addr`.
    #[inline(always)]
    fn sta(&mut self, _addr: u16) -> u8 {
        self.a
    }

    #[inline(always)]
    fn stx(&mut self, _addr: u16) -> u8 {
        self.x
    }

    #[inline(always)]
    fn sty(&mut self, _addr: u16) -> u8 {
        self.y
    }

    #[inline(always)]
    fn sax(&mut self, _addr: u16) -> u8 {
        self.a & self.x
    }

    // The unstable stores, masked by the target's high byte plus one.
    #[inline(always)]
    fn sha(&mut self, addr: u16) -> u8 {
        self.a & self.x & high_plus_one(addr)
    }

    #[inline(always)]
    fn shs(&mut self, addr: u16) -> u8 {
        self.sp = self.a & self.x;
        self.a & self.x & high_plus_one(addr)
    }

    #[inline(always)]
    fn shx(&mut self, addr: u16) -> u8 {
        self.x & high_plus_one(addr)
    }

    #[inline(always)]
    fn shy(&mut self, addr: u16) -> u8 {
        self.y & high_plus_one(addr)
    }

    // Read-modify-write operations: the byte written back.
    #[inline(always)]
    fn asl(&mut self, v: u8) -> u8 {
        self.c = v & 0x80 != 0;
        let r = v << 1;
        self.set_nz(r);
        r
    }

    #[inline(always)]
    fn rol(&mut self, v: u8) -> u8 {
        let r = (v << 1) | self.c as u8;
        self.c = v & 0x80 != 0;
        self.set_nz(r);
        r
    }

    #[inline(always)]
    fn lsr(&mut self, v: u8) -> u8 {
        self.c = v & 0x01 != 0;
        let r = v >> 1;
        self.set_nz(r);
        r
    }

    #[inline(always)]
    fn ror(&mut self, v: u8) -> u8 {
        let r = (v >> 1) | ((self.c as u8) << 7);
        self.c = v & 0x01 != 0;
        self.set_nz(r);
        r
    }

    #[inline(always)]
    fn dec(&mut self, v: u8) -> u8 {
        let r = v.wrapping_sub(1);
        self.set_nz(r);
        r
    }

    #[inline(always)]
    fn inc(&mut self, v: u8) -> u8 {
        let r = v.wrapping_add(1);
        self.set_nz(r);
        r
    }

    #[inline(always)]
    fn slo(&mut self, v: u8) -> u8 {
        self.c = v & 0x80 != 0;
        let r = v << 1;
        self.a |= r;
        self.set_nz(self.a);
        r
    }

    #[inline(always)]
    fn rla(&mut self, v: u8) -> u8 {
        let r = (v << 1) | self.c as u8;
        self.a &= r;
        self.c = v & 0x80 != 0;
        self.set_nz(self.a);
        r
    }

    #[inline(always)]
    fn sre(&mut self, v: u8) -> u8 {
        self.c = v & 0x01 != 0;
        let r = v >> 1;
        self.a ^= r;
        self.set_nz(self.a);
        r
    }

    #[inline(always)]
    fn rra(&mut self, v: u8) -> u8 {
        let r = (v >> 1) | ((self.c as u8) << 7);
        self.c = v & 0x01 != 0;
        self.adc(r);
        r
    }

    #[inline(always)]
    fn dcp(&mut self, v: u8) -> u8 {
        let r = v.wrapping_sub(1);
        self.compare(self.a, r);
        r
    }

    #[inline(always)]
    fn isb(&mut self, v: u8) -> u8 {
        let r = v.wrapping_add(1);
        self.sbc(r);
        r
    }

    #[inline(always)]
    fn arr(&mut self, operand: u8) {
        let old_c = self.c as u8;
        if !self.d {
            let value = self.a & operand;
            self.a = (value >> 1) | (old_c << 7);
            self.c = self.a & 0x40 != 0;
            self.v = ((self.a & 0x40) ^ ((self.a & 0x20) << 1)) != 0;
            self.set_nz(self.a);
        } else {
            let value = self.a & operand;
            self.a = (value >> 1) | (old_c << 7);
            self.set_n_z(old_c != 0, self.a == 0);
            self.v = (value ^ self.a) & 0x40 != 0;
            if (value & 0x0f) + (value & 0x01) > 0x05 {
                self.a = (self.a & 0xf0) | (self.a.wrapping_add(0x06) & 0x0f);
            }
            if (value as u16 & 0xf0) + (value as u16 & 0x10) > 0x50 {
                self.a = self.a.wrapping_add(0x60);
                self.c = true;
            } else {
                self.c = false;
            }
        }
    }
}

#[inline]
fn high_plus_one(addr: u16) -> u8 {
    (((addr >> 8) & 0xff) + 1) as u8
}

#[derive(Clone, Copy, Debug)]
enum Mode {
    Imm,
    Zero,
    ZeroX,
    ZeroY,
    Abs,
    AbsX,
    AbsY,
    IndX,
    IndY,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 64K of flat memory that counts cycles.
    struct Flat {
        mem: Vec<u8>,
        cycles: u32,
        writes: Vec<(u16, u8)>,
    }

    impl Bus for Flat {
        fn peek(&mut self, addr: u16) -> u8 {
            self.mem[addr as usize]
        }
        fn poke(&mut self, addr: u16, value: u8) {
            self.mem[addr as usize] = value;
            self.writes.push((addr, value));
        }
        fn add_cycles(&mut self, cycles: u32) {
            self.cycles += cycles;
        }
        fn stop_requested(&self) -> bool {
            false
        }
    }

    /// Runs `program` at 0x0200 for `steps` instructions; returns the CPU and memory.
    fn run(program: &[u8], steps: usize, setup: impl FnOnce(&mut Cpu, &mut Flat)) -> (Cpu, Flat) {
        let mut bus = Flat {
            mem: vec![0; 0x10000],
            cycles: 0,
            writes: Vec::new(),
        };
        bus.mem[0x200..0x200 + program.len()].copy_from_slice(program);
        bus.mem[0xfffc] = 0x00;
        bus.mem[0xfffd] = 0x02;
        let mut cpu = Cpu::default();
        cpu.reset(&mut bus);
        setup(&mut cpu, &mut bus);
        bus.cycles = 0;
        bus.writes.clear();
        for _ in 0..steps {
            cpu.step(&mut bus);
        }
        (cpu, bus)
    }

    #[test]
    fn reset_loads_the_vector_and_status() {
        let (cpu, _) = run(&[], 0, |_, _| {});
        assert_eq!(cpu.pc, 0x0200);
        assert_eq!(cpu.sp, 0xff);
        assert_eq!(cpu.status(), 0x30);
    }

    #[test]
    fn binary_add_and_subtract_set_carry_and_overflow() {
        // CLC; LDA #$50; ADC #$50 -> A=$A0, V=1, C=0, N=1
        let (cpu, _) = run(&[0x18, 0xa9, 0x50, 0x69, 0x50], 3, |_, _| {});
        assert_eq!(cpu.a, 0xa0);
        assert!(cpu.v && !cpu.c && cpu.n() && !cpu.z());
        // SEC; LDA #$50; SBC #$F0 -> A=$60, C=0, V=0
        let (cpu, _) = run(&[0x38, 0xa9, 0x50, 0xe9, 0xf0], 3, |_, _| {});
        assert_eq!(cpu.a, 0x60);
        assert!(!cpu.c && !cpu.v);
        // SEC; LDA #$D0; SBC #$70 -> A=$60, C=1, V=1
        let (cpu, _) = run(&[0x38, 0xa9, 0xd0, 0xe9, 0x70], 3, |_, _| {});
        assert_eq!(cpu.a, 0x60);
        assert!(cpu.c && cpu.v);
    }

    #[test]
    fn decimal_mode_adds_and_subtracts_bcd() {
        // SED; CLC; LDA #$58; ADC #$46 -> $04 carry set
        let (cpu, _) = run(&[0xf8, 0x18, 0xa9, 0x58, 0x69, 0x46], 4, |_, _| {});
        assert_eq!(cpu.a, 0x04);
        assert!(cpu.c);
        // SED; SEC; LDA #$12; SBC #$21 -> $91 borrow
        let (cpu, _) = run(&[0xf8, 0x38, 0xa9, 0x12, 0xe9, 0x21], 4, |_, _| {});
        assert_eq!(cpu.a, 0x91);
        assert!(!cpu.c);
        // SED; SEC; LDA #$46; SBC #$12 -> $34 no borrow
        let (cpu, _) = run(&[0xf8, 0x38, 0xa9, 0x46, 0xe9, 0x12], 4, |_, _| {});
        assert_eq!(cpu.a, 0x34);
        assert!(cpu.c);
    }

    #[test]
    fn cycles_count_page_crossings_and_taken_branches() {
        // LDA $02F0,X with X=$20 crosses a page: 4 + 1.
        let (_, bus) = run(&[0xbd, 0xf0, 0x02], 1, |cpu, _| cpu.x = 0x20);
        assert_eq!(bus.cycles, 5);
        // STA $02F0,X never adds the cycle: 5.
        let (_, bus) = run(&[0x9d, 0xf0, 0x02], 1, |cpu, _| cpu.x = 0x20);
        assert_eq!(bus.cycles, 5);
        // BNE taken on the same page: 2 + 1; not taken: 2.
        let (cpu, bus) = run(&[0xd0, 0x10], 1, |cpu, _| cpu.set_n_z(false, false));
        assert_eq!((bus.cycles, cpu.pc), (3, 0x0212));
        let (cpu, bus) = run(&[0xd0, 0x10], 1, |cpu, _| cpu.set_n_z(false, true));
        assert_eq!((bus.cycles, cpu.pc), (2, 0x0202));
        // BNE back across a page: 2 + 2.
        let (cpu, bus) = run(&[0xd0, 0x80], 1, |cpu, _| cpu.set_n_z(false, false));
        assert_eq!((bus.cycles, cpu.pc), (4, 0x0182));
    }

    #[test]
    fn subroutines_and_the_stack() {
        // JSR $0210 ... at $0210: LDA #$07; RTS
        let mut program = vec![0x20, 0x10, 0x02];
        program.resize(0x10, 0xea);
        program.extend_from_slice(&[0xa9, 0x07, 0x60]);
        let (cpu, bus) = run(&program, 3, |_, _| {});
        assert_eq!(cpu.a, 0x07);
        assert_eq!(cpu.pc, 0x0203);
        assert_eq!(cpu.sp, 0xff);
        assert_eq!(bus.cycles, 6 + 2 + 6);
        // PHP pushes B and bit 5 set; PLA reads it back.
        let (cpu, _) = run(&[0x38, 0x08, 0x68], 3, |_, _| {});
        assert_eq!(cpu.a, 0x31);
    }

    #[test]
    fn indirect_jump_and_pointer_quirks() {
        // JMP ($02FF) takes its high byte from $0200, not $0300.
        let (cpu, _) = run(&[0x6c, 0xff, 0x02], 1, |_, bus| {
            bus.mem[0x02ff] = 0x34;
            bus.mem[0x0300] = 0x99;
        });
        assert_eq!(cpu.pc, 0x6c34);
        // LDA ($FF,X) with X=0 reads the pointer's high byte from $0100.
        let (cpu, _) = run(&[0xa1, 0xff], 1, |_, bus| {
            bus.mem[0x00ff] = 0x00;
            bus.mem[0x0100] = 0x04;
            bus.mem[0x0400] = 0x5a;
        });
        assert_eq!(cpu.a, 0x5a);
        // LDA $F0,X wraps in the zero page.
        let (cpu, _) = run(&[0xb5, 0xf0], 1, |cpu, bus| {
            cpu.x = 0x20;
            bus.mem[0x0010] = 0x77;
        });
        assert_eq!(cpu.a, 0x77);
    }

    #[test]
    fn undocumented_opcodes() {
        // LAX $80
        let (cpu, _) = run(&[0xa7, 0x80], 1, |_, bus| bus.mem[0x80] = 0x81);
        assert_eq!((cpu.a, cpu.x, cpu.n()), (0x81, 0x81, true));
        // SAX $80 stores A & X.
        let (_, bus) = run(&[0x87, 0x80], 1, |cpu, _| {
            cpu.a = 0xf0;
            cpu.x = 0x3c;
        });
        assert_eq!(bus.writes, vec![(0x80, 0x30)]);
        // DCP $80: decrement then compare (one write).
        let (cpu, bus) = run(&[0xc7, 0x80], 1, |cpu, bus| {
            cpu.a = 0x41;
            bus.mem[0x80] = 0x42;
        });
        assert_eq!(bus.writes, vec![(0x80, 0x41)]);
        assert!(cpu.z() && cpu.c);
        // ISB $80: increment then subtract.
        let (cpu, _) = run(&[0x38, 0xe7, 0x80], 2, |cpu, bus| {
            cpu.a = 0x10;
            bus.mem[0x80] = 0x04;
        });
        assert_eq!(cpu.a, 0x0b);
        // SLO $80: shift left then OR.
        let (cpu, _) = run(&[0x07, 0x80], 1, |cpu, bus| {
            cpu.a = 0x01;
            bus.mem[0x80] = 0x81;
        });
        assert_eq!((cpu.a, cpu.c), (0x03, true));
        // SBX #$02: X = (A & X) - 2.
        let (cpu, _) = run(&[0xcb, 0x02], 1, |cpu, _| {
            cpu.a = 0x0f;
            cpu.x = 0x07;
        });
        assert_eq!((cpu.x, cpu.c), (0x05, true));
    }

    #[test]
    fn only_the_twelve_jam_opcodes_jam() {
        let jams: Vec<u8> = (0..=255u8)
            .filter(|&op| {
                let (cpu, _) = run(&[op, 0x00, 0x02], 1, |_, _| {});
                cpu.jammed()
            })
            .collect();
        assert_eq!(
            jams,
            vec![0x02, 0x12, 0x22, 0x32, 0x42, 0x52, 0x62, 0x72, 0x92, 0xb2, 0xd2, 0xf2]
        );
    }
}
