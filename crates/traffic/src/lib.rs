//! Traffic sources. A TCP transfer is bulk (unending) or finite, opening at
//! a start time; later sources (CBR, web sessions) generate such transfers
//! or raw packets over time.

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
    pub fn bulk(start: Time) -> Self {
        Transfer { start, bytes: None }
    }
    pub fn finite(start: Time, bytes: u64) -> Self {
        Transfer {
            start,
            bytes: Some(bytes),
        }
    }
    pub fn is_bulk(&self) -> bool {
        self.bytes.is_none()
    }
}
