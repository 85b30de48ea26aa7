//! The sender's per-segment record of outstanding data (RFC 6675 Section 3's
//! scoreboard, extended with what TCP-PR and the undo rules need).
//!
//! Segments are numbered: segment `n` carries bytes `[n * mss, (n + 1) *
//! mss)` (the last one of a finite transfer may be shorter). The scoreboard
//! holds segments `[una, nxt)`: sent and not yet cumulatively acknowledged.
//! The counters behind [`Scoreboard::pipe`] are kept up to date on every
//! state change, so `pipe` costs O(1) however large the window.

use reorderlab_sim::Time;
use std::collections::VecDeque;

/// What the sender remembers of one outstanding segment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SegRecord {
    /// time(n) of the first transmission.
    pub first_sent: Time,
    /// time(n) of the latest transmission (TCP-PR Table II: time(n)).
    pub last_sent: Time,
    /// cwnd(n): the congestion window when the segment was last sent (TCP-PR Table II); f32 keeps the record at 24 bytes.
    pub cwnd_at_send: f32,
    /// Transmissions so far (1 = never retransmitted).
    pub tx_count: u16,
    /// SACKED, LOST, RETRANS and MEMO bits (one byte keeps the record at 24
    /// bytes: the scoreboard holds one per outstanding segment).
    flags: u8,
    /// Low byte of the sender's retransmission epoch (recoveries and
    /// timeouts counted) when the segment was last retransmitted: lets the
    /// sender check that no segment is retransmitted twice in one recovery.
    pub epoch: u8,
}

const SACKED: u8 = 1;
const LOST: u8 = 2;
const RETRANS: u8 = 4;
const MEMO: u8 = 8;

impl SegRecord {
    #[inline]
    fn flag(&self, f: u8) -> bool {
        self.flags & f != 0
    }
    #[inline]
    fn set(&mut self, f: u8, on: bool) {
        if on {
            self.flags |= f;
        } else {
            self.flags &= !f;
        }
    }
    /// SACKed: the receiver holds it (RFC 6675 Section 3).
    #[inline]
    pub fn sacked(&self) -> bool {
        self.flag(SACKED)
    }
    /// Deemed lost by loss detection or a timeout (RFC 6675 IsLost / Section 5.1).
    #[inline]
    pub fn lost(&self) -> bool {
        self.flag(LOST)
    }
    /// A retransmission of it is in flight (counts towards pipe, RFC 6675 Section 4 (b)).
    #[inline]
    pub fn retrans(&self) -> bool {
        self.flag(RETRANS)
    }
    /// In TCP-PR's memorize list (TCP-PR Table II).
    #[inline]
    pub fn memo(&self) -> bool {
        self.flag(MEMO)
    }
    #[inline]
    fn set_sacked(&mut self, on: bool) {
        self.set(SACKED, on)
    }
    #[inline]
    fn set_lost(&mut self, on: bool) {
        self.set(LOST, on)
    }
    #[inline]
    fn set_retrans(&mut self, on: bool) {
        self.set(RETRANS, on)
    }
    #[inline]
    fn set_memo(&mut self, on: bool) {
        self.set(MEMO, on)
    }
}

/// The scoreboard: segment records from `una` up to `nxt`, and the counters
/// that make up pipe.
#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    /// Lowest unacknowledged segment (SND.UNA in segments).
    una: u64,
    recs: VecDeque<SegRecord>,
    /// sacked_out: SACKed segments above una.
    sacked_out: u32,
    /// lost_out: segments marked lost and not SACKed.
    lost_out: u32,
    /// retrans_out: retransmissions in flight (marked lost, resent, not SACKed).
    retrans_out: u32,
    /// Highest SACKed segment + 1 (SND.FACK in segments, Mathis and Mahdavi 1996).
    fack: u64,
    /// |memorize|: segments in TCP-PR's memorize list (TCP-PR Table II).
    memo_out: u32,
    /// A position and the number of SACKed segments at or above it: the
    /// cursor behind [`Scoreboard::kth_highest_sacked`], moved incrementally.
    kth_cursor: u64,
    kth_count: u32,
    /// The SACKed segments as maximal runs [start, end), sorted: a SACK
    /// block repeated on every ACK is then walked only where it grew, not
    /// over its whole length (which made SACK processing O(window) per ACK
    /// and a large window's recoveries quadratic).
    sacked_runs: Vec<(u64, u64)>,
}

