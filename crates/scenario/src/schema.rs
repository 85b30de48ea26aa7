//! The typed scenario: what a valid scenario file turns into.

use std::collections::BTreeMap;

use reorderlab_sim::{Time, TimeDist};

use crate::names::NameSpace;

/// Default values used when a key is absent (documented in docs/scenarios.md).
pub mod defaults {
    use reorderlab_sim::{Time, TimeDist};

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

    /// `measure.reorder_threshold`: RFC 5236's displacement threshold DT.
    pub const REORDER_THRESHOLD: u32 = 1024;

    // Bounds on inputs that would exhaust memory or never finish (docs/scenarios.md
    // gives each with its reason; `run --max-events/--max-memory` guard the rest).

    /// Largest `measure.reorder_threshold`: the density meter costs 24-32
    /// bytes per unit of DT per flow (about 32 MB per flow here), and no
    /// window of a scenario displaces a packet by more.
    pub const MAX_REORDER_THRESHOLD: u32 = 1_000_000;
    /// Most samples per flow `measure.series_interval` may ask for (duration / interval): the series is kept in memory.
    pub const MAX_SERIES_SAMPLES: u64 = 1_000_000;
    /// Largest `flows.initial_window` in segments: RFC 6928 allows 10; this is
    /// a 146 MB burst at the default MSS, and every segment is scoreboard memory.
    pub const MAX_INITIAL_WINDOW: u32 = 100_000;
    /// Most events a timed impairment may cause over the run (swap events:
    /// duration / interval; spikes: duration / the mean of `every`).
    pub const MAX_TIMED_EVENTS: u64 = 10_000_000;
    /// Largest `swaps` per swap event (TCP-PR's K goes to 64); each swap is work in the event.
    pub const MAX_SWAPS: u32 = 65_536;
    /// Largest ARQ `retries`: 802.11's retry limits are 4 and 7; a frame
    /// retried without end holds every frame behind it.
    pub const MAX_ARQ_RETRIES: u32 = 255;
    /// Most packets per second of a CBR source (rate / (8 x packet_bytes)):
    /// 80 Gbit/s of 1000-byte packets, eight times the fastest link of any paper network.
    pub const MAX_CBR_PACKET_RATE: u64 = 10_000_000;

    /// `topology.link.rate` of the parking lot: TCP-PR Fig. 3's 15 Mbit/s.
    pub const PARKING_LOT_RATE: u64 = 15_000_000;
    /// `topology.link.delay` of the parking lot: 10 ms one-way (20 ms round trip per link).
    pub const PARKING_LOT_DELAY: Time = Time::from_millis(10);
    /// `topology.link.queue` of the parking lot: TCP-PR's 250 packets.
    pub const PARKING_LOT_QUEUE: u32 = 250;
    /// `topology.cross_rates`: the CS1->R1, CS2->R2, CS3->R3 links of TCP-PR Fig. 3.
    pub const PARKING_LOT_CROSS_RATES: [u64; 3] = [5_000_000, 1_660_000, 2_500_000];

    /// `topology.epsilon` of the multipath mesh: 0 spreads packets evenly over all paths.
    pub const MULTIPATH_EPSILON: f64 = 0.0;
    /// `topology.link_delay` of the multipath mesh: one-way delay of every link.
    pub const MULTIPATH_LINK_DELAY: Time = Time::from_millis(10);
    /// `topology.rate` of the multipath mesh: TCP-PR Fig. 14's 10 Mbit/s.
    pub const MULTIPATH_RATE: u64 = 10_000_000;
    /// `topology.queue` of the multipath mesh: TCP-PR Fig. 14's 100 packets.
    pub const MULTIPATH_QUEUE: u32 = 100;
    /// `topology.hops` of the multipath mesh: links per S->D path.
    pub const MULTIPATH_HOPS: [u32; 3] = [2, 3, 4];
    /// Most paths `topology.hops` may list.
    pub const MULTIPATH_MAX_PATHS: usize = 16;

