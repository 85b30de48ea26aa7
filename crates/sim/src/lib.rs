//! Discrete-event core of reorderlab: integer nanosecond [`Time`], the
//! [`EventQueue`] with lazy cancellation through [`TimerSlot`], and seeded
//! per-component random streams ([`rng`]). Knows nothing about networks.

pub mod dist;
pub mod queue;
pub mod rng;
pub mod time;

pub use dist::TimeDist;
pub use queue::{EventQueue, TimerSlot, Wake};
pub use rng::{stream, Rng};
pub use time::Time;
