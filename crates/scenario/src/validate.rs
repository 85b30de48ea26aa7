//! From a `toml::Table` to a [`Scenario`], collecting every problem.
//!
//! Each parser returns `Option<T>`: `None` means a problem was recorded, and
//! checks that depend on that value are skipped so that one mistake does not
//! cascade into several messages.

use std::collections::BTreeMap;

use reorderlab_sim::Time;
use toml::{Table, Value};

use crate::schema::dumbbell_link;
use crate::schema::*;
use crate::units::{plural, quote};
use crate::walk::{self, describe, segment, shown, unknown, Ctx, Obj};

pub(crate) fn scenario(root: &Table, variants: &[&str], cx: &mut Ctx) -> Option<Scenario> {
    let mut top = Obj::new(String::new(), root);
    top.expect(&[
        "name",
        "duration",
        "seed",
        "measure",
        "topology",
        "flows",
        "impairments",
    ]);
    let name = top.req(
        cx,
        "name",
        "expected a non-empty string, like name = \"one-sack-flow\"",
        walk::nonempty_string,
    );
    let duration = top.req(
        cx,
        "duration",
        "expected a time with a unit, like duration = \"60s\"",
        walk::positive_time,
    );
    let seed = top.opt(cx, "seed", defaults::SEED, |v| {
        walk::int(v, 0, i64::MAX, "a non-negative integer", "")
    });
    let measure = measure(&mut top, cx, duration);
    let (topology, shape) = topology(&mut top, cx);
    let flows = flows(&mut top, cx, variants, duration);
    let total = flows.as_deref().and_then(|f| total_flows(f, cx));
    let pairs = shape
        .as_ref()
        .and_then(|s| check_pairs(s, flows.as_deref(), total, cx));
    let impairments = impairments(&mut top, cx, shape.as_ref(), pairs);
    top.finish(cx);

    Some(Scenario {
        name: name?,
        duration: duration?,
        seed: seed?,
        measure: measure?,
        topology: topology?,
        flows: flows?.into_iter().collect::<Option<Vec<_>>>()?,
        impairments: impairments?,
        source: root.clone(),
    })
}

fn measure(top: &mut Obj, cx: &mut Ctx, duration: Option<Time>) -> Option<Measure> {
    let empty = Table::new();
    let table = top.table(cx, "measure")?.unwrap_or(&empty);
    let mut m = Obj::new("measure".into(), table);
    let from = m.opt(cx, "from", Time::ZERO, walk::time);
    let to = m.maybe(cx, "to", walk::time);
    let series_interval = m.maybe(cx, "series_interval", walk::positive_time);
    if let (Some(from), Some(duration)) = (from, duration) {
        if from >= duration {
            cx.problem(
                "measure.from",
                format!(
                    "expected a time before the end of the run (duration = {duration}), got {}",
                    shown(m.raw("from"), from)
                ),
            );
        }
    }
    let to = match (to, duration) {
        (Some(Some(to)), Some(duration)) => {
            if to > duration {
                cx.problem(
                    "measure.to",
                    format!(
                        "expected a time no later than the end of the run (duration = {duration}), got {}",
                        shown(m.raw("to"), to)
                    ),
                );
            } else if let Some(from) = from.filter(|f| to <= *f) {
                cx.problem(
                    "measure.to",
                    format!(
                        "expected a time after measure.from ({from}), got {}",
                        shown(m.raw("to"), to)
                    ),
                );
            }
            Some(to)
        }
        (Some(None), Some(duration)) => Some(duration),
        _ => None,
    };
    m.finish(cx);
    Some(Measure {
        from: from?,
        to: to?,
        series_interval: series_interval?,
    })
}

