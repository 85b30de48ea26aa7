//! The typed scenario: what a valid scenario file turns into.

use std::collections::BTreeMap;

use reorderlab_sim::Time;

/// Default values used when a key is absent (documented in docs/scenarios.md).
pub mod defaults {
    use reorderlab_sim::Time;

    /// `seed`: the random seed.
    pub const SEED: u64 = 1;
    /// `topology.bottleneck.queue`: bottleneck buffer in packets.
    pub const BOTTLENECK_QUEUE: u32 = 100;
    /// `topology.access.queue`: access-link buffer in packets.
    pub const ACCESS_QUEUE: u32 = 1000;
    /// `flows.count`: flows made from one `[[flows]]` table.
    pub const COUNT: u32 = 1;
    /// `flows.mss`: maximum segment size in bytes (Ethernet MTU minus 40).
    pub const MSS: u32 = 1460;
    /// Largest accepted MSS: 65535 minus 40 bytes of IPv4 and TCP headers.
    pub const MAX_MSS: u32 = 65495;
    /// `flows.min_rto`: RFC 6298 section 2.4's one-second floor.
    pub const MIN_RTO: Time = Time::from_secs(1);
    /// `flows.max_rto`: RFC 6298 section 2.5's upper bound (at least 60 s).
    pub const MAX_RTO: Time = Time::from_secs(60);
    /// `flows.initial_window`: segments (RFC 2581's IW of 2).
    pub const INITIAL_WINDOW: u32 = 2;
    /// `flows.dupthresh`: duplicate ACKs that trigger fast retransmit (RFC 5681).
    pub const DUPTHRESH: u32 = 3;
    /// `red.min_th` in packets (Floyd's "at least 5 packets").
    pub const RED_MIN_TH: f64 = 5.0;
    /// `red.max_th` default as a multiple of `min_th` (Floyd: max_th = 3 * min_th).
    pub const RED_MAX_TH_FACTOR: f64 = 3.0;
    /// `red.max_p`: drop probability at max_th (Floyd's 0.1).
    pub const RED_MAX_P: f64 = 0.1;
    /// `red.weight`: the EWMA weight w_q (Floyd and Jacobson's 0.002).
    pub const RED_WEIGHT: f64 = 0.002;
    /// `red.gentle`: ramp from max_p to 1 between max_th and 2 * max_th.
    pub const RED_GENTLE: bool = true;
}

/// A validated scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// `name`: short identifier used in output file names and reports.
    pub name: String,
    /// `duration`: simulated run length.
    pub duration: Time,
    /// `seed`: root of every random stream in the run.
    pub seed: u64,
    /// `[measure]`: the measurement window and time-series sampling.
    pub measure: Measure,
    /// `[topology]`: the network.
    pub topology: Topology,
    /// `[[flows]]`: the TCP flows, at least one table.
    pub flows: Vec<FlowSpec>,
    /// `[[impairments]]`: link impairments, possibly none.
    pub impairments: Vec<ImpairmentSpec>,
    /// The document after overrides, as validated; hash [`Scenario::canonical_text`] to key caches.
    pub source: toml::Table,
}

/// The measurement window: statistics cover `[from, to)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Measure {
    /// `measure.from`: start of the window (warm-up is excluded).
    pub from: Time,
    /// `measure.to`: end of the window.
    pub to: Time,
    /// `measure.series_interval`: when set, sample cwnd/goodput series at this interval.
    pub series_interval: Option<Time>,
}

/// The network topology, chosen by `topology.kind`.
#[derive(Debug, Clone, PartialEq)]
pub enum Topology {
    /// `kind = "dumbbell"`: N sender/receiver pairs sharing one bottleneck.
    Dumbbell(Dumbbell),
}

/// Every `topology.kind` this version understands.
pub const TOPOLOGY_KINDS: &[&str] = &["dumbbell"];

