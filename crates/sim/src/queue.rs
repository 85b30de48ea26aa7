//! The global event list.
//!
//! Events are ordered by time, ties broken by insertion order, so a run is
//! deterministic. Cancellation is lazy: a component that re-arms a timer does
//! not search the heap; it keeps one [`TimerSlot`] and ignores entries that no
//! longer match it when they pop. This keeps re-arming on every ACK O(1) in
//! the common case where the deadline only moves later.

use crate::time::Time;

/// A heap entry: `key` packs (time, insertion sequence) so one integer
/// comparison orders events by time, FIFO among equal times.
#[derive(Clone, Copy)]
struct Entry<E> {
    key: u128,
    ev: E,
}

/// Key of the padding entries after the heap: above every real key (a real
/// key's low half is a sequence number that never reaches `u64::MAX`).
const SENTINEL: u128 = u128::MAX;

/// Children per node: a 4-ary heap is shallower than a binary one and its
/// children share cache lines, which makes pops cheaper.
const D: usize = 4;

/// A 4-ary min-heap of entries: the heap in `heap[..n]`, followed by at
/// least `D` sentinel entries with the largest key, so every node's children
/// can be read as a full group of `D` without a bounds branch.
///
/// A pop leaves the root vacant (`hole`) instead of refilling it at once:
/// the event just popped usually schedules another, which then drops into
/// the root and sifts down, one pass instead of the two (refill, then
/// insert) it would otherwise cost. The vacancy is refilled the ordinary
/// way when the next operation is a pop.
struct Heap<E> {
    heap: Vec<Entry<E>>,
    /// Entries in `heap[..n]`, the vacant root included.
    n: usize,
    /// `heap[0]` has been popped and is vacant.
    hole: bool,
}

impl<E: Copy> Heap<E> {
    fn new(capacity: usize) -> Self {
        Heap {
            heap: Vec::with_capacity(capacity),
            n: 0,
            hole: false,
        }
    }

    /// `heap[i]` without a bounds check: every index the sifts compute is
    /// below `n + D <= heap.len()` (children of a node below `n` start at
    /// most at `n`, and the sentinels cover `D` past it), which the debug
    /// build asserts. The checks were an eighth of the run's instructions.
    #[inline(always)]
    fn at(&self, i: usize) -> Entry<E> {
        debug_assert!(i < self.heap.len());
        // SAFETY: i < heap.len(), as above.
        unsafe { *self.heap.get_unchecked(i) }
    }

    #[inline(always)]
    fn put(&mut self, i: usize, e: Entry<E>) {
        debug_assert!(i < self.heap.len());
        // SAFETY: i < heap.len(), as above.
        unsafe { *self.heap.get_unchecked_mut(i) = e }
    }

    /// Events held.
    #[inline(always)]
    fn len(&self) -> usize {
        self.n - self.hole as usize
    }

    /// The smallest key, `SENTINEL` when empty.
    #[inline(always)]
    fn top_key(&mut self) -> u128 {
        if self.hole {
            self.refill_root();
        }
        if self.n == 0 {
            SENTINEL
        } else {
            self.at(0).key
        }
    }

    #[inline(always)]
    fn push(&mut self, e: Entry<E>) {
        if self.hole {
            self.hole = false;
            self.sift_down(0, e);
            return;
        }
        while self.heap.len() < self.n + 1 + D {
            self.heap.push(Entry {
                key: SENTINEL,
                ev: e.ev,
            });
        }
        self.n += 1;
        self.sift_up(self.n - 1, e);
    }

    /// Places `e` in the hole at `i`, moving it up: parents shift down
    /// into the hole while they are larger.
    #[inline]
    fn sift_up(&mut self, mut i: usize, e: Entry<E>) {
        while i > 0 {
            let parent = (i - 1) / D;
            let p = self.at(parent);
            if p.key <= e.key {
                break;
            }
            self.put(i, p);
            i = parent;
        }
        self.put(i, e);
    }