    /// `topology.access.rate` of the chain: RR-TCP Fig. 2's 10 Mbit/s.
    pub const CHAIN_ACCESS_RATE: u64 = 10_000_000;
    /// `topology.access.delay` of the chain: RR-TCP Fig. 2's 1 ms.
    pub const CHAIN_ACCESS_DELAY: Time = Time::from_millis(1);
    /// `topology.packet_bytes` of the chain: a 1000-byte payload plus 40 header bytes.
    pub const CHAIN_PACKET_BYTES: u32 = 1040;

    /// `topology.wired.rate` of the infrastructure wireless network.
    pub const WIRED_RATE: u64 = 100_000_000;
    /// `topology.wired.delay` of the infrastructure wireless network.
    pub const WIRED_DELAY: Time = Time::from_millis(10);
    /// `topology.wired.queue` of the infrastructure wireless network.
    pub const WIRED_QUEUE: u32 = 100;
    /// `topology.wired_hops`: wired links between S and the access point.
    pub const WIRED_HOPS: u32 = 2;
    /// `topology.wireless.rate` of both wireless kinds (802.11b-era 2 Mbit/s).
    pub const WIRELESS_RATE: u64 = 2_000_000;
    /// `topology.wireless.delay` of both wireless kinds.
    pub const WIRELESS_DELAY: Time = Time::from_millis(1);
    /// `topology.wireless.queue` of both wireless kinds.
    pub const WIRELESS_QUEUE: u32 = 50;
    /// `topology.hops` of the multi-hop wireless chain: TCP-NCL's four wireless links.
    pub const MULTIHOP_HOPS: u32 = 4;

    /// `topology.link.rate` of the multi-bottleneck network: the high-speed paper's 1 Gbit/s.
    pub const MULTI_BOTTLENECK_RATE: u64 = 1_000_000_000;
    /// `topology.link.delay` of the multi-bottleneck network: 23 ms one-way.
    pub const MULTI_BOTTLENECK_DELAY: Time = Time::from_millis(23);
    /// Packet size of the default multi-bottleneck queue (the bandwidth-delay product in these packets).
    pub const BDP_PACKET_BYTES: u64 = 1500;
    /// `topology.access.rate` of the multi-bottleneck network.
    pub const MULTI_BOTTLENECK_ACCESS_RATE: u64 = 10_000_000_000;
    /// `topology.access.delay` of the multi-bottleneck network.
    pub const MULTI_BOTTLENECK_ACCESS_DELAY: Time = Time::from_millis(1);
    /// `topology.access.queue` of the multi-bottleneck network.
    pub const MULTI_BOTTLENECK_ACCESS_QUEUE: u32 = 10_000;
    /// `topology.routers` of the multi-bottleneck network: R1..R5.
    pub const MULTI_BOTTLENECK_ROUTERS: u32 = 5;

    /// `queue` of a custom topology's link.
    pub const CUSTOM_QUEUE: u32 = 100;

    /// `interval` of a swap impairment: TCP-PR's one swap event per second.
    pub const SWAP_INTERVAL: Time = Time::from_secs(1);
    /// `length` of a spikes impairment: the Eifel paper's 3-15 s.
    pub const SPIKE_LENGTH: TimeDist = TimeDist::Uniform {
        min: Time::from_secs(3),
        max: Time::from_secs(15),
    };
    /// `every` of a spikes impairment: the Eifel paper's 20-40 s, start to start.
    pub const SPIKE_EVERY: TimeDist = TimeDist::Uniform {
        min: Time::from_secs(20),
        max: Time::from_secs(40),
    };
    /// `length` of a burst-loss impairment: RR-TCP Table 3's 300-400 ms.
    pub const BURST_LENGTH: TimeDist = TimeDist::Uniform {
        min: Time::from_millis(300),
        max: Time::from_millis(400),
    };
    /// `retries` of an ARQ impairment: TCP-NCL's retransmission limit of three.
    pub const ARQ_RETRIES: u32 = 3;
    /// `attempt_delay` of an ARQ impairment: time between attempts.
    pub const ARQ_ATTEMPT_DELAY: Time = Time::from_millis(5);

