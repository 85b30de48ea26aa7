//! Metrics of a run: the ground truth about every retransmission, per-flow
//! and per-link reports, and the run report written as summary.json.

pub mod ground_truth;
pub mod reordering;
pub mod report;

pub use ground_truth::{GroundTruth, Verdicts};
pub use reordering::{
    FreeRuns, ReorderMeter, DEFAULT_DENSITY_THRESHOLD, DEFAULT_EXTENT_HISTORY, N_REORDERING_MAX,
};
pub use report::{DensityRow, FlowReport, LinkReport, RunReport, TrafficReport};
