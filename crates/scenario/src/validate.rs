//! From a `toml::Table` to a [`Scenario`], collecting every problem.
//!
//! Each parser returns `Option<T>`: `None` means a problem was recorded, and
//! checks that depend on that value are skipped so that one mistake does not
//! cascade into several messages.

use std::collections::BTreeMap;

use reorderlab_sim::{Time, TimeDist};
use toml::{Table, Value};

use crate::catalog::Catalog;
use crate::dist;
use crate::is_safe_name;
use crate::names::NameSpace;
use crate::schema::*;
use crate::topology::{topology, Shape};
use crate::units::{plural, quote};
use crate::walk::{self, describe, segment, shown, unknown, Ctx, Obj};

pub(crate) fn scenario(root: &Table, cat: &dyn Catalog, cx: &mut Ctx) -> Option<Scenario> {
    let vnames = cat.variants();
    let variants = vnames.as_slice();
    let mut top = Obj::new(String::new(), root);
    top.expect(&[
        "name",
        "duration",
        "seed",
        "measure",
        "topology",
        "flows",
        "impairments",
        "traffic",
    ]);
    let name = top.req(
        cx,
        "name",
        "expected a non-empty string, like name = \"one-sack-flow\"",
        safe_name,
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
    let (topology, mut shape) = topology(&mut top, cx);
    let flows = flows(&mut top, cx, cat, duration, shape.as_ref());
    let total = flows.as_deref().and_then(|f| total_flows(f, cx));
    if let Some(s) = shape.as_mut().filter(|s| s.kind == "dumbbell") {
        s.names = check_pairs(s, flows.as_deref(), total, cx).map(NameSpace::dumbbell);
    }
    let names = shape.as_ref().and_then(|s| s.names.as_ref());
    let impairments = impairments(&mut top, cx, names, duration);
    let traffic = traffic(&mut top, cx, names, variants, duration);
    if let Some((a, b)) = shape.as_ref().and_then(|s| s.default_unreachable.as_ref()) {
        default_endpoints_used(root, flows.as_deref(), a, b, cx);
    }
    top.finish(cx);

    Some(Scenario {
        name: name?,
        duration: duration?,
        seed: seed?,
        measure: measure?,
        topology: topology?,
        flows: flows?.into_iter().collect::<Option<Vec<_>>>()?,
        impairments: impairments?,
        traffic: traffic?,
        source: root.clone(),
    })
}

/// A custom topology's implicit default endpoints (first node to last) are
/// not connected: a problem if a flow or traffic table relies on them.
fn default_endpoints_used(
    root: &Table,
    flows: Option<&[Option<FlowSpec>]>,
    a: &str,
    b: &str,
    cx: &mut Ctx,
) {
    let flow = flows.unwrap_or(&[]).iter().position(|f| {
        f.as_ref()
            .is_some_and(|f| f.src.is_none() && f.dst.is_none())
    });
    let traffic = || {
        root.get("traffic")
            .and_then(Value::as_array)?
            .iter()
            .position(|t| {
                t.as_table()
                    .is_some_and(|t| !t.contains_key("src") && !t.contains_key("dst"))
            })
    };
    let user = match (flow, traffic()) {
        (Some(i), _) => format!("flows[{i}]"),
        (None, Some(i)) => format!("traffic[{i}]"),
        (None, None) => return,
    };
    cx.problem(
        "topology.endpoints",
        format!(
            "required key is missing: {user} uses the default endpoints, from the first node ({}) to the last ({}), but no path joins them over topology.links",
            quote(a),
            quote(b)
        ),
    );
}

fn measure(top: &mut Obj, cx: &mut Ctx, duration: Option<Time>) -> Option<Measure> {
    let empty = Table::new();
    let table = top.table(cx, "measure")?.unwrap_or(&empty);
    let mut m = Obj::new("measure".into(), table);
    let from = m.opt(cx, "from", Time::ZERO, walk::time);
    let to = m.maybe(cx, "to", walk::time);
    let series_interval = m.maybe(cx, "series_interval", walk::positive_time);
    if let (Some(Some(iv)), Some(d)) = (series_interval, duration) {
        let samples = d.0 / iv.0.max(1);
        if samples > defaults::MAX_SERIES_SAMPLES {
            cx.problem(
                "measure.series_interval",
                format!(
                    "expected at most {} samples per flow (duration = {d} / series_interval; the series is kept in memory), got {} ({samples} samples); use an interval of at least {}",
                    defaults::MAX_SERIES_SAMPLES,
                    shown(m.raw("series_interval"), iv),
                    Time(d.0.div_ceil(defaults::MAX_SERIES_SAMPLES)),
                ),
            );
        }
    }
    let reorder_threshold = m.opt(cx, "reorder_threshold", defaults::REORDER_THRESHOLD, |v| {
        walk::int(
            v,
            1,
            i64::from(defaults::MAX_REORDER_THRESHOLD),
            "a positive integer number of packets",
            " packets (the density meter costs about 32 bytes per packet of threshold per flow)",
        )
    });
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
        reorder_threshold: reorder_threshold?,
    })
}

