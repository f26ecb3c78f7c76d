//! CPython's `random.Random` (MT19937), bit for bit with CPython 3.11 (3.12 draws the same
//! for integer arguments): seeding from an integer of any size and the methods the
//! reference environments call (docs/rng.md lists them and their algorithms).

use super::glibc_log;
use super::glibc_trig;
use super::mt19937::{Mt19937, STATE_WORDS};

/// A CPython `random.Random`: MT19937 plus `gauss`'s cached second value.
#[derive(Clone, Debug, PartialEq)]
pub struct PyRandom {
    mt: Mt19937,
    gauss_next: Option<f64>,
}

/// Where CPython raises: the arguments it rejects.
#[derive(Clone, Debug, PartialEq)]
pub enum PyRandomError {
    /// `randrange`/`randint` over an empty range, or `_randbelow(0)`.
    EmptyRange { start: i64, stop: i64, step: i64 },
    /// `randrange(start, stop, 0)`.
    ZeroStep,
    /// `choice`/`choices` from an empty sequence.
    EmptySequence,
    /// `sample(population, k)` with `k` larger than the population.
    SampleTooLarge { population: usize, k: usize },
    /// `choices` with a different number of weights than items.
    WeightsLength { population: usize, weights: usize },
    /// `choices` whose weights do not sum to a positive finite total.
    InvalidWeightTotal,
    /// `getrandbits(k)` into a `u64` with `k > 64` (use [`PyRandom::getrandbits_words`]).
    TooManyBits(u32),
}

impl std::fmt::Display for PyRandomError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::EmptyRange { start, stop, step } => {
                write!(f, "empty range for randrange({start}, {stop}, {step})")
            }
            Self::ZeroStep => write!(f, "zero step for randrange()"),
            Self::EmptySequence => write!(f, "Cannot choose from an empty sequence"),
            Self::SampleTooLarge { population, k } => write!(
                f,
                "Sample larger than population or is negative (k = {k}, population {population})"
            ),
            Self::WeightsLength {
                population,
                weights,
            } => write!(
                f,
                "The number of weights ({weights}) does not match the population ({population})"
            ),
            Self::InvalidWeightTotal => {
                write!(f, "Total of weights must be greater than zero and finite")
            }
            Self::TooManyBits(k) => write!(f, "getrandbits({k}) does not fit in 64 bits"),
        }
    }
}

impl std::error::Error for PyRandomError {}

/// `random.NV_MAGICCONST` = `4 * exp(-0.5) / sqrt(2.0)` as CPython computes it.
const NV_MAGICCONST: f64 = f64::from_bits(0x3ffb_72cd_3f33_1398);
/// `random.TWOPI` = `2 * math.pi`.
const TWOPI: f64 = f64::from_bits(0x4019_21fb_5444_2d18);

impl PyRandom {
    /// `random.Random(seed)` for an integer seed; a negative seed acts as its absolute value.
    pub fn new(seed: impl Into<i128>) -> Self {
        let magnitude = seed.into().unsigned_abs();
        let words: Vec<u32> = (0..4).map(|i| (magnitude >> (32 * i)) as u32).collect();
        Self::from_magnitude_words(&words)
    }

    /// `random.Random(seed)` for a seed of any size, given as the little-endian 32-bit
    /// words of its absolute value (high zero words are ignored).
    pub fn from_magnitude_words(words: &[u32]) -> Self {
        let used = words.iter().rposition(|&w| w != 0).map_or(1, |i| i + 1);
        let key = words.get(..used).unwrap_or(&[0]);
        Self {
            mt: Mt19937::from_key(key),
            gauss_next: None,
        }
    }

    /// `setstate((3, key + (pos,), gauss_next))`; `None` if `pos > 624`.
    pub fn from_state(
        key: [u32; STATE_WORDS],
        pos: usize,
        gauss_next: Option<f64>,
    ) -> Option<Self> {
        Some(Self {
            mt: Mt19937::from_parts(key, pos)?,
            gauss_next,
        })
    }

    /// The MT19937 state, as `getstate()` reports its words and position.
    pub fn mt19937(&self) -> &Mt19937 {
        &self.mt
    }

    /// `gauss`'s cached second value (`getstate()[2]`).
    pub fn gauss_next(&self) -> Option<f64> {
        self.gauss_next
    }

    /// One raw 32-bit output (`getrandbits(32)`).
    pub fn next_u32(&mut self) -> u32 {
        self.mt.next_u32()
    }

