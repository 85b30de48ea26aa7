//! Scenario -> World: turns the topology into a graph and builds it,
//! attaches impairments, creates each flow's sender and receiver from its
//! variant, and sets up background traffic.

use crate::world::{CbrSource, Flow, FlowSetup, Payload, ReportedLink, WebSessionState, World};
use reorderlab_net::impair::{
    Arq, Bernoulli, BurstLoss, Impairment, ImpairmentKind as Per, RandomDelay, RateChange, Spikes,
    Swap, Timed, TimedKind,
};
use reorderlab_net::topology::{kinds, Graph, LinkDecl, MultipathDecl, Topo};
use reorderlab_net::{AqmSpec, LinkParams};
use reorderlab_scenario::{
    Aqm, Direction, FlowSpec, ImpairmentKind, LinkSpec, NewRenoTimer, RwndOoo, Scenario, Topology,
    TrafficSpec,
};
use reorderlab_sim::rng::label;
use reorderlab_sim::{stream, Time, TimeDist};
use reorderlab_tcp::receiver::DEFAULT_DELACK_TIMEOUT;
use reorderlab_tcp::variant::{self, Variant};
use reorderlab_tcp::{ReceiverConfig, SenderConfig};
use reorderlab_traffic::cbr::Cbr;
use reorderlab_traffic::web::{ClosedLoopSession, WebParams};
use reorderlab_traffic::Transfer;

/// A scenario that validated but cannot be built (reported, never a panic).
#[derive(Debug, thiserror::Error)]
#[error("{key}: {message}")]
pub struct BuildError {
    pub key: String,
    pub message: String,
}

fn err(key: impl Into<String>, message: impl Into<String>) -> BuildError {
    BuildError {
        key: key.into(),
        message: message.into(),
    }
}

/// A scenario link as the network layer takes it.
pub fn link_params(l: &LinkSpec) -> LinkParams {
    LinkParams {
        rate_bps: l.rate,
        delay: l.delay,
        queue: l.queue,
        aqm: match &l.aqm {
            Aqm::DropTail => AqmSpec::DropTail,
            Aqm::Red(r) => AqmSpec::Red(reorderlab_net::queue::RedParams {
                min_th: r.min_th,
                max_th: r.max_th,
                max_p: r.max_p,
                weight: r.weight,
                gentle: r.gentle,
            }),
        },
    }
}

/// The scenario's topology as a named graph.
pub fn graph(sc: &Scenario) -> Graph {
    match &sc.topology {
        Topology::Dumbbell(d) => {
            let access: Vec<LinkParams> = (0..sc.pairs().max(1))
                .map(|i| LinkParams {
                    delay: d.access_delay(i),
                    ..link_params(&d.access)
                })
                .collect();
            kinds::dumbbell(link_params(&d.bottleneck), &access)
        }
        Topology::ParkingLot(p) => kinds::parking_lot(link_params(&p.link), p.cross_rates),
        Topology::Multipath(m) => kinds::multipath(link_params(&m.link()), &m.hops, m.epsilon),
        Topology::Chain(c) => kinds::chain(link_params(&c.bottleneck), link_params(&c.access)),
        Topology::WirelessInfrastructure(w) => kinds::wireless_infrastructure(
            link_params(&w.wired),
            w.wired_hops,
            link_params(&w.wireless),
        ),
        Topology::WirelessMultihop(w) => kinds::wireless_multihop(link_params(&w.wireless), w.hops),
        Topology::MultiBottleneck(m) => {
            kinds::multi_bottleneck(link_params(&m.link), link_params(&m.access), m.routers)
        }
        Topology::Custom(c) => Graph {
            nodes: c.nodes.clone(),
            links: c
                .links
                .iter()
                .map(|l| {
                    let p = link_params(&l.spec);
                    LinkDecl {
                        name: l.name.clone(),
                        a: l.a.clone(),
                        b: l.b.clone(),
                        forward: p,
                        reverse: p,
                    }
                })
                .collect(),
            groups: Vec::new(),
            endpoints: c.endpoints.clone(),
            multipath: c
                .multipath
                .iter()
                .map(|m| MultipathDecl {
                    a: m.src.clone(),
                    b: m.dst.clone(),
                    epsilon: m.epsilon,
                })
                .collect(),
        },
    }
}