/// Outer `None`: the `flows` key itself is unusable; inner `None`: that table is invalid.
fn flows(
    top: &mut Obj,
    cx: &mut Ctx,
    cat: &dyn Catalog,
    duration: Option<Time>,
    shape: Option<&Shape>,
) -> Option<Vec<Option<FlowSpec>>> {
    walk::each_table(
        top,
        cx,
        "flows",
        Some("expected at least one [[flows]] table, like [[flows]] variant = \"newreno\""),
        |t, i, cx| flow(t, i, cx, cat, duration, shape),
    )
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
    cat: &dyn Catalog,
    duration: Option<Time>,
    shape: Option<&Shape>,
) -> Option<FlowSpec> {
    let mut o = Obj::new(format!("flows[{i}]"), table);
    let names = cat.variants();
    let variants = names.as_slice();
    let variant = o.req(cx, "variant", &known_variants(variants), |v| {
        variant(v, variants)
    });
    let count = o.opt(cx, "count", defaults::COUNT, |v| {
        walk::int(v, 1, i64::from(u32::MAX), "a positive integer", "")
    });
    let mss = o.opt(cx, "mss", defaults::MSS, mss);
    let bytes = o.maybe(cx, "bytes", walk::positive_size);
    let start = start_time(&mut o, cx, duration);
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
            i64::from(defaults::MAX_INITIAL_WINDOW),
            "a positive integer number of segments",
            " segments (RFC 6928 allows 10; each segment of the window is sender memory)",
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
    let newreno_timer = o.opt(cx, "newreno_timer", NewRenoTimer::Impatient, |v| match v {
        Value::String(s) if s == "impatient" => Ok(NewRenoTimer::Impatient),
        Value::String(s) if s == "slow-but-steady" => Ok(NewRenoTimer::SlowButSteady),
        Value::String(s) => Err(unknown(
            "NewReno timer rule",
            s,
            &["impatient", "slow-but-steady"],
            quote,
        )),
        _ => Err(format!(
            "expected \"impatient\" or \"slow-but-steady\", got {}",
            walk::describe(v)
        )),
    });
    let rwnd_ooo = o.opt(cx, "rwnd_ooo", RwndOoo::Inside, |v| match v {
        Value::String(s) if s == "inside" => Ok(RwndOoo::Inside),
        Value::String(s) if s == "subtract" => Ok(RwndOoo::Subtract),
        Value::String(s) => Err(unknown(
            "receive-window rule",
            s,
            &["inside", "subtract"],
            quote,
        )),
        _ => Err(format!(
            "expected \"inside\" or \"subtract\", got {}",
            walk::describe(v)
        )),
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
    let pair = match (pair, shape) {
        (Some(Some(_)), Some(s)) if s.kind != "dumbbell" => {
            cx.problem(
                o.key("pair"),
                format!(
                    "pair applies only to the dumbbell; on a {} topology, choose the nodes with src and dst",
                    s.kind
                ),
            );
            None
        }
        (pair, _) => pair,
    };
    let cc = o.maybe(cx, "cc", |v| cc(v, cat));
    let params = params(&mut o, cx);
    let params = match (&variant, params) {
        (Some(name), Some(params)) => check_params(&o, cx, cat, name, params),
        (_, params) => params,
    };
    let dumbbell = shape.is_some_and(|s| s.kind == "dumbbell");
    let ends = endpoints(&mut o, cx, shape.and_then(|s| s.names.as_ref()), dumbbell);
    let reverse = o.opt(cx, "reverse", false, walk::boolean);
    let ends = match (ends, reverse) {
        (Some((Some(_), Some(_))), Some(true)) => {
            cx.problem(
                o.key("reverse"),
                "reverse swaps the default endpoints; with src and dst given, write them in the direction the data flows",
            );
            None
        }
        (ends, _) => ends,
    };
    o.finish(cx);
    let (src, dst) = match ends {
        Some((s, d)) => (Some(s), Some(d)),
        None => (None, None),
    };
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
        newreno_timer: newreno_timer?,
        rwnd_ooo: rwnd_ooo?,
        pair: pair?,
        cc: cc?,
        params: params?,
        src: src?,
        dst: dst?,
        reverse: reverse?,
    })
}

