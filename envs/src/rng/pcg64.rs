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
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.state = self.state.wrapping_mul(MULTIPLIER).wrapping_add(self.inc);
        }
        #[cfg(target_arch = "wasm32")]
        {
            self.state = lcg_step(self.state, self.inc);
        }
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

/// `state * MULTIPLIER + inc` (mod 2^128) in 64-bit halves and 32-bit products: wasm
/// has no 128-bit multiply, and the compiler's general routine for one costs a call and
/// more products. The same integers as the `u128` form (tested).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn lcg_step(state: u128, inc: u128) -> u128 {
    let (sh, sl) = ((state >> 64) as u64, state as u64);
    let (mh, ml) = ((MULTIPLIER >> 64) as u64, MULTIPLIER as u64);
    let (ph, pl) = mul_wide(sl, ml);
    let hi = ph
        .wrapping_add(sl.wrapping_mul(mh))
        .wrapping_add(sh.wrapping_mul(ml));
    let (lo, carry) = pl.overflowing_add(inc as u64);
    let hi = hi
        .wrapping_add((inc >> 64) as u64)
        .wrapping_add(u64::from(carry));
    (u128::from(hi) << 64) | u128::from(lo)
}

/// The 128-bit product of two `u64`, as (high, low) halves, from four 32-bit products.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn mul_wide(a: u64, b: u64) -> (u64, u64) {
    const LOW: u64 = 0xffff_ffff;
    let (a1, a0, b1, b0) = (a >> 32, a & LOW, b >> 32, b & LOW);
    let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
    let mid = (p00 >> 32) + (p01 & LOW) + (p10 & LOW);
    let lo = (mid << 32) | (p00 & LOW);
    let hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    (hi, lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_step_is_the_u128_step() {
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let edges = [0, 1, u64::MAX, u64::MAX - 1, 1 << 63, 0xffff_ffff];
        for k in 0..100_000 {
            let (a, b, c, d) = if k < 36 {
                (edges[k % 6], edges[k / 6], edges[(k + 1) % 6], edges[k / 6])
            } else {
                (next(), next(), next(), next())
            };
            let state = (u128::from(a) << 64) | u128::from(b);
            let inc = (u128::from(c) << 64) | u128::from(d) | 1;
            assert_eq!(
                lcg_step(state, inc),
                state.wrapping_mul(MULTIPLIER).wrapping_add(inc),
                "{state:x} {inc:x}"
            );
            assert_eq!(mul_wide(a, b), {
                let p = u128::from(a) * u128::from(b);
                ((p >> 64) as u64, p as u64)
            });
        }
    }

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
