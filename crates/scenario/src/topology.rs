//! `[topology]`: one walker per kind, the link tables, and the AQM/RED keys.

use reorderlab_sim::Time;
use toml::{Table, Value};

use crate::names::NameSpace;
use crate::schema::*;
use crate::units::{plural, quote};
use crate::walk::{self, describe, shown, unknown, Ctx, Obj};

/// What the cross-checks need from the topology, known even when a link in it is invalid.
pub(crate) struct Shape {
    /// The `topology.kind`.
    pub kind: &'static str,
    /// The names the topology defines, when the keys they depend on are valid.
    /// For the dumbbell, set once the number of pairs is known.
    pub names: Option<NameSpace>,
    /// Dumbbell only: explicit pair count, `Some(None)` when not set, `None` when invalid.
    pub pairs: Option<Option<u32>>,
    /// Dumbbell only: length of `access_delays`, when given.
    pub access_delays: Option<usize>,
    /// Custom only: the implicit default endpoints (first node, last node)
    /// when they are not connected; a problem only if something uses them.
    pub default_unreachable: Option<(String, String)>,
}

impl Shape {
    fn of(kind: &'static str, names: Option<NameSpace>) -> Shape {
        Shape {
            kind,
            names,
            pairs: Some(None),
            access_delays: None,
            default_unreachable: None,
        }
    }
}

pub(crate) fn topology(top: &mut Obj, cx: &mut Ctx) -> (Option<Topology>, Option<Shape>) {
    let kinds = TOPOLOGY_KINDS.join(", ");
    let table = match top.table(cx, "topology") {
        Some(Some(t)) => t,
        Some(None) => {
            cx.problem(
                "topology",
                format!("required table is missing; expected a [topology] table with a kind, one of: {kinds}"),
            );
            return (None, None);
        }
        None => return (None, None),
    };
    let mut o = Obj::new("topology".into(), table);
    let Some(kind) = o.req(
        cx,
        "kind",
        &format!("expected one of: {kinds}"),
        walk::string,
    ) else {
        return (None, None);
    };
    let (topology, shape) = match kind.as_str() {
        "dumbbell" => dumbbell(&mut o, cx),
        "parking-lot" => parking_lot(&mut o, cx),
        "multipath" => multipath(&mut o, cx),
        "chain" => chain(&mut o, cx),
        "wireless-infrastructure" => wireless_infrastructure(&mut o, cx),
        "wireless-multihop" => wireless_multihop(&mut o, cx),
        "multi-bottleneck" => multi_bottleneck(&mut o, cx),
        "custom" => custom(&mut o, cx),
        other => {
            // Without a known kind we cannot tell which other keys are valid.
            cx.problem(
                "topology.kind",
                unknown("topology kind", other, TOPOLOGY_KINDS, quote),
            );
            return (None, None);
        }
    };
    o.finish(cx);
    (topology, Some(shape))
}

fn dumbbell(o: &mut Obj, cx: &mut Ctx) -> (Option<Topology>, Shape) {
    let bottleneck = link(
        o,
        cx,
        "bottleneck",
        &LinkDefaults::required(defaults::BOTTLENECK_QUEUE),
    );
    let access = link(
        o,
        cx,
        "access",
        &LinkDefaults::required(defaults::ACCESS_QUEUE),
    );
    let pairs = o.maybe(cx, "pairs", |v| {
        walk::int(
            v,
            1,
            i64::from(u32::MAX),
            "a positive integer number of sender/receiver pairs",
            "",
        )
    });
    let mut delays_len = None;
    let access_delays = match o.get("access_delays") {
        None => Some(None),
        Some(Value::Array(a)) => {
            delays_len = Some(a.len());
            let key = o.key("access_delays");
            let times: Vec<Option<Time>> = a
                .iter()
                .enumerate()
                .map(|(i, v)| match walk::time(v) {
                    Ok(t) => Some(t),
                    Err(m) => {
                        cx.problem(format!("{key}[{i}]"), m);
                        None
                    }
                })
                .collect();
            times.into_iter().collect::<Option<Vec<_>>>().map(Some)
        }
        Some(v) => {
            cx.problem(
                o.key("access_delays"),
                format!(
                    "expected an array of times, like [\"1ms\", \"20ms\"], got {}",
                    describe(v)
                ),
            );
            None
        }
    };
    let shape = Shape {
        kind: "dumbbell",
        names: None,
        pairs,
        access_delays: delays_len,
        default_unreachable: None,
    };
    let dumbbell = (|| {
        Some(Topology::Dumbbell(Dumbbell {
            bottleneck: bottleneck?,
            access: access?,
            pairs: pairs?,
            access_delays: access_delays?,
        }))
    })();
    (dumbbell, shape)
}

