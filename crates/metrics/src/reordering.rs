//! What the network did to a flow's packet order, measured at the receiver
//! on first transmissions, with the metrics of RFC 4737 (Packet Reordering
//! Metrics) and RFC 5236 (Improved Packet Reordering Metrics).
//!
//! The simulator calls [`ReorderMeter::on_arrival`] with the segment number
//! `s` (0, 1, 2, ... in sending order) of every arriving packet that is the
//! first transmission of its segment. Segments that never arrive (losses)
//! are simply never reported. The meter computes, in one pass and in
//! amortized O(1) per packet without heap allocation in steady state:
//!
//! - RFC 4737 Section 3, `Type-P-Reordered`: a packet is reordered when
//!   `s < NextExp`, NextExp being one more than the largest `s` seen so far;
//! - RFC 4737 Section 4.1, `Type-P-Reordered-Ratio-Stream`: R = reordered / L;
//! - RFC 4737 Section 4.2, `Type-P-Packet-Reordering-Extent-Stream`: extent
//!   `e = i - j` for the smallest arrival index `j` with `s[j] > s[i]`;
//! - RFC 4737 Section 4.6, `Type-P-Packet-Reordering-Free-Run-*-Stream`;
//! - RFC 4737 Section 5, `Type-P-Packet-n-Reordering-Stream` for n = 1 to
//!   [`N_REORDERING_MAX`];
//! - RFC 5236 Section 3.6, Reorder Density (RD): the frequencies FD\[D\] of
//!   the displacements D = RI - s in \[-DT, DT\], by the algorithm of RFC 5236
//!   Section 7.1 (Stay-back Method), with its rules for lost and duplicate
//!   packets (Section 6).
//!
//! Not computed: RFC 4737 Sections 4.3 and 4.4 (late time and byte offsets:
//! they need times and sizes the meter is not given), 4.5 (reordering gaps)
//! and RFC 5236 RBD.
//!
//! # Measurement window
//!
//! [`ReorderMeter::begin_window`] and [`ReorderMeter::end_window`] restrict
//! the reported metrics to the packets that *arrive* between the two calls
//! (by default, without either call, every packet): the reordered ratio,
//! the extents and the reorder density count only those arrivals, while the
//! state that decides whether a packet is reordered (NextExp, the missing
//! runs, RD's receive index) follows the whole stream, so a packet arriving
//! in the window that was overtaken before it is still reordered. RD
//! evaluates a packet DT + 1 arrivals after it arrived; it counts it in
//! FD\[D\] when the packet arrived in the window, whenever the evaluation
//! happens. [`ReorderMeter::arrivals`], [`ReorderMeter::received`],
//! [`ReorderMeter::duplicates`], the free runs and n-reordering stay
//! whole-stream figures.
//!
//! # Numbering
//!
//! The RFCs number packets from 1; the meter takes the simulator's segment
//! numbers from 0. Nothing depends on where numbering starts: NextExp starts
//! at 0 (RFC 4737 Section 3.6: the first packet is in order), and RD's
//! receive index starts at 0, so a stream numbered from 1 just looks like a
//! stream whose packet 0 was lost, which changes no metric. The tests feed
//! the RFCs' examples with their own numbers.
//!
//! # Duplicates
//!
//! RFC 4737 Section 3.6: only the first copy of a packet counts; later copies
//! are counted in [`ReorderMeter::duplicates`] and otherwise ignored by
//! Sections 3, 4.1, 4.2 and 4.6. Section 5.2 defines n-reordering over every
//! received packet *including* duplicates ("duplicates can make l greater
//! than k"), and the meter follows it there. RD applies RFC 5236's own rule:
//! a packet whose number is below the current receive index, or is already
//! in the window or buffer of the Section 7.1 algorithm, is a duplicate
//! ([`ReorderMeter::density_duplicates`]); by that rule a first copy that
//! arrives after RD has declared it lost (not among the DT + 1 arrivals
//! following the point where it was due) is ignored too. The simulator feeds
//! first transmissions only, so true copies only arise if the network
//! duplicates packets.
//!
//! # Bounds
//!
//! - RD keeps at most DT + 1 pending arrivals and a buffer of at most DT
//!   early ones, as RFC 5236 Section 3.4 intends: memory O(DT), independent
//!   of the stream's length. DT is chosen by the caller (see
//!   [`DEFAULT_DENSITY_THRESHOLD`] for the default and why). DT should be
//!   at least the largest displacement the path produces: packets beyond it
//!   are discarded, and the RFC's algorithm, reproduced as written, can stop
//!   counting altogether after such a discard
//!   ([`ReorderMeter::density_discarded`]).
//! - The RFC 4737 extent needs, for a late packet, the arrival index of the
//!   packet that first overtook it. The meter keeps, for each run of
//!   sequence numbers still missing below NextExp, the index of the arrival
//!   that skipped over it. A lost packet stays missing for ever, so runs are
//!   forgotten once the arrival that skipped them is more than `history`
//!   arrivals old (RFC 4737 Section 6, "sliding history window"). Extents up
//!   to `history` are exact; a packet arriving later than that is still
//!   counted as reordered, its extent is recorded as `history` (a clamp: the
//!   true extent is larger), and [`ReorderMeter::extents_clamped`] counts it.
//!   Below the forgotten runs, a packet cannot be told from a duplicate any
//!   more; it is taken to be a first copy (the simulator feeds first
//!   transmissions). Default [`DEFAULT_EXTENT_HISTORY`].
//! - n-reordering is resolved up to n = [`N_REORDERING_MAX`] (the MAXN of
//!   RFC 4737 Appendix A).

use std::collections::VecDeque;

/// Default RFC 5236 displacement threshold DT, in packets.
///
/// RFC 5236 recommends no value: Section 5 says DT depends on the use, that
/// "in the case of TCP, the maximum transmit and receive window sizes impose
/// a natural limit on the useful value of DT", and that DT "can be made as
/// large as required"; its examples (Section 8) use DT = 4, 3 and 2 on
/// sequences of 6 to 8 packets. A TCP flow's first transmissions are
/// displaced by at most about its window (in segments), so callers that know
/// the flow's largest window should pass it. This default, 1024 segments,
/// covers with a wide margin the windows of the shipped scenarios (a 100 to
/// 250 packet bottleneck queue plus a bandwidth-delay product of a few tens
/// of packets, or a 1 MB receive window of about 700 segments). The margin matters
/// more than the density's length: a packet displaced by more than DT is
/// declared lost by RD (Section 6) and vanishes from the density, and worse,
/// such discards can stop the Section 7.1 algorithm from counting anything
/// afterwards (see [`ReorderMeter::density_discarded`]). A small DT such as
/// TCP's duplicate-ACK threshold of 3 would be a poor default for both
/// reasons: it would hide exactly the reordering that makes TCP retransmit
/// spuriously. Memory is about 24 to 32 bytes per unit of DT.
pub const DEFAULT_DENSITY_THRESHOLD: u32 = 1024;

/// Default RFC 4737 extent history, in arrivals: extents up to this are
/// exact, larger ones are clamped to it and counted (see the module docs).
/// 65,536 arrivals are 80 ms of a 10 Gb/s flow of 1500-byte packets, or 6.5 s
/// at 100 Mb/s. Memory is proportional to the number of runs of missing
/// packets skipped within the history, not to the history itself.
pub const DEFAULT_EXTENT_HISTORY: u64 = 1 << 16;

/// Largest n for which RFC 4737 Section 5 n-reordering is resolved (MAXN in
/// the RFC's Appendix A code). A packet preceded by more than this many
/// consecutive larger sequence numbers counts as `N_REORDERING_MAX`-reordered.
pub const N_REORDERING_MAX: usize = 100;

/// RFC 4737 Section 4.6 Reordering-Free Runs counters, named as in its
/// pseudo-code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FreeRuns {
    /// x: number of runs, equal to the number of reordered packets (each
    /// reordered arrival ends a run, possibly of length 0).
    pub runs: u64,
    /// a: in-order packets.
    pub in_order: u64,
    /// p: packets (x + a, duplicates excluded).
    pub packets: u64,
    /// q: sum of the squares of the runs ended so far.
    pub sum_squares: u128,
    /// r: length of the run in progress (not yet in `sum_squares`).
    pub current: u64,
}