/// Validated `src` and `dst`: both `Some` or both `None` (absent).
type Ends = (Option<String>, Option<String>);

/// The `src` and `dst` keys of a flow or traffic table: given together, nodes
/// of the topology (when its names are known), different, and connected.
/// `None` when a problem was recorded. On the dumbbell, flows (`dumbbell`)
/// are placed by pair and may not name nodes.
fn endpoints(o: &mut Obj, cx: &mut Ctx, names: Option<&NameSpace>, dumbbell: bool) -> Option<Ends> {
    let src = o.maybe(cx, "src", walk::nonempty_string);
    let dst = o.maybe(cx, "dst", walk::nonempty_string);
    let given = |k: &str| o.raw(k).is_some();
    if dumbbell && (given("src") || given("dst")) {
        let k = if given("src") { "src" } else { "dst" };
        cx.problem(
            o.key(k),
            "the dumbbell places flows by pair; use pair (and reverse) instead of src and dst",
        );
        return None;
    }
    let (src, dst) = (src?, dst?);
    let (src, dst) = match (src, dst) {
        (None, None) => return Some((None, None)),
        (Some(s), Some(d)) => (s, d),
        (s, _) => {
            let (missing, example) = if s.is_some() {
                ("dst", "D")
            } else {
                ("src", "S")
            };
            cx.problem(
                o.key(missing),
                format!(
                    "required key is missing; src and dst are given together, expected a node name, like {missing} = \"{example}\""
                ),
            );
            return None;
        }
    };
    let Some(ns) = names else {
        return Some((Some(src), Some(dst)));
    };
    let mut ok = true;
    for (k, n) in [("src", &src), ("dst", &dst)] {
        if let Err(m) = ns.check_node(n) {
            cx.problem(o.key(k), m);
            ok = false;
        }
    }
    if ok && src == dst {
        cx.problem(
            o.key("dst"),
            format!(
                "expected a node other than src ({}), got {}",
                quote(&src),
                quote(&dst)
            ),
        );
        ok = false;
    }
    if ok && !ns.connected(&src, &dst) {
        cx.problem(
            o.key("dst"),
            format!(
                "no path from {} to {} over topology.links",
                quote(&src),
                quote(&dst)
            ),
        );
        ok = false;
    }
    ok.then_some((Some(src), Some(dst)))
}

/// "expected one of: <variants>", or that none are known.
fn known_variants(variants: &[&str]) -> String {
    if variants.is_empty() {
        "no TCP variants are known".to_string()
    } else {
        format!("expected one of: {}", variants.join(", "))
    }
}

/// A TCP variant name the caller knows.
fn variant(v: &Value, variants: &[&str]) -> Result<String, String> {
    match v {
        Value::String(s) if variants.contains(&s.as_str()) => Ok(s.clone()),
        Value::String(s) => Err(unknown("TCP variant", s, variants, quote)),
        _ => Err(format!(
            "expected a string ({}), got {}",
            known_variants(variants),
            describe(v)
        )),
    }
}

/// The scenario's `name`: it names the output directory `results/<name>`,
/// so it must be one safe file name (never `..`, a path or hidden).
pub(crate) fn safe_name(v: &Value) -> Result<String, String> {
    let name = walk::nonempty_string(v)?;
    if is_safe_name(&name) {
        Ok(name)
    } else {
        Err(format!(
            "expected a file name of ASCII letters, digits, '-', '_' and '.', not starting with '.' (it names the output directory results/<name>), got {}",
            describe(v)
        ))
    }
}