fn attach_impairments(sc: &Scenario, topo: &mut Topo<Payload>) -> Result<(), BuildError> {
    for (i, imp) in sc.impairments.iter().enumerate() {
        let links: Vec<(reorderlab_net::LinkId, reorderlab_net::LinkId)> = topo
            .resolve(&imp.link)
            .ok_or_else(|| {
                err(
                    format!("impairments[{i}].link"),
                    format!("no link or group named {:?}", imp.link),
                )
            })?
            .into_iter()
            .map(|l| (l.forward, l.reverse))
            .collect();
        for (j, (fwd, rev)) in links.into_iter().enumerate() {
            let rng = stream(sc.seed, &[label("impairment"), i as u64, j as u64]);
            let l = match imp.direction {
                Direction::Forward => fwd,
                Direction::Reverse => rev,
            };
            let net = &mut topo.net;
            match &imp.kind {
                ImpairmentKind::Loss { probability } => net.impair(
                    l,
                    Impairment::new(Per::Loss(Bernoulli { p: *probability }), rng),
                ),
                ImpairmentKind::Delay { fraction, delay } => net.impair(
                    l,
                    Impairment::new(Per::Delay(RandomDelay::new(*fraction, *delay)), rng),
                ),
                ImpairmentKind::BurstLoss { rate, length } => net.impair(
                    l,
                    Impairment::new(Per::BurstLoss(BurstLoss::new(*rate, *length)), rng),
                ),
                ImpairmentKind::Arq {
                    frame_error,
                    retries,
                    attempt_delay,
                } => net.impair(
                    l,
                    Impairment::new(
                        Per::Arq(Arq::new(*frame_error, *retries, *attempt_delay)),
                        rng,
                    ),
                ),
                ImpairmentKind::Swap { interval, swaps } => {
                    net.add_timed(Timed {
                        kind: TimedKind::Swap(Swap::new(l, *interval, *swaps)),
                        rng,
                    });
                }
                ImpairmentKind::Spikes { length, every } => {
                    net.add_timed(Timed {
                        kind: TimedKind::Spikes(Spikes::new((fwd, rev), *length, *every)),
                        rng,
                    });
                }
                ImpairmentKind::RateChange { at, rate } => {
                    net.add_timed(Timed {
                        kind: TimedKind::RateChange(RateChange {
                            link: l,
                            at: *at,
                            rate_bps: *rate,
                        }),
                        rng,
                    });
                }
            }
        }
    }
    Ok(())
}

/// How the flows of one `[[flows]]` table (or a web traffic source) are set up.
/// `cc` and `params` were checked by validation
/// ([`reorderlab_scenario::check`]); a scenario that skipped it (parsed
/// against a catalog of names alone) gets an error here, never a panic.
fn setup(v: &'static Variant, spec: &FlowSpec, key: &str) -> Result<FlowSetup, BuildError> {
    let cc = match &spec.cc {
        None => v.default_cc(),
        Some(name) => variant::congestion_control(name).ok_or_else(|| {
            err(
                format!("{key}.cc"),
                format!("unknown congestion control {name:?} (the scenario was not validated with reorderlab_scenario::check)"),
            )
        })?,
    };
    let sack = spec.sack.unwrap_or(v.sack);
    let dsack = sack && spec.dsack.unwrap_or(v.dsack);
    Ok(FlowSetup {
        variant: v,
        cc,
        params: spec.params.clone(),
        sender: SenderConfig {
            mss: spec.mss,
            total_bytes: spec.bytes,
            initial_window: spec.initial_window,
            min_rto: spec.min_rto,
            max_rto: spec.max_rto,
            timestamps: spec.timestamps,
            sack,
            dsack,
            limited_transmit: true,
            dupthresh: spec.dupthresh,
            newreno_timer: match spec.newreno_timer {
                NewRenoTimer::Impatient => reorderlab_tcp::sender::NewRenoTimer::Impatient,
                NewRenoTimer::SlowButSteady => reorderlab_tcp::sender::NewRenoTimer::SlowButSteady,
            },
        },
        receiver: ReceiverConfig {
            sack,
            dsack,
            timestamps: spec.timestamps,
            delayed_ack: spec.delayed_ack,
            delack_timeout: DEFAULT_DELACK_TIMEOUT,
            rwnd: spec.rwnd.unwrap_or(u64::MAX),
            rwnd_minus_ooo: spec.rwnd_ooo == RwndOoo::Subtract,
            mss: spec.mss,
        },
    })
}

/// The flow defaults of docs/scenarios.md, for transfers that traffic
/// sources create (web objects).
fn default_flow(variant: &str, mss: u32) -> FlowSpec {
    FlowSpec {
        variant: variant.to_string(),
        count: 1,
        mss,
        bytes: None,
        start: TimeDist::Constant(Time::ZERO),
        delayed_ack: false,
        timestamps: false,
        sack: None,
        dsack: None,
        min_rto: Time::from_secs(1),
        max_rto: Time::from_secs(60),
        initial_window: 2,
        rwnd: None,
        dupthresh: 3,
        newreno_timer: NewRenoTimer::Impatient,
        rwnd_ooo: RwndOoo::Inside,
        pair: None,
        src: None,
        dst: None,
        reverse: false,
        cc: None,
        params: Default::default(),
    }
}

