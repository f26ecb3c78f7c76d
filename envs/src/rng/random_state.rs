//! numpy's legacy `numpy.random.RandomState` (MT19937), bit for bit: the seeding rules and
//! the methods the reference environments call (docs/rng.md lists them and their algorithms).

use super::glibc_log;
use super::mt19937::{Mt19937, STATE_WORDS};

/// A numpy legacy generator: MT19937 plus the cached second value of the polar Gaussian.
#[derive(Clone, Debug, PartialEq)]
pub struct RandomState {
    mt: Mt19937,
    gauss: Option<f64>,
}

/// Where numpy raises: the arguments it rejects.
#[derive(Clone, Debug, PartialEq)]
pub enum RandomStateError {
    /// A seed (or seed array word) outside `0..2^32`.
    SeedOutOfRange(i128),
    /// An empty seed array.
    EmptySeed,
    /// `randint(low, high)` with `low >= high`.
    EmptyRange { low: i64, high: i64 },
    /// A `randint` bound that does not fit the requested integer type.
    OutOfBounds { low: i64, high: i64 },
    /// `choice` from an empty population while drawing something.
    EmptyPopulation,
    /// `choice(..., replace=False)` of more items than the population holds.
    SampleTooLarge { population: usize, size: usize },
    /// `p` has a different length than the population.
    ProbabilitiesLength { population: usize, p: usize },
    /// `p` holds a NaN, a negative entry, or does not sum to 1 within `sqrt(eps)`.
    InvalidProbabilities,
    /// Fewer non-zero entries in `p` than items to draw without replacement.
    TooFewNonZeroProbabilities,
    /// `uniform(low, high)` where `high - low` is not finite.
    RangeOverflow,
    /// `normal(loc, scale)` with a negative (or negative zero) scale.
    NegativeScale,
}

impl std::fmt::Display for RandomStateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::SeedOutOfRange(s) => write!(f, "Seed must be between 0 and 2**32 - 1 (got {s})"),
            Self::EmptySeed => write!(f, "Seed must be non-empty"),
            Self::EmptyRange { low, high } => write!(f, "randint({low}, {high}): low >= high"),
            Self::OutOfBounds { low, high } => {
                write!(f, "randint({low}, {high}): bounds out of range for the dtype")
            }
            Self::EmptyPopulation => write!(f, "'a' cannot be empty unless no samples are taken"),
            Self::SampleTooLarge { population, size } => write!(
                f,
                "Cannot take a larger sample ({size}) than population ({population}) when 'replace=False'"
            ),
            Self::ProbabilitiesLength { population, p } => {
                write!(f, "'a' ({population}) and 'p' ({p}) must have same size")
            }
            Self::InvalidProbabilities => {
                write!(f, "probabilities must be non-negative numbers summing to 1")
            }
            Self::TooFewNonZeroProbabilities => write!(f, "Fewer non-zero entries in p than size"),
            Self::RangeOverflow => write!(f, "Range exceeds valid bounds"),
            Self::NegativeScale => write!(f, "scale < 0"),
        }
    }
}

impl std::error::Error for RandomStateError {}

/// `sqrt(finfo(float64).eps)`: how far `p` may sum from 1.
const PROBABILITY_SUM_TOLERANCE: f64 = 1.490_116_119_384_765_6e-8;

impl RandomState {
    /// `RandomState(seed)` for a seed in `0..2^32` (linear seeding, not `init_by_array`).
    pub fn new(seed: u32) -> Self {
        Self {
            mt: Mt19937::from_word(seed),
            gauss: None,
        }
    }

    /// `RandomState(seed)` for any integer: numpy rejects seeds outside `0..2^32`.
    pub fn try_new(seed: impl Into<i128>) -> Result<Self, RandomStateError> {
        let seed = seed.into();
        u32::try_from(seed)
            .map(Self::new)
            .map_err(|_| RandomStateError::SeedOutOfRange(seed))
    }