    /// `packet_bytes` of CBR traffic.
    pub const CBR_PACKET_BYTES: u32 = 1000;
    /// Smallest CBR packet: 20-byte IPv4 plus 8-byte UDP header.
    pub const MIN_PACKET_BYTES: u32 = 28;
    /// Largest CBR packet: the IPv4 limit.
    pub const MAX_PACKET_BYTES: u32 = 65535;
    /// `pairs` of web traffic: server-client pairs.
    pub const WEB_PAIRS: u32 = 1;
    /// `sessions` of web traffic: concurrent sessions per pair (TCP-PR Section V).
    pub const WEB_SESSIONS: u32 = 10;
    /// `variant` of web traffic's object transfers.
    pub const WEB_VARIANT: &str = "sack";
    /// `inter_page` of web traffic: exponential, mean 1 s (TCP-PR Section V).
    pub const WEB_INTER_PAGE: TimeDist = TimeDist::Exponential {
        mean: Time::from_secs(1),
    };
    /// `objects_per_page` of web traffic: inclusive integer range.
    pub const WEB_OBJECTS_PER_PAGE: [u32; 2] = [1, 1];
    /// `inter_object` of web traffic: exponential, mean 10 ms (TCP-PR Section V).
    pub const WEB_INTER_OBJECT: TimeDist = TimeDist::Exponential {
        mean: Time::from_millis(10),
    };
    /// `object_size_mean` of web traffic in bytes: 40 KB (TCP-PR Section V).
    pub const WEB_OBJECT_SIZE_MEAN: u64 = 40_000;
    /// `object_size_shape` of web traffic: the Pareto shape 1.2 (TCP-PR Section V).
    pub const WEB_OBJECT_SIZE_SHAPE: f64 = 1.2;
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
    /// `[[traffic]]`: background traffic (CBR, web), possibly none.
    pub traffic: Vec<TrafficSpec>,
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
    /// `measure.reorder_threshold`: RFC 5236's displacement threshold DT for the reordering metrics.
    pub reorder_threshold: u32,
}

/// The network topology, chosen by `topology.kind`.
#[derive(Debug, Clone, PartialEq)]
pub enum Topology {
    /// `kind = "dumbbell"`: N sender/receiver pairs sharing one bottleneck.
    Dumbbell(Dumbbell),
    /// `kind = "parking-lot"`: TCP-PR Fig. 3's three bottlenecks with cross traffic.
    ParkingLot(ParkingLot),
    /// `kind = "multipath"`: node-disjoint S->D paths with per-packet multipath routing.
    Multipath(Multipath),
    /// `kind = "chain"`: RR-TCP Fig. 2's S1 - R1 - R2 - S2.
    Chain(Chain),
    /// `kind = "wireless-infrastructure"`: wired hops to an access point, then one wireless link.
    WirelessInfrastructure(WirelessInfrastructure),
    /// `kind = "wireless-multihop"`: a chain of wireless links.
    WirelessMultihop(WirelessMultihop),
    /// `kind = "multi-bottleneck"`: a chain of routers with one host on each.
    MultiBottleneck(MultiBottleneck),
    /// `kind = "custom"`: nodes and links listed in the file.
    Custom(Custom),
}

/// Every `topology.kind` this version understands.
pub const TOPOLOGY_KINDS: &[&str] = &[
    "dumbbell",
    "parking-lot",
    "multipath",
    "chain",
    "wireless-infrastructure",
    "wireless-multihop",
    "multi-bottleneck",
    "custom",
];

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

