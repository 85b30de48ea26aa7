//! Topologies: a graph builder and the named shapes of the papers.

mod dumbbell;

pub use dumbbell::{Dumbbell, DumbbellPair};