    /// `RandomState([w0, w1, ...])`: `init_by_array` on words that must lie in `0..2^32`.
    pub fn from_seed_array(seed: &[i64]) -> Result<Self, RandomStateError> {
        if seed.is_empty() {
            return Err(RandomStateError::EmptySeed);
        }
        let words = seed
            .iter()
            .map(|&w| u32::try_from(w).map_err(|_| RandomStateError::SeedOutOfRange(w.into())))
            .collect::<Result<Vec<u32>, _>>()?;
        Ok(Self {
            mt: Mt19937::from_key(&words),
            gauss: None,
        })
    }

    /// `set_state(('MT19937', key, pos, has_gauss, cached_gaussian))`; `None` if `pos > 624`.
    pub fn from_state(key: [u32; STATE_WORDS], pos: usize, gauss: Option<f64>) -> Option<Self> {
        Some(Self {
            mt: Mt19937::from_parts(key, pos)?,
            gauss,
        })
    }

    /// The MT19937 state, as `get_state()` reports its key and position.
    pub fn mt19937(&self) -> &Mt19937 {
        &self.mt
    }

    /// The cached second Gaussian (`get_state()`'s `has_gauss`/`cached_gaussian`).
    pub fn cached_gaussian(&self) -> Option<f64> {
        self.gauss
    }

    /// One raw 32-bit output.
    pub fn next_u32(&mut self) -> u32 {
        self.mt.next_u32()
    }

    /// A 64-bit draw: the first 32-bit output is the high half.
    fn next_u64(&mut self) -> u64 {
        let hi = u64::from(self.mt.next_u32());
        (hi << 32) | u64::from(self.mt.next_u32())
    }

    /// `random_sample()` (also `random()`, `rand()`): a double in [0, 1) from two outputs.
    pub fn random_sample(&mut self) -> f64 {
        self.mt.next_f64()
    }

    /// `rand()`: the same draw as [`Self::random_sample`].
    pub fn rand(&mut self) -> f64 {
        self.random_sample()
    }

    /// `randint(low, high)` with the default int64 dtype, `high` exclusive.
    pub fn randint(&mut self, low: i64, high: i64) -> Result<i64, RandomStateError> {
        if low >= high {
            return Err(RandomStateError::EmptyRange { low, high });
        }
        let range = (high as u64).wrapping_sub(1).wrapping_sub(low as u64);
        Ok((low as u64).wrapping_add(self.bounded(range)) as i64)
    }

    /// `randint(high)`: `randint(0, high)`.
    pub fn randint_below(&mut self, high: i64) -> Result<i64, RandomStateError> {
        self.randint(0, high)
    }

    /// `randint(low, high, dtype=np.int32)`: the same draws, int32 bounds.
    pub fn randint_i32(&mut self, low: i64, high: i64) -> Result<i32, RandomStateError> {
        if low < i64::from(i32::MIN) || high > i64::from(i32::MAX) + 1 {
            return Err(RandomStateError::OutOfBounds { low, high });
        }
        let value = self.randint(low, high)?;
        i32::try_from(value).map_err(|_| RandomStateError::OutOfBounds { low, high })
    }

    /// A draw in `0..=range` by masked rejection (numpy's legacy `randint` never uses
    /// Lemire's method); a one-value range draws nothing.
    fn bounded(&mut self, range: u64) -> u64 {
        if range == 0 {
            return 0;
        }
        if range == u64::from(u32::MAX) {
            return u64::from(self.mt.next_u32());
        }
        if range == u64::MAX {
            return self.next_u64();
        }
        self.masked(range)
    }

    /// A draw in `0..=max` by masking with the smallest `2^k - 1 >= max` and rejecting:
    /// 32-bit outputs while `max` fits in 32 bits, 64-bit ones above.
    fn masked(&mut self, max: u64) -> u64 {
        if max == 0 {
            return 0;
        }
        let mask = u64::MAX >> max.leading_zeros();
        loop {
            let v = if max <= u64::from(u32::MAX) {
                u64::from(self.mt.next_u32()) & mask
            } else {
                self.next_u64() & mask
            };
            if v <= max {
                return v;
            }
        }
    }

