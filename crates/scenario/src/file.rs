//! The scenario file as serde types: one field per key, each with the doc
//! comment that the JSON Schema (`docs/scenario.schema.json`, `reorderlab
//! schema --json`) carries to editors. Units are small deserializers over
//! the parsers of [`crate::units`].
//!
//! The hand walker ([`crate::parse`]) still does the validation, because it
//! reports every problem at once where serde stops at the first; the tests
//! (`tests/schema.rs`) keep the two in step: every key one accepts the other
//! declares, and every valid scenario deserializes into [`File`] with
//! `deny_unknown_fields` everywhere. Adding a key: one field with its doc
//! comment here, one `get` in the walker, one row in docs/scenarios.md.

#![allow(dead_code)] // the fields are read by serde and schemars

use std::borrow::Cow;
use std::collections::BTreeMap;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer};

use crate::units;

macro_rules! unit {
    ($name:ident, $doc:literal, $schema:tt, |$v:ident| $parse:expr) => {
        #[doc = $doc]
        #[derive(Debug, Clone, PartialEq)]
        pub struct $name(pub u64);

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let $v = toml::Value::deserialize(d)?;
                $parse.map($name).map_err(serde::de::Error::custom)
            }
        }

        impl JsonSchema for $name {
            fn schema_name() -> Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!($schema)
            }
        }
    };
}

fn describe(v: &toml::Value) -> String {
    crate::walk::describe(v)
}

unit!(
    TimeValue,
    "A time: a string of a number and a unit (ns, us, µs, ms, s, min), or 0.",
    {
        "description": "A time: a number and a unit (ns, us, µs, ms, s, min), like \"20ms\"; or 0.",
        "anyOf": [
            { "type": "string", "pattern": "^\\s*[0-9]+(\\.[0-9]*)?\\s*(ns|us|µs|ms|s|min)\\s*$" },
            { "const": 0 }
        ]
    },
    |v| match &v {
        toml::Value::String(s) => units::parse_time(s).map(|t| t.0),
        toml::Value::Integer(0) => Ok(0),
        _ => Err(format!("{}, got {}", units::TIME_EXPECTED, describe(&v))),
    }
);

unit!(
    RateValue,
    "A rate in bits per second: a string of a number and a unit (bps, kbps, Mbps, Gbps).",
    {
        "description": "A rate: a number and a unit (bps, kbps, Kbps, Mbps, Gbps), like \"15Mbps\".",
        "type": "string",
        "pattern": "^\\s*[0-9]+(\\.[0-9]*)?\\s*(bps|kbps|Kbps|Mbps|Gbps)\\s*$"
    },
    |v| match &v {
        toml::Value::String(s) => units::parse_rate(s),
        _ => Err(format!("{}, got {}", units::RATE_EXPECTED, describe(&v))),
    }
);

unit!(
    SizeValue,
    "A size in bytes: an integer, or a string of a number and a unit (B, kB, KB, MB, GB, KiB, MiB, GiB).",
    {
        "description": "A size in bytes: an integer, or a number and a unit (B, kB, KB, MB, GB, KiB, MiB, GiB), like \"64KiB\".",
        "anyOf": [
            { "type": "integer", "minimum": 0 },
            { "type": "string", "pattern": "^\\s*[0-9]+(\\.[0-9]*)?\\s*(B|kB|KB|MB|GB|KiB|MiB|GiB)\\s*$" }
        ]
    },
    |v| match &v {
        toml::Value::String(s) => units::parse_size(s),
        toml::Value::Integer(n) => u64::try_from(*n).map_err(|_| format!("expected a non-negative size, got {n}")),
        _ => Err(format!("{}, got {}", units::SIZE_EXPECTED, describe(&v))),
    }
);

/// A random duration: a plain time (always that long) or a table with `dist`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Distribution {
    /// Always this long.
    Plain(TimeValue),
    /// A distribution chosen by `dist`.
    Table(DistTable),
}