fn parking_lot(o: &mut Obj, cx: &mut Ctx) -> (Option<Topology>, Shape) {
    let link = link(
        o,
        cx,
        "link",
        &LinkDefaults {
            rate: RateDefault::Default(defaults::PARKING_LOT_RATE),
            delay: defaults::PARKING_LOT_DELAY,
            queue: QueueDefault::Fixed(defaults::PARKING_LOT_QUEUE),
        },
    );
    let cross_rates = match o.get("cross_rates") {
        None => Some(defaults::PARKING_LOT_CROSS_RATES),
        Some(Value::Array(a)) if a.len() == 3 => {
            let key = o.key("cross_rates");
            let rates: Vec<Option<u64>> = a
                .iter()
                .enumerate()
                .map(|(i, v)| match walk::rate(v) {
                    Ok(r) => Some(r),
                    Err(m) => {
                        cx.problem(format!("{key}[{i}]"), m);
                        None
                    }
                })
                .collect();
            match rates[..] {
                [Some(a), Some(b), Some(c)] => Some([a, b, c]),
                _ => None,
            }
        }
        Some(v) => {
            let got = match v {
                Value::Array(a) => format!("an array of {}", plural(a.len() as u64, "element")),
                v => describe(v),
            };
            cx.problem(
                o.key("cross_rates"),
                format!(
                    "expected an array of three rates (the CS1->R1, CS2->R2 and CS3->R3 links), like [\"5Mbps\", \"1.66Mbps\", \"2.5Mbps\"], got {got}"
                ),
            );
            None
        }
    };
    let t = (|| {
        Some(Topology::ParkingLot(ParkingLot {
            link: link?,
            cross_rates: cross_rates?,
        }))
    })();
    (t, Shape::of("parking-lot", Some(NameSpace::parking_lot())))
}

fn multipath(o: &mut Obj, cx: &mut Ctx) -> (Option<Topology>, Shape) {
    let epsilon = o.opt(cx, "epsilon", defaults::MULTIPATH_EPSILON, non_negative);
    let link_delay = o.opt(cx, "link_delay", defaults::MULTIPATH_LINK_DELAY, walk::time);
    let rate = o.opt(cx, "rate", defaults::MULTIPATH_RATE, walk::rate);
    let queue = o.opt(cx, "queue", defaults::MULTIPATH_QUEUE, queue_int);
    let aqm = aqm(o, cx, queue);
    let hops = match o.get("hops") {
        None => Some(defaults::MULTIPATH_HOPS.to_vec()),
        Some(Value::Array(a)) if a.is_empty() => {
            cx.problem(
                o.key("hops"),
                "expected at least one path (one hop count per path), got an empty array",
            );
            None
        }
        Some(Value::Array(a)) if a.len() > defaults::MULTIPATH_MAX_PATHS => {
            cx.problem(
                o.key("hops"),
                format!(
                    "expected at most {} paths, got {}",
                    defaults::MULTIPATH_MAX_PATHS,
                    a.len()
                ),
            );
            None
        }
        Some(Value::Array(a)) => {
            let key = o.key("hops");
            let hops: Vec<Option<u32>> = a
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    match walk::int(
                        v,
                        1,
                        i64::from(u32::MAX),
                        "a positive integer number of links",
                        "",
                    ) {
                        Ok(h) => Some(h),
                        Err(m) => {
                            cx.problem(format!("{key}[{i}]"), m);
                            None
                        }
                    }
                })
                .collect();
            hops.into_iter().collect::<Option<Vec<_>>>()
        }
        Some(v) => {
            cx.problem(
                o.key("hops"),
                format!(
                    "expected an array of hop counts, one per path, like [2, 3, 4], got {}",
                    describe(v)
                ),
            );
            None
        }
    };
    let names = hops.as_deref().map(NameSpace::multipath);
    let t = (|| {
        Some(Topology::Multipath(Multipath {
            epsilon: epsilon?,
            link_delay: link_delay?,
            rate: rate?,
            queue: queue?,
            aqm: aqm?,
            hops: hops?,
        }))
    })();
    (t, Shape::of("multipath", names))
}