impl FreeRuns {
    /// Average reordering-free run length a/x (`None` without reordering).
    pub fn mean(&self) -> Option<f64> {
        (self.runs > 0).then(|| self.in_order as f64 / self.runs as f64)
    }

    /// Section 4.6.3's variation indicator (q/a)/(a/x): 1 when all runs have
    /// the same length (`None` without reordering or in-order packets).
    pub fn variation(&self) -> Option<f64> {
        if self.runs == 0 || self.in_order == 0 {
            return None;
        }
        let a = self.in_order as f64;
        Some((self.sum_squares as f64 / a) / (a / self.runs as f64))
    }
}

/// A run `[lo, hi)` of sequence numbers not yet received, all first
/// overtaken by the arrival with index `j` (RFC 4737 Section 4.2.2's `j`:
/// the arrival that raised NextExp past them).
#[derive(Clone, Copy, Debug)]
struct Hole {
    lo: u64,
    hi: u64,
    j: u64,
}

/// Reordering metrics of one flow at its receiver (see the module docs).
#[derive(Clone, Debug)]
pub struct ReorderMeter {
    /// Every call to `on_arrival`, duplicates included (RFC 4737 Section 5's l).
    arrivals: u64,

    // RFC 4737 Sections 3, 4.1, 4.2 (duplicates excluded).
    /// NextExp (Section 3.2).
    next_exp: u64,
    /// L (Section 4.1.2): first copies received; also the last arrival index i.
    received: u64,
    duplicates: u64,
    /// Reordered packets that arrived in the window.
    reordered: u64,
    /// First copies received in the window (the ratio's L).
    window_received: u64,
    /// Arrivals are counted in the windowed metrics.
    counting: bool,
    /// Missing runs below NextExp, sorted, disjoint; `j` is non-decreasing.
    holes: VecDeque<Hole>,
    history: u64,
    /// Sequence numbers below this may have been in a forgotten hole.
    forgotten_below: u64,
    extent_sum: u128,
    extent_max: u64,
    extents_clamped: u64,

    // Section 4.6.
    runs: FreeRuns,

    // Section 5: previous-smaller-or-equal stack of (arrival number, s),
    // holding at most N_REORDERING_MAX + 1 entries.
    nr_stack: VecDeque<(u64, u64)>,
    /// `nr_hist[n]`: arrivals whose largest n is n (capped at the maximum).
    nr_hist: Vec<u64>,

    // RFC 5236.
    rd: Density,

    /// Extent of every reordered packet, in order, for the tests.
    #[cfg(test)]
    extent_trace: Vec<u64>,
}

impl ReorderMeter {
    /// A meter with RFC 5236 displacement threshold `density_threshold` (DT;
    /// [`DEFAULT_DENSITY_THRESHOLD`] when in doubt) and the default extent
    /// history. Memory is about 24 to 32 bytes per unit of DT once the window
    /// has filled.
    pub fn new(density_threshold: u32) -> Self {
        Self::with_extent_history(density_threshold, DEFAULT_EXTENT_HISTORY)
    }

    /// As [`ReorderMeter::new`], with extents exact up to `extent_history`
    /// arrivals (at least 1; `u64::MAX` for no bound at all).
    pub fn with_extent_history(density_threshold: u32, extent_history: u64) -> Self {
        assert!(extent_history >= 1, "the extent history must be at least 1");
        ReorderMeter {
            arrivals: 0,
            next_exp: 0,
            received: 0,
            duplicates: 0,
            reordered: 0,
            window_received: 0,
            counting: true,
            holes: VecDeque::new(),
            history: extent_history,
            forgotten_below: 0,
            extent_sum: 0,
            extent_max: 0,
            extents_clamped: 0,
            runs: FreeRuns::default(),
            nr_stack: VecDeque::with_capacity(N_REORDERING_MAX + 2),
            nr_hist: vec![0; N_REORDERING_MAX + 1],
            rd: Density::new(density_threshold),
            #[cfg(test)]
            extent_trace: Vec::new(),
        }
    }

    /// A packet with source sequence number `s` arrives.
    #[inline]
    pub fn on_arrival(&mut self, s: u64) {
        self.arrivals += 1;
        self.n_reordering(s);
        self.rd.on_arrival(s);
        self.singleton(s);
    }

    /// RFC 4737 Sections 3 (Type-P-Reordered), 4.2 (extent) and 4.6 (runs).
    #[inline]
    fn singleton(&mut self, s: u64) {
        // The index this packet gets if it is not a duplicate.
        let i = self.received + 1;
        while let Some(h) = self.holes.front() {
            if i - h.j <= self.history {
                break;
            }
            self.forgotten_below = h.hi;
            self.holes.pop_front();
        }
        if s >= self.next_exp {
            // In order (Section 3.3); s > NextExp is a sequence discontinuity
            // (Section 3.4) and every number it skips is first overtaken here.
            if s > self.next_exp {
                self.holes.push_back(Hole {
                    lo: self.next_exp,
                    hi: s,
                    j: i,
                });
            }
            self.next_exp = s.saturating_add(1);
            self.received = i;
            self.window_received += u64::from(self.counting);
            self.runs.current += 1;
            self.runs.in_order += 1;
            self.runs.packets += 1;
            return;
        }
        let k = self.holes.partition_point(|h| h.hi <= s);
        let extent = match self.holes.get(k) {
            Some(h) if h.lo <= s => {
                let e = i - h.j;
                self.fill(k, s);
                e
            }
            _ if s < self.forgotten_below => {
                self.extents_clamped += u64::from(self.counting);
                self.history
            }
            // Received before: a duplicate (Section 3.6).
            _ => {
                self.duplicates += 1;
                return;
            }
        };
        self.received = i;
        if self.counting {
            self.window_received += 1;
            self.reordered += 1;
            self.extent_sum += u128::from(extent);
            self.extent_max = self.extent_max.max(extent);
            #[cfg(test)]
            self.extent_trace.push(extent);
        }
        let r = u128::from(self.runs.current);
        self.runs.sum_squares += r * r;
        self.runs.current = 0;
        self.runs.runs += 1;
        self.runs.packets += 1;
    }

    /// Removes `s` from hole `k`, which contains it.
    fn fill(&mut self, k: usize, s: u64) {
        let h = &mut self.holes[k];
        match (h.lo == s, h.hi == s + 1) {
            (true, true) => {
                self.holes.remove(k);
            }
            (true, false) => h.lo += 1,
            (false, true) => h.hi -= 1,
            (false, false) => {
                let upper = Hole {
                    lo: s + 1,
                    hi: h.hi,
                    j: h.j,
                };
                h.hi = s;
                self.holes.insert(k + 1, upper);
            }
        }
    }

    /// RFC 4737 Section 5.3 Definition 1: arrival number `l` is n-reordered
    /// for every n up to the number of consecutive arrivals just before it
    /// with larger sequence numbers, found with a stack of candidates for the
    /// nearest earlier arrival with a number <= s.
    #[inline]
    fn n_reordering(&mut self, s: u64) {
        let l = self.arrivals;
        while matches!(self.nr_stack.back(), Some(&(_, t)) if t > s) {
            self.nr_stack.pop_back();
        }
        let n = match self.nr_stack.back() {
            Some(&(p, _)) => l - p - 1,
            // None earlier, or only ones dropped below, more than the cap ago.
            None => l - 1,
        };
        self.nr_hist[(n.min(N_REORDERING_MAX as u64)) as usize] += 1;
        self.nr_stack.push_back((l, s));
        if self.nr_stack.len() > N_REORDERING_MAX + 1 {
            self.nr_stack.pop_front();
        }
    }

