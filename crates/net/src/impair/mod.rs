//! Impairments a link direction can carry.
//!
//! Per-packet impairments ([`Impairment`]) act on a packet as it leaves the
//! transmitter (after it has used the link's capacity), in the order the
//! scenario lists them; the first drop wins and extra delays add up. Timed
//! impairments ([`Timed`]) act on the link itself at scheduled instants
//! (queue swaps, delay spikes, rate changes). Every impairment draws from its
//! own random stream, so adding one never changes another's draws.

mod arq;
mod burst;
mod delay;
mod loss;
mod timed;

pub use arq::Arq;
pub use burst::BurstLoss;
pub use delay::RandomDelay;
pub use loss::Bernoulli;
pub use timed::{RateChange, Spikes, Swap, Timed, TimedKind};

use reorderlab_sim::{Rng, Time};

/// What an impairment does to one packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    Drop,
    /// Hold the packet this much longer than the propagation delay; later
    /// packets may overtake it.
    Delay(Time),
}

/// A per-packet impairment with its random stream. A closed set: an enum
/// keeps the hot path free of dynamic dispatch.
pub struct Impairment {
    pub kind: ImpairmentKind,
    pub rng: Rng,
}

/// The per-packet impairment kinds.
pub enum ImpairmentKind {
    Loss(Bernoulli),
    Delay(RandomDelay),
    BurstLoss(BurstLoss),
    Arq(Arq),
}

impl Impairment {
    pub fn new(kind: ImpairmentKind, rng: Rng) -> Self {
        Impairment { kind, rng }
    }

    #[inline]
    pub fn apply(&mut self, now: Time) -> Verdict {
        let rng = &mut self.rng;
        match &mut self.kind {
            ImpairmentKind::Loss(l) => l.apply(now, rng),
            ImpairmentKind::Delay(d) => d.apply(now, rng),
            ImpairmentKind::BurstLoss(b) => b.apply(now, rng),
            ImpairmentKind::Arq(a) => a.apply(now, rng),
        }
    }
}
