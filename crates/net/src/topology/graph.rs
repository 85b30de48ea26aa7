//! A topology as data: named nodes, named duplex links, link groups, default
//! flow endpoints and multipath entries. Every topology kind (dumbbell,
//! parking lot, multipath mesh, chain, wireless, multi-bottleneck, custom)
//! is a function producing a [`Graph`]; one builder turns any graph into a
//! [`Network`] and a [`Topo`] that maps names to ids.

use crate::link::LinkParams;
use crate::multipath::Multipath;
use crate::network::{Network, NetworkBuilder};
use crate::packet::{LinkId, NodeId};

/// One duplex link: forward is `a -> b`.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkDecl {
    pub name: String,
    pub a: String,
    pub b: String,
    /// Parameters of the forward direction (`a -> b`).
    pub forward: LinkParams,
    /// Parameters of the reverse direction (`b -> a`).
    pub reverse: LinkParams,
}

/// Per-packet multipath routing between two nodes (both directions).
#[derive(Clone, Debug, PartialEq)]
pub struct MultipathDecl {
    pub a: String,
    pub b: String,
    pub epsilon: f64,
}

/// A topology described by names.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Graph {
    pub nodes: Vec<String>,
    pub links: Vec<LinkDecl>,
    /// Named sets of links, e.g. "access" for every access link.
    pub groups: Vec<(String, Vec<String>)>,
    /// Default (source, destination) of flows, used round-robin.
    pub endpoints: Vec<(String, String)>,
    pub multipath: Vec<MultipathDecl>,
}

impl Graph {
    pub fn node(&mut self, name: impl Into<String>) -> String {
        let n = name.into();
        self.nodes.push(n.clone());
        n
    }
    /// Adds a duplex link with the same parameters both ways.
    pub fn link(&mut self, name: impl Into<String>, a: &str, b: &str, p: LinkParams) {
        self.links.push(LinkDecl {
            name: name.into(),
            a: a.into(),
            b: b.into(),
            forward: p,
            reverse: p,
        });
    }
    pub fn group(&mut self, name: impl Into<String>, links: Vec<String>) {
        self.groups.push((name.into(), links));
    }

    /// Builds the network; an inconsistent graph (unknown node, duplicate
    /// name, no multipath route) is an error message, never a panic.
    pub fn build<P: Copy + Default>(&self, seed: u64) -> Result<Topo<P>, String> {
        let mut b = NetworkBuilder::new();
        let mut ids: Vec<(String, NodeId)> = Vec::with_capacity(self.nodes.len());
        for n in &self.nodes {
            if ids.iter().any(|(m, _)| m == n) {
                return Err(format!("duplicate node name {n:?}"));
            }
            ids.push((n.clone(), b.node(n.clone())));
        }
        let find = |n: &str| ids.iter().find(|(m, _)| m == n).map(|(_, id)| *id);
        let mut links = Vec::with_capacity(self.links.len());
        for l in &self.links {
            if links.iter().any(|nl: &NamedLink| nl.name == l.name) {
                return Err(format!("duplicate link name {:?}", l.name));
            }
            let a =
                find(&l.a).ok_or_else(|| format!("link {:?}: unknown node {:?}", l.name, l.a))?;
            let bb =
                find(&l.b).ok_or_else(|| format!("link {:?}: unknown node {:?}", l.name, l.b))?;
            if a == bb {
                return Err(format!("link {:?} joins {:?} to itself", l.name, l.a));
            }
            let forward = b.link(format!("{}>", l.name), a, bb, l.forward);
            let reverse = b.link(format!("{}<", l.name), bb, a, l.reverse);
            links.push(NamedLink {
                name: l.name.clone(),
                forward,
                reverse,
            });
        }
        let mut net: Network<P> = b.build(seed);
        for (i, m) in self.multipath.iter().enumerate() {
            let a = find(&m.a).ok_or_else(|| format!("multipath: unknown node {:?}", m.a))?;
            let bb = find(&m.b).ok_or_else(|| format!("multipath: unknown node {:?}", m.b))?;
            for (j, (s, d)) in [(a, bb), (bb, a)].into_iter().enumerate() {
                let rng = reorderlab_sim::stream(
                    seed,
                    &[reorderlab_sim::rng::label("multipath"), i as u64, j as u64],
                );
                let mp = Multipath::new(&net.nodes, &net.links, s, d, m.epsilon, rng)
                    .ok_or_else(|| format!("multipath: no path from {:?} to {:?}", m.a, m.b))?;
                net.add_multipath(mp);
            }
        }
        let mut endpoints = Vec::new();
        for (s, d) in &self.endpoints {
            let s = find(s).ok_or_else(|| format!("endpoint: unknown node {s:?}"))?;
            let d = find(d).ok_or_else(|| format!("endpoint: unknown node {d:?}"))?;
            endpoints.push((s, d));
        }
        for (g, members) in &self.groups {
            for m in members {
                if !links.iter().any(|l| &l.name == m) {
                    return Err(format!("group {g:?}: unknown link {m:?}"));
                }
            }
        }
        Ok(Topo {
            net,
            nodes: ids,
            links,
            groups: self.groups.clone(),
            endpoints,
        })
    }
}

/// A link of a built topology: its name and the ids of both directions.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedLink {
    pub name: String,
    pub forward: LinkId,
    pub reverse: LinkId,
}

/// A built topology: the network and where things are in it.
pub struct Topo<P> {
    pub net: Network<P>,
    pub nodes: Vec<(String, NodeId)>,
    pub links: Vec<NamedLink>,
    pub groups: Vec<(String, Vec<String>)>,
    pub endpoints: Vec<(NodeId, NodeId)>,
}

impl<P> Topo<P> {
    pub fn node(&self, name: &str) -> Option<NodeId> {
        self.nodes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, id)| *id)
    }
    /// The links a name designates: one link, or every link of a group.
    pub fn resolve(&self, name: &str) -> Option<Vec<&NamedLink>> {
        if let Some(l) = self.links.iter().find(|l| l.name == name) {
            return Some(vec![l]);
        }
        let (_, members) = self.groups.iter().find(|(g, _)| g == name)?;
        Some(
            members
                .iter()
                .filter_map(|m| self.links.iter().find(|l| &l.name == m))
                .collect(),
        )
    }
}