/// Outer `None`: the `flows` key itself is unusable; inner `None`: that table is invalid.
fn flows(
    top: &mut Obj,
    cx: &mut Ctx,
    variants: &[&str],
    duration: Option<Time>,
) -> Option<Vec<Option<FlowSpec>>> {
    match top.get("flows") {
        None => {
            cx.problem(
                "flows",
                "required key is missing; expected at least one [[flows]] table, like [[flows]] variant = \"newreno\"",
            );
            None
        }
        Some(Value::Array(a)) if a.is_empty() => {
            cx.problem(
                "flows",
                "expected at least one [[flows]] table, got an empty array",
            );
            None
        }
        Some(Value::Array(a)) => Some(
            a.iter()
                .enumerate()
                .map(|(i, v)| match v {
                    Value::Table(t) => flow(t, i, cx, variants, duration),
                    _ => {
                        cx.problem(
                            format!("flows[{i}]"),
                            format!("expected a table, got {}", describe(v)),
                        );
                        None
                    }
                })
                .collect(),
        ),
        Some(v) => {
            cx.problem(
                "flows",
                format!(
                    "expected an array of tables ([[flows]]), got {}",
                    describe(v)
                ),
            );
            None
        }
    }
}

/// Sum of `count` over all flows, when every flow is valid and the sum fits.
fn total_flows(flows: &[Option<FlowSpec>], cx: &mut Ctx) -> Option<u32> {
    let mut total: u64 = 0;
    for f in flows {
        total += u64::from(f.as_ref()?.count);
    }
    match u32::try_from(total) {
        Ok(t) => Some(t),
        Err(_) => {
            cx.problem(
                "flows",
                format!(
                    "expected at most {} flows in total (the sum of every count), got {total}",
                    u32::MAX
                ),
            );
            None
        }
    }
}

/// Cross-checks between the topology and the flows; returns the number of
/// pairs when it is known.
fn check_pairs(
    shape: &Shape,
    flows: Option<&[Option<FlowSpec>]>,
    total: Option<u32>,
    cx: &mut Ctx,
) -> Option<u32> {
    let pairs = shape.pairs?.or(total)?;
    if let Some(delays) = shape.access_delays {
        if delays != pairs as usize {
            let why = match shape.pairs {
                Some(Some(_)) => plural(u64::from(pairs), "pair"),
                _ => format!(
                    "{}: one per flow, as topology.pairs is not set",
                    plural(u64::from(pairs), "pair")
                ),
            };
            cx.problem(
                "topology.access_delays",
                format!(
                    "expected one delay per pair ({why}), got {}",
                    plural(delays as u64, "delay")
                ),
            );
        }
    }
    for (i, f) in flows.unwrap_or(&[]).iter().enumerate() {
        if let Some(Some(p)) = f.as_ref().map(|f| f.pair) {
            if p >= pairs {
                cx.problem(
                    format!("flows[{i}].pair"),
                    format!("expected a pair index below the number of pairs ({pairs}), got {p}"),
                );
            }
        }
    }
    Some(pairs)
}