/// `kind = "parking-lot"`: S -> R1 -> R2 -> R3 -> R4 -> D, cross sources CS<i> at R<i>, sinks CD<i> at R<i+1>.
#[derive(Debug, Clone, PartialEq)]
pub struct ParkingLot {
    /// `topology.link`: every link except the three cross-source links (15 Mbit/s, 10 ms, 250 packets).
    pub link: LinkSpec,
    /// `topology.cross_rates`: rates of the CS1->R1, CS2->R2, CS3->R3 links (otherwise like `link`).
    pub cross_rates: [u64; 3],
}

/// `kind = "multipath"`: S and D joined by one node-disjoint path per `hops` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Multipath {
    /// `topology.epsilon`: routing parameter; 0 uses every path equally, large values only the shortest.
    pub epsilon: f64,
    /// `topology.link_delay`: one-way delay of every link.
    pub link_delay: Time,
    /// `topology.rate`: rate of every link in bits per second.
    pub rate: u64,
    /// `topology.queue`: buffer of every link in packets.
    pub queue: u32,
    /// `topology.aqm` (and `topology.red`): queue discipline of every link.
    pub aqm: Aqm,
    /// `topology.hops`: number of links of each S->D path (one path per entry).
    pub hops: Vec<u32>,
}

impl Multipath {
    /// The parameters every link of the mesh shares, as a [`LinkSpec`].
    pub fn link(&self) -> LinkSpec {
        LinkSpec {
            rate: self.rate,
            delay: self.link_delay,
            queue: self.queue,
            aqm: self.aqm.clone(),
        }
    }
}

/// `kind = "chain"`: RR-TCP Fig. 2, S1 - R1 - R2 - S2.
#[derive(Debug, Clone, PartialEq)]
pub struct Chain {
    /// `topology.bottleneck`: the R1 -> R2 link; its rate is derived from `max_window` when not given.
    pub bottleneck: LinkSpec,
    /// `topology.access`: the S1 - R1 and R2 - S2 links (10 Mbit/s, 1 ms).
    pub access: LinkSpec,
    /// `topology.max_window`: RR-TCP's M, the sender's window limit in packets.
    pub max_window: Option<u32>,
    /// `topology.packet_bytes`: packet size used to derive the bottleneck rate (payload plus headers).
    pub packet_bytes: u32,
}

/// `kind = "wireless-infrastructure"`: S - R1 - ... - AP over wired links, then AP -> D over one wireless link.
#[derive(Debug, Clone, PartialEq)]
pub struct WirelessInfrastructure {
    /// `topology.wired`: every wired link (100 Mbit/s, 10 ms, 100 packets).
    pub wired: LinkSpec,
    /// `topology.wired_hops`: number of wired links between S and the access point.
    pub wired_hops: u32,
    /// `topology.wireless`: the AP -> D link (2 Mbit/s, 1 ms, 50 packets).
    pub wireless: LinkSpec,
}

/// `kind = "wireless-multihop"`: S - W1 - ... - D over `hops` wireless links.
#[derive(Debug, Clone, PartialEq)]
pub struct WirelessMultihop {
    /// `topology.wireless`: every wireless link (2 Mbit/s, 1 ms, 50 packets).
    pub wireless: LinkSpec,
    /// `topology.hops`: number of wireless links.
    pub hops: u32,
}

/// `kind = "multi-bottleneck"`: routers R1..Rn in a chain, host H<i> on router R<i>.
#[derive(Debug, Clone, PartialEq)]
pub struct MultiBottleneck {
    /// `topology.link`: every router-to-router link (1 Gbit/s, 23 ms, queue = bandwidth-delay product).
    pub link: LinkSpec,
    /// `topology.access`: every host's access link (10 Gbit/s, 1 ms, 10000 packets).
    pub access: LinkSpec,
    /// `topology.routers`: number of routers (and hosts).
    pub routers: u32,
}