    /// Opens the measurement window: the windowed metrics (reordered count
    /// and ratio, extents, reorder density) start again from zero and count
    /// the packets arriving from now on (see the module docs).
    pub fn begin_window(&mut self) {
        self.counting = true;
        self.reordered = 0;
        self.window_received = 0;
        self.extent_sum = 0;
        self.extent_max = 0;
        self.extents_clamped = 0;
        self.rd.begin_window();
    }

    /// Closes the measurement window: packets arriving from now on are left
    /// out of the windowed metrics.
    pub fn end_window(&mut self) {
        self.counting = false;
        self.rd.end_window();
    }

    /// Calls to [`ReorderMeter::on_arrival`], duplicates included.
    pub fn arrivals(&self) -> u64 {
        self.arrivals
    }

    /// RFC 4737 Section 4.1.2's L: packets received, duplicates removed.
    pub fn received(&self) -> u64 {
        self.received
    }

    /// Copies of already received packets, ignored per RFC 4737 Section 3.6.
    pub fn duplicates(&self) -> u64 {
        self.duplicates
    }

    /// RFC 4737 Section 3.2's NextExp: one more than the largest sequence
    /// number received (0 before any arrival).
    pub fn next_expected(&self) -> u64 {
        self.next_exp
    }

    /// Count of packets with RFC 4737 Section 3.3 `Type-P-Reordered` = TRUE
    /// (that arrived in the measurement window).
    pub fn reordered(&self) -> u64 {
        self.reordered
    }

    /// RFC 4737 Section 4.1.3 `Type-P-Reordered-Ratio-Stream`:
    /// R = reordered / L over the packets that arrived in the measurement
    /// window (0 before any arrival).
    pub fn reordered_ratio(&self) -> f64 {
        if self.window_received == 0 {
            0.0
        } else {
            self.reordered as f64 / self.window_received as f64
        }
    }

    /// Largest RFC 4737 Section 4.2.3 reordering extent e over the reordered
    /// packets (0 if none), in packets.
    pub fn extent_max(&self) -> u64 {
        self.extent_max
    }

    /// Mean RFC 4737 Section 4.2.3 reordering extent over the reordered
    /// packets (0 if none); clamped extents count as the history length.
    pub fn extent_mean(&self) -> f64 {
        if self.reordered == 0 {
            0.0
        } else {
            self.extent_sum as f64 / self.reordered as f64
        }
    }

    /// Reordered packets whose extent exceeded the history and was recorded
    /// as [`ReorderMeter::extent_history`].
    pub fn extents_clamped(&self) -> u64 {
        self.extents_clamped
    }

    /// Arrivals over which extents are exact (see the module docs).
    pub fn extent_history(&self) -> u64 {
        self.history
    }

    /// RFC 4737 Section 4.6 `Type-P-Packet-Reordering-Free-Run` counters.
    pub fn free_runs(&self) -> FreeRuns {
        self.runs
    }

    /// RFC 4737 Section 5.3 Definition 2's m: arrivals that are n-reordered
    /// (`None` unless 1 <= n <= [`N_REORDERING_MAX`]).
    pub fn n_reordered(&self, n: usize) -> Option<u64> {
        (1..=N_REORDERING_MAX)
            .contains(&n)
            .then(|| self.nr_hist[n..].iter().sum())
    }

    /// RFC 4737 Section 5.3 Definition 2: degree of n-reordering m / l, l
    /// counting duplicates (Section 5.2); `None` as for `n_reordered`.
    pub fn n_reordering_degree(&self, n: usize) -> Option<f64> {
        let m = self.n_reordered(n)?;
        Some(if self.arrivals == 0 {
            0.0
        } else {
            m as f64 / self.arrivals as f64
        })
    }

    /// RFC 5236 Section 3.4 displacement threshold DT.
    pub fn density_threshold(&self) -> u32 {
        self.rd.dt as u32
    }

    /// RFC 5236 Section 3.5 Displacement Frequencies FD\[D\] for every D in
    /// \[-DT, DT\] (zeros included), sorted by D, D = RI - s: negative for
    /// early packets, positive for late ones (Section 3.3). The last DT + 1
    /// arrivals are still in the Stay-back window of Section 7.1; they are
    /// evaluated as if the stream ended now (Step 2 run until the window is
    /// empty), without disturbing the meter.
    pub fn density(&self) -> Vec<(i64, u64)> {
        let f = self.rd.finished();
        let dt = self.rd.dt as i64;
        (-dt..=dt)
            .map(|d| {
                let v = if d >= 0 {
                    f.fd_late.get(d as usize)
                } else {
                    f.fd_early.get((-d - 1) as usize)
                };
                (d, v.copied().unwrap_or(0))
            })
            .collect()
    }

    /// RFC 5236 Section 3.6 Reorder Density RD\[D\] = FD\[D\] / N', N' the
    /// number of packets counted in FD (received, neither duplicate nor
    /// displaced beyond DT). All zeros while N' = 0.
    pub fn density_normalized(&self) -> Vec<(i64, f64)> {
        let n = self.density_received();
        self.density()
            .into_iter()
            .map(|(d, f)| (d, if n == 0 { 0.0 } else { f as f64 / n as f64 }))
            .collect()
    }

    /// RFC 5236 Section 3.6's N' = sum of FD\[D\], pending arrivals evaluated
    /// as in [`ReorderMeter::density`].
    pub fn density_received(&self) -> u64 {
        self.rd.finished().counted
    }

    /// Packets RD discarded because their displacement exceeded DT (late ones
    /// are lost per RFC 5236 Section 6, early ones are rogue), pending
    /// arrivals evaluated as in [`ReorderMeter::density`].
    ///
    /// A discard does not move the receive index RI (Section 7.1 moves it
    /// only when it counts a packet or when RI has not arrived), so discards
    /// can lock the algorithm: if RI is the number of an early packet already
    /// counted (in the buffer) and every packet that follows is more than DT
    /// ahead of RI, each of them is discarded in turn and RI never moves
    /// again. With DT = 2, arrivals 2, 4, 0, 7, 8, 9, ... (0 late, 1, 3, 5,
    /// 6 lost) count 2 and 4, discard 0 as late with RI = 4 buffered, then
    /// discard 7, 8, 9, ... for ever. The meter reproduces the RFC's
    /// algorithm as written, so a discard count that keeps growing with the
    /// arrivals means that DT is below the displacements the path produces.
    pub fn density_discarded(&self) -> u64 {
        self.rd.finished().discarded
    }

    /// Arrivals RD ignored as duplicates by RFC 5236's rule (Section 6, and
    /// `get_next_arrival` in Section 7.1): the number is already in window or
    /// buffer, or is below the receive index RI. The latter also catches a
    /// first copy that arrives after RI has moved past its number (RI skips
    /// a number once it is missing from the next DT + 1 arrivals): RD has
    /// then already declared it lost, and so it is not in N'.
    pub fn density_duplicates(&self) -> u64 {
        self.rd.duplicates
    }
}

/// RFC 5236 Section 7.1, Stay-back Method, evaluated as packets arrive.
///
/// The RFC's `window` (the last DT + 1 arrivals, FIFO) is kept as is. Its
/// `buffer` (early packets, all in \[RI, RI + DT\]) is not kept apart: every
/// query the algorithm makes of window and buffer together is about numbers
/// at or above RI (is RI there; the minimum, only compared with RI; is a new
/// arrival, already known to be at or above RI, there), so one set of the
/// numbers at or above RI that are in window or buffer answers them all.
/// Moving a packet from window to buffer leaves the set unchanged, and
/// deleting RI from the buffer happens as RI moves past it. A run of "RI
/// not found" steps (RI jumps to the minimum, or steps by one while the
/// minimum is below it) ends at the smallest number in the set above RI,
/// which the set finds directly.
#[derive(Clone, Debug)]
struct Density {
    dt: u64,
    window: VecDeque<u64>,
    /// Numbers >= RI in window or buffer; holds RI itself.
    ahead: AheadSet,
    /// FD\[D\] for D >= 0 at index D, and for D < 0 at index -D - 1 of
    /// `fd_early`; both grow only as far as the displacements seen, so a
    /// large DT costs no memory until packets are displaced that far.
    fd_late: Vec<u64>,
    fd_early: Vec<u64>,
    /// N'.
    counted: u64,
    discarded: u64,
    duplicates: u64,
    /// Packets pushed into and evaluated out of `window` so far: a packet's
    /// arrival number is its position in this FIFO.
    pushed: u64,
    evaluated: u64,
    /// Packets with arrival numbers in [count_from, count_to) arrived in the
    /// measurement window and are counted in FD, N' and discards.
    count_from: u64,
    count_to: u64,
    /// (s, RI assigned or None if discarded) of every evaluated packet.
    #[cfg(test)]
    trace: Vec<(u64, Option<u64>)>,
}

