//! Standard AIMD (RFC 5681 Section 3.1).

use super::AckSample;
use reorderlab_sim::Time;

/// Slow start and congestion avoidance of RFC 5681.
#[derive(Clone, Debug, Default)]
pub struct Reno;

impl Reno {
    /// Slow start: cwnd += min(N, SMSS) per ACK (RFC 5681 eq. 2); congestion
    /// avoidance: cwnd += SMSS * SMSS / cwnd per ACK (RFC 5681 eq. 3).
    #[inline]
    pub fn on_ack(&mut self, cwnd: &mut f64, ssthresh: f64, s: &AckSample) {
        if s.acked == 0 {
            return;
        }
        if *cwnd < ssthresh {
            *cwnd += 1.0;
        } else {
            *cwnd += 1.0 / *cwnd;
        }
    }

    /// ssthresh = max(FlightSize / 2, 2 * SMSS) (RFC 5681 eq. 4).
    pub fn ssthresh_after_loss(&mut self, _now: Time, _cwnd: f64, flight: u32) -> f64 {
        (flight as f64 / 2.0).max(2.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack(acked: u32) -> AckSample {
        AckSample {
            now: Time::ZERO,
            acked,
            rtt: None,
            min_rtt: None,
            flight: 10,
        }
    }

    #[test]
    fn slow_start_adds_one_per_ack_and_avoidance_one_per_window() {
        let mut r = Reno;
        let mut cwnd = 2.0;
        r.on_ack(&mut cwnd, 100.0, &ack(2));
        assert_eq!(
            cwnd, 3.0,
            "min(N, SMSS): one segment even when two are ACKed"
        );
        let mut cwnd = 10.0;
        for _ in 0..10 {
            r.on_ack(&mut cwnd, 5.0, &ack(1));
        }
        assert!(
            (cwnd - 10.95).abs() < 0.01,
            "about +1 per window of ACKs, got {cwnd}"
        );
    }

    #[test]
    fn halves_flight_size_with_floor_of_two() {
        assert_eq!(Reno.ssthresh_after_loss(Time::ZERO, 40.0, 30), 15.0);
        assert_eq!(Reno.ssthresh_after_loss(Time::ZERO, 3.0, 3), 2.0);
    }
}