    /// Index of the smallest of the `D` children starting at `first` (some
    /// may be sentinels). Written as selects rather than branches: which
    /// child is smallest is a coin toss, and mispredicted branches here were
    /// half of the run's mispredictions.
    #[inline(always)]
    fn min_child_full(&self, first: usize) -> usize {
        let (k0, k1, k2, k3) = (
            self.at(first).key,
            self.at(first + 1).key,
            self.at(first + 2).key,
            self.at(first + 3).key,
        );
        let (a, ia) = if k1 < k0 { (k1, 1) } else { (k0, 0) };
        let (b, ib) = if k3 < k2 { (k3, 3) } else { (k2, 2) };
        first + if b < a { ib } else { ia }
    }

    /// Places `e` in the hole at `i`, moving it down: the smaller child
    /// moves up into the hole while it is smaller than `e`.
    #[inline]
    fn sift_down(&mut self, mut i: usize, e: Entry<E>) {
        loop {
            let first = D * i + 1;
            if first >= self.n {
                break;
            }
            // Children past `n` are sentinels and never the smallest.
            let best = self.min_child_full(first);
            let b = self.at(best);
            if e.key <= b.key {
                break;
            }
            self.put(i, b);
            i = best;
        }
        self.put(i, e);
    }

    /// Takes the smallest entry (the heap must hold one), leaving the root
    /// vacant.
    #[inline]
    fn pop(&mut self) -> Entry<E> {
        debug_assert!(self.n > 0 && !self.hole);
        self.hole = true;
        self.at(0)
    }

    /// Fills the vacant root with the last entry.
    ///
    /// Bottom-up: the hole moves down to a leaf along the smallest children
    /// without comparing against the element that will fill it (the last
    /// one, which almost always belongs near the bottom), and that element
    /// then sifts up from there.
    fn refill_root(&mut self) {
        self.hole = false;
        self.n -= 1;
        let n = self.n;
        let last = self.at(n);
        self.put(
            n,
            Entry {
                key: SENTINEL,
                ev: last.ev,
            },
        );
        if n == 0 {
            return;
        }
        let mut i = 0;
        loop {
            let first = D * i + 1;
            if first >= n {
                break;
            }
            let best = self.min_child_full(first);
            self.put(i, self.at(best));
            i = best;
        }
        self.sift_up(i, last);
    }
}

/// A priority queue of events of type `E`, earliest first, FIFO among equals.
///
/// It keeps two heaps with one sequence counter: events that wait long
/// (timers, starts, samples; [`EventQueue::schedule_timer`]) apart from the
/// many short-lived ones (packet arrivals; [`EventQueue::schedule`]). A pop
/// takes the smaller of the two tops, so the order is exactly that of one
/// heap, but the frequent events sift through a heap without one pending
/// timer per flow in it (W3: 74 entries on average, 50 of them timers).
pub struct EventQueue<E> {
    main: Heap<E>,
    timers: Heap<E>,
    seq: u64,
    now: Time,
    popped: u64,
}

impl<E: Copy> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Copy> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue {
            main: Heap::new(1024),
            timers: Heap::new(64),
            seq: 0,
            now: Time::ZERO,
            popped: 0,
        }
    }

    /// Current simulated time: the time of the last popped event.
    #[inline]
    pub fn now(&self) -> Time {
        self.now
    }

    #[inline(always)]
    fn entry(&mut self, time: Time, ev: E) -> Entry<E> {
        let time = time.max(self.now);
        self.seq += 1;
        Entry {
            key: ((time.0 as u128) << 64) | self.seq as u128,
            ev,
        }
    }

    /// Schedules `ev` at `time`; a time in the past is clamped to now.
    #[inline]
    pub fn schedule(&mut self, time: Time, ev: E) {
        let e = self.entry(time, ev);
        self.main.push(e);
    }

    /// Schedules `ev` like [`EventQueue::schedule`] (same order), keeping it
    /// in the heap of long-waiting events: for timers and other events
    /// scheduled far ahead of the packets around them.
    #[inline]
    pub fn schedule_timer(&mut self, time: Time, ev: E) {
        let e = self.entry(time, ev);
        self.timers.push(e);
    }

    /// Removes and returns the earliest event, advancing the clock.
    #[inline]
    pub fn pop(&mut self) -> Option<(Time, E)> {
        let (m, t) = (self.main.top_key(), self.timers.top_key());
        let top = if m <= t {
            if m == SENTINEL {
                return None;
            }
            self.main.pop()
        } else {
            self.timers.pop()
        };
        let time = Time((top.key >> 64) as u64);
        self.now = time;
        self.popped += 1;
        Some((time, top.ev))
    }

    /// Time of the earliest pending event.
    pub fn peek_time(&mut self) -> Option<Time> {
        let k = self.main.top_key().min(self.timers.top_key());
        (k != SENTINEL).then_some(Time((k >> 64) as u64))
    }

    pub fn len(&self) -> usize {
        self.main.len() + self.timers.len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Events popped so far (stale timer entries included).
    pub fn popped(&self) -> u64 {
        self.popped
    }
}

