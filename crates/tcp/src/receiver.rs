//! The sans-IO TCP data receiver: cumulative ACKs, SACK (RFC 2018), DSACK
//! (RFC 2883), timestamp echo (RFC 7323 Section 4.3) and delayed ACKs
//! (RFC 5681 Section 4.2, RFC 1122 Section 4.2.3.2).
//!
//! The receiver never reads a clock and never schedules anything: the caller
//! hands it `now` with each segment, asks [`Receiver::next_wakeup`] when the
//! delayed-ACK timer is due and calls [`Receiver::on_timer`] then.
//!
//! Out-of-order data is kept as a sorted `Vec` of disjoint, non-adjacent byte
//! ranges above `rcv_nxt` (no payload is stored: the simulator only needs to
//! know which bytes arrived). Each range carries the "stamp" of the last time
//! it was reported as the first SACK block; listing ranges by stamp, newest
//! first, is exactly RFC 2018's "repeat the most recently reported blocks",
//! and merged or delivered ranges drop out of that history by themselves.
//!
//! Simplifications, all deliberate:
//! - the advertised window is the configured buffer minus the bytes held out
//!   of order (the application is assumed to read in-order data at once), and
//!   data beyond it is still accepted rather than trimmed;
//! - the delayed-ACK rule is byte-based: an ACK is due once at least two
//!   full-sized segments (2 * MSS bytes) of in-order data are unacknowledged,
//!   which for full-sized segments is "every second segment";
//! - with timestamps on but no TS.Recent yet (the first arrivals were all out
//!   of order), ACKs carry `ts_ecr = None` rather than a made-up echo.

use reorderlab_sim::Time;

use crate::segment::{AckSegment, DataSegment, SackBlock, Seq};

/// Delayed-ACK timeout: 100 ms as in ns-2 (RFC 1122 Section 4.2.3.2 caps it at 500 ms).
pub const DEFAULT_DELACK_TIMEOUT: Time = Time::from_millis(100);

/// Receiver options (RFC 2018, RFC 2883, RFC 7323, RFC 5681 Section 4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReceiverConfig {
    /// Send SACK blocks (RFC 2018); false for Reno/NewReno flows.
    pub sack: bool,
    /// Report duplicates as DSACK (RFC 2883); only takes effect with `sack`.
    pub dsack: bool,
    /// Echo timestamps (RFC 7323).
    pub timestamps: bool,
    /// Delay ACKs for in-order data (RFC 5681 Section 4.2, RFC 1122 Section 4.2.3.2).
    pub delayed_ack: bool,
    /// How long an ACK may be delayed; [`DEFAULT_DELACK_TIMEOUT`] by default.
    pub delack_timeout: Time,
    /// Receive buffer in bytes: the advertised window offered from RCV.NXT.
    pub rwnd: u64,
    /// Shrink the advertised window by the bytes held out of order. Off by
    /// default: a real receiver offers its buffer from RCV.NXT with the
    /// out-of-order data inside that window, and never moves the window's
    /// right edge left (RFC 9293 Section 3.8.6), so the sender may fill the
    /// whole buffer above RCV.NXT while a hole is open.
    pub rwnd_minus_ooo: bool,
    /// Sender's maximum segment size, which defines a "full-sized" segment.
    pub mss: u32,
}

impl Default for ReceiverConfig {
    /// SACK + DSACK + timestamps + delayed ACKs, MSS 1460, unlimited buffer.
    fn default() -> Self {
        ReceiverConfig {
            sack: true,
            dsack: true,
            timestamps: true,
            delayed_ack: true,
            delack_timeout: DEFAULT_DELACK_TIMEOUT,
            // Unlimited: the papers' flows are limited by the sender's window.
            rwnd: u64::MAX,
            rwnd_minus_ooo: false,
            mss: 1460,
        }
    }
}

/// What one data segment produced (RFC 9293 Section 3.10.7.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecvOutcome {
    /// The ACK to send now, if any (RFC 5681 Section 4.2).
    pub ack: Option<AckSegment>,
    /// Bytes newly delivered in order to the application by this segment.
    pub delivered: u64,
}

/// One maximal run of out-of-order bytes `[start, end)` above `rcv_nxt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Range {
    start: Seq,
    end: Seq,
    /// When this block was last reported first in a SACK option (larger = later).
    stamp: u64,
}

/// A sans-IO TCP receiver (RFC 9293 Section 3.10.7.4 with RFC 2018/2883/7323/5681).
#[derive(Clone, Debug)]
pub struct Receiver {
    cfg: ReceiverConfig,
    /// Next in-order byte expected; the cumulative ACK.
    rcv_nxt: Seq,
    /// Total bytes handed to the application in order.
    delivered: u64,
    /// Out-of-order data, sorted, disjoint and non-adjacent, all above `rcv_nxt`.
    ooo: Vec<Range>,
    /// Sum of the lengths in `ooo`, kept so the window costs nothing to compute.
    ooo_bytes: u64,
    /// Source of [`Range::stamp`] values; starts at 1 and only grows.
    next_stamp: u64,
    /// RFC 7323 Section 4.3: the TSval to echo.
    ts_recent: Option<Time>,
    /// RFC 7323 Section 4.3: the ACK field of the last ACK sent.
    last_ack_sent: Seq,
    /// A delayed ACK is owed (RFC 5681 Section 4.2).
    ack_pending: bool,
    /// When the owed ACK must go out at the latest.
    delack_deadline: Time,
    /// In-order bytes received since the last ACK.
    unacked_bytes: u64,
}

