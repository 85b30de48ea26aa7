//! Ground truth for retransmissions: the simulator sees every drop, so it
//! can say whether each retransmission was needed.
//!
//! A retransmission (transmission k > 1 of a segment) is *spurious* when some
//! earlier transmission of the same data was not dropped: it reached the
//! receiver, or was still on its way when the run ended. It was *needed*
//! when every earlier transmission was dropped. A timeout (or a fast
//! retransmit) is spurious when the first retransmission it sends is: had
//! the sender waited long enough, the original would have arrived (the Eifel
//! paper's definition). Verdicts wait until the earlier transmissions'
//! fates are known, so a packet still queued when the retransmission leaves
//! and dropped afterwards is counted correctly as lost.
//!
//! Two sets of counts are kept: [`GroundTruth::verdicts`] over the whole run,
//! and [`GroundTruth::window`] over the retransmissions *sent* while the
//! measurement window was open ([`GroundTruth::set_counting`]); a verdict
//! reached after the window closed still goes to the window when the
//! retransmission was sent inside it.

use reorderlab_tcp::TxKind;
use std::collections::VecDeque;

/// The transmission kinds the ground truth distinguishes.
pub use reorderlab_tcp::TxKind as GtKind;

/// Counts of retransmissions and their verdicts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Verdicts {
    pub retransmissions: u64,
    pub spurious_retransmissions: u64,
    pub fast_retransmits: u64,
    pub spurious_fast_retransmits: u64,
    pub timeouts: u64,
    pub spurious_timeouts: u64,
}

#[derive(Clone, Copy, Debug, Default)]
struct Seg {
    /// Transmissions so far.
    tx: u16,
    /// Transmissions neither delivered nor dropped yet.
    inflight: u16,
    /// Lowest transmission number that reached the receiver (0 = none yet).
    min_arrived: u16,
    /// Undecided retransmissions of this segment are in `pending`.
    has_pending: bool,
}

#[derive(Clone, Copy, Debug)]
struct Pending {
    seg: u64,
    k: u16,
    kind: TxKind,
    /// Earlier transmissions (j < k) neither delivered nor dropped yet.
    earlier_open: u16,
    /// Sent while the measurement window was open.
    in_window: bool,
}

/// Ground truth of one flow, per segment number.
#[derive(Debug, Default)]
pub struct GroundTruth {
    base: u64,
    segs: VecDeque<Seg>,
    pending: Vec<Pending>,
    /// Segments below this were delivered in order at the receiver.
    delivered_below: u64,
    /// Counts over the whole run.
    pub verdicts: Verdicts,
    /// Counts over retransmissions sent while `counting` (the measurement window).
    pub window: Verdicts,
    /// Not counting into `window` (outside the measurement window).
    paused: bool,
}

impl GroundTruth {
    pub fn new() -> Self {
        Self::default()
    }

    /// Opens (`true`, the default) or closes the measurement window:
    /// retransmissions sent from now on are counted in [`GroundTruth::window`]
    /// or not.
    pub fn set_counting(&mut self, on: bool) {
        self.paused = !on;
    }

    fn entry(&mut self, seg: u64) -> Option<&mut Seg> {
        let i = seg.checked_sub(self.base)? as usize;
        while self.segs.len() <= i {
            self.segs.push_back(Seg::default());
        }
        self.segs.get_mut(i)
    }

    /// Records transmission of `seg`; returns its transmission number.
    #[inline]
    pub fn on_send(&mut self, seg: u64, kind: GtKind) -> u16 {
        let is_retx = kind != GtKind::New;
        let in_window = !self.paused;
        if is_retx {
            Self::sent(&mut self.verdicts, kind);
            if in_window {
                Self::sent(&mut self.window, kind);
            }
        }
        let Some(e) = self.entry(seg) else {
            // Below base: delivered long ago; any retransmission is spurious.
            if is_retx {
                Self::count(&mut self.verdicts, kind, true);
                if in_window {
                    Self::count(&mut self.window, kind, true);
                }
            }
            return u16::MAX;
        };
        let earlier_open = e.inflight;
        e.tx = e.tx.saturating_add(1);
        e.inflight += 1;
        let k = e.tx;
        if is_retx {
            if e.min_arrived != 0 {
                Self::count(&mut self.verdicts, kind, true);
                if in_window {
                    Self::count(&mut self.window, kind, true);
                }
            } else if earlier_open == 0 {
                // Every earlier transmission was dropped: needed.
            } else {
                e.has_pending = true;
                self.pending.push(Pending {
                    seg,
                    k,
                    kind,
                    earlier_open,
                    in_window,
                });
            }
        }
        k
    }

