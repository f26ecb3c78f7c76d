//! `numpy.random.Generator` over PCG64: the methods the reference environments call,
//! bit for bit (`docs/environments.md`, "numpy's generator").

use super::pcg64::Pcg64;
use super::seed_sequence::SeedSequence;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NpRandom {
    bits: Pcg64,
}

/// `low >= high` in [`NpRandom::integers`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmptyRange {
    pub low: i64,
    pub high: i64,
}

impl std::fmt::Display for EmptyRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "integers({}, {}): low >= high", self.low, self.high)
    }
}

impl std::error::Error for EmptyRange {}

impl NpRandom {
    /// `numpy.random.default_rng(seed)`.
    pub fn seeded(seed: u128) -> Self {
        Self {
            bits: Pcg64::from_seed_sequence(&SeedSequence::new(seed)),
        }
    }

    pub fn bit_generator(&self) -> &Pcg64 {
        &self.bits
    }

    pub fn next_u64(&mut self) -> u64 {
        self.bits.next_u64()
    }

    pub fn next_u32(&mut self) -> u32 {
        self.bits.next_u32()
    }

    /// `random()`: 53 high bits of one 64-bit draw.
    pub fn random(&mut self) -> f64 {
        (self.bits.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `uniform(low, high)`: the range is formed first, and no fused multiply-add.
    pub fn uniform(&mut self, low: f64, high: f64) -> f64 {
        let range = high - low;
        low + range * self.random()
    }

    /// `integers(low, high)` with int64 dtype, `high` exclusive.
    pub fn integers(&mut self, low: i64, high: i64) -> Result<i64, EmptyRange> {
        if low >= high {
            return Err(EmptyRange { low, high });
        }
        let rng = (high as u64).wrapping_sub(1).wrapping_sub(low as u64);
        Ok((low as u64).wrapping_add(self.bounded(rng)) as i64)
    }

    /// `integers(0, n)` for a non-empty index range.
    pub fn index(&mut self, n: usize) -> Result<usize, EmptyRange> {
        Ok(self.integers(0, n as i64)? as usize)
    }

    /// A draw in `0..=rng` (numpy's `random_bounded_uint64` with masked = false).
    fn bounded(&mut self, rng: u64) -> u64 {
        if rng == 0 {
            0
        } else if rng < u64::from(u32::MAX) {
            u64::from(self.lemire32(rng as u32))
        } else if rng == u64::from(u32::MAX) {
            u64::from(self.bits.next_u32())
        } else if rng < u64::MAX {
            self.lemire64(rng)
        } else {
            self.bits.next_u64()
        }
    }

    fn lemire32(&mut self, rng: u32) -> u32 {
        let rng_excl = u64::from(rng) + 1;
        let mut m = u64::from(self.bits.next_u32()) * rng_excl;
        let mut leftover = m & 0xffff_ffff;
        if leftover < rng_excl {
            let threshold = (u64::from(u32::MAX) - u64::from(rng)) % rng_excl;
            while leftover < threshold {
                m = u64::from(self.bits.next_u32()) * rng_excl;
                leftover = m & 0xffff_ffff;
            }
        }
        (m >> 32) as u32
    }

    fn lemire64(&mut self, rng: u64) -> u64 {
        let rng_excl = u128::from(rng) + 1;
        let mut m = u128::from(self.bits.next_u64()) * rng_excl;
        let mut leftover = m & u128::from(u64::MAX);
        if leftover < rng_excl {
            let threshold = (u128::from(u64::MAX) - u128::from(rng)) % rng_excl;
            while leftover < threshold {
                m = u128::from(self.bits.next_u64()) * rng_excl;
                leftover = m & u128::from(u64::MAX);
            }
        }
        (m >> 64) as u64
    }

    /// `choice(seq)` without weights: `seq[integers(0, len)]`; `None` for an empty slice.
    pub fn choice<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        let i = self.index(items.len()).ok()?;
        items.get(i)
    }

    /// `shuffle(list)`: Fisher-Yates from the end with numpy's masked `interval` draws.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.interval(i as u64) as usize;
            items.swap(i, j);
        }
    }

    /// `choice(pop, k, replace=False)` as indices into the population (numpy 1.26 with
    /// `shuffle=True`): Floyd's algorithm (for j in `pop-k..pop`, a bounded draw in
    /// `0..=j`, or j itself when the draw was taken already), then those k shuffled with
    /// Lemire draws (not `shuffle`'s masked ones). `None` when `k > pop`, or for a
    /// population over 10,000 sampled densely, where numpy shuffles a tail instead (not
    /// reproduced).
    pub fn choice_without_replacement(&mut self, pop: usize, k: usize) -> Option<Vec<usize>> {
        if k > pop || (pop > 10_000 && k > pop / 50) {
            return None;
        }
        let mut out: Vec<usize> = Vec::with_capacity(k);
        for j in pop - k..pop {
            let val = self.bounded(j as u64) as usize;
            out.push(if out.contains(&val) { j } else { val });
        }
        for i in (1..k).rev() {
            let j = self.bounded(i as u64) as usize;
            out.swap(i, j);
        }
        Some(out)
    }

    /// A draw in `0..=max` by masking and rejection (numpy's `random_interval`).
    fn interval(&mut self, max: u64) -> u64 {
        if max == 0 {
            return 0;
        }
        let mask = u64::MAX >> max.leading_zeros();
        if max <= u64::from(u32::MAX) {
            loop {
                let v = u64::from(self.bits.next_u32()) & mask;
                if v <= max {
                    return v;
                }
            }
        }
        loop {
            let v = self.bits.next_u64() & mask;
            if v <= max {
                return v;
            }
        }
    }

    /// Gymnasium Toy Text `categorical_sample`: the first index whose running sum exceeds
    /// one `random()` draw, or 0 when none does.
    pub fn categorical_sample(&mut self, probs: &[f64]) -> usize {
        let u = self.random();
        let mut cumulative = 0.0;
        for (i, p) in probs.iter().enumerate() {
            cumulative += p;
            if cumulative > u {
                return i;
            }
        }
        0
    }

    /// [`Self::categorical_sample`] given the running sums (non-decreasing, as sums of
    /// probabilities are): one search instead of a sum per draw, the same index.
    pub fn categorical_sample_cumulative(&mut self, cumulative: &[f64]) -> usize {
        let u = self.random();
        match cumulative.partition_point(|&c| c <= u) {
            i if i == cumulative.len() => 0,
            i => i,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_seed_zero() {
        let mut rng = NpRandom::seeded(0);
        assert_eq!(rng.random(), 0.6369616873214543);
        assert_eq!(rng.random(), 0.2697867137638703);
        assert_eq!(rng.random(), 0.04097352393619469);
    }

    #[test]
    fn integers_test_vectors() {
        let mut rng = NpRandom::seeded(0);
        let draws: Vec<i64> = (0..6).map(|_| rng.integers(0, 5).unwrap()).collect();
        assert_eq!(draws, vec![4, 3, 2, 1, 1, 0]);
        let mut rng = NpRandom::seeded(42);
        let draws: Vec<i64> = (0..6).map(|_| rng.integers(0, 5).unwrap()).collect();
        assert_eq!(draws, vec![0, 3, 3, 2, 2, 4]);
    }

    #[test]
    fn pending_half_survives_random() {
        let mut rng = NpRandom::seeded(7);
        assert_eq!(rng.integers(0, 5).unwrap(), 4);
        assert_eq!(rng.random(), 0.8972138009695755);
        assert_eq!(rng.integers(0, 5).unwrap(), 3);
    }

    #[test]
    fn single_value_range_draws_nothing() {
        let mut a = NpRandom::seeded(1);
        let b = a.clone();
        assert_eq!(a.integers(3, 4).unwrap(), 3);
        assert_eq!(a, b);
        assert!(a.integers(4, 4).is_err());
    }

    #[test]
    fn shuffle_seed_zero() {
        let mut rng = NpRandom::seeded(0);
        let mut v: Vec<u32> = (0..10).collect();
        rng.shuffle(&mut v);
        assert_eq!(v, vec![4, 6, 2, 7, 3, 5, 9, 0, 8, 1]);
    }

    #[test]
    fn categorical_falls_back_to_zero() {
        let mut rng = NpRandom::seeded(0);
        // 0.6369... lands above a total of 0.5.
        assert_eq!(rng.categorical_sample(&[0.25, 0.25]), 0);
        let mut rng = NpRandom::seeded(0);
        assert_eq!(rng.categorical_sample(&[0.5, 0.5]), 1);
        // The running sums give the same draws, including past a sum below 1.
        let probs = [0.1, 0.0, 0.2, 0.3, 0.15, 0.05];
        let mut sum = 0.0;
        let cumulative = probs.map(|p| {
            sum += p;
            sum
        });
        let (mut a, mut b) = (NpRandom::seeded(7), NpRandom::seeded(7));
        for n in 0..2_000 {
            let probs = &probs[..1 + n % probs.len()];
            assert_eq!(
                a.categorical_sample(probs),
                b.categorical_sample_cumulative(&cumulative[..probs.len()])
            );
        }
    }

    #[test]
    fn choice_without_replacement_matches_numpy() {
        // `default_rng(seed).choice(np.arange(1, pop + 1), size=k, replace=False)`, then
        // `integers(0, 1000)` (numpy 1.26.4).
        let cases: &[(u128, usize, usize, &[usize], i64)] = &[
            (0, 5, 1, &[5], 636),
            (0, 5, 2, &[4, 5], 269),
            (0, 10, 3, &[6, 10, 7], 40),
            (0, 40, 3, &[25, 21, 33], 40),
            (0, 100, 1, &[86], 636),
            (0, 200, 2, &[170, 128], 269),
            (0, 359, 3, &[229, 184, 304], 40),
            (0, 2, 1, &[2], 636),
            (0, 3, 2, &[2, 3], 269),
            (1, 5, 1, &[3], 511),
            (1, 5, 2, &[2, 3], 950),
            (1, 10, 3, &[5, 4, 8], 144),
            (1, 40, 3, &[20, 18, 31], 144),
            (1, 100, 1, &[48], 511),
            (1, 200, 2, &[95, 103], 950),
            (1, 359, 3, &[184, 169, 272], 144),
            (1, 2, 1, &[1], 511),
            (1, 3, 2, &[1, 2], 950),
            (2, 5, 1, &[5], 261),
            (2, 5, 2, &[2, 4], 298),
            (2, 10, 3, &[3, 2, 7], 814),
            (2, 40, 3, &[11, 5, 32], 814),
            (2, 100, 1, &[84], 261),
            (2, 200, 2, &[53, 167], 298),
            (2, 359, 3, &[94, 40, 300], 814),
            (2, 2, 1, &[2], 261),
            (2, 3, 2, &[1, 2], 298),
            (3, 5, 1, &[5], 85),
            (3, 5, 2, &[1, 4], 236),
            (3, 10, 3, &[1, 2, 7], 801),
            (3, 40, 3, &[4, 8, 31], 801),
            (3, 100, 1, &[82], 85),
            (3, 200, 2, &[18, 162], 236),
            (3, 359, 3, &[31, 65, 290], 801),
            (3, 2, 1, &[2], 85),
            (3, 3, 2, &[1, 2], 236),
            (4, 5, 1, &[4], 943),
            (4, 5, 2, &[3, 5], 511),
            (4, 10, 3, &[6, 10, 9], 976),
            (4, 40, 3, &[28, 36, 37], 976),
            (4, 100, 1, &[73], 943),
            (4, 200, 2, &[145, 189], 511),
            (4, 359, 3, &[260, 317, 338], 976),
            (4, 2, 1, &[2], 943),
            (4, 3, 2, &[2, 3], 511),
            (5, 5, 1, &[4], 805),
            (5, 5, 2, &[5, 3], 807),
            (5, 10, 3, &[8, 6, 1], 515),
            (5, 40, 3, &[32, 26, 1], 515),
            (5, 100, 1, &[68], 805),
            (5, 200, 2, &[162, 134], 807),
            (5, 359, 3, &[289, 240, 9], 515),
            (5, 2, 1, &[2], 805),
            (5, 3, 2, &[3, 2], 807),
        ];
        for &(seed, pop, k, want, next) in cases {
            let mut g = NpRandom::seeded(seed);
            let got: Vec<usize> = g
                .choice_without_replacement(pop, k)
                .unwrap()
                .iter()
                .map(|i| i + 1)
                .collect();
            assert_eq!(got, want, "seed {seed} pop {pop} k {k}");
            assert_eq!(
                g.integers(0, 1000).unwrap(),
                next,
                "seed {seed} pop {pop} k {k}"
            );
        }
    }
}