/// A dumbbell: each pair's sender reaches the left router over its own access
/// link, crosses the shared bottleneck, and reaches its receiver over another access link.
#[derive(Debug, Clone, PartialEq)]
pub struct Dumbbell {
    /// `topology.bottleneck`: the shared link between the two routers.
    pub bottleneck: LinkSpec,
    /// `topology.access`: the template for every access link.
    pub access: LinkSpec,
    /// `topology.pairs`: number of sender/receiver pairs; `None` means one per flow.
    pub pairs: Option<u32>,
    /// `topology.access_delays`: per-pair one-way access delay overriding `access.delay`.
    pub access_delays: Option<Vec<Time>>,
}

impl Dumbbell {
    /// Number of pairs given `total_flows` (the explicit `pairs`, else one per flow).
    pub fn pairs_for(&self, total_flows: u32) -> u32 {
        self.pairs.unwrap_or(total_flows)
    }

    /// One-way delay of pair `pair`'s access links.
    pub fn access_delay(&self, pair: u32) -> Time {
        self.access_delays
            .as_ref()
            .and_then(|d| d.get(pair as usize).copied())
            .unwrap_or(self.access.delay)
    }
}

impl Topology {
    /// The `topology.kind` string.
    pub fn kind(&self) -> &'static str {
        match self {
            Topology::Dumbbell(_) => "dumbbell",
        }
    }

    /// Checks an impairment's `link` name against this topology with `pairs` pairs.
    pub fn check_link(&self, link: &str, pairs: u32) -> Result<(), String> {
        match self {
            Topology::Dumbbell(_) => dumbbell_link(link, pairs),
        }
    }
}

/// Link names of a dumbbell with `pairs` pairs: bottleneck, access, access:<n>.
pub(crate) fn dumbbell_link(link: &str, pairs: u32) -> Result<(), String> {
    if link == "bottleneck" || link == "access" {
        return Ok(());
    }
    let expected = format!("expected one of: bottleneck, access, access:<n> with n < {pairs}");
    match link.strip_prefix("access:") {
        Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => match n.parse::<u32>()
        {
            Ok(n) if n < pairs => Ok(()),
            _ => Err(format!(
                "{expected} (the dumbbell has {}), got {}",
                crate::units::plural(u64::from(pairs), "pair"),
                crate::units::quote(link)
            )),
        },
        _ => Err(format!(
            "unknown link {}; {expected}",
            crate::units::quote(link)
        )),
    }
}

/// One link (both directions share rate, delay, queue and AQM).
#[derive(Debug, Clone, PartialEq)]
pub struct LinkSpec {
    /// `rate`: bits per second.
    pub rate: u64,
    /// `delay`: one-way propagation delay.
    pub delay: Time,
    /// `queue`: buffer limit in packets.
    pub queue: u32,
    /// `aqm` (and `red`): the queue discipline.
    pub aqm: Aqm,
}

/// Queue discipline of a link.
#[derive(Debug, Clone, PartialEq)]
pub enum Aqm {
    /// `aqm = "droptail"`: drop arrivals when the queue is full.
    DropTail,
    /// `aqm = "red"`: Random Early Detection with the parameters in the `red` table.
    Red(Red),
}

/// RED parameters (Floyd and Jacobson 1993), thresholds in packets.
#[derive(Debug, Clone, PartialEq)]
pub struct Red {
    /// `min_th`: average queue below which nothing is dropped early.
    pub min_th: f64,
    /// `max_th`: average queue at which the drop probability reaches `max_p`.
    pub max_th: f64,
    /// `max_p`: drop probability at `max_th`.
    pub max_p: f64,
    /// `weight`: w_q, the weight of the average-queue EWMA.
    pub weight: f64,
    /// `gentle`: ramp from `max_p` to 1 between `max_th` and `2 * max_th`.
    pub gentle: bool,
}

impl Default for Red {
    fn default() -> Self {
        Red {
            min_th: defaults::RED_MIN_TH,
            max_th: defaults::RED_MIN_TH * defaults::RED_MAX_TH_FACTOR,
            max_p: defaults::RED_MAX_P,
            weight: defaults::RED_WEIGHT,
            gentle: defaults::RED_GENTLE,
        }
    }
}