fn chain(o: &mut Obj, cx: &mut Ctx) -> (Option<Topology>, Shape) {
    let bottleneck = link(
        o,
        cx,
        "bottleneck",
        &LinkDefaults {
            rate: RateDefault::Derived,
            delay: Time::ZERO,
            queue: QueueDefault::Fixed(defaults::BOTTLENECK_QUEUE),
        },
    );
    let access = link(
        o,
        cx,
        "access",
        &LinkDefaults {
            rate: RateDefault::Default(defaults::CHAIN_ACCESS_RATE),
            delay: defaults::CHAIN_ACCESS_DELAY,
            queue: QueueDefault::Fixed(defaults::ACCESS_QUEUE),
        },
    );
    let max_window = o.maybe(cx, "max_window", |v| {
        walk::int(
            v,
            1,
            i64::from(u32::MAX),
            "a positive integer number of packets",
            "",
        )
    });
    let packet_bytes = o.opt(cx, "packet_bytes", defaults::CHAIN_PACKET_BYTES, |v| {
        walk::int(
            v,
            41,
            i64::from(defaults::MAX_PACKET_BYTES),
            "an integer number of bytes, at least 41 (40 header bytes and some payload)",
            " bytes",
        )
    });
    let inner = o.raw("bottleneck").and_then(Value::as_table);
    let rate_given = inner.is_some_and(|t| t.contains_key("rate"));
    let bottleneck = match (bottleneck, max_window) {
        (Some(b), _) if rate_given => Some(b),
        (Some(_), Some(None)) => {
            cx.problem(
                "topology.bottleneck.rate",
                "required key is missing; expected a rate with a unit, like rate = \"4Mbps\", or topology.max_window to derive it (S = M / R)",
            );
            None
        }
        (Some(mut b), Some(Some(m))) => {
            let derived = packet_bytes.and_then(|bytes| {
                let rate = derive_rate(m, bytes, b.delay);
                if let Err(m) = &rate {
                    let (key, message) = match m {
                        Derivation::ZeroDelay => (
                            "topology.bottleneck.delay",
                            format!(
                                "expected a positive delay to derive the bottleneck rate from max_window (S = M / R with R = 2 * delay), got {}",
                                shown(inner.and_then(|t| t.get("delay")), b.delay)
                            ),
                        ),
                        Derivation::Range(why) => (
                            "topology.max_window",
                            format!(
                                "the bottleneck rate derived from it (M * packet_bytes * 8 / (2 * delay)) is {why}; give topology.bottleneck.rate instead"
                            ),
                        ),
                    };
                    cx.problem(key, message);
                }
                rate.ok()
            });
            derived.map(|rate| {
                b.rate = rate;
                b
            })
        }
        _ => None,
    };
    let t = (|| {
        Some(Topology::Chain(Chain {
            bottleneck: bottleneck?,
            access: access?,
            max_window: max_window?,
            packet_bytes: packet_bytes?,
        }))
    })();
    (t, Shape::of("chain", Some(NameSpace::chain())))
}

