//! Scenario -> World: builds the topology, attaches impairments, and
//! creates each flow's sender and receiver from its variant.

use crate::world::{Flow, Payload, ReportedLink, World};
use reorderlab_net::impair::{Bernoulli, Impairment, ImpairmentKind as NetImpairment};
use reorderlab_net::topology::Dumbbell;
use reorderlab_net::{AqmSpec, LinkId, LinkParams};
use reorderlab_scenario::{Aqm, Direction, ImpairmentKind, LinkSpec, Scenario, Topology};
use reorderlab_sim::Time;
use reorderlab_tcp::receiver::DEFAULT_DELACK_TIMEOUT;
use reorderlab_tcp::{variant, Receiver, ReceiverConfig, Sender, SenderConfig};
use reorderlab_traffic::Transfer;

/// A scenario that validated but cannot be built (should not happen for
/// scenarios that passed validation; reported, never a panic).
#[derive(Debug, thiserror::Error)]
#[error("{key}: {message}")]
pub struct BuildError {
    pub key: String,
    pub message: String,
}

fn link_params(l: &LinkSpec) -> LinkParams {
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

/// Builds the world for `sc`.
pub fn build(sc: &Scenario) -> Result<World, BuildError> {
    let Topology::Dumbbell(d) = &sc.topology;
    let pairs = sc.pairs().max(1);
    let access: Vec<LinkParams> = (0..pairs)
        .map(|i| LinkParams {
            delay: d.access_delay(i),
            ..link_params(&d.access)
        })
        .collect();
    let db: Dumbbell<Payload> = Dumbbell::build(link_params(&d.bottleneck), &access, sc.seed);
    let mut net = db.net;

    // Impairments: each gets its own stream through its link's stream; a
    // second impairment on the same link draws from the same link stream in
    // a fixed order, so runs stay reproducible.
    for (i, imp) in sc.impairments.iter().enumerate() {
        let links: Vec<(LinkId, LinkId)> = match imp.link.as_str() {
            "bottleneck" => vec![db.bottleneck],
            "access" => db.pairs.iter().map(|p| p.access).collect(),
            other => match other
                .strip_prefix("access:")
                .and_then(|n| n.parse::<usize>().ok())
            {
                Some(n) if n < db.pairs.len() => vec![db.pairs[n].access],
                _ => {
                    return Err(BuildError {
                        key: format!("impairments[{i}].link"),
                        message: format!("no link named {other:?} in this topology"),
                    })
                }
            },
        };
        for (fwd, rev) in links {
            let l = match imp.direction {
                Direction::Forward => fwd,
                Direction::Reverse => rev,
            };
            let im = match &imp.kind {
                ImpairmentKind::Loss { probability } => {
                    Impairment::new(NetImpairment::Loss(Bernoulli { p: *probability }), reorderlab_sim::stream(sc.seed, &[reorderlab_sim::rng::label("impairment"), i as u64, l.0 as u64]))
                }
            };
            net.impair(l, im);
        }
    }

    let flow_pairs = sc.flow_pairs();
    let mut flows = Vec::new();
    let mut id = 0u32;
    for (fi, spec) in sc.flows.iter().enumerate() {
        let Some(v) = variant::find(&spec.variant) else {
            return Err(BuildError {
                key: format!("flows[{fi}].variant"),
                message: format!("unknown variant {:?}", spec.variant),
            });
        };
        let cc = match &spec.cc {
            None => v.default_cc(),
            Some(name) => variant::congestion_control(name).ok_or_else(|| BuildError {
                key: format!("flows[{fi}].cc"),
                message: format!(
                    "unknown congestion control {name:?}; expected one of: {}",
                    variant::CC_NAMES.join(", ")
                ),
            })?,
        };
        let sack = spec.sack.unwrap_or(v.sack);
        let dsack = sack && spec.dsack.unwrap_or(v.dsack);
        for _ in 0..spec.count {
            let pair = flow_pairs.get(id as usize).copied().unwrap_or(0) as usize;
            let Some(p) = db.pairs.get(pair) else {
                return Err(BuildError {
                    key: format!("flows[{fi}].pair"),
                    message: format!("no pair {pair}"),
                });
            };
            let scfg = SenderConfig {
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
            };
            let rcfg = ReceiverConfig {
                sack,
                dsack,
                timestamps: spec.timestamps,
                delayed_ack: spec.delayed_ack,
                delack_timeout: DEFAULT_DELACK_TIMEOUT,
                rwnd: spec.rwnd.unwrap_or(u64::MAX),
                mss: spec.mss,
            };
            let transfer = Transfer {
                start: spec.start,
                bytes: spec.bytes,
            };
            let sender = v.sender(scfg, cc.clone(), &spec.params);
            flows.push(Flow::new(
                id,
                v.name.to_string(),
                p.src,
                p.dst,
                transfer,
                sender,
                Receiver::new(rcfg),
            ));
            id += 1;
        }
    }

    let mut reported = vec![
        ReportedLink {
            link: db.bottleneck.0,
            name: "bottleneck".into(),
            direction: "forward",
        },
        ReportedLink {
            link: db.bottleneck.1,
            name: "bottleneck".into(),
            direction: "reverse",
        },
    ];
    for (i, p) in db.pairs.iter().enumerate() {
        reported.push(ReportedLink {
            link: p.access.0,
            name: format!("access:{i}"),
            direction: "forward",
        });
        reported.push(ReportedLink {
            link: p.access.1,
            name: format!("access:{i}"),
            direction: "reverse",
        });
    }
    let _ = Time::ZERO;
    Ok(World::new(
        sc.name.clone(),
        sc.seed,
        sc.duration,
        sc.measure.from,
        sc.measure.to,
        sc.measure.series_interval,
        net,
        flows,
        reported,
    ))
}
