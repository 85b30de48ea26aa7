//! Random extra delay for a fraction of packets (RR-TCP Sections 5.1-5.5,
//! the high-speed paper Section IV). A delayed packet leaves the link late
//! and is overtaken by the packets behind it.

use super::Verdict;
use rand::RngExt;
use reorderlab_sim::{Rng, Time, TimeDist};

/// Delays each packet with probability `fraction` by a draw from `delay`.
pub struct RandomDelay {
    pub fraction: f64,
    pub delay: TimeDist,
    /// Packets delayed so far.
    pub delayed: u64,
    /// Packets seen so far.
    pub seen: u64,
}

impl RandomDelay {
    pub fn new(fraction: f64, delay: TimeDist) -> Self {
        RandomDelay {
            fraction,
            delay,
            delayed: 0,
            seen: 0,
        }
    }

    #[inline]
    pub fn apply(&mut self, _now: Time, rng: &mut Rng) -> Verdict {
        self.seen += 1;
        if self.fraction > 0.0 && rng.random::<f64>() < self.fraction {
            self.delayed += 1;
            let d = self.delay.sample(rng);
            if d > Time::ZERO {
                return Verdict::Delay(d);
            }
        }
        Verdict::Pass
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delayed_fraction_and_mean_delay_match_the_configuration() {
        let mut rng = reorderlab_sim::stream(5, &[]);
        let mut d = RandomDelay::new(
            0.05,
            TimeDist::Normal {
                mean: Time::from_millis(25),
                sd: Time::from_millis(8),
            },
        );
        let n = 200_000;
        let mut sum = 0.0;
        let mut count = 0u64;
        for _ in 0..n {
            if let Verdict::Delay(t) = d.apply(Time::ZERO, &mut rng) {
                sum += t.as_secs_f64();
                count += 1;
            }
        }
        // 5% +- 5 sigma (sigma = sqrt(n p (1-p)) = 97.5).
        assert!((9_512..=10_488).contains(&count), "{count} delayed");
        let mean = sum / count as f64;
        // Mean 25 ms; the standard error is 8 ms / sqrt(10000) = 0.08 ms.
        assert!((mean - 0.025).abs() < 0.0005, "mean delay {mean}");
    }
}