/// A `cc` name the catalog knows (any non-empty name when it knows none).
fn cc(v: &Value, cat: &dyn Catalog) -> Result<String, String> {
    let name = walk::nonempty_string(v)?;
    match cat.cc_names() {
        Some(known) if !known.contains(&name.as_str()) => {
            Err(unknown("congestion control", &name, &known, quote))
        }
        _ => Ok(name),
    }
}

/// Every entry of a flow's `params` against its variant's parameter table
/// (known name, value in the range of its paper or RFC); each bad entry is
/// a problem at `flows[i].params.<name>`.
fn check_params(
    o: &Obj,
    cx: &mut Ctx,
    cat: &dyn Catalog,
    variant: &str,
    params: BTreeMap<String, f64>,
) -> Option<BTreeMap<String, f64>> {
    let mut ok = true;
    for (k, v) in &params {
        if let Err(m) = cat.check_param(variant, k, *v) {
            cx.problem(format!("{}.{}", o.key("params"), segment(k)), m);
            ok = false;
        }
    }
    ok.then_some(params)
}

/// A maximum segment size in bytes.
fn mss(v: &Value) -> Result<u32, String> {
    walk::int(
        v,
        1,
        i64::from(defaults::MAX_MSS),
        "a positive integer number of bytes",
        " bytes (65535 minus 40 bytes of IPv4 and TCP headers)",
    )
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

fn impairments(
    top: &mut Obj,
    cx: &mut Ctx,
    names: Option<&NameSpace>,
    duration: Option<Time>,
) -> Option<Vec<ImpairmentSpec>> {
    // Every element is checked before the list is refused for one bad one.
    walk::each_table(top, cx, "impairments", None, |t, i, cx| {
        impairment(t, i, cx, names, duration)
    })?
    .into_iter()
    .collect()
}

/// A number in [0, 1] called `what` in messages.
fn unit_interval(v: &Value, what: &str) -> Result<f64, String> {
    match walk::number(v) {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!(
            "expected {what} between 0 and 1, got {}",
            describe(v)
        )),
    }
}

/// A timed impairment whose events come `typical` apart causes at most
/// [`defaults::MAX_TIMED_EVENTS`] over the run; otherwise a problem at `k`.
fn timed_events_ok(
    o: &Obj,
    cx: &mut Ctx,
    k: &str,
    typical: Time,
    got: String,
    duration: Option<Time>,
    what: &str,
) -> bool {
    let Some(d) = duration else { return true };
    let events = d.0 / typical.0.max(1);
    if events <= defaults::MAX_TIMED_EVENTS {
        return true;
    }
    cx.problem(
        o.key(k),
        format!(
            "expected at most {} {what} over the run (duration = {d}), got {got}: {events} {what}; use at least {}",
            defaults::MAX_TIMED_EVENTS,
            Time(d.0.div_ceil(defaults::MAX_TIMED_EVENTS)),
        ),
    );
    false
}

/// A time before the end of the run.
/// `start` of a flow or traffic source: a time or a distribution (start-time
/// jitter), every draw of which must be able to fall before the end of the
/// run: a plain time or a uniform's `max` before `duration` (draws of a
/// normal or exponential beyond it leave that flow unstarted).
fn start_time(o: &mut Obj, cx: &mut Ctx, duration: Option<Time>) -> Option<TimeDist> {
    let d = dist::opt(o, cx, "start", TimeDist::Constant(Time::ZERO))?;
    let Some(duration) = duration else {
        return Some(d);
    };
    match d {
        TimeDist::Constant(t) if t >= duration => {
            before_end(o, cx, "start", Some(t), Some(duration), "a start time");
            None
        }
        TimeDist::Uniform { max, .. } if max >= duration => {
            let key = format!("{}.max", o.key("start"));
            cx.problem(
                key,
                format!(
                    "expected the latest start before the end of the run (duration = {duration}), got {max}"
                ),
            );
            None
        }
        TimeDist::Normal { mean, .. } | TimeDist::Exponential { mean } if mean >= duration => {
            cx.problem(
                o.key("start"),
                format!(
                    "expected a start distribution whose mean is before the end of the run (duration = {duration}), got {}",
                    dist::show(&d)
                ),
            );
            None
        }
        _ => Some(d),
    }
}

