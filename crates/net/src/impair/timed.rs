//! Impairments that act on a link at scheduled instants rather than on
//! each packet: queue swaps (TCP-PR Section VI-A), delay spikes (Eifel
//! paper Section IV-A) and a scheduled rate change (Eifel Fig. 1b).

use crate::packet::LinkId;
use reorderlab_sim::{Rng, Time, TimeDist};

/// Every `interval`, `swaps` swaps of two randomly chosen packets in the
/// link's queue (TCP-PR Section VI-A: every 1 s, K swaps, 250-packet queue).
#[derive(Clone, Debug)]
pub struct Swap {
    pub link: LinkId,
    pub interval: Time,
    pub swaps: u32,
    /// Swap events so far, and swaps actually performed.
    pub events: u64,
    pub performed: u64,
}

/// Delay spikes: the link stops transmitting in both directions for a
/// duration drawn from `length`; spikes start at intervals drawn from
/// `every`, measured start to start (the next spike waits for the current
/// one to end if the drawn interval is shorter). Queued packets wait and are
/// lost only if the queue overflows; packets already on the wire arrive.
#[derive(Clone, Debug)]
pub struct Spikes {
    pub links: (LinkId, LinkId),
    pub length: TimeDist,
    pub every: TimeDist,
    /// Start and end of every spike so far.
    pub history: Vec<(Time, Time)>,
    pub(crate) active_until: Option<Time>,
    pub(crate) next_start: Time,
}

/// At `at`, the link's rate becomes `rate_bps`.
#[derive(Clone, Debug)]
pub struct RateChange {
    pub link: LinkId,
    pub at: Time,
    pub rate_bps: u64,
}

/// A timed impairment with its random stream.
pub struct Timed {
    pub kind: TimedKind,
    pub rng: Rng,
}

/// The timed impairment kinds.
pub enum TimedKind {
    Swap(Swap),
    Spikes(Spikes),
    RateChange(RateChange),
}

impl Swap {
    pub fn new(link: LinkId, interval: Time, swaps: u32) -> Self {
        Swap {
            link,
            interval,
            swaps,
            events: 0,
            performed: 0,
        }
    }
}

impl Spikes {
    pub fn new(links: (LinkId, LinkId), length: TimeDist, every: TimeDist) -> Self {
        Spikes {
            links,
            length,
            every,
            history: Vec::new(),
            active_until: None,
            next_start: Time::ZERO,
        }
    }
}