/// A distribution table, chosen by `dist`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(tag = "dist", rename_all = "kebab-case", deny_unknown_fields)]
pub enum DistTable {
    /// Always `value`.
    Constant {
        /// The duration.
        value: TimeValue,
    },
    /// Uniform on [`min`, `max`].
    Uniform {
        /// Smallest value.
        min: TimeValue,
        /// Largest value, at least `min`.
        max: TimeValue,
    },
    /// Normal with `mean` and standard deviation `sd`; negative draws become 0.
    Normal {
        /// The mean.
        mean: TimeValue,
        /// The standard deviation.
        sd: TimeValue,
    },
    /// Exponential with `mean`.
    Exponential {
        /// The mean.
        mean: TimeValue,
    },
}

/// A scenario file: one experiment (docs/scenarios.md).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "reorderlab scenario")]
pub struct File {
    /// Identifier used in reports and as the output directory results/<name>: ASCII letters, digits, '-', '_', '.', not starting with '.'.
    #[schemars(regex(pattern = r"^[A-Za-z0-9_-][A-Za-z0-9_.-]*$"))]
    pub name: String,
    /// Simulated length of the run (> 0).
    pub duration: TimeValue,
    /// Root of every random stream (default 1).
    #[schemars(range(max = 9223372036854775807u64))]
    pub seed: Option<u64>,
    /// The measurement window and time series.
    pub measure: Option<Measure>,
    /// The network.
    pub topology: Topology,
    /// TCP flows: at least one table.
    #[schemars(length(min = 1))]
    pub flows: Vec<Flow>,
    /// Link impairments.
    pub impairments: Option<Vec<Impairment>>,
    /// Background traffic (CBR, web).
    pub traffic: Option<Vec<Traffic>>,
}

/// `[measure]`: statistics cover [from, to).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Measure {
    /// Start of the window (default 0), before `duration`.
    pub from: Option<TimeValue>,
    /// End of the window (default `duration`), after `from`.
    pub to: Option<TimeValue>,
    /// When set, cwnd and goodput series are written, one sample per interval (at most 1,000,000 samples per flow).
    pub series_interval: Option<TimeValue>,
    /// RFC 5236's displacement threshold DT of the reorder density (default 1024, at most 1,000,000).
    #[schemars(range(min = 1, max = 1000000))]
    pub reorder_threshold: Option<u32>,
}

/// Queue discipline.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Aqm {
    /// Drop arrivals when the queue is full.
    Droptail,
    /// Random Early Detection with the `red` table.
    Red,
}

/// RED parameters (Floyd and Jacobson 1993), thresholds in packets.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Red {
    /// Below this average queue, no early drops (default 5, > 0).
    pub min_th: Option<f64>,
    /// Average queue at which the drop probability reaches max_p (default 3 x min_th).
    pub max_th: Option<f64>,
    /// Drop probability at max_th, in (0, 1] (default 0.1).
    pub max_p: Option<f64>,
    /// w_q, the weight of the average-queue EWMA, in (0, 1] (default 0.002).
    pub weight: Option<f64>,
    /// Ramp from max_p to 1 between max_th and 2 x max_th (default true).
    pub gentle: Option<bool>,
}

/// A link table: one link's (or a family's) parameters.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Link {
    /// Link rate (> 0).
    pub rate: Option<RateValue>,
    /// One-way propagation delay.
    pub delay: Option<TimeValue>,
    /// Buffer limit in packets (>= 1).
    #[schemars(range(min = 1))]
    pub queue: Option<u32>,
    /// Queue discipline (default droptail).
    pub aqm: Option<Aqm>,
    /// RED parameters, only with aqm = "red".
    pub red: Option<Red>,
}

