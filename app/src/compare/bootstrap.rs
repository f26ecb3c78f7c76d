//! Percentile bootstrap: the statistic recomputed on resamples drawn with replacement,
//! its 2.5th and 97.5th percentiles the 95% interval. Resamples come from numpy's
//! generator with a fixed seed, so the same files always give the same intervals.

use envs::rng::NpRandom;

/// Resamples per interval.
pub const RESAMPLES: usize = 1000;
/// The generator's seed (any fixed value: determinism is what matters).
pub const SEED: u128 = 20_240_607;

/// A point estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Estimate {
    /// An estimate known exactly (or from one sample).
    pub fn exact(value: f64) -> Self {
        Self {
            value,
            low: value,
            high: value,
        }
    }
}

/// The `q`-quantile (0-1) of sorted values, interpolated linearly (numpy's default).
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    match sorted.len() {
        0 => 0.0,
        1 => sorted[0],
        n => {
            let pos = q.clamp(0.0, 1.0) * (n - 1) as f64;
            let i = pos.floor() as usize;
            let frac = pos - i as f64;
            match sorted.get(i + 1) {
                Some(next) => sorted[i] + (next - sorted[i]) * frac,
                None => sorted[i],
            }
        }
    }
}

/// The 95% percentile interval of `replicates` around `value`.
pub fn interval(value: f64, mut replicates: Vec<f64>) -> Estimate {
    if replicates.is_empty() {
        return Estimate::exact(value);
    }
    replicates.sort_by(f64::total_cmp);
    Estimate {
        value,
        low: quantile(&replicates, 0.025),
        high: quantile(&replicates, 0.975),
    }
}

/// `n` indices drawn uniformly with replacement from `0..n`.
pub fn resample(rng: &mut NpRandom, n: usize) -> Vec<usize> {
    (0..n).map(|_| rng.index(n).unwrap_or(0)).collect()
}

/// The mean of `values` with its bootstrap interval (resampling the values).
pub fn mean_interval(values: &[f64]) -> Estimate {
    let mean = |v: &mut dyn Iterator<Item = f64>, n: usize| v.sum::<f64>() / n as f64;
    if values.is_empty() {
        return Estimate::exact(0.0);
    }
    let value = mean(&mut values.iter().copied(), values.len());
    let mut rng = NpRandom::seeded(SEED);
    let replicates = (0..RESAMPLES)
        .map(|_| {
            let idx = resample(&mut rng, values.len());
            mean(&mut idx.iter().map(|&i| values[i]), values.len())
        })
        .collect();
    interval(value, replicates)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate_like_numpy() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&v, 1.0), 4.0);
        assert_eq!(quantile(&v, 0.5), 2.5);
        // numpy.quantile([1,2,3,4], 0.025) == 1.075
        assert!((quantile(&v, 0.025) - 1.075).abs() < 1e-12);
        assert_eq!(quantile(&[7.0], 0.3), 7.0);
        assert_eq!(quantile(&[], 0.3), 0.0);
    }

    #[test]
    fn constant_samples_have_no_spread() {
        let e = mean_interval(&[5.0; 10]);
        assert_eq!(e, Estimate::exact(5.0));
        assert_eq!(mean_interval(&[]), Estimate::exact(0.0));
    }

    #[test]
    fn intervals_cover_the_mean_are_deterministic_and_shrink_with_more_data() {
        let few: Vec<f64> = (0..10)
            .map(|i| if i % 2 == 0 { 0.0 } else { 100.0 })
            .collect();
        let many: Vec<f64> = (0..200)
            .map(|i| if i % 2 == 0 { 0.0 } else { 100.0 })
            .collect();
        let a = mean_interval(&few);
        let b = mean_interval(&many);
        assert_eq!(a.value, 50.0);
        assert!(a.low < 50.0 && a.high > 50.0, "{a:?}");
        assert!(b.high - b.low < a.high - a.low, "{a:?} {b:?}");
        // Normal theory for 200 fair coin flips of 0/100: ±1.96·50/√200 ≈ ±6.9.
        assert!((b.high - b.low - 13.9).abs() < 2.5, "{b:?}");
        assert_eq!(mean_interval(&few), a, "the same seed, the same interval");
        // Resamples stay within the data's range.
        assert!(a.low >= 0.0 && a.high <= 100.0);
    }

    #[test]
    fn resampling_draws_valid_indices_with_replacement() {
        let mut rng = NpRandom::seeded(SEED);
        let idx = resample(&mut rng, 5);
        assert_eq!(idx.len(), 5);
        assert!(idx.iter().all(|&i| i < 5));
        let draws: Vec<usize> = (0..50).flat_map(|_| resample(&mut rng, 5)).collect();
        let mut seen = draws.clone();
        seen.sort();
        seen.dedup();
        assert_eq!(seen, [0, 1, 2, 3, 4]);
    }
}
