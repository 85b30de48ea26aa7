//! The retransmission timer's estimator (RFC 6298).

use reorderlab_sim::Time;

/// SRTT, RTTVAR and RTO per RFC 6298, with exponential back-off.
#[derive(Clone, Debug)]
pub struct RttEstimator {
    /// SRTT (RFC 6298 Section 2); None before the first sample.
    pub srtt: Option<Time>,
    /// RTTVAR (RFC 6298 Section 2).
    pub rttvar: Time,
    /// Lower bound on RTO (RFC 6298 Section 2.4: 1 s; configurable).
    pub min_rto: Time,
    /// Upper bound on RTO (RFC 6298 Section 2.5: at least 60 s).
    pub max_rto: Time,
    /// Back-off exponent: RTO is doubled this many times (RFC 6298 Section 5.5).
    pub backoff: u32,
    /// Smallest RTT sample seen.
    pub min_rtt: Option<Time>,
    /// Latest RTT sample.
    pub latest: Option<Time>,
}

/// Clock granularity G (RFC 6298 Section 2): the simulator's clock is exact,
/// so G only keeps RTTVAR's term from vanishing; 1 ms, as Linux.
pub const CLOCK_G: Time = Time::from_millis(1);

impl RttEstimator {
    pub fn new(min_rto: Time, max_rto: Time) -> Self {
        RttEstimator {
            srtt: None,
            rttvar: Time::ZERO,
            min_rto,
            max_rto,
            backoff: 0,
            min_rtt: None,
            latest: None,
        }
    }

    /// Takes one RTT measurement R (RFC 6298 Sections 2.2 and 2.3) and, per
    /// Karn's algorithm, ends any back-off (a valid sample means the path
    /// answers again).
    pub fn sample(&mut self, r: Time) {
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = Time(r.0 / 2);
            }
            Some(srtt) => {
                // RTTVAR <- 3/4 RTTVAR + 1/4 |SRTT - R'|; SRTT <- 7/8 SRTT + 1/8 R'.
                let diff = srtt.0.abs_diff(r.0);
                self.rttvar = Time((3 * self.rttvar.0 + diff) / 4);
                self.srtt = Some(Time((7 * srtt.0 + r.0) / 8));
            }
        }
        self.min_rtt = Some(self.min_rtt.map_or(r, |m| m.min(r)));
        self.latest = Some(r);
        self.backoff = 0;
    }

    /// RTO before back-off: SRTT + max(G, 4 RTTVAR), 1 s before any sample
    /// (RFC 6298 Sections 2.1-2.4), clamped to [min_rto, max_rto].
    pub fn base_rto(&self) -> Time {
        let rto = match self.srtt {
            None => Time::from_secs(1),
            Some(srtt) => srtt + CLOCK_G.max(self.rttvar * 4),
        };
        rto.max(self.min_rto).min(self.max_rto)
    }

    /// The RTO in force, back-off included (RFC 6298 Section 5.5).
    pub fn rto(&self) -> Time {
        let mut rto = self.base_rto();
        for _ in 0..self.backoff {
            rto = rto * 2;
            if rto >= self.max_rto {
                return self.max_rto;
            }
        }
        rto
    }

    /// Doubles the RTO after a timeout (RFC 6298 Section 5.5).
    pub fn back_off(&mut self) {
        if self.rto() < self.max_rto {
            self.backoff += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_sample_sets_srtt_and_half_rttvar() {
        let mut e = RttEstimator::new(Time::from_millis(200), Time::from_secs(60));
        assert_eq!(
            e.rto(),
            Time::from_secs(1),
            "initial RTO is 1 s (RFC 6298 2.1)"
        );
        e.sample(Time::from_millis(100));
        assert_eq!(e.srtt, Some(Time::from_millis(100)));
        assert_eq!(e.rttvar, Time::from_millis(50));
        assert_eq!(e.rto(), Time::from_millis(300));
        e.sample(Time::from_millis(200));
        // RTTVAR = 3/4*50 + 1/4*100 = 62.5; SRTT = 7/8*100 + 1/8*200 = 112.5.
        assert_eq!(e.rttvar, Time(62_500_000));
        assert_eq!(e.srtt, Some(Time(112_500_000)));
    }

    #[test]
    fn back_off_doubles_until_max_and_a_sample_resets_it() {
        let mut e = RttEstimator::new(Time::from_secs(1), Time::from_secs(60));
        e.sample(Time::from_millis(100));
        assert_eq!(e.rto(), Time::from_secs(1));
        e.back_off();
        assert_eq!(e.rto(), Time::from_secs(2));
        e.back_off();
        assert_eq!(e.rto(), Time::from_secs(4));
        for _ in 0..10 {
            e.back_off();
        }
        assert_eq!(e.rto(), Time::from_secs(60));
        e.sample(Time::from_millis(100));
        assert_eq!(e.rto(), Time::from_secs(1));
    }
}