impl Receiver {
    /// A receiver expecting byte 0 first (RFC 9293 Section 3.10.7.4).
    pub fn new(cfg: ReceiverConfig) -> Self {
        Receiver {
            cfg,
            rcv_nxt: 0,
            delivered: 0,
            ooo: Vec::with_capacity(16),
            ooo_bytes: 0,
            next_stamp: 1,
            ts_recent: None,
            last_ack_sent: 0,
            ack_pending: false,
            delack_deadline: Time::ZERO,
            unacked_bytes: 0,
        }
    }

    /// Processes one data segment (RFC 9293 Section 3.10.7.4, RFC 5681 Section 4.2).
    pub fn on_data(&mut self, now: Time, seg: &DataSegment) -> RecvOutcome {
        let start = seg.seq;
        // Saturate rather than overflow: a segment reaching past 2^64 is truncated.
        let end = seg.seq.saturating_add(seg.len as u64);
        if end <= start {
            // Zero-length (or fully truncated): nothing to acknowledge.
            return RecvOutcome::default();
        }

        // RFC 7323 Section 4.3 rule (2): only a segment covering the left edge
        // of the window updates TS.Recent, so out-of-order arrivals keep the echo
        // of the last segment that advanced the window, delayed ACKs echo the
        // earliest unacknowledged segment and a hole-filler gets its own echoed.
        if self.cfg.timestamps {
            if let Some(tsv) = seg.ts_val {
                let newer = !matches!(self.ts_recent, Some(r) if tsv < r);
                if start <= self.last_ack_sent && newer {
                    self.ts_recent = Some(tsv);
                }
            }
        }

        let rcv_nxt_before = self.rcv_nxt;
        let had_ooo = !self.ooo.is_empty();
        let dup = self.first_duplicate(start, end);

        // Only the part above rcv_nxt can be new.
        let new_start = start.max(self.rcv_nxt);
        if new_start < end {
            self.insert(new_start, end);
        }
        let delivered = self.deliver();

        // RFC 5681 Section 4.2: ACK at once for out-of-order data, duplicates and
        // gap-filling (with out-of-order data buffered, any in-order segment
        // fills all or part of a gap); otherwise delay.
        let immediate = !self.cfg.delayed_ack || dup.is_some() || start > rcv_nxt_before || had_ooo;

        let ack = if immediate {
            let dsack = if self.cfg.sack && self.cfg.dsack {
                dup
            } else {
                None
            };
            Some(self.build_ack(now, dsack))
        } else {
            self.unacked_bytes += delivered;
            if !self.ack_pending {
                // RFC 1122 4.2.3.2: the delay runs from the first unacknowledged segment.
                self.ack_pending = true;
                self.delack_deadline = now + self.cfg.delack_timeout;
            }
            if self.unacked_bytes >= 2 * self.cfg.mss as u64 {
                Some(self.build_ack(now, None))
            } else {
                None
            }
        };
        RecvOutcome { ack, delivered }
    }

    /// Delayed-ACK timer (RFC 5681 Section 4.2): the owed ACK once its deadline has passed.
    pub fn on_timer(&mut self, now: Time) -> Option<AckSegment> {
        if self.ack_pending && now >= self.delack_deadline {
            Some(self.build_ack(now, None))
        } else {
            None
        }
    }

    /// Delayed-ACK deadline while an ACK is owed (RFC 1122 Section 4.2.3.2).
    pub fn next_wakeup(&self) -> Option<Time> {
        self.ack_pending.then_some(self.delack_deadline)
    }

    /// RCV.NXT, the next in-order byte expected (RFC 9293 Section 3.3.1).
    pub fn rcv_nxt(&self) -> Seq {
        self.rcv_nxt
    }

    /// Total bytes delivered to the application in order (RFC 9293 Section 3.10.7.4).
    pub fn delivered_bytes(&self) -> u64 {
        self.delivered
    }

    /// Bytes held out of order above RCV.NXT (RFC 2018 Section 1 "queued" data).
    pub fn ooo_bytes(&self) -> u64 {
        self.ooo_bytes
    }

    /// Advertised window (RFC 9293 Section 3.8.6): the buffer, offered from
    /// RCV.NXT; less the out-of-order bytes when so configured.
    pub fn rwnd(&self) -> u64 {
        if self.cfg.rwnd_minus_ooo {
            self.cfg.rwnd.saturating_sub(self.ooo_bytes)
        } else {
            self.cfg.rwnd
        }
    }

    /// TS.Recent, the TSval echoed next (RFC 7323 Section 4.3).
    pub fn ts_recent(&self) -> Option<Time> {
        self.ts_recent
    }

    /// The configuration this receiver runs with (RFC 2018/2883/7323/5681 options).
    pub fn config(&self) -> &ReceiverConfig {
        &self.cfg
    }

