//! Bernoulli (independent) random loss.

use super::Verdict;
use rand::RngExt;
use reorderlab_sim::{Rng, Time};

/// Drops each packet independently with probability `p`.
pub struct Bernoulli {
    pub p: f64,
}

impl Bernoulli {
    #[inline]
    pub fn apply(&mut self, _now: Time, rng: &mut Rng) -> Verdict {
        if self.p > 0.0 && rng.random::<f64>() < self.p {
            Verdict::Drop
        } else {
            Verdict::Pass
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drop_fraction_matches_p() {
        let mut rng = reorderlab_sim::stream(9, &[]);
        let mut b = Bernoulli { p: 0.01 };
        let n = 200_000;
        let drops = (0..n)
            .filter(|_| b.apply(Time::ZERO, &mut rng) == Verdict::Drop)
            .count();
        // 0.01 +- 5 sigma (sigma = sqrt(n p (1-p)) = 44.5).
        assert!((1777..=2223).contains(&drops), "{drops} drops");
    }
}