    fn sent(v: &mut Verdicts, kind: GtKind) {
        v.retransmissions += 1;
        match kind {
            GtKind::FastRetransmit => v.fast_retransmits += 1,
            GtKind::Timeout => v.timeouts += 1,
            _ => {}
        }
    }

    fn count(v: &mut Verdicts, kind: GtKind, spurious: bool) {
        if !spurious {
            return;
        }
        v.spurious_retransmissions += 1;
        match kind {
            GtKind::FastRetransmit => v.spurious_fast_retransmits += 1,
            GtKind::Timeout => v.spurious_timeouts += 1,
            _ => {}
        }
    }

    /// Transmission `k` of `seg` reached the receiver.
    #[inline]
    pub fn on_arrive(&mut self, seg: u64, k: u16) {
        let Some(e) = self.entry(seg) else { return };
        e.inflight = e.inflight.saturating_sub(1);
        if e.min_arrived == 0 || k < e.min_arrived {
            e.min_arrived = k;
        }
        if e.has_pending {
            self.resolve(seg, k, true);
        }
    }

    /// Transmission `k` of `seg` was dropped.
    #[inline]
    pub fn on_drop(&mut self, seg: u64, k: u16) {
        let Some(e) = self.entry(seg) else { return };
        e.inflight = e.inflight.saturating_sub(1);
        if e.has_pending {
            self.resolve(seg, k, false);
        }
    }

    /// Transmission `j` of `seg` settled (`arrived` or dropped): a pending
    /// retransmission k > j is spurious if j arrived, and needed once all of
    /// its earlier transmissions settled without arriving.
    fn resolve(&mut self, seg: u64, j: u16, arrived: bool) {
        let mut left = false;
        let verdicts = &mut self.verdicts;
        let window = &mut self.window;
        self.pending.retain_mut(|p| {
            if p.seg != seg || p.k <= j {
                left |= p.seg == seg;
                return true;
            }
            if arrived {
                Self::count(verdicts, p.kind, true);
                if p.in_window {
                    Self::count(window, p.kind, true);
                }
                return false;
            }
            p.earlier_open = p.earlier_open.saturating_sub(1);
            if p.earlier_open == 0 {
                return false;
            }
            left = true;
            true
        });
        if let Some(e) = seg
            .checked_sub(self.base)
            .and_then(|i| self.segs.get_mut(i as usize))
        {
            e.has_pending = left;
        }
    }

    /// The receiver has every segment below `seg`: forget settled segments.
    pub fn delivered_below(&mut self, seg: u64) {
        self.delivered_below = self.delivered_below.max(seg);
        while self.base < self.delivered_below {
            match self.segs.front() {
                Some(e) if e.inflight == 0 && !e.has_pending => {
                    self.segs.pop_front();
                    self.base += 1;
                }
                None => {
                    self.base = self.delivered_below;
                    break;
                }
                _ => break,
            }
        }
    }

