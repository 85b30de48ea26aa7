//! Traffic sources. A TCP transfer is bulk (unending) or finite, opening at
//! a start time; a CBR source ([`cbr`]) generates raw UDP packet send times,
//! and a web session ([`web`]) generates finite transfers over time.
//!
//! Everything is sans-IO: a source never reads a clock or schedules events;
//! the caller asks what happens next and when, and hands in the random
//! stream (one per source) to draw from.

pub mod cbr;
pub mod web;

pub use cbr::Cbr;
pub use web::{ClosedLoopSession, WebNext, WebObject, WebParams, WebSession};

use reorderlab_sim::Time;

/// One TCP transfer as the application asks for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transfer {
    /// When the application opens the connection and starts writing.
    pub start: Time,
    /// Bytes to send; None for a bulk transfer that lasts the whole run.
    pub bytes: Option<u64>,
}

impl Transfer {
    /// A transfer that keeps sending until the end of the run.
    pub fn bulk(start: Time) -> Self {
        Transfer { start, bytes: None }
    }
    /// A transfer of `bytes` bytes.
    pub fn finite(start: Time, bytes: u64) -> Self {
        Transfer {
            start,
            bytes: Some(bytes),
        }
    }
    /// Whether the transfer lasts the whole run.
    pub fn is_bulk(&self) -> bool {
        self.bytes.is_none()
    }
}