/// One `[[flows]]` table: `count` identical TCP flows.
#[derive(Debug, Clone, PartialEq)]
pub struct FlowSpec {
    /// `variant`: TCP variant name, one of the names the caller knows.
    pub variant: String,
    /// `count`: how many identical flows this table makes.
    pub count: u32,
    /// `mss`: maximum segment size in bytes.
    pub mss: u32,
    /// `bytes`: transfer size; `None` is a bulk transfer lasting the whole run.
    pub bytes: Option<u64>,
    /// `start`: when the flow opens.
    pub start: Time,
    /// `delayed_ack`: the receiver ACKs every second segment (RFC 1122 4.2.3.2).
    pub delayed_ack: bool,
    /// `timestamps`: RFC 7323 timestamps on every segment.
    pub timestamps: bool,
    /// `sack`: force SACK on or off; `None` lets the variant decide.
    pub sack: Option<bool>,
    /// `dsack`: force DSACK (RFC 2883) on or off; `None` lets the variant decide.
    pub dsack: Option<bool>,
    /// `min_rto`: lower bound of the retransmission timeout.
    pub min_rto: Time,
    /// `max_rto`: upper bound of the retransmission timeout.
    pub max_rto: Time,
    /// `initial_window`: initial cwnd in segments.
    pub initial_window: u32,
    /// `rwnd`: receiver window in bytes; `None` never limits the sender.
    pub rwnd: Option<u64>,
    /// `dupthresh`: duplicate-ACK threshold for fast retransmit.
    pub dupthresh: u32,
    /// `pair`: dumbbell pair these flows use; `None` spreads flows over pairs.
    pub pair: Option<u32>,
    /// `cc`: congestion-control override (free text for now).
    pub cc: Option<String>,
    /// `params`: variant-specific numeric parameters (alpha, beta, ...).
    pub params: BTreeMap<String, f64>,
}

/// One `[[impairments]]` table.
#[derive(Debug, Clone, PartialEq)]
pub struct ImpairmentSpec {
    /// `link`: `"bottleneck"`, `"access"` (all access links) or `"access:<n>"` (pair n's).
    pub link: String,
    /// `direction`: which way through the link is impaired.
    pub direction: Direction,
    /// `kind` and its parameters.
    pub kind: ImpairmentKind,
}

/// Direction through a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// `"forward"`: the data direction, sender to receiver.
    Forward,
    /// `"reverse"`: the ACK path, receiver to sender.
    Reverse,
}

/// What an impairment does, chosen by `kind`.
#[derive(Debug, Clone, PartialEq)]
pub enum ImpairmentKind {
    /// `kind = "loss"`: drop each packet independently with `probability`.
    Loss {
        /// `probability`: per-packet drop probability in [0, 1].
        probability: f64,
    },
}

/// Every impairment `kind` this version understands.
pub const IMPAIRMENT_KINDS: &[&str] = &["loss"];

impl ImpairmentKind {
    /// The `kind` string.
    pub fn name(&self) -> &'static str {
        match self {
            ImpairmentKind::Loss { .. } => "loss",
        }
    }
}

impl Scenario {
    /// Number of TCP flows: the sum of every `[[flows]]` table's `count`.
    pub fn total_flows(&self) -> u32 {
        self.flows
            .iter()
            .fold(0u32, |n, f| n.saturating_add(f.count))
    }

    /// Number of dumbbell pairs: `topology.pairs`, else one per flow.
    pub fn pairs(&self) -> u32 {
        match &self.topology {
            Topology::Dumbbell(d) => d.pairs_for(self.total_flows()),
        }
    }

    /// Pair of every flow, in order (each table's `count` flows in turn): the
    /// table's `pair` when set, else the flow's index modulo [`Scenario::pairs`].
    pub fn flow_pairs(&self) -> Vec<u32> {
        let pairs = self.pairs().max(1);
        let mut out = Vec::new();
        let mut index: u32 = 0;
        for f in &self.flows {
            for _ in 0..f.count {
                out.push(f.pair.unwrap_or(index % pairs));
                index = index.wrapping_add(1);
            }
        }
        out
    }

    /// The post-override document as canonical TOML (keys sorted), for hashing.
    pub fn canonical_text(&self) -> String {
        toml::to_string(&self.source).unwrap_or_else(|_| format!("{:?}", self.source))
    }
}