impl Density {
    fn new(dt: u32) -> Self {
        let dt = u64::from(dt);
        Density {
            dt,
            window: VecDeque::new(),
            ahead: AheadSet::new(dt),
            fd_late: Vec::new(),
            fd_early: Vec::new(),
            counted: 0,
            discarded: 0,
            duplicates: 0,
            pushed: 0,
            evaluated: 0,
            count_from: 0,
            count_to: u64::MAX,
            #[cfg(test)]
            trace: Vec::new(),
        }
    }

    fn begin_window(&mut self) {
        self.count_from = self.pushed;
        self.count_to = u64::MAX;
        self.fd_late.clear();
        self.fd_early.clear();
        self.counted = 0;
        self.discarded = 0;
    }

    fn end_window(&mut self) {
        self.count_to = self.count_to.min(self.pushed);
    }

    #[inline]
    fn on_arrival(&mut self, s: u64) {
        // get_next_arrival(): newS < RI or newS in buffer or newS in window.
        if s < self.ahead.ri || self.ahead.contains(s) {
            self.duplicates += 1;
            return;
        }
        self.window.push_back(s);
        self.pushed += 1;
        self.ahead.insert(s);
        // Step 1 fills the window with DT + 1 packets; from then on Step 2
        // moves one packet out per arrival.
        if self.window.len() as u64 > self.dt {
            self.step();
        }
    }

    /// Step 2 until one packet leaves the window.
    fn step(&mut self) {
        if !self.ahead.contains(self.ahead.ri) {
            // RI is lost: next RI is the smallest arrived number above it.
            match self.ahead.first() {
                Some(x) => self.ahead.advance_to(x),
                None => {
                    // Every packet left is below RI and none can ever get an
                    // RI: the RFC's loop would step RI for ever, their
                    // displacement growing past DT. Unreachable (each number
                    // RI moves past was assigned to a packet no longer in the
                    // window, so a window packet below RI would make more
                    // assigned numbers than assigned packets), kept so that a
                    // mistake here cannot hang the simulator.
                    let n = self.window.len() as u64;
                    let (a, b) = (self.evaluated, self.evaluated + n);
                    let counted = b.min(self.count_to).saturating_sub(a.max(self.count_from));
                    self.discarded += counted;
                    self.evaluated = b;
                    self.window.clear();
                    return;
                }
            }
        }
        let ri = self.ahead.ri;
        let Some(s) = self.window.pop_front() else {
            return;
        };
        let n = self.evaluated;
        self.evaluated += 1;
        let in_window = n >= self.count_from && n < self.count_to;
        let d = i128::from(ri) - i128::from(s);
        if d.unsigned_abs() <= u128::from(self.dt) {
            if in_window {
                let (v, i) = if d >= 0 {
                    (&mut self.fd_late, d as usize)
                } else {
                    (&mut self.fd_early, (-d - 1) as usize)
                };
                if v.len() <= i {
                    v.resize(i + 1, 0);
                }
                v[i] += 1;
                self.counted += 1;
            }
            #[cfg(test)]
            self.trace.push((s, Some(ri)));
            // D < 0: s joins the buffer (already in `ahead`). RI leaves the
            // buffer (or was s itself) as RI moves on.
            self.ahead.advance_to(ri + 1);
        } else {
            self.discarded += u64::from(in_window);
            #[cfg(test)]
            self.trace.push((s, None));
            if s > ri {
                // Early beyond DT: not moved to the buffer.
                self.ahead.remove(s);
            }
        }
    }

    /// The state after the stream ends now: Step 2 until the window is empty.
    fn finished(&self) -> Density {
        let mut d = self.clone();
        while !d.window.is_empty() {
            d.step();
        }
        d
    }
}

/// A set of numbers >= `ri`: a bitmap ring for \[ri, ri + cap) (bit `x % cap`),
/// the rest in a short sorted list. Moving `ri` forward costs time
/// proportional to the distance / 64, so it is amortized O(1) per arrival.
#[derive(Clone, Debug)]
struct AheadSet {
    ri: u64,
    /// cap - 1, cap a power of two >= 64 and >= 4 (DT + 1).
    mask: u64,
    bits: Vec<u64>,
    /// Members >= ri + cap, in decreasing order (smallest last).
    far: Vec<u64>,
}

impl AheadSet {
    fn new(dt: u64) -> Self {
        // The buffer stays within [RI, RI + DT]; the margin keeps window
        // packets that are early by up to 3 DT out of the list.
        let cap = (4 * (dt + 1)).next_power_of_two().max(64);
        AheadSet {
            ri: 0,
            mask: cap - 1,
            bits: vec![0; (cap / 64) as usize],
            far: Vec::new(),
        }
    }

    #[inline]
    fn near(&self, x: u64) -> bool {
        x - self.ri <= self.mask
    }

    #[inline]
    fn word_bit(&self, x: u64) -> (usize, u64) {
        let p = x & self.mask;
        ((p >> 6) as usize, 1 << (p & 63))
    }

    /// Index in `far` where `x` is or would go.
    fn far_index(&self, x: u64) -> usize {
        self.far.partition_point(|&y| y > x)
    }

    #[inline]
    fn contains(&self, x: u64) -> bool {
        if x < self.ri {
            false
        } else if self.near(x) {
            let (w, b) = self.word_bit(x);
            self.bits[w] & b != 0
        } else {
            self.far.get(self.far_index(x)) == Some(&x)
        }
    }

    /// Adds `x` >= ri.
    #[inline]
    fn insert(&mut self, x: u64) {
        if self.near(x) {
            let (w, b) = self.word_bit(x);
            self.bits[w] |= b;
        } else {
            let k = self.far_index(x);
            self.far.insert(k, x);
        }
    }

    /// Removes `x` >= ri.
    fn remove(&mut self, x: u64) {
        if self.near(x) {
            let (w, b) = self.word_bit(x);
            self.bits[w] &= !b;
        } else {
            let k = self.far_index(x);
            if self.far.get(k) == Some(&x) {
                self.far.remove(k);
            }
        }
    }

    /// Smallest member (all members are >= ri).
    fn first(&self) -> Option<u64> {
        let n = self.bits.len();
        let p0 = self.ri & self.mask;
        let w0 = (p0 >> 6) as usize;
        let above = !0u64 << (p0 & 63);
        // Ring order from ri's bit is numeric order from ri.
        let words = std::iter::once((w0, self.bits[w0] & above))
            .chain((1..n).map(|k| ((w0 + k) % n, self.bits[(w0 + k) % n])))
            .chain(std::iter::once((w0, self.bits[w0] & !above)));
        for (w, word) in words {
            if word != 0 {
                let p = (w as u64) * 64 + u64::from(word.trailing_zeros());
                return Some(self.ri + (p.wrapping_sub(p0) & self.mask));
            }
        }
        self.far.last().copied()
    }

