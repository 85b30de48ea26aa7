//! The dumbbell: N sender/receiver pairs joined by one bottleneck.
//!
//! ```text
//!  S0 --access:0--\                      /-- D0
//!  S1 --access:1--- R1 ==bottleneck== R2 --- D1
//!  ...                                   \-- ...
//! ```
//! Pair i's round-trip propagation delay is 2 * (2 * access_i + bottleneck).
//! Both access links of pair i use the same parameters, so pairs can be given
//! different RTTs through their access delays.

use crate::link::LinkParams;
use crate::network::{Network, NetworkBuilder};
use crate::packet::{LinkId, NodeId};

/// Nodes and links of one sender/receiver pair.
#[derive(Clone, Copy, Debug)]
pub struct DumbbellPair {
    pub src: NodeId,
    pub dst: NodeId,
    /// Source-side access link (S_i -> R1, R1 -> S_i).
    pub access: (LinkId, LinkId),
    /// Destination-side access link (R2 -> D_i, D_i -> R2).
    pub access_dst: (LinkId, LinkId),
}

/// A built dumbbell: the network and where things are in it.
pub struct Dumbbell<P> {
    pub net: Network<P>,
    pub pairs: Vec<DumbbellPair>,
    /// Bottleneck directions: (R1 -> R2 carries data, R2 -> R1 carries ACKs).
    pub bottleneck: (LinkId, LinkId),
}

impl<P: Copy + Default> Dumbbell<P> {
    /// Builds a dumbbell with one access parameter set per pair.
    pub fn build(bottleneck: LinkParams, access: &[LinkParams], seed: u64) -> Dumbbell<P> {
        let mut b = NetworkBuilder::new();
        let r1 = b.node("R1");
        let r2 = b.node("R2");
        let bn = b.duplex("bottleneck", r1, r2, bottleneck);
        let mut pairs = Vec::with_capacity(access.len());
        for (i, a) in access.iter().enumerate() {
            let src = b.node(format!("S{i}"));
            let dst = b.node(format!("D{i}"));
            let access = b.duplex(&format!("access:{i}"), src, r1, *a);
            let access_dst = b.duplex(&format!("access-dst:{i}"), r2, dst, *a);
            pairs.push(DumbbellPair {
                src,
                dst,
                access,
                access_dst,
            });
        }
        Dumbbell {
            net: b.build(seed),
            pairs,
            bottleneck: bn,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::AqmSpec;
    use reorderlab_sim::Time;

    #[test]
    fn every_pair_routes_over_the_bottleneck() {
        let bn = LinkParams {
            rate_bps: 15_000_000,
            delay: Time::from_millis(10),
            queue: 250,
            aqm: AqmSpec::DropTail,
        };
        let ac = LinkParams {
            rate_bps: 100_000_000,
            delay: Time::from_millis(1),
            queue: 1000,
            aqm: AqmSpec::DropTail,
        };
        let d: Dumbbell<()> = Dumbbell::build(bn, &[ac, ac, ac], 1);
        for p in &d.pairs {
            assert_eq!(d.net.route(p.src, p.dst), Some(p.access.0));
            let r1 = d.net.link(p.access.0).to;
            assert_eq!(d.net.route(r1, p.dst), Some(d.bottleneck.0));
            assert_eq!(d.net.route(p.dst, p.src), Some(p.access_dst.1));
            let r2 = d.net.link(p.access_dst.1).to;
            assert_eq!(d.net.route(r2, p.src), Some(d.bottleneck.1));
        }
    }
}
