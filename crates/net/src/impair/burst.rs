//! Bursty loss events (RR-TCP Section 5.5, Table 3): loss events start at a
//! given rate per packet and each lasts a random time during which every
//! arriving packet is dropped.

use super::Verdict;
use rand::RngExt;
use reorderlab_sim::{Rng, Time, TimeDist};

/// Starts a loss event on a packet with probability `rate`; during an event
/// (of a length drawn from `length`) every packet is dropped.
pub struct BurstLoss {
    /// Loss events per packet.
    pub rate: f64,
    pub length: TimeDist,
    /// End of the current event.
    until: Time,
    /// Lengths of the events started so far (for tests and reports).
    pub events: Vec<Time>,
}

impl BurstLoss {
    pub fn new(rate: f64, length: TimeDist) -> Self {
        BurstLoss {
            rate,
            length,
            until: Time::ZERO,
            events: Vec::new(),
        }
    }

    #[inline]
    pub fn apply(&mut self, now: Time, rng: &mut Rng) -> Verdict {
        if now < self.until {
            return Verdict::Drop;
        }
        if self.rate > 0.0 && rng.random::<f64>() < self.rate {
            let len = self.length.sample(rng);
            self.until = now + len;
            self.events.push(len);
            return Verdict::Drop;
        }
        Verdict::Pass
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_packet_inside_an_event_is_dropped_and_lengths_are_uniform_300_400ms() {
        let mut rng = reorderlab_sim::stream(6, &[]);
        let ms = Time::from_millis;
        let mut b = BurstLoss::new(
            0.001,
            TimeDist::Uniform {
                min: ms(300),
                max: ms(400),
            },
        );
        // One packet per millisecond for 2000 s.
        let mut dropped_runs = Vec::new();
        let mut run_start = None;
        for i in 0..2_000_000u64 {
            let now = Time::from_millis(i);
            match (b.apply(now, &mut rng), run_start) {
                (Verdict::Drop, None) => run_start = Some(now),
                (Verdict::Pass, Some(s)) => {
                    dropped_runs.push(now - s);
                    run_start = None;
                }
                _ => {}
            }
        }
        assert!(b.events.len() > 1000, "{} events", b.events.len());
        assert!(b.events.iter().all(|&l| l >= ms(300) && l <= ms(400)));
        let mean = b.events.iter().map(|l| l.as_secs_f64()).sum::<f64>() / b.events.len() as f64;
        assert!((mean - 0.35).abs() < 0.005, "mean length {mean}");
        // Observed drop runs last the event length (to the 1 ms packet spacing),
        // or longer when a new event starts right as one ends.
        assert!(
            dropped_runs.iter().all(|&r| r >= ms(300)),
            "a drop run shorter than 300 ms"
        );
    }
}