impl Scoreboard {
    pub fn new() -> Self {
        Self::default()
    }
    /// SND.UNA in segments.
    #[inline]
    pub fn una(&self) -> u64 {
        self.una
    }
    /// SND.MAX in segments: one past the highest segment ever sent.
    #[inline]
    pub fn nxt(&self) -> u64 {
        self.una + self.recs.len() as u64
    }
    /// Segments outstanding (sent, not cumulatively ACKed): FlightSize in segments.
    #[inline]
    pub fn packets_out(&self) -> u32 {
        self.recs.len() as u32
    }
    pub fn sacked_out(&self) -> u32 {
        self.sacked_out
    }
    pub fn lost_out(&self) -> u32 {
        self.lost_out
    }
    pub fn retrans_out(&self) -> u32 {
        self.retrans_out
    }
    /// SND.FACK: one past the highest SACKed segment, at least una.
    #[inline]
    pub fn fack(&self) -> u64 {
        self.fack.max(self.una)
    }
    /// pipe: segments believed in the network (RFC 6675 Section 4 SetPipe):
    /// unSACKed segments not deemed lost, plus retransmissions in flight.
    #[inline]
    pub fn pipe(&self) -> u32 {
        self.packets_out() - self.sacked_out - self.lost_out + self.retrans_out
    }
    #[inline]
    pub fn get(&self, seg: u64) -> Option<&SegRecord> {
        seg.checked_sub(self.una)
            .and_then(|i| self.recs.get(i as usize))
    }
    /// Iterates `(segment, record)` from una upwards.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (u64, &SegRecord)> + '_ {
        let una = self.una;
        self.recs
            .iter()
            .enumerate()
            .map(move |(i, r)| (una + i as u64, r))
    }

    /// Records a first transmission of segment `nxt()`.
    #[inline]
    pub fn push_new(&mut self, now: Time, cwnd: f64) -> u64 {
        let seg = self.nxt();
        self.recs.push_back(SegRecord {
            first_sent: now,
            last_sent: now,
            cwnd_at_send: cwnd as f32,
            tx_count: 1,
            flags: 0,
            epoch: 0,
        });
        seg
    }

    /// Records a retransmission of `seg` in retransmission epoch `epoch`. A
    /// segment deemed lost leaves pipe and its retransmission enters it; a
    /// segment retransmitted without being deemed lost (RFC 6675 NextSeg rule
    /// 3 or 4) stays in pipe and its retransmission is counted too: pipe
    /// counts it twice, as RFC 6675's SetPipe does.
    pub fn on_retransmit(&mut self, seg: u64, now: Time, cwnd: f64, epoch: u8) {
        let Some(i) = seg.checked_sub(self.una) else {
            return;
        };
        let Some(r) = self.recs.get_mut(i as usize) else {
            return;
        };
        r.epoch = epoch;
        if !r.retrans() {
            r.set_retrans(true);
            self.retrans_out += 1;
        }
        r.last_sent = now;
        r.cwnd_at_send = cwnd as f32;
        r.tx_count = r.tx_count.saturating_add(1);
    }

    /// Marks `seg` lost; returns true if it was not already (and is not
    /// SACKed). A segment retransmitted before it was deemed lost keeps its
    /// retransmission in pipe.
    pub fn mark_lost(&mut self, seg: u64) -> bool {
        let Some(i) = seg.checked_sub(self.una) else {
            return false;
        };
        let Some(r) = self.recs.get_mut(i as usize) else {
            return false;
        };
        if r.sacked() || r.lost() {
            return false;
        }
        r.set_lost(true);
        self.lost_out += 1;
        true
    }

    /// Deems `seg` and any retransmission of it in flight lost (a timeout,
    /// or a TCP-PR timer expiry); returns true if anything changed.
    pub fn mark_all_lost(&mut self, seg: u64) -> bool {
        let newly = self.mark_lost(seg);
        let Some(r) = seg
            .checked_sub(self.una)
            .and_then(|i| self.recs.get_mut(i as usize))
        else {
            return newly;
        };
        if r.retrans() && !r.sacked() {
            r.set_retrans(false);
            self.retrans_out -= 1;
            return true;
        }
        newly
    }

    /// The first segment at or above `seg` (and below nxt) not SACKed.
    pub fn first_unsacked_from(&self, seg: u64) -> u64 {
        let seg = seg.max(self.una);
        let i = self.sacked_runs.partition_point(|r| r.1 <= seg);
        match self.sacked_runs.get(i) {
            Some(&(a, b)) if a <= seg => b,
            _ => seg,
        }
    }

    /// Marks `seg` SACKed; returns true if newly SACKed.
    pub fn mark_sacked(&mut self, seg: u64) -> bool {
        self.mark_sacked_range(seg, seg.saturating_add(1), |_, _| {}) == 1
    }

    /// Marks segments `lo..hi` (clipped to una..nxt) SACKed, calling `f` on
    /// each one not SACKed before (with its record as it was); returns how
    /// many. Costs the segments newly SACKed plus the runs the range meets.
    pub fn mark_sacked_range(
        &mut self,
        lo: u64,
        hi: u64,
        mut f: impl FnMut(u64, &SegRecord),
    ) -> u32 {
        let lo = lo.max(self.una);
        let hi = hi.min(self.nxt());
        if lo >= hi {
            return 0;
        }
        // Runs that overlap or touch lo..hi merge with it into one.
        let first = self.sacked_runs.partition_point(|r| r.1 < lo);
        let mut last = first;
        let (mut run_lo, mut run_hi) = (lo, hi);
        let mut cur = lo;
        let mut newly = 0;
        while let Some(&(a, b)) = self.sacked_runs.get(last).filter(|r| r.0 <= hi) {
            for seg in cur..a.min(hi) {
                newly += self.mark_one(seg, &mut f) as u32;
            }
            cur = cur.max(b);
            run_lo = run_lo.min(a);
            run_hi = run_hi.max(b);
            last += 1;
        }
        for seg in cur..hi {
            newly += self.mark_one(seg, &mut f) as u32;
        }
        self.sacked_runs
            .splice(first..last, std::iter::once((run_lo, run_hi)));
        newly
    }

    /// Marks one segment (una <= seg < nxt) SACKed.
    #[inline]
    fn mark_one(&mut self, seg: u64, f: &mut impl FnMut(u64, &SegRecord)) -> bool {
        let Some(i) = seg.checked_sub(self.una) else {
            return false;
        };
        let Some(r) = self.recs.get_mut(i as usize) else {
            return false;
        };
        if r.sacked() {
            return false;
        }
        f(seg, r);
        r.set_sacked(true);
        self.sacked_out += 1;
        if seg >= self.kth_cursor {
            self.kth_count += 1;
        }
        if r.memo() {
            r.set_memo(false);
            self.memo_out -= 1;
        }
        if r.lost() {
            r.set_lost(false);
            self.lost_out -= 1;
        }
        if r.retrans() {
            r.set_retrans(false);
            self.retrans_out -= 1;
        }
        if seg + 1 > self.fack {
            self.fack = seg + 1;
        }
        true
    }

    /// Advances una to `new_una`, removing records; calls `f` on each removed one.
    pub fn advance(&mut self, new_una: u64, mut f: impl FnMut(u64, &SegRecord)) {
        while self.una < new_una {
            let Some(r) = self.recs.pop_front() else {
                self.una = new_una;
                break;
            };
            if r.memo() {
                self.memo_out -= 1;
            }
            if r.sacked() && self.una >= self.kth_cursor {
                self.kth_count -= 1;
            }
            if r.sacked() {
                self.sacked_out -= 1;
            } else {
                if r.lost() {
                    self.lost_out -= 1;
                }
                if r.retrans() {
                    self.retrans_out -= 1;
                }
            }
            f(self.una, &r);
            self.una += 1;
        }
        let una = self.una;
        let gone = self.sacked_runs.partition_point(|r| r.1 <= una);
        self.sacked_runs.drain(..gone);
        if let Some(r) = self.sacked_runs.first_mut() {
            r.0 = r.0.max(una);
        }
    }

    /// |memorize| (TCP-PR Table II).
    pub fn memo_len(&self) -> u32 {
        self.memo_out
    }

    /// memorize := to-be-ack (TCP-PR Table I line 8): every segment sent and
    /// neither acknowledged nor declared dropped.
    pub fn memorize_to_be_ack(&mut self) {
        for r in self.recs.iter_mut() {
            let in_to_be_ack = !r.sacked() && (!r.lost() || r.retrans());
            if in_to_be_ack && !r.memo() {
                r.set_memo(true);
                self.memo_out += 1;
            }
        }
    }

    /// remove(memorize, seg); returns whether it was there.
    pub fn unmemo(&mut self, seg: u64) -> bool {
        let Some(i) = seg.checked_sub(self.una) else {
            return false;
        };
        match self.recs.get_mut(i as usize) {
            Some(r) if r.memo() => {
                r.set_memo(false);
                self.memo_out -= 1;
                true
            }
            _ => false,
        }
    }

    /// memorize := {} (TCP-PR Table III line 46).
    pub fn clear_memo(&mut self) {
        for r in self.recs.iter_mut() {
            r.set_memo(false);
        }
        self.memo_out = 0;
    }

    /// The k-th highest SACKed segment, if k segments are SACKed (RFC 6675
    /// IsLost: every unSACKed segment below it has k SACKed above). The cursor
    /// moves up as SACKs arrive and down only when k grows, so the cost is
    /// amortized O(1) per SACKed segment, not O(window) per ACK.
    pub fn kth_highest_sacked(&mut self, k: u32) -> Option<u64> {
        if k == 0 {
            return None;
        }
        if self.kth_cursor < self.una {
            self.kth_cursor = self.una;
        }
        let sacked_at = |sb: &Self, s: u64| sb.get(s).is_some_and(|r| r.sacked()) as u32;
        while self.kth_count < k && self.kth_cursor > self.una {
            self.kth_cursor -= 1;
            self.kth_count += sacked_at(self, self.kth_cursor);
        }
        while self.kth_cursor < self.nxt() {
            let here = sacked_at(self, self.kth_cursor);
            if self.kth_count - here < k {
                break;
            }
            self.kth_count -= here;
            self.kth_cursor += 1;
        }
        (self.kth_count >= k).then_some(self.kth_cursor)
    }

    /// Counts SACKed segments strictly above `seg` (for IsLost, RFC 6675 Section 4).
    pub fn sacked_above(&self, seg: u64) -> u32 {
        self.iter()
            .rev()
            .take_while(|(s, _)| *s > seg)
            .filter(|(_, r)| r.sacked())
            .count() as u32
    }

    /// Checks the counters against the records (tests and debug builds).
    pub fn check(&self) {
        let sacked = self.recs.iter().filter(|r| r.sacked()).count() as u32;
        let lost = self.recs.iter().filter(|r| r.lost() && !r.sacked()).count() as u32;
        let retrans = self
            .recs
            .iter()
            .filter(|r| r.retrans() && !r.sacked())
            .count() as u32;
        assert_eq!(
            (sacked, lost, retrans),
            (self.sacked_out, self.lost_out, self.retrans_out)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipe_follows_rfc6675_setpipe() {
        let mut sb = Scoreboard::new();
        for _ in 0..10 {
            sb.push_new(Time::ZERO, 10.0);
        }
        assert_eq!(sb.pipe(), 10);
        // SACK 3..=9: seven segments out of the network.
        for s in 3..10 {
            sb.mark_sacked(s);
        }
        assert_eq!(sb.pipe(), 3);
        // IsLost for 0..3 (3 or more SACKed above): deemed lost, pipe drops.
        for s in 0..3 {
            assert!(sb.mark_lost(s));
        }
        assert_eq!(sb.pipe(), 0);
        // Retransmitting one puts it back into pipe.
        sb.on_retransmit(0, Time(1), 5.0, 1);
        assert_eq!(sb.pipe(), 1);
        assert_eq!(sb.get(0).unwrap().tx_count, 2);
        sb.check();
        // The retransmission is lost again: pipe drops, segment stays lost.
        assert!(sb.mark_all_lost(0));
        assert_eq!(sb.pipe(), 0);
        sb.check();
        // Cumulative ACK of everything.
        let mut removed = 0;
        sb.advance(10, |_, _| removed += 1);
        assert_eq!(removed, 10);
        assert_eq!(
            (sb.pipe(), sb.packets_out(), sb.una(), sb.nxt()),
            (0, 0, 10, 10)
        );
        sb.check();
    }

    #[test]
    fn fack_is_one_past_highest_sacked() {
        let mut sb = Scoreboard::new();
        for _ in 0..8 {
            sb.push_new(Time::ZERO, 8.0);
        }
        assert_eq!(sb.fack(), 0);
        sb.mark_sacked(5);
        sb.mark_sacked(3);
        assert_eq!(sb.fack(), 6);
        assert_eq!(sb.sacked_above(2), 2);
        assert_eq!(sb.sacked_above(4), 1);
    }
}

#[cfg(test)]
mod kth_tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The incremental cursor agrees with a plain count from the top,
        /// whatever the order of SACKs, cumulative ACKs and changes of k.
        #[test]
        fn kth_highest_sacked_matches_a_scan(ops in prop::collection::vec((0u8..4, 0u64..64, 1u32..8), 1..200)) {
            let mut sb = Scoreboard::new();
            for _ in 0..64 {
                sb.push_new(Time::ZERO, 1.0);
            }
            for (op, x, k) in ops {
                match op {
                    0 => { sb.mark_sacked(sb.una() + x % 64); }
                    1 => {
                        let lo = sb.una() + x % 64;
                        let before = sb.sacked_out();
                        let mut seen = 0;
                        let n = sb.mark_sacked_range(lo, lo + u64::from(k) * 3, |_, r| { assert!(!r.sacked()); seen += 1; });
                        prop_assert_eq!(n, seen);
                        prop_assert_eq!(sb.sacked_out(), before + n);
                    }
                    2 => { let to = (sb.una() + x % 8).min(sb.nxt()); sb.advance(to, |_, _| {}); }
                    _ => { sb.push_new(Time::ZERO, 1.0); }
                }
                let expect = {
                    let mut c = 0;
                    let mut found = None;
                    for (s, r) in sb.iter().rev() {
                        if r.sacked() { c += 1; if c == k { found = Some(s); break; } }
                    }
                    found
                };
                prop_assert_eq!(sb.kth_highest_sacked(k), expect);
                // The runs are exactly the SACKed records, maximal and sorted.
                let mut runs: Vec<(u64, u64)> = Vec::new();
                for (s, r) in sb.iter() {
                    if r.sacked() {
                        match runs.last_mut() {
                            Some(l) if l.1 == s => l.1 = s + 1,
                            _ => runs.push((s, s + 1)),
                        }
                    }
                }
                prop_assert_eq!(&sb.sacked_runs, &runs);
            }
        }
    }
}

#[cfg(test)]
mod size_tests {
    /// The scoreboard holds one record per outstanding segment: keep it small.
    #[test]
    fn a_segment_record_is_24_bytes() {
        assert_eq!(std::mem::size_of::<super::SegRecord>(), 24);
    }
}
