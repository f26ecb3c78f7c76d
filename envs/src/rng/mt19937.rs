//! The Mersenne Twister MT19937 shared by numpy's legacy `RandomState` and CPython's
//! `random.Random`: the two differ only in how they seed it and what they draw from it.

/// Number of 32-bit words in the state.
pub const STATE_WORDS: usize = 624;
const SHIFT: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// MT19937 state: 624 words and the position of the next word to temper.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mt19937 {
    key: [u32; STATE_WORDS],
    pos: usize,
}

impl Mt19937 {
    /// Seeding from one 32-bit word (`init_genrand`, Knuth's linear recurrence).
    pub fn from_word(seed: u32) -> Self {
        let mut key = [0u32; STATE_WORDS];
        key[0] = seed;
        for i in 1..STATE_WORDS {
            let prev = key[i - 1];
            key[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        Self {
            key,
            pos: STATE_WORDS,
        }
    }

    /// Seeding from an array of words (`init_by_array`); an empty key acts as `[0]`.
    pub fn from_key(init_key: &[u32]) -> Self {
        let init_key: &[u32] = if init_key.is_empty() { &[0] } else { init_key };
        let mut mt = Self::from_word(19_650_218);
        let key = &mut mt.key;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..STATE_WORDS.max(init_key.len()) {
            let prev = key[i - 1];
            key[i] = (key[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(init_key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= STATE_WORDS {
                key[0] = key[STATE_WORDS - 1];
                i = 1;
            }
            if j >= init_key.len() {
                j = 0;
            }
        }
        for _ in 0..STATE_WORDS - 1 {
            let prev = key[i - 1];
            key[i] =
                (key[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= STATE_WORDS {
                key[0] = key[STATE_WORDS - 1];
                i = 1;
            }
        }
        // The most significant bit is set so that the state is never all zero.
        key[0] = 0x8000_0000;
        mt
    }

    /// A state as numpy's `get_state()` or CPython's `getstate()` report it; `None` if
    /// `pos` is past the end.
    pub fn from_parts(key: [u32; STATE_WORDS], pos: usize) -> Option<Self> {
        (pos <= STATE_WORDS).then_some(Self { key, pos })
    }

    /// The 624 state words.
    pub fn key(&self) -> &[u32; STATE_WORDS] {
        &self.key
    }

    /// Index of the next word to temper (624 right after seeding).
    pub fn pos(&self) -> usize {
        self.pos
    }

    fn regenerate(&mut self) {
        let key = &mut self.key;
        for i in 0..STATE_WORDS {
            let y = (key[i] & UPPER_MASK) | (key[(i + 1) % STATE_WORDS] & LOWER_MASK);
            let mag = if y & 1 == 1 { MATRIX_A } else { 0 };
            key[i] = key[(i + SHIFT) % STATE_WORDS] ^ (y >> 1) ^ mag;
        }
        self.pos = 0;
    }

    /// The next tempered 32-bit output.
    pub fn next_u32(&mut self) -> u32 {
        if self.pos >= STATE_WORDS {
            self.regenerate();
        }
        let mut y = self.key[self.pos];
        self.pos += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// A double in [0, 1) from 27 + 26 bits of two outputs (both libraries' `random()`).
    pub fn next_f64(&mut self) -> f64 {
        let a = self.next_u32() >> 5;
        let b = self.next_u32() >> 6;
        (f64::from(a) * 67_108_864.0 + f64::from(b)) / 9_007_199_254_740_992.0
    }
}
