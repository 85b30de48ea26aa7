//! Metrics of a run: the ground truth about every retransmission, per-flow
//! and per-link reports, and the run report written as summary.json.

pub mod ground_truth;
pub mod report;

pub use ground_truth::{GroundTruth, Verdicts};
pub use report::{FlowReport, LinkReport, RunReport};
