//! TCP segments as the simulator carries them: one-way data segments
//! (sender to receiver) and pure ACKs (receiver to sender), as in the
//! papers' ns-2 one-way agents.
//!
//! Sequence numbers are 64-bit byte offsets from the start of the transfer;
//! with 64 bits they never wrap, which removes a class of bugs that says
//! nothing about reordering. Timestamps (RFC 7323) carry the sender's clock
//! in nanoseconds: a real TSval ticks coarser, but the Eifel test only needs
//! a retransmission to carry a newer TSval than the original.

use reorderlab_sim::Time;

/// A byte sequence number (offset from the first data byte).
pub type Seq = u64;

/// IPv4 + TCP headers without options (RFC 791, RFC 9293 Section 3.1).
pub const HEADER_BYTES: u32 = 40;
/// Timestamp option: kind, length, TSval, TSecr (RFC 7323 Section 3).
pub const TIMESTAMP_OPTION_BYTES: u32 = 10;
/// Most SACK blocks an ACK carries: 4, or 3 next to timestamps (RFC 2018 Section 3).
pub const MAX_SACK_BLOCKS: usize = 4;

/// One SACK block `[start, end)` (RFC 2018 Section 3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlock {
    pub start: Seq,
    pub end: Seq,
}

/// Why a data segment is being sent. Not on the wire: it lets the simulator
/// hold each retransmission up against the ground truth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TxKind {
    /// First transmission of this data.
    #[default]
    New,
    /// The retransmission that starts a fast recovery (the "fast retransmit").
    FastRetransmit,
    /// The first retransmission after a retransmission timeout.
    Timeout,
    /// Any other retransmission (later holes in recovery, go-back-N after a
    /// timeout, a TCP-PR drop detection, ...).
    Retransmit,
}

impl TxKind {
    pub fn is_retransmission(self) -> bool {
        self != TxKind::New
    }
}

/// A data segment from sender to receiver.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DataSegment {
    /// First byte carried.
    pub seq: Seq,
    /// Payload bytes (at most the MSS).
    pub len: u32,
    /// TSval, when timestamps are in use (RFC 7323 Section 3).
    pub ts_val: Option<Time>,
    /// Why the sender sent it (simulator metadata).
    pub kind: TxKind,
}

impl DataSegment {
    pub fn end(&self) -> Seq {
        self.seq + self.len as u64
    }
    /// Bytes on the wire: headers, options, payload.
    pub fn wire_bytes(&self) -> u32 {
        let opts = if self.ts_val.is_some() {
            TIMESTAMP_OPTION_BYTES
        } else {
            0
        };
        HEADER_BYTES + opts.next_multiple_of(4) + self.len
    }
}

/// A pure ACK from receiver to sender.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AckSegment {
    /// Cumulative acknowledgment: next byte expected (RFC 9293 Section 3.4).
    pub ack: Seq,
    /// SACK blocks in use: `sack[..sack_len]`, most recent first (RFC 2018 Section 4).
    pub sack: [SackBlock; MAX_SACK_BLOCKS],
    pub sack_len: u8,
    /// The first SACK block reports a duplicate segment (DSACK, RFC 2883 Section 4).
    pub dsack: bool,
    /// TSval of the receiver and TSecr echoing the sender (RFC 7323 Section 4.3).
    pub ts_val: Option<Time>,
    pub ts_ecr: Option<Time>,
    /// Advertised receive window in bytes (window scaling assumed).
    pub rwnd: u64,
}

impl AckSegment {
    pub fn sack_blocks(&self) -> &[SackBlock] {
        &self.sack[..self.sack_len as usize]
    }
    /// The DSACK block, when the first block is one (RFC 2883 Section 4).
    pub fn dsack_block(&self) -> Option<SackBlock> {
        if self.dsack && self.sack_len > 0 {
            Some(self.sack[0])
        } else {
            None
        }
    }
    /// Appends a block if room remains; returns false when full.
    pub fn push_sack(&mut self, b: SackBlock) -> bool {
        let limit = if self.ts_val.is_some() {
            MAX_SACK_BLOCKS - 1
        } else {
            MAX_SACK_BLOCKS
        };
        if (self.sack_len as usize) < limit {
            self.sack[self.sack_len as usize] = b;
            self.sack_len += 1;
            true
        } else {
            false
        }
    }
    /// Bytes on the wire: headers and options padded to 32 bits.
    pub fn wire_bytes(&self) -> u32 {
        let mut opts = 0;
        if self.ts_val.is_some() {
            opts += TIMESTAMP_OPTION_BYTES;
        }
        if self.sack_len > 0 {
            opts += 2 + 8 * self.sack_len as u32;
        }
        HEADER_BYTES + opts.next_multiple_of(4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_sizes_count_options() {
        let d = DataSegment {
            seq: 0,
            len: 1460,
            ..Default::default()
        };
        assert_eq!(d.wire_bytes(), 1500);
        let d = DataSegment {
            ts_val: Some(Time(1)),
            ..d
        };
        assert_eq!(d.wire_bytes(), 1512);
        let mut a = AckSegment::default();
        assert_eq!(a.wire_bytes(), 40);
        for i in 0..5 {
            a.push_sack(SackBlock {
                start: i * 10,
                end: i * 10 + 5,
            });
        }
        assert_eq!(a.sack_len, 4, "4 blocks without timestamps");
        assert_eq!(a.wire_bytes(), 40 + 36);
        let mut a = AckSegment {
            ts_val: Some(Time(1)),
            ts_ecr: Some(Time(1)),
            ..Default::default()
        };
        for i in 0..5 {
            a.push_sack(SackBlock {
                start: i * 10,
                end: i * 10 + 5,
            });
        }
        assert_eq!(a.sack_len, 3, "3 blocks next to timestamps");
        assert_eq!(a.wire_bytes(), 40 + 36);
    }
}
