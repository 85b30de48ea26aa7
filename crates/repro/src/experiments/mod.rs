//! The registry of experiments, one module per paper.

pub mod metrics;
pub mod tcp_pr;

use crate::Experiment;

/// Every experiment, in `reproduce --list` order.
pub fn all() -> Vec<Experiment> {
    let mut v = Vec::new();
    v.extend(tcp_pr::experiments());
    v
}