/// A start time drawn from `d` with the random stream of `labels` (its own
/// stream per flow, source or session, so a draw does not depend on any
/// other component or on the thread that builds the world). A plain time
/// draws nothing.
fn draw_start(d: &TimeDist, seed: u64, labels: &[u64]) -> Time {
    match *d {
        TimeDist::Constant(t) => t,
        _ => d.sample(&mut stream(seed, labels)),
    }
}

/// Builds the world for `sc`.
pub fn build(sc: &Scenario) -> Result<World, BuildError> {
    let mut topo: Topo<Payload> = graph(sc).build(sc.seed).map_err(|m| err("topology", m))?;
    attach_impairments(sc, &mut topo)?;

    let node = |name: &str, key: &str| {
        topo.node(name)
            .ok_or_else(|| err(key, format!("no node named {name:?}")))
    };
    let endpoints = sc.flow_endpoints();
    let mut flows = Vec::new();
    let mut id = 0u32;
    for (fi, spec) in sc.flows.iter().enumerate() {
        let key = format!("flows[{fi}]");
        let v = variant::find(&spec.variant).ok_or_else(|| {
            err(
                format!("{key}.variant"),
                format!("unknown variant {:?}", spec.variant),
            )
        })?;
        let setup = setup(v, spec, &key)?;
        for _ in 0..spec.count {
            let (s, d) = endpoints.get(id as usize).cloned().unwrap_or_default();
            let (src, dst) = (node(&s, &key)?, node(&d, &key)?);
            let transfer = Transfer {
                start: draw_start(&spec.start, sc.seed, &[label("flow-start"), u64::from(id)]),
                bytes: spec.bytes,
            };
            flows.push(Flow::new(
                id,
                &setup,
                src,
                dst,
                transfer,
                sc.measure.reorder_threshold,
                false,
            ));
            id += 1;
        }
    }

    let mut cbrs = Vec::new();
    let mut web = Vec::new();
    for (ti, t) in sc.traffic.iter().enumerate() {
        let key = format!("traffic[{ti}]");
        match t {
            TrafficSpec::Cbr(c) => {
                let start = draw_start(&c.start, sc.seed, &[label("cbr-start"), ti as u64]);
                let gen = Cbr::new(c.rate, start).with_packet_bytes(c.packet_bytes);
                let gen = match c.stop {
                    Some(s) => gen.with_stop(s),
                    None => gen,
                };
                cbrs.push(CbrSource::new(
                    ti as u32,
                    gen,
                    node(&c.src, &key)?,
                    node(&c.dst, &key)?,
                ));
            }
            TrafficSpec::Web(w) => {
                let v = variant::find(&w.variant).ok_or_else(|| {
                    err(
                        format!("{key}.variant"),
                        format!("unknown variant {:?}", w.variant),
                    )
                })?;
                let setup = setup(v, &default_flow(&w.variant, w.mss), &key)?;
                let params = WebParams {
                    inter_page: w.inter_page,
                    objects_per_page: (w.objects_per_page[0], w.objects_per_page[1]),
                    inter_object: w.inter_object,
                    size_mean: w.object_size_mean as f64,
                    size_shape: w.object_size_shape,
                    size_cap: None,
                };
                let template = ClosedLoopSession::new(params).map_err(|m| err(key.clone(), m))?;
                let (src, dst) = (node(&w.src, &key)?, node(&w.dst, &key)?);
                for pair in 0..w.pairs {
                    for session in 0..w.sessions {
                        let rng = stream(
                            sc.seed,
                            &[label("web"), ti as u64, pair as u64, session as u64],
                        );
                        let start = draw_start(
                            &w.start,
                            sc.seed,
                            &[label("web-start"), ti as u64, pair as u64, session as u64],
                        );
                        web.push(WebSessionState::new(
                            ti as u32,
                            template.clone(),
                            setup.clone(),
                            src,
                            dst,
                            start,
                            rng,
                        ));
                    }
                }
            }
        }
    }

    // Bottlenecks: links named "bottleneck*" or in a "bottleneck*" or
    // "core" group.
    let mut bottlenecks: std::collections::HashSet<&str> = topo
        .groups
        .iter()
        .filter(|(g, _)| g.starts_with("bottleneck") || g == "core")
        .flat_map(|(_, members)| members.iter().map(String::as_str))
        .collect();
    bottlenecks.extend(
        topo.links
            .iter()
            .map(|l| l.name.as_str())
            .filter(|n| n.starts_with("bottleneck")),
    );
    let mut reported = Vec::new();
    for l in &topo.links {
        let bottleneck = bottlenecks.contains(l.name.as_str());
        reported.push(ReportedLink {
            link: l.forward,
            name: l.name.clone(),
            direction: "forward",
            bottleneck,
        });
        reported.push(ReportedLink {
            link: l.reverse,
            name: l.name.clone(),
            direction: "reverse",
            bottleneck,
        });
    }
    Ok(World::new(sc, topo.net, flows, cbrs, web, reported))
}
