//! PCG64 (XSL-RR 128/64) as numpy seeds and buffers it.

use super::seed_sequence::SeedSequence;

const MULTIPLIER: u128 = 0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pcg64 {
    state: u128,
    inc: u128,
    /// numpy hands out 32-bit draws in halves of one 64-bit output; the high half waits here.
    pending_u32: Option<u32>,
}

impl Pcg64 {
    pub fn from_seed_sequence(seq: &SeedSequence) -> Self {
        let s = seq.generate_u64(4);
        let initstate = (u128::from(s[0]) << 64) | u128::from(s[1]);
        let initseq = (u128::from(s[2]) << 64) | u128::from(s[3]);
        let mut rng = Self {
            state: 0,
            inc: (initseq << 1) | 1,
            pending_u32: None,
        };
        rng.advance();
        rng.state = rng.state.wrapping_add(initstate);
        rng.advance();
        rng
    }

    fn advance(&mut self) {
        self.state = self.state.wrapping_mul(MULTIPLIER).wrapping_add(self.inc);
    }

    pub fn next_u64(&mut self) -> u64 {
        self.advance();
        let rot = (self.state >> 122) as u32;
        let x = ((self.state >> 64) as u64) ^ (self.state as u64);
        x.rotate_right(rot)
    }

    pub fn next_u32(&mut self) -> u32 {
        if let Some(high) = self.pending_u32.take() {
            return high;
        }
        let v = self.next_u64();
        self.pending_u32 = Some((v >> 32) as u32);
        v as u32
    }

    pub fn state(&self) -> (u128, u128) {
        (self.state, self.inc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seeded(seed: u128) -> Pcg64 {
        Pcg64::from_seed_sequence(&SeedSequence::new(seed))
    }

    #[test]
    fn seed_zero_state_and_outputs() {
        let mut rng = seeded(0);
        assert_eq!(
            rng.state(),
            (
                0x1aa1b5345996452d09585eb7a69561e3,
                0x418ddadb3af71a82588133bc447873a9
            )
        );
        assert_eq!(rng.next_u64(), 0xa30febcfd9c2825f);
        assert_eq!(rng.next_u64(), 0x4510bdf882d9d721);
        assert_eq!(rng.next_u64(), 0x0a7d3da94ecde8b8);
    }

    #[test]
    fn seed_42_outputs() {
        let mut rng = seeded(42);
        assert_eq!(rng.next_u64(), 0xc621fbcd16d92688);
        assert_eq!(rng.next_u64(), 0x705a5661a791ffc1);
        assert_eq!(rng.next_u64(), 0xdbcd12c26eda1624);
    }

    #[test]
    fn u32_draws_are_halves_low_first() {
        let mut a = seeded(3);
        let mut b = seeded(3);
        let v = b.next_u64();
        assert_eq!(a.next_u32(), v as u32);
        assert_eq!(a.next_u32(), (v >> 32) as u32);
    }
}
