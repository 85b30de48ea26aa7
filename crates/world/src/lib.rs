//! Builds a [`World`] from a [`reorderlab_scenario::Scenario`] and runs it:
//! the event loop tying the network, the TCP endpoints, the traffic and the
//! metrics together, and the writers of a run's output files.

pub mod build;
pub mod limits;
pub mod output;
pub mod world;

pub use build::{build, BuildError};
pub use limits::{LimitHit, Limits};
pub use world::{Event, Flow, Payload, SeriesRow, World};

/// Builds and runs a scenario.
pub fn run(
    sc: &reorderlab_scenario::Scenario,
) -> Result<(reorderlab_metrics::RunReport, Vec<SeriesRow>), BuildError> {
    let mut w = build(sc)?;
    let r = w.run();
    Ok((r, std::mem::take(&mut w.series)))
}

/// Why [`run_limited`] produced no report.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The scenario could not be built.
    #[error(transparent)]
    Build(#[from] BuildError),
    /// A limit stopped the run.
    #[error(transparent)]
    Limit(#[from] LimitHit),
}

/// Builds and runs a scenario within `limits`.
pub fn run_limited(
    sc: &reorderlab_scenario::Scenario,
    limits: Limits,
) -> Result<(reorderlab_metrics::RunReport, Vec<SeriesRow>), RunError> {
    run_observed(sc, limits, u64::MAX, &mut |_, _| {})
}

/// Builds and runs a scenario within `limits`, calling `observe(now,
/// events)` every `every` events ([`World::run_observed`]).
pub fn run_observed(
    sc: &reorderlab_scenario::Scenario,
    limits: Limits,
    every: u64,
    observe: &mut dyn FnMut(reorderlab_sim::Time, u64),
) -> Result<(reorderlab_metrics::RunReport, Vec<SeriesRow>), RunError> {
    let mut w = build(sc)?;
    let r = w.run_observed(limits, every, observe)?;
    Ok((r, std::mem::take(&mut w.series)))
}
