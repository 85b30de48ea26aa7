//! Topologies: a graph described by names ([`Graph`]), the papers' shapes
//! as functions producing graphs ([`kinds`]), and the built result ([`Topo`]).

mod graph;
pub mod kinds;

pub use graph::{Graph, LinkDecl, MultipathDecl, NamedLink, Topo};