    /// `random()`: a double in [0, 1) from two outputs.
    pub fn random(&mut self) -> f64 {
        self.mt.next_f64()
    }

    /// `getrandbits(k)` for `k <= 64`: whole outputs fill the low words first, and the
    /// last output keeps only its high bits.
    pub fn getrandbits(&mut self, k: u32) -> Result<u64, PyRandomError> {
        match k {
            0 => Ok(0),
            1..=32 => Ok(u64::from(self.mt.next_u32() >> (32 - k))),
            33..=64 => {
                let low = u64::from(self.mt.next_u32());
                let high = u64::from(self.mt.next_u32() >> (64 - k));
                Ok((high << 32) | low)
            }
            _ => Err(PyRandomError::TooManyBits(k)),
        }
    }

    /// `getrandbits(k)` for any `k`, as little-endian 32-bit words (`ceil(k / 32)` of them).
    pub fn getrandbits_words(&mut self, k: usize) -> Vec<u32> {
        let mut remaining = k;
        let mut words = Vec::with_capacity(k.div_ceil(32));
        while remaining > 0 {
            let r = self.mt.next_u32();
            if remaining < 32 {
                words.push(r >> (32 - remaining));
                remaining = 0;
            } else {
                words.push(r);
                remaining -= 32;
            }
        }
        words
    }

    /// `_randbelow(n)`: `getrandbits(n.bit_length())` until below `n` (note: the bit length
    /// of `n`, not of `n - 1`, so `randbelow(4)` draws 3 bits).
    pub fn randbelow(&mut self, n: u64) -> Result<u64, PyRandomError> {
        let r = self.below(u128::from(n))?;
        u64::try_from(r).map_err(|_| PyRandomError::TooManyBits(64))
    }

    /// `_randbelow(n)` for `n` up to 2^64 (`randint(i64::MIN, i64::MAX)` needs 65 bits).
    fn below(&mut self, n: u128) -> Result<u128, PyRandomError> {
        if n == 0 {
            return Err(PyRandomError::EmptyRange {
                start: 0,
                stop: 0,
                step: 1,
            });
        }
        let k = u128::BITS - n.leading_zeros();
        loop {
            let r = if k <= 64 {
                u128::from(self.getrandbits(k)?)
            } else {
                self.getrandbits_words(k as usize)
                    .iter()
                    .rev()
                    .fold(0u128, |acc, &w| (acc << 32) | u128::from(w))
            };
            if r < n {
                return Ok(r);
            }
        }
    }

    /// `randrange(stop)`: `_randbelow(stop)`.
    pub fn randrange_below(&mut self, stop: i64) -> Result<i64, PyRandomError> {
        self.randrange(0, stop, 1)
    }

    /// `randrange(start, stop, step)`: `start + step * _randbelow(n)` over the `n` values.
    pub fn randrange(&mut self, start: i64, stop: i64, step: i64) -> Result<i64, PyRandomError> {
        let empty = PyRandomError::EmptyRange { start, stop, step };
        let (start_w, step_w) = (i128::from(start), i128::from(step));
        let width = i128::from(stop) - start_w;
        let n = match step.signum() {
            1 => (width + step_w - 1).div_euclid(step_w),
            -1 => (width + step_w + 1).div_euclid(step_w),
            _ => return Err(PyRandomError::ZeroStep),
        };
        let n = u128::try_from(n).map_err(|_| empty.clone())?;
        if n == 0 {
            return Err(empty);
        }
        let value = start_w + step_w * self.below(n)? as i128;
        i64::try_from(value).map_err(|_| empty)
    }

    /// `randint(a, b)`: `randrange(a, b + 1)`, both ends included.
    pub fn randint(&mut self, a: i64, b: i64) -> Result<i64, PyRandomError> {
        let empty = PyRandomError::EmptyRange {
            start: a,
            stop: b,
            step: 1,
        };
        let n = i128::from(b) - i128::from(a) + 1;
        let n = u128::try_from(n).map_err(|_| empty.clone())?;
        if n == 0 {
            return Err(empty);
        }
        let value = i128::from(a) + self.below(n)? as i128;
        i64::try_from(value).map_err(|_| empty)
    }

