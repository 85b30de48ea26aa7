//! Impairments a link direction can carry. They act on a packet as it
//! leaves the transmitter (after it has used the link's capacity), in the
//! order the scenario lists them.

mod loss;

pub use loss::Bernoulli;

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

/// A per-packet impairment. A closed set: an enum keeps the hot path free of
/// dynamic dispatch.
pub enum Impairment {
    Loss(Bernoulli),
}

impl Impairment {
    #[inline]
    pub fn apply(&mut self, now: Time, rng: &mut Rng) -> Verdict {
        match self {
            Impairment::Loss(l) => l.apply(now, rng),
        }
    }
}