fn before_end(o: &Obj, cx: &mut Ctx, k: &str, t: Option<Time>, duration: Option<Time>, what: &str) {
    if let (Some(t), Some(duration)) = (t, duration) {
        if t >= duration {
            cx.problem(
                o.key(k),
                format!(
                    "expected {what} before the end of the run (duration = {duration}), got {}",
                    shown(o.raw(k), t)
                ),
            );
        }
    }
}

fn impairment(
    table: &Table,
    i: usize,
    cx: &mut Ctx,
    names: Option<&NameSpace>,
    duration: Option<Time>,
) -> Option<ImpairmentSpec> {
    let mut o = Obj::new(format!("impairments[{i}]"), table);
    o.expect(&["link", "direction", "kind"]);
    let link = o.req(
        cx,
        "link",
        "expected a link name, like link = \"bottleneck\"",
        |v| {
            let name = walk::string(v)?;
            if let Some(ns) = names {
                ns.check_link(&name)?;
            }
            Ok(name)
        },
    );
    let spikes = o.raw("kind").and_then(Value::as_str) == Some("spikes");
    let direction = if spikes {
        if o.get("direction").is_some() {
            cx.problem(
                o.key("direction"),
                "spikes suspend both directions of a link; remove 'direction'",
            );
            None
        } else {
            Some(Direction::Forward)
        }
    } else {
        o.opt(cx, "direction", Direction::Forward, |v| match v {
            Value::String(s) if s == "forward" => Ok(Direction::Forward),
            Value::String(s) if s == "reverse" => Ok(Direction::Reverse),
            Value::String(s) => Err(unknown("direction", s, &["forward", "reverse"], quote)),
            _ => Err(format!(
                "expected \"forward\" or \"reverse\", got {}",
                describe(v)
            )),
        })
    };
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
        Some("delay") => {
            let fraction = o.req(
                cx,
                "fraction",
                "expected a fraction between 0 and 1, like fraction = 0.01",
                |v| unit_interval(v, "a fraction"),
            );
            let delay = dist::req(
                &mut o,
                cx,
                "delay",
                "{ dist = \"normal\", mean = \"25ms\", sd = \"8ms\" }",
            );
            (|| {
                Some(ImpairmentKind::Delay {
                    fraction: fraction?,
                    delay: delay?,
                })
            })()
        }
        Some("swap") => {
            let interval = o.opt(cx, "interval", defaults::SWAP_INTERVAL, walk::positive_time);
            let interval = interval.filter(|&iv| {
                timed_events_ok(
                    &o,
                    cx,
                    "interval",
                    iv,
                    shown(o.raw("interval"), iv),
                    duration,
                    "swap events",
                )
            });
            let swaps = o.req(
                cx,
                "swaps",
                "expected a positive integer number of swaps per event, like swaps = 4",
                |v| {
                    walk::int(
                        v,
                        1,
                        i64::from(defaults::MAX_SWAPS),
                        "a positive integer number of swaps",
                        " swaps per event (TCP-PR's K goes to 64; each swap is work in the event)",
                    )
                },
            );
            (|| {
                Some(ImpairmentKind::Swap {
                    interval: interval?,
                    swaps: swaps?,
                })
            })()
        }
        Some("spikes") => {
            let length = dist::opt(&mut o, cx, "length", defaults::SPIKE_LENGTH);
            let length = dist::check_positive(&o, cx, "length", length);
            let every = dist::opt(&mut o, cx, "every", defaults::SPIKE_EVERY);
            let every = dist::check_positive(&o, cx, "every", every).filter(|d| {
                timed_events_ok(
                    &o,
                    cx,
                    "every",
                    dist::typical(d),
                    format!("{} (mean)", dist::show(d)),
                    duration,
                    "spikes",
                )
            });
            (|| {
                Some(ImpairmentKind::Spikes {
                    length: length?,
                    every: every?,
                })
            })()
        }
        Some("rate-change") => {
            let at = o.req(
                cx,
                "at",
                "expected a time with a unit, like at = \"30s\"",
                walk::time,
            );
            before_end(&o, cx, "at", at, duration, "a time");
            let at = at.filter(|t| duration.is_none_or(|d| *t < d));
            let rate = o.req(
                cx,
                "rate",
                "expected a rate with a unit, like rate = \"1Mbps\"",
                walk::rate,
            );
            (|| {
                Some(ImpairmentKind::RateChange {
                    at: at?,
                    rate: rate?,
                })
            })()
        }
        Some("burst-loss") => {
            let rate = o.req(
                cx,
                "rate",
                "expected a number of loss events per packet between 0 and 1, like rate = 0.0002",
                |v| unit_interval(v, "a number of loss events per packet"),
            );
            let length = dist::opt(&mut o, cx, "length", defaults::BURST_LENGTH);
            (|| {
                Some(ImpairmentKind::BurstLoss {
                    rate: rate?,
                    length: length?,
                })
            })()
        }
        Some("arq") => {
            let frame_error = o.req(
                cx,
                "frame_error",
                "expected a probability between 0 and 1, like frame_error = 0.1",
                walk::probability,
            );
            let retries = o.opt(cx, "retries", defaults::ARQ_RETRIES, |v| {
                walk::int(
                    v,
                    0,
                    i64::from(defaults::MAX_ARQ_RETRIES),
                    "a non-negative integer number of retries",
                    " retries (802.11's retry limits are 4 and 7)",
                )
            });
            let attempt_delay = o.opt(cx, "attempt_delay", defaults::ARQ_ATTEMPT_DELAY, walk::time);
            (|| {
                Some(ImpairmentKind::Arq {
                    frame_error: frame_error?,
                    retries: retries?,
                    attempt_delay: attempt_delay?,
                })
            })()
        }
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

fn traffic(
    top: &mut Obj,
    cx: &mut Ctx,
    names: Option<&NameSpace>,
    variants: &[&str],
    duration: Option<Time>,
) -> Option<Vec<TrafficSpec>> {
    walk::each_table(top, cx, "traffic", None, |t, i, cx| {
        traffic_item(t, i, cx, names, variants, duration)
    })?
    .into_iter()
    .collect()
}

fn traffic_item(
    table: &Table,
    i: usize,
    cx: &mut Ctx,
    names: Option<&NameSpace>,
    variants: &[&str],
    duration: Option<Time>,
) -> Option<TrafficSpec> {
    let mut o = Obj::new(format!("traffic[{i}]"), table);
    o.expect(&["kind", "src", "dst"]);
    let kinds = TRAFFIC_KINDS.join(", ");
    let kind = o.req(
        cx,
        "kind",
        &format!("expected one of: {kinds}"),
        walk::string,
    )?;
    if !TRAFFIC_KINDS.contains(&kind.as_str()) {
        cx.problem(
            o.key("kind"),
            unknown("traffic kind", &kind, TRAFFIC_KINDS, quote),
        );
        return None;
    }
    // Both ends default to the topology's first default endpoint pair.
    let ends = endpoints(&mut o, cx, names, false).and_then(|e| match e {
        (Some(s), Some(d)) => Some((s, d)),
        _ => names.and_then(|n| n.first_endpoint.clone()),
    });
    let start = start_time(&mut o, cx, duration);
    let spec = if kind == "cbr" {
        let rate = o.req(
            cx,
            "rate",
            "expected a rate with a unit, like rate = \"1Mbps\"",
            walk::rate,
        );
        let packet_bytes = o.opt(cx, "packet_bytes", defaults::CBR_PACKET_BYTES, |v| {
            walk::int(
                v,
                i64::from(defaults::MIN_PACKET_BYTES),
                i64::from(defaults::MAX_PACKET_BYTES),
                "an integer number of bytes, at least 28 (IPv4 and UDP headers)",
                " bytes (the IPv4 limit)",
            )
        });
        let rate = match (rate, packet_bytes) {
            (Some(r), Some(b)) => {
                let pps = r / (8 * u64::from(b));
                if pps > defaults::MAX_CBR_PACKET_RATE {
                    cx.problem(
                        o.key("rate"),
                        format!(
                            "expected at most {} packets per second (rate / (8 x packet_bytes)), got {} with {b}-byte packets: {pps} packets per second",
                            defaults::MAX_CBR_PACKET_RATE,
                            shown(o.raw("rate"), r),
                        ),
                    );
                    None
                } else {
                    Some(r)
                }
            }
            (rate, _) => rate,
        };
        let stop = o.maybe(cx, "stop", walk::time);
        let latest = start.as_ref().and_then(dist::upper);
        let which = match start {
            Some(TimeDist::Constant(_)) => "start",
            _ => "the latest start",
        };
        let stop = match (stop, latest) {
            (Some(Some(stop)), Some(start)) if stop <= start => {
                cx.problem(
                    o.key("stop"),
                    format!(
                        "expected a time after {which} ({start}), got {}",
                        shown(o.raw("stop"), stop)
                    ),
                );
                None
            }
            (stop, _) => stop,
        };
        (|| {
            let (src, dst) = ends?;
            Some(TrafficSpec::Cbr(Cbr {
                src,
                dst,
                rate: rate?,
                packet_bytes: packet_bytes?,
                start: start?,
                stop: stop?,
            }))
        })()
    } else {
        web(&mut o, cx, variants, ends, start)
    };
    o.finish(cx);
    spec
}

fn web(
    o: &mut Obj,
    cx: &mut Ctx,
    variants: &[&str],
    ends: Option<(String, String)>,
    start: Option<TimeDist>,
) -> Option<TrafficSpec> {
    let positive =
        |what: &'static str| move |v: &Value| walk::int(v, 1, i64::from(u32::MAX), what, "");
    let pairs = o.opt(
        cx,
        "pairs",
        defaults::WEB_PAIRS,
        positive("a positive integer number of server-client pairs"),
    );
    let sessions = o.opt(
        cx,
        "sessions",
        defaults::WEB_SESSIONS,
        positive("a positive integer number of sessions per pair"),
    );
    let variant = match o.get("variant") {
        None if variants.contains(&defaults::WEB_VARIANT) => {
            Some(defaults::WEB_VARIANT.to_string())
        }
        None => {
            cx.problem(
                o.key("variant"),
                format!(
                    "required key is missing: the default {} is not a known TCP variant; {}",
                    quote(defaults::WEB_VARIANT),
                    known_variants(variants)
                ),
            );
            None
        }
        Some(_) => o.opt(cx, "variant", String::new(), |v| variant(v, variants)),
    };
    let mss = o.opt(cx, "mss", defaults::MSS, mss);
    let inter_page = dist::opt(o, cx, "inter_page", defaults::WEB_INTER_PAGE);
    let objects_per_page = match o.get("objects_per_page") {
        None => Some(defaults::WEB_OBJECTS_PER_PAGE),
        Some(v) => objects_per_page(&o.key("objects_per_page"), v, cx),
    };
    let inter_object = dist::opt(o, cx, "inter_object", defaults::WEB_INTER_OBJECT);
    let object_size_mean = o.opt(
        cx,
        "object_size_mean",
        defaults::WEB_OBJECT_SIZE_MEAN,
        walk::positive_size,
    );
    let object_size_shape = o.opt(
        cx,
        "object_size_shape",
        defaults::WEB_OBJECT_SIZE_SHAPE,
        |v| match walk::number(v) {
            Ok(x) if x > 1.0 => Ok(x),
            _ => Err(format!(
                "expected a number greater than 1 (the Pareto mean is finite only then), got {}",
                describe(v)
            )),
        },
    );
    let (src, dst) = ends?;
    Some(TrafficSpec::Web(Web {
        src,
        dst,
        pairs: pairs?,
        sessions: sessions?,
        variant: variant?,
        mss: mss?,
        start: start?,
        inter_page: inter_page?,
        objects_per_page: objects_per_page?,
        inter_object: inter_object?,
        object_size_mean: object_size_mean?,
        object_size_shape: object_size_shape?,
    }))
}

fn objects_per_page(key: &str, v: &Value, cx: &mut Ctx) -> Option<[u32; 2]> {
    let a = match v {
        Value::Array(a) if a.len() == 2 => a,
        v => {
            cx.problem(
                key,
                format!(
                    "expected an inclusive range [min, max] of objects per page, like [1, 5], got {}",
                    describe(v)
                ),
            );
            return None;
        }
    };
    let mut ends = [None, None];
    for (j, e) in a.iter().enumerate() {
        match walk::int(
            e,
            1,
            i64::from(u32::MAX),
            "a positive integer number of objects",
            "",
        ) {
            Ok(n) => ends[j] = Some(n),
            Err(m) => cx.problem(format!("{key}[{j}]"), m),
        }
    }
    let [Some(min), Some(max)] = ends else {
        return None;
    };
    if min > max {
        cx.problem(
            key,
            format!("expected [min, max] with min no greater than max, got [{min}, {max}]"),
        );
        return None;
    }
    Some([min, max])
}
