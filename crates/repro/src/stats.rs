//! Summary statistics over seeds: mean and a 95% confidence interval from
//! Student's t distribution (the runs of one point are independent seeds).

/// Two-sided 95% quantiles of Student's t for 1..=30 degrees of freedom.
const T95: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042,
];

/// t_{0.975, df}; the normal quantile beyond 30 degrees of freedom.
pub fn t95(df: usize) -> f64 {
    match df {
        0 => f64::NAN,
        1..=30 => T95[df - 1],
        _ => 1.96,
    }
}

/// Mean, sample standard deviation, and the half-width of the 95% CI.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub n: usize,
    pub mean: f64,
    pub sd: f64,
    /// Half-width of the 95% confidence interval of the mean (NaN for n < 2).
    pub ci95: f64,
}

pub fn summarize(xs: &[f64]) -> Summary {
    let n = xs.len();
    if n == 0 {
        return Summary {
            n,
            mean: f64::NAN,
            sd: f64::NAN,
            ci95: f64::NAN,
        };
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    if n == 1 {
        return Summary {
            n,
            mean,
            sd: f64::NAN,
            ci95: f64::NAN,
        };
    }
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
    let sd = var.sqrt();
    Summary {
        n,
        mean,
        sd,
        ci95: t95(n - 1) * sd / (n as f64).sqrt(),
    }
}

/// Jain's fairness index (sum x)^2 / (n sum x^2).
pub fn jain(xs: &[f64]) -> f64 {
    let s: f64 = xs.iter().sum();
    let q: f64 = xs.iter().map(|x| x * x).sum();
    if q == 0.0 {
        return f64::NAN;
    }
    s * s / (xs.len() as f64 * q)
}

/// Coefficient of variation: standard deviation over mean (population form).
pub fn cov(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
    var.sqrt() / mean
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ci_of_a_known_sample() {
        let s = summarize(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(s.mean, 3.0);
        assert!((s.sd - 1.5811).abs() < 1e-4);
        // t(4) = 2.776: 2.776 * 1.5811 / sqrt(5) = 1.963.
        assert!((s.ci95 - 1.963).abs() < 1e-3);
    }

    #[test]
    fn jain_and_cov() {
        assert_eq!(jain(&[1.0, 1.0, 1.0]), 1.0);
        assert!((jain(&[1.0, 0.0]) - 0.5).abs() < 1e-12);
        assert_eq!(cov(&[2.0, 2.0]), 0.0);
        assert!((cov(&[1.0, 3.0]) - 0.5).abs() < 1e-12);
    }
}