/// Why the chain's rate could not be derived.
enum Derivation {
    ZeroDelay,
    Range(&'static str),
}

/// RR-TCP's S = M / R packets per second with R = 2 * delay, in bits per
/// second for `bytes`-byte packets, rounded to the nearest bit per second.
fn derive_rate(m: u32, bytes: u32, delay: Time) -> Result<u64, Derivation> {
    if delay == Time::ZERO {
        return Err(Derivation::ZeroDelay);
    }
    let num = u128::from(m) * u128::from(bytes) * 8 * 1_000_000_000;
    let den = 2 * u128::from(delay.as_nanos());
    match (num + den / 2) / den {
        0 => Err(Derivation::Range("below 1 bit/s")),
        r => u64::try_from(r).map_err(|_| Derivation::Range("above 2^64 bit/s")),
    }
}

fn wireless_link(o: &mut Obj, cx: &mut Ctx) -> Option<LinkSpec> {
    link(
        o,
        cx,
        "wireless",
        &LinkDefaults {
            rate: RateDefault::Default(defaults::WIRELESS_RATE),
            delay: defaults::WIRELESS_DELAY,
            queue: QueueDefault::Fixed(defaults::WIRELESS_QUEUE),
        },
    )
}

fn wireless_infrastructure(o: &mut Obj, cx: &mut Ctx) -> (Option<Topology>, Shape) {
    let wired = link(
        o,
        cx,
        "wired",
        &LinkDefaults {
            rate: RateDefault::Default(defaults::WIRED_RATE),
            delay: defaults::WIRED_DELAY,
            queue: QueueDefault::Fixed(defaults::WIRED_QUEUE),
        },
    );
    let wired_hops = o.opt(cx, "wired_hops", defaults::WIRED_HOPS, |v| {
        walk::int(
            v,
            1,
            i64::from(u32::MAX),
            "a positive integer number of wired links",
            "",
        )
    });
    let wireless = wireless_link(o, cx);
    let names = wired_hops.map(NameSpace::wireless_infrastructure);
    let t = (|| {
        Some(Topology::WirelessInfrastructure(WirelessInfrastructure {
            wired: wired?,
            wired_hops: wired_hops?,
            wireless: wireless?,
        }))
    })();
    (t, Shape::of("wireless-infrastructure", names))
}

fn wireless_multihop(o: &mut Obj, cx: &mut Ctx) -> (Option<Topology>, Shape) {
    let wireless = wireless_link(o, cx);
    let hops = o.opt(cx, "hops", defaults::MULTIHOP_HOPS, |v| {
        walk::int(
            v,
            1,
            i64::from(u32::MAX),
            "a positive integer number of wireless links",
            "",
        )
    });
    let names = hops.map(NameSpace::wireless_multihop);
    let t = (|| {
        Some(Topology::WirelessMultihop(WirelessMultihop {
            wireless: wireless?,
            hops: hops?,
        }))
    })();
    (t, Shape::of("wireless-multihop", names))
}

fn multi_bottleneck(o: &mut Obj, cx: &mut Ctx) -> (Option<Topology>, Shape) {
    let core = link(
        o,
        cx,
        "link",
        &LinkDefaults {
            rate: RateDefault::Default(defaults::MULTI_BOTTLENECK_RATE),
            delay: defaults::MULTI_BOTTLENECK_DELAY,
            queue: QueueDefault::Bdp,
        },
    );
    let access = link(
        o,
        cx,
        "access",
        &LinkDefaults {
            rate: RateDefault::Default(defaults::MULTI_BOTTLENECK_ACCESS_RATE),
            delay: defaults::MULTI_BOTTLENECK_ACCESS_DELAY,
            queue: QueueDefault::Fixed(defaults::MULTI_BOTTLENECK_ACCESS_QUEUE),
        },
    );
    let routers = o.opt(cx, "routers", defaults::MULTI_BOTTLENECK_ROUTERS, |v| {
        walk::int(
            v,
            2,
            i64::from(u32::MAX),
            "an integer number of routers, at least 2",
            "",
        )
    });
    let names = routers.map(NameSpace::multi_bottleneck);
    let t = (|| {
        Some(Topology::MultiBottleneck(MultiBottleneck {
            link: core?,
            access: access?,
            routers: routers?,
        }))
    })();
    (t, Shape::of("multi-bottleneck", names))
}

/// The bandwidth-delay product `rate * 2 * delay` in 1500-byte packets,
/// rounded up, at least 1; `None` when it does not fit in a u32.
pub(crate) fn bdp_packets(rate: u64, delay: Time) -> Option<u32> {
    let bits = u128::from(rate).checked_mul(2 * u128::from(delay.as_nanos()))?;
    let per_packet = u128::from(defaults::BDP_PACKET_BYTES) * 8 * 1_000_000_000;
    u32::try_from(bits.div_ceil(per_packet).max(1)).ok()
}

fn custom(o: &mut Obj, cx: &mut Ctx) -> (Option<Topology>, Shape) {
    let (nodes, lookup) = custom_nodes(o, cx);
    let lookup = lookup.map(|n| NameSpace::custom(&n, &[], None));
    let links = custom_links(o, cx, lookup.as_ref());
    let multipath = custom_multipath(o, cx, lookup.as_ref());
    let endpoints = match (o.get("endpoints"), &nodes) {
        (None, Some(n)) => Some(vec![(n[0].clone(), n[n.len() - 1].clone())]),
        (None, None) => None,
        (Some(v), _) => custom_endpoints(&o.key("endpoints"), v, cx, lookup.as_ref()),
    };
    // Names (and the connectivity checks that come with them) only when every
    // node and every link's name and ends are valid, so one mistake is not
    // reported again at each use.
    let ends = links.as_ref().and_then(|l| {
        l.iter()
            .map(|(ends, _)| ends.clone())
            .collect::<Option<Vec<_>>>()
    });
    let names = match (&nodes, &ends) {
        (Some(n), Some(e)) => Some(NameSpace::custom(
            n,
            e,
            endpoints.as_ref().and_then(|e| e.first().cloned()),
        )),
        _ => None,
    };
    let mut unreachable = None;
    if let Some(ns) = &names {
        let key = o.key("multipath");
        for (i, m) in multipath.iter().flatten().enumerate() {
            if !ns.connected(&m.src, &m.dst) {
                cx.problem(
                    format!("{key}[{i}]"),
                    format!(
                        "no path between {} and {} over topology.links",
                        quote(&m.src),
                        quote(&m.dst)
                    ),
                );
            }
        }
        if o.raw("endpoints").is_none() {
            if let Some((a, b)) = ns
                .first_endpoint
                .as_ref()
                .filter(|(a, b)| !ns.connected(a, b))
            {
                unreachable = Some((a.clone(), b.clone()));
            }
        } else {
            let key = o.key("endpoints");
            for (i, (s, d)) in endpoints.iter().flatten().enumerate() {
                if !ns.connected(s, d) {
                    cx.problem(
                        format!("{key}[{i}]"),
                        format!(
                            "no path from {} to {} over topology.links",
                            quote(s),
                            quote(d)
                        ),
                    );
                }
            }
        }
    }
    let t = (|| {
        let links = links?
            .into_iter()
            .map(|(ends, spec)| {
                let (name, a, b) = ends?;
                Some(CustomLink {
                    name,
                    a,
                    b,
                    spec: spec?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Topology::Custom(Custom {
            nodes: nodes?,
            links,
            multipath: multipath?,
            endpoints: endpoints?,
        }))
    })();
    let mut shape = Shape::of("custom", names);
    shape.default_unreachable = unreachable;
    (t, shape)
}

/// The node list when valid, and the set of node names to check references
/// against (known even with duplicates, unknown if an element is not a name).
fn custom_nodes(o: &mut Obj, cx: &mut Ctx) -> (Option<Vec<String>>, Option<Vec<String>>) {
    let key = o.key("nodes");
    match o.get("nodes") {
        None => {
            cx.problem(
                key,
                "required key is missing; expected an array of at least two node names, like nodes = [\"S\", \"R\", \"D\"]",
            );
            (None, None)
        }
        Some(Value::Array(a)) if a.len() < 2 => {
            cx.problem(
                key,
                format!(
                    "expected an array of at least two node names, got {}",
                    match a.len() {
                        0 => "an empty array".to_string(),
                        n => format!("an array of {}", plural(n as u64, "element")),
                    }
                ),
            );
            (None, None)
        }
        Some(Value::Array(a)) => {
            let mut out: Vec<Option<String>> = Vec::new();
            let mut known: Option<Vec<String>> = Some(Vec::new());
            for (i, v) in a.iter().enumerate() {
                let name = match walk::nonempty_string(v) {
                    Ok(n) => n,
                    Err(m) => {
                        cx.problem(format!("{key}[{i}]"), m);
                        out.push(None);
                        known = None;
                        continue;
                    }
                };
                if let Some(k) = known.as_mut().filter(|k| !k.contains(&name)) {
                    k.push(name.clone());
                }
                if let Some(j) = out.iter().position(|n| n.as_deref() == Some(name.as_str())) {
                    cx.problem(
                        format!("{key}[{i}]"),
                        format!(
                            "duplicate node name {}; {key}[{j}] is already {}",
                            quote(&name),
                            quote(&name)
                        ),
                    );
                    out.push(None);
                    continue;
                }
                out.push(Some(name));
            }
            (out.into_iter().collect(), known)
        }
        Some(v) => {
            cx.problem(
                key,
                format!(
                    "expected an array of node names, like [\"S\", \"R\", \"D\"], got {}",
                    describe(v)
                ),
            );
            (None, None)
        }
    }
}

/// Each link as ((name, a, b) when those are valid, spec when valid).
type LinkParts = (Option<(String, String, String)>, Option<LinkSpec>);

/// The tables of `[[k]]` with their key paths, `None` for an element that
/// is not a table (see [`walk::each_table`]).
fn array_of_tables<'a>(
    o: &mut Obj<'a>,
    cx: &mut Ctx,
    k: &'static str,
    required: Option<&str>,
) -> Option<Vec<Option<(String, &'a Table)>>> {
    let key = o.key(k);
    walk::each_table(o, cx, k, required, |t, i, _| {
        Some((format!("{key}[{i}]"), t))
    })
}

/// A node name under key `k` of `o`, checked against `nodes` when known.
fn node(o: &mut Obj, cx: &mut Ctx, k: &'static str, nodes: Option<&NameSpace>) -> Option<String> {
    o.req(
        cx,
        k,
        &format!("expected a node name, like {k} = \"S\""),
        |v| {
            let name = walk::nonempty_string(v)?;
            if let Some(ns) = nodes {
                ns.check_node(&name)?;
            }
            Ok(name)
        },
    )
}

fn custom_links(o: &mut Obj, cx: &mut Ctx, nodes: Option<&NameSpace>) -> Option<Vec<LinkParts>> {
    let tables = array_of_tables(
        o,
        cx,
        "links",
        Some("expected at least one [[topology.links]] table, like { name = \"l1\", a = \"S\", b = \"D\", rate = \"10Mbps\" }"),
    )?;
    let mut seen: Vec<(String, String)> = Vec::new();
    let mut out = Vec::new();
    for t in tables {
        let Some((path, t)) = t else {
            out.push((None, None));
            continue;
        };
        let mut l = Obj::new(path.clone(), t);
        l.expect(&["name", "a", "b"]);
        let name = l.req(
            cx,
            "name",
            "expected a link name, like name = \"bottleneck\"",
            walk::nonempty_string,
        );
        let name = name.and_then(|n| match seen.iter().find(|(s, _)| *s == n) {
            Some((_, first)) => {
                cx.problem(
                    l.key("name"),
                    format!(
                        "duplicate link name {}; {first} is already named {}",
                        quote(&n),
                        quote(&n)
                    ),
                );
                None
            }
            None => {
                seen.push((n.clone(), path.clone()));
                Some(n)
            }
        });
        let a = node(&mut l, cx, "a", nodes);
        let b = node(&mut l, cx, "b", nodes);
        let b = match (&a, b) {
            (Some(a), Some(b)) if *a == b => {
                cx.problem(
                    l.key("b"),
                    format!(
                        "expected a node other than a ({}), got {}",
                        quote(a),
                        quote(&b)
                    ),
                );
                None
            }
            (_, b) => b,
        };
        let spec = link_fields(&mut l, cx, &LinkDefaults::required(defaults::CUSTOM_QUEUE));
        l.finish(cx);
        let ends = (|| Some((name?, a?, b?)))();
        out.push((ends, spec));
    }
    Some(out)
}

fn custom_multipath(
    o: &mut Obj,
    cx: &mut Ctx,
    nodes: Option<&NameSpace>,
) -> Option<Vec<MultipathSpec>> {
    let tables = array_of_tables(o, cx, "multipath", None)?;
    let mut out = Vec::new();
    let mut seen: Vec<(String, String, String)> = Vec::new();
    let mut ok = true;
    for t in tables {
        let Some((path, t)) = t else {
            ok = false;
            continue;
        };
        let mut m = Obj::new(path.clone(), t);
        let src = node(&mut m, cx, "src", nodes);
        let dst = node(&mut m, cx, "dst", nodes);
        let epsilon = m.opt(cx, "epsilon", defaults::MULTIPATH_EPSILON, non_negative);
        let dst = match (&src, dst) {
            (Some(s), Some(d)) if *s == d => {
                cx.problem(
                    m.key("dst"),
                    format!(
                        "expected a node other than src ({}), got {}",
                        quote(s),
                        quote(&d)
                    ),
                );
                None
            }
            (Some(s), Some(d)) => {
                let earlier = seen
                    .iter()
                    .find(|(a, b, _)| (a == s && *b == d) || (*a == d && b == s));
                if let Some((_, _, first)) = earlier {
                    cx.problem(
                        m.key("dst"),
                        format!(
                            "{first} already routes between {} and {} (in both directions)",
                            quote(s),
                            quote(&d)
                        ),
                    );
                    None
                } else {
                    seen.push((s.clone(), d.clone(), path.clone()));
                    Some(d)
                }
            }
            (_, d) => d,
        };
        m.finish(cx);
        match (src, dst, epsilon) {
            (Some(src), Some(dst), Some(epsilon)) => out.push(MultipathSpec { src, dst, epsilon }),
            _ => ok = false,
        }
    }
    ok.then_some(out)
}

fn custom_endpoints(
    key: &str,
    v: &Value,
    cx: &mut Ctx,
    nodes: Option<&NameSpace>,
) -> Option<Vec<(String, String)>> {
    let shape = "expected an array of [src, dst] node-name pairs, like [[\"S\", \"D\"]]";
    let a = match v {
        Value::Array(a) if !a.is_empty() => a,
        v => {
            cx.problem(key, format!("{shape}, got {}", describe(v)));
            return None;
        }
    };
    let mut out = Vec::new();
    let mut ok = true;
    for (i, e) in a.iter().enumerate() {
        let here = format!("{key}[{i}]");
        let pair = match e {
            Value::Array(p) if p.len() == 2 => p,
            e => {
                let got = match e {
                    Value::Array(p) if !p.is_empty() => {
                        format!("an array of {}", plural(p.len() as u64, "element"))
                    }
                    e => describe(e),
                };
                cx.problem(
                    here,
                    format!("expected a [src, dst] pair of node names, got {got}"),
                );
                ok = false;
                continue;
            }
        };
        let mut names = Vec::new();
        for (j, n) in pair.iter().enumerate() {
            let checked = walk::nonempty_string(n).and_then(|name| {
                if let Some(ns) = nodes {
                    ns.check_node(&name)?;
                }
                Ok(name)
            });
            match checked {
                Ok(name) => names.push(Some(name)),
                Err(m) => {
                    cx.problem(format!("{here}[{j}]"), m);
                    names.push(None);
                }
            }
        }
        match (names[0].take(), names[1].take()) {
            (Some(s), Some(d)) if s == d => {
                cx.problem(
                    here,
                    format!("expected two different nodes, got {} twice", quote(&s)),
                );
                ok = false;
            }
            (Some(s), Some(d)) => out.push((s, d)),
            _ => ok = false,
        }
    }
    ok.then_some(out)
}

/// Default rate of a link table.
pub(crate) enum RateDefault {
    /// `rate` is required (and so is the table).
    Required,
    /// `rate` defaults to this (and the table may be left out).
    Default(u64),
    /// `rate` may be absent (the table is required): the caller derives it; 0 stands in.
    Derived,
}

/// Default queue of a link table.
pub(crate) enum QueueDefault {
    Fixed(u32),
    /// The bandwidth-delay product of the link's own rate and delay ([`bdp_packets`]).
    Bdp,
}

/// Defaults of one link table.
pub(crate) struct LinkDefaults {
    pub rate: RateDefault,
    pub delay: Time,
    pub queue: QueueDefault,
}

impl LinkDefaults {
    /// The dumbbell's links: rate required, delay 0.
    fn required(queue: u32) -> Self {
        LinkDefaults {
            rate: RateDefault::Required,
            delay: Time::ZERO,
            queue: QueueDefault::Fixed(queue),
        }
    }
}

/// The link table under key `k` of `parent`.
fn link(parent: &mut Obj, cx: &mut Ctx, k: &'static str, d: &LinkDefaults) -> Option<LinkSpec> {
    let empty = Table::new();
    let table = match (parent.table(cx, k)?, &d.rate) {
        (Some(t), _) => t,
        (None, RateDefault::Default(_)) => &empty,
        (None, RateDefault::Required) => {
            cx.problem(
                parent.key(k),
                "required table is missing; expected a table with at least rate, like { rate = \"100Mbps\", delay = \"1ms\" }",
            );
            return None;
        }
        (None, RateDefault::Derived) => {
            cx.problem(
                parent.key(k),
                "required table is missing; expected a table with a delay and a rate (or topology.max_window to derive the rate), like { rate = \"4Mbps\", delay = \"50ms\" }",
            );
            return None;
        }
    };
    let mut o = Obj::new(parent.key(k), table);
    let spec = link_fields(&mut o, cx, d);
    o.finish(cx);
    spec
}

/// The keys of a link (rate, delay, queue, aqm, red) in table `o`.
fn link_fields(o: &mut Obj, cx: &mut Ctx, d: &LinkDefaults) -> Option<LinkSpec> {
    let rate = match d.rate {
        RateDefault::Required => o.req(
            cx,
            "rate",
            "expected a rate with a unit, like rate = \"15Mbps\"",
            walk::rate,
        ),
        RateDefault::Default(r) => o.opt(cx, "rate", r, walk::rate),
        RateDefault::Derived => o.opt(cx, "rate", 0, walk::rate),
    };
    let delay = o.opt(cx, "delay", d.delay, walk::time);
    let queue = match d.queue {
        QueueDefault::Fixed(q) => o.opt(cx, "queue", q, queue_int),
        QueueDefault::Bdp => match o.get("queue") {
            Some(_) => o.opt(cx, "queue", 0, queue_int),
            None => match (rate, delay) {
                (Some(r), Some(t)) => match bdp_packets(r, t) {
                    Some(q) => Some(q),
                    None => {
                        cx.problem(
                            o.key("queue"),
                            format!(
                                "required key is missing; the default, the bandwidth-delay product in 1500-byte packets, is above {} packets",
                                u32::MAX
                            ),
                        );
                        None
                    }
                },
                _ => None,
            },
        },
    };
    let aqm = aqm(o, cx, queue);
    Some(LinkSpec {
        rate: rate?,
        delay: delay?,
        queue: queue?,
        aqm: aqm?,
    })
}

fn queue_int(v: &Value) -> Result<u32, String> {
    walk::int(
        v,
        1,
        i64::from(u32::MAX),
        "a positive integer number of packets",
        "",
    )
}

fn non_negative(v: &Value) -> Result<f64, String> {
    match walk::number(v) {
        Ok(x) if x >= 0.0 => Ok(x),
        _ => Err(format!(
            "expected a non-negative number, got {}",
            describe(v)
        )),
    }
}

/// The `aqm` and `red` keys of table `o`, whose queue limit is `queue`.
fn aqm(o: &mut Obj, cx: &mut Ctx, queue: Option<u32>) -> Option<Aqm> {
    #[derive(PartialEq)]
    enum Kind {
        DropTail,
        Red,
    }
    let aqm = o.opt(cx, "aqm", Kind::DropTail, |v| match v {
        Value::String(s) if s == "droptail" => Ok(Kind::DropTail),
        Value::String(s) if s == "red" => Ok(Kind::Red),
        Value::String(s) => Err(unknown("AQM", s, &["droptail", "red"], quote)),
        _ => Err(format!(
            "expected \"droptail\" or \"red\", got {}",
            describe(v)
        )),
    });
    let red_table = o.table(cx, "red");
    match (aqm, red_table) {
        (Some(Kind::DropTail), Some(Some(_))) => {
            cx.problem(
                o.key("red"),
                format!(
                    "RED parameters given but {} is \"droptail\"; set aqm = \"red\" or remove this table",
                    o.key("aqm")
                ),
            );
            None
        }
        (Some(Kind::DropTail), _) => Some(Aqm::DropTail),
        (Some(Kind::Red), Some(t)) => red(&o.key("red"), t, queue, cx).map(Aqm::Red),
        _ => None,
    }
}

fn red(path: &str, table: Option<&Table>, queue: Option<u32>, cx: &mut Ctx) -> Option<Red> {
    let empty = Table::new();
    let mut o = Obj::new(path.to_string(), table.unwrap_or(&empty));
    let min_th = o.opt(cx, "min_th", defaults::RED_MIN_TH, walk::number);
    let max_th = o.maybe(cx, "max_th", walk::number);
    let max_p = o.opt(cx, "max_p", defaults::RED_MAX_P, walk::number);
    let weight = o.opt(cx, "weight", defaults::RED_WEIGHT, walk::number);
    let gentle = o.opt(cx, "gentle", defaults::RED_GENTLE, walk::boolean);

    let max_th = match (max_th, min_th) {
        (Some(Some(m)), _) => Some(m),
        (Some(None), Some(min)) => Some(min * defaults::RED_MAX_TH_FACTOR),
        _ => None,
    };
    let max_th_shown = |m: f64| match o.raw("max_th") {
        Some(v) => describe(v),
        None => format!("{m:?} (the default, 3 * min_th)"),
    };
    let mut ok = true;
    if let Some(min) = min_th {
        if min <= 0.0 {
            ok = false;
            cx.problem(
                o.key("min_th"),
                format!(
                    "expected a positive number of packets, got {}",
                    shown(o.raw("min_th"), min)
                ),
            );
        }
    }
    if let (Some(min), Some(max)) = (min_th, max_th) {
        if min > 0.0 && max <= min {
            ok = false;
            cx.problem(
                o.key("max_th"),
                format!(
                    "expected more packets than min_th ({min:?}), got {}",
                    max_th_shown(max)
                ),
            );
        }
    }
    if let (Some(max), Some(q)) = (max_th, queue) {
        if max > f64::from(q) {
            ok = false;
            cx.problem(
                o.key("max_th"),
                format!(
                    "expected at most the queue limit ({q} packets), got {}",
                    max_th_shown(max)
                ),
            );
        }
    }
    for (k, v) in [("max_p", max_p), ("weight", weight)] {
        if let Some(x) = v {
            if !(x > 0.0 && x <= 1.0) {
                ok = false;
                cx.problem(
                    o.key(k),
                    format!(
                        "expected a number in (0, 1], got {}",
                        shown(o.raw(k), format!("{x:?}"))
                    ),
                );
            }
        }
    }
    o.finish(cx);
    if !ok {
        return None;
    }
    Some(Red {
        min_th: min_th?,
        max_th: max_th?,
        max_p: max_p?,
        weight: weight?,
        gentle: gentle?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rr_tcp_rate_rule() {
        // M = 50 packets over R = 2 * 50 ms: 500 packets/s of 1040 bytes.
        assert_eq!(
            derive_rate(50, 1040, Time::from_millis(50)).ok(),
            Some(4_160_000)
        );
        assert!(matches!(
            derive_rate(50, 1040, Time::ZERO),
            Err(Derivation::ZeroDelay)
        ));
        assert!(matches!(
            derive_rate(1, 41, Time::MAX),
            Err(Derivation::Range(_))
        ));
        assert!(matches!(
            derive_rate(u32::MAX, 65535, Time(1)),
            Err(Derivation::Range(_))
        ));
    }

    #[test]
    fn bdp_default_queue() {
        // 1 Gbit/s * 46 ms = 46 Mbit = 3833.3 packets of 12000 bits: 3834.
        assert_eq!(
            bdp_packets(1_000_000_000, Time::from_millis(23)),
            Some(3834)
        );
        assert_eq!(bdp_packets(1_000_000, Time::ZERO), Some(1));
        assert_eq!(bdp_packets(u64::MAX, Time::MAX), None);
    }
}
