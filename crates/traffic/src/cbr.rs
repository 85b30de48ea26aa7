//! Constant-bit-rate (CBR) UDP source: the unresponsive competitor of the
//! Eifel paper, Section IV-A ("a competing constant bit rate flow is added
//! running at 1 Mbps").
//!
//! Sans-IO: the source never reads a clock; the caller asks for the next
//! send time and schedules it. Send times are computed from the packet
//! index, not by adding an interval to the previous time, so rounding to
//! whole nanoseconds never accumulates: packet `k` (counting from 0) leaves
//! at `start + round(k * packet_bits * 1e9 / rate_bps)` ns exactly.

use rand::RngExt;
use reorderlab_sim::{Rng, Time};

/// A CBR source sending fixed-size packets at an exact rate (Eifel paper, Sec. IV-A).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cbr {
    rate_bps: u64,
    packet_bytes: u32,
    start: Time,
    stop: Option<Time>,
    /// Index of the next packet to send.
    next: u64,
}

impl Cbr {
    /// Default wire size of a CBR packet in bytes (Eifel paper, Sec. IV-A, gives
    /// no size; 1000 bytes matches its TCP MSS. ns-2's own CBR default is 210).
    pub const DEFAULT_PACKET_BYTES: u32 = 1000;

    /// A source of `DEFAULT_PACKET_BYTES`-byte packets at `rate_bps` bits/s from
    /// `start`, never stopping (Eifel paper, Sec. IV-A).
    pub fn new(rate_bps: u64, start: Time) -> Self {
        Cbr {
            rate_bps,
            packet_bytes: Self::DEFAULT_PACKET_BYTES,
            start,
            stop: None,
            next: 0,
        }
    }

    /// Sets the wire size of every packet, headers included (Eifel paper, Sec. IV-A).
    pub fn with_packet_bytes(mut self, packet_bytes: u32) -> Self {
        self.packet_bytes = packet_bytes;
        self
    }

    /// Stops the source: packets due at or after `stop` are not sent (Eifel paper, Sec. IV-A).
    pub fn with_stop(mut self, stop: Time) -> Self {
        self.stop = Some(stop);
        self
    }

    /// Delays the start by a uniform draw in `[0, interval)`, so that several
    /// sources of one rate do not send in lock-step (Eifel paper, Sec. IV-A).
    /// Call before the first `next_send`; the stop time is unchanged.
    pub fn with_random_phase(mut self, rng: &mut Rng) -> Self {
        let interval = self.offset(1).map_or(0, |t| t.as_nanos());
        if interval > 0 {
            self.start += Time(rng.random_range(0..interval));
        }
        self
    }

    /// Sending rate in bits per second, counting whole wire packets (Eifel paper, Sec. IV-A).
    pub fn rate_bps(&self) -> u64 {
        self.rate_bps
    }

    /// Wire size of every packet in bytes (Eifel paper, Sec. IV-A).
    pub fn packet_bytes(&self) -> u32 {
        self.packet_bytes
    }

    /// When the first packet is sent (Eifel paper, Sec. IV-A).
    pub fn start(&self) -> Time {
        self.start
    }

    /// Packets due at or after this time are not sent (Eifel paper, Sec. IV-A).
    pub fn stop(&self) -> Option<Time> {
        self.stop
    }

    /// How many packets `next_send` has handed out so far (Eifel paper, Sec. IV-A).
    pub fn sent(&self) -> u64 {
        self.next
    }

    /// Offset of packet `k` from the start, rounded to the nearest ns (halves
    /// up); None when it does not fit in a `Time` or the source is degenerate.
    fn offset(&self, k: u64) -> Option<Time> {
        if self.rate_bps == 0 || self.packet_bytes == 0 {
            return None;
        }
        let bits = self.packet_bytes as u128 * 8;
        let num = (k as u128).checked_mul(bits)?.checked_mul(1_000_000_000)?;
        let rate = self.rate_bps as u128;
        let ns = (num.checked_mul(2)?.checked_add(rate)?) / (2 * rate);
        u64::try_from(ns).ok().map(Time)
    }

    /// Send time of packet `k` (from 0), whether or not it is before the stop
    /// time; None when the rate or packet size is zero (Eifel paper, Sec. IV-A).
    pub fn send_time(&self, k: u64) -> Option<Time> {
        let off = self.offset(k)?;
        self.start.as_nanos().checked_add(off.as_nanos()).map(Time)
    }