fn flow(
    table: &Table,
    i: usize,
    cx: &mut Ctx,
    variants: &[&str],
    duration: Option<Time>,
) -> Option<FlowSpec> {
    let mut o = Obj::new(format!("flows[{i}]"), table);
    let known = if variants.is_empty() {
        "no TCP variants are known".to_string()
    } else {
        format!("expected one of: {}", variants.join(", "))
    };
    let variant = o.req(cx, "variant", &known, |v| match v {
        Value::String(s) if variants.contains(&s.as_str()) => Ok(s.clone()),
        Value::String(s) => Err(unknown("TCP variant", s, variants, quote)),
        _ => Err(format!("expected a string ({known}), got {}", describe(v))),
    });
    let count = o.opt(cx, "count", defaults::COUNT, |v| {
        walk::int(v, 1, i64::from(u32::MAX), "a positive integer", "")
    });
    let mss = o.opt(cx, "mss", defaults::MSS, |v| {
        walk::int(
            v,
            1,
            i64::from(defaults::MAX_MSS),
            "a positive integer number of bytes",
            " bytes (65535 minus 40 bytes of IPv4 and TCP headers)",
        )
    });
    let bytes = o.maybe(cx, "bytes", walk::positive_size);
    let start = o.opt(cx, "start", Time::ZERO, walk::time);
    if let (Some(start), Some(duration)) = (start, duration) {
        if start >= duration {
            cx.problem(
                o.key("start"),
                format!(
                    "expected a start time before the end of the run (duration = {duration}), got {}",
                    shown(o.raw("start"), start)
                ),
            );
        }
    }
    let delayed_ack = o.opt(cx, "delayed_ack", false, walk::boolean);
    let timestamps = o.opt(cx, "timestamps", false, walk::boolean);
    let sack = o.maybe(cx, "sack", walk::boolean);
    let dsack = o.maybe(cx, "dsack", walk::boolean);
    let min_rto = o.opt(cx, "min_rto", defaults::MIN_RTO, walk::positive_time);
    let max_rto = o.opt(cx, "max_rto", defaults::MAX_RTO, walk::time);
    if let (Some(min), Some(max)) = (min_rto, max_rto) {
        if max < min {
            cx.problem(
                o.key("max_rto"),
                format!(
                    "expected a time no less than min_rto ({min}), got {}",
                    shown(o.raw("max_rto"), max)
                ),
            );
        }
    }
    let initial_window = o.opt(cx, "initial_window", defaults::INITIAL_WINDOW, |v| {
        walk::int(
            v,
            1,
            i64::from(u32::MAX),
            "a positive integer number of segments",
            "",
        )
    });
    let rwnd = o.maybe(cx, "rwnd", walk::positive_size);
    let dupthresh = o.opt(cx, "dupthresh", defaults::DUPTHRESH, |v| {
        walk::int(
            v,
            1,
            i64::from(u32::MAX),
            "a positive integer number of duplicate ACKs",
            "",
        )
    });
    let pair = o.maybe(cx, "pair", |v| {
        walk::int(
            v,
            0,
            i64::from(u32::MAX),
            "a non-negative integer pair index",
            "",
        )
    });
    let cc = o.maybe(cx, "cc", walk::nonempty_string);
    let params = params(&mut o, cx);
    o.finish(cx);
    Some(FlowSpec {
        variant: variant?,
        count: count?,
        mss: mss?,
        bytes: bytes?,
        start: start?,
        delayed_ack: delayed_ack?,
        timestamps: timestamps?,
        sack: sack?,
        dsack: dsack?,
        min_rto: min_rto?,
        max_rto: max_rto?,
        initial_window: initial_window?,
        rwnd: rwnd?,
        dupthresh: dupthresh?,
        pair: pair?,
        cc: cc?,
        params: params?,
    })
}

