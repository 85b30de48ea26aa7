//! One direction of a point-to-point link: a queue, a transmitter that
//! serializes one packet at a time at the link rate, the impairments, and
//! the propagation pipe.
//!
//! A link holds at most two pending events (the next queued packet's
//! transmission start and the head of its pipe arriving), however many
//! packets wait or fly: packets in the pipe leave in FIFO order, so only the
//! head needs an event. This keeps the global event heap the size of the
//! topology, not of the traffic. A packet that finds the transmitter idle is
//! serialized at once: its completion time is computed, not scheduled, so an
//! uncongested hop costs one event per packet (its arrival), not two.

use crate::impair::Impairment;
use crate::packet::{LinkId, NodeId, PacketId};
use crate::queue::{Aqm, Queue, Red, RedParams};
use reorderlab_sim::{Rng, Time};
use std::collections::VecDeque;

/// Queue discipline of a link, as configured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AqmSpec {
    DropTail,
    Red(RedParams),
}

/// Static parameters of one link direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkParams {
    /// Bits per second.
    pub rate_bps: u64,
    /// One-way propagation delay.
    pub delay: Time,
    /// Queue limit in packets, not counting the packet being transmitted.
    pub queue: u32,
    pub aqm: AqmSpec,
}

/// Counters of one link direction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkStats {
    /// Packets that finished transmission.
    pub packets: u64,
    /// Bytes that finished transmission.
    pub bytes: u64,
    /// Packets dropped at the queue (overflow or AQM).
    pub queue_drops: u64,
    /// Packets dropped by an impairment.
    pub impairment_drops: u64,
    /// Total time the transmitter was busy.
    pub busy: Time,
}

impl LinkStats {
    pub fn drops(&self) -> u64 {
        self.queue_drops + self.impairment_drops
    }
}

/// One direction of a link.
///
/// `repr(C)` keeps the fields every forwarded packet touches together at
/// the front (two cache lines), the rest after: with hundreds of flows the
/// links outgrow the cache, and a hop then costs the lines it reads.
#[repr(C)]
pub struct Link {
    /// When the transmitter finishes the packet it is serializing.
    pub(crate) busy_until: Time,
    pub rate_bps: u64,
    pub delay: Time,
    pub to: NodeId,
    /// Active suspensions (delay spikes): no transmission starts while > 0.
    pub paused: u32,
    /// A `TxDone` event is pending to start the head of the queue.
    pub(crate) start_scheduled: bool,
    /// Packets propagating, with their arrival times, in FIFO order.
    pub(crate) pipe: VecDeque<(Time, PacketId)>,
    pub queue: Queue,
    pub stats: LinkStats,
    pub impairments: Vec<Impairment>,
    // Cold: read at build time, by RED, or by reports.
    pub id: LinkId,
    pub from: NodeId,
    pub name: String,
    pub(crate) rng: Rng,
    /// Packet rate for RED's idle-time estimate (1500-byte packets).
    pub(crate) ptc: f64,
}

impl Link {
    pub(crate) fn new(
        id: LinkId,
        name: String,
        from: NodeId,
        to: NodeId,
        p: &LinkParams,
        rng: Rng,
    ) -> Link {
        let aqm = match p.aqm {
            AqmSpec::DropTail => Aqm::DropTail,
            AqmSpec::Red(rp) => Aqm::Red(Box::new(Red::new(rp))),
        };
        Link {
            id,
            name,
            from,
            to,
            rate_bps: p.rate_bps,
            delay: p.delay,
            queue: Queue::new(p.queue, aqm),
            busy_until: Time::ZERO,
            start_scheduled: false,
            pipe: VecDeque::new(),
            impairments: Vec::new(),
            rng,
            stats: LinkStats::default(),
            ptc: p.rate_bps as f64 / (8.0 * 1500.0),
            paused: 0,
        }
    }

    /// Time to serialize `size` bytes at the current rate. Computed every
    /// time: a 64-bit division costs less than the mispredicted branches of
    /// a cache of recent sizes did (12% of W3's).
    #[inline]
    pub(crate) fn tx_time(&self, size: u32) -> Time {
        Time::transmission(size as u64, self.rate_bps)
    }
}