    /// The out-of-order blocks in sequence order (RFC 2018 Section 3 block definition).
    pub fn ooo_blocks(&self) -> impl Iterator<Item = SackBlock> + '_ {
        self.ooo.iter().map(|r| SackBlock {
            start: r.start,
            end: r.end,
        })
    }

    /// RFC 2883 Section 4.2: the first (lowest) already-received part of
    /// `[start, end)`, either below rcv_nxt or inside a buffered range.
    fn first_duplicate(&self, start: Seq, end: Seq) -> Option<SackBlock> {
        if start < self.rcv_nxt {
            return Some(SackBlock {
                start,
                end: end.min(self.rcv_nxt),
            });
        }
        let i = self.ooo.partition_point(|r| r.end <= start);
        let r = self.ooo.get(i)?;
        (r.start < end).then(|| SackBlock {
            start: start.max(r.start),
            end: end.min(r.end),
        })
    }

    /// Adds `[start, end)` (with `start >= rcv_nxt`) to the out-of-order set,
    /// merging every range it overlaps or touches, and marks the resulting
    /// range as the most recently reported one: it is the block containing the
    /// triggering segment, which RFC 2018 Section 4 puts first.
    fn insert(&mut self, start: Seq, end: Seq) {
        // Ranges i..j overlap or touch [start, end).
        let i = self.ooo.partition_point(|r| r.end < start);
        let j = self.ooo.partition_point(|r| r.start <= end);
        let stamp = self.next_stamp;
        self.next_stamp += 1;
        if i == j {
            self.ooo.insert(i, Range { start, end, stamp });
            self.ooo_bytes += end - start;
            return;
        }
        let old: u64 = self.ooo[i..j].iter().map(|r| r.end - r.start).sum();
        let merged = Range {
            start: start.min(self.ooo[i].start),
            end: end.max(self.ooo[j - 1].end),
            stamp,
        };
        self.ooo[i] = merged;
        self.ooo.drain(i + 1..j);
        self.ooo_bytes = self.ooo_bytes - old + (merged.end - merged.start);
    }

    /// Moves rcv_nxt through the range now starting at it, if any; returns the
    /// bytes delivered. Ranges are non-adjacent, so at most one becomes contiguous.
    fn deliver(&mut self) -> u64 {
        match self.ooo.first() {
            Some(r) if r.start <= self.rcv_nxt => {
                let r = self.ooo.remove(0);
                let n = r.end - self.rcv_nxt;
                self.ooo_bytes -= r.end - r.start;
                self.rcv_nxt = r.end;
                self.delivered += n;
                n
            }
            _ => 0,
        }
    }

    /// Builds the ACK for the current state and records it as sent.
    fn build_ack(&mut self, now: Time, dsack: Option<SackBlock>) -> AckSegment {
        let mut ack = AckSegment {
            ack: self.rcv_nxt,
            rwnd: self.rwnd(),
            ..Default::default()
        };
        if self.cfg.timestamps {
            // Set before any SACK block: push_sack's limit depends on it.
            ack.ts_val = Some(now);
            ack.ts_ecr = self.ts_recent;
        }
        if self.cfg.sack {
            if let Some(d) = dsack {
                // RFC 2883 Section 4: the duplicate goes first, flagged; the
                // containing block (if above rcv_nxt) is the newest stamp, so
                // it comes next, as Section 4 guideline (4) asks.
                ack.push_sack(d);
                ack.dsack = true;
            }
            // RFC 2018 Section 4: most recently reported first. Stamps are
            // unique, so "largest stamp below the previous one" walks the
            // history without sorting or allocating.
            let mut below = u64::MAX;
            loop {
                let next = self
                    .ooo
                    .iter()
                    .filter(|r| r.stamp < below)
                    .max_by_key(|r| r.stamp);
                let Some(r) = next else { break };
                below = r.stamp;
                if !ack.push_sack(SackBlock {
                    start: r.start,
                    end: r.end,
                }) {
                    break;
                }
            }
        }
        self.last_ack_sent = self.rcv_nxt;
        self.ack_pending = false;
        self.unacked_bytes = 0;
        ack
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const MSS: u32 = 1000;

    fn cfg() -> ReceiverConfig {
        ReceiverConfig {
            sack: true,
            dsack: true,
            timestamps: false,
            delayed_ack: false,
            delack_timeout: DEFAULT_DELACK_TIMEOUT,
            rwnd: 1 << 20,
            rwnd_minus_ooo: false,
            mss: MSS,
        }
    }

    fn seg(seq: Seq, len: u32) -> DataSegment {
        DataSegment {
            seq,
            len,
            ..Default::default()
        }
    }

    fn ts_seg(seq: Seq, len: u32, ts: u64) -> DataSegment {
        DataSegment {
            seq,
            len,
            ts_val: Some(Time(ts)),
            ..Default::default()
        }
    }

    fn blk(start: Seq, end: Seq) -> SackBlock {
        SackBlock { start, end }
    }

    /// Feeds a segment that must be ACKed at once and returns that ACK.
    fn ack_of(r: &mut Receiver, now: u64, s: DataSegment) -> AckSegment {
        r.on_data(Time(now), &s).ack.expect("an ACK")
    }

    /// Proves: in-order segments are delivered at once, the cumulative ACK is
    /// rcv_nxt, there are no SACK blocks, and the window is the whole buffer.
    #[test]
    fn in_order_delivery_and_cumulative_ack() {
        let mut r = Receiver::new(cfg());
        for i in 0..5u64 {
            let out = r.on_data(Time(i), &seg(i * 1000, MSS));
            assert_eq!(out.delivered, 1000);
            let a = out.ack.unwrap();
            assert_eq!(a.ack, (i + 1) * 1000);
            assert_eq!(a.sack_len, 0);
            assert!(!a.dsack);
            assert_eq!(a.rwnd, 1 << 20);
            assert_eq!((a.ts_val, a.ts_ecr), (None, None));
        }
        assert_eq!(r.rcv_nxt(), 5000);
        assert_eq!(r.delivered_bytes(), 5000);
    }

    /// Proves: the advertised window is the buffer offered from RCV.NXT
    /// whatever is held out of order, unless `rwnd_minus_ooo` asks the old
    /// way (window shrinks by the out-of-order bytes).
    #[test]
    fn out_of_order_data_sits_inside_the_window_unless_configured_to_shrink_it() {
        let mut r = Receiver::new(cfg());
        let out = r.on_data(Time(0), &seg(2000, MSS));
        assert_eq!(out.ack.unwrap().rwnd, 1 << 20);
        let mut r = Receiver::new(ReceiverConfig {
            rwnd_minus_ooo: true,
            ..cfg()
        });
        let out = r.on_data(Time(0), &seg(2000, MSS));
        assert_eq!(out.ack.unwrap().rwnd, (1 << 20) - 1000);
    }

    /// Proves: out-of-order data is held (not delivered) and released in one
    /// go when the hole fills, through every contiguous range.
    #[test]
    fn out_of_order_buffered_then_delivered_when_hole_fills() {
        let mut r = Receiver::new(cfg());
        assert_eq!(r.on_data(Time(0), &seg(2000, MSS)).delivered, 0);
        let out = r.on_data(Time(0), &seg(3000, MSS));
        assert_eq!(out.delivered, 0);
        assert_eq!(out.ack.unwrap().ack, 0);
        assert_eq!(out.ack.unwrap().rwnd, 1 << 20);
        assert_eq!(r.on_data(Time(0), &seg(5000, MSS)).delivered, 0);
        assert_eq!(r.ooo_bytes(), 3000);
        // Fill [0, 1000): still a hole at 1000.
        assert_eq!(r.on_data(Time(0), &seg(0, MSS)).delivered, 1000);
        // Fill [1000, 2000): runs through [2000, 4000), stops at the hole at 4000.
        let out = r.on_data(Time(0), &seg(1000, MSS));
        assert_eq!(out.delivered, 3000);
        assert_eq!(out.ack.unwrap().ack, 4000);
        assert_eq!(out.ack.unwrap().sack_blocks(), &[blk(5000, 6000)]);
        assert_eq!(r.on_data(Time(0), &seg(4000, MSS)).delivered, 2000);
        assert_eq!(r.rcv_nxt(), 6000);
        assert_eq!(r.delivered_bytes(), 6000);
        assert_eq!(r.ooo_bytes(), 0);
    }

    /// Proves: RFC 2018 Section 4 ordering — the block holding the triggering
    /// segment first, then earlier-reported blocks most recent first — and that
    /// every block is the maximal range (adjacent arrivals merge).
    #[test]
    fn sack_blocks_most_recent_first_and_maximal() {
        let mut r = Receiver::new(cfg());
        let a = ack_of(&mut r, 0, seg(1000, MSS));
        assert_eq!(a.sack_blocks(), &[blk(1000, 2000)]);
        let a = ack_of(&mut r, 0, seg(5000, MSS));
        assert_eq!(a.sack_blocks(), &[blk(5000, 6000), blk(1000, 2000)]);
        let a = ack_of(&mut r, 0, seg(3000, MSS));
        assert_eq!(
            a.sack_blocks(),
            &[blk(3000, 4000), blk(5000, 6000), blk(1000, 2000)]
        );
        // [2000, 3000) joins [1000,2000) and [3000,4000) into one maximal block,
        // which is the newest; the merged-away history entries do not repeat.
        let a = ack_of(&mut r, 0, seg(2000, MSS));
        assert_eq!(a.sack_blocks(), &[blk(1000, 4000), blk(5000, 6000)]);
        // Extending a block on its right edge keeps it maximal and first.
        let a = ack_of(&mut r, 0, seg(6000, MSS));
        assert_eq!(a.sack_blocks(), &[blk(5000, 7000), blk(1000, 4000)]);
        assert_eq!(a.ack, 0);
        assert!(!a.dsack);
    }

    /// Proves: at most 4 blocks without timestamps and 3 with, keeping the
    /// most recent ones.
    #[test]
    fn sack_block_limits_four_and_three_with_timestamps() {
        for (timestamps, limit) in [(false, 4), (true, 3)] {
            let mut r = Receiver::new(ReceiverConfig {
                timestamps,
                ..cfg()
            });
            let mut last = None;
            for i in 1..=6u64 {
                last = Some(ack_of(&mut r, i, ts_seg(2000 * i, MSS, i)));
            }
            let a = last.unwrap();
            let want: Vec<SackBlock> = (1..=6u64)
                .rev()
                .take(limit)
                .map(|i| blk(2000 * i, 2000 * i + 1000))
                .collect();
            assert_eq!(a.sack_blocks(), &want[..], "timestamps={timestamps}");
        }
    }

    /// Proves: blocks that rcv_nxt has passed are never reported again, and
    /// a block that is not first in recency but still buffered stays listed.
    #[test]
    fn blocks_covered_by_rcv_nxt_disappear() {
        let mut r = Receiver::new(cfg());
        ack_of(&mut r, 0, seg(1000, MSS));
        ack_of(&mut r, 0, seg(3000, MSS));
        // Filling [0, 1000) delivers [0, 2000); only [3000, 4000) is left.
        let a = ack_of(&mut r, 0, seg(0, MSS));
        assert_eq!(a.ack, 2000);
        assert_eq!(a.sack_blocks(), &[blk(3000, 4000)]);
        // Filling the last hole leaves no blocks at all.
        let a = ack_of(&mut r, 0, seg(2000, MSS));
        assert_eq!(a.ack, 4000);
        assert_eq!(a.sack_len, 0);
    }

    /// Proves: RFC 2883 Section 4.1.1 — a duplicate below the cumulative ACK is
    /// reported as the first, DSACK-flagged block, exactly once.
    #[test]
    fn dsack_for_duplicate_below_rcv_nxt() {
        let mut r = Receiver::new(cfg());
        for i in 0..8u64 {
            r.on_data(Time(0), &seg(i * 500, 500));
        }
        let a = ack_of(&mut r, 0, seg(3000, 500));
        assert_eq!(a.ack, 4000);
        assert!(a.dsack);
        assert_eq!(a.dsack_block(), Some(blk(3000, 3500)));
        assert_eq!(a.sack_blocks(), &[blk(3000, 3500)]);
        // The next ACK does not repeat it.
        let a = ack_of(&mut r, 0, seg(4000, 500));
        assert!(!a.dsack);
        assert_eq!(a.sack_len, 0);
    }

    /// Proves: RFC 2883 Section 4.1.2 — a below-cumulative-ACK duplicate while
    /// out-of-order data is held: DSACK block, then the usual SACK block.
    #[test]
    fn dsack_below_rcv_nxt_then_sack_blocks() {
        let mut r = Receiver::new(cfg());
        for i in 0..8u64 {
            r.on_data(Time(0), &seg(i * 500, 500));
        }
        ack_of(&mut r, 0, seg(4500, 500));
        let a = ack_of(&mut r, 0, seg(3000, 500));
        assert_eq!(a.ack, 4000);
        assert!(a.dsack);
        assert_eq!(a.sack_blocks(), &[blk(3000, 3500), blk(4500, 5000)]);
    }

    /// Proves: RFC 2883 Section 4.1.3 / guideline (4) — a duplicate of buffered
    /// out-of-order data gives the DSACK block, then the containing SACK block.
    #[test]
    fn dsack_inside_sacked_block_then_containing_block() {
        let mut r = Receiver::new(cfg());
        for i in 0..8u64 {
            r.on_data(Time(0), &seg(i * 500, 500));
        }
        ack_of(&mut r, 0, seg(4500, 500));
        let a = ack_of(&mut r, 0, seg(5000, 500));
        assert_eq!(a.sack_blocks(), &[blk(4500, 5500)]);
        // Another block, so the containing block is not first by accident.
        ack_of(&mut r, 0, seg(7000, 500));
        let a = ack_of(&mut r, 0, seg(5000, 500));
        assert_eq!(a.ack, 4000);
        assert!(a.dsack);
        assert_eq!(
            a.sack_blocks(),
            &[blk(5000, 5500), blk(4500, 5500), blk(7000, 7500)]
        );
        assert_eq!(r.ooo_bytes(), 1500, "a duplicate adds nothing");
    }

    /// Proves: RFC 2883 Section 4.2 — a partial duplicate reports only its
    /// first duplicate part (examples 4 and 6).
    #[test]
    fn dsack_partial_duplicates() {
        // Example 4: 1000-2000 arrives with 1000-1500 already acknowledged.
        let mut r = Receiver::new(cfg());
        r.on_data(Time(0), &seg(500, 500)); // out of order at first
        r.on_data(Time(0), &seg(0, 500));
        ack_of(&mut r, 0, seg(2000, 500));
        let a = ack_of(&mut r, 0, seg(1000, 500));
        assert_eq!((a.ack, a.sack_blocks()), (1500, &[blk(2000, 2500)][..]));
        let out = r.on_data(Time(0), &seg(1000, 1000));
        assert_eq!(out.delivered, 1000);
        let a = out.ack.unwrap();
        assert_eq!(a.ack, 2500);
        assert!(a.dsack);
        assert_eq!(a.sack_blocks(), &[blk(1000, 1500)]);

        // Example 6 shape: 1500-2999 arrives over two held, non-contiguous
        // pieces (1500-1999 and 2500-2999); only the first is DSACKed, then
        // the block it now belongs to.
        let mut r = Receiver::new(cfg());
        r.on_data(Time(0), &seg(0, 1000));
        ack_of(&mut r, 0, seg(3500, 500));
        ack_of(&mut r, 0, seg(1500, 500));
        let a = ack_of(&mut r, 0, seg(2500, 500));
        assert_eq!(
            a.sack_blocks(),
            &[blk(2500, 3000), blk(1500, 2000), blk(3500, 4000)]
        );
        let a = ack_of(&mut r, 0, seg(1500, 1500));
        assert_eq!(a.ack, 1000);
        assert!(a.dsack);
        assert_eq!(
            a.sack_blocks(),
            &[blk(1500, 2000), blk(1500, 3000), blk(3500, 4000)]
        );
    }

    /// Proves: with sack off no ACK ever carries a block, duplicates included;
    /// with dsack off a duplicate is not flagged.
    #[test]
    fn no_sack_blocks_when_sack_off() {
        let mut r = Receiver::new(ReceiverConfig {
            sack: false,
            ..cfg()
        });
        for s in [2000, 4000, 2000, 0, 0, 1000, 3000, 4000] {
            let a = ack_of(&mut r, 0, seg(s, MSS));
            assert_eq!(a.sack_len, 0);
            assert!(!a.dsack);
        }
        assert_eq!(r.rcv_nxt(), 5000);

        let mut r = Receiver::new(ReceiverConfig {
            dsack: false,
            ..cfg()
        });
        ack_of(&mut r, 0, seg(2000, MSS));
        let a = ack_of(&mut r, 0, seg(2000, MSS));
        assert!(!a.dsack);
        assert_eq!(a.sack_blocks(), &[blk(2000, 3000)]);
        r.on_data(Time(0), &seg(0, MSS));
        let a = ack_of(&mut r, 0, seg(0, MSS));
        assert!(!a.dsack);
        assert_eq!(a.sack_blocks(), &[blk(2000, 3000)]);
    }

    /// Proves: RFC 7323 Section 4.3 case (A) — a delayed ACK echoes the TSval
    /// of the earliest unacknowledged segment, and ts_val is the receiver's now.
    #[test]
    fn timestamp_delayed_ack_echoes_earlier_segment() {
        let mut r = Receiver::new(ReceiverConfig {
            timestamps: true,
            delayed_ack: true,
            ..cfg()
        });
        assert!(r.on_data(Time(50), &ts_seg(0, MSS, 10)).ack.is_none());
        let a = ack_of(&mut r, 60, ts_seg(1000, MSS, 20));
        assert_eq!(a.ts_ecr, Some(Time(10)));
        assert_eq!(a.ts_val, Some(Time(60)));
        // The next pair starts at Last.ACK.sent = 2000, so its first TSval wins.
        assert!(r.on_data(Time(70), &ts_seg(2000, MSS, 30)).ack.is_none());
        let a = ack_of(&mut r, 80, ts_seg(3000, MSS, 40));
        assert_eq!(a.ts_ecr, Some(Time(30)));
    }

    /// Proves: RFC 7323 Section 4.3 cases (B) and (C) — out-of-order segments
    /// leave TS.Recent alone (the echo is the last window-advancing segment),
    /// and the hole-filler's TSval is echoed even if it is older.
    #[test]
    fn timestamp_out_of_order_keeps_echo_and_hole_filler_is_echoed() {
        let mut r = Receiver::new(ReceiverConfig {
            timestamps: true,
            ..cfg()
        });
        assert_eq!(ack_of(&mut r, 1, ts_seg(0, MSS, 10)).ts_ecr, Some(Time(10)));
        // [1000, 2000) (TSval 20) is late; 30 and 40 arrive first.
        assert_eq!(
            ack_of(&mut r, 2, ts_seg(2000, MSS, 30)).ts_ecr,
            Some(Time(10))
        );
        assert_eq!(
            ack_of(&mut r, 3, ts_seg(3000, MSS, 40)).ts_ecr,
            Some(Time(10))
        );
        assert_eq!(r.ts_recent(), Some(Time(10)));
        let a = ack_of(&mut r, 4, ts_seg(1000, MSS, 20));
        assert_eq!(a.ack, 4000);
        assert_eq!(a.ts_ecr, Some(Time(20)));
        // A stale duplicate (older TSval) does not move TS.Recent backwards.
        let a = ack_of(&mut r, 5, ts_seg(0, MSS, 5));
        assert_eq!(a.ts_ecr, Some(Time(20)));
        // With timestamps on but no in-order arrival yet, there is no echo.
        let mut r = Receiver::new(ReceiverConfig {
            timestamps: true,
            ..cfg()
        });
        let a = ack_of(&mut r, 9, ts_seg(1000, MSS, 10));
        assert_eq!((a.ts_val, a.ts_ecr), (Some(Time(9)), None));
    }

    /// Proves: RFC 5681 Section 4.2 — the first full segment is held with the
    /// timer armed at now + timeout, the second is ACKed at once and disarms it.
    #[test]
    fn delayed_ack_every_second_full_segment() {
        let mut r = Receiver::new(ReceiverConfig {
            delayed_ack: true,
            ..cfg()
        });
        let t = Time::from_millis(5);
        let out = r.on_data(t, &seg(0, MSS));
        assert!(out.ack.is_none());
        assert_eq!(out.delivered, 1000);
        assert_eq!(r.next_wakeup(), Some(t + DEFAULT_DELACK_TIMEOUT));
        // The deadline runs from the first segment, not the latest.
        let a = ack_of(&mut r, t.0 + 10, seg(1000, MSS));
        assert_eq!(a.ack, 2000);
        assert_eq!(r.next_wakeup(), None);
        assert!(r.on_timer(Time::from_secs(10)).is_none());
        // A small segment alone does not complete a pair.
        assert!(r.on_data(t, &seg(2000, 100)).ack.is_none());
        assert!(r.on_data(t, &seg(2100, MSS)).ack.is_none());
        assert!(r.on_data(t, &seg(3100, MSS)).ack.is_some());
    }

    /// Proves: on_timer returns the owed ACK only once the deadline has passed,
    /// and only once.
    #[test]
    fn delayed_ack_timer_fires_after_deadline() {
        let mut r = Receiver::new(ReceiverConfig {
            delayed_ack: true,
            timestamps: true,
            ..cfg()
        });
        r.on_data(Time(1000), &ts_seg(0, MSS, 7));
        let deadline = r.next_wakeup().unwrap();
        assert_eq!(deadline, Time(1000) + DEFAULT_DELACK_TIMEOUT);
        assert!(r.on_timer(Time(deadline.0 - 1)).is_none());
        let a = r.on_timer(deadline).expect("timer ACK");
        assert_eq!(a.ack, 1000);
        assert_eq!(a.ts_ecr, Some(Time(7)));
        assert_eq!(a.ts_val, Some(deadline));
        assert_eq!(r.next_wakeup(), None);
        assert!(r.on_timer(deadline + Time(1)).is_none());
    }

    /// Proves: RFC 5681 Section 4.2 — with delayed ACKs on, an out-of-order
    /// segment and a duplicate are ACKed at once, and the owed ACK is cleared.
    #[test]
    fn out_of_order_and_duplicate_ack_immediately_with_delayed_ack() {
        let mut r = Receiver::new(ReceiverConfig {
            delayed_ack: true,
            ..cfg()
        });
        assert!(r.on_data(Time(0), &seg(0, MSS)).ack.is_none());
        assert!(r.next_wakeup().is_some());
        let a = ack_of(&mut r, 1, seg(2000, MSS));
        assert_eq!(a.ack, 1000);
        assert_eq!(a.sack_blocks(), &[blk(2000, 3000)]);
        assert_eq!(r.next_wakeup(), None, "sending any ACK clears the owed one");

        let mut r = Receiver::new(ReceiverConfig {
            delayed_ack: true,
            ..cfg()
        });
        assert!(r.on_data(Time(0), &seg(0, MSS)).ack.is_none());
        let a = ack_of(&mut r, 1, seg(0, MSS));
        assert_eq!(a.ack, 1000);
        assert!(a.dsack);
    }

    /// Proves: RFC 5681 Section 4.2 — a segment filling all or part of a gap is
    /// ACKed at once with delayed ACKs on, even a single one.
    #[test]
    fn gap_filling_acks_immediately_with_delayed_ack() {
        let mut r = Receiver::new(ReceiverConfig {
            delayed_ack: true,
            ..cfg()
        });
        ack_of(&mut r, 0, seg(2000, MSS));
        // Part of the gap [0, 2000).
        let out = r.on_data(Time(1), &seg(0, MSS));
        assert_eq!(out.ack.map(|a| a.ack), Some(1000));
        // The rest of it.
        let out = r.on_data(Time(2), &seg(1000, MSS));
        assert_eq!(out.delivered, 2000);
        assert_eq!(out.ack.map(|a| a.ack), Some(3000));
        assert_eq!(r.next_wakeup(), None);
        // Back to in-order with nothing held: delayed again.
        assert!(r.on_data(Time(3), &seg(3000, MSS)).ack.is_none());
    }

    /// Proves: zero-length segments and absurd sequence numbers neither panic
    /// nor produce an ACK for nothing.
    #[test]
    fn zero_length_and_huge_seq_are_harmless() {
        let mut r = Receiver::new(cfg());
        assert_eq!(r.on_data(Time(0), &seg(0, 0)), RecvOutcome::default());
        assert_eq!(r.on_data(Time(0), &seg(u64::MAX, 0)).ack, None);
        assert_eq!(r.on_data(Time(0), &seg(u64::MAX, 1000)).ack, None);
        let a = ack_of(&mut r, 0, seg(u64::MAX - 10, 1000));
        assert_eq!(a.sack_blocks(), &[blk(u64::MAX - 10, u64::MAX)]);
        // Overlaps the truncated block entirely: DSACK, then the merged block.
        let a = ack_of(&mut r, 0, seg(u64::MAX - 20, 1000));
        assert!(a.dsack);
        assert_eq!(
            a.sack_blocks(),
            &[blk(u64::MAX - 10, u64::MAX), blk(u64::MAX - 20, u64::MAX)]
        );
        assert_eq!(r.rcv_nxt(), 0);
        assert_eq!(r.on_data(Time(0), &seg(0, 1000)).delivered, 1000);
    }

    /// Checks one ACK against a per-byte oracle of what has been received.
    fn check_ack(
        a: &AckSegment,
        got: &[bool],
        before: &[bool],
        s: &DataSegment,
        c: &ReceiverConfig,
    ) {
        let total = got.len() as u64;
        let first_hole = got.iter().position(|b| !b).unwrap_or(got.len()) as u64;
        assert_eq!(
            a.ack, first_hole,
            "cumulative ACK is the first missing byte"
        );
        let limit = if c.timestamps { 3 } else { 4 };
        assert!(a.sack_blocks().len() <= limit);
        if !c.sack {
            assert_eq!(a.sack_len, 0);
            return;
        }
        let mut blocks = a.sack_blocks();
        if a.dsack {
            assert!(c.dsack);
            let d = blocks[0];
            assert!(s.seq <= d.start && d.start < d.end && d.end <= s.end());
            assert!(
                (d.start..d.end).all(|i| before[i as usize]),
                "DSACK reports only bytes received before this segment"
            );
            assert!(
                (s.seq..d.start).all(|i| !before[i as usize])
                    && (d.end == s.end() || !before[d.end as usize]),
                "DSACK is the first duplicate part, whole"
            );
            blocks = &blocks[1..];
        } else if c.dsack {
            assert!(
                (s.seq..s.end()).all(|i| !before[i as usize]),
                "every duplicate is reported"
            );
        }
        for (k, b) in blocks.iter().enumerate() {
            assert!(b.start > a.ack && b.start < b.end && b.end <= total);
            assert!((b.start..b.end).all(|i| got[i as usize]));
            assert!(!got[b.start as usize - 1], "block is maximal on the left");
            assert!(
                b.end == total || !got[b.end as usize],
                "maximal on the right"
            );
            for o in &blocks[..k] {
                assert!(b.end < o.start || o.end < b.start, "blocks are disjoint");
            }
        }
        // RFC 2018: the block with the triggering segment's new part comes first.
        if s.end() > a.ack {
            let p = s.seq.max(a.ack);
            let b = blocks[0];
            assert!(b.start <= p && p < b.end);
        }
    }

    proptest! {
        /// Proves: under any permutation with duplicates and re-segmented
        /// overlaps, every byte is delivered exactly once in order, rcv_nxt
        /// ends at the transfer size, every ACK matches a byte-level oracle
        /// (cumulative ACK, maximal disjoint SACK blocks above it, DSACK only
        /// for already-received bytes), and nothing panics.
        #[test]
        fn random_permutation_with_duplicates_delivers_exactly_once(
            sizes in prop::collection::vec(1u32..=1000, 1..40),
            dups in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 0..20),
            keys in prop::collection::vec(any::<u32>(), 80),
            flags in (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
        ) {
            let c = ReceiverConfig {
                sack: flags.0,
                dsack: flags.1,
                timestamps: flags.2,
                delayed_ack: flags.3,
                ..cfg()
            };
            let mut segs = Vec::new();
            let mut seq = 0u64;
            for &l in &sizes {
                segs.push(seg(seq, l));
                seq += l as u64;
            }
            let total = seq;
            // Duplicates: random spans of the transfer, so they overlap
            // original segment boundaries (partial duplicates) too.
            for (a, b) in &dups {
                let x = a.index(total as usize) as u64;
                let y = b.index(total as usize) as u64;
                let (lo, hi) = (x.min(y), x.max(y) + 1);
                segs.push(seg(lo, (hi - lo) as u32));
            }
            // Permute by sorting on random keys.
            let mut order: Vec<usize> = (0..segs.len()).collect();
            order.sort_by_key(|&i| keys[i % keys.len()].wrapping_mul(i as u32 + 1) ^ i as u32);

            let mut r = Receiver::new(c);
            let mut got = vec![false; total as usize];
            let mut delivered = 0u64;
            let mut now = 0u64;
            for i in order {
                now += 1000;
                let s = DataSegment { ts_val: Some(Time(now)), ..segs[i] };
                let before = got.clone();
                for b in s.seq..s.end() {
                    got[b as usize] = true;
                }
                let old = r.rcv_nxt();
                let out = r.on_data(Time(now), &s);
                prop_assert!(r.rcv_nxt() >= old);
                prop_assert_eq!(out.delivered, r.rcv_nxt() - old);
                delivered += out.delivered;
                if let Some(a) = out.ack {
                    check_ack(&a, &got, &before, &s, &c);
                    prop_assert_eq!(a.ts_val.is_some(), c.timestamps);
                } else {
                    prop_assert!(c.delayed_ack && r.next_wakeup().is_some());
                }
                if let Some(w) = r.next_wakeup() {
                    prop_assert!(w <= Time(now) + c.delack_timeout);
                }
            }
            prop_assert_eq!(delivered, total);
            prop_assert_eq!(r.delivered_bytes(), total);
            prop_assert_eq!(r.rcv_nxt(), total);
            prop_assert_eq!(r.ooo_bytes(), 0);
            if let Some(a) = r.on_timer(Time::MAX) {
                prop_assert_eq!(a.ack, total);
            }
            prop_assert_eq!(r.next_wakeup(), None);
        }

        /// Proves: arbitrary segments, including ones near 2^64, never panic
        /// and keep the out-of-order bookkeeping consistent.
        #[test]
        fn arbitrary_segments_never_panic(
            segs in prop::collection::vec((any::<u64>(), any::<u32>(), any::<bool>()), 0..60),
            sack in any::<bool>(),
        ) {
            let mut r = Receiver::new(ReceiverConfig { sack, timestamps: true, delayed_ack: true, ..cfg() });
            for (k, &(seq, len, near)) in segs.iter().enumerate() {
                // Half the time stay close to rcv_nxt so holes actually fill.
                let seq = if near { r.rcv_nxt() + seq % 5000 } else { seq };
                let s = DataSegment { seq, len: len % 3000, ts_val: Some(Time(k as u64)), ..Default::default() };
                r.on_data(Time(k as u64), &s);
                r.on_timer(Time(k as u64));
                let blocks: Vec<SackBlock> = r.ooo_blocks().collect();
                prop_assert_eq!(blocks.iter().map(|b| b.end - b.start).sum::<u64>(), r.ooo_bytes());
                for w in blocks.windows(2) {
                    prop_assert!(w[0].end < w[1].start);
                }
                prop_assert!(!matches!(blocks.first(), Some(b) if b.start <= r.rcv_nxt()));
            }
        }
    }
}
