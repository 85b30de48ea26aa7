//! Link queues: the FIFO a link direction transmits from, and the active
//! queue management that decides whether an arriving packet is admitted.

mod red;

pub use red::{Red, RedParams};

use crate::packet::PacketId;
use reorderlab_sim::{Rng, Time};
use std::collections::VecDeque;

/// Admission policy of a queue.
pub enum Aqm {
    /// Drop the arriving packet when the queue holds `limit` packets.
    DropTail,
    /// Random Early Detection (Floyd and Jacobson 1993); boxed, so that a
    /// drop-tail queue stays small.
    Red(Box<Red>),
}

/// A packet queue of at most `limit` packets, not counting the one being
/// transmitted (as in ns-2).
pub struct Queue {
    pub(crate) fifo: VecDeque<(PacketId, u32)>,
    pub limit: u32,
    pub aqm: Aqm,
    bytes: u64,
}

impl Queue {
    pub fn new(limit: u32, aqm: Aqm) -> Self {
        Queue {
            // No preallocation: most queues (access links) never fill.
            fifo: VecDeque::new(),
            limit,
            aqm,
            bytes: 0,
        }
    }

    /// Offers a packet of `size` bytes; returns false when it is dropped.
    /// `now` and `ptc` (the link's packets per second) serve RED's idle-time
    /// estimate.
    #[inline]
    pub fn offer(&mut self, now: Time, id: PacketId, size: u32, ptc: f64, rng: &mut Rng) -> bool {
        let len = self.fifo.len() as u32;
        let admit = match &mut self.aqm {
            Aqm::DropTail => len < self.limit,
            Aqm::Red(red) => red.admit(now, len, self.limit, ptc, rng),
        };
        if admit {
            self.fifo.push_back((id, size));
            self.bytes += size as u64;
        }
        admit
    }

    #[inline]
    pub fn pop(&mut self, now: Time) -> Option<(PacketId, u32)> {
        let r = self.fifo.pop_front();
        if let Some((_, size)) = r {
            self.bytes -= size as u64;
            if self.fifo.is_empty() {
                if let Aqm::Red(red) = &mut self.aqm {
                    red.queue_emptied(now);
                }
            }
        }
        r
    }

    pub fn len(&self) -> usize {
        self.fifo.len()
    }
    pub fn is_empty(&self) -> bool {
        self.fifo.is_empty()
    }
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
    /// Swaps the packets at positions `i` and `j` (queue-swap reordering).
    pub fn swap(&mut self, i: usize, j: usize) {
        self.fifo.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn droptail_admits_up_to_limit() {
        let mut q = Queue::new(2, Aqm::DropTail);
        let mut rng = reorderlab_sim::stream(1, &[]);
        assert!(q.offer(Time::ZERO, PacketId(0), 100, 1000.0, &mut rng));
        assert!(q.offer(Time::ZERO, PacketId(1), 100, 1000.0, &mut rng));
        assert!(!q.offer(Time::ZERO, PacketId(2), 100, 1000.0, &mut rng));
        assert_eq!(q.bytes(), 200);
        assert_eq!(q.pop(Time::ZERO).map(|p| p.0), Some(PacketId(0)));
        assert!(q.offer(Time::ZERO, PacketId(3), 100, 1000.0, &mut rng));
    }
}
