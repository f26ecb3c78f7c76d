//! numpy 1.26's float64 sum (`np.add.reduce`) and the statistics built on it, in the
//! order numpy adds: a contiguous run is summed pairwise (blocks of at most 128 with
//! eight running sums each), so `np.var` differs from a plain loop in the last bits, and
//! Colorization compares and sorts such variances.

/// `np.sum` of a contiguous float64 run.
pub fn sum(values: &[f64]) -> f64 {
    // The reduction starts from the identity 0.0.
    0.0 + pairwise(values)
}

fn pairwise(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        let mut res = 0.0;
        for &v in a {
            res += v;
        }
        res
    } else if n <= 128 {
        let mut r = [0.0; 8];
        r.copy_from_slice(&a[..8]);
        let whole = n - n % 8;
        for block in a[8..whole].chunks_exact(8) {
            for (acc, &v) in r.iter_mut().zip(block) {
                *acc += v;
            }
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &v in &a[whole..] {
            res += v;
        }
        res
    } else {
        // Halve, keeping the first half a multiple of the eight-way unrolling.
        let mut half = n / 2;
        half -= half % 8;
        pairwise(&a[..half]) + pairwise(&a[half..])
    }
}

/// `np.mean`.
pub fn mean(values: &[f64]) -> f64 {
    sum(values) / values.len() as f64
}

/// `np.var` (population variance): the mean, then the mean squared deviation.
pub fn var(values: &[f64]) -> f64 {
    let m = mean(values);
    let squares: Vec<f64> = values.iter().map(|&v| (v - m) * (v - m)).collect();
    sum(&squares) / values.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_pairwise_as_numpy() {
        // Checked with numpy 1.26.4; a plain loop gives 20.000000000000014 and
        // 5463.333837238607.
        let tenths = vec![0.1; 200];
        assert_eq!(sum(&tenths), 20.0);
        assert_eq!(sum(&tenths[..7]), 0.7);
        assert_eq!(var(&[1.0, 2.0, 3.0, 4.0]), 1.25);
        let ramp: Vec<f64> = (0..441).map(|i| f64::from((i * 37 % 256) as u8)).collect();
        assert_eq!(var(&ramp), 5463.333837238599);
    }
}
