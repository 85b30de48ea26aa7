//! Congestion control: how cwnd grows on ACKs and where ssthresh goes on a
//! congestion event. The loss-recovery machinery (when an event happens,
//! what is retransmitted) lives in the sender; an algorithm here only
//! decides window sizes. cwnd and ssthresh are in segments, as the papers
//! count them.
//!
//! A closed set dispatched by `match`: no trait objects on the per-ACK path.

mod reno;

pub use reno::Reno;

use reorderlab_sim::Time;

/// What a congestion-control algorithm sees on each ACK of new data.
#[derive(Clone, Copy, Debug)]
pub struct AckSample {
    pub now: Time,
    /// Segments newly acknowledged (cumulatively) by this ACK.
    pub acked: u32,
    /// Latest RTT sample, if this ACK gave one.
    pub rtt: Option<Time>,
    /// Smallest RTT seen so far.
    pub min_rtt: Option<Time>,
    /// Segments outstanding after this ACK.
    pub flight: u32,
}

/// A congestion-control algorithm.
#[derive(Clone, Debug)]
pub enum CongestionControl {
    Reno(Reno),
}

impl CongestionControl {
    /// Short name as used in scenario files (`cc = "reno"`).
    pub fn name(&self) -> &'static str {
        match self {
            CongestionControl::Reno(_) => "reno",
        }
    }

    /// Grows `cwnd` for an ACK of new data outside loss recovery.
    #[inline]
    pub fn on_ack(&mut self, cwnd: &mut f64, ssthresh: f64, s: &AckSample) {
        match self {
            CongestionControl::Reno(r) => r.on_ack(cwnd, ssthresh, s),
        }
    }

    /// ssthresh after a congestion event detected at `now`, given the window
    /// and the data in flight.
    #[inline]
    pub fn ssthresh_after_loss(&mut self, now: Time, cwnd: f64, flight: u32) -> f64 {
        match self {
            CongestionControl::Reno(r) => r.ssthresh_after_loss(now, cwnd, flight),
        }
    }
}
