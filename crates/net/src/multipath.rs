//! Per-packet multipath routing (TCP-PR Section VI-B, Figs. 14-16).
//!
//! Every loop-free path from the source to the destination is a candidate.
//! A path p of cost c_p (its hop count) is chosen for each packet with
//! probability proportional to exp(-epsilon * (c_p - c_min)): epsilon = 0
//! uses all loop-free paths with equal probability, a large epsilon (500)
//! uses only minimum-hop paths, values in between penalize longer paths.
//! The paper leaves the family to its reference [37]; this one has the
//! stated limits and one parameter. The path is chosen at the source and
//! the packet is source-routed along it.

use crate::link::Link;
use crate::network::Node;
use crate::packet::{LinkId, NodeId};
use rand::RngExt;
use reorderlab_sim::Rng;

/// Most paths enumerated between one source and destination.
pub const MAX_PATHS: usize = 4096;

/// One loop-free path.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    pub links: Vec<LinkId>,
    /// Hop count.
    pub hops: u32,
    /// Selection probability.
    pub probability: f64,
}

/// Multipath routing state for one (source, destination).
pub struct Multipath {
    pub src: NodeId,
    pub dst: NodeId,
    pub epsilon: f64,
    pub paths: Vec<Path>,
    cdf: Vec<f64>,
    rng: Rng,
    /// Packets sent on each path.
    pub counts: Vec<u64>,
}

/// Every loop-free path from `src` to `dst`, shortest first (then by link ids).
pub fn loop_free_paths(
    nodes: &[Node],
    links: &[Link],
    src: NodeId,
    dst: NodeId,
) -> Vec<Vec<LinkId>> {
    let mut out = Vec::new();
    let mut on_path = vec![false; nodes.len()];
    let mut stack = Vec::new();
    fn dfs(
        nodes: &[Node],
        links: &[Link],
        at: NodeId,
        dst: NodeId,
        on: &mut Vec<bool>,
        stack: &mut Vec<LinkId>,
        out: &mut Vec<Vec<LinkId>>,
    ) {
        if out.len() >= MAX_PATHS {
            return;
        }
        if at == dst {
            out.push(stack.clone());
            return;
        }
        on[at.0 as usize] = true;
        for &l in &nodes[at.0 as usize].out {
            let to = links[l.0 as usize].to;
            if !on[to.0 as usize] {
                stack.push(l);
                dfs(nodes, links, to, dst, on, stack, out);
                stack.pop();
            }
        }
        on[at.0 as usize] = false;
    }
    dfs(nodes, links, src, dst, &mut on_path, &mut stack, &mut out);
    out.sort_by(|a, b| {
        a.len()
            .cmp(&b.len())
            .then_with(|| a.iter().map(|l| l.0).cmp(b.iter().map(|l| l.0)))
    });
    out
}

impl Multipath {
    /// Builds the routing for `src -> dst`; None when no path exists.
    pub fn new(
        nodes: &[Node],
        links: &[Link],
        src: NodeId,
        dst: NodeId,
        epsilon: f64,
        rng: Rng,
    ) -> Option<Multipath> {
        let all = loop_free_paths(nodes, links, src, dst);
        let min = all.iter().map(|p| p.len()).min()? as f64;
        let weights: Vec<f64> = all
            .iter()
            .map(|p| (-epsilon * (p.len() as f64 - min)).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        let mut acc = 0.0;
        let mut cdf = Vec::with_capacity(all.len());
        let mut paths = Vec::with_capacity(all.len());
        for (p, w) in all.into_iter().zip(&weights) {
            acc += w / total;
            cdf.push(acc);
            paths.push(Path {
                hops: p.len() as u32,
                links: p,
                probability: w / total,
            });
        }
        let n = paths.len();
        Some(Multipath {
            src,
            dst,
            epsilon,
            paths,
            cdf,
            rng,
            counts: vec![0; n],
        })
    }

    /// Chooses the path of the next packet.
    #[inline]
    pub fn choose(&mut self) -> usize {
        let i = if self.paths.len() == 1 {
            0
        } else {
            let u: f64 = self.rng.random();
            self.cdf
                .partition_point(|&c| c <= u)
                .min(self.paths.len() - 1)
        };
        self.counts[i] += 1;
        i
    }
}