    /// Ends the run: undecided retransmissions have an earlier transmission
    /// still on its way, so they count as spurious. Returns the whole run's
    /// counts; [`GroundTruth::window`] then holds the window's.
    pub fn finish(&mut self) -> Verdicts {
        for p in self.pending.drain(..) {
            Self::count(&mut self.verdicts, p.kind, true);
            if p.in_window {
                Self::count(&mut self.window, p.kind, true);
            }
        }
        self.verdicts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retransmission_of_a_dropped_segment_is_needed() {
        let mut g = GroundTruth::new();
        let k1 = g.on_send(0, GtKind::New);
        g.on_drop(0, k1);
        let k2 = g.on_send(0, GtKind::FastRetransmit);
        g.on_arrive(0, k2);
        let v = g.finish();
        assert_eq!(
            (
                v.retransmissions,
                v.spurious_retransmissions,
                v.fast_retransmits,
                v.spurious_fast_retransmits
            ),
            (1, 0, 1, 0)
        );
    }

    #[test]
    fn retransmission_while_the_original_is_delayed_is_spurious() {
        let mut g = GroundTruth::new();
        let k1 = g.on_send(0, GtKind::New);
        let k2 = g.on_send(0, GtKind::Timeout);
        g.on_arrive(0, k1);
        g.on_arrive(0, k2);
        let v = g.finish();
        assert_eq!(
            (v.timeouts, v.spurious_timeouts, v.spurious_retransmissions),
            (1, 1, 1)
        );
    }

    #[test]
    fn original_queued_then_dropped_after_the_retransmission_left_makes_it_needed() {
        let mut g = GroundTruth::new();
        let k1 = g.on_send(0, GtKind::New);
        let k2 = g.on_send(0, GtKind::Retransmit);
        g.on_drop(0, k1);
        g.on_arrive(0, k2);
        assert_eq!(g.finish().spurious_retransmissions, 0);
    }

    #[test]
    fn second_retransmission_after_the_first_arrived_is_spurious_even_if_the_original_was_dropped()
    {
        let mut g = GroundTruth::new();
        let k1 = g.on_send(0, GtKind::New);
        g.on_drop(0, k1);
        let k2 = g.on_send(0, GtKind::Timeout);
        g.on_arrive(0, k2);
        let _k3 = g.on_send(0, GtKind::Timeout);
        let v = g.finish();
        assert_eq!((v.timeouts, v.spurious_timeouts), (2, 1));
    }

    #[test]
    fn retransmission_of_long_delivered_data_is_spurious() {
        let mut g = GroundTruth::new();
        for s in 0..10 {
            let k = g.on_send(s, GtKind::New);
            g.on_arrive(s, k);
        }
        g.delivered_below(10);
        g.on_send(3, GtKind::Retransmit);
        assert_eq!(g.finish().spurious_retransmissions, 1);
        assert!(g.segs.is_empty(), "settled segments are forgotten");
    }

    #[test]
    fn needed_retransmission_still_in_flight_at_the_end_stays_needed() {
        let mut g = GroundTruth::new();
        let k1 = g.on_send(0, GtKind::New);
        g.on_drop(0, k1);
        g.on_send(0, GtKind::FastRetransmit);
        assert_eq!(g.finish().spurious_fast_retransmits, 0);
    }

    #[test]
    fn arrival_of_a_later_transmission_says_nothing_about_an_earlier_retransmission() {
        // Original and first retransmission both in flight; the second
        // retransmission arrives first: retransmission 2 stays undecided
        // until the original's fate is known.
        let mut g = GroundTruth::new();
        let k1 = g.on_send(0, GtKind::New);
        let k2 = g.on_send(0, GtKind::Timeout);
        let k3 = g.on_send(0, GtKind::Timeout);
        g.on_arrive(0, k3);
        g.on_drop(0, k1);
        g.on_arrive(0, k2);
        // k2: earlier (k1) dropped -> needed. k3: k2 arrived -> spurious.
        let v = g.finish();
        assert_eq!((v.timeouts, v.spurious_timeouts), (2, 1));
    }

    /// The window counts retransmissions by when they were sent: one sent
    /// before the window opened is left out even when its verdict comes
    /// inside it, and one sent inside it keeps its verdict after it closed.
    #[test]
    fn the_window_counts_retransmissions_sent_inside_it() {
        let mut g = GroundTruth::new();
        g.set_counting(false);
        let k1 = g.on_send(0, GtKind::New);
        let _ = g.on_send(0, GtKind::Timeout);
        g.set_counting(true);
        g.on_arrive(0, k1); // verdict (spurious) inside the window
        let k1 = g.on_send(1, GtKind::New);
        let _ = g.on_send(1, GtKind::FastRetransmit);
        g.set_counting(false);
        g.on_arrive(1, k1); // verdict after the window closed
        let _ = g.on_send(2, GtKind::Retransmit);
        let total = g.finish();
        assert_eq!(
            (total.retransmissions, total.spurious_retransmissions),
            (3, 2)
        );
        assert_eq!((total.timeouts, total.spurious_timeouts), (1, 1));
        let w = g.window;
        assert_eq!(
            (
                w.retransmissions,
                w.spurious_retransmissions,
                w.fast_retransmits,
                w.spurious_fast_retransmits,
                w.timeouts,
                w.spurious_timeouts
            ),
            (1, 1, 1, 1, 0, 0)
        );
    }

    #[test]
    fn still_in_flight_at_the_end_counts_as_not_dropped() {
        let mut g = GroundTruth::new();
        g.on_send(0, GtKind::New);
        g.on_send(0, GtKind::Timeout);
        assert_eq!(g.finish().spurious_timeouts, 1);
    }
}
