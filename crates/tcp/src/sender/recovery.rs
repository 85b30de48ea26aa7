//! The loss-recovery algorithms of the baseline variants: how a sender
//! decides a segment is lost from the ACK stream, what it retransmits
//! during recovery, and what cwnd does meanwhile.

/// Loss recovery as in RFC 5681 (Reno), RFC 6582 (NewReno), RFC 6675
/// (conservative SACK recovery), Mathis and Mahdavi's FACK, and the Eifel
/// paper's NewReno-SACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecoveryAlgo {
    /// Fast retransmit and fast recovery with window inflation; leaves
    /// recovery on the first new ACK (RFC 5681 Section 3.2).
    Reno,
    /// Stays in recovery until `recover` is ACKed, retransmitting on each
    /// partial ACK (RFC 6582 Section 3.2).
    NewReno,
    /// Pipe-based conservative recovery with NextSeg (RFC 6675 Section 5).
    Sack,
    /// Forward acknowledgment: data between SND.UNA and SND.FACK that is not
    /// SACKed is taken to have left the network (Mathis and Mahdavi 1996).
    Fack,
    /// RFC 6675 recovery that retransmits at least one segment on every
    /// partial ACK (Eifel response paper, Section III-A).
    NewRenoSack,
    /// No ACK-clocked loss detection at all: TCP-PR's per-packet timers
    /// decide (the sender's `pr` state, `tcp_pr.rs`).
    TcpPr,
}

impl RecoveryAlgo {
    /// Reno-style window inflation by one segment per duplicate ACK.
    pub fn inflates_window(self) -> bool {
        matches!(self, RecoveryAlgo::Reno | RecoveryAlgo::NewReno)
    }
    /// Uses SACK information to choose retransmissions.
    pub fn uses_sack(self) -> bool {
        matches!(
            self,
            RecoveryAlgo::Sack | RecoveryAlgo::Fack | RecoveryAlgo::NewRenoSack
        )
    }
}
