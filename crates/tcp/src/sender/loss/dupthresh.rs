//! DupThresh: loss is signalled by DupThresh duplicate ACKs (RFC 5681
//! Section 3.2; RFC 6675 Section 5 steps 1-2), with DupThresh fixed (3 by
//! default) or adapted after spurious fast retransmits as Blanton and Allman
//! propose (described in TCP-PR Sections II and VI and RR-TCP Section 3).

/// How dupthresh reacts to a spurious fast retransmit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DupthreshPolicy {
    /// dupthresh stays at its configured value.
    Fixed,
    /// "increments the dupthresh by one every time a spurious
    /// retransmission is detected" (TCP-PR Section VI).
    Inc1,
    /// "increases the dupthresh such that the just observed spurious
    /// retransmission would not have occurred" (TCP-PR Section VI): one more
    /// than the duplicate ACKs that arrived for the hole.
    IncN,
    /// dupthresh = (1 - gain) * dupthresh + gain * (duplicate ACKs observed
    /// for the hole): "an exponentially weighted moving average of the number
    /// of DUPACKs received" (TCP-PR Section II).
    Ewma { gain: f64 },
}

/// Upper bound on an adapted dupthresh as a fraction of cwnd, so a large
/// dupthresh never stops fast retransmit altogether (Blanton and Allman's
/// limit of 0.9 cwnd, as reported in RR-TCP Section 3).
pub const DUPTHRESH_CWND_CAP: f64 = 0.9;

/// DupThresh, fixed or adaptive.
#[derive(Clone, Debug)]
pub struct DupThresh {
    pub policy: DupthreshPolicy,
    /// The adapted dupthresh (fractional for the EWMA).
    pub value: f64,
    /// The configured dupthresh, restored on a timeout.
    pub base: f64,
}

impl DupThresh {
    pub fn new(dupthresh: u32, policy: DupthreshPolicy) -> Self {
        DupThresh {
            policy,
            value: dupthresh as f64,
            base: dupthresh as f64,
        }
    }

    /// The dupthresh in force: the configured value, or the adapted one
    /// held between the configured value and 0.9 cwnd.
    #[inline]
    pub fn effective(&self, cwnd: f64) -> u32 {
        if self.policy == DupthreshPolicy::Fixed {
            return self.base as u32;
        }
        let cap = (DUPTHRESH_CWND_CAP * cwnd).floor().max(self.base);
        self.value.round().clamp(self.base, cap) as u32
    }

    /// A spurious fast retransmit for which `seen` duplicate ACKs arrived.
    pub fn on_spurious(&mut self, seen: u32) {
        let seen = seen as f64;
        self.value = match self.policy {
            DupthreshPolicy::Fixed => self.value,
            DupthreshPolicy::Inc1 => self.value + 1.0,
            DupthreshPolicy::IncN => self.value.max(seen + 1.0),
            DupthreshPolicy::Ewma { gain } => (1.0 - gain) * self.value + gain * seen,
        };
    }

    /// A timeout: dupthresh goes back to its configured value (Blanton and
    /// Allman, RR-TCP Section 3).
    pub fn on_timeout(&mut self) {
        self.value = self.base;
    }
}