/// `kind = "custom"`: a network listed node by node and link by link.
#[derive(Debug, Clone, PartialEq)]
pub struct Custom {
    /// `topology.nodes`: node names, unique.
    pub nodes: Vec<String>,
    /// `topology.links`: the links (`[[topology.links]]`).
    pub links: Vec<CustomLink>,
    /// `topology.multipath`: node pairs between which packets are routed per packet over several paths.
    pub multipath: Vec<MultipathSpec>,
    /// `topology.endpoints`: default (src, dst) of flows and traffic; defaults to first node -> last node.
    pub endpoints: Vec<(String, String)>,
}

/// One `[[topology.links]]` table of a custom topology; forward is `a -> b`.
#[derive(Debug, Clone, PartialEq)]
pub struct CustomLink {
    /// `name`: unique link name, used by impairments.
    pub name: String,
    /// `a`: node at the start of the forward direction.
    pub a: String,
    /// `b`: node at the end of the forward direction.
    pub b: String,
    /// `rate`, `delay`, `queue`, `aqm`, `red`: the link's parameters, inline in the same table.
    pub spec: LinkSpec,
}

/// One `[[topology.multipath]]` table: per-packet multipath between `src` and `dst`, both directions.
#[derive(Debug, Clone, PartialEq)]
pub struct MultipathSpec {
    /// `src`: one end.
    pub src: String,
    /// `dst`: the other end.
    pub dst: String,
    /// `epsilon`: routing parameter (0: all paths equally).
    pub epsilon: f64,
}

impl Topology {
    /// The `topology.kind` string.
    pub fn kind(&self) -> &'static str {
        match self {
            Topology::Dumbbell(_) => "dumbbell",
            Topology::ParkingLot(_) => "parking-lot",
            Topology::Multipath(_) => "multipath",
            Topology::Chain(_) => "chain",
            Topology::WirelessInfrastructure(_) => "wireless-infrastructure",
            Topology::WirelessMultihop(_) => "wireless-multihop",
            Topology::MultiBottleneck(_) => "multi-bottleneck",
            Topology::Custom(_) => "custom",
        }
    }

    /// The names of this topology given a dumbbell's pair count (ignored by other kinds).
    pub(crate) fn names(&self, pairs: u32) -> NameSpace {
        match self {
            Topology::Dumbbell(_) => NameSpace::dumbbell(pairs),
            Topology::ParkingLot(_) => NameSpace::parking_lot(),
            Topology::Multipath(m) => NameSpace::multipath(&m.hops),
            Topology::Chain(_) => NameSpace::chain(),
            Topology::WirelessInfrastructure(w) => NameSpace::wireless_infrastructure(w.wired_hops),
            Topology::WirelessMultihop(w) => NameSpace::wireless_multihop(w.hops),
            Topology::MultiBottleneck(m) => NameSpace::multi_bottleneck(m.routers),
            Topology::Custom(c) => {
                let links: Vec<(String, String, String)> = c
                    .links
                    .iter()
                    .map(|l| (l.name.clone(), l.a.clone(), l.b.clone()))
                    .collect();
                NameSpace::custom(&c.nodes, &links, c.endpoints.first().cloned())
            }
        }
    }

    /// Pair count assumed by the topology-only methods: a dumbbell's `pairs`, else 1.
    fn own_pairs(&self) -> u32 {
        match self {
            Topology::Dumbbell(d) => d.pairs.unwrap_or(1),
            _ => 1,
        }
    }

    /// Every link name and then every link-group name. A dumbbell without
    /// `pairs` is taken to have one pair; [`Scenario::link_names`] counts one per flow.
    pub fn link_names(&self) -> Vec<String> {
        self.names(self.own_pairs()).link_names()
    }

    /// Every node name. A dumbbell without `pairs` is taken to have one pair
    /// ([`Scenario::node_names`] counts one per flow).
    pub fn node_names(&self) -> Vec<String> {
        self.names(self.own_pairs()).node_names()
    }

    /// Default (src, dst) of flows and traffic, used round-robin. A dumbbell
    /// without `pairs` is taken to have one pair ([`Scenario::default_endpoints`] counts one per flow).
    pub fn default_endpoints(&self) -> Vec<(String, String)> {
        self.endpoints_for(self.own_pairs())
    }

    fn endpoints_for(&self, pairs: u32) -> Vec<(String, String)> {
        match self {
            Topology::Dumbbell(_) => (0..pairs)
                .map(|i| (format!("S{i}"), format!("D{i}")))
                .collect(),
            Topology::Custom(c) => c.endpoints.clone(),
            other => other.names(1).first_endpoint.into_iter().collect(),
        }
    }

    /// Checks an impairment's `link` name (a link or a link group) against
    /// this topology; `pairs` is the dumbbell's pair count (ignored by other kinds).
    pub fn check_link(&self, link: &str, pairs: u32) -> Result<(), String> {
        self.names(pairs).check_link(link)
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

/// `newreno_timer`: when a partial ACK restarts NewReno's retransmission
/// timer (RFC 6582 Section 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NewRenoTimer {
    /// Only the first partial ACK restarts it (the RFC's recommendation).
    #[default]
    Impatient,
    /// Every partial ACK restarts it.
    SlowButSteady,
}

