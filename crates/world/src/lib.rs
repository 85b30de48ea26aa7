//! Builds a [`World`] from a [`reorderlab_scenario::Scenario`] and runs it:
//! the event loop tying the network, the TCP endpoints, the traffic and the
//! metrics together, and the writers of a run's output files.

pub mod build;
pub mod output;
pub mod world;

pub use build::{build, BuildError};
pub use world::{Event, Flow, Payload, SeriesRow, World};

/// Builds and runs a scenario.
pub fn run(
    sc: &reorderlab_scenario::Scenario,
) -> Result<(reorderlab_metrics::RunReport, Vec<SeriesRow>), BuildError> {
    let mut w = build(sc)?;
    let r = w.run();
    Ok((r, std::mem::take(&mut w.series)))
}
