//! Network layer of reorderlab: packets in a pool addressed by index, link
//! directions (queue, transmitter, impairments, propagation), queues
//! (drop-tail, RED), static shortest-path routing and topologies.

pub mod impair;
pub mod link;
pub mod multipath;
pub mod network;
pub mod packet;
pub mod queue;
pub mod topology;

pub use link::{AqmSpec, Link, LinkParams, LinkStats};
pub use network::{DropCause, NetEvent, NetOutput, Network, NetworkBuilder, Node};
pub use packet::{Header, LinkId, NodeId, Packet, PacketId, Pool};