/// `rwnd_ooo`: how the receiver's advertised window treats data it holds out
/// of order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RwndOoo {
    /// The window is offered from RCV.NXT and out-of-order data sits inside
    /// it, as real receivers do (they never move the right edge left).
    #[default]
    Inside,
    /// The window shrinks by the bytes held out of order.
    Subtract,
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
    /// `start`: when the flow opens, drawn once per flow (a constant for a
    /// plain time).
    pub start: TimeDist,
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
    /// `newreno_timer`: NewReno's timer rule on partial ACKs (RFC 6582 Section 4).
    pub newreno_timer: NewRenoTimer,
    /// `rwnd_ooo`: how out-of-order data affects the advertised window.
    pub rwnd_ooo: RwndOoo,
    /// `pair`: dumbbell pair these flows use; `None` spreads flows over pairs (dumbbell only).
    pub pair: Option<u32>,
    /// `cc`: congestion-control override (free text for now).
    pub cc: Option<String>,
    /// `params`: variant-specific numeric parameters (alpha, beta, ...).
    pub params: BTreeMap<String, f64>,
    /// `src`: sending node (not on the dumbbell); set together with `dst`.
    pub src: Option<String>,
    /// `dst`: receiving node (not on the dumbbell); set together with `src`.
    pub dst: Option<String>,
    /// `reverse`: swap the default endpoints, so data flows from the default destination to the default source.
    pub reverse: bool,
}

/// One `[[impairments]]` table.
#[derive(Debug, Clone, PartialEq)]
pub struct ImpairmentSpec {
    /// `link`: a link or link-group name of the topology (docs/scenarios.md lists them per kind).
    pub link: String,
    /// `direction`: which way through the link is impaired (always `Forward` for spikes, which act on both).
    pub direction: Direction,
    /// `kind` and its parameters.
    pub kind: ImpairmentKind,
}