    /// Send time of the next packet, or None once the source has stopped
    /// (or never sends: zero rate or packet size) (Eifel paper, Sec. IV-A).
    pub fn next_send(&mut self) -> Option<Time> {
        let t = self.send_time(self.next)?;
        if self.stop.is_some_and(|s| t >= s) {
            return None;
        }
        self.next += 1;
        Some(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Proves packet k is placed at start + k * interval exactly when the
    /// interval is a whole number of ns (1000 B at 1 Mbit/s = 8 ms), also far
    /// into the stream, where an accumulating implementation would be equal
    /// too, and at a rate where the interval is fractional (below).
    #[test]
    fn kth_send_time_is_exact_for_whole_intervals() {
        let mut c = Cbr::new(1_000_000, Time::from_millis(100));
        for k in 0..10_000u64 {
            assert_eq!(c.next_send(), Some(Time::from_millis(100 + 8 * k)));
        }
        assert_eq!(
            c.send_time(1_000_000),
            Some(Time::from_millis(100 + 8_000_000))
        );
    }

    /// Proves there is no drift when the interval is not a whole number of
    /// ns: 1000 B at 3 Mbit/s is 2666666.67 ns; adding a rounded interval
    /// would be 0.33 ns off per packet (330 us after a million packets).
    #[test]
    fn fractional_interval_does_not_drift() {
        let mut c = Cbr::new(3_000_000, Time::ZERO);
        let mut last = Time::ZERO;
        for k in 0..1_000_001u64 {
            last = c.next_send().unwrap();
            // exact: k * 8000 / 3e6 s = k * 8e12 / 3e6 ns = k * 8e6 / 3 ns
            let exact = (k as u128 * 8_000_000 * 2 + 3) / 6;
            assert_eq!(last.as_nanos() as u128, exact, "packet {k}");
        }
        assert_eq!(last, Time(2_666_666_666_667));
    }

    /// Proves the offered load over 10 s equals rate * 10 s within one packet,
    /// for an awkward rate and packet size.
    #[test]
    fn ten_seconds_offer_rate_times_duration() {
        for &(rate, bytes) in &[(1_000_000u64, 1000u32), (1_234_567, 1337), (64_000, 160)] {
            let start = Time::from_millis(3);
            let mut c = Cbr::new(rate, start)
                .with_packet_bytes(bytes)
                .with_stop(start + Time::from_secs(10));
            let mut n = 0u64;
            while c.next_send().is_some() {
                n += 1;
            }
            let offered = n * bytes as u64 * 8;
            let target = rate * 10;
            let diff = offered.abs_diff(target);
            assert!(
                diff <= bytes as u64 * 8,
                "rate {rate} size {bytes}: {offered} vs {target}"
            );
        }
    }

    /// Proves the stop time is exclusive and the source stays stopped.
    #[test]
    fn stop_is_exclusive() {
        let mut c = Cbr::new(1_000_000, Time::ZERO).with_stop(Time::from_millis(16));
        assert_eq!(c.next_send(), Some(Time::ZERO));
        assert_eq!(c.next_send(), Some(Time::from_millis(8)));
        assert_eq!(c.next_send(), None);
        assert_eq!(c.next_send(), None);
        assert_eq!(c.sent(), 2);
    }

    /// Proves degenerate sources send nothing rather than looping forever.
    #[test]
    fn zero_rate_or_size_sends_nothing() {
        assert_eq!(Cbr::new(0, Time::ZERO).next_send(), None);
        assert_eq!(
            Cbr::new(1000, Time::ZERO).with_packet_bytes(0).next_send(),
            None
        );
    }

    /// Proves the random phase lies in [0, interval) and keeps spacing exact.
    #[test]
    fn random_phase_is_within_one_interval() {
        let mut rng = reorderlab_sim::stream(5, &[1]);
        let mut seen_nonzero = false;
        for _ in 0..100 {
            let mut c = Cbr::new(1_000_000, Time::from_secs(1)).with_random_phase(&mut rng);
            let t0 = c.next_send().unwrap();
            assert!(t0 >= Time::from_secs(1) && t0 < Time::from_secs(1) + Time::from_millis(8));
            seen_nonzero |= t0 != Time::from_secs(1);
            assert_eq!(c.next_send().unwrap(), t0 + Time::from_millis(8));
        }
        assert!(seen_nonzero);
    }

    proptest! {
        /// Proves for arbitrary rates and sizes that each send time is within
        /// half a ns of the real-valued ideal k * bits / rate, and increasing.
        #[test]
        fn within_half_ns_of_ideal(rate in 1_000u64..10_000_000_000, bytes in 1u32..65_536, k in 0u64..1_000_000) {
            let c = Cbr::new(rate, Time::ZERO).with_packet_bytes(bytes);
            let t = c.send_time(k).unwrap().as_nanos() as u128;
            // |t - num/rate| <= 1/2  <=>  |2 t rate - 2 num| <= rate
            let num = k as u128 * bytes as u128 * 8 * 1_000_000_000;
            prop_assert!((2 * t * rate as u128).abs_diff(2 * num) <= rate as u128);
            prop_assert!(c.send_time(k + 1).unwrap().as_nanos() as u128 >= t);
        }
    }
}