/// One logical timer backed by at most a few heap entries.
///
/// `deadline` is what the owner wants; `scheduled` is the time of the heap
/// entry that is live for it. Moving the deadline later costs nothing (the
/// live entry fires early and is re-armed); moving it earlier pushes one new
/// entry and makes the old one stale.
#[derive(Clone, Copy, Debug, Default)]
pub struct TimerSlot {
    deadline: Option<Time>,
    scheduled: Option<Time>,
}

impl TimerSlot {
    /// Sets (or clears) the deadline. Returns a time at which the caller must
    /// schedule a wake-up event for this slot, if one is needed. A deadline
    /// already past is due now: it is clamped to `now`, as the event queue
    /// would clamp the wake-up, so the slot recognises its own entry.
    #[inline]
    #[must_use]
    pub fn set(&mut self, now: Time, deadline: Option<Time>) -> Option<Time> {
        let deadline = deadline.map(|d| d.max(now));
        self.deadline = deadline;
        match (deadline, self.scheduled) {
            (Some(d), None) => {
                self.scheduled = Some(d);
                Some(d)
            }
            (Some(d), Some(s)) if d < s => {
                self.scheduled = Some(d);
                Some(d)
            }
            _ => None,
        }
    }

    pub fn deadline(&self) -> Option<Time> {
        self.deadline
    }

    /// Called when a wake-up entry for this slot pops at `now`. Returns
    /// `Fire` when the deadline has been reached, `Rearm(t)` when the entry
    /// was live but the deadline moved later (schedule a new entry at `t`),
    /// and `Stale` for an entry superseded by an earlier one.
    #[inline]
    pub fn on_wake(&mut self, now: Time) -> Wake {
        if self.scheduled != Some(now) {
            return Wake::Stale;
        }
        self.scheduled = None;
        match self.deadline {
            Some(d) if d <= now => {
                self.deadline = None;
                Wake::Fire
            }
            Some(d) => {
                self.scheduled = Some(d);
                Wake::Rearm(d)
            }
            None => Wake::Stale,
        }
    }
}

