//! What a run reports: summary.json and flows.csv are these structs.

use serde::{Deserialize, Serialize};

/// One flow's results (summary.json `flows[]`, one row of flows.csv).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FlowReport {
    pub id: u32,
    pub variant: String,
    /// Bytes delivered in order to the receiving application over the whole run.
    pub bytes_delivered: u64,
    /// Application bytes delivered within the measurement window, in bit/s.
    pub goodput_bps: f64,
    /// Data bytes put on the wire (headers and retransmissions included)
    /// within the measurement window, in bit/s.
    pub throughput_bps: f64,
    /// Data segments sent, retransmissions included (whole run).
    pub segments_sent: u64,
    pub retransmissions: u64,
    pub spurious_retransmissions: u64,
    pub fast_retransmits: u64,
    pub spurious_fast_retransmits: u64,
    pub timeouts: u64,
    pub spurious_timeouts: u64,
    /// Seconds from the flow's start until its last byte reached the
    /// receiving application; null for bulk flows and unfinished transfers.
    pub completion_time_s: Option<f64>,
    /// ACKs that carried a DSACK block.
    pub dsacks_received: u64,
    /// Smoothed RTT at the end of the run, seconds (RFC 6298 SRTT).
    pub srtt_s: Option<f64>,
    /// Congestion window at the end of the run, segments.
    pub final_cwnd: f64,
}

/// One link direction's results (summary.json `links[]`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LinkReport {
    pub name: String,
    /// "forward" (data direction) or "reverse" (ACK direction).
    pub direction: String,
    /// Fraction of the measurement window the link spent transmitting.
    pub utilization: f64,
    /// Packets that finished transmission in the window.
    pub packets: u64,
    /// Packets dropped in the window (queue and impairments).
    pub drops: u64,
    /// Of those, dropped by an impairment.
    pub impairment_drops: u64,
}

/// The whole run (summary.json).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    pub scenario: String,
    pub seed: u64,
    /// Simulated seconds.
    pub duration_s: f64,
    /// Measurement window, seconds.
    pub measure_from_s: f64,
    pub measure_to_s: f64,
    /// Wall-clock seconds the run took (the one field that differs between
    /// two runs of the same scenario and seed).
    pub wall_s: f64,
    /// Events processed by the event loop.
    pub events: u64,
    pub flows: Vec<FlowReport>,
    pub links: Vec<LinkReport>,
}