/// `[topology]`, chosen by `kind`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Topology {
    /// N sender/receiver pairs sharing one bottleneck.
    Dumbbell {
        /// The shared link (rate required; queue default 100).
        bottleneck: Link,
        /// Template of every access link (rate required; queue default 1000).
        access: Link,
        /// Number of sender/receiver pairs (default: one per flow).
        #[schemars(range(min = 1))]
        pairs: Option<u32>,
        /// Per-pair one-way access delay, one per pair.
        access_delays: Option<Vec<TimeValue>>,
    },
    /// TCP-PR Fig. 3 (left): three bottlenecks in a row with cross traffic.
    ParkingLot {
        /// Every link except cs1-cs3 (15 Mbit/s, 10 ms, 250 packets).
        link: Option<Link>,
        /// Rates of the CS1->R1, CS2->R2, CS3->R3 links.
        #[schemars(length(min = 3, max = 3))]
        cross_rates: Option<Vec<RateValue>>,
    },
    /// Node-disjoint S->D paths with per-packet multipath routing.
    Multipath {
        /// Routing parameter (>= 0; 0 spreads evenly, large values use the shortest path).
        epsilon: Option<f64>,
        /// One-way delay of every link (default 10 ms).
        link_delay: Option<TimeValue>,
        /// Rate of every link (default 10 Mbit/s).
        rate: Option<RateValue>,
        /// Buffer of every link in packets (default 100).
        #[schemars(range(min = 1))]
        queue: Option<u32>,
        /// Queue discipline of every link.
        aqm: Option<Aqm>,
        /// RED parameters of every link.
        red: Option<Red>,
        /// Links per path, one path per entry (1 to 16 entries).
        #[schemars(length(min = 1, max = 16))]
        hops: Option<Vec<u32>>,
    },
    /// RR-TCP Fig. 2: S1 - R1 - R2 - S2.
    Chain {
        /// The R1-R2 link; its rate may be derived from max_window.
        bottleneck: Link,
        /// Both access links (10 Mbit/s, 1 ms, 1000 packets).
        access: Option<Link>,
        /// RR-TCP's M, the sender's maximum window in packets.
        #[schemars(range(min = 1))]
        max_window: Option<u32>,
        /// Packet size for the rate rule (41 to 65535, default 1040).
        #[schemars(range(min = 41, max = 65535))]
        packet_bytes: Option<u32>,
    },
    /// TCP-NCL Fig. 3b (top): wired hops to an access point, then one wireless link.
    WirelessInfrastructure {
        /// Every wired link (100 Mbit/s, 10 ms, 100 packets).
        wired: Option<Link>,
        /// Number of wired links between S and AP (default 2).
        #[schemars(range(min = 1))]
        wired_hops: Option<u32>,
        /// The AP -> D link (2 Mbit/s, 1 ms, 50 packets).
        wireless: Option<Link>,
    },
    /// TCP-NCL Fig. 3b (bottom): a chain of wireless links.
    WirelessMultihop {
        /// Every link (2 Mbit/s, 1 ms, 50 packets).
        wireless: Option<Link>,
        /// Number of wireless links (default 4).
        #[schemars(range(min = 1))]
        hops: Option<u32>,
    },
    /// The high-speed paper's Figs. 10-11: routers in a chain, one host on each.
    MultiBottleneck {
        /// Every router-to-router link (1 Gbit/s, 23 ms, queue = bandwidth-delay product).
        link: Option<Link>,
        /// Every host's access link (10 Gbit/s, 1 ms, 10000 packets).
        access: Option<Link>,
        /// Number of routers and hosts (default 5).
        #[schemars(range(min = 2))]
        routers: Option<u32>,
    },
    /// Nodes and links listed in the file.
    Custom {
        /// Node names: at least 2, unique.
        #[schemars(length(min = 2))]
        nodes: Vec<String>,
        /// The links.
        #[schemars(length(min = 1))]
        links: Vec<CustomLink>,
        /// Node pairs routed per packet over several paths.
        multipath: Option<Vec<CustomMultipath>>,
        /// Default endpoints of flows and traffic, as [src, dst] pairs.
        endpoints: Option<Vec<[String; 2]>>,
    },
}

/// One `[[topology.links]]` table of a custom topology.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CustomLink {
    /// The link's name, for impairments (unique).
    pub name: String,
    /// Start of the forward direction.
    pub a: String,
    /// End of the forward direction.
    pub b: String,
    /// Link rate (required).
    pub rate: Option<RateValue>,
    /// One-way propagation delay (default 0).
    pub delay: Option<TimeValue>,
    /// Buffer limit in packets (default 100).
    #[schemars(range(min = 1))]
    pub queue: Option<u32>,
    /// Queue discipline.
    pub aqm: Option<Aqm>,
    /// RED parameters, only with aqm = "red".
    pub red: Option<Red>,
}

