//! The 6532 RIOT: the interval timer and the two I/O ports (joysticks on port A, console
//! switches on port B). Its 128 bytes of RAM live in the console's memory array
//! (`machine.rs`), which the CPU reads directly.
//!
//! The timer is computed lazily from the system clock, with 32-bit wrapping arithmetic,
//! exactly as ALE's Stella does, including its behaviour after the timer underflows
//! (the first read past zero latches the underflow point and the count continues at one
//! per cycle from there).

#[derive(Clone, Debug)]
pub struct Riot {
    timer: u32,
    interval_shift: u32,
    cycles_when_timer_set: u32,
    cycles_when_interrupt_reset: u32,
    timer_read_after_interrupt: bool,
    ddra: u8,
    ddrb: u8,
}

impl Riot {
    /// Power-on (after the RAM took its random contents from the same generator): a
    /// reset.
    pub fn new(rng: &mut super::mt19937::Mt19937) -> Self {
        let mut riot = Riot {
            timer: 0,
            interval_shift: 6,
            cycles_when_timer_set: 0,
            cycles_when_interrupt_reset: 0,
            timer_read_after_interrupt: false,
            ddra: 0,
            ddrb: 0,
        };
        riot.reset(rng);
        riot
    }

    /// Console reset: RAM is kept; the timer restarts at a random count.
    pub fn reset(&mut self, rng: &mut super::mt19937::Mt19937) {
        self.timer = 25 + (rng.next_u32() % 75);
        self.interval_shift = 6;
        self.cycles_when_timer_set = 0;
        self.cycles_when_interrupt_reset = 0;
        self.timer_read_after_interrupt = false;
        self.ddra = 0;
        self.ddrb = 0;
    }

    /// The system clock is about to restart from zero (once per frame).
    pub fn system_cycles_reset(&mut self, cycles: u32) {
        self.cycles_when_timer_set = self.cycles_when_timer_set.wrapping_sub(cycles);
        self.cycles_when_interrupt_reset = self.cycles_when_interrupt_reset.wrapping_sub(cycles);
    }

    /// Reads a RIOT register (not RAM). `port_a` and `port_b` are the current input pins.
    pub fn peek(&mut self, addr: u16, cycles: u32, port_a: u8, port_b: u8) -> u8 {
        match addr & 0x07 {
            0x00 => port_a,
            0x01 => self.ddra,
            0x02 => port_b,
            0x03 => self.ddrb,
            0x04 | 0x06 => self.read_timer(cycles),
            _ => {
                let now = cycles.wrapping_sub(1);
                let delta = now.wrapping_sub(self.cycles_when_timer_set);
                let timer = self.timer as i32 - (delta >> self.interval_shift) as i32 - 1;
                if timer >= 0 || self.timer_read_after_interrupt {
                    0x00
                } else {
                    0x80
                }
            }
        }
    }

    fn read_timer(&mut self, cycles: u32) -> u8 {
        let now = cycles.wrapping_sub(1);
        let delta = now.wrapping_sub(self.cycles_when_timer_set);
        let timer = self.timer as i32 - (delta >> self.interval_shift) as i32 - 1;
        if timer >= 0 {
            return timer as u8;
        }
        let past = (self.timer << self.interval_shift) as i32 - delta as i32 - 1;
        if past <= -2 && !self.timer_read_after_interrupt {
            self.timer_read_after_interrupt = true;
            self.cycles_when_interrupt_reset = cycles;
        }
        if self.timer_read_after_interrupt {
            let offset = self.cycles_when_interrupt_reset.wrapping_sub(
                self.cycles_when_timer_set
                    .wrapping_add(self.timer << self.interval_shift),
            ) as i32;
            let t = self.timer as i32 - (delta >> self.interval_shift) as i32 - offset;
            t as u8
        } else {
            past as u8
        }
    }

    /// Writes a RIOT register (not RAM). Port A output goes nowhere (joysticks and paddles
    /// ignore it), the switches port is read-only.
    pub fn poke(&mut self, addr: u16, value: u8, cycles: u32) {
        let shift = match addr & 0x17 {
            0x14 => Some(0),
            0x15 => Some(3),
            0x16 => Some(6),
            0x17 => Some(10),
            _ => None,
        };
        if addr & 0x07 == 0x01 {
            self.ddra = value;
        } else if addr & 0x07 == 0x00 || addr & 0x07 == 0x02 || addr & 0x07 == 0x03 {
            // Port A data (no effect on the controllers ALE uses), port B is read-only.
        } else if let Some(shift) = shift {
            self.timer = value as u32;
            self.interval_shift = shift;
            self.cycles_when_timer_set = cycles;
            self.timer_read_after_interrupt = false;
        }
    }
}