    /// `choice(seq)`: `seq[_randbelow(len(seq))]`.
    pub fn choice<'a, T>(&mut self, seq: &'a [T]) -> Result<&'a T, PyRandomError> {
        if seq.is_empty() {
            return Err(PyRandomError::EmptySequence);
        }
        let i = self.randbelow(seq.len() as u64)?;
        seq.get(i as usize).ok_or(PyRandomError::EmptySequence)
    }

    /// `shuffle(x)`: for `i` from the end down to 1, swap `x[i]` with `x[_randbelow(i + 1)]`.
    pub fn shuffle<T>(&mut self, x: &mut [T]) {
        for i in (1..x.len()).rev() {
            // `i + 1 >= 2`, so `randbelow` cannot fail.
            if let Ok(j) = self.randbelow(i as u64 + 1) {
                x.swap(i, j as usize);
            }
        }
    }

    /// `sample(range(n), k)`: the indices `sample` picks from a population of `n`.
    ///
    /// A population no larger than a `k`-element set's table is copied and drawn from
    /// without replacement; a larger one is drawn from with rejection of repeats.
    pub fn sample_indices(&mut self, n: usize, k: usize) -> Result<Vec<usize>, PyRandomError> {
        if k > n {
            return Err(PyRandomError::SampleTooLarge { population: n, k });
        }
        let mut result = Vec::with_capacity(k);
        if n as u128 <= sample_set_size(k) {
            let mut pool: Vec<usize> = (0..n).collect();
            for i in 0..k {
                let j = self.randbelow((n - i) as u64)? as usize;
                result.push(pool[j]);
                pool[j] = pool[n - i - 1];
            }
        } else {
            let mut selected = std::collections::HashSet::with_capacity(k);
            for _ in 0..k {
                let mut j = self.randbelow(n as u64)? as usize;
                while !selected.insert(j) {
                    j = self.randbelow(n as u64)? as usize;
                }
                result.push(j);
            }
        }
        Ok(result)
    }

    /// `sample(range(n), 2)` as [`Self::sample_indices`] draws it, without allocating
    /// (generators that retry hundreds of pairs call it in a loop).
    pub fn sample_two_indices(&mut self, n: usize) -> Result<[usize; 2], PyRandomError> {
        if n < 2 || n as u128 > sample_set_size(2) {
            let v = self.sample_indices(n, 2)?;
            return Ok([v[0], v[1]]);
        }
        // The pool method with the pool left implicit: after the first pick the pool is
        // the identity but for position `first`, which holds n − 1.
        let first = self.randbelow(n as u64)? as usize;
        let j = self.randbelow((n - 1) as u64)? as usize;
        Ok([first, if j == first { n - 1 } else { j }])
    }

    /// `sample(population, k)`: `k` distinct positions, in selection order.
    pub fn sample<T: Clone>(
        &mut self,
        population: &[T],
        k: usize,
    ) -> Result<Vec<T>, PyRandomError> {
        Ok(self
            .sample_indices(population.len(), k)?
            .into_iter()
            .filter_map(|i| population.get(i).cloned())
            .collect())
    }

    /// `choices(population, k=k)` without weights: `population[floor(random() * n)]`.
    pub fn choices<'a, T>(
        &mut self,
        population: &'a [T],
        k: usize,
    ) -> Result<Vec<&'a T>, PyRandomError> {
        let n = population.len() as f64;
        (0..k)
            .map(|_| {
                // CPython draws before it finds the population empty.
                let i = libm::floor(self.random() * n) as usize;
                population.get(i).ok_or(PyRandomError::EmptySequence)
            })
            .collect()
    }

    /// `choices(population, weights, k=k)`: `random() * total` bisected (right) into the
    /// running sum of the weights, never past the last item.
    pub fn choices_weighted<'a, T>(
        &mut self,
        population: &'a [T],
        weights: &[f64],
        k: usize,
    ) -> Result<Vec<&'a T>, PyRandomError> {
        if weights.len() != population.len() {
            return Err(PyRandomError::WeightsLength {
                population: population.len(),
                weights: weights.len(),
            });
        }
        let mut running = 0.0;
        let cum_weights: Vec<f64> = weights
            .iter()
            .map(|&w| {
                running += w;
                running
            })
            .collect();
        let total = *cum_weights.last().ok_or(PyRandomError::EmptySequence)?;
        if total <= 0.0 || !total.is_finite() {
            return Err(PyRandomError::InvalidWeightTotal);
        }
        let hi = population.len() - 1;
        (0..k)
            .map(|_| {
                let x = self.random() * total;
                let i = cum_weights[..hi].partition_point(|&c| c <= x);
                population.get(i).ok_or(PyRandomError::EmptySequence)
            })
            .collect()
    }

    /// `uniform(a, b)`: `a + (b - a) * random()`.
    pub fn uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.random()
    }

    /// `gauss(mu, sigma)`: Box-Muller on two `random()` draws, caching the sine half for
    /// the next call.
    pub fn gauss(&mut self, mu: f64, sigma: f64) -> f64 {
        let z = match self.gauss_next.take() {
            Some(z) => z,
            None => {
                let x2pi = self.random() * TWOPI;
                let g2rad = f64::sqrt(-2.0 * glibc_log::log(1.0 - self.random()));
                self.gauss_next = Some(glibc_trig::sin(x2pi) * g2rad);
                glibc_trig::cos(x2pi) * g2rad
            }
        };
        mu + z * sigma
    }

    /// `normalvariate(mu, sigma)`: Kinderman and Monahan's ratio-of-uniforms method.
    pub fn normalvariate(&mut self, mu: f64, sigma: f64) -> f64 {
        loop {
            let u1 = self.random();
            let u2 = 1.0 - self.random();
            let z = NV_MAGICCONST * (u1 - 0.5) / u2;
            let zz = z * z / 4.0;
            if zz <= -glibc_log::log(u2) {
                return mu + z * sigma;
            }
        }
    }
}