    /// Moves ri forward to `r`, forgetting members below it.
    fn advance_to(&mut self, r: u64) {
        debug_assert!(r > self.ri);
        if r - self.ri > self.mask {
            self.bits.fill(0);
        } else {
            let mut a = self.ri;
            while a < r {
                let p = a & self.mask;
                let bit = p & 63;
                let len = (64 - bit).min(r - a);
                let m = if len == 64 {
                    !0
                } else {
                    ((1u64 << len) - 1) << bit
                };
                self.bits[(p >> 6) as usize] &= !m;
                a += len;
            }
        }
        self.ri = r;
        while let Some(&x) = self.far.last() {
            if x >= r && !self.near(x) {
                break;
            }
            self.far.pop();
            if x >= r {
                let (w, b) = self.word_bit(x);
                self.bits[w] |= b;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn meter(dt: u32, seq: &[u64]) -> ReorderMeter {
        let mut m = ReorderMeter::new(dt);
        for &s in seq {
            m.on_arrival(s);
        }
        m
    }

    /// (s, RI) of every packet RD evaluated, pending ones included.
    fn rd_trace(m: &ReorderMeter) -> Vec<(u64, Option<u64>)> {
        m.rd.finished().trace
    }

    fn fd_of(m: &ReorderMeter) -> Vec<(i64, u64)> {
        m.density().into_iter().filter(|&(_, f)| f > 0).collect()
    }

    /// Only packets arriving inside the window count, but their order is
    /// judged against the whole stream: 1 arriving in the window after 2
    /// arrived before it is reordered (extent 1); 6 after the window closed
    /// is not counted.
    #[test]
    fn the_window_counts_only_packets_arriving_in_it() {
        let mut m = ReorderMeter::new(3);
        for s in [0, 2] {
            m.on_arrival(s);
        }
        m.begin_window();
        for s in [1, 3, 5, 4] {
            m.on_arrival(s);
        }
        m.end_window();
        for s in [7, 6] {
            m.on_arrival(s);
        }
        assert_eq!(m.reordered(), 2);
        assert_eq!(m.reordered_ratio(), 0.5);
        assert_eq!((m.extent_max(), m.extent_mean()), (1, 1.0));
        // RD (DT = 3) evaluates 1 late by one, 3 in place, 5 early by one,
        // 4 late by one; 0, 2, 7 and 6 arrived outside the window.
        assert_eq!(fd_of(&m), [(-1, 1), (0, 1), (1, 2)]);
        assert_eq!(m.density_received(), 4);
        // Whole-stream counts are unaffected.
        assert_eq!((m.arrivals(), m.received()), (8, 8));
    }

    /// Without begin/end calls, or with a window opened before the first
    /// arrival, the meter reports the whole stream.
    #[test]
    fn a_window_over_the_whole_stream_changes_nothing() {
        let seq = [3, 0, 1, 5, 2, 4, 9, 7, 8, 6];
        let whole = meter(4, &seq);
        let mut m = ReorderMeter::new(4);
        m.begin_window();
        for &s in &seq {
            m.on_arrival(s);
        }
        assert_eq!(m.reordered_ratio(), whole.reordered_ratio());
        assert_eq!(m.extent_mean(), whole.extent_mean());
        assert_eq!(m.density(), whole.density());
    }

    /// NextExp after each arrival must equal the table's NextExp column for
    /// the next row (the column is the value before each arrival).
    fn next_exp_after_each(seq: &[u64]) -> Vec<u64> {
        let mut m = ReorderMeter::new(4);
        seq.iter()
            .map(|&s| {
                m.on_arrival(s);
                m.next_expected()
            })
            .collect()
    }

    fn n_max_of_each(seq: &[u64]) -> Vec<usize> {
        let mut m = ReorderMeter::new(4);
        seq.iter()
            .map(|&s| {
                let before: Vec<u64> = (1..=N_REORDERING_MAX)
                    .map(|n| m.n_reordered(n).unwrap())
                    .collect();
                m.on_arrival(s);
                (1..=N_REORDERING_MAX)
                    .take_while(|&n| m.n_reordered(n).unwrap() > before[n - 1])
                    .count()
            })
            .collect()
    }

    // ---- RFC 4737 ----

    /// RFC 4737 Section 7.1, Table 1: packet 4 arrives after 5..8; NextExp
    /// column; it alone is reordered, e = 4, and it is 4-reordered.
    #[test]
    fn rfc4737_7_1_single_packet_reordered() {
        let s = [1, 2, 3, 5, 6, 7, 8, 4, 9, 10];
        // Table 1 NextExp (before each arrival): 1 2 3 4 6 7 8 9 9 10.
        assert_eq!(next_exp_after_each(&s)[..9], [2, 3, 4, 6, 7, 8, 9, 9, 10]);
        let m = meter(4, &s);
        assert_eq!(m.reordered(), 1);
        assert_eq!(m.reordered_ratio(), 0.1);
        assert_eq!(m.extent_trace, [4]);
        assert_eq!((m.extent_max(), m.extent_mean()), (4, 4.0));
        assert_eq!(n_max_of_each(&s), [0, 0, 0, 0, 0, 0, 0, 4, 0, 0]);
        assert_eq!((m.n_reordered(4), m.n_reordered(5)), (Some(1), Some(0)));
    }

    /// RFC 4737 Section 7.2, Table 2: 5 and 6 arrive behind 7: both
    /// reordered, e = 1 and 2; 5 is 1-reordered, 6 is not n-reordered.
    #[test]
    fn rfc4737_7_2_two_packets_reordered() {
        let s = [1, 2, 3, 4, 7, 5, 6, 8, 9, 10];
        assert_eq!(next_exp_after_each(&s)[..9], [2, 3, 4, 5, 8, 8, 8, 9, 10]);
        let m = meter(4, &s);
        assert_eq!(m.reordered(), 2);
        assert_eq!(m.reordered_ratio(), 0.2);
        assert_eq!(m.extent_trace, [1, 2]);
        assert_eq!((m.extent_max(), m.extent_mean()), (2, 1.5));
        assert_eq!(n_max_of_each(&s), [0, 0, 0, 0, 0, 1, 0, 0, 0, 0]);
    }

    /// RFC 4737 Section 7.3, Table 3: 4, 5, 6 arrive after 7..10: extent
    /// histogram bins 4, 5, 6 hold one each; only packet 4 is n-reordered,
    /// with 4 the maximum n.
    #[test]
    fn rfc4737_7_3_three_packets_reordered() {
        let s = [1, 2, 3, 7, 8, 9, 10, 4, 5, 6, 11];
        assert_eq!(
            next_exp_after_each(&s)[..10],
            [2, 3, 4, 8, 9, 10, 11, 11, 11, 11]
        );
        let m = meter(4, &s);
        assert_eq!(m.reordered(), 3);
        assert_eq!(m.extent_trace, [4, 5, 6]);
        assert_eq!((m.extent_max(), m.extent_mean()), (6, 5.0));
        assert_eq!(n_max_of_each(&s), [0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0]);
    }

    /// RFC 4737 Section 7.4, Table 4: extents 2 (packet 4), 3 (5), 2 (11);
    /// the run counter r after each arrival; runs of 5, 0 and 5.
    #[test]
    fn rfc4737_7_4_multiple_discontinuities_and_free_runs() {
        let s = [1, 2, 3, 6, 7, 4, 5, 8, 9, 10, 12, 13, 11, 14, 15, 16];
        let mut m = ReorderMeter::new(4);
        let mut r = Vec::new();
        for &x in &s {
            m.on_arrival(x);
            r.push(m.free_runs().current);
        }
        assert_eq!(r, [1, 2, 3, 4, 5, 0, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3]);
        assert_eq!(m.extent_trace, [2, 3, 2]);
        let f = m.free_runs();
        assert_eq!(
            (f.runs, f.in_order, f.packets, f.sum_squares),
            (3, 13, 16, 50)
        );
    }

    /// RFC 4737 Section 4.6.4: 36 packets in 3 runs of 11: p = 36, x = 3,
    /// a = 33, q = 363, mean 11, q/a = 11, (q/a)/(a/x) = 1.0.
    #[test]
    fn rfc4737_4_6_4_equal_runs() {
        let mut s: Vec<u64> = Vec::new();
        for b in 0..3 {
            s.extend(12 * b + 1..=12 * b + 11);
            s.push(12 * b);
        }
        let f = meter(4, &s).free_runs();
        assert_eq!(
            (f.packets, f.runs, f.in_order, f.sum_squares),
            (36, 3, 33, 363)
        );
        assert_eq!(f.mean(), Some(11.0));
        assert!((f.sum_squares as f64 / 33.0 - 11.0).abs() < 1e-12);
        assert!((f.variation().unwrap() - 1.0).abs() < 1e-12);
    }

    /// RFC 4737 Section 4.6.4: runs of 1, 1 and 31: q = 963, mean 11,
    /// q/a = 29.18, (q/a)/(a/x) = 2.65.
    #[test]
    fn rfc4737_4_6_4_unequal_runs() {
        let mut s: Vec<u64> = vec![1, 0, 3, 2];
        s.extend(5..=35);
        s.push(4);
        let f = meter(4, &s).free_runs();
        assert_eq!(
            (f.packets, f.runs, f.in_order, f.sum_squares),
            (36, 3, 33, 963)
        );
        assert_eq!(f.mean(), Some(11.0));
        assert_eq!(format!("{:.2}", f.sum_squares as f64 / 33.0), "29.18");
        assert_eq!(format!("{:.2}", f.variation().unwrap()), "2.65");
    }

    /// RFC 4737 Section 5.3: in {1,2,3,7,8,9,4,5,6}, 4, 5 and 6 are
    /// reordered but only 4 is n-reordered, with n = 3.
    #[test]
    fn rfc4737_5_3_block_reordering() {
        let s = [1, 2, 3, 7, 8, 9, 4, 5, 6];
        let m = meter(4, &s);
        assert_eq!(m.reordered(), 3);
        assert_eq!(n_max_of_each(&s), [0, 0, 0, 0, 0, 0, 3, 0, 0]);
        assert_eq!((m.n_reordered(3), m.n_reordered(4)), (Some(1), Some(0)));
        assert_eq!(m.n_reordering_degree(3), Some(1.0 / 9.0));
        assert_eq!(
            (m.n_reordered(0), m.n_reordered(N_REORDERING_MAX + 1)),
            (None, None)
        );
    }

    /// RFC 4737 Section 3.6: the first packet is in order, and of duplicate
    /// copies only the first counts: the rest are noted, not reordered.
    #[test]
    fn rfc4737_3_6_first_packet_and_duplicates() {
        let m = meter(4, &[5, 5, 6, 5, 3, 3, 4]);
        assert_eq!(m.arrivals(), 7);
        assert_eq!(m.received(), 4);
        assert_eq!(m.duplicates(), 3);
        assert_eq!(m.reordered(), 2);
        assert_eq!(m.reordered_ratio(), 0.5);
        assert_eq!(m.extent_trace, [2, 3], "3 and 4 are first overtaken by 5");
    }

    /// RFC 4737 Section 6: "losses alone do not cause subsequent packets to
    /// be declared reordered".
    #[test]
    fn rfc4737_6_losses_alone_reorder_nothing() {
        let s: Vec<u64> = (0..1000).filter(|x| x % 7 != 3).collect();
        let m = meter(4, &s);
        assert_eq!((m.reordered(), m.extent_max()), (0, 0));
        assert_eq!(m.n_reordered(1), Some(0));
    }

    // ---- RFC 5236 ----

    /// RFC 5236 Section 3.1 Example 1: arrived 2 1 4 5 3 get receive
    /// indexes 1 2 3 4 5.
    #[test]
    fn rfc5236_3_1_example_1_receive_index() {
        let m = meter(2, &[2, 1, 4, 5, 3]);
        let ri: Vec<_> = rd_trace(&m).into_iter().map(|(_, ri)| ri).collect();
        assert_eq!(ri, [Some(1), Some(2), Some(3), Some(4), Some(5)]);
        assert_eq!(fd_of(&m), [(-1, 3), (1, 1), (2, 1)]);
    }

    /// RFC 5236 Section 3.1 Example 2: arrived 1 4 3 5 3 (2 lost, 3
    /// duplicated) get 1 3 4 5 and no index for the second 3.
    #[test]
    fn rfc5236_3_1_example_2_loss_and_duplicate() {
        let m = meter(3, &[1, 4, 3, 5, 3]);
        assert_eq!(
            rd_trace(&m),
            [(1, Some(1)), (4, Some(3)), (3, Some(4)), (5, Some(5))]
        );
        assert_eq!(m.density_duplicates(), 1);
    }

    /// RFC 5236 Section 3.3 Example 3: arrived 1 4 3 5 3 8 7 6, receive
    /// index 1 3 4 5 - 6 7 8, displacement 0 -1 1 0 - -2 0 2.
    #[test]
    fn rfc5236_3_3_example_3_displacement() {
        let m = meter(3, &[1, 4, 3, 5, 3, 8, 7, 6]);
        let rows: Vec<_> = rd_trace(&m)
            .into_iter()
            .map(|(s, ri)| (s, ri.unwrap(), ri.unwrap() as i64 - s as i64))
            .collect();
        assert_eq!(
            rows,
            [
                (1, 1, 0),
                (4, 3, -1),
                (3, 4, 1),
                (5, 5, 0),
                (8, 6, -2),
                (7, 7, 0),
                (6, 8, 2)
            ]
        );
        assert_eq!(m.density_duplicates(), 1);
    }

    /// RFC 5236 Section 4 Example 4: 1 2 3 5 4 6, D = 0 0 0 -1 1 0,
    /// R = {(4,1), (5,-1)}.
    #[test]
    fn rfc5236_4_example_4() {
        let m = meter(3, &[1, 2, 3, 5, 4, 6]);
        assert_eq!(fd_of(&m), [(-1, 1), (0, 4), (1, 1)]);
        let d: Vec<i64> = rd_trace(&m)
            .iter()
            .map(|&(s, ri)| ri.unwrap() as i64 - s as i64)
            .collect();
        assert_eq!(d, [0, 0, 0, -1, 1, 0]);
    }

    /// RFC 5236 Section 4 Example 5: 1 2 5 3 6 2 (4 lost, 2 duplicated):
    /// RI 1 2 3 5 6 -, D 0 0 -2 2 0 -, R = {(3,2), (5,-2)}.
    #[test]
    fn rfc5236_4_example_5_loss_and_duplicate() {
        for dt in [2, 3, 4] {
            let m = meter(dt, &[1, 2, 5, 3, 6, 2]);
            assert_eq!(
                rd_trace(&m),
                [
                    (1, Some(1)),
                    (2, Some(2)),
                    (5, Some(3)),
                    (3, Some(5)),
                    (6, Some(6))
                ],
                "DT = {dt}"
            );
            assert_eq!(fd_of(&m), [(-2, 1), (0, 3), (2, 1)]);
            assert_eq!(m.density_duplicates(), 1);
        }
    }

    /// RFC 5236 Section 8 a, Tables 1 and 2: (1, 4, 2, 5, 3, 6, 7, 8), DT = 4:
    /// RI 1..8, D 0 -2 1 -1 2 0 0 0, FD = 1 1 4 1 1 for D = -2..2,
    /// RD = 0.125 0.125 0.5 0.125 0.125.
    #[test]
    fn rfc5236_8a_no_loss() {
        let m = meter(4, &[1, 4, 2, 5, 3, 6, 7, 8]);
        let ri: Vec<_> = rd_trace(&m).iter().map(|&(_, ri)| ri.unwrap()).collect();
        assert_eq!(ri, [1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(
            m.density(),
            [
                (-4, 0),
                (-3, 0),
                (-2, 1),
                (-1, 1),
                (0, 4),
                (1, 1),
                (2, 1),
                (3, 0),
                (4, 0)
            ]
        );
        let rd: Vec<f64> = m.density_normalized()[2..7]
            .iter()
            .map(|&(_, f)| f)
            .collect();
        assert_eq!(rd, [0.125, 0.125, 0.5, 0.125, 0.125]);
        assert_eq!(m.density_received(), 8);
    }

    /// RFC 5236 Section 8 b, Table 5: (1, 2, 4, 5, 6, 7), DT = 3, 3 lost:
    /// RI 1 2 4 5 6 7, every D = 0, FD[0] = 6, RD[0] = 1.
    #[test]
    fn rfc5236_8b_packet_loss() {
        let m = meter(3, &[1, 2, 4, 5, 6, 7]);
        let ri: Vec<_> = rd_trace(&m).iter().map(|&(_, ri)| ri.unwrap()).collect();
        assert_eq!(ri, [1, 2, 4, 5, 6, 7]);
        assert_eq!(fd_of(&m), [(0, 6)]);
        assert_eq!(m.density_normalized()[3], (0, 1.0));
    }

    /// RFC 5236 Section 8 c, Table 7: (1, 3, 2, 3, 4, 5), DT = 2: RI 1 2 3 -
    /// 4 5, D 0 -1 1 - 0 0, RD = 0.2 0.6 0.2 for D = -1, 0, 1.
    #[test]
    fn rfc5236_8c_duplicate() {
        let m = meter(2, &[1, 3, 2, 3, 4, 5]);
        assert_eq!(
            rd_trace(&m),
            [
                (1, Some(1)),
                (3, Some(2)),
                (2, Some(3)),
                (4, Some(4)),
                (5, Some(5))
            ]
        );
        assert_eq!(m.density(), [(-2, 0), (-1, 1), (0, 3), (1, 1), (2, 0)]);
        let rd: Vec<f64> = m.density_normalized().iter().map(|&(_, f)| f).collect();
        assert_eq!(rd, [0.0, 0.2, 0.6, 0.2, 0.0]);
        assert_eq!(m.density_duplicates(), 1);
    }

    /// RFC 5236 Section 6: in (1, 5430, 2, 3, 4, 5, ...) "rogue packet 5430
    /// is discarded" as its displacement exceeds DT; the rest is in order.
    #[test]
    fn rfc5236_6_rogue_packet_discarded() {
        let mut s = vec![1, 5430];
        s.extend(2..=20);
        let m = meter(3, &s);
        assert_eq!(m.density_discarded(), 1);
        assert_eq!(fd_of(&m), [(0, 20)]);
        assert!(rd_trace(&m).contains(&(5430, None)));
    }

    /// RFC 5236 Section 2 b: with 2 lost, (1, 3, 4, 5, 6) has no out-of-order
    /// packet; (1, 2, 3, 2, 4, 5) has no reordering. Same under RFC 4737.
    #[test]
    fn rfc5236_2b_loss_and_duplication_are_not_reordering() {
        for s in [&[1, 3, 4, 5, 6][..], &[1, 2, 3, 2, 4, 5]] {
            let m = meter(3, s);
            assert_eq!(fd_of(&m), [(0, 5)], "{s:?}");
            assert_eq!(m.reordered(), 0, "{s:?}");
        }
    }

    // ---- streams ----

    /// An in-order stream: ratio 0, no extent, the whole density at D = 0.
    #[test]
    fn in_order_stream() {
        let n = 10_000;
        let m = meter(DEFAULT_DENSITY_THRESHOLD, &(0..n).collect::<Vec<_>>());
        assert_eq!((m.reordered(), m.reordered_ratio()), (0, 0.0));
        assert_eq!((m.extent_max(), m.extent_mean()), (0, 0.0));
        let d = m.density();
        assert_eq!(d.len(), 2 * DEFAULT_DENSITY_THRESHOLD as usize + 1);
        assert!(d.iter().all(|&(k, f)| f == if k == 0 { n } else { 0 }));
        assert_eq!(
            m.density_normalized()[DEFAULT_DENSITY_THRESHOLD as usize],
            (0, 1.0)
        );
    }

    /// One packet delayed by k positions in n: extent k, ratio 1/n; in RD
    /// it is late by k and the k packets it let through are early by 1.
    #[test]
    fn one_packet_delayed_by_k() {
        let n = 100u64;
        for k in [1u64, 3, 10, 50] {
            let mut s: Vec<u64> = (0..n).collect();
            let p = s.remove(20);
            s.insert(20 + k as usize, p);
            let m = meter(64, &s);
            assert_eq!(m.reordered(), 1);
            assert_eq!(m.reordered_ratio(), 1.0 / n as f64);
            assert_eq!((m.extent_max(), m.extent_mean()), (k, k as f64));
            assert_eq!(m.n_reordered(k as usize), Some(1));
            assert_eq!(m.n_reordered(k as usize + 1), Some(0));
            assert_eq!(
                fd_of(&m),
                [(-1, k), (0, n - k - 1), (k as i64, 1)],
                "k = {k}"
            );
        }
    }

    /// A packet later than the extent history: still reordered, its extent
    /// clamped to the history and counted; recent duplicates still detected.
    #[test]
    fn extent_beyond_history_is_clamped_and_counted() {
        let mut m = ReorderMeter::with_extent_history(4, 8);
        for s in (0..30).filter(|&s| s != 5) {
            m.on_arrival(s);
        }
        m.on_arrival(5); // overtaken by 6 at index 6; now index 30
        m.on_arrival(29); // a duplicate
        assert_eq!(m.reordered(), 1);
        assert_eq!((m.extents_clamped(), m.extent_max()), (1, 8));
        assert_eq!(m.duplicates(), 1);
        // Within the history the extent is exact.
        let mut m = ReorderMeter::with_extent_history(4, 8);
        for s in [0, 2, 3, 4, 5, 6, 7, 8, 9, 1] {
            m.on_arrival(s);
        }
        assert_eq!((m.extents_clamped(), m.extent_max()), (0, 8));
    }

    /// The literal RFC 5236 Section 7.1 algorithm locks after a discard while
    /// RI is buffered (see `density_discarded`): with DT = 2, 2 4 0 7 8 ... 37
    /// counts 2 and 4 and discards everything else, in-order tail included.
    /// Checked against the transcription of Section 7.1 (not an RFC example).
    #[test]
    fn rfc5236_7_1_discard_with_buffered_ri_stops_counting() {
        let mut s = vec![2, 4, 0];
        s.extend(7..=37);
        let m = meter(2, &s);
        assert_eq!(fd_of(&m), [(-2, 2)]);
        assert_eq!((m.density_received(), m.density_discarded()), (2, 32));
        let fd: Vec<u64> = m.density().iter().map(|&(_, f)| f).collect();
        assert_eq!(Some(fd), rfc5236_reference(&s, 2));
        // RFC 4737 is unaffected: only 0 is reordered.
        assert_eq!((m.reordered(), m.extent_max()), (1, 2));
    }

    /// A long lossy, reordered run: the bounded structures stop growing, so
    /// steady state allocates nothing.
    #[test]
    fn steady_state_memory_is_bounded() {
        let mut m = ReorderMeter::new(DEFAULT_DENSITY_THRESHOLD);
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut late: VecDeque<(u64, u64)> = VecDeque::new();
        let mut caps = None;
        for s in 0..2_000_000u64 {
            let r = rnd();
            if r % 100 == 0 {
                continue; // lost
            }
            if r % 100 < 5 {
                late.push_back((s + 1 + r % 40, s)); // delayed by up to 40
            } else {
                m.on_arrival(s);
            }
            while late.front().is_some_and(|&(t, _)| t <= s) {
                m.on_arrival(late.pop_front().unwrap().1);
            }
            if s == 1_000_000 {
                caps = Some((m.holes.capacity(), m.rd.window.capacity(), m.rd.far_cap()));
            }
        }
        assert_eq!(
            caps,
            Some((m.holes.capacity(), m.rd.window.capacity(), m.rd.far_cap()))
        );
        assert!(m.reordered() > 0 && m.extents_clamped() == 0);
        assert!(m.holes.len() < 2000, "{} holes", m.holes.len());
    }

    impl Density {
        fn far_cap(&self) -> usize {
            self.ahead.far.capacity()
        }
    }

    // ---- references, straight from the RFC text ----

    /// RFC 4737 Sections 3.6, 3.3, 4.2.3 on the whole sample: (reordered,
    /// extents in order, duplicates), O(n^2).
    fn rfc4737_reference(seq: &[u64]) -> (u64, Vec<u64>, u64) {
        let mut seen = std::collections::HashSet::new();
        let s: Vec<u64> = seq.iter().copied().filter(|x| seen.insert(*x)).collect();
        let mut next_exp = 0;
        let mut extents = Vec::new();
        for (i, &x) in s.iter().enumerate() {
            if x >= next_exp {
                next_exp = x + 1;
            } else {
                let j = (0..i).find(|&j| s[j] > x).unwrap();
                extents.push((i - j) as u64);
            }
        }
        (extents.len() as u64, extents, (seq.len() - s.len()) as u64)
    }

    /// RFC 4737 Section 5.3 Definition 1 for each arrival, duplicates kept.
    fn n_reordering_reference(seq: &[u64]) -> Vec<u64> {
        let mut hist = vec![0u64; N_REORDERING_MAX + 1];
        for i in 0..seq.len() {
            let n = (0..i).rev().take_while(|&j| seq[j] > seq[i]).count();
            hist[n.min(N_REORDERING_MAX)] += 1;
        }
        hist
    }

    /// RFC 5236 Section 7.1 transcribed literally (window and buffer as
    /// lists, RI from 0): FD[-DT..=DT], or None if Step 2 does not end.
    fn rfc5236_reference(seq: &[u64], dt: u64) -> Option<Vec<u64>> {
        let mut arrivals = seq.iter().copied();
        let (mut window, mut buffer) = (VecDeque::<u64>::new(), Vec::<u64>::new());
        let mut ri = 0u64;
        let mut fd = vec![0u64; 2 * dt as usize + 1];
        // get_next_arrival(): the next arrival that is not a duplicate.
        fn next(
            ri: u64,
            w: &VecDeque<u64>,
            b: &[u64],
            a: &mut impl Iterator<Item = u64>,
        ) -> Option<u64> {
            a.find(|&n| !(n < ri || b.contains(&n) || w.contains(&n)))
        }
        while window.len() as u64 <= dt {
            match next(ri, &window, &buffer, &mut arrivals) {
                Some(n) => window.push_back(n),
                None => break,
            }
        }
        let mut guard = 0;
        while !window.is_empty() {
            guard += 1;
            if guard > 100_000 {
                return None;
            }
            if window.contains(&ri) || buffer.contains(&ri) {
                let s = window.pop_front().unwrap();
                let d = ri as i64 - s as i64;
                if d.unsigned_abs() <= dt {
                    fd[(d + dt as i64) as usize] += 1;
                    buffer.retain(|&b| b != ri);
                    if d < 0 {
                        buffer.push(s);
                    }
                    ri += 1;
                }
                if let Some(n) = next(ri, &window, &buffer, &mut arrivals) {
                    window.push_back(n);
                }
            } else {
                let m = window.iter().chain(&buffer).copied().min().unwrap();
                if ri < m {
                    ri = m;
                } else {
                    ri += 1;
                }
            }
        }
        Some(fd)
    }

    fn check_against_references(seq: &[u64], dt: u32) -> Result<(), TestCaseError> {
        let m = meter(dt, seq);
        let (reordered, extents, dups) = rfc4737_reference(seq);
        prop_assert_eq!(m.reordered(), reordered);
        prop_assert_eq!(&m.extent_trace, &extents);
        prop_assert_eq!(m.duplicates(), dups);
        prop_assert_eq!(m.extent_max(), extents.iter().copied().max().unwrap_or(0));
        prop_assert_eq!(m.nr_hist.clone(), n_reordering_reference(seq));
        let f = m.free_runs();
        prop_assert_eq!((f.runs, f.packets), (reordered, m.received()));
        let fd: Vec<u64> = m.density().into_iter().map(|(_, f)| f).collect();
        let want = rfc5236_reference(seq, u64::from(dt));
        prop_assert!(want.is_some(), "RFC 5236 Step 2 did not end");
        prop_assert_eq!(fd, want.unwrap());
        Ok(())
    }

    /// Sequence numbers delayed by random amounts, some lost, some
    /// duplicated, a few rogue ones far ahead.
    fn stream() -> impl Strategy<Value = Vec<u64>> {
        let pkt = (
            prop_oneof![6 => Just(0u64), 3 => 0u64..8, 1 => 0u64..300],
            prop::bool::weighted(0.1),
            prop::option::weighted(0.05, 0u64..20),
            prop::bool::weighted(0.01),
        );
        prop::collection::vec(pkt, 1..400).prop_map(|pkts| {
            let mut v: Vec<(u64, u64)> = Vec::new();
            for (s, &(delay, lost, dup, rogue)) in pkts.iter().enumerate() {
                let s = s as u64;
                if rogue {
                    v.push((s, s + 5_000));
                }
                if !lost {
                    v.push((s + delay, s));
                }
                if let Some(extra) = dup {
                    v.push((s + delay + extra, s));
                }
            }
            v.sort_by_key(|&(t, _)| t);
            v.into_iter().map(|(_, s)| s).collect()
        })
    }

    proptest! {
        /// Random permutations: no panic, ratio in [0, 1], extent_max < n,
        /// FD sums to N' = arrivals - duplicates - discarded (RFC 5236
        /// Sections 3.6 and 6), and everything matches the references.
        #[test]
        fn permutations(
            seq in (1u64..300)
                .prop_flat_map(|n| Just((0..n).collect::<Vec<_>>()).prop_shuffle()),
            dt in 0u32..40,
        ) {
            let n = seq.len() as u64;
            let m = meter(dt, &seq);
            prop_assert!((0.0..=1.0).contains(&m.reordered_ratio()));
            prop_assert!(m.extent_max() < n);
            let sum: u64 = m.density().iter().map(|&(_, f)| f).sum();
            prop_assert_eq!(sum, m.density_received());
            // No copies here: what RD calls duplicates are packets whose
            // number RI had passed when they arrived (RFC 5236 Section 6).
            prop_assert_eq!(sum, n - m.density_discarded() - m.density_duplicates());
            let rd: f64 = m.density_normalized().iter().map(|&(_, f)| f).sum();
            prop_assert!(sum == 0 || (rd - 1.0).abs() < 1e-9);
            check_against_references(&seq, dt)?;
        }

        /// Lossy streams with duplicates and rogue packets match the
        /// references; the density counts every RD-accepted arrival once.
        #[test]
        fn lossy_streams_match_the_rfcs(seq in stream(), dt in 0u32..40) {
            check_against_references(&seq, dt)?;
            let m = meter(dt, &seq);
            let sum: u64 = m.density().iter().map(|&(_, f)| f).sum();
            prop_assert_eq!(
                sum,
                m.arrivals() - m.density_duplicates() - m.density_discarded()
            );
        }

        /// With a short history (and no duplicates) every extent is
        /// min(e, history) and the clamps are counted.
        #[test]
        fn short_history_clamps_exactly(seq in stream(), h in 1u64..20) {
            let mut seen = std::collections::HashSet::new();
            let seq: Vec<u64> = seq.into_iter().filter(|x| seen.insert(*x)).collect();
            let mut m = ReorderMeter::with_extent_history(3, h);
            for &s in &seq {
                m.on_arrival(s);
            }
            let (reordered, extents, _) = rfc4737_reference(&seq);
            prop_assert_eq!(m.reordered(), reordered);
            let clamped: Vec<u64> = extents.iter().map(|&e| e.min(h)).collect();
            prop_assert_eq!(&m.extent_trace, &clamped);
            prop_assert_eq!(m.extents_clamped(), extents.iter().filter(|&&e| e > h).count() as u64);
        }

        /// Querying the density mid-stream changes nothing that follows.
        #[test]
        fn density_queries_do_not_disturb(seq in stream(), dt in 0u32..20) {
            let mut a = ReorderMeter::new(dt);
            let b = meter(dt, &seq);
            for &s in &seq {
                a.on_arrival(s);
                let _ = a.density();
            }
            prop_assert_eq!(a.density(), b.density());
        }
    }
}
