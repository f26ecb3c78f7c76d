//! numpy's `SeedSequence` (O'Neill's seed_seq variant), restricted to what
//! `default_rng(int)` uses: integer entropy, no spawn key, pool size 4.

const INIT_A: u32 = 0x43b0_d7e5;
const MULT_A: u32 = 0x931e_8875;
const INIT_B: u32 = 0x8b51_f9dd;
const MULT_B: u32 = 0x58f3_8ded;
const MIX_MULT_L: u32 = 0xca01_f9dd;
const MIX_MULT_R: u32 = 0x4973_f715;
const XSHIFT: u32 = 16;
const POOL_SIZE: usize = 4;

/// The mixed entropy pool of a seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedSequence {
    pool: [u32; POOL_SIZE],
}

/// The seed as 32-bit words, least significant first (`0` is `[0]`).
fn entropy_words(seed: u128) -> Vec<u32> {
    let mut words = Vec::new();
    let mut rest = seed;
    loop {
        words.push(rest as u32);
        rest >>= 32;
        if rest == 0 {
            return words;
        }
    }
}

fn mix(x: u32, y: u32) -> u32 {
    let r = MIX_MULT_L
        .wrapping_mul(x)
        .wrapping_sub(MIX_MULT_R.wrapping_mul(y));
    r ^ (r >> XSHIFT)
}

/// `hashmix` with its running constant, shared by every call of the mixing phase.
struct HashMix {
    hash_const: u32,
}

impl HashMix {
    fn hash(&mut self, value: u32) -> u32 {
        let mut v = value ^ self.hash_const;
        self.hash_const = self.hash_const.wrapping_mul(MULT_A);
        v = v.wrapping_mul(self.hash_const);
        v ^ (v >> XSHIFT)
    }
}

impl SeedSequence {
    pub fn new(seed: u128) -> Self {
        let words = entropy_words(seed);
        let mut hm = HashMix { hash_const: INIT_A };
        let mut pool = [0u32; POOL_SIZE];
        for (i, slot) in pool.iter_mut().enumerate() {
            *slot = hm.hash(words.get(i).copied().unwrap_or(0));
        }
        for src in 0..POOL_SIZE {
            for dst in 0..POOL_SIZE {
                if src != dst {
                    let h = hm.hash(pool[src]);
                    pool[dst] = mix(pool[dst], h);
                }
            }
        }
        for &word in words.iter().skip(POOL_SIZE) {
            for slot in pool.iter_mut() {
                let h = hm.hash(word);
                *slot = mix(*slot, h);
            }
        }
        Self { pool }
    }

    pub fn pool(&self) -> [u32; POOL_SIZE] {
        self.pool
    }

    /// `generate_state(n, uint32)`.
    pub fn generate_u32(&self, n: usize) -> Vec<u32> {
        let mut hash_const = INIT_B;
        (0..n)
            .map(|i| {
                let mut v = self.pool[i % POOL_SIZE] ^ hash_const;
                hash_const = hash_const.wrapping_mul(MULT_B);
                v = v.wrapping_mul(hash_const);
                v ^ (v >> XSHIFT)
            })
            .collect()
    }

    /// `generate_state(n, uint64)`: pairs of 32-bit words, low word first.
    pub fn generate_u64(&self, n: usize) -> Vec<u64> {
        self.generate_u32(2 * n)
            .chunks_exact(2)
            .map(|w| u64::from(w[0]) | (u64::from(w[1]) << 32))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_test_vectors() {
        assert_eq!(
            SeedSequence::new(0).pool(),
            [0xfe40eb07, 0x4f363a36, 0x4eb2009d, 0xc89a7aa7]
        );
        assert_eq!(
            SeedSequence::new(42).pool(),
            [0x631d3606, 0x07ae90ae, 0x6fc4be28, 0x2ced5c75]
        );
    }

    #[test]
    fn generate_state_test_vector() {
        assert_eq!(
            SeedSequence::new(0).generate_u64(4),
            vec![
                0xdb2cd7e7b0f478be,
                0xabf4641a2c71ba49,
                0x20c6ed6d9d7b8d41,
                0x2c4099de223c39d4
            ]
        );
    }

    #[test]
    fn entropy_words_split_low_first() {
        assert_eq!(entropy_words(0), vec![0]);
        assert_eq!(entropy_words(1 << 32), vec![0, 1]);
    }
}
