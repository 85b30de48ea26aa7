//! The registry of experiments, one module per paper (and one for the
//! validation against outside results).

pub mod metrics;
pub mod tcp_pr;
pub mod validation;

use crate::{Experiment, Group};

/// Every experiment, in `reproduce --list` order.
pub fn all() -> Vec<Experiment> {
    let mut v = Vec::new();
    v.extend(tcp_pr::experiments());
    v.extend(validation::experiments());
    v
}

/// Experiments documented together on one page (`reproduce ID --doc PAGE`).
pub fn groups() -> Vec<Group> {
    vec![validation::group()]
}