fn params(o: &mut Obj, cx: &mut Ctx) -> Option<BTreeMap<String, f64>> {
    let table = match o.get("params") {
        None => return Some(BTreeMap::new()),
        Some(Value::Table(t)) => t,
        Some(v) => {
            cx.problem(
                o.key("params"),
                format!(
                    "expected a table of numbers, like params = {{ beta = 0.7 }}, got {}",
                    describe(v)
                ),
            );
            return None;
        }
    };
    let mut out = BTreeMap::new();
    let mut ok = true;
    for (k, v) in table {
        match walk::number(v) {
            Ok(x) => {
                out.insert(k.clone(), x);
            }
            Err(m) => {
                cx.problem(format!("{}.{}", o.key("params"), segment(k)), m);
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

/// What the cross-checks need from the topology, known even when a link in it is invalid.
struct Shape {
    /// Validates an impairment's link name given the number of pairs.
    check_link: fn(&str, u32) -> Result<(), String>,
    /// Explicit pair count: `Some(None)` when not set, `None` when invalid.
    pairs: Option<Option<u32>>,
    /// Length of `access_delays`, when given.
    access_delays: Option<usize>,
}

fn topology(top: &mut Obj, cx: &mut Ctx) -> (Option<Topology>, Option<Shape>) {
    let kinds = TOPOLOGY_KINDS.join(", ");
    let table = match top.table(cx, "topology") {
        Some(Some(t)) => t,
        Some(None) => {
            cx.problem(
                "topology",
                "required table is missing; expected a [topology] table with kind = \"dumbbell\"",
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
        "dumbbell" => {
            let (d, shape) = dumbbell(&mut o, cx);
            (d.map(Topology::Dumbbell), shape)
        }
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

fn dumbbell(o: &mut Obj, cx: &mut Ctx) -> (Option<Dumbbell>, Shape) {
    let bottleneck = link(o, cx, "bottleneck", defaults::BOTTLENECK_QUEUE);
    let access = link(o, cx, "access", defaults::ACCESS_QUEUE);
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
        check_link: dumbbell_link,
        pairs,
        access_delays: delays_len,
    };
    let dumbbell = (|| {
        Some(Dumbbell {
            bottleneck: bottleneck?,
            access: access?,
            pairs: pairs?,
            access_delays: access_delays?,
        })
    })();
    (dumbbell, shape)
}

fn link(parent: &mut Obj, cx: &mut Ctx, k: &'static str, default_queue: u32) -> Option<LinkSpec> {
    let Some(table) = parent.table(cx, k)? else {
        cx.problem(
            parent.key(k),
            "required table is missing; expected a table with at least rate, like { rate = \"100Mbps\", delay = \"1ms\" }",
        );
        return None;
    };
    let mut o = Obj::new(parent.key(k), table);
    let rate = o.req(
        cx,
        "rate",
        "expected a rate with a unit, like rate = \"15Mbps\"",
        walk::rate,
    );
    let delay = o.opt(cx, "delay", Time::ZERO, walk::time);
    let queue = o.opt(cx, "queue", default_queue, |v| {
        walk::int(
            v,
            1,
            i64::from(u32::MAX),
            "a positive integer number of packets",
            "",
        )
    });
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
    let aqm = match (aqm, red_table) {
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
    };
    o.finish(cx);
    Some(LinkSpec {
        rate: rate?,
        delay: delay?,
        queue: queue?,
        aqm: aqm?,
    })
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

fn impairments(
    top: &mut Obj,
    cx: &mut Ctx,
    shape: Option<&Shape>,
    pairs: Option<u32>,
) -> Option<Vec<ImpairmentSpec>> {
    match top.get("impairments") {
        None => Some(Vec::new()),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::Table(t) => impairment(t, i, cx, shape, pairs),
                _ => {
                    cx.problem(
                        format!("impairments[{i}]"),
                        format!("expected a table, got {}", describe(v)),
                    );
                    None
                }
            })
            // Collect into Vec first so every element is checked.
            .collect::<Vec<_>>()
            .into_iter()
            .collect(),
        Some(v) => {
            cx.problem(
                "impairments",
                format!(
                    "expected an array of tables ([[impairments]]), got {}",
                    describe(v)
                ),
            );
            None
        }
    }
}

fn impairment(
    table: &Table,
    i: usize,
    cx: &mut Ctx,
    shape: Option<&Shape>,
    pairs: Option<u32>,
) -> Option<ImpairmentSpec> {
    let mut o = Obj::new(format!("impairments[{i}]"), table);
    let link = o.req(
        cx,
        "link",
        "expected a link name, like link = \"bottleneck\"",
        |v| {
            let name = walk::string(v)?;
            if let (Some(s), Some(p)) = (shape, pairs) {
                (s.check_link)(&name, p)?;
            }
            Ok(name)
        },
    );
    let direction = o.opt(cx, "direction", Direction::Forward, |v| match v {
        Value::String(s) if s == "forward" => Ok(Direction::Forward),
        Value::String(s) if s == "reverse" => Ok(Direction::Reverse),
        Value::String(s) => Err(unknown("direction", s, &["forward", "reverse"], quote)),
        _ => Err(format!(
            "expected \"forward\" or \"reverse\", got {}",
            describe(v)
        )),
    });
    let kinds = IMPAIRMENT_KINDS.join(", ");
    let kind = o.req(
        cx,
        "kind",
        &format!("expected one of: {kinds}"),
        walk::string,
    );
    let kind = match kind.as_deref() {
        Some("loss") => o
            .req(
                cx,
                "probability",
                "expected a probability between 0 and 1, like probability = 0.01",
                walk::probability,
            )
            .map(|probability| ImpairmentKind::Loss { probability }),
        Some(other) => {
            // Which other keys are valid depends on the kind; do not guess.
            cx.problem(
                o.key("kind"),
                unknown("impairment kind", other, IMPAIRMENT_KINDS, quote),
            );
            return None;
        }
        None => return None,
    };
    o.finish(cx);
    Some(ImpairmentSpec {
        link: link?,
        direction: direction?,
        kind: kind?,
    })
}