    /// `choice(n)` (or `choice(range(n))`): an index in `0..n`.
    pub fn choice_index(&mut self, n: usize) -> Result<usize, RandomStateError> {
        if n == 0 {
            return Err(RandomStateError::EmptyPopulation);
        }
        Ok(self.bounded(n as u64 - 1) as usize)
    }

    /// `choice(seq)` for a one-dimensional sequence: `seq[randint(0, len)]`.
    pub fn choice<'a, T>(&mut self, items: &'a [T]) -> Result<&'a T, RandomStateError> {
        let i = self.choice_index(items.len())?;
        items.get(i).ok_or(RandomStateError::EmptyPopulation)
    }

    /// `choice(len(p), p=p)`: one `random_sample()` looked up in the normalised running sum.
    pub fn choice_weighted(&mut self, p: &[f64]) -> Result<usize, RandomStateError> {
        if p.is_empty() {
            return Err(RandomStateError::EmptyPopulation);
        }
        check_probabilities(p)?;
        let cdf = normalised_cdf(p);
        let u = self.random_sample();
        Ok(search_right(&cdf, u))
    }

    /// `choice(n, size, replace=False, p=p)` as indices in `0..n` (`p`, if given, has `n`
    /// entries). Without `p` this shuffles all of `0..n` and keeps the first `size`.
    pub fn choice_without_replacement(
        &mut self,
        n: usize,
        size: usize,
        p: Option<&[f64]>,
    ) -> Result<Vec<usize>, RandomStateError> {
        if n == 0 && size > 0 {
            return Err(RandomStateError::EmptyPopulation);
        }
        if let Some(p) = p {
            if p.len() != n {
                return Err(RandomStateError::ProbabilitiesLength {
                    population: n,
                    p: p.len(),
                });
            }
            check_probabilities(p)?;
        }
        if size > n {
            return Err(RandomStateError::SampleTooLarge {
                population: n,
                size,
            });
        }
        let Some(p) = p else {
            let mut idx = self.permutation(n);
            idx.truncate(size);
            return Ok(idx);
        };
        if p.iter().filter(|&&x| x > 0.0).count() < size {
            return Err(RandomStateError::TooFewNonZeroProbabilities);
        }
        let mut weights = p.to_vec();
        let mut found: Vec<usize> = Vec::with_capacity(size);
        // Rounds of fresh uniforms against the weights of what is left; repeats within a
        // round are dropped, keeping first occurrences in draw order.
        while found.len() < size {
            let draws: Vec<f64> = (found.len()..size).map(|_| self.random_sample()).collect();
            for &i in &found {
                weights[i] = 0.0;
            }
            let cdf = normalised_cdf(&weights);
            let mut round: Vec<usize> = Vec::with_capacity(draws.len());
            for u in draws {
                let i = search_right(&cdf, u);
                if !round.contains(&i) {
                    round.push(i);
                }
            }
            found.extend(round);
        }
        Ok(found)
    }

    /// `shuffle(list)`: Fisher-Yates from the end with masked 32-bit draws.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.masked(i as u64) as usize;
            items.swap(i, j);
        }
    }

    /// `permutation(n)`: `arange(n)` shuffled.
    pub fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut v: Vec<usize> = (0..n).collect();
        self.shuffle(&mut v);
        v
    }

    /// `uniform(low, high)`: `low + (high - low) * random_sample()`.
    pub fn uniform(&mut self, low: f64, high: f64) -> Result<f64, RandomStateError> {
        let range = high - low;
        if !range.is_finite() {
            return Err(RandomStateError::RangeOverflow);
        }
        Ok(low + range * self.random_sample())
    }

    /// `standard_normal()` (also `randn()`): the polar method, which makes two values
    /// per accepted pair and caches the second for the next call.
    pub fn standard_normal(&mut self) -> f64 {
        if let Some(g) = self.gauss.take() {
            return g;
        }
        loop {
            let x1 = 2.0 * self.random_sample() - 1.0;
            let x2 = 2.0 * self.random_sample() - 1.0;
            let r2 = x1 * x1 + x2 * x2;
            if r2 < 1.0 && r2 != 0.0 {
                let f = f64::sqrt(-2.0 * glibc_log::log(r2) / r2);
                self.gauss = Some(f * x1);
                return f * x2;
            }
        }
    }

    /// `normal(loc, scale)`: `loc + scale * standard_normal()`.
    pub fn normal(&mut self, loc: f64, scale: f64) -> Result<f64, RandomStateError> {
        if !scale.is_nan() && scale.is_sign_negative() {
            return Err(RandomStateError::NegativeScale);
        }
        Ok(loc + scale * self.standard_normal())
    }
}

