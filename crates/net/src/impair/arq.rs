//! A wireless hop with link-layer ARQ (TCP-NCL Section III-A): each attempt
//! to send a frame fails independently with probability `frame_error`; a
//! failed frame is retried after `attempt_delay`, up to `retries` times,
//! while the frames behind it go on, so ARQ reorders; a frame that fails
//! every attempt is lost. With `retries = 0` this is plain random loss.
//! Retries are modelled as extra delay only: they do not hold up the link's
//! transmitter (as with a selective-repeat link layer).

use super::Verdict;
use rand::RngExt;
use reorderlab_sim::{Rng, Time};

/// Link-layer ARQ with a retry limit.
pub struct Arq {
    pub frame_error: f64,
    pub retries: u32,
    pub attempt_delay: Time,
    /// Frames that needed at least one retry.
    pub retried: u64,
    /// Frames lost after the last retry.
    pub lost: u64,
    pub frames: u64,
}

impl Arq {
    pub fn new(frame_error: f64, retries: u32, attempt_delay: Time) -> Self {
        Arq {
            frame_error,
            retries,
            attempt_delay,
            retried: 0,
            lost: 0,
            frames: 0,
        }
    }

    #[inline]
    pub fn apply(&mut self, _now: Time, rng: &mut Rng) -> Verdict {
        self.frames += 1;
        if self.frame_error <= 0.0 {
            return Verdict::Pass;
        }
        for attempt in 0..=self.retries {
            if rng.random::<f64>() >= self.frame_error {
                if attempt == 0 {
                    return Verdict::Pass;
                }
                self.retried += 1;
                return Verdict::Delay(self.attempt_delay * attempt as u64);
            }
        }
        self.lost += 1;
        Verdict::Drop
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn residual_loss_is_p_to_the_limit_plus_one() {
        let mut rng = reorderlab_sim::stream(8, &[]);
        let mut a = Arq::new(0.3, 3, Time::from_millis(5));
        let n = 1_000_000u64;
        for _ in 0..n {
            a.apply(Time::ZERO, &mut rng);
        }
        let expect = 0.3f64.powi(4) * n as f64; // 8100
        let sigma = expect.sqrt();
        assert!(
            (a.lost as f64 - expect).abs() < 5.0 * sigma,
            "{} lost, expected {expect}",
            a.lost
        );
        // P(at least one retry and success) = 0.3 - 0.3^4.
        let retried = (0.3 - 0.3f64.powi(4)) * n as f64;
        assert!(
            (a.retried as f64 - retried).abs() < 5.0 * retried.sqrt(),
            "{} retried",
            a.retried
        );
    }
}
