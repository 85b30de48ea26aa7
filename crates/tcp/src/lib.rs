//! Sans-IO TCP for reorderlab.
//!
//! Nothing here reads a clock or schedules an event: the receiver and the
//! sender are handed `now` and an input (a segment, a timer firing) and
//! answer with segments to send and the next time they want to be woken.

pub mod cc;
pub mod packed;
pub mod receiver;
pub mod segment;
pub mod sender;
pub mod variant;

pub use packed::PackedAck;
pub use receiver::{Receiver, ReceiverConfig};
pub use segment::{AckSegment, DataSegment, SackBlock, Seq, TxKind};
pub use sender::{Recovery, Sender, SenderConfig, SenderStats};
