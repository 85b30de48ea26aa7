//! Spurious-retransmission detection and response: finding out that a
//! retransmission was not needed (the original arrived), and what the
//! sender then does about the window cut it made. Each file is one
//! mechanism: `dsack.rs` detects with DSACK (RFC 2883, RFC 3708); the
//! responses restore a [`Checkpoint`] of the congestion state taken when
//! the cut was made.

mod dsack;

pub use dsack::DsackDetector;

use super::state::SenderState;

/// The congestion state before a cut, to go back to if the cut proves spurious.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Checkpoint {
    pub cwnd: f64,
    pub ssthresh: f64,
}

impl Checkpoint {
    pub fn take(st: &SenderState) -> Self {
        Checkpoint {
            cwnd: st.cwnd,
            ssthresh: st.ssthresh,
        }
    }
}

/// What a detector found: a recovery whose retransmissions were all spurious.
#[derive(Clone, Copy, Debug)]
pub struct SpuriousRecovery {
    /// The congestion state before the recovery's cut.
    pub before: Checkpoint,
    /// The recovery's RecoveryPoint.
    pub recover: u64,
    /// Duplicate ACKs that arrived for the hole before it was filled.
    pub dupacks_seen: u32,
}

/// How the sender answers a spurious recovery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Response {
    /// Nothing changes (DSACK-NM, TCP-PR Section VI).
    None,
    /// Slow-start back to the window before the cut: ssthresh = prior cwnd
    /// (Blanton and Allman; TCP-PR footnote 2).
    SlowStartBack,
}

impl Response {
    pub fn apply(self, st: &mut SenderState, e: &SpuriousRecovery) {
        match self {
            Response::None => {}
            Response::SlowStartBack => {
                st.ssthresh = st.ssthresh.max(e.before.cwnd);
                if st.in_recovery && st.sb.una() >= e.recover {
                    st.in_recovery = false;
                }
            }
        }
    }
}

/// A sender's spurious-retransmission detection and response.
#[derive(Clone, Debug)]
pub struct Spurious {
    /// DSACK detection of spurious recoveries, when DSACK is in use.
    pub dsack: Option<DsackDetector>,
    pub response: Response,
}

impl Spurious {
    pub fn off() -> Self {
        Spurious {
            dsack: None,
            response: Response::None,
        }
    }
}
