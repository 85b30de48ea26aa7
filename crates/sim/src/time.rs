//! Simulated time as integer nanoseconds.
//!
//! Integer time keeps event ordering exact and runs reproducible: two events
//! scheduled for the same instant compare equal on every machine. One type
//! serves both instants and durations; 2^64 ns is 584 years.

use std::fmt;
use std::ops::{Add, AddAssign, Mul, Sub};

/// A point in simulated time, or a duration, in nanoseconds.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Time(pub u64);

impl Time {
    pub const ZERO: Time = Time(0);
    pub const MAX: Time = Time(u64::MAX);

    pub const fn from_nanos(ns: u64) -> Time {
        Time(ns)
    }
    pub const fn from_micros(us: u64) -> Time {
        Time(us * 1_000)
    }
    pub const fn from_millis(ms: u64) -> Time {
        Time(ms * 1_000_000)
    }
    pub const fn from_secs(s: u64) -> Time {
        Time(s * 1_000_000_000)
    }
    /// Rounds to the nearest nanosecond; negative and NaN inputs give zero.
    pub fn from_secs_f64(s: f64) -> Time {
        if s.is_nan() || s <= 0.0 {
            Time(0)
        } else if s >= u64::MAX as f64 / 1e9 {
            Time::MAX
        } else {
            Time((s * 1e9).round() as u64)
        }
    }
    pub const fn as_nanos(self) -> u64 {
        self.0
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e9
    }
    pub fn as_millis_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
    pub fn saturating_sub(self, other: Time) -> Time {
        Time(self.0.saturating_sub(other.0))
    }
    /// Time to serialize `bytes` at `bits_per_sec`, rounded up to a whole nanosecond.
    pub fn transmission(bytes: u64, bits_per_sec: u64) -> Time {
        if bits_per_sec == 0 {
            return Time::MAX;
        }
        // Packet sizes keep the product in 64 bits, where division is several
        // times cheaper than the 128-bit fallback.
        if let Some(bits) = bytes.checked_mul(8_000_000_000) {
            return Time(bits.div_ceil(bits_per_sec));
        }
        let bits = bytes as u128 * 8 * 1_000_000_000;
        Time(bits.div_ceil(bits_per_sec as u128) as u64)
    }
    /// `self * f`, rounded; for scaling RTT estimates by the papers' factors.
    pub fn mul_f64(self, f: f64) -> Time {
        Time::from_secs_f64(self.as_secs_f64() * f)
    }
}

impl Add for Time {
    type Output = Time;
    #[inline]
    fn add(self, rhs: Time) -> Time {
        Time(self.0.saturating_add(rhs.0))
    }
}
impl AddAssign for Time {
    #[inline]
    fn add_assign(&mut self, rhs: Time) {
        self.0 = self.0.saturating_add(rhs.0);
    }
}
impl Sub for Time {
    type Output = Time;
    /// Saturating: an interval is never negative.
    #[inline]
    fn sub(self, rhs: Time) -> Time {
        Time(self.0.saturating_sub(rhs.0))
    }
}
impl Mul<u64> for Time {
    type Output = Time;
    #[inline]
    fn mul(self, rhs: u64) -> Time {
        Time(self.0.saturating_mul(rhs))
    }
}

impl fmt::Debug for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self)
    }
}
impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ns = self.0;
        if ns == u64::MAX {
            write!(f, "inf")
        } else if ns.is_multiple_of(1_000_000_000) {
            write!(f, "{}s", ns / 1_000_000_000)
        } else if ns.is_multiple_of(1_000_000) {
            write!(f, "{}ms", ns / 1_000_000)
        } else if ns.is_multiple_of(1_000) {
            write!(f, "{}us", ns / 1_000)
        } else {
            write!(f, "{}ns", ns)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transmission_time_rounds_up() {
        // 1500 bytes at 15 Mbit/s = 800 us exactly.
        assert_eq!(Time::transmission(1500, 15_000_000), Time::from_micros(800));
        // 1 byte at 3 bit/s = 2.666.. s, rounded up.
        assert_eq!(Time::transmission(1, 3), Time(2_666_666_667));
        // Past 64 bits of bit-nanoseconds: the 128-bit path, same rounding.
        assert_eq!(
            Time::transmission(3_000_000_000, 7),
            Time(3_428_571_428_571_428_572)
        );
    }

    #[test]
    fn display_picks_the_coarsest_exact_unit() {
        assert_eq!(Time::from_secs(2).to_string(), "2s");
        assert_eq!(Time::from_millis(20).to_string(), "20ms");
        assert_eq!(Time(1500).to_string(), "1500ns");
    }

    #[test]
    fn subtraction_saturates() {
        assert_eq!(Time(3) - Time(5), Time::ZERO);
    }
}