/// Direction through a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// `"forward"`: the link's forward direction (for the dumbbell's links, sender to receiver).
    Forward,
    /// `"reverse"`: the other direction (for the dumbbell's links, the ACK path).
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
    /// `kind = "delay"`: hold a `fraction` of packets for an extra time drawn from `delay`.
    Delay {
        /// `fraction`: probability that a packet is delayed, in [0, 1].
        fraction: f64,
        /// `delay`: distribution of the extra delay.
        delay: TimeDist,
    },
    /// `kind = "swap"`: every `interval`, `swaps` swaps of two packets in the link's queue.
    Swap {
        /// `interval`: time between swap events.
        interval: Time,
        /// `swaps`: packet swaps per event (TCP-PR's K).
        swaps: u32,
    },
    /// `kind = "spikes"`: the link stops transmitting in both directions for `length`, spikes starting `every` apart.
    Spikes {
        /// `length`: distribution of a spike's length.
        length: TimeDist,
        /// `every`: distribution of the time from one spike's start to the next one's.
        every: TimeDist,
    },
    /// `kind = "rate-change"`: at time `at` the link's rate becomes `rate`.
    RateChange {
        /// `at`: when the rate changes.
        at: Time,
        /// `rate`: the new rate in bits per second.
        rate: u64,
    },
    /// `kind = "burst-loss"`: loss events start with probability `rate` per packet and drop everything for `length`.
    BurstLoss {
        /// `rate`: loss events per packet, in [0, 1].
        rate: f64,
        /// `length`: distribution of a loss event's length.
        length: TimeDist,
    },
    /// `kind = "arq"`: link-layer retransmission; frames fail with `frame_error` and are retried up to `retries` times.
    Arq {
        /// `frame_error`: probability that one attempt fails, in [0, 1].
        frame_error: f64,
        /// `retries`: retransmissions after the first attempt (0: plain random loss).
        retries: u32,
        /// `attempt_delay`: extra delay of each retry.
        attempt_delay: Time,
    },
}

/// Every impairment `kind` this version understands.
pub const IMPAIRMENT_KINDS: &[&str] = &[
    "loss",
    "delay",
    "swap",
    "spikes",
    "rate-change",
    "burst-loss",
    "arq",
];

impl ImpairmentKind {
    /// The `kind` string.
    pub fn name(&self) -> &'static str {
        match self {
            ImpairmentKind::Loss { .. } => "loss",
            ImpairmentKind::Delay { .. } => "delay",
            ImpairmentKind::Swap { .. } => "swap",
            ImpairmentKind::Spikes { .. } => "spikes",
            ImpairmentKind::RateChange { .. } => "rate-change",
            ImpairmentKind::BurstLoss { .. } => "burst-loss",
            ImpairmentKind::Arq { .. } => "arq",
        }
    }
}

/// One `[[traffic]]` table: background traffic, chosen by `kind`.
#[derive(Debug, Clone, PartialEq)]
pub enum TrafficSpec {
    /// `kind = "cbr"`: constant-bit-rate packets from `src` to `dst`.
    Cbr(Cbr),
    /// `kind = "web"`: TCP-PR Section V's web sessions, servers at `src`, clients at `dst`.
    Web(Web),
}

/// Every traffic `kind` this version understands.
pub const TRAFFIC_KINDS: &[&str] = &["cbr", "web"];

impl TrafficSpec {
    /// The `kind` string.
    pub fn kind(&self) -> &'static str {
        match self {
            TrafficSpec::Cbr(_) => "cbr",
            TrafficSpec::Web(_) => "web",
        }
    }
}

/// `kind = "cbr"`: a constant-bit-rate (UDP-like) packet stream.
#[derive(Debug, Clone, PartialEq)]
pub struct Cbr {
    /// `src`: sending node (default: the topology's first default source).
    pub src: String,
    /// `dst`: receiving node (default: the topology's first default destination).
    pub dst: String,
    /// `rate`: bits per second, counting whole packets.
    pub rate: u64,
    /// `packet_bytes`: size of every packet, headers included.
    pub packet_bytes: u32,
    /// `start`: time of the first packet, drawn once for the source.
    pub start: TimeDist,
    /// `stop`: no packets from this time on; `None` runs to the end.
    pub stop: Option<Time>,
}