/// numpy's checks on `p`: no NaN, no negative entry, a (Kahan) sum within `sqrt(eps)` of 1.
fn check_probabilities(p: &[f64]) -> Result<(), RandomStateError> {
    let mut sum = p.first().copied().unwrap_or(0.0);
    let mut c = 0.0;
    for &x in p.iter().skip(1) {
        let y = x - c;
        let t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    if sum.is_nan() || p.iter().any(|&x| x < 0.0) || (sum - 1.0).abs() > PROBABILITY_SUM_TOLERANCE {
        return Err(RandomStateError::InvalidProbabilities);
    }
    Ok(())
}

/// The running sum of `p` divided by its last entry.
fn normalised_cdf(p: &[f64]) -> Vec<f64> {
    let mut total = 0.0;
    let mut cdf: Vec<f64> = p
        .iter()
        .map(|&x| {
            total += x;
            total
        })
        .collect();
    for c in &mut cdf {
        *c /= total;
    }
    cdf
}

/// `searchsorted(cdf, u, side='right')`: the number of entries `<= u`.
fn search_right(cdf: &[f64], u: f64) -> usize {
    cdf.partition_point(|&c| c <= u)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_draws_match_numpy() {
        assert_eq!(RandomState::new(42).next_u32(), 1_608_637_542);
        assert_eq!(RandomState::new(0).random_sample(), 0.548_813_503_927_324_8);
        let mut rs = RandomState::new(0);
        assert_eq!(rs.standard_normal(), 1.764_052_345_967_664);
        assert_eq!(rs.cached_gaussian(), Some(0.400_157_208_367_223_3));
        assert_eq!(rs.normal(0.0, 1.0), Ok(0.400_157_208_367_223_3));
        assert_eq!(rs.cached_gaussian(), None);
    }

    #[test]
    fn snake_food_order_for_seed_42() {
        // GameVerse Snake: the 7x7 interior minus the start cell, x-major, shuffled twice.
        let mut cells: Vec<(u8, u8)> = (1..8)
            .flat_map(|x| (1..8).map(move |y| (x, y)))
            .filter(|&c| c != (3, 3))
            .collect();
        let mut rs = RandomState::new(42);
        rs.shuffle(&mut cells);
        rs.shuffle(&mut cells);
        assert_eq!(cells[..6], [(7, 7), (5, 6), (4, 7), (4, 2), (5, 1), (5, 4)]);
        assert_eq!(cells[45..], [(1, 5), (6, 6), (1, 1)]);
    }

    #[test]
    fn one_value_ranges_draw_nothing() {
        let mut rs = RandomState::new(3);
        let before = rs.clone();
        assert_eq!(rs.randint(9, 10), Ok(9));
        assert_eq!(rs.choice(&['a']), Ok(&'a'));
        assert_eq!(rs, before);
        assert!(rs.randint(10, 10).is_err());
    }

    #[test]
    fn seeds_outside_32_bits_are_rejected() {
        assert!(RandomState::try_new(-1).is_err());
        assert!(RandomState::try_new(1u64 << 32).is_err());
        assert_eq!(RandomState::try_new(7), Ok(RandomState::new(7)));
        assert_eq!(
            RandomState::from_seed_array(&[]),
            Err(RandomStateError::EmptySeed)
        );
        // A one-word array seeds through init_by_array, unlike the same integer.
        assert_ne!(RandomState::from_seed_array(&[7]), Ok(RandomState::new(7)));
    }
}