/// One `[[topology.multipath]]` table of a custom topology.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CustomMultipath {
    /// One end.
    pub src: String,
    /// The other end.
    pub dst: String,
    /// Routing parameter (>= 0, default 0).
    pub epsilon: Option<f64>,
}

/// One `[[flows]]` table: `count` identical TCP flows.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Flow {
    /// TCP variant (`reorderlab variants` lists them).
    pub variant: String,
    /// Number of identical flows (default 1).
    #[schemars(range(min = 1))]
    pub count: Option<u32>,
    /// Maximum segment size in bytes (1 to 65495, default 1460).
    #[schemars(range(min = 1, max = 65495))]
    pub mss: Option<u32>,
    /// Transfer size (> 0); unset: a bulk transfer lasting the whole run.
    pub bytes: Option<SizeValue>,
    /// When the flow opens (default 0), before `duration`: a time, or a distribution drawn once per flow (start-time jitter, e.g. { dist = "uniform", min = "0s", max = "1s" }).
    pub start: Option<Distribution>,
    /// The receiver delays ACKs (RFC 1122 4.2.3.2, RFC 5681 4.2).
    pub delayed_ack: Option<bool>,
    /// RFC 7323 timestamps on every segment.
    pub timestamps: Option<bool>,
    /// Force SACK (RFC 2018) on or off (default: the variant's choice).
    pub sack: Option<bool>,
    /// Force DSACK (RFC 2883) on or off (default: the variant's choice).
    pub dsack: Option<bool>,
    /// Lower bound of the retransmission timeout (default 1s, RFC 6298 2.4).
    pub min_rto: Option<TimeValue>,
    /// Upper bound of the retransmission timeout (default 60s, RFC 6298 2.5).
    pub max_rto: Option<TimeValue>,
    /// Initial congestion window in segments (1 to 100,000; default 2).
    #[schemars(range(min = 1, max = 100000))]
    pub initial_window: Option<u32>,
    /// Receiver's advertised window (> 0; default unlimited).
    pub rwnd: Option<SizeValue>,
    /// Duplicate-ACK threshold for fast retransmit (default 3).
    #[schemars(range(min = 1))]
    pub dupthresh: Option<u32>,
    /// NewReno's timer on partial ACKs (RFC 6582 Section 4): "impatient" (default, only the first partial ACK restarts it) or "slow-but-steady".
    #[schemars(extend("enum" = ["impatient", "slow-but-steady"]))]
    pub newreno_timer: Option<String>,
    /// Out-of-order data and the advertised window: "inside" (default, the window is offered from RCV.NXT) or "subtract" (it shrinks by the bytes held out of order).
    #[schemars(extend("enum" = ["inside", "subtract"]))]
    pub rwnd_ooo: Option<String>,
    /// Dumbbell pair of these flows (dumbbell only).
    pub pair: Option<u32>,
    /// Congestion-control override: reno.
    #[schemars(extend("enum" = ["reno"]))]
    pub cc: Option<String>,
    /// Variant parameters: tcp-pr and tcp-pr-basic alpha (0 to 1) and beta (1 to 1000), ba-ewma gain (0 to 1), tcp-ncr careful (0 to 1).
    pub params: Option<BTreeMap<String, f64>>,
    /// Sending node (with dst; not on the dumbbell).
    pub src: Option<String>,
    /// Receiving node (with src; not on the dumbbell).
    pub dst: Option<String>,
    /// Swap the default endpoints (not with src/dst).
    pub reverse: Option<bool>,
}

/// Direction through a link.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// The link's forward direction.
    Forward,
    /// The other direction.
    Reverse,
}