/// `sample`'s threshold between its two methods: 21, plus `4^ceil(log(3k, 4))` for
/// `k > 5`, with the logarithm computed as CPython does.
fn sample_set_size(k: usize) -> u128 {
    if k <= 5 {
        return 21;
    }
    let exponent = libm::ceil(glibc_log::log(3.0 * k as f64) / glibc_log::log(4.0));
    let power = 4u128.checked_pow(exponent as u32).unwrap_or(u128::MAX);
    power.saturating_add(21)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_is_drawn_as_sample_draws_it() {
        for seed in 0..40 {
            for n in 0..30 {
                let (mut a, mut b) = (PyRandom::new(seed), PyRandom::new(seed));
                let two = a.sample_two_indices(n).map_err(|e| e.to_string());
                let any = b
                    .sample_indices(n, 2)
                    .map(|v| [v[0], v[1]])
                    .map_err(|e| e.to_string());
                assert_eq!(two, any, "seed {seed} n {n}");
                assert_eq!(a.random().to_bits(), b.random().to_bits());
            }
        }
    }

    #[test]
    fn first_draws_match_cpython() {
        let mut r = PyRandom::new(0);
        let words: Vec<u64> = (0..3).map(|_| r.getrandbits(32).unwrap()).collect();
        assert_eq!(words, [3_626_764_237, 1_654_615_998, 3_255_389_356]);
        assert_eq!(PyRandom::new(0).random(), 0.844_421_851_525_048_1);
        let mut r = PyRandom::new(0);
        let draws: Vec<i64> = (0..6).map(|_| r.randint(0, 3).unwrap()).collect();
        assert_eq!(draws, [3, 3, 0, 2, 3, 3]);
    }

    #[test]
    fn seeds_use_the_absolute_value_and_ignore_high_zero_words() {
        assert_eq!(PyRandom::new(-5), PyRandom::new(5));
        assert_eq!(PyRandom::from_magnitude_words(&[5, 0, 0]), PyRandom::new(5));
        assert_eq!(PyRandom::from_magnitude_words(&[]), PyRandom::new(0));
        assert_ne!(PyRandom::new(1u64 << 32), PyRandom::new(0));
    }

    #[test]
    fn sample_switches_method_at_the_set_size() {
        assert_eq!(sample_set_size(5), 21);
        assert_eq!(sample_set_size(6), 21 + 64);
        assert_eq!(sample_set_size(22), 21 + 256);
    }

    #[test]
    fn empty_ranges_are_errors() {
        let mut r = PyRandom::new(1);
        assert_eq!(r.randrange(0, 10, 0), Err(PyRandomError::ZeroStep));
        assert!(r.randrange(5, 5, 1).is_err());
        assert!(r.randrange(0, 10, -1).is_err());
        assert!(r.randint(5, 4).is_err());
        assert!(r.randbelow(0).is_err());
        assert_eq!(r.choice::<u8>(&[]), Err(PyRandomError::EmptySequence));
        assert!(r.sample(&[1, 2, 3], 4).is_err());
        assert_eq!(r, PyRandom::new(1));
    }
}