/// Outcome of [`TimerSlot::on_wake`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wake {
    Fire,
    Rearm(Time),
    Stale,
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Pops come out sorted by time, insertion order among ties, for any
        /// interleaving of pushes and pops, whichever of the two heaps
        /// each event went to.
        #[test]
        fn pops_are_sorted_and_stable(ops in proptest::collection::vec((0u64..50, proptest::bool::ANY, proptest::bool::ANY), 1..300)) {
            let mut q = EventQueue::new();
            let mut model: Vec<(u64, usize)> = Vec::new();
            let mut n = 0usize;
            for (t, push, timer) in ops {
                if push || q.is_empty() {
                    let at = t.max(q.now().0);
                    if timer {
                        q.schedule_timer(Time(at), n);
                    } else {
                        q.schedule(Time(at), n);
                    }
                    model.push((at, n));
                    n += 1;
                } else {
                    model.sort();
                    let want = model.remove(0);
                    let got = q.pop().unwrap();
                    proptest::prop_assert_eq!((got.0 .0, got.1), want);
                }
            }
        }
    }

    /// A long run against a sorted model: deep heaps, both heaps, every
    /// interleaving of pops and pushes (a pop followed by pushes fills the
    /// vacant root; two pops in a row refill it from the bottom).
    #[test]
    fn a_long_random_run_matches_a_sorted_model() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let mut q = EventQueue::new();
        let mut model = std::collections::BTreeSet::new();
        for n in 0..200_000u64 {
            let size = model.len();
            // Drift between growing to a few thousand entries and draining.
            let push = size == 0
                || rng.random_range(0..4096)
                    > size.min(4000) / 2 + (n / 50_000 % 2) as usize * 1500;
            if push {
                let at = q.now().0 + rng.random_range(0..1_000u64);
                if rng.random_bool(0.2) {
                    q.schedule_timer(Time(at), n);
                } else {
                    q.schedule(Time(at), n);
                }
                model.insert((at, n));
            } else {
                let want = model.pop_first().unwrap();
                let (t, got) = q.pop().unwrap();
                assert_eq!((t.0, got), want);
            }
            assert_eq!(q.len(), model.len());
        }
    }

    #[test]
    fn pops_in_time_order_fifo_among_ties() {
        let mut q = EventQueue::new();
        q.schedule(Time(5), 'a');
        q.schedule(Time(1), 'b');
        q.schedule(Time(5), 'c');
        q.schedule(Time(3), 'd');
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['b', 'd', 'a', 'c']);
    }

    #[test]
    fn timer_slot_later_deadline_costs_no_push_and_fires_once() {
        let mut q = EventQueue::new();
        let mut t = TimerSlot::default();
        if let Some(at) = t.set(Time::ZERO, Some(Time(10))) {
            q.schedule(at, ());
        }
        assert!(
            t.set(Time::ZERO, Some(Time(20))).is_none(),
            "moving later must not push"
        );
        assert!(t.set(Time::ZERO, Some(Time(30))).is_none());
        let (now, _) = q.pop().unwrap();
        assert_eq!(t.on_wake(now), Wake::Rearm(Time(30)));
        q.schedule(Time(30), ());
        let (now, _) = q.pop().unwrap();
        assert_eq!(t.on_wake(now), Wake::Fire);
        assert!(q.is_empty());
    }

    #[test]
    fn timer_slot_earlier_deadline_makes_old_entry_stale() {
        let mut q = EventQueue::new();
        let mut t = TimerSlot::default();
        q.schedule(t.set(Time::ZERO, Some(Time(50))).unwrap(), ());
        q.schedule(
            t.set(Time::ZERO, Some(Time(20)))
                .expect("earlier deadline pushes"),
            (),
        );
        let (now, _) = q.pop().unwrap();
        assert_eq!(now, Time(20));
        assert_eq!(t.on_wake(now), Wake::Fire);
        let (now, _) = q.pop().unwrap();
        assert_eq!(t.on_wake(now), Wake::Stale);
    }

    #[test]
    fn a_deadline_in_the_past_fires_at_once() {
        let mut q = EventQueue::new();
        q.schedule(Time(100), ());
        q.pop();
        let mut t = TimerSlot::default();
        let at = t.set(q.now(), Some(Time(40))).expect("schedules");
        assert_eq!(at, Time(100));
        q.schedule(at, ());
        let (now, _) = q.pop().unwrap();
        assert_eq!(
            t.on_wake(now),
            Wake::Fire,
            "a past deadline must not be mistaken for a stale entry"
        );
    }

    #[test]
    fn cleared_timer_never_fires() {
        let mut q = EventQueue::new();
        let mut t = TimerSlot::default();
        q.schedule(t.set(Time::ZERO, Some(Time(5))).unwrap(), ());
        assert!(t.set(Time::ZERO, None).is_none());
        let (now, _) = q.pop().unwrap();
        assert_eq!(t.on_wake(now), Wake::Stale);
        // Re-arming after the clear works again.
        assert_eq!(t.set(Time::ZERO, Some(Time(9))), Some(Time(9)));
    }
}
