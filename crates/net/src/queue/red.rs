//! Random Early Detection, after Floyd and Jacobson, "Random Early Detection
//! Gateways for Congestion Avoidance" (1993), with the "gentle" extension
//! and ns-2's idle-time correction. Queue sizes are in packets.

use rand::RngExt;
use reorderlab_sim::{Rng, Time};

/// RED parameters (Floyd 1993, Section 4).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RedParams {
    /// min_th: below this average queue nothing is dropped.
    pub min_th: f64,
    /// max_th: above this average every packet is dropped (or, gentle, the
    /// drop probability rises from max_p to 1 at 2 * max_th).
    pub max_th: f64,
    /// max_p: drop probability as the average reaches max_th.
    pub max_p: f64,
    /// w_q: weight of the average-queue EWMA.
    pub weight: f64,
    /// Gentle RED (Floyd 2000): ramp to 1 between max_th and 2 max_th.
    pub gentle: bool,
}

impl Default for RedParams {
    /// Floyd's recommended settings as ns-2 uses them.
    fn default() -> Self {
        RedParams {
            min_th: 5.0,
            max_th: 15.0,
            max_p: 0.1,
            weight: 0.002,
            gentle: true,
        }
    }
}

/// RED state for one queue.
pub struct Red {
    pub params: RedParams,
    /// avg: EWMA of the queue length (Floyd 1993, Section 4).
    avg: f64,
    /// count: packets since the last drop while min_th <= avg < max_th.
    count: i64,
    /// q_time: when the queue last became empty (None while not empty).
    idle_since: Option<Time>,
}

impl Red {
    pub fn new(params: RedParams) -> Self {
        Red {
            params,
            avg: 0.0,
            count: -1,
            idle_since: Some(Time::ZERO),
        }
    }

    /// The current average queue length.
    pub fn avg(&self) -> f64 {
        self.avg
    }

    pub(crate) fn queue_emptied(&mut self, now: Time) {
        self.idle_since = Some(now);
    }

    /// Decides whether an arriving packet is admitted to a queue of `len`
    /// packets. `ptc` is the link's packet rate, used to age the average over
    /// an idle period as if `m = idle * ptc` empty-queue samples had passed.
    pub fn admit(&mut self, now: Time, len: u32, limit: u32, ptc: f64, rng: &mut Rng) -> bool {
        let p = &self.params;
        let w = p.weight;
        if let (0, Some(since)) = (len, self.idle_since) {
            let m = (now - since).as_secs_f64() * ptc;
            self.avg *= (1.0 - w).powf(m);
        }
        self.idle_since = None;
        self.avg = (1.0 - w) * self.avg + w * len as f64;
        if len >= limit {
            self.count = 0;
            return false;
        }
        let avg = self.avg;
        let pb = if avg < p.min_th {
            self.count = -1;
            return true;
        } else if avg < p.max_th {
            p.max_p * (avg - p.min_th) / (p.max_th - p.min_th)
        } else if p.gentle && avg < 2.0 * p.max_th {
            p.max_p + (1.0 - p.max_p) * (avg - p.max_th) / p.max_th
        } else {
            self.count = 0;
            return false;
        };
        self.count += 1;
        // Uniformize inter-drop gaps: pa = pb / (1 - count * pb) (Floyd 1993, Section 4).
        let denom = 1.0 - self.count as f64 * pb;
        let pa = if denom <= 0.0 {
            1.0
        } else {
            (pb / denom).min(1.0)
        };
        if rng.random::<f64>() < pa {
            self.count = 0;
            false
        } else {
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_min_th_never_drops_and_above_double_max_th_always_drops() {
        let mut rng = reorderlab_sim::stream(3, &[]);
        let mut red = Red::new(RedParams {
            weight: 1.0,
            ..RedParams::default()
        });
        for _ in 0..1000 {
            assert!(red.admit(Time::ZERO, 4, 100, 1000.0, &mut rng));
        }
        for _ in 0..1000 {
            assert!(!red.admit(Time::ZERO, 31, 100, 1000.0, &mut rng));
        }
    }

    #[test]
    fn drop_rate_between_thresholds_tracks_max_p() {
        // avg pinned at the midpoint (w = 1): pb = max_p / 2 = 0.05, and the
        // count correction makes drops uniform with mean gap ~ 1/(2 pb) ... 1/pb.
        let mut rng = reorderlab_sim::stream(4, &[]);
        let mut red = Red::new(RedParams {
            weight: 1.0,
            ..RedParams::default()
        });
        let n = 100_000;
        let drops = (0..n)
            .filter(|_| !red.admit(Time::ZERO, 10, 100, 1000.0, &mut rng))
            .count();
        let rate = drops as f64 / n as f64;
        // With the uniformizing correction the drop rate is 2 pb / (1 + pb) ~ 0.095.
        assert!((0.085..0.105).contains(&rate), "drop rate {rate}");
    }

    #[test]
    fn idle_period_decays_the_average() {
        let mut rng = reorderlab_sim::stream(5, &[]);
        let mut red = Red::new(RedParams {
            weight: 0.5,
            ..RedParams::default()
        });
        for _ in 0..20 {
            red.admit(Time::ZERO, 20, 100, 1000.0, &mut rng);
        }
        let before = red.avg();
        red.queue_emptied(Time::ZERO);
        red.admit(Time::from_secs(1), 0, 100, 1000.0, &mut rng);
        assert!(
            red.avg() < before * 1e-6,
            "avg {} after 1 s idle",
            red.avg()
        );
    }
}
