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

    /// Whether a read of `addr` reads the timer (INTIM): the RIOT's page (bit 12 clear,
    /// bits 9 and 7 set) and its register 0x04 or 0x06 of the eight.
    #[inline(always)]
    pub fn reads_timer(addr: u16) -> bool {
        addr & 0x1280 == 0x0280 && addr & 0x05 == 0x04
    }

    /// How many timer reads, the first at system clock `cycles` and the next every
    /// `period` cycles, read at least `lowest` (at least 1) before the count reaches
    /// zero: reads that change nothing. At most `max`.
    pub fn timer_reads_at_least(&self, cycles: u32, lowest: u8, period: u32, max: u32) -> u32 {
        // `read_timer` gives `timer - (delta >> shift) - 1` while that is not negative,
        // so a read is at least `lowest` while `delta < (timer - lowest) << shift`.
        let lowest = u32::from(lowest.max(1));
        if self.timer <= lowest || period == 0 {
            return 0;
        }
        let limit = (self.timer - lowest) << self.interval_shift;
        let delta = cycles
            .wrapping_sub(1)
            .wrapping_sub(self.cycles_when_timer_set);
        if delta >= limit {
            return 0;
        }
        (limit - delta).div_ceil(period).min(max)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atari::mt19937::Mt19937;

    /// The count of skippable reads is exactly the run of reads, `period` apart, that
    /// read at least `lowest` with no side effect on the RIOT, in every interval.
    #[test]
    fn timer_reads_at_least_counts_the_reads_that_change_nothing() {
        let mut rng = Mt19937::new(7);
        for case in 0..4000u32 {
            let mut riot = Riot::new(&mut rng);
            let register = 0x14 + (case % 4) as u16;
            let set_at = rng.next_u32() % 100_000;
            riot.poke(register, (rng.next_u32() % 256) as u8, set_at);
            let start = set_at + 1 + rng.next_u32() % 3000;
            let period = 7 + case % 2;
            let lowest = if case % 3 == 0 { 0x80 } else { 1 };
            let max = 1 + rng.next_u32() % 400;
            let skippable = riot.timer_reads_at_least(start, lowest, period, max);
            let mut probe = riot.clone();
            let mut by_reading = 0;
            while by_reading < max {
                let before = format!("{probe:?}");
                let v = probe.read_timer(start + by_reading * period);
                if v < lowest || format!("{probe:?}") != before {
                    break;
                }
                by_reading += 1;
            }
            // The count may stop short only where the timer has passed zero (reads
            // from the underflow on are not skipped).
            assert!(
                skippable <= by_reading,
                "case {case}: {skippable} > {by_reading}"
            );
            let next = riot.clone().read_timer(start + skippable * period);
            let timer_left = riot.timer as i64
                - i64::from((start + skippable * period - 1 - set_at) >> riot.interval_shift)
                - 1;
            assert!(
                skippable == max || next < lowest || timer_left < i64::from(lowest),
                "case {case}: stopped at {skippable} with {next:#x} still to read"
            );
        }
    }
}
