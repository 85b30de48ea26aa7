//! Distributions of durations, shared by impairments (extra delay, spike
//! length and spacing, burst-loss length) and traffic (inter-arrival times).

use crate::rng::Rng;
use crate::time::Time;
use rand::RngExt;
use rand_distr::{Distribution, Exp, Normal};

/// A distribution of non-negative durations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeDist {
    /// Always `value`.
    Constant(Time),
    /// Uniform on `[min, max]`.
    Uniform { min: Time, max: Time },
    /// Normal with `mean` and standard deviation `sd`, negative draws clipped to 0.
    Normal { mean: Time, sd: Time },
    /// Exponential with `mean`.
    Exponential { mean: Time },
}

impl TimeDist {
    /// Draws one duration.
    #[inline]
    pub fn sample(&self, rng: &mut Rng) -> Time {
        match *self {
            TimeDist::Constant(v) => v,
            TimeDist::Uniform { min, max } => {
                if max <= min {
                    min
                } else {
                    Time(rng.random_range(min.0..=max.0))
                }
            }
            TimeDist::Normal { mean, sd } => {
                let n = Normal::new(mean.as_secs_f64(), sd.as_secs_f64())
                    .expect("sd is finite and non-negative");
                Time::from_secs_f64(n.sample(rng))
            }
            TimeDist::Exponential { mean } => {
                if mean == Time::ZERO {
                    return Time::ZERO;
                }
                let e = Exp::new(1.0 / mean.as_secs_f64()).expect("positive rate");
                Time::from_secs_f64(e.sample(rng))
            }
        }
    }

    /// The mean of the distribution (before clipping, for the normal).
    pub fn mean(&self) -> Time {
        match *self {
            TimeDist::Constant(v) => v,
            TimeDist::Uniform { min, max } => Time((min.0 + max.0) / 2),
            TimeDist::Normal { mean, .. } => mean,
            TimeDist::Exponential { mean } => mean,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mean_of(d: TimeDist, n: usize) -> f64 {
        let mut r = crate::rng::stream(1, &[]);
        (0..n).map(|_| d.sample(&mut r).as_secs_f64()).sum::<f64>() / n as f64
    }

    #[test]
    fn sample_means_match() {
        let ms = Time::from_millis;
        assert!((mean_of(TimeDist::Constant(ms(7)), 10) - 0.007).abs() < 1e-12);
        assert!(
            (mean_of(
                TimeDist::Uniform {
                    min: ms(300),
                    max: ms(400)
                },
                100_000
            ) - 0.35)
                .abs()
                < 0.001
        );
        assert!(
            (mean_of(
                TimeDist::Normal {
                    mean: ms(25),
                    sd: ms(8)
                },
                100_000
            ) - 0.025)
                .abs()
                < 0.0002
        );
        assert!((mean_of(TimeDist::Exponential { mean: ms(10) }, 100_000) - 0.010).abs() < 0.0002);
    }

    #[test]
    fn normal_is_clipped_at_zero() {
        let mut r = crate::rng::stream(2, &[]);
        let d = TimeDist::Normal {
            mean: Time::ZERO,
            sd: Time::from_millis(10),
        };
        let zeros = (0..10_000)
            .filter(|_| d.sample(&mut r) == Time::ZERO)
            .count();
        assert!((4_500..5_500).contains(&zeros), "{zeros} clipped of 10000");
    }
}
