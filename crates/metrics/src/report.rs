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
    /// Data segments sent in the measurement window, retransmissions included.
    pub segments_sent: u64,
    /// Retransmissions sent in the measurement window; each retransmission
    /// keeps the window of its sending time, whenever the ground truth
    /// reached its verdict. The same holds for the five counts below.
    pub retransmissions: u64,
    /// Of those, spurious according to the ground truth.
    pub spurious_retransmissions: u64,
    /// Fast retransmits (first retransmission of a recovery) in the window.
    pub fast_retransmits: u64,
    pub spurious_fast_retransmits: u64,
    /// Retransmission timeouts in the window.
    pub timeouts: u64,
    pub spurious_timeouts: u64,
    /// Retransmissions over the whole run, window or not.
    #[serde(default)]
    pub retransmissions_total: u64,
    /// Spurious retransmissions over the whole run.
    #[serde(default)]
    pub spurious_retransmissions_total: u64,
    /// Timeouts over the whole run.
    #[serde(default)]
    pub timeouts_total: u64,
    /// Seconds from the flow's start until its last byte reached the
    /// receiving application; null for bulk flows and unfinished transfers.
    pub completion_time_s: Option<f64>,
    /// ACKs that carried a DSACK block, received in the measurement window.
    pub dsacks_received: u64,
    /// Smoothed RTT at the end of the run, seconds (RFC 6298 SRTT).
    pub srtt_s: Option<f64>,
    /// Congestion window at the end of the run, segments.
    pub final_cwnd: f64,
    /// RFC 4737 Section 4.1: fraction of first transmissions arriving at the
    /// receiver in the measurement window that arrived reordered (what the
    /// network did, not the sender).
    pub reordered_ratio: f64,
    /// RFC 4737 Section 4.2: largest reordering extent, in packets, over
    /// the packets arriving in the window.
    pub reordering_extent_max: u64,
    /// RFC 4737 Section 4.2: mean extent over reordered packets arriving in
    /// the window.
    pub reordering_extent_mean: f64,
}

/// One background traffic source (summary.json `traffic[]`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TrafficReport {
    /// Index of the `[[traffic]]` table.
    pub id: u32,
    /// "cbr" or "web".
    pub kind: String,
    /// CBR packets sent and delivered in the measurement window.
    pub packets_sent: u64,
    pub packets_delivered: u64,
    /// Web: sessions, and objects requested and completed in the window.
    pub sessions: u32,
    pub objects_started: u64,
    pub objects_completed: u64,
    /// Bytes delivered (whole run): CBR wire bytes, web object bytes.
    pub bytes_delivered: u64,
    /// Bytes delivered within the measurement window, bit/s.
    pub goodput_bps: f64,
    /// Web: mean and median completion time of the objects completed in
    /// the window, seconds.
    pub mean_completion_s: Option<f64>,
    pub median_completion_s: Option<f64>,
}

/// One bin of a flow's RFC 5236 reorder density (reorder_density.csv),
/// over the first transmissions arriving in the measurement window.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DensityRow {
    pub flow: u32,
    /// Displacement D (RFC 5236 Section 3).
    pub displacement: i64,
    /// FD[D]: packets with that displacement.
    pub count: u64,
    /// RD[D] = FD[D] / N' (RFC 5236 Section 4).
    pub frequency: f64,
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
    /// A bottleneck of the topology: its name starts with "bottleneck" or it
    /// belongs to a group named "bottleneck*" or "core". The terminal table
    /// shows these (or the busiest link when none is) and sums up the rest.
    #[serde(default)]
    pub bottleneck: bool,
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
    /// Wall-clock seconds the run took. Not serialized: summary.json and a
    /// sweep's run files hold only what the scenario and seed determine, so
    /// they are byte-identical from one run to the next (`run` prints this
    /// on the terminal; a sweep writes it to timing.csv). A `wall_s` key in
    /// a file written before that is ignored when reading it; the field is
    /// then 0.
    #[serde(skip)]
    pub wall_s: f64,
    /// Events processed by the event loop.
    pub events: u64,
    pub flows: Vec<FlowReport>,
    pub links: Vec<LinkReport>,
    /// Background traffic sources.
    #[serde(default)]
    pub traffic: Vec<TrafficReport>,
    /// Reorder density per flow (written to reorder_density.csv, not summary.json).
    #[serde(skip)]
    pub reorder_density: Vec<DensityRow>,
}