/// One `[[impairments]]` table, chosen by `kind`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Impairment {
    /// Independent random loss.
    Loss {
        /// A link or link group of the topology.
        link: String,
        /// Which way through the link (default forward).
        direction: Option<Direction>,
        /// Per-packet drop probability in [0, 1].
        #[schemars(range(min = 0, max = 1))]
        probability: f64,
    },
    /// Extra random delay for a fraction of packets (reordering).
    Delay {
        /// A link or link group of the topology.
        link: String,
        /// Which way through the link (default forward).
        direction: Option<Direction>,
        /// Probability that a packet is delayed, in [0, 1].
        #[schemars(range(min = 0, max = 1))]
        fraction: f64,
        /// Extra delay of a selected packet.
        delay: Distribution,
    },
    /// Periodic swaps of queued packets (reordering).
    Swap {
        /// A link or link group of the topology.
        link: String,
        /// Which way through the link (default forward).
        direction: Option<Direction>,
        /// Time between swap events (default 1s; at most 10,000,000 events over the run).
        interval: Option<TimeValue>,
        /// Packet swaps per event, TCP-PR's K (1 to 65536).
        #[schemars(range(min = 1, max = 65536))]
        swaps: u32,
    },
    /// The link stops in both directions for a while.
    Spikes {
        /// A link or link group of the topology.
        link: String,
        /// Length of a spike (default uniform 3-15 s).
        length: Option<Distribution>,
        /// Start-to-start time between spikes (default uniform 20-40 s; at most 10,000,000 spikes over the run).
        every: Option<Distribution>,
    },
    /// The link's rate changes at one instant.
    RateChange {
        /// A link or link group of the topology.
        link: String,
        /// Which way through the link (default forward).
        direction: Option<Direction>,
        /// When the rate changes, before `duration`.
        at: TimeValue,
        /// The new rate.
        rate: RateValue,
    },
    /// Loss events that drop everything for a while.
    BurstLoss {
        /// A link or link group of the topology.
        link: String,
        /// Which way through the link (default forward).
        direction: Option<Direction>,
        /// Loss events per packet, in [0, 1].
        #[schemars(range(min = 0, max = 1))]
        rate: f64,
        /// Length of an event (default uniform 300-400 ms).
        length: Option<Distribution>,
    },
    /// Link-layer retransmission with a retry limit.
    Arq {
        /// A link or link group of the topology.
        link: String,
        /// Which way through the link (default forward).
        direction: Option<Direction>,
        /// Probability that one attempt fails, in [0, 1].
        #[schemars(range(min = 0, max = 1))]
        frame_error: f64,
        /// Retransmissions after the first attempt (0 to 255, default 3).
        #[schemars(range(max = 255))]
        retries: Option<u32>,
        /// Extra delay of each retry (default 5 ms).
        attempt_delay: Option<TimeValue>,
    },
}

/// One `[[traffic]]` table, chosen by `kind`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Traffic {
    /// Constant-bit-rate packets (UDP-like).
    Cbr {
        /// Sending node (with dst).
        src: Option<String>,
        /// Receiving node (with src).
        dst: Option<String>,
        /// When the traffic starts (default 0): a time, or a distribution drawn once for the source.
        start: Option<Distribution>,
        /// Sending rate (at most 10,000,000 packets per second).
        rate: RateValue,
        /// Size of every packet, headers included (28 to 65535, default 1000).
        #[schemars(range(min = 28, max = 65535))]
        packet_bytes: Option<u32>,
        /// No packets from this time on (default: the end of the run).
        stop: Option<TimeValue>,
    },
    /// TCP-PR Section V's web sessions.
    Web {
        /// Node of the servers (with dst).
        src: Option<String>,
        /// Node of the clients (with src).
        dst: Option<String>,
        /// When the sessions begin (default 0): a time, or a distribution drawn once per session.
        start: Option<Distribution>,
        /// Server-client pairs (default 1).
        #[schemars(range(min = 1))]
        pairs: Option<u32>,
        /// Concurrent sessions per pair (default 10).
        #[schemars(range(min = 1))]
        sessions: Option<u32>,
        /// TCP variant of the object transfers (default sack).
        variant: Option<String>,
        /// MSS of the object transfers (1 to 65495, default 1460).
        #[schemars(range(min = 1, max = 65495))]
        mss: Option<u32>,
        /// Time between pages (default exponential, mean 1 s).
        inter_page: Option<Distribution>,
        /// Objects per page, uniform over [min, max] (default [1, 1]).
        objects_per_page: Option<[u32; 2]>,
        /// Time between object requests within a page (default exponential, mean 10 ms).
        inter_object: Option<Distribution>,
        /// Mean object size (default 40000 bytes).
        object_size_mean: Option<SizeValue>,
        /// Pareto shape of object sizes (> 1, default 1.2).
        object_size_shape: Option<f64>,
    },
}