/// `kind = "web"`: HTTP-like sessions (TCP-PR Section V, after ns-2's sample scripts).
#[derive(Debug, Clone, PartialEq)]
pub struct Web {
    /// `src`: node of the web servers (default: the topology's first default source).
    pub src: String,
    /// `dst`: node of the web clients (default: the topology's first default destination).
    pub dst: String,
    /// `pairs`: server-client pairs.
    pub pairs: u32,
    /// `sessions`: concurrent sessions per pair.
    pub sessions: u32,
    /// `variant`: TCP variant of the object transfers.
    pub variant: String,
    /// `mss`: maximum segment size of the object transfers in bytes.
    pub mss: u32,
    /// `start`: when the sessions begin, drawn once per session.
    pub start: TimeDist,
    /// `inter_page`: time between a page's end and the next page's request.
    pub inter_page: TimeDist,
    /// `objects_per_page`: inclusive range [min, max] of objects per page, drawn uniformly.
    pub objects_per_page: [u32; 2],
    /// `inter_object`: time between object requests within a page.
    pub inter_object: TimeDist,
    /// `object_size_mean`: mean object size in bytes (Pareto).
    pub object_size_mean: u64,
    /// `object_size_shape`: Pareto shape of object sizes (> 1, so the mean exists).
    pub object_size_shape: f64,
}

impl Scenario {
    /// Number of TCP flows: the sum of every `[[flows]]` table's `count`.
    pub fn total_flows(&self) -> u32 {
        self.flows
            .iter()
            .fold(0u32, |n, f| n.saturating_add(f.count))
    }

    /// Number of dumbbell pairs: `topology.pairs`, else one per flow. For
    /// other kinds, the number of default endpoint pairs.
    pub fn pairs(&self) -> u32 {
        match &self.topology {
            Topology::Dumbbell(d) => d.pairs_for(self.total_flows()),
            Topology::Custom(c) => u32::try_from(c.endpoints.len()).unwrap_or(u32::MAX),
            _ => 1,
        }
    }

    /// Pair of every flow, in order (each table's `count` flows in turn): the
    /// table's `pair` when set, else the flow's index modulo [`Scenario::pairs`].
    /// For kinds other than the dumbbell, the index into the default endpoints
    /// that a flow without `src`/`dst` uses.
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

    /// (src, dst) node names of every flow, in the order of [`Scenario::flow_pairs`]:
    /// on the dumbbell S<pair> -> D<pair>; elsewhere the table's `src`/`dst`, else
    /// the default endpoints round-robin by flow index; `reverse` swaps the defaults.
    pub fn flow_endpoints(&self) -> Vec<(String, String)> {
        let pairs = self.flow_pairs();
        let defaults = match &self.topology {
            Topology::Dumbbell(_) => Vec::new(),
            t => t.default_endpoints(),
        };
        let mut out = Vec::with_capacity(pairs.len());
        let mut index = 0usize;
        for f in &self.flows {
            for _ in 0..f.count {
                let pair = pairs.get(index).copied().unwrap_or(0);
                let (src, dst) = match (&self.topology, &f.src, &f.dst) {
                    (Topology::Dumbbell(_), _, _) => (format!("S{pair}"), format!("D{pair}")),
                    (_, Some(s), Some(d)) => (s.clone(), d.clone()),
                    _ => defaults
                        .get(pair as usize)
                        .or(defaults.first())
                        .cloned()
                        .unwrap_or_default(),
                };
                out.push(if f.reverse { (dst, src) } else { (src, dst) });
                index += 1;
            }
        }
        out
    }

    /// Every link name and then every group name, with a dumbbell's pairs counted as in [`Scenario::pairs`].
    pub fn link_names(&self) -> Vec<String> {
        self.topology.names(self.pairs()).link_names()
    }

    /// Every node name, with a dumbbell's pairs counted as in [`Scenario::pairs`].
    pub fn node_names(&self) -> Vec<String> {
        self.topology.names(self.pairs()).node_names()
    }

    /// The topology's default endpoints, with a dumbbell's pairs counted as in [`Scenario::pairs`].
    pub fn default_endpoints(&self) -> Vec<(String, String)> {
        self.topology.endpoints_for(self.pairs())
    }

    /// The post-override document as canonical TOML (keys sorted), for hashing.
    pub fn canonical_text(&self) -> String {
        toml::to_string(&self.source).unwrap_or_else(|_| format!("{:?}", self.source))
    }
}
